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
    ArrayType,
    ContainerType,
    CtorDecl,
    EnumDecl,
    EnumValue,
    FieldDecl,
    MatrixType,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    TypeDecl,
    TypeExpr,
    VariantDecl,
    VectorType,
)
from ...ir.types import RULE_SET_NAMES, SCALARS, TInt32, scalar_named
from ..source_files import default_module_name

__all__ = ["read_json", "read_toml", "parse_type_expr", "default_module_name"]

Path = Tuple[Union[str, int], ...]

_TOP_KEYS = ("version", "module", "rules", "types")
#: Versions of the file format this reader knows (the optional top-level "version" key).
SCHEMA_VERSIONS = (1,)
_TYPE_KEYS = {"record": ("record", "fields", "rules"),
              "variant": ("variant", "constructors", "rules"),
              "enum": ("enum", "values", "base", "rules")}
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_BASE = re.compile(rf"(?:(?P<module>{_NAME})\.)?(?P<name>{_NAME})\Z")
#: ``vecN``, ``matN``, ``matCxR``, each with an optional ``<scalar>`` (SPEC §1b).
_VECMAT = re.compile(r"(?:vec(?P<n>\d)|mat(?P<c>\d)(?:x(?P<r>\d))?)(?:<\s*(?P<elem>[A-Za-z0-9_]+)\s*>)?\Z")
#: Most dimensions of a fixed array (``T[2][3][4]`` has 3): real structs have one or two.
MAX_DIMENSIONS = 8
#: A count of more digits is refused before it is converted (the type would be too large
#: anyway: SPEC §1b's largest type is 2^31 - 1 bytes).
_MAX_COUNT_DIGITS = 10


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
    """``float32``, ``point``, ``Geometry.point``, ``float32 array``, ``point vector``, and
    the member kinds of SPEC §1b: ``float32[4]``, ``point[16][2]``, ``vec3<float32>``,
    ``vec4``, ``mat4``, ``mat3x2<float64>``."""
    if type(text) is str:
        plain = _PLAIN.get(text)
        if plain is not None:
            return NamedType(plain[0], plain[1], location)
    if not isinstance(text, str):
        raise SchemaError(f"a type must be written as a string, not {_kind(text)}", location)
    stripped = text.strip()
    if not stripped:
        raise SchemaError("empty type expression; write a scalar or a type name", location)
    if "'" in stripped:
        raise SchemaError(
            f"parameterised type {quoted(text)} is not supported; element types must be concrete",
            location,
        )
    stripped, counts = _dimensions(stripped, text, location)
    words = re.sub(r"\s*([<>])\s*", r"\1", stripped).split()
    if not words:
        raise SchemaError(f"bad type expression {quoted(text)}: the array has no element type",
                          location)
    if any(c in stripped for c in "*()[]{},") or (len(words) > 1 and counts):
        raise SchemaError(
            f"bad type expression {quoted(text)}: write one type name, optionally followed by "
            f"array dimensions (`float32[4]`, `point[2][3]`); vectors and matrices are "
            f"`vec3<float32>`, `mat4` (tuples: use a record type)",
            location,
        )
    expr = _base_expr(words[0], text, location)
    if len(words) == 1 and not counts and text == words[0] and type(expr) is NamedType \
            and len(_PLAIN) < _PLAIN_MAX:
        _PLAIN[text] = (expr.name, expr.module)
    for word in words[1:]:
        if word not in ("array", "vector"):
            raise SchemaError(
                f"unsupported type constructor {quoted(word)} in {quoted(text)}; Sarek's "
                f"'array' and 'vector' exist (and neither has an element layout: a fixed "
                f"array is written `{words[0]}[4]`)",
                location,
            )
        expr = ContainerType(expr, word, location)
    for count in reversed(counts):  # T[N][M]: N elements, each a T[M] (as in C)
        expr = ArrayType(expr, count, location)
    return expr


