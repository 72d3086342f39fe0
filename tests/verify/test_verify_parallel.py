"""``verify -j N``: toolchains run side by side, and the report is the sequential one.

The report of ``-j 4`` must be byte for byte the one of ``-j 1`` (stdout, stderr, exit
status), on the example with every installed toolchain and on a header that some toolchain
disagrees with; the one cell that is allowed to differ is the measured time of each row,
which differs between any two runs. The scheduler itself is checked without a clock: a job
that can only finish once a later job has run proves they overlap, and its result still comes
first. A signal while several compilers run kills all of them (``test_verify_signals`` has
the one-compiler case). Wall-clock limits here are hang guards only.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from helpers.common import require_toolchain
from helpers.verify import DATA, EXAMPLES
from sarek_layout.cli.main import main
from sarek_layout.verify.schedule import Job, run_in_order

HANG_GUARD_S = 120

#: The measured time of a row (``  0.03s``), the one thing two runs may print differently,
#: with the spaces before it: a row of 10 s or more (hipcc on a loaded machine) has one less.
_TIME_CELL = re.compile(r"(?m)^(\S+\s+\S+)\s+\d+\.\d\ds(  )")


def _verify(capsys, *args):
    status = main(["verify", *args])
    out, err = capsys.readouterr()
    return status, _TIME_CELL.sub(r"\1 T.TTs\2", out), err


def _same_report(capsys, *args):
    sequential = _verify(capsys, *args, "-j", "1")
    parallel = _verify(capsys, *args, "-j", "4")
    assert parallel == sequential
    return sequential


def test_the_parallel_report_of_the_example_is_the_sequential_one(capsys):
    status, out, err = _same_report(capsys, str(EXAMPLES / "geometry.toml"))
    assert status == 0, out + err
    assert out.count(" T.TTs  ") >= 2, out  # two toolchains ran at least: a real comparison


def test_the_parallel_report_of_a_disagreement_is_the_sequential_one(capsys):
    for name in ("gcc", "g++", "gcc-m32", "clang"):
        require_toolchain(name)
    status, out, err = _same_report(
        capsys, str(DATA / "plain.toml"), "--header", str(DATA / "plain_double.h"),
        "--toolchain", "gcc", "--toolchain", "gcc-m32", "--toolchain", "g++",
        "--toolchain", "clang")
    assert status == 1
    assert "Plain_mixed.mass: layout says offset 8, gcc -m32 says 4" in out
    assert [line.split()[0] for line in out.splitlines()[1:5]] == ["gcc", "gcc-m32", "g++",
                                                                  "clang"]


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "two", ""])
def test_a_bad_jobs_count_is_one_line_and_exit_2(capsys, value):
    status = main(["verify", str(EXAMPLES / "geometry.toml"), "-j", value])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and "-j/--jobs" in err, err


def test_results_come_in_order_while_the_jobs_overlap():
    second_ran = threading.Event()
    seen = []

    def first():
        # Only a second job running at the same time can let this one finish.
        assert second_ran.wait(HANG_GUARD_S), "hang guard: the jobs did not run side by side"
        return "first"

    def second():
        second_ran.set()
        return "second"

    jobs = [Job(first, pooled=True), Job(second, pooled=True), Job(lambda: "here")]
    assert run_in_order(jobs, 2, seen.append) == ["first", "second", "here"]
    assert seen == ["first", "second", "here"]


def test_an_error_comes_in_its_turn_after_the_results_before_it():
    seen = []

    def broken():
        raise OSError("disk full")

    jobs = [Job(lambda: 1, pooled=True), Job(broken, pooled=True), Job(lambda: 3, pooled=True)]
    with pytest.raises(OSError, match="disk full"):
        run_in_order(jobs, 3, seen.append)
    assert seen == [1]


def test_an_error_of_a_job_run_early_on_the_calling_thread_still_comes_in_its_turn():
    first_may_end = threading.Event()
    seen = []

    def first():
        assert first_may_end.wait(HANG_GUARD_S), "hang guard"
        return 1

    def broken():  # runs on this thread while the first waits, so before it ends
        first_may_end.set()
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        run_in_order([Job(first, pooled=True), Job(broken), Job(lambda: 3, pooled=True)], 2,
                     seen.append)
    assert seen == [1]


def test_jobs_that_may_not_run_on_a_worker_run_on_the_calling_thread():
    main_thread = threading.current_thread()
    where = run_in_order([Job(threading.current_thread, pooled=True),
                          Job(threading.current_thread),
                          Job(threading.current_thread, pooled=True)], 2)
    assert where[1] is main_thread
    assert where[0] is not main_thread and where[2] is not main_thread


def test_a_worker_threads_deferred_block_does_not_hold_back_the_main_threads_signal():
    """A worker thread starting a program (``tools.run_tool`` holds signals back while it
    does) must not make the main thread's signal wait, nor be raised on the worker."""
    from sarek_layout import interrupts

    inside, leave = threading.Event(), threading.Event()
    raised_on_worker = []

    def worker():
        try:
            with interrupts.deferred():
                inside.set()
                leave.wait(HANG_GUARD_S)
        except interrupts.Stopped:
            raised_on_worker.append(True)

    with interrupts.handling_signals():
        if signal.getsignal(signal.SIGTERM) is not interrupts._handler:
            pytest.skip("signal handlers can only be set from the main thread")
        thread = threading.Thread(target=worker)
        thread.start()
        try:
            assert inside.wait(HANG_GUARD_S)
            with pytest.raises(interrupts.Stopped):
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):  # the handler raises at the next bytecode boundary
                    time.sleep(0.001)
        finally:
            leave.set()
            thread.join(HANG_GUARD_S)
    assert not raised_on_worker


