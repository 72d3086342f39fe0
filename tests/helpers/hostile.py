"""Running the tool on hostile input in a child process, under a CPU-time and a memory limit.

A reader that backtracks exponentially, or keeps a hundred bytes per byte of input, does not
fail a test run in-process: it hangs it, or takes the machine's memory. Here the command runs
in a child with ``RLIMIT_AS`` and ``RLIMIT_CPU``, both generous (a correct reader needs a
small fraction of either), so that a regression fails the test in bounded time. The bound is
CPU time, which other work on the machine does not inflate (``tests/helpers/bounded.py``): a
wall-clock limit failed four of these tests at a load average of 4-6 on two cores. Wall time
is only a hang guard, ten times the CPU budget.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List, Sequence

from helpers.bounded import run_cpu_bounded

#: CPU seconds one child may use: a correct reader takes well under one second per
#: megabyte; an exponential or quadratic one takes hours.
CPU_S = 20
TIMEOUT_S = CPU_S  # the old name, for callers
#: Address-space limit of one child.
MEMORY_BYTES = 1 << 30
TARGETS = ["-t", "c", "-t", "cuda", "-t", "opencl", "-t", "python"]
ROOT = Path(__file__).resolve().parents[2]


def run_bounded(argv: Sequence[str], cwd: Path, timeout: float = CPU_S,
                memory: int = MEMORY_BYTES) -> subprocess.CompletedProcess:
    """``python argv…`` in ``cwd`` under the limits (``timeout``: CPU seconds); using more
    CPU fails the calling test, and so does a hang (the message says which)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    return run_cpu_bounded([sys.executable, *argv], cpu_s=timeout, memory=memory, cwd=cwd,
                           env=env)


def check_refused_bounded(schemas: List[str], cwd: Path, out_root: Path, where_prefix: str,
                          fragments: Sequence[str] = (), command: str = "generate") -> str:
    """``generate SCHEMAS`` (or ``import-c HEADER``) under the limits: exit 2, one line
    starting ``where_prefix`` (``FILE:LINE:COL: error: `` or ``FILE: error: ``) with every
    fragment, nothing on stdout, no traceback, nothing written. Returns the line."""
    out = out_root / "bounded-out"
    out.mkdir()
    depfile = out_root / "bounded.d"
    if command == "generate":
        argv = ["generate", *schemas, "-o", str(out), *TARGETS, "--depfile", str(depfile)]
    else:
        argv = [command, *schemas]
    proc = run_bounded(["-m", "sarek_layout", *argv], cwd)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, err[-2000:]
    assert proc.stdout == b""
    assert "Traceback" not in err and "MemoryError" not in err, err[-2000:]
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err[-2000:]
    assert lines[0].startswith(where_prefix), lines[0][:300]
    for fragment in fragments:
        assert fragment in lines[0], lines[0][:300]
    assert list(out.iterdir()) == [], "a refused run wrote into the output folder"
    assert not depfile.exists(), "a refused run wrote the depfile"
    return lines[0]


_PEAK = """
import sys, tracemalloc
from sarek_layout import SarekLayoutError
from sarek_layout.frontends import read_module, READERS
import importlib
for module, _ in READERS.values():  # the readers' code is not the input's memory
    importlib.import_module(module)
import sarek_layout.resolve
tracemalloc.start()
try:
    read_module(sys.argv[1])
except SarekLayoutError as e:
    str(e)  # the position too: JSON and TOML find it only when it is printed
print(tracemalloc.get_traced_memory()[1])
"""


def reader_peak_memory(path: Path) -> int:
    """Peak bytes allocated by Python while reading ``path`` (``tracemalloc``; the
    interpreter and the imported readers not counted), measured in a bounded child."""
    proc = run_bounded(["-c", _PEAK, str(path)], path.parent)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-2000:]
    return int(proc.stdout.split()[-1])
