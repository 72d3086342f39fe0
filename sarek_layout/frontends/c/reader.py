"""The one C-header reader: shared by ``import-c`` (and ``.h`` schemas) and ``verify --header``.

Both need the same steps, done once here: preprocess the header against the bundled fake
libc (``preprocess.preprocess``: one preprocessor invocation, kept away from devices and
FIFOs, with a target's own macros for a CUDA or OpenCL header), find and strip what changes
a layout (``extensions.scan_extensions``), parse with pycparser (``parse``), collect the
declarations (``CDeclarations``) and spell each member's type the one way
(``CDeclarations.spell``, over ``canonical``): a scalar spelling, a struct or union (with its
body and the typedef name that reached it), an enum, a pointer, an array or a function.

What each caller does with that differs: ``header`` turns the declarations into a schema
and stops at the first problem; ``verify.structure`` compares them with a schema and
collects every problem. The scalar spellings each target accepts are ``SCALAR_SPELLINGS``.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ...errors import SchemaError, quoted
from ...ir.schema import SourceLocation
from ...targets.naming import FLOAT16_TYPEDEF, is_padding
from ...targets.registry import READ_TARGETS, TARGETS
from .extensions import unescape_file_name
from .preprocess import FAKE_LIBC

__all__ = [
    "SCALAR_SPELLINGS",
    "C_SCALARS",
    "INTENT_TYPEDEFS",
    "FLOAT16_HINT",
    "STDINT",
    "canonical",
    "Spelled",
    "StructTypedef",
    "EnumTypedef",
    "CDeclarations",
    "parse",
    "without_padding",
]

#: Schema scalar -> the C spellings that mean it on every ABI of a header target (the
#: generated headers' own spelling first), per target that the C reader reads
#: (``targets.spellings``).
SCALAR_SPELLINGS: Dict[str, Mapping[str, Tuple[str, ...]]] = {
    name: TARGETS[name].read_spellings for name in READ_TARGETS  # type: ignore[misc]
}

#: C spelling -> the schema scalar the C reader reads it as (the C target's spellings, first
#: scalar first: int32_t is read as int32, never as bool or unit, which C cannot tell apart).
C_SCALARS: Dict[str, str] = {}
for _scalar, _spellings in SCALAR_SPELLINGS["c"].items():
    for _spelling in _spellings:
        C_SCALARS.setdefault(_spelling, _scalar)

#: Typedef names that say what a member means, never followed to what they name.
INTENT_TYPEDEFS = frozenset({FLOAT16_TYPEDEF})

#: C's 2-byte float spellings, which are no C11 (nor in every target): a member of one is
#: written with ``FLOAT16_TYPEDEF`` instead.
FLOAT16_HINT = (f"a float16 is written {FLOAT16_TYPEDEF}, a typedef of uint16_t (ushort in "
                f"OpenCL C) holding its IEEE 754 binary16 bits")
_FLOAT16_SPELLINGS = frozenset({"_Float16", "__fp16", "half", "__half", "__bf16"})

#: Names of <stdint.h> and <stddef.h>: never followed through the fake libc's typedefs, so a
#: member keeps the name its header wrote (``int8_t``, not ``signed char``).
STDINT = frozenset(
    "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t ptrdiff_t "
    "intptr_t uintptr_t intmax_t uintmax_t wchar_t max_align_t".split()
    + [f"{k}{w}_t" for k in ("int_least", "uint_least", "int_fast", "uint_fast")
       for w in (8, 16, 32, 64)]
)


def without_padding(members):
    """Struct members less the explicit padding ``_sarek_…`` that generated headers contain."""
    return [m for m in members if not is_padding(m.name)]


def canonical(names: Sequence[str]) -> str:
    """One spelling per C type: ``['long', 'long', 'int']`` → ``long long``, ``['signed']``
    → ``int``, ``['unsigned', 'short', 'int']`` → ``unsigned short``; ``signed char`` stays
    itself (C's three character types are distinct: plain ``char`` may be either)."""
    words = list(names)
    if "char" in words and "signed" in words:
        return "signed char"
    unsigned = "unsigned" in words
    words = [w for w in words if w not in ("signed", "unsigned")]
    longs = words.count("long")
    if longs or "short" in words:
        words = [w for w in words if w != "int"]
    if not words:
        words = ["int"]
    base = " ".join(words) if not longs else " ".join(
        ["long"] * longs + [w for w in words if w != "long"])
    return ("unsigned " + base) if unsigned else base


@dataclass(frozen=True)
class Spelled:
    """A member's type as the header spells it, typedefs of the header followed.

    ``kind``: ``scalar`` (``text`` is its canonical spelling or the stdint name written),
    ``struct`` or ``union`` (``body`` is its member list when the headers define it,
    ``name`` the typedef name it was reached through, ``inline`` when defined right there),
    ``enum`` (``body`` the ``Enum`` node with its values when the headers define it,
    ``name`` the enum type it is: the typedef name it was reached through, or its tag's),
    ``pointer``, ``array`` or ``function``. An array of no pointers has the dimensions'
    size expressions in ``dims`` (outermost first, ``None`` for ``[]``) and what it holds
    in ``element``.
    """

    kind: str
    text: str
    body: object = None
    name: str = ""
    inline: bool = False
    dims: Tuple[object, ...] = ()
    element: Optional["Spelled"] = None


@dataclass
class StructTypedef:
    """``typedef struct [tag] {…} name;`` (or a typedef of a struct defined elsewhere)."""

    c_name: str
    file: str
    node: object  # the Typedef node
    tag: Optional[str]
    body: Optional[object] = None  # the c_ast.Struct with its members, when given here
    #: A plain ``struct tag {…};`` that no typedef names: named by its tag, which is no
    #: typedef name (a member spells it ``struct tag``, never ``tag``).
    plain: bool = False
    kind = "struct"


@dataclass
class EnumTypedef:
    """``typedef enum [tag] {…} name;`` (or of an enum defined elsewhere), or a plain
    ``enum tag {…};`` that no typedef names (``plain``): an enum type of the schema."""

    c_name: str
    file: str
    node: object  # the Typedef, or the Enum node of a plain one
    tag: Optional[str]
    body: Optional[object] = None  # the c_ast.Enum with its values, when given here
    plain: bool = False
    kind = "enum"


@dataclass
class CDeclarations:
    """What the parsed headers declare: struct typedefs (in order), struct bodies by tag,
    other typedefs, enums. ``file_of`` maps a coordinate's file name to the real one.

    ``types`` holds every named type a schema can take, in ``order``: the struct typedefs
    (``struct_typedefs``, plain structs included) and the enum types (``enum_typedefs``)."""

    file_of: object = None
    struct_typedefs: Dict[str, StructTypedef] = field(default_factory=dict)
    enum_typedefs: Dict[str, EnumTypedef] = field(default_factory=dict)
    types: Dict[str, object] = field(default_factory=dict)
    order: List[str] = field(default_factory=list)
    bodies: Dict[str, object] = field(default_factory=dict)  # tag -> Struct/Union with decls
    enum_bodies: Dict[str, object] = field(default_factory=dict)  # tag -> Enum with values
    aliases: Dict[str, object] = field(default_factory=dict)  # typedef name -> its type node
    enums: List[Tuple[str, List[Tuple[str, object]]]] = field(default_factory=list)
    #: Every file-scope enum with values (an ``Enum`` node), in declaration order.
    enum_nodes: List[object] = field(default_factory=list)
    #: The first enumerator of every enum, by id: the start of C's implicit numbering.
    first_enumerators: Dict[int, object] = field(default_factory=dict)
    #: Whether plain ``struct tag {…};`` definitions that no typedef names are types too,
    #: named by their tag (``import-c`` and ``.h`` schemas; ``verify --header`` compares
    #: typedefs only).
    plain_structs: bool = False
    _tag_to_typedef: Dict[str, str] = field(default_factory=dict)
    _enum_tag_to_typedef: Dict[str, str] = field(default_factory=dict)

    def _file(self, node, default: str = "") -> str:
        coord = getattr(node, "coord", None)
        if coord is None:
            return default
        return self.file_of(coord.file) if self.file_of is not None else coord.file  # type: ignore[operator]

    def add(self, ast, default_file: str = "", detached: FrozenSet[str] = frozenset()) -> None:
        """Collect the top-level declarations of one parsed translation unit. ``detached``:
        typedef names of a struct defined elsewhere that do not name it (an attribute on
        the typedef changes the typedef, not the struct: the struct is a type of its own,
        named by its tag)."""
        from pycparser import c_ast

        def note_body(s) -> None:
            if isinstance(s, (c_ast.Struct, c_ast.Union)) and s.decls is not None and s.name:
                self.bodies.setdefault(s.name, s)

        def note_enum(e) -> None:
            if isinstance(e, c_ast.Enum) and e.values is not None:
                self.enums.append((self._file(e, default_file),
                                   [(en.name, en) for en in e.values.enumerators]))
                self.enum_nodes.append(e)
                if e.name:
                    self.enum_bodies.setdefault(e.name, e)
                if e.values.enumerators:
                    first = e.values.enumerators[0]
                    self.first_enumerators[id(first)] = first

        plain: List[Tuple[int, object, object]] = []  # (place in order, Decl, Struct or Enum)
        for ext in ast.ext:
            if isinstance(ext, c_ast.Typedef):
                inner = ext.type
                if isinstance(inner, c_ast.TypeDecl) and isinstance(inner.type, c_ast.Struct):
                    s = inner.type
                    note_body(s)
                    if ext.name not in self.struct_typedefs:
                        self.struct_typedefs[ext.name] = StructTypedef(
                            ext.name, self._file(ext, default_file), ext, s.name,
                            s if s.decls is not None else None)
                        self.types[ext.name] = self.struct_typedefs[ext.name]
                        self.order.append(ext.name)
                        if s.name is not None and ext.name not in detached:
                            self._tag_to_typedef.setdefault(s.name, ext.name)
                else:
                    self.aliases.setdefault(ext.name, inner)
                    if isinstance(inner, c_ast.TypeDecl):
                        note_enum(inner.type)
                        note_body(inner.type)
                        if isinstance(inner.type, c_ast.Enum):
                            self._add_enum_typedef(ext, inner.type, default_file)
            elif isinstance(ext, c_ast.Decl):
                note_body(ext.type)
                note_enum(ext.type)
                s = ext.type
                if self.plain_structs and isinstance(s, (c_ast.Struct, c_ast.Enum)) and s.name \
                        and (s.values if isinstance(s, c_ast.Enum) else s.decls) is not None:
                    plain.append((len(self.order), ext, s))
        if plain:
            self._add_plain_types(plain, default_file)

    def _add_enum_typedef(self, typedef, enum, default_file: str) -> None:
        """``typedef enum [tag] {…} name;``: the enum type ``name`` (the first typedef of a
        tag names it; a later ``typedef enum tag other;`` is another name of that type)."""
        if typedef.name in self.enum_typedefs or (
                enum.values is None and enum.name in self._enum_tag_to_typedef):
            return
        entry = EnumTypedef(typedef.name, self._file(typedef, default_file), typedef, enum.name,
                            enum if enum.values is not None else None)
        self.enum_typedefs[typedef.name] = self.types[typedef.name] = entry
        self.order.append(typedef.name)
        if enum.name is not None:
            self._enum_tag_to_typedef.setdefault(enum.name, typedef.name)

    def _add_plain_types(self, plain, default_file: str) -> None:
        """The plain ``struct tag {…}`` and ``enum tag {…}`` definitions that no typedef
        names, as types named by their tag, in declaration order among the typedefs."""
        from pycparser import c_ast

        order: List[str] = []
        at = 0
        for place, decl, s in plain:
            order.extend(self.order[at:place])
            at = place
            tag = s.name
            if tag in self.types or tag in self.aliases:
                continue  # a typedef's name: C reads the bare name as the typedef
            if isinstance(s, c_ast.Enum):
                if tag in self._enum_tag_to_typedef or self.enum_bodies.get(tag) is not s:
                    continue  # typedef'd: read as that typedef
                entry: object = EnumTypedef(tag, self._file(s, default_file), s, tag, s,
                                            plain=True)
                self.enum_typedefs[tag] = entry  # type: ignore[assignment]
                self._enum_tag_to_typedef[tag] = tag
            else:
                if tag in self._tag_to_typedef or self.bodies.get(tag) is not s:
                    continue  # typedef'd (read as that typedef)
                entry = StructTypedef(tag, self._file(s, default_file), s, tag, s, plain=True)
                self.struct_typedefs[tag] = entry  # type: ignore[assignment]
                self._tag_to_typedef[tag] = tag
            self.types[tag] = entry
            order.append(tag)
        order.extend(self.order[at:])
        self.order = order

    def struct_typedef(self, name: str) -> Optional[StructTypedef]:
        """The struct typedef a bare type name ``name`` is (never a plain struct's tag)."""
        td = self.struct_typedefs.get(name)
        return None if td is None or td.plain else td

    def body_of(self, td):
        """The member list of a struct typedef, or the values of an enum type (``None``
        when only declared)."""
        if td.body is not None:
            return td.body
        if not td.tag:
            return None
        return (self.enum_bodies if td.kind == "enum" else self.bodies).get(td.tag)

    def typedef_of_tag(self, tag: Optional[str]) -> Optional[str]:
        return self._tag_to_typedef.get(tag) if tag else None

    def enum_type_of_tag(self, tag: Optional[str]) -> Optional[str]:
        """The enum type ``enum tag`` is (its typedef's name, or the tag of a plain one)."""
        return self._enum_tag_to_typedef.get(tag) if tag else None

    def spell(self, t, stop: Iterable[str] = ()) -> Spelled:
        """Spell a declarator's type, following the header's own typedefs (never through a
        stdint name, nor through a name in ``stop``); iterative, whatever the chain.

        Pointers and array dimensions met on the way (outermost first) are kept in a list,
        not recursed into: 1,000 '*', 1,500 dimensions or 3,000 chained pointer typedefs
        are spelled in one loop (they recursed past Python's stack: a RecursionError)."""
        stops = STDINT | INTENT_TYPEDEFS | frozenset(stop)
        wrappers: List[Tuple[str, object]] = []  # (spelling, an array's size expression)
        base = self._spell_base(t, stops, wrappers)
        if not wrappers:
            return base
        text = base.text + "".join(w for w, _ in reversed(wrappers))
        if wrappers[0][0].startswith("["):
            if all(w.startswith("[") for w, _ in wrappers):
                return Spelled("array", text, dims=tuple(d for _, d in wrappers), element=base)
            return Spelled("array", text)
        return Spelled("pointer", text)

    def _spell_base(self, t, stops: FrozenSet[str], wrappers: List[Tuple[str, object]]) -> Spelled:
        """What ``t`` is below every pointer and array (appended to ``wrappers``)."""
        from pycparser import c_ast

        seen: Set[str] = set()
        through = ""  # the typedef name a struct or an enum was reached through
        while True:
            if isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                wrappers.append((f"[{getattr(t.dim, 'value', '')}]", t.dim)
                                if isinstance(t, c_ast.ArrayDecl) else (" *", None))
                # What a pointer or array holds is spelled afresh (its own typedef chain).
                t, seen, through = t.type, set(), ""
                continue
            if isinstance(t, c_ast.FuncDecl):
                return Spelled("function", "function")
            if isinstance(t, c_ast.TypeDecl):
                t = t.type
            if isinstance(t, (c_ast.Struct, c_ast.Union)):
                return self._spell_record(t, through)
            if isinstance(t, c_ast.Enum):
                return self._spell_enum(t, through)
            if not isinstance(t, c_ast.IdentifierType):
                return Spelled("other", type(t).__name__)
            text = canonical(t.names)
            followed = self._follow(t, text, stops, seen)
            if isinstance(followed, Spelled):
                return followed
            t, through = followed[0], followed[1] or through

    def _spell_record(self, t, through: str) -> Spelled:
        """A struct or union node, reached through the typedef ``through`` (or none)."""
        from pycparser import c_ast

        kind = "struct" if isinstance(t, c_ast.Struct) else "union"
        inline = t.decls is not None
        body = t if inline else self.bodies.get(t.name or "")
        name = through or (self.typedef_of_tag(t.name) or "") if kind == "struct" else through
        text = through or (f"{kind} {t.name}" if t.name else kind)
        return Spelled(kind, text, body, name, inline)

    def _spell_enum(self, t, through: str) -> Spelled:
        """An enum node, reached through the typedef ``through`` (or none)."""
        body = t if t.values is not None else self.enum_bodies.get(t.name or "")
        name = through if through in self.enum_typedefs else self.enum_type_of_tag(t.name)
        return Spelled("enum", f"enum {t.name}" if t.name else "enum", body, name or "",
                       not through and t.values is not None)

    def _follow(self, t, text: str, stops: FrozenSet[str], seen: Set[str]):
        """The type name ``t`` (spelled ``text``): a struct typedef or a scalar as
        ``Spelled``, or a typedef of the header to follow, as ``(its type, the typedef name
        when it names a struct or union)``."""
        from pycparser import c_ast

        if len(t.names) == 1 and self.struct_typedef(text) is not None and text not in seen:
            td = self.struct_typedefs[text]
            return Spelled("struct", text, self.body_of(td), text)
        if len(t.names) == 1 and text in self.aliases and text not in stops \
                and text not in seen:
            seen.add(text)
            target = self.aliases[text]
            inner = getattr(target, "type", None)
            return target, text if isinstance(inner, (c_ast.Struct, c_ast.Union, c_ast.Enum)) \
                else ""
        return Spelled("scalar", text)


# --- parsing ---------------------------------------------------------------------------------

_PARSE_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?P<msg>.*)$", re.S)