# --- a signal while several compilers run ---------------------------------------------------

_TRAMPOLINE = ("import os, signal, sys\n"
               "for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):\n"
               "    signal.signal(s, signal.SIG_DFL)\n"
               "os.execv(sys.argv[1], sys.argv[1:])\n")


def _fifo_holders(path) -> set:
    """Process groups of every other process with ``path`` open."""
    found = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if int(pid) == os.getpid():
            continue
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path)
                   for fd in os.listdir(f"/proc/{pid}/fd")):
                found.add(os.getpgid(int(pid)))
        except OSError:
            continue
    return found


def _alive_in(groups) -> list:
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) in groups and fields[0] not in ("Z", "X"):
            out.append(int(pid))
    return out


def test_a_signal_kills_every_compiler_running_side_by_side(tmp_path, capsys):
    for name in ("gcc", "g++"):
        require_toolchain(name)
    import shutil

    import sarek_layout

    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(DATA / "plain.toml", root / "plain.toml")
    assert main(["generate", str(root / "plain.toml"), "-o", str(root / "gen"), "-t", "c"]) == 0
    capsys.readouterr()
    os.mkfifo(root / "pipe.h")
    (root / "incl.h").write_text('#define HIDDEN "pipe.h"\n#ifdef __GNUC__\n#include HIDDEN\n'
                                 '#endif\n' + (root / "gen" / "plain.h").read_text())
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    parent = os.path.dirname(os.path.dirname(os.path.abspath(sarek_layout.__file__)))
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONPATH=parent, SAREK_VERIFY_TIMEOUT="3600")
    proc = subprocess.Popen([sys.executable, "-c", _TRAMPOLINE, sys.executable, "-m",
                             "sarek_layout", "verify", "plain.toml", "--header", "incl.h",
                             "--toolchain", "gcc", "--toolchain", "g++", "-j", "2"],
                            cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    fifo = root / "pipe.h"
    writer = None
    try:
        guard = time.monotonic() + HANG_GUARD_S
        groups: set = set()
        # Both compilers block opening the FIFO for reading; each open for writing lets one
        # through, which then blocks reading it: wait until two distinct groups hold it.
        while len(groups) < 2:
            assert proc.poll() is None, f"verify ended early: {proc.communicate()}"
            assert time.monotonic() < guard, "hang guard: the two compilers never both ran"
            if writer is None:
                try:
                    writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                except OSError as e:
                    if e.errno != errno.ENXIO:
                        raise
            groups = _fifo_holders(fifo) - {os.getpgid(0)}
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=HANG_GUARD_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"hang guard: verify still ran {HANG_GUARD_S} s after SIGTERM")
        time.sleep(0.5)
        assert not _alive_in(groups), f"a compiler outlived verify: {_alive_in(groups)}"
        assert os.listdir(tmpdir) == [], "a temporary folder was left behind"
        assert proc.returncode == 128 + signal.SIGTERM, (proc.returncode, out, err)
        assert "Traceback" not in err, err
    finally:
        if writer is not None:
            os.close(writer)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


