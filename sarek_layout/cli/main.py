"""The ``sarek-layout`` entry point: parse arguments, run one sub-command, map errors to exits.

Each sub-command lives in its own module exposing ``add_parser(subparsers)`` and
``run(args) -> int``. Those modules import only ``argparse`` at the top, so building the
parser (``cli/parser.py``) stays cheap; the work (and jinja2, cffi…) is imported inside
``run``. ``--version`` and ``--cmakedir``, which build tools run on every build, are
answered before even argparse is imported.

Exit status (SPEC §5): 0 all good, 1 a difference was found, 2 bad input or usage.
Diagnostics go to stderr, one line per refusal (a run may report several, up to
``MAX_ERRORS_SHOWN``); a user never sees a traceback for bad input.

The exit status is the command's result whatever happens to its output: when the reader of
stdout (or stderr) goes away (``verify … | head``, ``… | true``), later writes to that stream
are dropped, the command runs to its end, and its status is returned (so ``pipefail`` sees a
disagreement as 1, not 0). A stream closed before the start (``>&-``) is treated the same, and
its descriptor is pointed at the null device so that no file opened later takes its number.

SIGTERM, SIGHUP and SIGINT stop a command with its cleanup (no compiler left running, no
temporary folder left behind) and exit 128 + the signal (``sarek_layout/interrupts.py``).
"""

from __future__ import annotations

import gc
import os
import sys

from .._version import __version__
from .program import PROG, cmake_dir

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import List, Optional

#: Most refusals printed for one run (as compilers cap theirs); the rest are counted.
MAX_ERRORS_SHOWN = 50



class _ReaderGoneSafe:
    """A text stream (stdout or stderr) whose writes are dropped once its reader has gone.

    A write to a pipe nobody reads any more raises ``BrokenPipeError``; letting it end the
    command would replace the command's result with an exit status that says nothing about
    it. Instead the stream is marked gone, its descriptor pointed at the null device (so
    that the interpreter's own flush at exit succeeds, without the "Exception ignored …
    BrokenPipeError" message and status 120), and later writes are dropped.
    """

    def __init__(self, stream) -> None:
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def _reader_gone(self) -> None:
        self.gone = True
        try:
            fd = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            return  # not a real file (tests capture output): dropping writes is enough
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class _Closed:
    """Stands for a stream whose descriptor was closed before the command started (``>&-``):
    Python leaves ``sys.stdout`` as None then, and every write is dropped."""

    gone = True

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _fill_closed_standard_descriptors() -> None:
    """Point a closed stdin, stdout or stderr at the null device.

    A process started with one of them closed hands that number to the next file it opens,
    so a temporary header being written could become "stdout" to a compiler it starts, or
    to anything printing through the descriptor. Descriptors 0-2 are filled in order, so
    ``os.open`` (lowest free number) lands on the closed one.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def main(argv: Optional[List[str]] = None) -> int:
    status = _run(argv)
    if argv is None and sys._getframe(1).f_globals.get("__name__") == "__main__":
        _exit_without_freeing(status)
    return status


def _exit_without_freeing(status: int) -> None:
    """End the process now, when it is the process entry (the console script or ``python
    -m sarek_layout`` calling ``main()``, never a test or plugin calling it in-process) and
    nothing is left to tear down.

    A ``generate`` of 10,000 types holds about a million small objects; freeing them one by
    one at interpreter exit took 0.09 s, a tenth of the run, and frees nothing the system
    does not take back at once. Every file written has been flushed, synced and closed by
    then, every temporary file or folder removed (``with`` blocks), and the streams are
    flushed here; if anything registered exit work (an ``atexit`` handler, a thread still
    running), the ordinary exit runs it.
    """
    import atexit
    import threading

    count = getattr(atexit, "_ncallbacks", None)
    if count is None or count() or threading.active_count() > 1:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            return  # let the ordinary exit report it
    os._exit(status)


def _run(argv: Optional[List[str]]) -> int:
    _fill_closed_standard_descriptors()
    streams = (sys.stdout, sys.stderr)
    sys.stdout, sys.stderr = (_ReaderGoneSafe(s) if s is not None else _Closed() for s in streams)
    try:
        given = sys.argv[1:] if argv is None else list(argv)
        if given == ["--version"]:
            # Build tools probe this on every run: answer without importing the sub-commands.
            print(f"{PROG} {__version__}")
            return 0
        if given == ["--cmakedir"]:
            print(cmake_dir())  # run by CMake at configure time: no sub-command imports either
            return 0
        from ..interrupts import handling_signals

        with handling_signals():
            return _main(argv)
    finally:
        for safe in (sys.stdout, sys.stderr):
            safe.flush()  # now, where a gone reader is handled, not at interpreter exit
        sys.stdout, sys.stderr = streams


def _main(argv: Optional[List[str]]) -> int:
    from .parser import build_parser

    parser = build_parser(argv)
    args, extras = parser.parse_known_args(argv)
    if extras:
        args._subparser.error(f"unrecognized arguments: {' '.join(extras)}")
    from ..errors import SarekLayoutError, SchemaError

    # A command builds hundreds of thousands of small immutable objects (declarations,
    # layouts, views) that form no reference cycles; the cyclic collector would rescan them
    # again and again and take half the run (docs/benchmarks.md). Paused for the command,
    # restored after it (main() also runs in-process, in tests and plugins).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return int(args.run(args) or 0)
    except SchemaError as e:
        # One line per refusal: a reader or the resolver may report several at once.
        shown = e.errors[:MAX_ERRORS_SHOWN]
        for one in shown:
            print(str(one) if one.location is not None else f"{PROG}: error: {one.message}",
                  file=sys.stderr)
        if len(e.errors) > len(shown):
            print(f"{PROG}: error: {len(e.errors) - len(shown)} more errors not shown",
                  file=sys.stderr)
        return e.exit_status
    except SarekLayoutError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return e.exit_status
    except OSError as e:
        import errno

        if e.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):  # no room to write
            raise
        # A full disk (often a small $TMPDIR: verify's compile folders, diff's revision
        # copies) is the environment's problem, not the input's: one line, exit 2.
        where = f": {e.filename}" if e.filename else ""
        print(f"{PROG}: error: {e.strerror}{where}; free some room there, or set TMPDIR to "
              f"a folder with room", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        # SIGTERM and SIGHUP too (interrupts.Stopped), once every child and temporary
        # folder is gone: 128 + the signal, as a shell reports a command it ended.
        return getattr(e, "exit_status", 130)
    finally:
        if gc_was_enabled:
            gc.enable()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
