"""glslang confined to its compile folder, where the kernel allows it (Linux Landlock).

clang has an option that hides every file but the ones given (``metal``'s file-system
overlay); glslang has none: it resolves ``#include "NAME"`` below the including file's folder
and the ``-I`` folders, and ``..`` climbs out of them. ``source`` refuses such an include
before glslang runs; this is the second wall, for an include the scan would miss. The
compiler is started through a small Python stub that asks the kernel (Landlock, Linux 5.13+,
no privilege needed, and it binds root too) to refuse it every read outside the compile
folder and the folders a program needs to start (``/usr``, ``/lib*``, ``/bin``,
``/etc/ld.so.cache``, and the compiler's own file and ``lib`` folders), then runs the
compiler in its place (same process). Where the kernel has no Landlock, the compiler runs as
it is and the scan is the only wall.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import sys
from typing import List, Optional, Sequence

__all__ = ["confined", "landlock_available"]

_CREATE, _ADD_RULE, _RESTRICT = 444, 445, 446  # the same number on every architecture
_VERSION_FLAG = 1  # LANDLOCK_CREATE_RULESET_VERSION

_SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin", "/etc/ld.so.cache")

#: What the stub runs (``python -I -S -c _STUB FOLDER... -- ARGV...``): standard library only.
_STUB = r"""
import ctypes, os, struct, sys
args = sys.argv[1:]
cut = args.index("--")
allowed, argv = args[:cut], args[cut + 1:]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
EXECUTE, READ_FILE, READ_DIR = 1, 4, 8
handled = EXECUTE | READ_FILE | READ_DIR
attr = ctypes.create_string_buffer(struct.pack("=Q", handled))
ruleset = libc.syscall(444, attr, ctypes.c_size_t(8), ctypes.c_uint32(0))
if ruleset < 0:
    sys.exit("sarek-layout: cannot confine the compiler (Landlock: errno %d)" % ctypes.get_errno())
for path in allowed:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        continue
    rights = handled if os.path.isdir(path) else EXECUTE | READ_FILE
    rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd))
    if libc.syscall(445, ctypes.c_int(ruleset), ctypes.c_int(1), rule, ctypes.c_uint32(0)):
        sys.exit("sarek-layout: cannot confine the compiler (Landlock rule: errno %d)"
                 % ctypes.get_errno())
    os.close(fd)
if libc.prctl(38, 1, 0, 0, 0) or libc.syscall(446, ctypes.c_int(ruleset), ctypes.c_uint32(0)):
    sys.exit("sarek-layout: cannot confine the compiler (errno %d)" % ctypes.get_errno())
os.execv(argv[0], argv)  # an absolute path: nothing is looked up (or imported) any more
"""

_AVAILABLE: Optional[bool] = None


def landlock_available() -> bool:
    """Whether this kernel has Landlock (asked once)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            _AVAILABLE = sys.platform.startswith("linux") and libc.syscall(
                _CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION_FLAG)) >= 1
        except (OSError, AttributeError):
            _AVAILABLE = False
    return bool(_AVAILABLE)


def confined(argv: Sequence[str], folder: str, also: Sequence[str] = ()) -> List[str]:
    """``argv``, started so that it can read nothing outside ``folder`` but what a program
    needs to start (module docstring), and the files or folders ``also`` (a library the
    program loads, as Slang's child process does); ``argv`` itself where the kernel cannot
    do that."""
    program = shutil.which(argv[0])
    if not landlock_available() or program is None:
        return list(argv)
    allowed = [os.path.realpath(folder), *_SYSTEM]
    if program:  # a compiler installed elsewhere (/opt/…/bin/x): itself, its libraries
        real = os.path.realpath(program)
        prefix = os.path.dirname(os.path.dirname(real))
        allowed += [real, os.path.join(prefix, "lib"), os.path.join(prefix, "lib64")]
    allowed += [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if d]
    allowed += [os.path.realpath(p) for p in also]
    return [sys.executable, "-I", "-S", "-c", _STUB, *allowed, "--", os.path.abspath(program),
            *argv[1:]]