# --- which job starts first ------------------------------------------------------------------


def test_the_longest_jobs_start_first():
    """Longest processing time first, by each job's static estimate: on 2 workers the two
    long ones start before any short one, so the run does not end with a long one alone."""
    lock = threading.Lock()
    started = []

    def job(name):
        def run():
            with lock:
                started.append(name)
            return name
        return run

    estimates = {"gcc": 0.03, "g++": 0.03, "nvcc": 0.75, "clang": 0.03, "pocl": 1.0}
    jobs = [Job(job(n), pooled=True, estimate=e) for n, e in estimates.items()]
    assert run_in_order(jobs, 2) == list(estimates)  # the rows in the list's order
    assert set(started[:2]) == {"pocl", "nvcc"}, started


def test_a_long_job_of_the_calling_thread_is_not_starved_by_the_workers():
    """Workers used to take every slot as it freed, so the calling thread's jobs (wgpu,
    Vulkan) all ran last, one after another. The longest job here is the calling thread's:
    it starts first, and the workers' jobs (which wait for it) start after it."""
    here_ran = threading.Event()
    guard = 20  # seconds: on the old scheduler both slots waited here for a job never started

    def pooled():
        assert here_ran.wait(guard), "the calling thread's longest job did not start first"
        return "pooled"

    def here():
        here_ran.set()
        return "here"

    jobs = [Job(pooled, pooled=True, estimate=0.2), Job(pooled, pooled=True, estimate=0.2),
            Job(pooled, pooled=True, estimate=0.2), Job(here, estimate=0.5)]
    assert run_in_order(jobs, 2) == ["pooled", "pooled", "pooled", "here"]


def test_a_device_is_opened_in_its_toolchains_job_not_before_every_job(monkeypatch):
    """``Toolchain.device`` (wgpu's adapter, a Vulkan instance: 0.5 s of CPU) runs when the
    jobs run, on the calling thread, beside the compilers; ``detect`` runs before. The row
    it gives, when there is no device, is the one it gave when it was found up front."""
    import dataclasses

    from sarek_layout.resolve import load_schema
    from sarek_layout.verify import SKIPPED, run, toolchains

    require_toolchain("gcc")
    scheduling = []
    opened = []

    def no_device(tc):
        opened.append((bool(scheduling), threading.current_thread() is threading.main_thread()))
        return f"{tc.name}: no device here"

    fake = dataclasses.replace(toolchains.TOOLCHAINS["vulkan"], name="fake-gpu", target="c",
                               detect=lambda tc: None, device=no_device)
    registry = {"gcc": toolchains.TOOLCHAINS["gcc"], "fake-gpu": fake}
    monkeypatch.setattr(toolchains, "TOOLCHAINS", registry)
    monkeypatch.setattr(run, "TOOLCHAINS", registry)
    toolchains.refresh()
    real = run.run_in_order

    def run_in_order(*args):
        scheduling.append(True)
        return real(*args)

    monkeypatch.setattr(run, "run_in_order", run_in_order)
    try:
        report = run.verify_schema(load_schema([str(EXAMPLES / "geometry.toml")]), jobs=2)
    finally:
        toolchains._availability.cache_clear()
        toolchains._installed.cache_clear()
    assert opened == [(True, True)]
    rows = {r.toolchain.name: r for r in report.results}
    assert list(rows) == ["gcc", "fake-gpu"]
    assert rows["fake-gpu"].status == SKIPPED
    assert rows["fake-gpu"].error == "fake-gpu: no device here"


