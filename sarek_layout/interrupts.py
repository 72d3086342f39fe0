"""SIGTERM, SIGHUP and SIGINT end a command the way Ctrl-C does: by an exception that unwinds.

Python's default for SIGTERM and SIGHUP is to die at once, so a CI job timeout, ``timeout``
or systemd stopping ``verify`` left its compiler running (in its own session, which
``verify.tools.run_tool`` gives it, so nothing else would stop it) and its ``sarek-verify-*``
folder behind. ``handling_signals()`` (the command line's, never the library's: a program
importing sarek_layout keeps its own handlers) turns each of the three into ``Stopped``, a
``KeyboardInterrupt``: every ``with`` and ``finally`` on the way out runs, so each
``run_tool`` kills its program's process group and each temporary folder is removed; the
command then exits 128 + the signal's number, as a shell reports it.

Only the first signal raises: a second one (an impatient user, or ``timeout`` sending
SIGTERM and then SIGINT) is noted and does not interrupt the cleanup. A signal that was
ignored when the command started (``nohup``, a background job's SIGINT) stays ignored.
``deferred()`` holds a signal back across a few statements that must not be split (starting
a program and taking note of its pid): it is raised when the block ends.
"""

from __future__ import annotations

import contextlib
import signal
import sys

# typing.TYPE_CHECKING without importing typing: every command, `verify --help` included,
# imports this module at start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Iterator, Optional

__all__ = ["Stopped", "handling_signals", "deferred", "HANDLED"]

#: The signals that stop a command with its cleanup.
HANDLED = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Stopped(KeyboardInterrupt):
    """The command was asked to stop by signal ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


class _State:
    installed = False
    raised = False  # the first signal was raised: later ones only wait for the cleanup
    depth = 0  # inside deferred()
    pending: Optional[int] = None


_state = _State()


def _off_the_main_thread() -> bool:
    """Whether this runs on a thread other than the main one. Without ``threading`` imported
    no such thread was started (``threading`` starts them; ``_thread`` alone is not used):
    the answer needs no import, which a command that starts no thread (``generate``) would
    pay for at every start."""
    threading = sys.modules.get("threading")
    return threading is not None and threading.current_thread() is not threading.main_thread()


def _handler(signum: int, _frame) -> None:
    if _state.raised:
        return
    if _state.depth:
        if _state.pending is None:
            _state.pending = signum
        return
    _state.raised = True
    raise Stopped(signum)


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """Inside the block, the ``HANDLED`` signals raise ``Stopped`` (see the module
    docstring); the handlers before it are put back after it. Outside the main thread,
    where handlers cannot be set, nothing changes."""
    if _off_the_main_thread() or _state.installed:
        yield
        return
    previous = {}
    for sig in HANDLED:
        old = signal.getsignal(sig)
        if old == signal.SIG_IGN:
            continue  # nohup and background jobs ignore it on purpose
        previous[sig] = old
        signal.signal(sig, _handler)
    _state.installed, _state.raised, _state.depth, _state.pending = True, False, 0, None
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        _state.installed = False


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """A signal arriving inside the block is raised (as ``Stopped``) when it ends.

    Only on the main thread, the one signals reach: a worker thread (``verify.schedule``)
    cannot be split by one, and counting its blocks here would hold back the main thread's
    signal and then raise it on the worker, where nothing would stop the command."""
    if _off_the_main_thread():
        yield
        return
    _state.depth += 1
    try:
        yield
    finally:
        _state.depth -= 1
        if not _state.depth and _state.pending is not None and not _state.raised:
            signum, _state.pending = _state.pending, None
            _state.raised = True
            raise Stopped(signum)
