"""The files ``verify --object`` is given, before any ELF is read: errors, names, archives.

``ObjectError`` is the one error of a file that cannot be read (exit 2, one line). A name
from the file system or an archive is shown escaped (``shown_name``) wherever it holds
anything but printable characters, so that no name can break or fake a line of the report.
``archive_members`` lists the members of a System V, GNU or BSD ``ar`` archive (a static
library) from their headers, bounded and checked against the file's size, and ``Slice``
reads one of them in place, as a file of its own; ``verify.dwarf`` reads the ELF inside.
"""

from __future__ import annotations

import io
from typing import Iterator, Tuple

from ..errors import UsageError

__all__ = ["ObjectError", "shown_name", "AR_MAGIC", "THIN_MAGIC", "Slice", "archive_members"]

#: What a static library (``ar``) starts with; a thin archive keeps its members elsewhere.
AR_MAGIC = b"!<arch>\n"
THIN_MAGIC = b"!<thin>\n"


class ObjectError(UsageError):
    """A file ``verify --object`` cannot read: missing, not ELF, no DWARF, malformed, too big."""


def shown_name(name: str) -> str:
    """``name`` (a path, or an archive member's name) as it can be shown on one line.

    Unchanged when every character is printable; else quoted, with each byte that is not
    UTF-8 (a surrogate escape from the file system) as ``\\xNN``, each other unprintable
    character (newline, ESC, bidirectional controls…) as ``\\xNN``/``\\uNNNN`` and
    backslashes and quotes after a backslash, so that the shown form is plain text that no
    terminal interprets and that cannot pass for another line of the report."""
    if name.isprintable():
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch in "\\'":
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        else:
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "'" + "".join(out) + "'"


class Slice(io.RawIOBase):
    """A read-only window ``[start, start + size)`` of an open file (an archive member)."""

    def __init__(self, f, start: int, size: int) -> None:
        super().__init__()
        self._f, self._start, self._size, self._pos = f, start, size, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self._pos, 2: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def read(self, n: int = -1) -> bytes:
        left = max(0, self._size - self._pos)
        n = left if n is None or n < 0 else min(n, left)
        self._f.seek(self._start + self._pos)
        data = self._f.read(n)
        self._pos += len(data)
        return data

    def readinto(self, b) -> int:
        data = self.read(len(b))
        b[: len(data)] = data
        return len(data)


def archive_members(f, path: str, file_size: int) -> Iterator[Tuple[str, int, int]]:
    """``(name, start, size)`` of every member of a System V / GNU / BSD ``ar`` archive."""
    pos = len(AR_MAGIC)
    long_names = b""
    count = 0
    while pos + 60 <= file_size:
        f.seek(pos)
        header = f.read(60)
        if len(header) < 60 or header[58:60] != b"`\n":
            raise ObjectError(f"{path}: malformed archive (bad member header at byte {pos})")
        raw_name = header[:16].rstrip(b" ")
        try:
            size = int(header[48:58].strip() or b"0")
        except ValueError:
            raise ObjectError(f"{path}: malformed archive (bad member size at byte {pos})") \
                from None
        start = pos + 60
        if size < 0 or start + size > file_size:
            raise ObjectError(f"{path}: malformed archive (member at byte {pos} runs past the end)")
        count += 1
        if count > 1_000_000:
            raise ObjectError(f"{path}: more than 1,000,000 archive members")
        name = raw_name
        if raw_name.startswith(b"#1/") and raw_name[3:].isdigit():  # BSD: name follows
            length = int(raw_name[3:])
            f.seek(start)
            name = f.read(min(length, size)).rstrip(b"\0")
            start, size = start + length, size - length
        elif raw_name == b"//":  # GNU long-name table
            f.seek(start)
            long_names = f.read(min(size, 64 * 1024 * 1024))
            name = b""
        elif raw_name in (b"/", b"/SYM64/") or raw_name.startswith(b"__.SYMDEF"):
            name = b""  # symbol tables
        elif raw_name.startswith(b"/") and raw_name[1:].isdigit():
            offset = int(raw_name[1:])
            end = long_names.find(b"/\n", offset)
            name = long_names[offset:end if end >= 0 else None]
        else:
            name = raw_name[:-1] if raw_name.endswith(b"/") else raw_name
        if name:
            yield name.decode("utf-8", "surrogateescape"), start, size
        pos = start + size + ((start + size) & 1)