# --- how many jobs run at once while the calling thread runs one (issue 30) ------------------


class _Watched(threading.Condition):
    """The scheduler's condition, noting what each worker thread is doing, so that a test can
    see when no worker can start anything more without waiting for a job to end: each is
    running a job, or waits on the condition and has not been notified since. A worker that
    was notified, or has left ``wait``, is still deciding (not settled)."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.seen = threading.Condition(threading.Lock())
        self.state: dict = {}  # worker thread -> "waiting", "notified" or "running"

    def _note(self, thread, state) -> None:
        with self.seen:
            if state is None:
                self.state.pop(thread, None)
            else:
                self.state[thread] = state
            self.seen.notify_all()

    def wait(self, timeout=None):
        me = threading.current_thread()
        self._note(me, "waiting")  # under the scheduler's lock, like its decisions
        try:
            return super().wait(timeout)
        finally:
            self._note(me, None)

    def notify_all(self) -> None:
        with self.seen:
            for thread, state in self.state.items():
                if state == "waiting":
                    self.state[thread] = "notified"
        super().notify_all()

    def running(self) -> None:
        """Called by a pooled job as it starts."""
        self._note(threading.current_thread(), "running")

    def settle(self, workers: int) -> int:
        """Wait until every worker runs a job or waits un-notified; the jobs they run."""
        with self.seen:
            assert self.seen.wait_for(
                lambda: len(self.state) == workers and "notified" not in self.state.values(),
                HANG_GUARD_S), f"hang guard: the workers never settled ({self.state})"
            return sum(state == "running" for state in self.state.values())


def _while_the_calling_thread_runs_a_job(monkeypatch, pooled_jobs: int, workers: int) -> int:
    """How many pooled jobs run while the calling thread runs its own (the longest) job, once
    no worker can start another: each pooled job waits until that has been counted."""
    import types

    from sarek_layout.verify import schedule

    made = []

    def condition(*args):
        made.append(_Watched(*args))
        return made[-1]

    monkeypatch.setattr(schedule, "threading",
                        types.SimpleNamespace(Condition=condition, Thread=threading.Thread))
    counted = threading.Event()
    beside = []

    def here():
        assert threading.current_thread() is threading.main_thread()
        beside.append(made[0].settle(workers))
        counted.set()
        return "here"

    def pooled():
        made[0].running()
        assert counted.wait(HANG_GUARD_S), "hang guard"
        return "pooled"

    jobs = [Job(here, estimate=1.0)] + [Job(pooled, pooled=True, estimate=0.3)
                                       for _ in range(pooled_jobs)]
    assert run_in_order(jobs, workers) == ["here"] + ["pooled"] * pooled_jobs
    return beside[0]


def test_the_workers_run_while_the_calling_thread_runs_a_long_job(monkeypatch):
    """Jobs [one on the calling thread (Vulkan, wgpu), 4 pooled] on 2 workers: while the
    calling thread runs its job, one worker runs a pooled job beside it. Claiming the slot
    without waking the workers (who had left the job to the calling thread) kept both asleep
    until it ended: [one, 3 pooled] of 0.3 s each took 0.9 s instead of 0.6 s."""
    assert _while_the_calling_thread_runs_a_job(monkeypatch, 4, 2) == 1


def test_no_more_jobs_run_at_once_than_there_are_workers(monkeypatch):
    """Three jobs, two workers: the calling thread's job takes one slot, so one worker runs
    a job beside it and the other waits (a slot test of `>` for `>=` ran all three)."""
    assert _while_the_calling_thread_runs_a_job(monkeypatch, 2, 2) == 1
    assert _while_the_calling_thread_runs_a_job(monkeypatch, 3, 3) == 2