def _dimensions(stripped: str, text: str, location: SourceLocation) -> Tuple[str, List[int]]:
    """``stripped`` without its trailing ``[N]`` dimensions, and the counts, outermost first
    (read from the right, one bracket pair at a time: linear in the text)."""
    counts: List[int] = []
    while stripped.endswith("]"):
        start = stripped.rfind("[")
        if start < 0 or "]" in stripped[start:-1]:
            break  # not a dimension: refused below, as any other bracket
        if len(counts) == MAX_DIMENSIONS:
            raise SchemaError(
                f"{quoted(text)} has more than {MAX_DIMENSIONS} array dimensions; a struct "
                f"member has at most {MAX_DIMENSIONS}", location)
        counts.append(_count(stripped[start + 1:-1].strip(), text, location))
        stripped = stripped[:start].rstrip()
    counts.reverse()
    return stripped, counts


def _count(digits: str, text: str, location: SourceLocation) -> int:
    if not digits.isdigit() or not digits.isascii():
        raise SchemaError(
            f"bad array dimension {quoted(digits)} in {quoted(text)}: a fixed array's length "
            f"is a decimal integer of at least 1 (`float32[4]`)", location)
    if len(digits) > _MAX_COUNT_DIGITS or int(digits) > 2**31 - 1:
        raise SchemaError(
            f"array dimension {quoted(digits)} in {quoted(text)} is too large: the largest "
            f"type is 2147483647 bytes", location)
    count = int(digits)
    if count < 1:
        raise SchemaError(
            f"array dimension 0 in {quoted(text)}: a fixed array holds at least one element",
            location)
    return count


