"""Source positions of the values in a JSON or TOML document, computed only when needed.

The standard library parsers (``json``, ``tomllib``) are fast and strict but forget where
values were. The schema readers keep, for every declaration, the *path* of its value
(``("types", 2, "fields", 0, 1)``); when an error must be printed, ``Positions`` scans the
already-validated text for that one path and gives its ``(line, col)``, or that of its
nearest ancestor when the path itself is not in the text.

A scan is one pass over the text, iterative, and keeps only the containers open around the
place it is at (whether each lies on the path asked for), never a table of every value: a
document of a million values nested a thousand levels deep costs no more memory than a
flat one. An error asks for one or two paths, so a scan per question is cheap; a command
that asks for many (``diff`` names the place of every type that changed) gets, after
``SCANS_BEFORE_INDEX`` scans, one pass that records the places down to the deepest path asked
(JSON; TOML keeps a scan per question).
``json_duplicate_key`` finds the place of the first key an object repeats.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Iterator, List, Optional, Set, Tuple, Union

__all__ = ["Positions", "json_positions", "toml_positions", "json_duplicate_key"]

PathKey = Tuple[Union[str, int], ...]


def _line_col(text: str, offset: int) -> Tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


#: Scans of the whole text for single paths before ``Positions`` indexes it in one pass: an
#: error asks for one or two paths, but ``diff`` of a schema whose every type changed asks
#: for one per type, and a scan each was quadratic in the document (issue 24).
SCANS_BEFORE_INDEX = 8


class Positions:
    """Path → ``(line, col)``; a path not in the text falls back to its nearest ancestor.

    The first few questions scan the text for their one path (module docstring); after
    ``SCANS_BEFORE_INDEX`` of them, when an ``index`` is given, one pass records the place
    of every value no deeper than the deepest path asked so far, and answers come from that
    table (a deeper path still gets its own scan)."""

    def __init__(self, text: str, find: Callable[[str, PathKey], int],
                 index: Optional[Callable[[str, int], Dict[PathKey, int]]] = None) -> None:
        self._text = text
        self._find = find  # (text, path) -> offset of the path or of its nearest ancestor
        self._index = index  # (text, depth) -> offset of every value down to that depth
        self._known: Dict[PathKey, Tuple[int, int]] = {}
        self._scans = 0
        self._deepest = 0
        self._table: Optional[Dict[PathKey, int]] = None
        self._table_depth = -1
        self._line_starts: Optional[List[int]] = None

    def __call__(self, path: PathKey) -> Tuple[int, int]:
        path = tuple(path)
        if path not in self._known:
            self._known[path] = self._place(self._offset(path))
        return self._known[path]

    def _offset(self, path: PathKey) -> int:
        self._deepest = max(self._deepest, len(path))
        if self._table is None and self._index is not None and self._scans >= SCANS_BEFORE_INDEX:
            self._table_depth = self._deepest
            self._table = self._index(self._text, self._table_depth)
        if self._table is not None and len(path) <= self._table_depth:
            # The deepest ancestor in the table (the path itself first), as a scan finds it.
            for end in range(len(path), -1, -1):
                offset = self._table.get(path[:end])
                if offset is not None:
                    return offset
            return 0
        self._scans += 1
        return self._find(self._text, path)

    def _place(self, offset: int) -> Tuple[int, int]:
        if self._table is None:
            return _line_col(self._text, offset)
        # Many questions: the line starts once, then a binary search each.
        from bisect import bisect_right

        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self._text)]
        line = bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1


class _Nearest:
    """The deepest place on the path asked for seen so far (first occurrence wins)."""

    __slots__ = ("target", "depth", "offset")

    def __init__(self, target: PathKey) -> None:
        self.target = target
        self.depth = -1  # nothing seen yet: the start of the text
        self.offset = 0

    def on_path(self, depth: int, key: Union[str, int]) -> bool:
        """Whether the child ``key`` of a container on the path (at ``depth``) is on it."""
        return depth < len(self.target) and _same_key(self.target[depth], key)

    def seen(self, depth: int, offset: int) -> bool:
        """Note a value on the path at ``depth``; True when it is the path itself."""
        if depth > self.depth:
            self.depth, self.offset = depth, offset
        return depth == len(self.target)


def _same_key(a: Union[str, int], b: Union[str, int]) -> bool:
    return type(a) is type(b) and a == b


# --- JSON ------------------------------------------------------------------------------------

_JSON_TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<punct>[{}\[\]:,])|(?P<lit>[^\s{}\[\]:,"]+))', re.S
)


def json_positions(text: str) -> Positions:
    """Positions of the values of a well-formed JSON document, by path."""
    return Positions(text, _json_find, _json_index)


def _json_values(text: str) -> Iterator[Tuple[int, Union[str, int, None], int, str]]:
    """Every value of a well-formed JSON document in order, as ``(depth, key, offset,
    token)``: the number of containers around it, its key in the innermost one (an object
    key as its raw quoted token, decoded only by a caller that needs it; an array index;
    ``None`` for the document itself), where it starts, and its first token (``{`` and
    ``[`` open a container whose values follow). Ends when the document's value does.

    The one walk both the scan (``_json_find``) and the index (``_json_index``) take."""
    # Open containers: [is an object, next array index, pending object key (raw)]
    stack: List[list] = []
    expect_key = False
    pos = 0
    while pos < len(text):
        m = _JSON_TOKEN.match(text, pos)
        if m is None or m.lastgroup is None:
            return
        group = m.lastgroup
        tok = m.group(group)
        pos = m.end()
        if group == "punct" and tok in "]}":
            stack.pop()
            expect_key = False
            if not stack:
                return
            continue
        if group == "punct" and tok == ",":
            expect_key = bool(stack) and stack[-1][0]
            continue
        if group == "punct" and tok == ":":
            continue
        if expect_key and group == "str":
            stack[-1][2] = tok
            expect_key = False
            continue
        key: Union[str, int, None] = None
        if stack:
            frame = stack[-1]
            if frame[0]:
                key = frame[2]
            else:
                key = frame[1]
                frame[1] += 1
        yield len(stack), key, m.start(group), tok
        if tok == "{":
            stack.append([True, 0, None])
            expect_key = True
        elif tok == "[":
            stack.append([False, 0, None])
        elif not stack:
            return


def _json_key(key: Union[str, int, None]) -> Union[str, int]:
    """A key as a path holds it: an object key's token decoded, an array index as is."""
    import json

    return json.loads(key) if isinstance(key, str) else key  # type: ignore[return-value]


def _json_index(text: str, depth: int) -> Dict[PathKey, int]:
    """The offset of every value of a well-formed JSON document whose path has at most
    ``depth`` parts, in one pass (the first occurrence of a repeated path wins, as in
    ``_json_find``)."""
    table: Dict[PathKey, int] = {}
    # paths[d]: the path of the open container at depth d (values at depth d + 1 are in it).
    paths: List[PathKey] = []
    for level, key, start, tok in _json_values(text):
        del paths[level:]
        if level > depth:  # below the deepest path asked: never needed
            continue
        path: PathKey = paths[-1] + (_json_key(key),) if level else ()
        table.setdefault(path, start)
        if tok in "{[":
            paths.append(path)
    return table


def _json_find(text: str, target: PathKey) -> int:
    nearest = _Nearest(target)
    # on_path[d]: whether the open container at depth d lies on the path.
    on_path: List[bool] = []
    for level, key, start, tok in _json_values(text):
        del on_path[level:]
        here = not level or (on_path[-1] and nearest.on_path(level - 1, _json_key(key)))
        if here and nearest.seen(level, start):
            return start
        if tok in "{[":
            on_path.append(here)
    return nearest.offset


def json_duplicate_key(text: str) -> Optional[Tuple[str, Tuple[int, int]]]:
    """The first key that an object of the (well-formed) JSON ``text`` repeats, and the
    ``(line, col)`` of its second occurrence; None when there is none."""
    import json

    # Each frame: the keys seen so far in an object, or None for an array.
    stack: List[Optional[Set[str]]] = []
    expect_key = False
    pos = 0
    while pos < len(text):
        m = _JSON_TOKEN.match(text, pos)
        if m is None or m.lastgroup is None:
            break
        tok = m.group(m.lastgroup)
        pos = m.end()
        if m.lastgroup == "punct":
            if tok == "{":
                stack.append(set())
                expect_key = True
            elif tok == "[":
                stack.append(None)
            elif tok in "]}":
                stack.pop()
                expect_key = False
                if not stack:
                    break
            elif tok == ",":
                expect_key = bool(stack) and stack[-1] is not None
            continue
        if expect_key and m.lastgroup == "str":
            key = json.loads(tok)
            seen = stack[-1]
            if seen is not None and key in seen:
                return key, _line_col(text, m.start(m.lastgroup))
            if seen is not None:
                seen.add(key)
            expect_key = False
    return None


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

_Token = Tuple[str, str, int]  # (kind, text, offset)


class _TomlTokens:
    """The tokens of a TOML text, one at a time (comments dropped): nothing is kept."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.next: Optional[_Token] = None
        self.take()

    def take(self) -> Optional[_Token]:
        """The current token, moving on to the next one."""
        current = self.next
        text = self.text
        self.next = None
        while self.pos < len(text):
            m = _TOML_TOKEN.match(text, self.pos)
            if m is None or m.end() == self.pos:
                self.pos += 1  # whitespace the pattern did not take (e.g. a stray '\r')
                continue
            self.pos = m.end()
            if m.lastgroup != "comment":
                self.next = (m.lastgroup, m.group(m.lastgroup), m.start(m.lastgroup))  # type: ignore[arg-type]
                break
        return current


def _toml_keys(tok: str) -> List[str]:
    """The key parts of one token: a quoted key is one part, a bare ``a.b`` is two."""
    if tok.startswith('"'):
        import json

        return [json.loads(tok)]
    if tok.startswith("'"):
        return [tok[1:-1]]
    return [part for part in tok.split(".") if part]


def toml_positions(text: str) -> Positions:
    """Positions of the values (and table headers) of a well-formed TOML document, by path.

    Array-of-tables headers (``[[types]]``) count their elements, so ``[[types]]`` number
    three maps to the path ``("types", 2)``, matching what ``tomllib`` returns.
    """
    return Positions(text, _toml_find)


class _Found(Exception):
    def __init__(self, offset: int) -> None:
        self.offset = offset


def _toml_find(text: str, target: PathKey) -> int:
    nearest = _Nearest(target)

    def note(path: PathKey, offset: int) -> None:
        """A place with a (short, fully known) path: on the path asked for?"""
        depth = 0
        while depth < len(path) and nearest.on_path(depth, path[depth]):
            depth += 1
        if depth == len(path) and nearest.seen(depth, offset):
            raise _Found(offset)

    aot_count: Dict[Tuple[str, ...], int] = {}
    tokens = _TomlTokens(text)

    def header_path(keys: List[str]) -> PathKey:
        path: List[Union[str, int]] = []
        for i in range(len(keys)):
            path.append(keys[i])
            plain = tuple(keys[: i + 1])
            if plain in aot_count and i < len(keys) - 1:
                path.append(aot_count[plain] - 1)
        return tuple(path)

    table: PathKey = ()
    try:
        while tokens.next is not None:
            kind, tok, start = tokens.next
            if kind == "newline":
                tokens.take()
                continue
            if kind == "punct" and tok == "[":
                # A table header; ``[[`` (two adjacent brackets) opens an array of tables.
                array_of_tables = text.startswith("[", start + 1)
                tokens.take()
                if array_of_tables:
                    tokens.take()
                keys: List[str] = []
                while tokens.next is not None and tokens.next[1] != "]":
                    if tokens.next[0] in ("str", "bare"):
                        keys.extend(_toml_keys(tokens.next[1]))
                    tokens.take()
                tokens.take()
                if array_of_tables:
                    tokens.take()
                    plain = tuple(keys)
                    aot_count[plain] = aot_count.get(plain, 0) + 1
                    table = header_path(keys) + (aot_count[plain] - 1,)
                else:
                    table = header_path(keys)
                note(table, start)
                continue
            _toml_key_value(tokens, table, note, nearest)
    except _Found as found:
        return found.offset
    return nearest.offset


def _toml_key_value(tokens: _TomlTokens, base: PathKey, note, nearest: _Nearest) -> None:
    """Consume ``key = value`` at the current token."""
    keys: List[str] = []
    key_start = tokens.next[2] if tokens.next is not None else 0
    while tokens.next is not None and not (tokens.next[0] == "punct" and tokens.next[1] == "="):
        if tokens.next[0] in ("str", "bare"):
            keys.extend(_toml_keys(tokens.next[1]))
        tokens.take()
    tokens.take()  # '='
    # ``a.b.c = 1`` defines the tables a and a.b too: they are where the key starts.
    for k in range(1, len(keys)):
        note(base + tuple(keys[:k]), key_start)
    _toml_value(tokens, base + tuple(keys), note, nearest)


def _toml_value(tokens: _TomlTokens, path: PathKey, note, nearest: _Nearest) -> None:
    """Consume one value (arrays and inline tables iteratively, however deep)."""
    # Open containers: [depth, on the path, is an inline table, next array index]
    stack: List[list] = []
    while tokens.next is not None:
        kind, tok, start = tokens.next
        if stack and (kind == "newline" or (kind == "punct" and tok == ",")):
            tokens.take()
            continue
        if stack and kind == "punct" and tok in ("]", "}"):
            stack.pop()
            tokens.take()
            if not stack:
                return
            continue
        if not stack:
            depth = len(path)
            note(path, start)
            on_path = _is_prefix(path, nearest)
        elif stack[-1][2]:
            entry = _inline_table_entry(tokens, stack[-1], nearest)
            if entry is None:
                return
            kind, tok, start, depth, on_path = entry
        else:
            depth, on_path = _array_element(stack[-1], start, nearest)
        tokens.take()
        if kind == "punct" and tok == "[":
            stack.append([depth, on_path, False, 0])
        elif kind == "punct" and tok == "{":
            stack.append([depth, on_path, True, 0])
        elif not stack:
            return


def _inline_table_entry(tokens: _TomlTokens, frame: list, nearest: _Nearest):
    """``key = value`` inside an inline table: the key's parts consumed, one level each; the
    value's token with its depth and whether it is on the path (``None`` at the end)."""
    keys = []
    while tokens.next is not None and not (tokens.next[0] == "punct" and tokens.next[1] == "="):
        if tokens.next[0] in ("str", "bare"):
            keys.extend(_toml_keys(tokens.next[1]))
        tokens.take()
    tokens.take()
    if tokens.next is None:
        return None
    kind, tok, start = tokens.next
    depth, on_path = frame[0], frame[1]
    for key in keys:
        on_path = on_path and nearest.on_path(depth, key)
        depth += 1
    if on_path and nearest.seen(depth, start):
        raise _Found(start)
    return kind, tok, start, depth, on_path


def _array_element(frame: list, start, nearest: _Nearest):
    """The next element of an array: its depth and whether it is on the path."""
    depth = frame[0]
    on_path = frame[1] and nearest.on_path(depth, frame[3])
    frame[3] += 1
    depth += 1
    if on_path and nearest.seen(depth, start):
        raise _Found(start)
    return depth, on_path


def _is_prefix(path: PathKey, nearest: _Nearest) -> bool:
    target = nearest.target
    return len(path) <= len(target) and all(_same_key(a, b) for a, b in zip(path, target))
