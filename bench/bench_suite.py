"""Section 8: ``make test`` itself, wall time and peak memory on this machine.

The suite runs once, as a developer runs it (``make test``), while this process samples the
resident memory of the whole process tree (pytest, its xdist workers, the compilers they
start) every 0.2 s from ``/proc``: the sum is what the machine must hold at once. GNU time
adds the largest single process's peak (a compiler on a big header, say). Target (issue 13):
at most 6 minutes and 2 GB. Pass/fail of the tests is reported, not asserted.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Dict, List

from common import ROOT, Report, Row, megabytes, seconds, which

_PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def _children() -> Dict[int, List[int]]:
    tree: Dict[int, List[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name may contain spaces: the fields after it follow the last ')'.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _tree_rss_kib(root: int) -> int:
    tree, total, todo = _children(), 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(tree.get(pid, ()))
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE_KIB
        except (OSError, IndexError, ValueError):
            pass
    return total


def make_test(report: Report) -> None:
    make = which("make")
    if not make or not Path("/proc").is_dir():
        report.skip("make test", "needs make and Linux /proc")
        return
    gnu_time = "/usr/bin/time"
    peak_file = Path(ROOT / "build" / "bench-make-test.time")
    peak_file.parent.mkdir(parents=True, exist_ok=True)
    argv = [make, "-s", "test"]
    if os.path.exists(gnu_time):
        argv = [gnu_time, "-f", "%M", "-o", str(peak_file), *argv]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak_tree = 0
    while proc.poll() is None:
        peak_tree = max(peak_tree, _tree_rss_kib(proc.pid))
        time.sleep(0.2)
    elapsed = time.perf_counter() - start
    tail = proc.stdout.read().decode(errors="replace").strip().splitlines()[-1:] if proc.stdout else []
    single = 0
    if peak_file.is_file():
        words = peak_file.read_text().split()
        single = int(words[-1]) if words and words[-1].isdigit() else 0
        peak_file.unlink()
    summary = tail[0].strip("= ") if tail else f"exit {proc.returncode}"
    report.add(Row("8. make test", "make test: wall time", seconds(elapsed), "", None,
                   "<= 6 min", elapsed <= 360, note=summary))
    report.add(Row("8. make test", "make test: peak memory, whole process tree",
                   megabytes(peak_tree), f"largest process {megabytes(single)}", None,
                   "<= 2 GB", peak_tree <= 2 * 1024 * 1024,
                   note="sampled every 0.2 s from /proc"))
