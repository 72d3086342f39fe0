"""How a shading language's compiler splits a file before it reads a directive: line ends,
line splices, comments and literals (the C preprocessor's translation phases 1 to 3, as clang
and glslang do them, measured on both), in one linear scan.

This is the one reader of comments and line ends in ``verify``: ``source`` takes the
``#include`` (and every other) directive from it, ``reader`` and the drivers the comment-free
text. What each compiler does, and what the scan does where the compilers differ:

* A line ends at ``\\r\\n``, ``\\r`` or ``\\n`` (glslang and clang both end a line at a lone CR).
* A backslash before a line end splices the two lines, before comments are read. clang also
  splices when spaces, tabs, form feeds or vertical tabs stand between the backslash and the
  line end; glslang does not (a ``// …\\ `` comment ends at its line there): each lexicon
  says which.
* Form feeds and vertical tabs are white space before a ``#``: clang reads the directive
  after them. glslang refuses the line, but the scan reads it as a directive too: where the
  compilers differ, the scan takes the reading that shows more directives, never fewer.
* ``//`` and ``/* … */`` comments (WGSL's block comments nest). A string (``"…"``) or
  character literal (``'…'``) hides a ``/*`` or ``//`` inside it; both end at the line end
  when unterminated, as in clang. GLSL has no literals, but glslang's preprocessor reads
  ``"…"`` as one token (and refuses ``'``); reading both as literals hides no directive.
* C++ (the Metal proxy): a raw string ``R"d( … )d"`` (with ``u8``/``u``/``U``/``L``) spans
  lines, and splices inside it are not splices (C++ reverts them), so its end is searched in
  the unspliced text; ``'`` inside a number (``1'000``) is a digit separator, not a quote; and
  ``%:`` is ``#``. Trigraphs are not read: the proxy runs clang with ``-fno-trigraphs``.

``scan`` returns the text with its comments (and raw strings) blanked to spaces, every line
end and every other character in its place, and every directive with its place.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

__all__ = ["Lexicon", "GLSL_LEXICON", "CPP_LEXICON", "WGSL_LEXICON", "Directive", "Scanned",
           "scan", "line_starts"]


@dataclass(frozen=True)
class Lexicon:
    """What a language's compiler reads before its directives (module docstring)."""

    #: A line splice, as a regex.
    splice: str
    #: Directives are read (a preprocessor); ``%:`` is ``#`` (C++ digraphs).
    directives: bool = True
    digraphs: bool = False
    #: C++ raw strings and digit separators.
    raw_strings: bool = False
    digit_separators: bool = False
    #: ``/* … */`` comments nest (WGSL).
    nested_comments: bool = False


GLSL_LEXICON = Lexicon(splice=r"\\(?:\r\n|\r|\n)")
CPP_LEXICON = Lexicon(splice=r"\\[ \t\f\v]*(?:\r\n|\r|\n)", digraphs=True, raw_strings=True,
                      digit_separators=True)
WGSL_LEXICON = Lexicon(splice=r"(?!)", directives=False, nested_comments=True)


@dataclass(frozen=True)
class Directive:
    """``#name rest`` at ``offset`` (of its ``#`` in the file's own text); ``rest`` is the
    rest of its logical line, splices joined and comments blanked."""

    name: str
    rest: str
    offset: int


@dataclass
class Scanned:
    #: The text with comments, raw strings and splices blanked (line ends kept).
    blank: str
    directives: List[Directive] = field(default_factory=list)
    #: The blanked text with its splices joined (what a directive reads), and where each
    #: splice was in it (for ``original``).
    joined: str = ""
    _splices: Tuple[List[int], List[int]] = ([], [])

    def original(self, joined_offset: int) -> int:
        """The file offset of the character at ``joined_offset`` of ``joined``."""
        starts, shifts = self._splices
        k = bisect_right(starts, joined_offset)
        return joined_offset + (shifts[k - 1] if k else 0)