#: Python frames pycparser may use on top of its caller's: it descends a few frames per
#: parenthesis or unary operator, so this bounds the nesting it reads (about 150 levels).
_PARSE_FRAMES = 900


#: Most pointers, or array dimensions, in a row in one declarator. pycparser walks a
#: declarator's chain once per level it adds (20,000 dimensions took 80 s) and C guarantees
#: only 12 levels: found in the preprocessed text before parsing.
MAX_DECLARATOR_LEVELS = 100
_DEEP_DECLARATOR = re.compile(
    r"(?:\*(?:[ \t\n]*+(?:const|volatile|restrict|__restrict|__restrict__)\b)*+[ \t\n]*+){%d}"
    r"|(?:\[[^\[\]\n]*+\][ \t\n]*+){%d}" % (MAX_DECLARATOR_LEVELS + 1, MAX_DECLARATOR_LEVELS + 1)
)
_LINE_MARKER = re.compile(r'^#(?:line)?[ \t]+(\d+)[ \t]+"((?:[^"\\\n]|\\.)*)"', re.M)


#: Most enumerators in one enum. pycparser takes about 17 s of CPU per million of them, and
#: a GPU struct's enum has a handful (Vulkan's largest, ``VkStructureType``, about 1,400):
#: counted in the preprocessed text before parsing.
MAX_ENUMERATORS = 100_000
_ENUM_BODY = re.compile(r"\benum\b[ \t\n]*+(?:[A-Za-z_$][A-Za-z0-9_$]*+[ \t\n]*+)?\{")


