"""JSON and TOML schema files (SPEC §3): one structure, two syntaxes, read into declarations.

The standard library parses (``json`` in C, ``tomllib``); this module checks the structure
(every wrong type or unknown key is refused with its place) and turns it into a
``ModuleDecl``. Positions are lazy: each node keeps its path in the document and
``positions`` finds the line and column only when an error is printed.

What the standard parsers let through on hostile input is handled here: a JSON object that
repeats a key (``json`` keeps the last silently; other readers keep the first) is refused;
an integer of more than 4,300 digits (Python refuses to convert it, with a ``ValueError``)
is read as a number, which no schema value is, or refused in TOML with its place; a TOML
key of more than ``MAX_KEY_PARTS`` dotted parts (``tomllib`` takes time quadratic in them:
80 KB of ``a.a.a…`` took a minute) is refused before ``tomllib`` sees it; nesting too deep
for the parsers' recursion is refused.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ...errors import SchemaError, quoted
from ...ir.schema import (
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
from ..source_files import default_module_name

__all__ = ["read_json", "read_toml", "parse_type_expr", "default_module_name"]

Path = Tuple[Union[str, int], ...]

_TOP_KEYS = ("version", "module", "types")
#: Versions of the file format this reader knows (the optional top-level "version" key).
SCHEMA_VERSIONS = (1,)
_TYPE_KEYS = {"record": ("record", "fields"), "variant": ("variant", "constructors")}
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_BASE = re.compile(rf"(?:(?P<module>{_NAME})\.)?(?P<name>{_NAME})\Z")


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


class _PairPlace(SourceLocation):
    """The name (element 0) or the type (element 1) of the ``index``-th pair of the array at
    ``path``: the record's fields share that path, so a field's two places hold no path of
    their own (a tuple per field of every record, a tenth of what reading kept)."""

    __slots__ = ("_index", "_element")

    def __init__(self, file: str, path: Path, index: int, element: int,
                 locator: Callable[[Path], Tuple[int, int]]) -> None:
        # SourceLocation's own fields set here, not through its __init__: one call fewer
        # for each of 160,000 places.
        self.file, self._line, self._col, self.path, self._locator = file, 0, 0, path, locator
        self._index = index
        self._element = element

    def _resolve(self) -> None:
        if self._locator is not None:
            self._line, self._col = self._locator(self.full_path)
            self._locator = None

    @property
    def full_path(self) -> Path:
        return self.path + (self._index, self._element)  # type: ignore[operator]

    def __repr__(self) -> str:
        if self._locator is not None:
            return f"SourceLocation({self.file!r}, path={self.full_path!r})"
        return f"SourceLocation({str(self)!r})"


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
            return RecordDecl(name, self.fields(members, path + (members_key,)), location)
        ctors = tuple(self.ctor(m, path + (members_key, i)) for i, m in enumerate(members))
        return VariantDecl(name, ctors, location)

    def fields(self, members: List[Any], path: Path) -> Tuple[FieldDecl, ...]:
        """A record's fields. A ``[name, type]`` pair of strings whose type is a name already
        parsed (``float32``: most fields) is built here without the checks' calls; any
        other entry goes through ``field``, which refuses it with its place or parses it."""
        out: List[FieldDecl] = []
        append = out.append
        file, intern, locator = self.path, sys.intern, self.locator
        for i, entry in enumerate(members):
            if type(entry) is list and len(entry) == 2:
                name, text = entry
                if type(name) is str and type(text) is str:
                    plain = _PLAIN.get(text)
                    if plain is not None:
                        # Interned: field names repeat across types (x, y, f0…), and each
                        # occurrence would otherwise be a string of its own.
                        append(FieldDecl(
                            intern(name),
                            NamedType(plain[0], plain[1],
                                      _PairPlace(file, path, i, 1, locator)),
                            _PairPlace(file, path, i, 0, locator)))
                        continue
            append(self.field(entry, path + (i,)))
        return tuple(out)

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
    from ..source_files import read_schema_bytes

    raw = read_schema_bytes(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SchemaError(
            f"not UTF-8 text (bad byte at offset {e.start}); is this really a schema?",
            SourceLocation(path),
        ) from None


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _DuplicateKey()
    return obj


#: Python converts at most this many digits to an int (``sys.get_int_max_str_digits``).
_MAX_INT_DIGITS = 4300


def _json_int(digits: str) -> Union[int, float]:
    # A longer one is still a number (which no schema value is), without the ValueError.
    return int(digits) if len(digits) <= _MAX_INT_DIGITS else float(digits)


def read_json(path: str) -> ModuleDecl:
    import json

    text = _read_text(path)
    if not text.strip():
        raise SchemaError("empty file; a schema needs a 'types' array", SourceLocation(path))
    try:
        data = json.loads(text, parse_int=_json_int, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise SchemaError(f"invalid JSON: {e.msg}", SourceLocation(path, e.lineno, e.colno)) from None
    except RecursionError:
        raise SchemaError("invalid JSON: nested too deeply", SourceLocation(path, 1, 1)) from None
    except _DuplicateKey:
        from .positions import json_duplicate_key  # only a message needs a position

        found = json_duplicate_key(text)
        key, (line, col) = found if found is not None else ("?", (1, 1))
        raise SchemaError(
            f"duplicate key {quoted(key)} in an object (JSON readers disagree on which value "
            f"counts); write each key once",
            SourceLocation(path, line, col),
        ) from None
    cache: List[Any] = []

    def locator(p: Path) -> Tuple[int, int]:
        if not cache:
            from .positions import json_positions  # only a message needs a position

            cache.append(json_positions(text))
        return cache[0](p)

    return _Reader(path, data, locator, "json").module()


_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)|\(at end of document\)")

#: Most dotted parts of a TOML key or table name (a schema's have at most two).
MAX_KEY_PARTS = 16

# One piece of TOML per match, to find dotted names outside strings and comments in linear
# time: the alternatives start differently and no repetition can give characters back.
_TOML_BASIC = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
_TOML_PART = rf"(?:[A-Za-z0-9_-]++|{_TOML_BASIC}|'[^'\n]*+')"
_TOML_SCAN = re.compile(
    r'(?P<mlbasic>"""[^"\\]*+(?:(?:\\.|"(?!""))[^"\\]*+)*+(?:"""|\Z))'
    r"|(?P<mlliteral>'''[^']*+(?:'(?!'')[^']*+)*+(?:'''|\Z))"
    r"|(?P<comment>#[^\n]*+)"
    rf"|(?P<dotted>{_TOML_PART}(?:[ \t]*+\.[ \t]*+{_TOML_PART})*+)"
    r"""|(?P<other>[^"'#A-Za-z0-9_-]++|.)""",
    re.S,
)
_TOML_PARTS = re.compile(_TOML_PART)
_TOML_BIG_INT = re.compile(r"(?<![\w.\"'])[+-]?[0-9](?:_?[0-9]){%d,}" % _MAX_INT_DIGITS)


