"""``verify`` stopped by a signal (a CI job timeout, ``timeout``, systemd, Ctrl-C) leaves
nothing behind: no compiler still running, no ``sarek-verify-*`` folder (issue #25).

The compiler is made to wait for as long as the test wants: the header includes a FIFO
(through a macro only gcc defines, so the structure check never opens it), gcc blocks opening
it, and the test's own non-blocking open for writing succeeds exactly when the compiler holds
the other end: from then on, the compiler is known to be running, and blocks reading.
Wall-clock limits here are hang guards only; their messages say so.
"""

from __future__ import annotations

import errno
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import pytest

from helpers.common import require_toolchain
from sarek_layout.cli.main import main
from helpers.verify import DATA

#: Seconds after which a step is taken to hang (nothing here needs more than a second or two).
HANG_GUARD_S = 120

#: Starts the command with the three signals at their defaults, whatever the test runner set
#: (exec keeps a default or ignored disposition, so an ignored SIGINT would stay ignored).
_TRAMPOLINE = ("import os, signal, sys\n"
               "for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):\n"
               "    signal.signal(s, signal.SIG_DFL)\n"
               "os.execv(sys.argv[1], sys.argv[1:])\n")


@pytest.fixture
def blocking_project(tmp_path, capsys):
    require_toolchain("gcc")
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(DATA / "plain.toml", root / "plain.toml")
    assert main(["generate", str(root / "plain.toml"), "-o", str(root / "gen"), "-t", "c"]) == 0
    capsys.readouterr()
    os.mkfifo(root / "pipe.h")
    (root / "incl.h").write_text('#define HIDDEN "pipe.h"\n#ifdef __GNUC__\n#include HIDDEN\n'
                                 '#endif\n' + (root / "gen" / "plain.h").read_text())
    return root


def _holders(path: pathlib.Path) -> dict:
    """``{pid: process group}`` of every process with ``path`` open."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in fds):
                found[int(pid)] = _stat(int(pid))[2]
        except OSError:
            continue  # gone meanwhile
    return found


def _stat(pid: int):
    """``(state, parent, process group)`` of ``pid`` (``/proc/PID/stat``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return fields[0], int(fields[1]), int(fields[2])


def _live_in_groups(groups) -> list:
    """Processes, not yet dead, whose process group is one of ``groups``."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            state, _, group = _stat(int(pid))
        except (OSError, IndexError):
            continue
        if group in groups and state not in ("Z", "X"):
            out.append(int(pid))
    return out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_stops_every_compiler_and_removes_every_temporary_folder(blocking_project, sig):
    project = blocking_project
    tmpdir = project.parent / "tmpdir"
    tmpdir.mkdir()
    import sarek_layout

    package_parent = pathlib.Path(sarek_layout.__file__).resolve().parent.parent
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONPATH=str(package_parent),
               SAREK_VERIFY_TIMEOUT="3600")
    proc = subprocess.Popen([sys.executable, "-c", _TRAMPOLINE, sys.executable, "-m",
                             "sarek_layout", "verify", "plain.toml", "--header", "incl.h",
                             "--toolchain", "gcc"],
                            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    fifo = project / "pipe.h"
    writer = None
    try:
        guard = time.monotonic() + HANG_GUARD_S
        while writer is None:
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:
                if e.errno != errno.ENXIO:  # ENXIO: no reader yet
                    raise
                assert proc.poll() is None, f"verify ended before the compiler blocked: " \
                                            f"{proc.communicate()}"
                assert time.monotonic() < guard, "hang guard: the compiler never opened the FIFO"
                time.sleep(0.02)
        # The compiler's blocked open returns once it is scheduled: wait for its descriptor.
        compilers: dict = {}
        while not compilers:
            compilers = _holders(fifo)
            compilers.pop(os.getpid(), None)
            assert time.monotonic() < guard, "hang guard: the compiler never opened the FIFO"
            time.sleep(0.01)
        groups = set(compilers.values())
        assert proc.pid not in groups, "the compiler runs in its own process group"
        assert any(n.startswith("sarek-verify-") for n in os.listdir(tmpdir))

        os.kill(proc.pid, sig)
        try:
            out, err = proc.communicate(timeout=HANG_GUARD_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"hang guard: verify still ran {HANG_GUARD_S} s after {sig.name}")
        time.sleep(0.5)  # a compiler left behind would be running still: give it no excuse
        assert not _live_in_groups(groups), \
            f"the compiler outlived verify: {_live_in_groups(groups)} still run"
        assert os.listdir(tmpdir) == [], "a temporary folder was left behind"
        assert proc.returncode == 128 + sig, (proc.returncode, out, err)
        assert "Traceback" not in err, err
    finally:
        if writer is not None:
            os.close(writer)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


def test_a_signal_while_the_compiler_starts_is_held_until_its_pid_is_known(tmp_path,
                                                                           monkeypatch):
    """The one window where a signal could orphan a program: after the fork, before ``Popen``
    returns. The signal arrives there, every time; it is raised once the pid is known, and
    the program's group is killed."""
    from sarek_layout import interrupts
    from sarek_layout.verify import tools

    started = []
    real_popen = subprocess.Popen

    def popen_then_signal(*args, **kwargs):
        p = real_popen(*args, **kwargs)
        started.append(p.pid)
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here, inside Popen's call
        return p

    monkeypatch.setattr(tools.subprocess, "Popen", popen_then_signal)
    with interrupts.handling_signals():
        if signal.getsignal(signal.SIGTERM) is not interrupts._handler:
            pytest.skip("signal handlers can only be set from the main thread")
        with pytest.raises(interrupts.Stopped) as stopped:
            tools.run_tool(["sleep", "300"], cwd=str(tmp_path))
    assert stopped.value.signum == signal.SIGTERM
    assert stopped.value.exit_status == 128 + signal.SIGTERM
    assert started
    state, _, _ = _stat(started[0]) if os.path.exists(f"/proc/{started[0]}") else ("X", 0, 0)
    assert state in ("Z", "X"), "the program started in the window outlived the signal"


def test_a_second_signal_does_not_interrupt_the_cleanup():
    from sarek_layout import interrupts

    with interrupts.handling_signals():
        if signal.getsignal(signal.SIGTERM) is not interrupts._handler:
            pytest.skip("signal handlers can only be set from the main thread")
        with pytest.raises(interrupts.Stopped):
            try:
                os.kill(os.getpid(), signal.SIGHUP)
                time.sleep(5)  # the handler raises before this ends
            finally:
                os.kill(os.getpid(), signal.SIGTERM)  # arrives during the cleanup: noted only
                cleaned = True
    assert cleaned


def test_handlers_are_put_back_after_the_command():
    from sarek_layout import interrupts

    before = [signal.getsignal(s) for s in interrupts.HANDLED]
    with interrupts.handling_signals():
        pass
    assert [signal.getsignal(s) for s in interrupts.HANDLED] == before


def test_an_ignored_signal_stays_ignored():
    """``nohup`` ignores SIGHUP on purpose: the command must not start honouring it."""
    from sarek_layout import interrupts

    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with interrupts.handling_signals():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, old)
