"""Opening the files the readers read: regular files only, and never in a way that blocks.

A plain ``open()`` of a FIFO waits for a writer forever, and a device such as ``/dev/zero``
never ends. Every reader (and the C reader for each header it reads back) opens through
``open_regular``: non-blocking, then ``fstat`` on the descriptor itself, so that what is
checked is what is read, even if the name is swapped for a FIFO in between.
"""

from __future__ import annotations

import errno
import os
import stat

from ..errors import SchemaError
from ..ir.schema import SourceLocation

__all__ = ["open_regular", "check_regular_file", "read_schema_bytes"]


def open_regular(path: str) -> int:
    """A descriptor of ``path`` when it is a regular file; ``OSError`` otherwise, with
    ``EISDIR`` for a folder and ``ENODEV`` for a FIFO, socket or device."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise OSError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(mode):
            raise OSError(errno.ENODEV, "not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _refusal(path: str, e: OSError) -> SchemaError:
    if e.errno == errno.EISDIR:
        return SchemaError("is a directory, not a schema file", SourceLocation(path))
    if e.errno == errno.ENODEV:
        return SchemaError(
            "is not a regular file (a FIFO, socket or device); pass a schema file",
            SourceLocation(path),
        )
    return SchemaError(f"cannot read: {e.strerror or e}", SourceLocation(path))


def check_regular_file(path: str) -> None:
    """Refuse ``path`` unless it is a readable regular file, in the readers' words."""
    try:
        os.close(open_regular(path))
    except OSError as e:
        raise _refusal(path, e) from None
    except ValueError:  # a NUL in the name
        raise SchemaError("cannot read: the name holds a NUL character", SourceLocation(path)) from None


def read_schema_bytes(path: str) -> bytes:
    """The whole of the schema file ``path``, refused in the readers' words when it is not
    a readable regular file."""
    try:
        fd = open_regular(path)
    except OSError as e:
        raise _refusal(path, e) from None
    except ValueError:
        raise SchemaError("cannot read: the name holds a NUL character", SourceLocation(path)) from None
    try:
        with open(fd, "rb") as f:  # closes fd
            return f.read()
    except OSError as e:
        raise _refusal(path, e) from None