def _text_location(text: str, path: str, start: int) -> SourceLocation:
    """Where offset ``start`` of the preprocessed ``text`` is, by its line markers."""
    file, line = path, text.count("\n", 0, start) + 1
    for marker in _LINE_MARKER.finditer(text, 0, start):
        file = marker.group(2)
        line = int(marker.group(1)) + text.count("\n", marker.end(), start) - 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return _error_location(path, file, line, col)


def _refuse_deep_declarators(text: str, path: str, what: str) -> None:
    m = _DEEP_DECLARATOR.search(text)
    if m is None:
        return
    kind = "pointers" if m.group().startswith("*") else "array dimensions"
    raise SchemaError(
        f"{what}: a declarator nested too deeply (more than {MAX_DECLARATOR_LEVELS} {kind} in "
        f"a row); sarek-layout reads plain C11 declarations", _text_location(text, path, m.start()))


def _refuse_huge_enums(text: str, path: str) -> None:
    """An enum of more than ``MAX_ENUMERATORS`` values is refused at its ``enum`` keyword
    (one pass over the text: each body's commas are counted once)."""
    at = 0
    while True:
        m = _ENUM_BODY.search(text, at)
        if m is None:
            return
        close = text.find("}", m.end())
        end = len(text) if close < 0 else close
        if text.count(",", m.end(), end) > MAX_ENUMERATORS:
            raise SchemaError(
                f"an enum of more than {MAX_ENUMERATORS} values; the enums of GPU structs hold "
                f"a few (Vulkan's largest about 1,400)", _text_location(text, path, m.start()))
        at = end


