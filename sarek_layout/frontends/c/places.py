"""Source positions of a preprocessed C header, as messages print them.

pycparser reports positions in the preprocessed text: the file as cpp's line markers spell
it (escaped), the line in that file, and the column in the preprocessed line, which drifts
from the source where macros expanded or blanks were squeezed. ``Places`` turns them into
``SourceLocation``s: file names unescaped, columns checked against the source line and moved
to where the name really is. Source lines are read only from the header itself and the
files cpp included (``preprocess.read_source_lines``), never from a file a line marker
names, and a search for a name stays in a window around the column, so that a header
written on one enormous line is still read in linear time.
"""

from __future__ import annotations

import re
from typing import Dict, FrozenSet, List, Optional

from ...errors import SchemaError
from ...ir.schema import SourceLocation
from .extensions import Extension, unescape_file_name
from .preprocess import read_source_lines

__all__ = ["Places"]


#: Characters either side of the preprocessor's column searched for a name in the source line
#: (bounded, so that a header written on one enormous line stays linear to read).
_NAME_WINDOW = 256
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_]")


def _word_start(text: str, col: int) -> int:
    """The column of the word at or before column ``col`` of ``text``: where a macro that
    expanded there is (the preprocessor's columns follow the source's up to it). Past the
    line's code (all of it came from a macro on the line), the line's first word."""
    code = len(re.split(r"/[*/]", text, maxsplit=1)[0].rstrip())
    i = min(col - 1, code)
    while i > 0 and not _IDENT_CHAR.match(text[i:i + 1]):
        i -= 1
    while i > 0 and _IDENT_CHAR.match(text[i - 1]):
        i -= 1
    if col - 1 >= code or not _IDENT_CHAR.match(text[i:i + 1]):
        first = re.search(r"[A-Za-z0-9_]", text)
        i = first.start() if first else 0
    return i + 1


class Places:
    """Positions in one preprocessed header (``path``) and the files cpp included."""

    def __init__(self, path: str, included: FrozenSet[str]) -> None:
        self.path = path
        self.readable = included | {path}
        self._lines: Dict[str, List[str]] = {}
        self._files: Dict[str, str] = {}

    def file_of(self, coord_file: Optional[str]) -> str:
        """The file a pycparser coordinate names (cpp escapes some characters; pycparser
        keeps the escapes)."""
        if not coord_file:
            return self.path
        if coord_file not in self._files:
            self._files[coord_file] = unescape_file_name(coord_file)
        return self._files[coord_file]

    def _source_lines(self, file: str) -> List[str]:
        if file not in self._lines:
            self._lines[file] = read_source_lines(file, self.readable)
        return self._lines[file]

    def loc(self, node, name: Optional[str] = None) -> SourceLocation:
        coord = getattr(node, "coord", None)
        if coord is None:
            return SourceLocation(self.path)
        return self.place(self.file_of(coord.file), coord.line or 0, coord.column or 1, name)

    def place(self, file: str, line: int, col: int, name: Optional[str] = None,
              other_lines: bool = True) -> SourceLocation:
        """``file:line:col``, the column corrected to where ``name`` is in the source line:
        columns after preprocessing drift where macros expanded or blanks were squeezed.
        Without ``other_lines``, ``name`` is looked for on that line only, and where it is
        not there (a macro wrote it), the place is the word at the column: the macro."""
        if name:
            lines = self._source_lines(file)
            if 0 < line <= len(lines) and lines[line - 1][col - 1 : col - 1 + len(name)] == name:
                return SourceLocation(file, line, col)
            # A whole word: no identifier character before or after (``#`` has no such edge).
            before_edge = "(?<![A-Za-z0-9_])" if _IDENT_CHAR.match(name[0]) else ""
            after_edge = "(?![A-Za-z0-9_])" if _IDENT_CHAR.match(name[-1]) else ""
            pattern = re.compile(before_edge + re.escape(name) + after_edge)
            if 0 < line <= len(lines):
                text = lines[line - 1]
                after = pattern.search(text, max(col - 1, 0), col - 1 + _NAME_WINDOW)
                if after is not None:
                    return SourceLocation(file, line, after.start() + 1)
                before = None
                for m in pattern.finditer(text, max(col - 1 - _NAME_WINDOW, 0), max(col - 1, 0)):
                    before = m
                if before is not None:
                    return SourceLocation(file, line, before.start() + 1)
                if not other_lines:
                    return SourceLocation(file, line, _word_start(text, col))
            for k in range(max(line, 0), min(line + 50, len(lines))):
                m = pattern.search(lines[k], 0, _NAME_WINDOW)
                if m:
                    return SourceLocation(file, k + 1, m.start() + 1)
        return SourceLocation(file, line, col)

    def nesting_start(self, file: str, line: int, col: int) -> SourceLocation:
        """The start of the run of parentheses and unary operators around ``line:col``."""
        lines = self._source_lines(file)
        if 0 < line <= len(lines):
            text = lines[line - 1]
            i = min(col - 1, len(text))
            while i > 0 and text[i - 1] in "(-+~!*& \t":
                i -= 1
            while i < len(text) and text[i] in " \t":
                i += 1
            return SourceLocation(file, line, i + 1)
        return SourceLocation(file, line, col)

    def extension_error(self, ext: Extension, why: str) -> SchemaError:
        keyword = re.match(r"#|[A-Za-z_]+|\[\[", ext.spelling)
        # On its own line: the same keyword further down is another declaration's.
        where = self.place(self.file_of(ext.file), ext.line, ext.col,
                           keyword.group() if keyword else None, other_lines=False)
        return SchemaError(f"'{ext.spelling}' {why}", where)