_LINE_END = re.compile(r"\r\n|\r|\n")


def line_starts(text: str) -> List[int]:
    """Offset of each line's first character: lines end as the compilers end them."""
    return [0] + [m.end() for m in _LINE_END.finditer(text)]


class _Splices:
    """The splices of a text: joined offsets and original offsets, both ways."""

    def __init__(self, text: str, pattern: str) -> None:
        self.joined_at: List[int] = []  # joined offset where each splice was removed
        self.original_at: List[int] = []  # its first character in the text
        self.shift: List[int] = []  # characters removed up to and including it
        self.spans: List[Tuple[int, int]] = []
        parts: List[str] = []
        last = removed = 0
        for m in re.finditer(pattern, text):
            parts.append(text[last:m.start()])
            self.spans.append(m.span())
            self.joined_at.append(m.start() - removed)
            self.original_at.append(m.start())
            removed += m.end() - m.start()
            self.shift.append(removed)
            last = m.end()
        parts.append(text[last:])
        self.joined = "".join(parts)

    def to_original(self, j: int, end: bool = False) -> int:
        """The original offset of joined offset ``j`` (an exclusive end stays before a splice
        that follows it)."""
        k = (bisect_left if end else bisect_right)(self.joined_at, j)
        return j + (self.shift[k - 1] if k else 0)

    def to_joined(self, o: int) -> int:
        k = bisect_left(self.original_at, o)
        return o - (self.shift[k - 1] if k else 0)


_SPECIAL = re.compile(r"[/\"']")
_QUOTED = {'"': re.compile(r'"(?:\\[^\r\n]|[^"\\\r\n])*"?'),
           "'": re.compile(r"'(?:\\[^\r\n]|[^'\\\r\n])*'?")}
_LINE_REST = re.compile(r"[^\r\n]*")
#: The characters a preprocessing token before a quote may have (identifier, number), and
#: how far back the scan looks for its start: a longer run is read as no token (a quote then
#: is a quote, and no raw string starts: the readings that hide nothing).
_TOKEN_CHARS = re.compile(r"[\w$.']")
_MAX_TOKEN = 256
_PP_TOKENS = re.compile(r"\.?\d(?:[eEpP][+-]|'[A-Za-z0-9_]|[\w.])*|[^\W\d][\w$]*|\$[\w$]*|.", re.S)
_RAW_PREFIXES = ("R", "u8R", "uR", "UR", "LR")
_RAW_HEAD = re.compile(r'"([^ ()\\\t\v\f\r\n"]{0,16})\(')


def _last_token(joined: str, boundary: int, at: int) -> str:
    """The preprocessing token that ends just before ``at`` (``""`` when none, or when its
    start is further back than ``_MAX_TOKEN``)."""
    start = at
    while start > boundary and _TOKEN_CHARS.match(joined, start - 1):
        start -= 1
        if at - start > _MAX_TOKEN:
            return ""
    text = joined[start:at]
    last = ""
    for m in _PP_TOKENS.finditer(text):
        last = m.group()
    return last


_PP_BODY = re.compile(r"[\w.]*")


class _Numbers:
    """Digit separators (``1'000'000``): each ``'`` of one number is found without going
    back over the number again (a long one would make the scan quadratic)."""

    def __init__(self) -> None:
        self.end = -1  # just past the last separator's digit, while its number goes on

    def separator(self, joined: str, boundary: int, at: int) -> bool:
        """Whether the ``'`` at ``at`` is a C++14 digit separator (inside a number)."""
        nxt = joined[at + 1:at + 2]
        if not (nxt.isascii() and (nxt.isalnum() or nxt == "_")):
            return False
        if not (0 <= self.end <= at and _PP_BODY.fullmatch(joined, self.end, at)):
            token = _last_token(joined, boundary, at)
            if not token or not (token[0].isdigit() or token[:1] == "." and token[1:2].isdigit()):
                return False
        self.end = at + 2
        return True


