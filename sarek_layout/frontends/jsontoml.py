"""JSON and TOML schema files (SPEC §3): one structure, two syntaxes, read into declarations.

The standard library parses (``json`` in C, ``tomllib``); this module checks the structure
(every wrong type or unknown key is refused with its place) and turns it into a
``ModuleDecl``. Positions are lazy: each node keeps its path in the document and
``positions`` finds the line and column only when an error is printed.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..errors import SchemaError, quoted
from ..ir.schema import (
    ContainerType,
    CtorDecl,
    FieldDecl,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    TypeDecl,
    TypeExpr,
    VariantDecl,
)
from .positions import json_positions, toml_positions

__all__ = ["read_json", "read_toml", "parse_type_expr", "default_module_name"]

Path = Tuple[Union[str, int], ...]

_TOP_KEYS = ("version", "module", "types")
#: Versions of the file format this reader knows (the optional top-level "version" key).
SCHEMA_VERSIONS = (1,)
_TYPE_KEYS = {"record": ("record", "fields"), "variant": ("variant", "constructors")}
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_BASE = re.compile(rf"(?:(?P<module>{_NAME})\.)?(?P<name>{_NAME})\Z")


def default_module_name(path: str) -> str:
    """The file's stem, capitalised as OCaml does (``geometry_lib.toml`` → ``Geometry_lib``)."""
    import os

    stem = os.path.basename(path).split(".")[0]
    return stem[:1].upper() + stem[1:]


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    names = {dict: "a table/object", list: "an array", str: "a string", bool: "a boolean"}
    for t, name in names.items():
        if isinstance(value, t):
            return name
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__


#: ``text -> (name, module)`` of the plain names already parsed (``float32``, ``Geo.point``):
#: a schema spells the same few names thousands of times. Bounded, as the text is input.
_PLAIN: Dict[str, Tuple[str, Optional[str]]] = {}
_PLAIN_MAX = 4096


def parse_type_expr(text: Any, location: SourceLocation) -> TypeExpr:
    """``float32``, ``point``, ``Geometry.point``, ``float32 array``, ``point vector``…"""
    if type(text) is str:
        plain = _PLAIN.get(text)
        if plain is not None:
            return NamedType(plain[0], plain[1], location)
    if not isinstance(text, str):
        raise SchemaError(f"a type must be written as a string, not {_kind(text)}", location)
    words = text.split()
    if not words:
        raise SchemaError("empty type expression; write a scalar or a type name", location)
    if any("'" in w for w in words):
        raise SchemaError(
            f"parameterised type {quoted(text)} is not supported; element types must be concrete",
            location,
        )
    if any(c in text for c in "*()[]{},"):
        raise SchemaError(
            f"bad type expression {quoted(text)}: write one type name, optionally followed by "
            f"'array' or 'vector' (tuples: use a record type)",
            location,
        )
    m = _BASE.match(words[0])
    if m is None:
        raise SchemaError(f"bad type name {quoted(words[0])} in {quoted(text)}", location)
    expr: TypeExpr = NamedType(m.group("name"), m.group("module"), location)
    if len(words) == 1 and text == words[0] and len(_PLAIN) < _PLAIN_MAX:
        _PLAIN[text] = (expr.name, expr.module)
    for word in words[1:]:
        if word not in ("array", "vector"):
            raise SchemaError(
                f"unsupported type constructor {quoted(word)} in {quoted(text)}; only 'array' and 'vector' "
                f"exist (and neither has an element layout)",
                location,
            )
        expr = ContainerType(expr, word, location)
    return expr


