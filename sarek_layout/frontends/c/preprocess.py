"""Running the C preprocessor on a header that may not be the user's own, and reading back
only the files it really included.

The C front end preprocesses a header with ``cpp -nostdinc`` against the bundled fake libc
(``fake_libc/``), then maps positions back to the source lines. Three things keep this safe
on a hostile header:

* **cpp never opens a device or a FIFO.** Before cpp runs, the ``#include`` directives (and
  ``__has_include``) of the header and of every header it includes are resolved as cpp
  resolves them (the includer's folder, ``-I`` folders, the fake libc; absolute names as
  they are), and one that names a FIFO, socket or device (``#include "/dev/zero"``) is
  refused at its position: cpp would block on a FIFO forever and read ``/dev/zero`` until
  memory runs out. An ``#include`` that
  only a macro names escapes this check, so cpp also runs under a memory, CPU-time and
  wall-clock limit (``CPP_LIMITS``): the worst case is a bounded refusal.
* **Only files cpp included are read back.** Line markers (``# 1 "/dev/zero"``) can be
  written in a header and name any file, so a marker never decides what is read: the set of
  files cpp opened comes from cpp's own ``-H`` report, and ``read_source_lines`` reads a file
  only if it is the header itself or in that set, and only if it is a regular file (checked
  on the open descriptor, opened without blocking).
* **File names of every kind survive.** cpp escapes ``\\``, ``"`` and newlines in line
  markers; pycparser keeps them escaped; ``unescape_file_name`` turns them back. Output is
  decoded with ``surrogateescape``, as Python decodes file names, so non-UTF-8 names match.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import stat
import subprocess
from dataclasses import dataclass
from typing import FrozenSet, Iterable, List, Optional, Set

from ...errors import SchemaError
from ...ir.schema import SourceLocation
from ...targets.registry import READ_TARGETS, TARGETS
from .extensions import unescape_file_name
from ..source_files import max_input_bytes, open_regular, too_large

__all__ = [
    "FAKE_LIBC",
    "CPP_DEFINES",
    "CPP_LIMITS",
    "TARGET_DEFINES",
    "Preprocessed",
    "preprocess",
    "read_source_lines",
]

#: The bundled fake libc include folder.
FAKE_LIBC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_libc")

#: Macros that remove what pycparser cannot parse and that has no bearing on a layout.
#: Attributes, ``__declspec`` and alignment specifiers are *not* here: they change layouts,
#: so ``extensions`` finds and judges them in the preprocessed text.
CPP_DEFINES = (
    "__extension__=",
    "__inline__=inline",
    "__inline=inline",
    "__forceinline__=inline",
    "__restrict__=restrict",
    "__restrict=restrict",
    "__asm__(x)=",
    "__asm(x)=",
    "__signed__=signed",
    "__const=const",
    "__volatile__=volatile",
    "__host__=",
    "__device__=",
    "_Noreturn=",
    "__builtin_offsetof=offsetof",
    "static_assert=_Static_assert",
)

#: What a header target's own compilers define, so that its header preprocesses as they see
#: it (``verify --header`` of a ``.cuh`` or ``.clh``): the language macros, and spellings
#: pycparser does not read mapped to C11 ones. Layout attributes stay, for
#: ``extensions`` to find.
TARGET_DEFINES = {name: TARGETS[name].read_defines for name in READ_TARGETS}

#: Declarations OpenCL C has built in (``uchar``, ``float4``…), included before an OpenCL
#: header; and the vector types nvcc and NVRTC declare for every CUDA translation unit
#: (``float4``…), before a CUDA header.
OPENCL_PRELUDE = os.path.join(FAKE_LIBC, "sarek_opencl_prelude.h")
CUDA_PRELUDE = os.path.join(FAKE_LIBC, "sarek_cuda_prelude.h")

#: Limits of one preprocessor run: address space (bytes), CPU seconds, wall-clock seconds.
#: A real header needs a few megabytes and milliseconds.
CPP_LIMITS = (1 << 30, 30, 60)

#: Most files the ``#include`` check reads (a real header includes a few dozen).
_MAX_INCLUDE_FILES = 10_000
#: Largest file read back for positions (bigger ones get the preprocessor's columns).


@dataclass(frozen=True)
class Preprocessed:
    """cpp's output, and every file cpp opened (as its line markers name them, unescaped)."""

    text: str
    included: FrozenSet[str]


def _find_cpp() -> List[str]:
    for name, args in (("cpp", []), ("gcc", ["-E", "-x", "c"]), ("clang", ["-E", "-x", "c"])):
        exe = shutil.which(name)
        if exe:
            return [exe, *args]
    raise SchemaError(
        "reading C headers needs a C preprocessor: install cpp (apt-get install cpp, or gcc)"
    )


# --- files ---------------------------------------------------------------------------------