def _block_end(joined: str, start: int, nested: bool) -> int:
    """Just past the ``*/`` closing the comment opened at ``start`` (the end of the text
    when none does)."""
    if not nested:
        end = joined.find("*/", start + 2)
        return len(joined) if end < 0 else end + 2
    depth, pos = 0, start
    for m in re.compile(r"/\*|\*/").finditer(joined, pos):
        depth += 1 if m.group() == "/*" else -1
        if depth == 0:
            return m.end()
    return len(joined)


def _raw_end(text: str, joined: str, splices: _Splices, at: int) -> Optional[int]:
    """The joined offset just past the raw string whose ``"`` is at joined ``at``, or
    ``None`` when no raw string starts there. Its end is searched in the unspliced text."""
    head = _RAW_HEAD.match(joined, at)
    if head is None:
        return None
    body = splices.to_original(head.end() - 1) + 1  # just past its "(" in the file
    close = text.find(")" + head.group(1) + '"', body)
    if close < 0:
        return len(joined)
    return splices.to_joined(close + len(head.group(1)) + 2)


def _blanked_ranges(text: str, splices: _Splices, lex: Lexicon) -> List[Tuple[int, int]]:
    """The joined ranges to blank: comments and raw strings."""
    joined = splices.joined
    ranges: List[Tuple[int, int]] = []
    numbers = _Numbers()
    pos = boundary = 0
    while True:
        m = _SPECIAL.search(joined, pos)
        if m is None:
            return ranges
        i, c = m.start(), m.group()
        if c == "/":
            nxt = joined[i + 1:i + 2]
            if nxt == "/":
                end = _LINE_REST.match(joined, i).end()
            elif nxt == "*":
                end = _block_end(joined, i, lex.nested_comments)
            else:
                pos = i + 1
                continue
            ranges.append((i, end))
        elif c == "'" and lex.digit_separators and numbers.separator(joined, boundary, i):
            pos = i + 1
            continue
        else:
            raw = (_raw_end(text, joined, splices, i) if c == '"' and lex.raw_strings
                   and _last_token(joined, boundary, i) in _RAW_PREFIXES else None)
            if raw is not None:
                ranges.append((i, raw))
                end = raw
            else:
                end = _QUOTED[c].match(joined, i).end()
        pos = boundary = end


def _blank(text: str, spans: List[Tuple[int, int]]) -> str:
    """``text`` with each span's characters but its line ends turned to spaces."""
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        if start < last:
            start = last
        out.append(text[last:start])
        piece = text[start:end]
        out.append(re.sub(r"[^\r\n]", " ", piece) if "\n" in piece or "\r" in piece
                   else " " * len(piece))
        last = max(last, end)
    out.append(text[last:])
    return "".join(out)


_DIRECTIVE = re.compile(r"(?:^|(?<=[\r\n]))[ \t\f\v]*(#|%:)[ \t\f\v]*([A-Za-z_]\w*)?([^\r\n]*)")


def scan(text: str, lex: Lexicon) -> Scanned:
    """``text`` read as ``lex``'s compiler reads it (module docstring)."""
    splices = _Splices(text, lex.splice)
    ranges = _blanked_ranges(text, splices, lex) if ("/" in text or lex.raw_strings) else []
    joined_blank = _blank(splices.joined, ranges)
    originals = sorted([(splices.to_original(s), splices.to_original(e, end=True))
                        for s, e in ranges] + splices.spans)
    out = Scanned(_blank(text, originals), joined=joined_blank,
                  _splices=(splices.joined_at, splices.shift))
    if lex.directives:
        for m in _DIRECTIVE.finditer(joined_blank):
            if m.group(1) == "%:" and not lex.digraphs:
                continue
            out.directives.append(Directive(m.group(2) or "", m.group(3),
                                            out.original(m.start(1))))
    return out
