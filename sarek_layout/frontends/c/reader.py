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
    ``enum``, ``pointer``, ``array`` or ``function``.
    """

    kind: str
    text: str
    body: object = None
    name: str = ""
    inline: bool = False


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


@dataclass
class CDeclarations:
    """What the parsed headers declare: struct typedefs (in order), struct bodies by tag,
    other typedefs, enums. ``file_of`` maps a coordinate's file name to the real one."""

    file_of: object = None
    struct_typedefs: Dict[str, StructTypedef] = field(default_factory=dict)
    order: List[str] = field(default_factory=list)
    bodies: Dict[str, object] = field(default_factory=dict)  # tag -> Struct/Union with decls
    aliases: Dict[str, object] = field(default_factory=dict)  # typedef name -> its type node
    enums: List[Tuple[str, List[Tuple[str, object]]]] = field(default_factory=list)
    #: The first enumerator of every enum, by id: the start of C's implicit numbering.
    first_enumerators: Dict[int, object] = field(default_factory=dict)
    #: Whether plain ``struct tag {…};`` definitions that no typedef names are types too,
    #: named by their tag (``import-c`` and ``.h`` schemas; ``verify --header`` compares
    #: typedefs only).
    plain_structs: bool = False
    _tag_to_typedef: Dict[str, str] = field(default_factory=dict)

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
                if e.values.enumerators:
                    first = e.values.enumerators[0]
                    self.first_enumerators[id(first)] = first

        plain: List[Tuple[int, object, object]] = []  # (place in order, Decl, Struct)
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
                        self.order.append(ext.name)
                        if s.name is not None and ext.name not in detached:
                            self._tag_to_typedef.setdefault(s.name, ext.name)
                else:
                    self.aliases.setdefault(ext.name, inner)
                    if isinstance(inner, c_ast.TypeDecl):
                        note_enum(inner.type)
                        note_body(inner.type)
            elif isinstance(ext, c_ast.Decl):
                note_body(ext.type)
                note_enum(ext.type)
                s = ext.type
                if self.plain_structs and isinstance(s, c_ast.Struct) and s.name \
                        and s.decls is not None:
                    plain.append((len(self.order), ext, s))
        if plain:
            self._add_plain_structs(plain, default_file)

    def _add_plain_structs(self, plain, default_file: str) -> None:
        """The plain ``struct tag {…}`` definitions that no typedef names, as types named by
        their tag, in declaration order among the typedefs."""
        order: List[str] = []
        at = 0
        for place, decl, s in plain:
            order.extend(self.order[at:place])
            at = place
            tag = s.name
            if tag in self._tag_to_typedef or tag in self.struct_typedefs \
                    or tag in self.aliases or self.bodies.get(tag) is not s:
                continue  # typedef'd (read as that typedef), or its name is a typedef's
            self.struct_typedefs[tag] = StructTypedef(
                tag, self._file(s, default_file), s, tag, s, plain=True)
            self._tag_to_typedef[tag] = tag
            order.append(tag)
        order.extend(self.order[at:])
        self.order = order

    def struct_typedef(self, name: str) -> Optional[StructTypedef]:
        """The struct typedef a bare type name ``name`` is (never a plain struct's tag)."""
        td = self.struct_typedefs.get(name)
        return None if td is None or td.plain else td

    def body_of(self, td: StructTypedef):
        """The member list of a struct typedef (``None`` when only declared)."""
        if td.body is not None:
            return td.body
        return self.bodies.get(td.tag) if td.tag else None

    def typedef_of_tag(self, tag: Optional[str]) -> Optional[str]:
        return self._tag_to_typedef.get(tag) if tag else None

    def spell(self, t, stop: Iterable[str] = ()) -> Spelled:
        """Spell a declarator's type, following the header's own typedefs (never through a
        stdint name, nor through a name in ``stop``); iterative, whatever the chain.

        Pointers and array dimensions met on the way (outermost first) are kept in a list,
        not recursed into: 1,000 '*', 1,500 dimensions or 3,000 chained pointer typedefs
        are spelled in one loop (they recursed past Python's stack: a RecursionError)."""
        stops = STDINT | INTENT_TYPEDEFS | frozenset(stop)
        wrappers: List[str] = []
        base = self._spell_base(t, stops, wrappers)
        if not wrappers:
            return base
        kind = "array" if wrappers[0].startswith("[") else "pointer"
        return Spelled(kind, base.text + "".join(reversed(wrappers)))

    def _spell_base(self, t, stops: FrozenSet[str], wrappers: List[str]) -> Spelled:
        """What ``t`` is below every pointer and array (appended to ``wrappers``)."""
        from pycparser import c_ast

        seen: Set[str] = set()
        through = ""  # the typedef name a struct was reached through
        while True:
            if isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                wrappers.append(f"[{getattr(t.dim, 'value', '')}]"
                                if isinstance(t, c_ast.ArrayDecl) else " *")
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
                return Spelled("enum", f"enum {t.name}" if t.name else "enum")
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
            return target, text if isinstance(inner, (c_ast.Struct, c_ast.Union)) else ""
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


def _refuse_deep_declarators(text: str, path: str, what: str) -> None:
    m = _DEEP_DECLARATOR.search(text)
    if m is None:
        return
    kind = "pointers" if m.group().startswith("*") else "array dimensions"
    start = m.start()
    file, line = path, text.count("\n", 0, start) + 1
    for marker in _LINE_MARKER.finditer(text, 0, start):
        file = marker.group(2)
        line = int(marker.group(1)) + text.count("\n", marker.end(), start) - 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    raise SchemaError(
        f"{what}: a declarator nested too deeply (more than {MAX_DECLARATOR_LEVELS} {kind} in "
        f"a row); sarek-layout reads plain C11 declarations",
        _error_location(path, file, line, col))


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
