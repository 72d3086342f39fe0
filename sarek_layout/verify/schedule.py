"""Running ``verify``'s toolchains side by side, with the report of a sequential run.

Each toolchain is one compiler invocation (or one child process) in its own compile folder,
so toolchains are independent and their runs can overlap: ``run_in_order`` runs a list of
jobs on at most ``workers`` at once and hands each result to ``emit`` in the list's order,
as soon as it and every one before it are done. The report is therefore the one a
sequential run prints, row for row; an exception from a job is raised when its turn comes,
after the rows before it, as a sequential run would raise it.

Which job runs where:

* a job marked ``pooled`` runs on a worker thread. Only drivers that do nothing but Python
  work and programs through ``tools.run_tool`` / ``tools.run_child`` are (``Driver.
  subprocess_only``): each program keeps its own time and memory bounds there, its working
  folder is its own, and nothing changes the process's working folder or environment;
* every other job (in-process Vulkan and wgpu, and drivers that start programs themselves)
  runs on the calling thread, one at a time, as before; it takes one of the ``workers`` slots
  while it runs, so no more than ``workers`` jobs ever run at once.

Which job runs first: the longest, by each job's static ``estimate`` (longest processing time
first), so that the run does not end with one long compiler alone on one core (nvcc, hipcc
and PoCL take 0.7-1 s, the C compilers 0.03 s). A free slot goes to the job with the largest
estimate among those not started that a thread free to run it may take: a worker never takes
a slot that the waiting calling thread's own job should have, so those jobs are not starved
by workers that grab every slot as it frees (they used to run last, one after another).

Stopping: a signal (``interrupts.Stopped``) or an error reaches the calling thread; every
program the workers started is then killed through the batch's ``tools.Halt`` (a program about
to start is refused), the jobs not started are dropped, and the workers are waited for, so
their compile folders are removed before the exception goes on.

``workers`` of 1 (or a single job, or none that may run on a worker) runs everything on the
calling thread, with no thread at all.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Callable, Generic, List, Optional, Sequence, TypeVar

__all__ = ["Job", "run_in_order", "default_workers", "check_workers"]

R = TypeVar("R")


@dataclass(frozen=True)
class Job(Generic[R]):
    """One toolchain's work: ``run()`` gives its result; ``pooled`` when it may run on a
    worker thread (module docstring)."""

    run: Callable[[], R]
    pooled: bool = False
    #: About how long it runs (seconds; only the order matters): the longest start first.
    estimate: float = 0.0


def default_workers() -> int:
    """The cores this process may run on (``os.sched_getaffinity`` where there is one, which
    honours ``taskset`` and container CPU sets; else ``os.cpu_count()``), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_workers(value: object) -> int:
    """``value`` as a worker count (a whole number, at least 1), or a one-line ``UsageError``."""
    from ..errors import UsageError, quoted

    text = str(value).strip()
    try:
        count = int(text, 10)
    except ValueError:
        count = 0
    if count < 1:
        raise UsageError(f"-j/--jobs must be a whole number of toolchains to run at once, at "
                         f"least 1, not {quoted(text, 40)}")
    return count


def run_in_order(jobs: Sequence[Job[R]], workers: int,
                 emit: Optional[Callable[[R], None]] = None) -> List[R]:
    """The results of ``jobs`` in their order, each passed to ``emit`` (on this thread) as soon
    as it and every earlier one are done; at most ``workers`` run at once."""
    if workers <= 1 or len(jobs) < 2 or not any(job.pooled for job in jobs):
        return _sequential(jobs, emit)
    return _parallel(jobs, workers, emit)


def _sequential(jobs: Sequence[Job[R]], emit: Optional[Callable[[R], None]]) -> List[R]:
    results = []
    for job in jobs:
        result = job.run()
        results.append(result)
        if emit is not None:
            emit(result)
    return results


def _parallel(jobs: Sequence[Job[R]], workers: int,
              emit: Optional[Callable[[R], None]]) -> List[R]:
    from .tools import Halt, halting

    halt = Halt()
    # Not started yet, longest first (ties in the list's order: sorted is stable).
    pending = sorted(range(len(jobs)), key=lambda i: -jobs[i].estimate)
    done: dict = {}  # index -> (result, exception)
    cond = threading.Condition()
    running = [0]
    # The calling thread runs no job now: a worker leaves it any longer job it may not take.
    here_free = [True]
    stopped = [False]

    def take_pooled() -> Optional[int]:
        """Under ``cond``: the index a free worker starts now, or None."""
        if running[0] >= workers:
            return None
        for k, i in enumerate(pending):
            if jobs[i].pooled:
                running[0] += 1
                return pending.pop(k)
            if here_free[0]:
                return None  # the calling thread is free for this longer job: its slot
        return None

    def take_here() -> Optional[int]:
        """Under ``cond``: the calling thread's next job, when it is the longest left."""
        if running[0] < workers and pending and not jobs[pending[0]].pooled:
            running[0] += 1
            here_free[0] = False
            # A worker that left this job to the calling thread sleeps: wake it, for the
            # pooled jobs behind this one may run beside it now.
            cond.notify_all()
            return pending.pop(0)
        return None

    def finished(i: int, outcome, here: bool = False) -> None:
        with cond:
            done[i] = outcome
            running[0] -= 1
            if here:
                here_free[0] = True
            cond.notify_all()

    def worker() -> None:
        while True:
            with cond:
                while True:
                    if stopped[0] or not any(jobs[i].pooled for i in pending):
                        return
                    i = take_pooled()
                    if i is not None:
                        break
                    cond.wait()
            try:
                halt.check()  # stopped while this one waited for a slot: do not start
                with halting(halt):
                    outcome = (jobs[i].run(), None)
            except BaseException as e:  # raised on the calling thread, in its turn
                outcome = (None, e)
            finished(i, outcome)

    threads = [threading.Thread(target=worker, name=f"sarek-verify_{n}", daemon=True)
               for n in range(workers)]
    for t in threads:
        t.start()
    results: List[R] = []
    try:
        for i in range(len(jobs)):
            while True:
                with cond:
                    if i in done:
                        result, error = done.pop(i)
                        break
                    j = take_here()
                    if j is None:
                        cond.wait()
                        continue
                try:
                    outcome = (jobs[j].run(), None)
                except Exception as e:  # raised in its turn, after the rows before it
                    outcome = (None, e)
                finished(j, outcome, here=True)
            if error is not None:
                raise error
            results.append(result)
            if emit is not None:
                emit(result)
    except BaseException:
        # A signal or an error: kill what the workers started, start nothing more, and wait
        # for the workers, whose `with` blocks remove their compile folders.
        halt.stop()
        with cond:
            stopped[0] = True
            cond.notify_all()
        for t in threads:
            t.join()
        raise
    with cond:
        stopped[0] = True
        cond.notify_all()
    for t in threads:
        t.join()
    return results
