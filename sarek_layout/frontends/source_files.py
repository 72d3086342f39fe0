"""What every reader shares: opening files (regular files only, never in a way that blocks),
which files are C headers, and the default module name of a file.

A plain ``open()`` of a FIFO waits for a writer forever, and a device such as ``/dev/zero``
never ends. Every reader (and the C reader for each header it reads back) opens through
``open_regular``: non-blocking, then ``fstat`` on the descriptor itself, so that what is
checked is what is read, even if the name is swapped for a FIFO in between.

Every input is capped in size (``max_input_bytes``: 64 MiB, ``$SAREK_MAX_INPUT_MB``): a schema
file, an OCaml file, a C header and each file it includes. A larger one is refused at its
name before it is read (a sparse 10 GB file was read whole, and under an address-space limit
ended in a MemoryError traceback), and a file that grows while it is read stops at the cap.
"""

from __future__ import annotations

import errno
import math
import os
import stat

from ..errors import SchemaError, UsageError
from ..ir.schema import SourceLocation

__all__ = ["open_regular", "check_regular_file", "read_schema_bytes", "max_input_bytes",
           "too_large", "MAX_INPUT_ENV", "DEFAULT_MAX_INPUT_MB", "is_header",
           "default_module_name"]

#: The environment variable that sets the input cap, in MiB.
MAX_INPUT_ENV = "SAREK_MAX_INPUT_MB"
#: The default cap: far above any real schema (a 10,000-type TOML schema is about 1 MiB).
DEFAULT_MAX_INPUT_MB = 64
#: The largest cap accepted (1 TiB): past it the number is a typo, not a limit.
_MAX_CAP_MB = 1 << 20


def max_input_bytes() -> int:
    """The largest input file read, in bytes: ``$SAREK_MAX_INPUT_MB`` MiB (a positive number,
    fractions allowed), else ``DEFAULT_MAX_INPUT_MB``. A value that is not such a number is a
    ``UsageError`` naming it (``nan``, ``-1``, ``1e30``, ``lots``)."""
    raw = os.environ.get(MAX_INPUT_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_MAX_INPUT_MB << 20
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= _MAX_CAP_MB) or value * (1 << 20) < 1:
        raise UsageError(
            f"{MAX_INPUT_ENV}={printable_value(raw)}: must be a number of MiB greater than 0 "
            f"and at most {_MAX_CAP_MB} (the cap on each input file's size; default "
            f"{DEFAULT_MAX_INPUT_MB})"
        )
    return int(value * (1 << 20))


def printable_value(raw: str) -> str:
    """An environment value for a one-line message (quoted and escaped as ``ascii`` does)."""
    text = raw if len(raw) <= 40 else raw[:40] + "…"
    return ascii(text) if not text.isprintable() or " " in text or not text else text


def too_large(size: int, limit: int) -> str:
    """The refusal of a file of ``size`` bytes over ``limit``: a sentence fragment."""
    return (f"is larger than the input size limit ({_mib(size)} > {_mib(limit)}; set "
            f"{MAX_INPUT_ENV} to raise it)")


def _mib(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.3g} {unit}"
    return f"{n} bytes"


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
    """Refuse ``path`` unless it is a readable regular file within the input size limit, in
    the readers' words."""
    limit = max_input_bytes()
    try:
        fd = open_regular(path)
    except OSError as e:
        raise _refusal(path, e) from None
    except ValueError:  # a NUL in the name
        raise SchemaError("cannot read: the name holds a NUL character", SourceLocation(path)) from None
    try:
        size = os.fstat(fd).st_size
    finally:
        os.close(fd)
    if size > limit:
        raise SchemaError(too_large(size, limit), SourceLocation(path))


def read_schema_bytes(path: str) -> bytes:
    """The whole of the schema file ``path``, refused in the readers' words when it is not
    a readable regular file or is larger than ``max_input_bytes``."""
    limit = max_input_bytes()
    try:
        fd = open_regular(path)
    except OSError as e:
        raise _refusal(path, e) from None
    except ValueError:
        raise SchemaError("cannot read: the name holds a NUL character", SourceLocation(path)) from None
    try:
        with open(fd, "rb") as f:  # closes fd
            size = os.fstat(fd).st_size
            if size > limit:
                raise SchemaError(too_large(size, limit), SourceLocation(path))
            # In chunks, and no further than the limit: a file may grow while it is read.
            data = bytearray()
            while True:
                chunk = f.read(min(1 << 20, limit + 1 - len(data)))
                if not chunk:
                    return bytes(data)
                data += chunk
                if len(data) > limit:
                    raise SchemaError(too_large(len(data), limit), SourceLocation(path))
    except OSError as e:
        raise _refusal(path, e) from None
