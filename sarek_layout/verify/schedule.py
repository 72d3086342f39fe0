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
    from concurrent.futures import Future, ThreadPoolExecutor

    from .tools import Halt, halting

    slots = threading.BoundedSemaphore(workers)
    halt = Halt()

    def pooled(job: Job[R]) -> R:
        with slots:
            halt.check()  # stopped while this one waited for a slot: do not start
            with halting(halt):
                return job.run()

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sarek-verify")
    futures: List[Optional[Future]] = [None] * len(jobs)
    results: List[R] = []
    try:
        for i, job in enumerate(jobs):
            if job.pooled:
                futures[i] = pool.submit(pooled, job)
        here = [i for i, job in enumerate(jobs) if not job.pooled]
        done: dict = {}
        for i, job in enumerate(jobs):
            # While the next result in order is not ready, do this thread's own jobs (the
            # ones that may not run on a worker), earliest first.
            future = futures[i]
            while future is not None and not future.done() and here:
                j = here.pop(0)
                with slots:
                    try:
                        done[j] = (jobs[j].run(), None)
                    except Exception as e:  # raised in its turn, after the rows before it
                        done[j] = (None, e)
            if future is None:
                if i in done:
                    result, error = done.pop(i)
                    if error is not None:
                        raise error
                else:
                    here.remove(i)
                    with slots:
                        result = job.run()
            else:
                result = future.result()
            results.append(result)
            if emit is not None:
                emit(result)
    except BaseException:
        # A signal or an error: kill what the workers started, start nothing more, and wait
        # for the workers, whose `with` blocks remove their compile folders.
        halt.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return results
