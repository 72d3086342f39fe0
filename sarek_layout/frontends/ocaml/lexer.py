"""OCaml tokens for the OCaml front end: the lexical rules of OCaml's own ``lexer.mll``.

Only declarations are parsed later, but the whole file must be tokenised so that nothing in a
comment, a string or a kernel body is mistaken for a declaration. The rules that matter, as
OCaml applies them:

* comments ``(* … *)`` nest; inside them, string literals, quoted strings and character
  literals are skipped whole, so ``(* "*)" *)`` is one comment and ``(* '"' *)`` opens no
  string; identifiers are skipped whole too, so the apostrophe of ``don't`` is not a quote;
* strings ``"…"`` with backslash escapes; quoted strings ``{|…|}``, ``{id|…|id}`` and the
  quoted extensions ``{%ext|…|}`` end only at their own closing delimiter;
* ``'x'``, ``'\\''``, ``'\\n'``, ``'\\065'``, ``'\\x41'``, ``'\\o101'`` are characters, while
  ``'a`` (no closing quote right after one character) is a type variable.

Brackets are single-character tokens (``[|`` is ``[`` then ``|``), so nesting depth is just
a count of ``( [ {`` against ``) ] }``; the parser adds ``struct``/``sig``/``begin``/``object``
… ``end``. Positions are character offsets, turned into line and column only on demand.

The files are often not the user's own, so the lexer is linear in time and small in memory:
every pattern has one way to match a given text (no nested or overlapping repetitions, so no
catastrophic backtracking), and the tokens are stored column-wise in ``Tokens`` (a kind byte
and two offsets, about 9 bytes a token) instead of one object each; a ``Token`` object is made
only when the parser looks at one.
"""

from __future__ import annotations

import bisect
import re
from array import array
from typing import Iterator, Optional, Tuple

from ...errors import SchemaError, quoted
from ...ir.schema import SourceLocation

__all__ = ["Token", "Tokens", "KEYWORDS", "KIND_NAMES", "tokenize", "LineMap", "offsets_for"]

KEYWORDS = frozenset(
    """and as assert asr begin class constraint do done downto else end exception external
    false for fun function functor if in include inherit initializer land lazy let lor lsl lsr
    lxor match method mod module mutable new nonrec object of open or private rec sig struct
    then to true try type val virtual when while with effect""".split()
)

# Token kinds: small integers, so that a token's kind fits in one byte of ``Tokens.kinds``.
LIDENT, UIDENT, KEYWORD, TYVAR, OP, LBRACKET, RBRACKET, STRING, CHAR, NUMBER, OTHER = range(11)
KIND_NAMES = (
    "lident",
    "uident",
    "keyword",
    "tyvar",
    "op",
    "open",
    "close",
    "string",
    "char",
    "number",
    "other",
)


class Token:
    """One token, made on demand from ``Tokens``: its kind, its text and its offset."""

    __slots__ = ("kind", "text", "offset")

    def __init__(self, kind: int, text: str, offset: int) -> None:
        self.kind = kind
        self.text = text
        self.offset = offset  # character offset of the first character in the source

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Token):
            return NotImplemented
        return (self.kind, self.text, self.offset) == (other.kind, other.text, other.offset)

    def __hash__(self) -> int:
        return hash((self.kind, self.offset))

    def __repr__(self) -> str:
        return f"Token({KIND_NAMES[self.kind]}, {quoted(self.text)}, @{self.offset})"


def offsets_for(text: str) -> array:
    """An empty array of offsets into ``text``: 4 bytes each, 8 for texts over 2 GiB."""
    return array("i" if len(text) < 2**31 else "q")


