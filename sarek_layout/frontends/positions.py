"""Source positions of the values in a JSON or TOML document, computed only when needed.

The standard library parsers (``json``, ``tomllib``) are fast and strict but forget where
values were. The schema readers keep, for every declaration, the *path* of its value
(``("types", 2, "fields", 0, 1)``); when an error must be printed, these scanners walk the
already-validated text once and map every path to its ``(line, col)``.

Both scanners assume well-formed input (the real parser has accepted it) and are iterative,
so nesting depth never reaches Python's recursion limit.
"""

from __future__ import annotations

import bisect
import re
from typing import Dict, List, Tuple, Union

__all__ = ["Positions", "json_positions", "toml_positions"]

PathKey = Tuple[Union[str, int], ...]


class Positions:
    """Path → ``(line, col)``; unknown paths fall back to their nearest known ancestor."""

    def __init__(self, text: str, offsets: Dict[PathKey, int]) -> None:
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._offsets = offsets

    def _line_col(self, offset: int) -> Tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def __call__(self, path: PathKey) -> Tuple[int, int]:
        path = tuple(path)
        while path not in self._offsets and path:
            path = path[:-1]
        return self._line_col(self._offsets.get(path, 0))


# --- JSON ------------------------------------------------------------------------------------

_JSON_TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<punct>[{}\[\]:,])|(?P<lit>[^\s{}\[\]:,"]+))', re.S
)


def json_positions(text: str) -> Positions:
    """Offsets of every value of a well-formed JSON document, by path."""
    import json

    offsets: Dict[PathKey, int] = {}
    # Each frame: [path, kind ("obj"/"arr"), next array index, pending object key]
    stack: List[list] = []
    expect_key = False
    pos = 0
    root_done = False
    while pos < len(text) and not root_done:
        m = _JSON_TOKEN.match(text, pos)
        if m is None:
            break
        start = m.start(m.lastgroup) if m.lastgroup else m.end()
        pos = m.end()
        if m.lastgroup is None:
            break
        tok = m.group(m.lastgroup)
        if m.lastgroup == "punct" and tok in "]}":
            stack.pop()
            expect_key = False
            if not stack:
                root_done = True
            continue
        if m.lastgroup == "punct" and tok == ",":
            expect_key = bool(stack) and stack[-1][1] == "obj"
            continue
        if m.lastgroup == "punct" and tok == ":":
            continue
        if expect_key and m.lastgroup == "str":
            stack[-1][3] = json.loads(tok)
            expect_key = False
            continue
        # A value starts here: work out its path.
        if not stack:
            path: PathKey = ()
        elif stack[-1][1] == "arr":
            path = stack[-1][0] + (stack[-1][2],)
            stack[-1][2] += 1
        else:
            path = stack[-1][0] + (stack[-1][3],)
        offsets[path] = start
        if tok == "{":
            stack.append([path, "obj", 0, None])
            expect_key = True
        elif tok == "[":
            stack.append([path, "arr", 0, None])
        elif not stack:
            root_done = True
    return Positions(text, offsets)


# --- TOML ------------------------------------------------------------------------------------

_TOML_TOKEN = re.compile(
    r"""[ \t]*(?:
      (?P<comment>\#[^\n]*)
    | (?P<newline>\r?\n)
    | (?P<mlstr>\"\"\"(?:[^\\]|\\.)*?\"\"\"\"{0,2}|'''.*?''''{0,2})
    | (?P<str>"(?:[^"\\\n]|\\.)*"|'[^'\n]*')
    | (?P<punct>[\[\]{}=,.])
    | (?P<bare>[A-Za-z0-9_+\-:.]+)
    )""",
    re.S | re.X,
)


def _toml_keys(tok: str) -> List[str]:
    """The key parts of one token: a quoted key is one part, a bare ``a.b`` is two."""
    if tok.startswith('"'):
        import json

        return [json.loads(tok)]
    if tok.startswith("'"):
        return [tok[1:-1]]
    return [part for part in tok.split(".") if part]


def toml_positions(text: str) -> Positions:
    """Offsets of every value (and table header) of a well-formed TOML document, by path.

    Array-of-tables headers (``[[types]]``) count their elements, so ``[[types]]`` number
    three maps to the path ``("types", 2)``, matching what ``tomllib`` returns.
    """
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOML_TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            pos += 1  # whitespace the pattern did not take (e.g. a stray '\r')
            continue
        pos = m.end()
        if m.lastgroup != "comment":
            tokens.append((m.lastgroup, m.group(m.lastgroup), m.start(m.lastgroup)))

    offsets: Dict[PathKey, int] = {}
    aot_count: Dict[Tuple[str, ...], int] = {}
    table: PathKey = ()

    def header_path(keys: List[str]) -> PathKey:
        path: List[Union[str, int]] = []
        for i in range(len(keys)):
            path.append(keys[i])
            plain = tuple(keys[: i + 1])
            if plain in aot_count and i < len(keys) - 1:
                path.append(aot_count[plain] - 1)
        return tuple(path)

    i = 0
    n = len(tokens)
    while i < n:
        kind, tok, start = tokens[i]
        if kind == "newline":
            i += 1
            continue
        if kind == "punct" and tok == "[":
            # A table header; ``[[`` (two adjacent brackets) opens an array of tables.
            array_of_tables = i + 1 < n and tokens[i + 1][1] == "[" and tokens[i + 1][2] == start + 1
            i += 2 if array_of_tables else 1
            keys: List[str] = []
            while i < n and tokens[i][1] != "]":
                if tokens[i][0] in ("str", "bare"):
                    keys.extend(_toml_keys(tokens[i][1]))
                i += 1
            i += 2 if array_of_tables else 1
            if array_of_tables:
                plain = tuple(keys)
                aot_count[plain] = aot_count.get(plain, 0) + 1
                table = header_path(keys) + (aot_count[plain] - 1,)
            else:
                table = header_path(keys)
            offsets.setdefault(table, start)
            continue
        i = _toml_key_value(tokens, i, table, offsets)
    return Positions(text, offsets)


def _toml_key_value(tokens, i: int, base: PathKey, offsets: Dict[PathKey, int]) -> int:
    """Consume ``key = value`` at ``tokens[i]``; return the index after it."""
    keys = []
    n = len(tokens)
    while i < n and not (tokens[i][0] == "punct" and tokens[i][1] == "="):
        if tokens[i][0] in ("str", "bare"):
            keys.extend(_toml_keys(tokens[i][1]))
        i += 1
    i += 1  # '='
    return _toml_value(tokens, i, base + tuple(keys), offsets)


def _toml_value(tokens, i: int, path: PathKey, offsets: Dict[PathKey, int]) -> int:
    """Consume one value (arrays and inline tables iteratively); return the index after it."""
    n = len(tokens)
    # Frames: [path, kind ("arr" | "tbl"), next index]
    stack: List[list] = []
    while i < n:
        kind, tok, start = tokens[i]
        if kind == "newline" and stack:
            i += 1
            continue
        if stack and kind == "punct" and tok == ",":
            i += 1
            continue
        if stack and kind == "punct" and tok in ("]", "}"):
            stack.pop()
            i += 1
            if not stack:
                return i
            continue
        if stack and stack[-1][1] == "tbl":
            # key = value inside an inline table
            keys = []
            while i < n and not (tokens[i][0] == "punct" and tokens[i][1] == "="):
                if tokens[i][0] in ("str", "bare"):
                    keys.extend(_toml_keys(tokens[i][1]))
                i += 1
            i += 1
            value_path = stack[-1][0] + tuple(keys)
            kind, tok, start = tokens[i]
        elif stack:
            value_path = stack[-1][0] + (stack[-1][2],)
            stack[-1][2] += 1
        else:
            value_path = path
        offsets[value_path] = start
        i += 1
        if kind == "punct" and tok == "[":
            stack.append([value_path, "arr", 0])
        elif kind == "punct" and tok == "{":
            stack.append([value_path, "tbl", 0])
        elif not stack:
            return i
    return i
