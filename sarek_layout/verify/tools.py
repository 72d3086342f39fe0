"""Running compilers (and helper processes) on headers that someone else wrote, with bounds.

``verify`` runs on headers from pull requests, so every program it starts goes through
``run_tool``, which:

* puts the program in its own process group, so that a timeout kills the compiler's own
  children too (``gcc`` → ``cc1``, ``nvcc`` → ``cicc``…);
* bounds its run time (``$SAREK_VERIFY_TIMEOUT`` seconds): a header that includes a FIFO
  would otherwise wait forever;
* caps its address space (``$SAREK_VERIFY_MEMORY_MB``, with ``ulimit -v`` through
  ``/bin/sh``, because ``preexec_fn`` is unsafe once PoCL or NVRTC threads exist): gcc reads a
  header that includes ``/dev/zero`` until memory runs out;
* closes its stdin, and sends its output to unnamed files in its working folder, read back
  only up to a bound, so a header that makes a compiler print a lot costs disk, not memory
  (and diagnostics past 256 MiB stop it);
* points ``TMPDIR`` at its working folder (always a ``headers.CompileFolder``), so that the
  program's own temporary files are removed with it, even when it was killed;
* kills its process group when sarek-layout is stopped by a signal (SIGTERM, SIGHUP, SIGINT
  become ``interrupts.Stopped``, which unwinds through here), and holds such a signal back
  while the program starts, until its pid is known;
* after a failure, checks that its folder's file system still has room (``check_room``): a
  compiler that failed on a full ``$TMPDIR`` is an error (exit 2), not a difference.

``$SAREK_VERIFY_TIMEOUT`` and ``$SAREK_VERIFY_MEMORY_MB`` are checked against documented
ranges (docs/verify.md); NaN, infinities and values the shell's ``ulimit`` would wrap are
refused in one line.

``run_child`` runs one of ``drivers.child``'s tasks (NVRTC, PoCL, cffi) in a fresh Python
process under the same bounds: those compile in-process otherwise, where a hang cannot be
timed out and a crash (PoCL aborts on some programs) would take sarek-layout down with it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Dict, Iterator, Optional, Sequence

from ..interrupts import deferred

__all__ = ["ToolRun", "run_tool", "run_child", "timeout_seconds", "memory_limit_mb",
           "check_room", "TIMEOUT_ENV", "MEMORY_ENV", "Halt", "halting", "child_boot"]

TIMEOUT_ENV = "SAREK_VERIFY_TIMEOUT"
MEMORY_ENV = "SAREK_VERIFY_MEMORY_MB"

#: Ten minutes: the slowest legitimate compile measured (g++ on the 95 MB conformance header,
#: 573,772 probes) takes about 35 s on a 2-core machine.
DEFAULT_TIMEOUT = 600.0
#: 16 GiB of address space: that same g++ run peaks at 4.3 GB.
DEFAULT_MEMORY_MB = 16384

#: How much of a program's stderr is kept for the report (diagnostics are cut to 15 lines).
STDERR_KEEP = 1 << 20
#: A program whose diagnostics grow past this is stopped: a compiler reporting an error
#: for each of 573,772 probes writes about 100 MiB, and a header can make it write forever.
MAX_STDERR = 256 << 20


#: The accepted ranges, documented in docs/verify.md. A day bounds the slowest compile
#: by far (35 s measured) and keeps the deadline arithmetic in ordinary floats.
MAX_TIMEOUT = 86400.0
#: 1 MiB is below what any compiler starts with (it then dies, and the message names the
#: variable); 2**30 MiB (1 PiB) is above any machine yet far below where `ulimit -v`,
#: which takes KiB and multiplies by 1024, overflows its 64-bit count (1e30 used to wrap
#: round to a tiny limit: gcc crashed and verify reported a false disagreement).
MIN_MEMORY_MB = 1
MAX_MEMORY_MB = 1 << 30


def _number(env: str, default: float, wanted: str, accept) -> float:
    """``$env`` as a number that ``accept`` takes (``default`` when unset or empty); anything
    else (not a number, NaN, infinite, out of range) is a ``UsageError`` of one line saying
    what is ``wanted``."""
    import math

    from ..errors import UsageError, quoted

    text = os.environ.get(env, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    # NaN compares false with everything: without isfinite, nan passed `value <= 0` and
    # disabled the time bound.
    if not math.isfinite(value) or not accept(value):
        raise UsageError(f"${env} must be {wanted}, not {quoted(text, 60)}")
    return value


#: A program that fails while its folder's file system has less room than this is taken to
#: have run out of it (its own message may not even fit: its stderr lives there too).
MIN_FREE_BYTES = 1 << 20


def check_room(folder: str) -> None:
    """Raise ``OSError(ENOSPC)`` when ``folder``'s file system has less than
    ``MIN_FREE_BYTES`` (or no inode) left: called after a program failed there, so that a
    full ``$TMPDIR`` is an error of one line (exit 2), not a compile failure read as a
    difference or as a missing toolchain."""
    import errno

    try:
        st = os.statvfs(folder)
    except OSError:
        return
    if st.f_bavail * st.f_frsize < MIN_FREE_BYTES or (st.f_files and not st.f_favail):
        free = st.f_bavail * st.f_frsize
        raise OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)} ({free >> 10} KiB free, a "
                                    f"compiler failed there)", folder)


def timeout_seconds() -> float:
    """Seconds one compiler run may take (``$SAREK_VERIFY_TIMEOUT``, default 600, more
    than 0 and at most a day)."""
    return _number(TIMEOUT_ENV, DEFAULT_TIMEOUT,
                   f"a number of seconds more than 0 and at most {MAX_TIMEOUT:g}",
                   lambda v: 0 < v <= MAX_TIMEOUT)


def memory_limit_mb() -> int:
    """Address space one compiler run may use, in MiB (``$SAREK_VERIFY_MEMORY_MB``, default
    16384, a whole number from 1 to 2**30)."""
    return int(_number(MEMORY_ENV, DEFAULT_MEMORY_MB,
                       f"a whole number of MiB from {MIN_MEMORY_MB} to {MAX_MEMORY_MB}",
                       lambda v: MIN_MEMORY_MB <= v <= MAX_MEMORY_MB and v == int(v)))


@dataclass(frozen=True)
class ToolRun:
    """What one program did. ``problem`` is set when it was stopped or died by a signal;
    ``timed_out`` when it was stopped by ``$SAREK_VERIFY_TIMEOUT``."""

    returncode: int
    stdout: str
    stderr: str
    problem: Optional[str] = None
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.problem is None and self.returncode == 0


class Halted(Exception):
    """A program was not started: its batch was stopped (``Halt.stop``)."""


class Halt:
    """The programs a batch of worker threads started (``verify.schedule``), so that the
    thread that runs the batch can kill them all at once: a signal only ever reaches the main
    thread, and each program is in its own session, out of reach of the terminal's signals.
    Starting a program and noting it happen under one lock, so none starts unnoted."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: Dict[int, subprocess.Popen] = {}
        self.stopped = False

    def check(self) -> None:
        if self.stopped:
            raise Halted("stopped")

    def start(self, start) -> subprocess.Popen:
        with self._lock:
            self.check()
            proc = start()
            self._running[proc.pid] = proc
            return proc

    def done(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self._running.pop(proc.pid, None)

    def stop(self) -> None:
        """Kill every program still running and refuse new ones (the workers reap them)."""
        with self._lock:
            self.stopped = True
            for proc in self._running.values():
                if proc.returncode is not None:
                    continue  # reaped already: its pid may be someone else's by now
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass


_thread = threading.local()


@contextlib.contextmanager
def halting(halt: Halt) -> Iterator[None]:
    """The programs this thread starts inside the block are ``halt``'s."""
    _thread.halt = halt
    try:
        yield
    finally:
        _thread.halt = None


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


class _ExitWaiter:
    """Waits for a program to end, at most a tenth of a second at a time (``run_tool``
    checks its bounds in between). With a pidfd (Linux 5.3) the wait ends the moment the
    program does; ``Popen.wait(timeout)`` sleeps in steps of up to 50 ms, so a 25 ms compile
    took 50 ms of wall, and verify of the example runs about 80 programs. Without a pidfd,
    waits of 2, 4, … up to 100 ms."""

    PERIOD_S = 0.1

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.delay = 0.002
        self.poller = None
        try:
            fd = os.pidfd_open(proc.pid)  # not reaped yet (only run_tool waits): still its pid
        except (AttributeError, OSError):
            return
        import select

        self.fd = fd
        self.poller = select.poll()
        self.poller.register(fd, select.POLLIN)

    def wait(self) -> bool:
        """Whether the program has ended (and was reaped)."""
        if self.poller is None:
            try:
                self.proc.wait(timeout=self.delay)
                return True
            except subprocess.TimeoutExpired:
                self.delay = min(self.delay * 2, self.PERIOD_S)
                return False
        if self.poller.poll(int(self.PERIOD_S * 1000)):
            self.proc.wait()  # readable: it has ended, so this does not block
            return True
        return self.proc.poll() is not None

    def close(self) -> None:
        if self.poller is not None:
            self.poller = None
            os.close(self.fd)


def _read(f, limit: Optional[int]) -> str:
    f.seek(0)
    data = f.read() if limit is None else f.read(limit)
    return data.decode("utf-8", errors="replace")


def _past_a_bound(timed_out: bool, timeout: float, out, err,
                  max_stdout: Optional[int]) -> Optional[str]:
    """Why a program still running must be stopped now (its time, its output or its
    diagnostics past their bound), or ``None``."""
    if timed_out:
        return (f"stopped after {timeout:g} s (${TIMEOUT_ENV}); does the header include a "
                f"FIFO, a device or something endless?")
    if max_stdout is not None and os.fstat(out.fileno()).st_size > max_stdout:
        return f"stopped: its output grew past {max_stdout >> 20} MiB"
    if os.fstat(err.fileno()).st_size > MAX_STDERR:
        return f"stopped: its diagnostics grew past {MAX_STDERR >> 20} MiB"
    return None


def run_tool(
    argv: Sequence[str],
    *,
    cwd: str,
    stdin_data: Optional[bytes] = None,
    env: Optional[Dict[str, str]] = None,
    max_stdout: Optional[int] = None,
    memory_mb: Optional[int] = None,
    label: Optional[str] = None,
) -> ToolRun:
    """Run ``argv`` in ``cwd`` under the time and memory bounds (see the module docstring).

    ``max_stdout`` (bytes) stops a program whose output grows past it; ``label`` names the
    program in messages (default: its file name). Never raises for the program's own
    failure: look at ``returncode`` and ``problem``.
    """
    timeout = timeout_seconds()
    memory = memory_mb if memory_mb is not None else memory_limit_mb()
    # Temporary files of the program (gcc's, nvcc's, PoCL's) go into ``cwd``, the compile
    # folder, and go with it: one killed by the timeout leaves none behind.
    env = dict(os.environ if env is None else env, TMPDIR=cwd)
    # `ulimit -v` takes KiB in every POSIX shell; exec keeps the pid, so the group is the
    # tool's. A lower hard limit already in place makes ulimit fail: that limit then stands.
    wrapped = ["/bin/sh", "-c", 'ulimit -v "$0" 2>/dev/null; exec "$@"', str(memory * 1024),
               *argv]
    with tempfile.TemporaryFile(dir=cwd) as out, tempfile.TemporaryFile(dir=cwd) as err, \
            tempfile.TemporaryFile(dir=cwd) as stdin:
        if stdin_data is not None:
            stdin.write(stdin_data)
            stdin.seek(0)
        proc: Optional[subprocess.Popen] = None
        waiter: Optional[_ExitWaiter] = None
        problem = None
        timed_out = False
        # On a worker thread (verify.schedule), the batch's Halt notes the program.
        halt: Optional[Halt] = getattr(_thread, "halt", None)
        try:
            # A SIGTERM between the fork and `proc` being set would leave a program nobody
            # knows of: the signal waits until the pid is known (sarek_layout.interrupts).
            with deferred():
                launch = functools.partial(subprocess.Popen, wrapped, cwd=cwd, stdin=stdin,
                                          stdout=out, stderr=err, env=env,
                                          start_new_session=True)
                proc = launch() if halt is None else halt.start(launch)
            start = time.monotonic()
            waiter = _ExitWaiter(proc)
            while not waiter.wait():
                timed_out = time.monotonic() - start > timeout
                problem = _past_a_bound(timed_out, timeout, out, err, max_stdout)
                if problem is not None:
                    _kill_group(proc)
                    break
        except BaseException:  # a signal (interrupts.Stopped) included: no orphan compiler
            if proc is not None:
                _kill_group(proc)
            raise
        finally:
            if waiter is not None:
                waiter.close()
            if proc is not None and halt is not None:
                halt.done(proc)
        assert proc is not None
        rc = proc.returncode
        if rc != 0 or problem is not None:
            check_room(cwd)
        diagnostics = _read(err, STDERR_KEEP)
        if problem is None and rc < 0:
            problem = _death(label or os.path.basename(argv[0]), -rc, diagnostics, memory)
        return ToolRun(rc, _read(out, None), diagnostics, problem, timed_out)


def _death(who: str, signum: int, diagnostics: str, memory: int) -> str:
    """Why a program killed by signal ``signum`` stopped. A stack overflow it reported
    (rustc on a record of thousands of fields) is a crash of that compiler, never a want of
    memory; a SIGABRT or SIGKILL may well be the address-space limit."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = str(signum)
    if "overflowed its stack" in diagnostics:
        return f"{who} crashed ({name}): it overflowed its stack, a defect of that compiler"
    limit = f"if it ran out of memory: its address space is limited to {memory} MiB, ${MEMORY_ENV}"
    if signum in (signal.SIGABRT, signal.SIGKILL):
        return f"{who} died of {name} ({limit})"
    return f"{who} crashed ({name}; {limit})"


def child_boot(module_path: str) -> str:
    """The ``python -c`` line that runs ``main()`` of the module file ``module_path`` (one
    that imports only the standard library at its top, as ``drivers.child`` does).

    The file is loaded by its path, not imported as ``sarek_layout.…``: importing the package
    (``verify``'s registry, probes, drivers) cost each helper process about 60 ms of CPU, and
    verify starts three. ``sys.path[0]`` would be the working folder, which holds the header
    copies: it is removed, so nothing there can be imported in place of a library.
    """
    return ("import sys; del sys.path[0]; import importlib.util as u; "
            f"s = u.spec_from_file_location('sarek_layout_child', {module_path!r}); "
            "m = u.module_from_spec(s); s.loader.exec_module(m); m.main()")


_CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "drivers", "child.py")


def run_child(task: str, request: dict, *, cwd: str, env: Optional[Dict[str, str]] = None
              ) -> "ChildAnswer":
    """Run ``drivers.child``'s ``task`` on ``request`` in a new Python process.

    The child answers one JSON object on its original stdout; everything it or its
    libraries print goes to stderr, which becomes the diagnostics of a failure
    (``drivers.child_failure``).
    """
    payload = json.dumps({"task": task, **request}).encode()
    # sys.path[0] would be the working folder, which holds the header copies: replace it.
    argv = [sys.executable, "-c", child_boot(_CHILD)]
    run = run_tool(argv, cwd=cwd, stdin_data=payload, env=env,
                   label=f"the {task} helper process")
    answer: dict = {}
    if run.problem is None and run.returncode == 0:
        try:
            answer = json.loads(run.stdout)
        except ValueError:
            answer = {}
    return ChildAnswer(run, answer)


@dataclass(frozen=True)
class ChildAnswer:
    """A child's run and its JSON answer (``{}`` when it gave none)."""

    run: ToolRun
    answer: dict

    @property
    def ok(self) -> bool:
        return bool(self.answer.get("ok"))
