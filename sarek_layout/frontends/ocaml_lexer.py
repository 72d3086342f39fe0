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
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import List, Tuple

from ..errors import SchemaError, quoted
from ..ir.schema import SourceLocation

__all__ = ["Token", "KEYWORDS", "tokenize", "LineMap"]

KEYWORDS = frozenset(
    """and as assert asr begin class constraint do done downto else end exception external
    false for fun function functor if in include inherit initializer land lazy let lor lsl lsr
    lxor match method mod module mutable new nonrec object of open or private rec sig struct
    then to true try type val virtual when while with effect""".split()
)

# Token kinds.
LIDENT, UIDENT, KEYWORD, TYVAR, OP, LBRACKET, RBRACKET, STRING, CHAR, NUMBER, OTHER = (
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


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    offset: int  # character offset of the first character in the source

    def __repr__(self) -> str:
        return f"Token({self.kind}, {quoted(self.text)}, @{self.offset})"


class LineMap:
    """Character offset → 1-based ``(line, col)``, and ``SourceLocation`` for a file."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_col(self, offset: int) -> Tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1

    def loc(self, offset: int) -> SourceLocation:
        return SourceLocation(self.path, *self.line_col(offset))


_SPACE = re.compile(r"[ \t\r\n\f]+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
_NUMBER = re.compile(
    r"(?:0[xX][0-9A-Fa-f][0-9A-Fa-f_]*(?:\.[0-9A-Fa-f_]*)?(?:[pP][+-]?[0-9][0-9_]*)?"
    r"|0[oObB][0-7][0-7_]*"
    r"|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][+-]?[0-9][0-9_]*)?)[g-zG-Z]?"
)
_OPERATOR = re.compile(r"[!$%&*+\-./:<=>?@^|~#]+")
_CHAR = re.compile(
    r"'(?:[^\\'\r\n]|\r?\n|\\(?:[\\'\"ntbr ]|[0-9]{3}|x[0-9A-Fa-f]{2}|o[0-3][0-7]{2}))'"
)
_QUOTED_OPEN = re.compile(r"\{(?:%%?[A-Za-z_][A-Za-z0-9_'.]*[ \t]*)?([a-z_]*)\|")
_STRING_BODY = re.compile(r'(?:[^"\\]|\\.|\\\n)*"', re.S)
_SINGLE = frozenset("()[]{};,`'")
_IDENT_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


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
            end = _quoted_end(text, m.end(), m.group(1))
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


def tokenize(text: str, lines: LineMap) -> List[Token]:
    """All tokens of ``text``; comments and whitespace dropped. Raises ``SchemaError`` on
    unterminated comments and strings (with the position where they open)."""
    tokens: List[Token] = []
    append = tokens.append
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
            m = _IDENT.match(text, i)
            word = m.group()  # type: ignore[union-attr]
            if word in KEYWORDS:
                kind = KEYWORD
            elif word[0].isupper():
                kind = UIDENT
            else:
                kind = LIDENT
            append(Token(kind, word, i))
            i = m.end()  # type: ignore[union-attr]
            continue
        if "0" <= c <= "9":
            m = _NUMBER.match(text, i)
            append(Token(NUMBER, m.group(), i))  # type: ignore[union-attr]
            i = m.end()  # type: ignore[union-attr]
            continue
        if c == '"':
            m = _STRING_BODY.match(text, i + 1)
            if m is None:
                raise SchemaError("unterminated string literal", lines.loc(i))
            append(Token(STRING, text[i : m.end()], i))
            i = m.end()
            continue
        if c == "'":
            m = _CHAR.match(text, i)
            if m is not None:
                append(Token(CHAR, m.group(), i))
                i = m.end()
                continue
            m = _IDENT.match(text, i + 1)
            if m is not None:
                append(Token(TYVAR, text[i : m.end()], i))
                i = m.end()
                continue
            append(Token(OTHER, c, i))
            i += 1
            continue
        if c == "{":
            m = _QUOTED_OPEN.match(text, i)
            if m is not None:
                end = _quoted_end(text, m.end(), m.group(1))
                if end < 0:
                    raise SchemaError(
                        f"unterminated quoted string (missing '|{m.group(1)}}}')", lines.loc(i)
                    )
                append(Token(STRING, text[i:end], i))
                i = end
                continue
        if c in "([{":
            append(Token(LBRACKET, c, i))
            i += 1
            continue
        if c in ")]}":
            append(Token(RBRACKET, c, i))
            i += 1
            continue
        if c == ";" and text.startswith(";;", i):
            append(Token(OTHER, ";;", i))
            i += 2
            continue
        if c in _SINGLE:
            append(Token(OTHER, c, i))
            i += 1
            continue
        m = _OPERATOR.match(text, i)
        if m is not None:
            append(Token(OP, m.group(), i))
            i = m.end()
            continue
        # Anything else (non-ASCII letters in identifiers, stray bytes): one opaque token.
        append(Token(OTHER, c, i))
        i += 1
    return tokens