def _error_location(path: str, file: Optional[str], line: int, col: int) -> SourceLocation:
    """Where to point a parse error: never inside the bundled fake libc, which the user did
    not write (a malformed line before an ``#include`` makes the parser stop in there)."""
    if file:
        file = unescape_file_name(file)
    if not file or os.path.abspath(file).startswith(FAKE_LIBC + os.sep):
        return SourceLocation(path)
    return SourceLocation(file, line, col)


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def _shorten(message: str, limit: int = 200) -> str:
    """pycparser quotes whole tokens: a 100 KB character constant must not fill the line."""
    return message if len(message) <= limit else f"{message[: limit - 3]}..."


_strict_lexer_class = None


def _strict_lexer():
    """pycparser's lexer, but a ``#`` starts a line marker or a pragma only at the start of a
    line, as in C. pycparser honours one anywhere, so ``int x; # 1 "other.h"`` would move what
    follows (and every message about it) into a file that does not exist; gcc calls that
    ``#`` stray, and so do we."""
    global _strict_lexer_class
    if _strict_lexer_class is None:
        from pycparser.c_lexer import CLexer

        class StrictLexer(CLexer):
            def _refuse_mid_line_hash(self) -> None:
                hash_at = self._pos - 1  # both handlers run just past the ``#``
                if self._lexdata[self._line_start:hash_at].strip(" \t\f\v"):
                    self._error("stray '#' in program (a directive starts a line)", hash_at)

            def _handle_ppline(self):
                self._refuse_mid_line_hash()
                return super()._handle_ppline()

            def _handle_pppragma(self):
                self._refuse_mid_line_hash()
                return super()._handle_pppragma()

        _strict_lexer_class = StrictLexer
    return _strict_lexer_class