class Tokens:
    """The tokens of one source, column-wise: ``kinds[i]``, ``starts[i]``, ``ends[i]``.

    A file of one-character tokens (``''''…``, ``((((…``) has as many tokens as bytes: one
    object per token cost some 150 bytes each; here it is 9 bytes, and the text of a token is
    sliced from the source only when asked for.
    """

    __slots__ = ("source", "kinds", "starts", "ends")

    def __init__(self, source: str) -> None:
        self.source = source
        self.kinds = bytearray()
        self.starts = offsets_for(source)
        self.ends = offsets_for(source)

    def __len__(self) -> int:
        return len(self.kinds)

    def __getitem__(self, i: int) -> Token:
        start = self.starts[i]
        return Token(self.kinds[i], self.source[start : self.ends[i]], start)

    def __iter__(self) -> Iterator[Token]:
        for i in range(len(self.kinds)):
            yield self[i]

    def text(self, i: int) -> str:
        return self.source[self.starts[i] : self.ends[i]]

    def is_text(self, i: int, text: str) -> bool:
        """``self.text(i) == text`` without slicing the source."""
        start = self.starts[i]
        return self.ends[i] - start == len(text) and self.source.startswith(text, start)

    def first_char(self, i: int) -> str:
        return self.source[self.starts[i]]


class LineMap:
    """Character offset → 1-based ``(line, col)``, and ``SourceLocation`` for a file.

    The line starts are found on first use (most files never need a position) and kept in an
    array, not as a list of int objects (a file of newlines would cost 36 bytes a byte).
    """

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self._text = text
        self._starts: Optional[array] = None

    def line_col(self, offset: int) -> Tuple[int, int]:
        if self._starts is None:
            starts = offsets_for(self._text)
            starts.append(0)
            find = self._text.find
            at = find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = find("\n", at + 1)
            self._starts = starts
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1

    def loc(self, offset: int) -> SourceLocation:
        return SourceLocation(self.path, *self.line_col(offset))


# Every pattern below matches a given text in one way only: alternatives start with
# different characters, and no repetition can hand characters to its neighbour. Python's
# backtracking engine then stays linear even on an unterminated string of 1 MB of
# backslashes (``(?:[^"\\]|\\.|\\\n)*`` took time exponential in the number of
# backslash-newlines: 134 bytes ran for longer than anyone would wait).
_SPACE = re.compile(r"[ \t\r\n\f]+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_']*+")
_NUMBER = re.compile(
    r"(?:0[xX][0-9A-Fa-f][0-9A-Fa-f_]*+(?:\.[0-9A-Fa-f_]*+)?(?:[pP][+-]?[0-9][0-9_]*+)?"
    r"|0[oObB][0-7][0-7_]*+"
    r"|[0-9][0-9_]*+(?:\.[0-9_]*+)?(?:[eE][+-]?[0-9][0-9_]*+)?)[g-zG-Z]?"
)
_OPERATOR = re.compile(r"[!$%&*+\-./:<=>?@^|~#]++")
_CHAR = re.compile(
    r"'(?:[^\\'\r\n]|\r?\n|\\(?:[\\'\"ntbr ]|[0-9]{3}|x[0-9A-Fa-f]{2}|o[0-3][0-7]{2}))'"
)
# ``{|``, ``{id|``, ``{%ext|``, ``{%ext id|`` (OCaml: ``"{%" extattrident blank+ lowercase*``):
# the delimiter of a quoted extension follows blanks, so that the extension name and the
# delimiter cannot share letters (``{%a…a`` would otherwise be split every possible way).
_QUOTED_OPEN = re.compile(
    r"\{(?:%%?+[A-Za-z_][A-Za-z0-9_'.]*+(?:[ \t]++(?P<ext_delim>[a-z_]*+))?|(?P<delim>[a-z_]*+))\|"
)
_STRING_BODY = re.compile(r'[^"\\]*+(?:\\.[^"\\]*+)*+"', re.S)
_SINGLE = frozenset("()[]{};,`'")
_IDENT_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def _quoted_delim(m: "re.Match[str]") -> str:
    return m.group("delim") if m.group("delim") is not None else (m.group("ext_delim") or "")


def _quoted_end(text: str, start: int, delim: str) -> int:
    """Offset just past the ``|delim}`` closing a quoted string whose body starts at ``start``."""
    end = text.find(f"|{delim}}}", start)
    return -1 if end < 0 else end + len(delim) + 2