def _read_regular(path: str, limit: Optional[int] = None) -> Optional[bytes]:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes (the input
    size limit, ``source_files.max_input_bytes``), else None."""
    if limit is None:
        limit = max_input_bytes()
    try:
        fd = open_regular(path)
    except (OSError, ValueError):
        return None
    try:
        if os.fstat(fd).st_size > limit:
            return None
        # In chunks: read(limit) would allocate the whole limit up front, and a file that
        # grows while it is read must still stop at the limit.
        data = bytearray()
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return bytes(data)
            data += chunk
            if len(data) > limit:
                return None
    except OSError:
        return None
    finally:
        os.close(fd)


def read_source_lines(file: str, allowed: Iterable[str]) -> List[str]:
    """The lines of ``file``, which must be one of ``allowed`` (the header and the files cpp
    included) and a regular file; ``[]`` for anything else."""
    if file not in allowed:
        return []
    data = _read_regular(file)
    if data is None:
        return []
    return data.decode("utf-8", "replace").splitlines()


# --- the #include check --------------------------------------------------------------------

# ``#include "x"``, ``#include <x>`` (and ``include_next``, ``import``), and
# ``__has_include("x")``, which opens the file too.
_INCLUDE = re.compile(
    r"(?:^[ \t]*+(?:#|%:)[ \t]*+(?:include_next|include|import)[ \t]*+"
    r"|__has_include(?:_next)?[ \t]*+\([ \t]*+)"
    r'(?:"([^"\n]*+)"|<([^>\n]*+)>)',
    re.M,
)


def _special_kind(mode: int) -> Optional[str]:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def _refuse_special_includes(path: str, include_dirs: List[str]) -> None:
    """Refuse an ``#include`` that cpp would resolve to a FIFO, socket or device, in the
    header or in any header it includes (whatever the conditionals around it)."""
    todo = [path]
    seen: Set[str] = set()
    limit = max_input_bytes()
    while todo and len(seen) < _MAX_INCLUDE_FILES:
        current = todo.pop()
        key = os.path.realpath(current)
        if key in seen:
            continue
        seen.add(key)
        data = _read_regular(current)
        if data is None:
            continue  # cpp says what is wrong with it
        text = data.decode("utf-8", "surrogateescape")
        for m in _INCLUDE.finditer(text):
            quoted_form = m.group(1) is not None
            name = m.group(1) if quoted_form else m.group(2)
            if os.path.isabs(name):
                candidates = [name]
            else:
                folders = ([os.path.dirname(current)] if quoted_form else []) + include_dirs
                candidates = [os.path.join(d, name) for d in folders + [FAKE_LIBC]]
            for candidate in candidates:
                try:
                    found = os.stat(candidate)
                except (OSError, ValueError):
                    continue
                mode = found.st_mode
                if stat.S_ISDIR(mode):
                    continue
                kind = _special_kind(mode)
                if kind is not None or found.st_size > limit:
                    start = m.start(1) if quoted_form else m.start(2)
                    line = text.count("\n", 0, start) + 1
                    col = start - (text.rfind("\n", 0, start) + 1)
                    directive = "__has_include" if m.group().startswith("__has") else "#include"
                    why = (f"which is {kind}, not a header: the preprocessor would wait or read "
                           f"forever" if kind is not None else
                           f"which {too_large(found.st_size, limit)}")
                    raise SchemaError(f"{directive} names {candidate!r}, {why}",
                                      SourceLocation(current, line, col))
                todo.append(candidate)
                break


# --- running cpp -----------------------------------------------------------------------------

_CPP_DIAGNOSTIC = re.compile(
    r"^(?P<file>[^\n]*?):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<msg>.*)$", re.M
)
_INCLUDED = re.compile(r"^\.+ (.+)$", re.M)


def cpp_quote(name: str) -> str:
    """``name`` as cpp writes it between the quotes of a line marker."""
    return name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _limit(memory: int, cpu: int):
    def lower(kind: int, value: int) -> None:
        # Never above a hard limit already in place (`ulimit -t 20`, a CI job's cap): raising
        # it fails, and the failure in preexec_fn was a SubprocessError traceback.
        _, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, value))

    def apply() -> None:
        lower(resource.RLIMIT_AS, memory)
        lower(resource.RLIMIT_CPU, cpu)

    return apply


def preprocess(
    path: str, include_dirs: Iterable[str] = (), defines: Iterable[str] = (),
    target: Optional[str] = None, max_output: Optional[int] = None,
    wall_seconds: Optional[float] = None,
) -> Preprocessed:
    """``path`` through ``cpp -nostdinc`` with the fake libc; ``SchemaError`` on failure.

    ``target`` (``c``, ``cuda``, ``opencl``) preprocesses the header as that target's
    compilers see it, in C11 with no host-specific macros (``verify --header``); without
    it, the header is read as a GNU C host header (``import-c``). ``max_output`` refuses a
    header whose preprocessed text is larger (bytes); ``wall_seconds`` shortens the
    wall-clock limit of ``CPP_LIMITS``.
    """
    include_dirs = list(include_dirs)
    _refuse_special_includes(path, include_dirs)
    # -H: cpp reports each file it opens (the only files read back later); -w: no warnings,
    # so that an ``#warning`` cannot forge a line of that report.
    cmd = _find_cpp() + ["-nostdinc", "-H", "-w", "-I", FAKE_LIBC]
    if target is not None:
        cmd += ["-std=c11", "-undef"]
    for d in include_dirs:
        cmd += ["-I", d]
    for d in CPP_DEFINES + (TARGET_DEFINES[target] if target is not None else ()):
        cmd.append(f"-D{d}")
    for d in defines:
        cmd.append(f"-D{d}")
    if target == "opencl":
        cmd += ["-include", OPENCL_PRELUDE]
    elif target == "cuda":
        cmd += ["-include", CUDA_PRELUDE]
    # A file named like an option (``-o.h``) must reach cpp as a file, never as an option.
    given = os.path.join(os.curdir, path) if path.startswith("-") else path
    cmd.append(given)
    memory, cpu, wall = CPP_LIMITS
    if wall_seconds is not None:
        wall = min(wall, wall_seconds)
    limit = MAX_OUTPUT if max_output is None else max_output
    returncode, out, err, too_long = _run_cpp(cmd, path, wall, limit, _limit(memory, cpu))
    if too_long:
        raise SchemaError(f"the header is too large to read: more than {limit >> 20} MiB "
                          f"after preprocessing", SourceLocation(path))
    stdout = out.decode("utf-8", "surrogateescape")
    stderr = err.decode("utf-8", "surrogateescape")
    if given != path:
        stdout = stdout.replace(f'"{cpp_quote(given)}"', f'"{cpp_quote(path)}"')
        stderr = stderr.replace(given, path)
    if returncode != 0:
        raise _failure(path, returncode, stderr, cpu)
    included = frozenset(m.group(1) for m in _INCLUDED.finditer(stderr))
    return Preprocessed(stdout, included)


#: Most preprocessed text read by default (a macro can make a small header expand without end).
MAX_OUTPUT = 256 << 20


def _run_cpp(cmd: List[str], path: str, wall: float, limit: int, preexec):
    """Run cpp with its output read as it comes, stopped past ``limit`` bytes or ``wall``
    seconds: ``(returncode, stdout, stderr, too_long)``."""
    import tempfile
    import threading

    with tempfile.TemporaryFile() as err:
        try:
            # Its own process group: cpp runs cc1, which holds the output pipe, so stopping
            # the driver alone would leave a blocked cc1 (and this read) behind.
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, preexec_fn=preexec,
                                    start_new_session=True)
        except OSError as e:
            raise SchemaError(f"cannot run the C preprocessor: {e}", SourceLocation(path)) from None

        def kill() -> None:
            try:
                os.killpg(proc.pid, 9)
            except OSError:
                pass

        timer = threading.Timer(wall, kill)
        timer.start()
        chunks: List[bytes] = []
        size = 0
        too_long = False
        try:
            assert proc.stdout is not None
            while True:
                chunk = proc.stdout.read(1 << 20)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    too_long = True
                    kill()
                    break
                chunks.append(chunk)
            proc.stdout.close()
            proc.wait()
        finally:
            timed_out = not timer.is_alive() and not too_long and proc.returncode is not None \
                and proc.returncode < 0
            timer.cancel()
            if proc.returncode is None:  # stopped by a signal (interrupts.Stopped): no orphan
                kill()
                proc.wait()
        if timed_out and proc.returncode == -9:
            raise SchemaError(
                f"the C preprocessor did not finish in {wall:g} s (does the header include a FIFO "
                f"or a device through a macro?)",
                SourceLocation(path),
            )
        err.seek(0)
        return proc.returncode, b"".join(chunks), err.read(1 << 20), too_long


def _failure(path: str, returncode: int, stderr: str, cpu: int) -> SchemaError:
    """The error to report for a failed preprocessor run."""
    # The header's own name first: it may hold ':' or a newline, which the general pattern
    # cannot tell from the separators.
    own = re.compile(
        rf"^{re.escape(path)}:(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<msg>.*)$",
        re.M,
    ).search(stderr)
    m = own or _CPP_DIAGNOSTIC.search(stderr)
    if m is None:
        if returncode < 0 or "out of memory" in stderr:
            return SchemaError(
                f"the C preprocessor ran out of its limits ({CPP_LIMITS[0] >> 20} MiB, {cpu} s "
                f"of CPU): does the header include a device or a file that never ends?",
                SourceLocation(path),
            )
        first = stderr.strip().splitlines()[:1]
        return SchemaError(
            "the C preprocessor failed: " + (first[0] if first else f"exit status {returncode}"),
            SourceLocation(path),
        )
    hint = ""
    if "No such file" in m.group("msg"):
        hint = (
            " (headers are preprocessed with a small bundled libc; pass -I for your own "
            "include folders)"
        )
    file = path if own is not None else m.group("file")
    return SchemaError(
        f"C preprocessor: {m.group('msg')}{hint}",
        SourceLocation(file, int(m.group("line")), int(m.group("col") or 1)),
    )


__all__ += ["cpp_quote", "unescape_file_name"]