def _base_expr(word: str, text: str, location: SourceLocation) -> TypeExpr:
    """A type name, or a vector or matrix spelled ``vecN<T>``/``matCxR<T>``."""
    vm = _VECMAT.match(word) if word[:3] in ("vec", "mat") else None
    if vm is not None and vm.group("elem") is None:
        # A bare ``vec3``/``mat4`` is a type name: a schema's own record ``vec3`` (Sarek
        # programs declare them) is that record; otherwise it is the float32 vector or
        # matrix (``resolve`` decides, once it knows the schema's names).
        return NamedType(word, None, location)
    if vm is not None:
        elem = vm.group("elem")
        scalar = scalar_named(elem)
        if scalar is None:
            raise SchemaError(
                f"{quoted(word)}: the component type {quoted(elem)} is not a scalar (one of "
                f"{', '.join(SCALARS)})", location)
        if vm.group("n") is not None:
            n = int(vm.group("n"))
            if not 2 <= n <= 4:
                raise SchemaError(f"{quoted(word)}: a vector has 2, 3 or 4 components",
                                  location)
            if scalar.kind not in ("int", "float"):
                raise SchemaError(
                    f"{quoted(word)}: a vector's components are a numeric scalar, not "
                    f"{scalar.name}", location)
            return VectorType(n, scalar.name, location)
        cols = int(vm.group("c"))
        rows = int(vm.group("r") or cols)
        if not (2 <= cols <= 4 and 2 <= rows <= 4):
            raise SchemaError(f"{quoted(word)}: a matrix has 2 to 4 columns and rows", location)
        if not scalar.is_float:
            raise SchemaError(
                f"{quoted(word)}: a matrix's components are float32, float16 or float64, not "
                f"{scalar.name}", location)
        return MatrixType(cols, rows, scalar.name, location)
    if "<" in word or ">" in word:
        raise SchemaError(
            f"bad type name {quoted(word)} in {quoted(text)}: only vectors and matrices take "
            f"a component type (`vec3<float32>`, `mat4x4<float64>`)", location)
    m = _BASE.match(word)
    if m is None:
        raise SchemaError(f"bad type name {quoted(word)} in {quoted(text)}", location)
    return NamedType(m.group("name"), m.group("module"), location)


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
                    f"unknown key {quoted(key)} at top level; expected 'version', 'module', "
                    f"'rules' and 'types'",
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
        rules = self.rules(top, ()) or "c"
        types = self.expect(top["types"], list, "'types'", ("types",))
        decls = tuple(self.decl(entry, ("types", i)) for i, entry in enumerate(types))
        location = self.loc(("module",) if "module" in top else ())
        return ModuleDecl(name, self.path, self.format, decls, location, rules)

    def rules(self, table: Dict[str, Any], path: Path) -> Optional[str]:
        """The rule set a ``"rules"`` key names (SPEC §1b), or ``None`` without one."""
        if "rules" not in table:
            return None
        name = self.expect(table["rules"], str, "'rules'", path + ("rules",))
        if name not in RULE_SET_NAMES:
            import difflib  # only for a refusal's hint

            close = difflib.get_close_matches(name, list(RULE_SET_NAMES), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise SchemaError(
                f"unknown rule set {quoted(name)}{hint} (one of {', '.join(RULE_SET_NAMES)}: "
                f"`c`, Sarek's aligned layout, is the default)",
                self.loc(path + ("rules",)),
            )
        return name

    def decl(self, entry: Any, path: Path) -> TypeDecl:
        entry = self.expect(entry, dict, "a type declaration", path)
        kinds = [k for k in _TYPE_KEYS if k in entry]
        if len(kinds) != 1:
            raise SchemaError(
                "a type declaration needs exactly one of 'record', 'variant' or 'enum' (its "
                "name)",
                self.loc(path),
            )
        kind = kinds[0]
        allowed = _TYPE_KEYS[kind]
        for key in entry:
            if key not in allowed:
                raise SchemaError(
                    f"unknown key {quoted(key)} in a {kind} declaration; expected "
                    f"{', '.join(repr(k) for k in allowed[:-1])} and {allowed[-1]!r}",
                    self.loc(path + (key,)),
                )
        name = self.expect(entry[kind], str, f"the {kind} name", path + (kind,))
        location = self.loc(path + (kind,))
        members_key = allowed[1]
        if members_key not in entry:
            raise SchemaError(f"{kind} {quoted(name)} has no {members_key!r} array", location)
        members = self.expect(entry[members_key], list, f"{members_key!r}", path + (members_key,))
        rules = self.rules(entry, path)
        if kind == "record":
            return RecordDecl(name, self.fields(members, path + (members_key,)), location, rules)
        if kind == "enum":
            return self.enum(name, entry, members, path, location, rules)
        ctors = tuple(self.ctor(m, path + (members_key, i)) for i, m in enumerate(members))
        return VariantDecl(name, ctors, location, rules)

    def enum(self, name: str, entry: Dict[str, Any], values: List[Any], path: Path,
             location: SourceLocation, rules: Optional[str]) -> EnumDecl:
        """``{"enum": name, "base": "int32", "values": [["A", 0], ["B"], …]}``: a value
        without a number is one more than the one before it (0 first), as in C."""
        base = TInt32.name
        if "base" in entry:
            base = self.expect(entry["base"], str, "an enum's 'base'", path + ("base",))
        out: List[EnumValue] = []
        previous = -1
        for i, item in enumerate(values):
            where = path + ("values", i)
            if not isinstance(item, list) or len(item) not in (1, 2):
                raise SchemaError(
                    f"an enum value must be [name, integer] or [name], not {_kind(item)}"
                    + (f" of length {len(item)}" if isinstance(item, list) else ""),
                    self.loc(where))
            value_name = self.expect(item[0], str, "an enum value's name", where + (0,))
            if len(item) == 2:
                value = item[1]
                if type(value) is not int:
                    raise SchemaError(f"the value of {quoted(value_name)} must be an integer, "
                                      f"not {_kind(value)}", self.loc(where + (1,)))
            else:
                value = previous + 1
            previous = value
            out.append(EnumValue(value_name, value, self.loc(where + (0,))))
        return EnumDecl(name, base, tuple(out), location, rules)

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