def _offset_line_col(text: str, offset: int) -> Tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _check_toml_keys(text: str, path: str) -> None:
    """Refuse a dotted name of more than ``MAX_KEY_PARTS`` parts before ``tomllib`` reads it."""
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOML_SCAN.match(text, pos)
        pos = m.end()  # type: ignore[union-attr]
        if m.lastgroup != "dotted" or m.group().count(".") < MAX_KEY_PARTS:  # type: ignore[union-attr]
            continue
        parts = len(_TOML_PARTS.findall(m.group()))  # type: ignore[union-attr]
        if parts > MAX_KEY_PARTS:
            raise SchemaError(
                f"a key or table name of {parts} dotted parts; a schema's have at most 2 (the "
                f"limit is {MAX_KEY_PARTS})",
                SourceLocation(path, *_offset_line_col(text, m.start())),  # type: ignore[union-attr]
            )


def read_toml(path: str) -> ModuleDecl:
    import tomllib

    text = _read_text(path)
    _check_toml_keys(text, path)
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
    except ValueError:
        # Not a TOMLDecodeError: Python's limit on converting long decimal integers.
        m = _TOML_BIG_INT.search(text)
        raise SchemaError(
            f"invalid TOML: an integer of more than {_MAX_INT_DIGITS} digits",
            SourceLocation(path, *_offset_line_col(text, m.start() if m else 0)),
        ) from None
    cache: List[Any] = []

    def locator(p: Path) -> Tuple[int, int]:
        if not cache:
            from .positions import toml_positions  # only a message needs a position

            cache.append(toml_positions(text))
        return cache[0](p)

    return _Reader(path, data, locator, "toml").module()