class _Reader:
    def __init__(self, path: str, data: Any, locator: Callable[[Path], Tuple[int, int]], fmt: str):
        self.path = path
        self.data = data
        self.locator = locator
        self.format = fmt

    def loc(self, path: Path) -> SourceLocation:
        return SourceLocation(self.path, path=path, locator=self.locator)

    def expect(self, value: Any, kind: type, what: str, path: Path) -> Any:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            want = {dict: "a table/object", list: "an array", str: "a string"}[kind]
            raise SchemaError(f"{what} must be {want}, not {_kind(value)}", self.loc(path))
        return value

    def module(self) -> ModuleDecl:
        top = self.expect(self.data, dict, "the schema", ())
        for key in top:
            if key not in _TOP_KEYS:
                raise SchemaError(
                    f"unknown key {quoted(key)} at top level; expected 'version', 'module' and 'types'",
                    self.loc((key,)),
                )
        version = top.get("version", SCHEMA_VERSIONS[-1])
        if type(version) is not int or version not in SCHEMA_VERSIONS:
            raise SchemaError(
                f"unknown schema version {quoted(version)}; this sarek-layout reads version "
                f"{' or '.join(map(str, SCHEMA_VERSIONS))} (an integer); a newer format needs a "
                f"newer sarek-layout",
                self.loc(("version",)),
            )
        if "module" in top:
            name = self.expect(top["module"], str, "'module'", ("module",))
        else:
            name = default_module_name(self.path)
        if "types" not in top:
            raise SchemaError("the schema has no 'types' array", self.loc(()))
        types = self.expect(top["types"], list, "'types'", ("types",))
        decls = tuple(self.decl(entry, ("types", i)) for i, entry in enumerate(types))
        location = self.loc(("module",) if "module" in top else ())
        return ModuleDecl(name, self.path, self.format, decls, location)

    def decl(self, entry: Any, path: Path) -> TypeDecl:
        entry = self.expect(entry, dict, "a type declaration", path)
        kinds = [k for k in _TYPE_KEYS if k in entry]
        if len(kinds) != 1:
            raise SchemaError(
                "a type declaration needs exactly one of 'record' or 'variant' (its name)",
                self.loc(path),
            )
        kind = kinds[0]
        allowed = _TYPE_KEYS[kind]
        for key in entry:
            if key not in allowed:
                raise SchemaError(
                    f"unknown key {quoted(key)} in a {kind} declaration; expected "
                    f"{' and '.join(repr(k) for k in allowed)}",
                    self.loc(path + (key,)),
                )
        name = self.expect(entry[kind], str, f"the {kind} name", path + (kind,))
        location = self.loc(path + (kind,))
        members_key = allowed[1]
        if members_key not in entry:
            raise SchemaError(f"{kind} {quoted(name)} has no {members_key!r} array", location)
        members = self.expect(entry[members_key], list, f"{members_key!r}", path + (members_key,))
        if kind == "record":
            fields = tuple(
                self.field(m, path + (members_key, i)) for i, m in enumerate(members)
            )
            return RecordDecl(name, fields, location)
        ctors = tuple(self.ctor(m, path + (members_key, i)) for i, m in enumerate(members))
        return VariantDecl(name, ctors, location)

    def field(self, entry: Any, path: Path) -> FieldDecl:
        if not isinstance(entry, list) or len(entry) != 2:
            raise SchemaError(
                f"a field must be a [name, type] pair, not {_kind(entry)}"
                + (f" of length {len(entry)}" if isinstance(entry, list) else ""),
                self.loc(path),
            )
        name = self.expect(entry[0], str, "a field name", path + (0,))
        return FieldDecl(name, parse_type_expr(entry[1], self.loc(path + (1,))), self.loc(path + (0,)))

    def ctor(self, entry: Any, path: Path) -> CtorDecl:
        if not isinstance(entry, list) or len(entry) not in (1, 2):
            raise SchemaError(
                "a constructor must be [name, [argument types]] or [name], not "
                + _kind(entry)
                + (f" of length {len(entry)}" if isinstance(entry, list) else ""),
                self.loc(path),
            )
        name = self.expect(entry[0], str, "a constructor name", path + (0,))
        args: List[TypeExpr] = []
        if len(entry) == 2:
            if isinstance(entry[1], dict):
                raise SchemaError(
                    f"constructor {quoted(name)} has an inline record, which is not supported; "
                    f"declare a record type and use its name as the argument",
                    self.loc(path + (1,)),
                )
            raw = self.expect(entry[1], list, f"the arguments of {quoted(name)}", path + (1,))
            for j, arg in enumerate(raw):
                if isinstance(arg, dict):
                    raise SchemaError(
                        f"constructor {quoted(name)} has an inline record, which is not supported; "
                        f"declare a record type and use its name as the argument",
                        self.loc(path + (1, j)),
                    )
                args.append(parse_type_expr(arg, self.loc(path + (1, j))))
        return CtorDecl(name, tuple(args), self.loc(path + (0,)))


def _read_text(path: str) -> str:
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except IsADirectoryError:
        raise SchemaError("is a directory, not a schema file", SourceLocation(path)) from None
    except OSError as e:
        raise SchemaError(f"cannot read: {e.strerror or e}", SourceLocation(path)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SchemaError(
            f"not UTF-8 text (bad byte at offset {e.start}); is this really a schema?",
            SourceLocation(path),
        ) from None


def read_json(path: str) -> ModuleDecl:
    import json

    text = _read_text(path)
    if not text.strip():
        raise SchemaError("empty file; a schema needs a 'types' array", SourceLocation(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SchemaError(f"invalid JSON: {e.msg}", SourceLocation(path, e.lineno, e.colno)) from None
    except RecursionError:
        raise SchemaError("invalid JSON: nested too deeply", SourceLocation(path, 1, 1)) from None
    cache: List[Any] = []

    def locator(p: Path) -> Tuple[int, int]:
        if not cache:
            cache.append(json_positions(text))
        return cache[0](p)

    return _Reader(path, data, locator, "json").module()


_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)|\(at end of document\)")


def read_toml(path: str) -> ModuleDecl:
    import tomllib

    text = _read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        m = _TOML_POSITION.search(message)
        if m and m.group(1):
            location = SourceLocation(path, int(m.group(1)), int(m.group(2)))
        else:
            location = SourceLocation(path, text.count("\n") + 1, 1)
        message = _TOML_POSITION.sub("", message).strip()
        raise SchemaError(f"invalid TOML: {message}", location) from None
    except RecursionError:
        raise SchemaError("invalid TOML: nested too deeply", SourceLocation(path, 1, 1)) from None
    cache: List[Any] = []

    def locator(p: Path) -> Tuple[int, int]:
        if not cache:
            cache.append(toml_positions(text))
        return cache[0](p)

    return _Reader(path, data, locator, "toml").module()
