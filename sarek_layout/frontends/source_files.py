"""What every reader shares: opening files (regular files only, never in a way that blocks),
which files are C headers, and the default module name of a file.

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

__all__ = ["open_regular", "check_regular_file", "read_schema_bytes", "is_header",
           "default_module_name"]

#: The suffix of the files the C reader reads (the ``.h`` entry of ``frontends.READERS``).
HEADER_SUFFIX = ".h"


def is_header(path: str) -> bool:
    """Whether ``path`` is read as a C header (the ``.h`` reader of ``READERS``)."""
    return os.path.splitext(path)[1].lower() == HEADER_SUFFIX


def default_module_name(path: str) -> str:
    """The file's stem, capitalised as OCaml does (``geometry_lib.toml`` → ``Geometry_lib``):
    the module of a schema file that names none, in every syntax."""
    stem = os.path.basename(path).split(".")[0]
    return stem[:1].upper() + stem[1:]


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
