"""Compiler extensions that change a C struct's layout, found in preprocessed C.

pycparser reads plain C11: no ``__attribute__``, no ``__declspec``. These used to be defined
away on the preprocessor's command line, together with ``_Alignas``, ``alignas`` and
``__align__``, so a header with a packed or over-aligned struct was imported silently with
Sarek's layout, which is not the one its C code has. Now the preprocessed text is scanned
once, in linear time, and every such extension is recorded with its place and replaced by
spaces (so that the columns of everything else stay right) before pycparser reads the text:

* ``__attribute__((…))``/``__attribute((…))``, ``__declspec(…)``, C23 ``[[…]]``: attributes
  that change a layout (``packed``, ``aligned``, ``vector_size``, ``mode``…) are judged
  below, the others (``unused``, ``deprecated``, ``noreturn``…) are dropped;
* ``_Alignas(…)``, ``alignas(…)`` (C23, or ``<stdalign.h>``), ``__align__(…)`` (CUDA);
* ``#pragma pack``, ``#pragma GCC optimize ("pack-struct")`` and the other pragmas that
  change how structs are laid out, followed as gcc follows them by ``pragmas``.

Sarek's layout has no packing and no alignment above the natural one. Only one extension
keeps the layout as it is: an alignment of exactly 8 on a member (or a file-scope struct or
typedef) whose natural alignment is 8 (an ``int64_t``, a ``uint64_t``, a ``double``, or a
struct holding one), which is what generated headers write (``SAREK_LAYOUT_ALIGN8``,
``_Alignas(8)``, ``alignas(8)``, ``__attribute__((aligned(8)))``) to pin i386 to the x86-64
layout. The scan notes which members each alignment is written on (``Extension.members_at``:
the positions of their names, as pycparser reports them), and ``changes`` checks their
types. Everything else is refused (any other alignment, or one on a 4-byte member or
struct): the schema imported from such a type would silently disagree with the C code. What is refused is what
the extension changes, not the header (issue 22): the scan notes the struct and union
bodies it is written in or its declaration defines (``Extension.records``, by the position
pycparser gives their node), the names a file-scope declaration declares
(``Extension.words``: a ``mode(word)`` typedef refuses only the members of that type), and
for a packing pragma every body it packs (``pragmas``: ``push``/``pop`` followed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

from ...ir.types import scalars_where
from .pragmas import LAYOUT_PRAGMAS, MAX_RECORDS, Pragmas, integer_literal

__all__ = [
    "Extension",
    "scan_extensions",
    "ALIGNMENT_ACCEPTED",
    "MEMBER_TYPES_ACCEPTED",
    "LAYOUT_ATTRIBUTES",
    "LAYOUT_PRAGMAS",
    "unescape_file_name",
    "extensions_by_member",
]

#: The one alignment accepted, on int64_t and double members only: their natural one.
ALIGNMENT_ACCEPTED = 8
#: The Sarek scalars whose natural alignment it is.
MEMBER_TYPES_ACCEPTED = scalars_where(lambda s: s.align == ALIGNMENT_ACCEPTED)

#: Attributes (names without leading/trailing ``__``) that change the layout of what they
#: apply to, apart from ``aligned``/``align``, which are judged by their value.
LAYOUT_ATTRIBUTES = {
    "packed": "packs the struct (no padding between or after members)",
    "vector_size": "makes a vector type of another size",
    "ext_vector_type": "makes a vector type of another size",
    "mode": "changes the size of the type",
    "scalar_storage_order": "changes the byte order of the members",
    "ms_struct": "lays out the struct by the Microsoft rules",
    "gcc_struct": "lays out the struct by other rules than the target's",
    "randomize_layout": "reorders the members",
    "matrix_type": "makes a matrix type",
}
_ALIGNMENT_ATTRIBUTES = frozenset({"aligned", "align"})

#: Alignment specifiers: keywords followed by one parenthesised argument.
_SPECIFIERS = frozenset({"_Alignas", "alignas", "__align__"})
_ATTRIBUTE_KEYWORDS = frozenset({"__attribute__", "__attribute"})


@dataclass(frozen=True)
class Extension:
    """One extension as found in the preprocessed text.

    ``file``/``line``/``col`` is where it is, in the coordinates pycparser uses (the file
    name as the line markers spell it, the column in the preprocessed line). ``verdict`` is
    ``None`` for an alignment of 8 written on struct members (``members_at``: the positions
    of their names, to be checked against their types) or on a file-scope declaration (no
    ``members_at``: its ``records`` and ``words`` are checked), else why it is refused.
    """

    spelling: str
    file: str
    line: int
    col: int
    verdict: Optional[str]
    members_at: Tuple[Tuple[str, int, int], ...] = ()
    #: The struct and union bodies whose layout it changes, by the position pycparser gives
    #: their ``Struct``/``Union`` node (the tag's name, or the ``{`` of an anonymous one):
    #: the bodies it is written in (innermost and every enclosing one), or, at file scope,
    #: the bodies its declaration defines (and, for a pragma, every body that follows it).
    records: Tuple[Tuple[str, int, int], ...] = ()
    #: The names declared by the file-scope declaration it is written in (a typedef's name,
    #: a struct's tag): a member of such a typedef changes layout too.
    words: Tuple[str, ...] = ()
    #: Whether the scan stopped at it (an unbalanced attribute): the header cannot be read.
    fatal: bool = False
    #: At file scope, the alignment it sets when that is all it does (``__align__(16)``,
    #: ``aligned(16)``, ``_Alignas(16)``): how CUDA declares its vector types (``vectors``).
    alignment: Optional[int] = None


# One token of preprocessed C per match; every alternative starts with a different
# character class and no repetition can give characters to its neighbour, so a scan of
# a hostile file stays linear.
_TOKEN = re.compile(
    r"""
      (?P<directive>(?<![^\n])[ \t]*+\#[^\n]*+)
    | (?P<newline>\n)
    | (?P<space>[ \t\r\f\v]++)
    | (?P<ident>[A-Za-z_$][A-Za-z0-9_$]*+)
    | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*+)
    | (?P<string>"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?)
    | (?P<char>'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'?)
    | (?P<punct>.)
    """,
    re.X | re.S,
)
_LINE_MARKER = re.compile(r'[ \t]*#[ \t]*(?:line[ \t]+)?([0-9]+)(?:[ \t]+"((?:[^"\\]|\\.)*+)")?')
_PRAGMA = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+(?:(GCC)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*+)")


def unescape_file_name(name: str) -> str:
    """A file name as cpp writes it in a line marker (``\\\\``, ``\\"``, ``\\n`` escaped)."""
    if "\\" not in name:
        return name
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), name)


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _split_top(text: str, sep: str) -> List[str]:
    """``text`` split at ``sep`` outside parentheses and brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _attribute_items(body: str, separator: str) -> Iterator[Tuple[str, Optional[str]]]:
    """``(name, argument text or None)`` of each attribute of a list: ``packed``,
    ``aligned(8)``, ``gnu::aligned(8)``, ``__packed__``."""
    for item in _split_top(body, separator):
        m = re.match(r"(?:[A-Za-z_][A-Za-z0-9_]*\s*::\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*(\((.*)\))?\Z",
                     item, re.S)
        if m is None:
            yield item, None
            continue
        name = m.group(1)
        if name.startswith("__") and name.endswith("__") and len(name) > 4:
            name = name[2:-2]
        yield name, m.group(3) if m.group(2) else None


def _items(keyword: str, body: str) -> Optional[List[Tuple[str, Optional[str]]]]:
    """The attributes of ``keyword(body)`` as ``(name, argument)``; None when malformed."""
    if keyword in _SPECIFIERS:
        return [("align", body)]
    if keyword == "__declspec":
        return list(_attribute_items(re.sub(r"\s+\(", "(", body.strip()), " "))
    inner = body.strip()  # __attribute__((list)) and [[list]]
    if keyword in _ATTRIBUTE_KEYWORDS:
        if not (inner.startswith("(") and inner.endswith(")")):
            return None
        inner = inner[1:-1]
    return list(_attribute_items(inner, ","))


def _alignment_only(keyword: str, body: str) -> Optional[int]:
    """The alignment ``keyword(body)`` sets, when it sets one and changes nothing else."""
    aligned: List[int] = []
    for name, argument in _items(keyword, body) or [("?", None)]:
        if name in LAYOUT_ATTRIBUTES:
            return None
        if name in _ALIGNMENT_ATTRIBUTES:
            value = integer_literal(argument) if argument is not None else None
            if value is None:
                return None
            aligned.append(value)
    return max(aligned) if aligned else None


def _judge(keyword: str, body: str, in_member: bool, at_file_scope: bool) -> Optional[str]:
    """Why the extension ``keyword(body)`` is refused, or None when it keeps the layout
    (``""`` for an alignment of 8 that still needs what it is written on checked: its
    members, or the structs and typedefs of its file-scope declaration)."""
    items = _items(keyword, body)
    if items is None:
        return "is not a well-formed attribute"
    verdict: Optional[str] = None
    for name, argument in items:
        if name in LAYOUT_ATTRIBUTES:
            return f"{LAYOUT_ATTRIBUTES[name]}, so the C layout would differ from Sarek's"
        if name in _ALIGNMENT_ATTRIBUTES:
            value = integer_literal(argument) if argument is not None else None
            if value != ALIGNMENT_ACCEPTED:
                written = "the largest alignment" if argument is None else (
                    f"alignment {value}" if value is not None else f"alignment {_short(argument)!r}")
                return (
                    f"sets {written}, so the C layout would differ from Sarek's (Sarek aligns "
                    f"each member at its natural alignment; only an alignment of 8 on a member "
                    f"whose natural alignment is 8, as generated headers write, is accepted)"
                )
            if not in_member and not at_file_scope:
                return (
                    "aligns something inside a struct that is not one of its members, so the C "
                    "layout would differ from Sarek's (an alignment of 8 is accepted only on a "
                    "member whose natural alignment is 8, as generated headers write)"
                )
            verdict = ""
    return verdict


class _Frame:
    """One brace level of the scan: a struct or union body, or anything else."""

    __slots__ = ("record_body", "parens", "pending", "last_name", "names", "after_colon",
                 "chain", "opened", "last_word", "words")

    def __init__(self, record_body: bool, chain: Tuple[Tuple[str, int, int], ...] = ()) -> None:
        self.record_body = record_body
        self.parens = 0
        self.pending: List[int] = []  # extensions waiting for their declaration's end
        self.last_name: Optional[Tuple[str, int, int]] = None
        self.names: List[Tuple[str, int, int]] = []
        self.after_colon = False
        #: The record bodies this level lies in: the innermost and the outermost (at file
        #: scope, the one a type of the schema can be; every body between is inside it).
        self.chain = chain
        #: Record bodies opened at this level by the current declaration.
        self.opened: List[Tuple[str, int, int]] = []
        self.last_word: Optional[str] = None
        self.words: List[str] = []


def scan_extensions(text: str) -> Tuple[str, List[Extension]]:
    """``text`` with every extension blanked out, and the extensions found, in order."""
    scanner = _Scanner(text)
    scanner.run()
    return _blank(text, scanner.blanks), _judged(scanner.found)


#: What the scanner's token handlers return: the next position, or ``None`` to stop.
_STOP = None


class _Scanner:
    """One pass over preprocessed text: line markers followed, layout pragmas and attribute
    bodies recorded (and marked for blanking), and the declarator names each attribute
    applies to collected per nesting level (``_Frame``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: List[dict] = []
        self.blanks: List[Tuple[int, int]] = []
        self.file, self.line, self.line_start = "", 1, 0
        self.frames = [_Frame(False)]
        self.recent: List[str] = []  # the last significant tokens of the current level
        self.last_ident_at: Tuple[str, int, int] = ("", 0, 0)
        # The packing pragmas in force (``pragmas``).
        self.pragmas = Pragmas()

    def position(self, offset: int) -> Tuple[str, int, int]:
        return self.file, self.line, offset - self.line_start + 1

    def run(self) -> None:
        text, n, pos, match = self.text, len(self.text), 0, _TOKEN.match
        while pos < n:
            m = match(text, pos)
            kind = m.lastgroup  # type: ignore[union-attr]
            end = m.end()  # type: ignore[union-attr]
            if kind == "newline":
                self.line += 1
                self.line_start = end
            elif kind == "directive":
                self.directive(m.group(), pos, end)  # type: ignore[union-attr]
            elif kind in ("ident", "punct"):
                handle = self.ident if kind == "ident" else self.punct
                jump = handle(m.group(), pos, end)  # type: ignore[union-attr]
                if jump is _STOP:
                    break
                if jump != end:  # past an attribute's body
                    pos = jump
                    continue
            elif kind != "space":  # number, string, char
                self.recent.append(kind)  # type: ignore[arg-type]
            if len(self.recent) > 4:
                del self.recent[:-2]
            pos = end

    def finish_declaration(self, frame: "_Frame") -> None:
        if frame.last_name is not None:
            frame.names.append(frame.last_name)
            frame.words.append(frame.last_word or "")
        if frame.pending:
            # One tuple each, shared by every extension of the declaration: a declaration
            # of many names with an attribute on each stays linear.
            names, words, opened = tuple(frame.names), tuple(frame.words), tuple(frame.opened)
            for k in frame.pending:
                self.found[k]["names"] = names
                self.found[k]["words"] = words
                self.found[k]["opened"] = opened
        frame.pending.clear()
        frame.names.clear()
        frame.words.clear()
        frame.opened.clear()
        frame.last_name = None
        frame.last_word = None
        frame.after_colon = False

    def directive(self, directive: str, pos: int, end: int) -> None:
        marker = _LINE_MARKER.match(directive)
        pragma = _PRAGMA.match(directive)
        if marker is not None:
            # ``# N "file"``: the next line is line N of that file.
            self.line = int(marker.group(1)) - 1
            if marker.group(2) is not None:
                self.file = marker.group(2)
        elif pragma is not None and pragma.group(2) in LAYOUT_PRAGMAS:
            entry = {
                "spelling": _short(directive.strip()),
                "where": self.position(pos + directive.index("#")),
                "verdict": "changes the alignment of the members of the structs that "
                           "follow, so their C layout would differ from Sarek's",
                "records": [],
            }
            self.blanks.append((pos, end))
            if self.pragmas.directive(pragma.group(2), pragma.group(1) is not None,
                                      directive[pragma.end():], entry, self.frames[-1].chain):
                self.found.append(entry)

    def attribute(self, pos: int, close: int, keyword: str, body: str) -> int:
        """Record the attribute ``text[pos:close]`` of the current level; where to go on."""
        frame = self.frames[-1]
        self.found.append({
            "spelling": _short(self.text[pos:close]),
            "where": self.position(pos),
            "keyword": keyword,
            "body": body,
            "frame": frame,
        })
        frame.pending.append(len(self.found) - 1)
        self.blanks.append((pos, close))
        self.line, self.line_start = _advance_lines(self.text, pos, close, self.line,
                                                    self.line_start)
        return close

    def ident(self, word: str, pos: int, end: int) -> Optional[int]:
        text, frame = self.text, self.frames[-1]
        if word in _ATTRIBUTE_KEYWORDS or word == "__declspec" or word in _SPECIFIERS:
            open_at = _skip_space(text, end, "\n")
            if open_at < len(text) and text[open_at] == "(":
                body_end = _balanced(text, open_at, "(", ")")
                if body_end is None:
                    # Unbalanced up to a ';', a brace or the end: refused, and the scan
                    # stops here (scanning on from each such word would be quadratic).
                    self.found.append(_malformed(text, pos, self.position(pos)))
                    return _STOP
                return self.attribute(pos, body_end, word, text[open_at + 1 : body_end - 1])
        if frame.parens == 0 and not frame.after_colon:
            frame.last_name = self.position(pos)
            frame.last_word = word
        self.last_ident_at = self.position(pos)
        self.recent.append(word)
        return end

    def punct(self, c: str, pos: int, end: int) -> Optional[int]:
        text, frame = self.text, self.frames[-1]
        if c == "[" and text.startswith("[", _skip_space(text, end, "\n")):
            # C23 ``[[attribute-list]]`` (C allows two '[' in a row nowhere else)
            inner_start = _skip_space(text, end, "\n") + 1
            close = _balanced(text, pos, "[", "]")
            if close is None:
                self.found.append(_malformed(text, pos, self.position(pos)))
                return _STOP
            body = text[inner_start : close - 1].rstrip()
            return self.attribute(pos, close, "[[", body[:-1] if body.endswith("]") else body)
        if c in "([":
            frame.parens += 1
        elif c in ")]":
            frame.parens -= 1
        elif c == "{":
            recent = self.recent
            anonymous = bool(recent) and recent[-1] in ("struct", "union")
            record = anonymous or (len(recent) > 1 and recent[-2] in ("struct", "union"))
            chain = frame.chain
            if record:
                # Where pycparser puts the Struct node: its tag, or the brace of an anonymous one.
                key = self.position(pos) if anonymous else self.last_ident_at
                chain = (key, chain[-1]) if chain else (key,)
                if len(frame.opened) < _MAX_RECORDS:
                    frame.opened.append(key)
                self.pragmas.opened(key)
            self.frames.append(_Frame(record, chain))
            self.recent = []  # a new level: its tokens start afresh
            return end
        elif c == "}":
            if len(self.frames) > 1:
                self.finish_declaration(self.frames.pop())
        elif frame.parens == 0 and c in ",;":
            if c == ";":
                self.finish_declaration(frame)
            else:
                if frame.last_name is not None:
                    frame.names.append(frame.last_name)
                    frame.words.append(frame.last_word or "")
                frame.last_name = None
                frame.last_word = None
                frame.after_colon = False
        elif frame.parens == 0 and c == ":":
            frame.after_colon = True
        self.recent.append(c)
        return end


#: Most record bodies noted per extension or nesting chain (real headers nest a handful).
_MAX_RECORDS = MAX_RECORDS
#: Bodies one member declaration defines that an attribute on it is noted on (C has one:
#: ``struct {…} __attribute__((packed)) m;``; the enclosing bodies are noted anyway).
_MAX_MEMBER_BODIES = 64


def _judged(found: List[dict]) -> List[Extension]:
    """The extensions found, each judged: dropped when it does not change a layout."""
    extensions = []
    for entry in found:
        if "keyword" not in entry:
            extensions.append(Extension(
                entry["spelling"], *entry["where"], entry["verdict"],
                records=tuple(entry.get("records", ())), fatal="records" not in entry))
            continue
        frame = entry["frame"]
        names = tuple(entry.get("names", ()))
        in_member = frame.record_body and bool(names)
        verdict = _judge(entry["keyword"], entry["body"], in_member, not frame.chain)
        if verdict is None:
            continue  # an attribute that does not change a layout: dropped
        # Inside a body: that body and the ones around it change. At file scope: what the
        # declaration defines (its bodies, its typedef's or tag's name).
        opened = entry.get("opened", ())
        # At file scope the declaration's own bodies (a shared tuple); inside a body, that
        # body, the outermost one and the few a member declaration defines.
        records = frame.chain + opened[:_MAX_MEMBER_BODIES] if frame.chain else opened
        words = () if frame.chain else entry.get("words", ())
        extensions.append(Extension(
            entry["spelling"], *entry["where"], verdict or None,
            names if verdict == "" and in_member else (), records, words,
            alignment=None if frame.chain else _alignment_only(entry["keyword"], entry["body"]),
        ))
    return extensions


def _malformed(text: str, pos: int, where: Tuple[str, int, int]) -> dict:
    return {
        "spelling": _short(text[pos : pos + 40]),
        "where": where,
        "verdict": "is not closed (its parentheses or brackets do not balance before the "
                   "end of the declaration)",
    }


def _skip_space(text: str, pos: int, also: str = "") -> int:
    blanks = " \t" + also
    while pos < len(text) and text[pos] in blanks:
        pos += 1
    return pos


def _balanced(text: str, start: int, opener: str, closer: str) -> Optional[int]:
    """Offset past the group opened by ``text[start] == opener``, or None when it is not
    closed before a ``;``, a brace or the end (strings inside are skipped whole)."""
    depth = 0
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in "\"'":
            m = _TOKEN.match(text, i)
            i = m.end()  # type: ignore[union-attr]
            continue
        elif c == ";" or c == "{" or c == "}":
            return None  # not an attribute: a declaration cannot be inside one
        i += 1
    return None


def _advance_lines(text: str, start: int, end: int, line: int, line_start: int) -> Tuple[int, int]:
    newlines = text.count("\n", start, end)
    if newlines:
        line += newlines
        line_start = text.rfind("\n", start, end) + 1
    return line, line_start


def _blank(text: str, spans: List[Tuple[int, int]]) -> str:
    """``text`` with each span replaced by spaces, newlines kept (so lines and columns stay)."""
    if not spans:
        return text
    pieces = []
    at = 0
    for start, end in spans:
        pieces.append(text[at:start])
        pieces.append(re.sub(r"[^\n]", " ", text[start:end]))
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def extensions_by_member(extensions: List[Extension]) -> Dict[Tuple[str, int, int], Extension]:
    """The alignments of 8 still to be checked, by the position of their members' names."""
    return {at: e for e in extensions if e.verdict is None for at in e.members_at}
