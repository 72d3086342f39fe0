"""Running a child under bounds that hold on a loaded machine: CPU time, not wall time.

A reader that is quadratic or exponential in its input burns CPU; a machine busy with other
work only makes the same CPU time take longer on the clock. So the bound on work is the
child's CPU time (``RLIMIT_CPU``, enforced by the kernel: past it the child gets SIGXCPU,
and each program it starts gets the same budget), checked again from its ``rusage`` after
it ended. Wall-clock time is only a hang guard, ``HANG_FACTOR`` times the CPU budget: a child
that waits without computing (a FIFO, a lock, a stopped machine) would otherwise hang the
suite, and the guard's message says it is a hang guard, not a measure of speed.

``make test-loaded`` runs the suite with a CPU hog on every core to keep this honest.
"""

from __future__ import annotations

import resource
import signal
import subprocess
from typing import Callable, Optional, Sequence

import pytest

#: Wall-clock hang guard, as a multiple of the CPU budget: a child gets at least 1/HANG_FACTOR
#: of a core even at a load of several times the number of cores.
HANG_FACTOR = 10


def _limits(cpu_s: float, memory: Optional[int], then: Optional[Callable[[], None]]):
    def apply() -> None:  # runs in the child, between fork and exec
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        soft = max(1, int(cpu_s + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))  # SIGXCPU, then SIGKILL
        if then is not None:
            then()

    return apply


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_cpu_bounded(argv: Sequence[str], *, cpu_s: float, memory: Optional[int] = None,
                    what: str = "reading this input is not linear in time",
                    hang_factor: float = HANG_FACTOR,
                    preexec: Optional[Callable[[], None]] = None,
                    **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(argv, capture_output=True, **kwargs)`` with at most ``cpu_s`` seconds
    of CPU (and ``memory`` bytes of address space). Past the CPU budget the calling test
    fails saying ``what``; past ``hang_factor * cpu_s`` seconds of wall-clock time it fails
    as a hang (the message says so). ``preexec`` runs in the child after the limits."""
    kwargs.setdefault("capture_output", True)
    guard = hang_factor * cpu_s
    shown = " ".join(map(str, argv))[:200]
    before = _children_cpu()
    try:
        proc = subprocess.run(list(argv), timeout=guard,
                              preexec_fn=_limits(cpu_s, memory, preexec), **kwargs)
    except subprocess.TimeoutExpired:
        # subprocess.run killed and reaped the child: its CPU time is in RUSAGE_CHILDREN.
        used = _children_cpu() - before
        pytest.fail(f"hang guard: {shown} still ran after {guard:g} s of wall-clock time, having "
                    f"used {used:.1f} s of CPU (budget {cpu_s:g} s): it waits on something "
                    f"(or the machine is stalled); this is not a measure of speed",
                    pytrace=False)
    used = _children_cpu() - before
    if proc.returncode == -signal.SIGXCPU or used > cpu_s + 5 or (
            proc.returncode == -signal.SIGKILL and used >= cpu_s):
        pytest.fail(f"{shown} used more than its {cpu_s:g} s of CPU time ({used:.1f} s "
                    f"measured): {what}", pytrace=False)
    return proc


def cpu_seconds_of_children() -> float:
    """CPU seconds used so far by this process's ended, reaped children (and theirs)."""
    return _children_cpu()


__all__ = ["run_cpu_bounded", "cpu_seconds_of_children", "HANG_FACTOR"]


def python_calls(fn: Callable[[], object]) -> int:
    """How many Python calls ``fn()`` makes: a bound on work that holds whatever the
    machine's load (a work-counting test compares two inputs' counts). ``fn()`` runs once
    first, uncounted: the package's bounded caches (``lru_cache(maxsize=…)``), which the
    tests before have filled, then hold this input's entries, so the count is the work and
    not what the cache happened to evict (two counts of one work differed by two in a full
    run otherwise). The cyclic collector is off meanwhile: the callbacks a test library
    hangs on it (hypothesis's) would be counted whenever allocations triggered a
    collection."""
    import gc
    import sys

    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    fn()
    collecting = gc.isenabled()
    gc.disable()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
        if collecting:
            gc.enable()
    return count