def parse(text: str, path: str, places=None, what: str = "C parse error"):
    """pycparser's AST of preprocessed ``text`` (``SchemaError`` at the place for bad C).

    ``places`` (a ``places.Places``) moves a "nested too deeply" error to the start of
    the nesting; ``what`` starts the message.
    """
    from pycparser import c_parser

    _refuse_deep_declarators(text, path, what)
    _refuse_huge_enums(text, path)
    parser = c_parser.CParser(lexer=_strict_lexer())
    # The same budget whoever calls: too deep a nesting then stops at the same token, so
    # the position in the message does not depend on the caller's stack.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_stack_depth() + _PARSE_FRAMES)
    try:
        return parser.parse(text, path)
    except c_parser.ParseError as e:
        m = _PARSE_ERROR.match(str(e))
        if m is None:
            # Some pycparser errors carry no line: the token the parser stopped at has one.
            message = _shorten(str(e).split(": ", 1)[-1])
            try:
                tok = parser._peek()
                where = _error_location(path, tok.filename or path, tok.lineno, tok.column)
                before = f" before {quoted(tok.value)}"
                if tok.value in _FLOAT16_SPELLINGS:
                    before += f" ({FLOAT16_HINT})"
                elif tok.type == "ID":
                    before += " (an unknown type name? declare or include it before this line)"
            except Exception:  # a private API: fall back to the file alone
                where, before = SourceLocation(path), ""
            raise SchemaError(
                f"{what} ({message}){before}; sarek-layout reads plain C11 declarations", where,
            ) from None
        raise SchemaError(
            f"{what} ({_shorten(m.group('msg').strip())}); sarek-layout reads plain C11 "
            f"declarations",
            _error_location(path, m.group("file"), int(m.group("line")), int(m.group("col") or 1)),
        ) from None
    except RecursionError:
        # pycparser descends once per parenthesis or unary operator. Where it stopped
        # depends on the stack it was called with: point at the start of that nesting.
        try:
            tok = parser._peek()
            where = _error_location(path, tok.filename or path, tok.lineno, tok.column)
            if places is not None and where.line > 0:
                where = places.nesting_start(where.file, where.line, where.col)
        except Exception:  # a private API: fall back to the file alone
            where = SourceLocation(path)
        raise SchemaError(f"{what}: nested too deeply", where) from None
    except MemoryError:
        raise SchemaError(f"{what}: the header is too big to read", SourceLocation(path)) from None
    finally:
        sys.setrecursionlimit(limit)


def spellings_of(target: str) -> FrozenSet[str]:
    """Every scalar spelling ``target`` accepts (not followed as typedefs)."""
    return frozenset(s for names in SCALAR_SPELLINGS[target].values() for s in names)
