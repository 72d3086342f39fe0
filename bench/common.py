"""Shared helpers of the benchmark suite: timing, child processes with their peak memory,
the schemas benchmarked, and the description of the machine.

Timings are medians of repeated runs, and every comparison is a ratio of two numbers
measured in the same run, interleaved, because the machines are shared and noisy. Nothing
here asserts anything: ``make test`` never depends on wall time.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
SCALARS = ("int32", "int64", "float32", "float64", "bool")
#: FlatBuffers spelling of the same sizes (a Sarek bool is 4 bytes: FlatBuffers' int).
FBS_SCALARS = {"int32": "int", "int64": "long", "float32": "float", "float64": "double",
               "bool": "int"}


# --- what was measured ---------------------------------------------------------------------


@dataclass
class Row:
    """One line of the report: a measurement, optionally against a baseline and a target."""

    section: str
    what: str
    value: str
    baseline: str = ""
    ratio: Optional[float] = None
    target: str = ""
    met: Optional[bool] = None
    note: str = ""


@dataclass
class Report:
    rows: List[Row] = field(default_factory=list)
    skipped: List[Tuple[str, str]] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        print(format_row(row), flush=True)
        return row

    def skip(self, section: str, reason: str) -> None:
        self.skipped.append((section, reason))
        print(f"  [skipped] {section}: {reason}", flush=True)


def format_row(r: Row) -> str:
    ratio = f"{r.ratio:.2f}" if r.ratio is not None else ""
    met = {True: "met", False: "NOT met", None: ""}[r.met]
    return (f"  {r.what:<52} {r.value:>18} {r.baseline:>22} {ratio:>7} "
            f"{r.target:>10} {met:>8}")


def seconds(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def megabytes(kib: int) -> str:
    return f"{kib / 1024:.0f} MB"


# --- timing ------------------------------------------------------------------------------


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_seconds() -> float:
    """CPU seconds so far of this process (user + system): what a loaded machine does not
    change the way it changes wall time."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class ProcessRun:
    seconds: float
    peak_kib: int
    returncode: int
    stderr: str
    cpu: float  # user + system seconds of the command and the children it waited for


_GNU_TIME = "/usr/bin/time"


def run_process(argv: Sequence[str], cwd: Optional[str] = None,
                env: Optional[Dict[str, str]] = None) -> ProcessRun:
    """Run ``argv``; wall time from before the fork to its exit, and its own peak RSS.

    Linux carries a process's peak RSS across fork and exec, so a child forked from this
    (large) benchmark process would report at least this process's size. The peak is
    therefore read through GNU time, whose own small process is the one that forks the
    command; without it, wait4's figure is used (an upper bound)."""
    import tempfile

    measure = os.path.exists(_GNU_TIME)
    report = None
    if measure:
        fd, report = tempfile.mkstemp(prefix="sarek-bench-rss-")
        os.close(fd)
        argv = [_GNU_TIME, "-f", "%M", "-o", report, *argv]
    start = time.perf_counter()
    proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    # wait4 gives this child's own resource usage (getrusage(RUSAGE_CHILDREN) would be the
    # maximum over every child so far).
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    peak = usage.ru_maxrss
    if report is not None:
        try:
            lines = Path(report).read_text().split()
            peak = int(lines[-1]) if lines and lines[-1].isdigit() else peak
        finally:
            os.unlink(report)
    return ProcessRun(elapsed, peak, proc.returncode, stderr, usage.ru_utime + usage.ru_stime)


def check(run: ProcessRun, argv: Sequence[str]) -> ProcessRun:
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))} exited {run.returncode}:\n{run.stderr}")
    return run


def interleaved(commands: Dict[str, Tuple[Sequence[str], Callable[[], None]]], repeat: int,
                cwd: Optional[str] = None, cpu: bool = False) -> Dict[str, Tuple[float, int]]:
    """Run each command ``repeat`` times, alternating, after its ``prepare``: for each, the
    median wall seconds (with ``cpu``, the best CPU seconds, which a busy moment of a shared
    machine inflates less) and the largest peak RSS (KiB)."""
    times: Dict[str, List[float]] = {k: [] for k in commands}
    peaks: Dict[str, int] = {k: 0 for k in commands}
    for _ in range(repeat):
        for name, (argv, prepare) in commands.items():
            prepare()
            r = check(run_process(argv, cwd=cwd), argv)
            times[name].append(r.cpu if cpu else r.seconds)
            peaks[name] = max(peaks[name], r.peak_kib)
    pick = min if cpu else statistics.median
    return {k: (pick(v), peaks[k]) for k, v in times.items()}


# --- the tools ----------------------------------------------------------------------------


def sarek_command() -> List[str]:
    """The console script next to this interpreter (what users run), else ``-m``."""
    script = Path(sys.executable).with_name("sarek-layout")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "sarek_layout"]


def which(name: str) -> Optional[str]:
    return shutil.which(name)


# --- schemas ------------------------------------------------------------------------------


def random_records(n: int, fields: int = 8, seed: int = 8) -> List[Tuple[str, List[Tuple[str, str]]]]:
    """``n`` flat records of ``fields`` random scalar fields, the same for every tool."""
    rng = random.Random(seed)
    return [(f"r{i}", [(f"f{j}", rng.choice(SCALARS)) for j in range(fields)])
            for i in range(n)]


def write_json_schema(records, path: Path, module: str = "Bench") -> Path:
    types = [{"record": name, "fields": [[f, t] for f, t in fields]} for name, fields in records]
    path.write_text(json.dumps({"module": module, "types": types}))
    return path


def write_fbs_schema(records, path: Path, namespace: str = "Bench") -> Path:
    lines = [f"namespace {namespace};", ""]
    for name, fields in records:
        lines.append(f"struct {name} {{")
        lines.extend(f"  {f}:{FBS_SCALARS[t]};" for f, t in fields)
        lines.append("}")
    path.write_text("\n".join(lines) + "\n")
    return path


# --- the machine --------------------------------------------------------------------------


def _first_line(argv: Sequence[str]) -> str:
    try:
        out = subprocess.run(list(argv), capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "not installed"
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[0] if text else "unknown"


def machine_description() -> Dict[str, str]:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    try:
        import numpy

        numpy_version = numpy.__version__
    except ImportError:
        numpy_version = "not installed"
    try:
        import jinja2

        jinja_version = jinja2.__version__
    except ImportError:
        jinja_version = "not installed"
    from sarek_layout import __version__

    return {
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "machine": f"{platform.machine()}, {cpu}, {os.cpu_count()} CPUs (shared), {memory} RAM",
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "sarek-layout": __version__,
        "numpy / jinja2": f"{numpy_version} / {jinja_version}",
        "flatc": _first_line(["flatc", "--version"]),
        "gcc": _first_line(["gcc", "--version"]),
        "make": _first_line(["make", "--version"]),
    }