def _skip_comment(text: str, start: int, lines: LineMap) -> int:
    """Offset just past the comment opened at ``start`` (which points at ``(*``)."""
    depth = 0
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if c == "(" and text.startswith("(*", i):
            depth += 1
            i += 2
        elif c == "*" and text.startswith("*)", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        elif c == '"':
            m = _STRING_BODY.match(text, i + 1)
            if m is None:
                raise SchemaError(
                    "this comment contains an unterminated string literal (OCaml reads strings "
                    "inside comments too)",
                    lines.loc(i),
                )
            i = m.end()
        elif c == "{":
            m = _QUOTED_OPEN.match(text, i)
            if m is None:
                i += 1
                continue
            end = _quoted_end(text, m.end(), _quoted_delim(m))
            if end < 0:
                raise SchemaError(
                    "this comment contains an unterminated quoted string", lines.loc(i)
                )
            i = end
        elif c == "'":
            m = _CHAR.match(text, i)
            i = m.end() if m else i + 1
        elif c in _IDENT_START:
            i = _IDENT.match(text, i).end()  # type: ignore[union-attr]
        else:
            i += 1
    raise SchemaError("unterminated comment (missing '*)')", lines.loc(start))


def tokenize(text: str, lines: LineMap) -> Tokens:
    """All tokens of ``text``; comments and whitespace dropped. Raises ``SchemaError`` on
    unterminated comments and strings (with the position where they open)."""
    tokens = Tokens(text)
    kinds, starts, ends = tokens.kinds, tokens.starts, tokens.ends
    add_kind, add_start, add_end = kinds.append, starts.append, ends.append

    def add(kind: int, start: int, end: int) -> None:
        add_kind(kind)
        add_start(start)
        add_end(end)

    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n\f":
            i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
            continue
        if c == "(" and text.startswith("(*", i):
            i = _skip_comment(text, i, lines)
            continue
        if c in _IDENT_START:
            end = _IDENT.match(text, i).end()  # type: ignore[union-attr]
            if end - i <= 11 and text[i:end] in KEYWORDS:
                kind = KEYWORD
            elif "A" <= c <= "Z":
                kind = UIDENT
            else:
                kind = LIDENT
            add(kind, i, end)
            i = end
            continue
        if "0" <= c <= "9":
            end = _NUMBER.match(text, i).end()  # type: ignore[union-attr]
            add(NUMBER, i, end)
            i = end
            continue
        if c == '"':
            m = _STRING_BODY.match(text, i + 1)
            if m is None:
                raise SchemaError("unterminated string literal", lines.loc(i))
            add(STRING, i, m.end())
            i = m.end()
            continue
        if c == "'":
            m = _CHAR.match(text, i)
            if m is not None:
                add(CHAR, i, m.end())
                i = m.end()
                continue
            m = _IDENT.match(text, i + 1)
            if m is not None:
                add(TYVAR, i, m.end())
                i = m.end()
                continue
            add(OTHER, i, i + 1)
            i += 1
            continue
        if c == "{":
            m = _QUOTED_OPEN.match(text, i)
            if m is not None:
                delim = _quoted_delim(m)
                end = _quoted_end(text, m.end(), delim)
                if end < 0:
                    raise SchemaError(
                        f"unterminated quoted string (missing '|{delim}}}')", lines.loc(i)
                    )
                add(STRING, i, end)
                i = end
                continue
        if c in "([{":
            add(LBRACKET, i, i + 1)
            i += 1
            continue
        if c in ")]}":
            add(RBRACKET, i, i + 1)
            i += 1
            continue
        if c == ";" and text.startswith(";;", i):
            add(OTHER, i, i + 2)
            i += 2
            continue
        if c in _SINGLE:
            add(OTHER, i, i + 1)
            i += 1
            continue
        m = _OPERATOR.match(text, i)
        if m is not None:
            add(OP, i, m.end())
            i = m.end()
            continue
        # Anything else (non-ASCII letters in identifiers, stray bytes): one opaque token.
        add(OTHER, i, i + 1)
        i += 1
    return tokens
