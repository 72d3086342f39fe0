"""Section 4: verification is one compiler start per toolchain, however many types.

``sarek-layout verify SCHEMA --toolchain NAME`` on schemas of 10, 100 and 1,000 types (the
whole command, process start and header generation included), for the host through cffi,
gcc -m32 and PoCL. PoCL gets an empty ``POCL_CACHE_DIR`` at every run, so each build is cold.

Against: probing one type per program build, which is what
``pyopencl.tools.match_dtype_to_c_struct`` does (one OpenCL program per struct), and, for the
C toolchains, ``verify`` of one type at a time. Those are timed on the first few types and
given per type (and extrapolated to 1,000, clearly marked as such).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, List

from common import (Report, Row, check, random_records, run_process, sarek_command, seconds,
                    write_json_schema)

TOOLCHAINS = ("cffi", "gcc-m32", "pocl")


def _available() -> Dict[str, str]:
    """Toolchain name -> why it is missing ('' when installed)."""
    from sarek_layout.verify.toolchains import TOOLCHAINS as REGISTRY

    return {n: (REGISTRY[n].unavailable_reason or "") for n in TOOLCHAINS}


def _verify_cli(schema: Path, toolchain: str, repeat: int, tmp: Path) -> float:
    argv = [*sarek_command(), "verify", str(schema), "--toolchain", toolchain]
    times: List[float] = []
    for i in range(repeat):
        env = dict(os.environ)
        cache = tmp / f"pocl-cache-{toolchain}-{schema.stem}-{i}"
        cache.mkdir()
        env["POCL_CACHE_DIR"] = str(cache)
        times.append(check(run_process(argv, env=env), argv).seconds)
    return statistics.median(times)


def _per_type_c(schema: Path, toolchain: str, count: int) -> float:
    """Seconds per type when each type is verified on its own (one compiler call each)."""
    from sarek_layout.resolve import load_schema
    from sarek_layout.verify import verify_schema

    loaded = load_schema([str(schema)])
    start = time.perf_counter()
    for t in loaded.types[:count]:
        report = verify_schema(loaded, toolchains=[toolchain], types=[t])
        if not report.ok:
            raise RuntimeError(report.format())
    return (time.perf_counter() - start) / count


def _per_type_pyopencl(records, count: int, tmp: Path) -> float:
    """Seconds per type with ``match_dtype_to_c_struct`` (one program build per struct)."""
    os.environ["POCL_CACHE_DIR"] = str(tmp / "pocl-cache-match")
    os.makedirs(os.environ["POCL_CACHE_DIR"], exist_ok=True)
    import numpy as np
    import pyopencl as cl
    from pyopencl.tools import match_dtype_to_c_struct

    ctx = cl.Context(dev_type=cl.device_type.ALL)
    device = ctx.devices[0]
    formats = {"int32": np.int32, "int64": np.int64, "float32": np.float32,
               "float64": np.float64, "bool": np.int32}
    dtypes = [(name, np.dtype([(f, formats[t]) for f, t in fields], align=True))
              for name, fields in records[:count]]
    start = time.perf_counter()
    for name, dtype in dtypes:
        match_dtype_to_c_struct(device, name, dtype, ctx)
    return (time.perf_counter() - start) / count


def batching(report: Report, sizes, repeat: int, per_type_count: int) -> None:
    missing = _available()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-verify-") as tmp:
        tmp_path = Path(tmp)
        schemas = {n: write_json_schema(random_records(n), tmp_path / f"verify{n}.json")
                   for n in sizes}
        for tc in TOOLCHAINS:
            if missing[tc]:
                report.skip(f"verify --toolchain {tc}", missing[tc])
                continue
            times = {n: _verify_cli(schemas[n], tc, repeat, tmp_path) for n in sizes}
            small, large = min(sizes), max(sizes)
            for n in sizes:
                report.add(Row("4. verify", f"verify --toolchain {tc}, {n:,} types",
                               seconds(times[n])))
            ratio = times[large] / times[small]
            report.add(Row("4. verify", f"  {tc}: {large:,} types / {small} types",
                           f"{ratio:.2f}", "", ratio, "<= 3.0", ratio <= 3.0))
            try:
                if tc == "pocl":
                    per = _per_type_pyopencl(random_records(per_type_count), per_type_count,
                                             tmp_path)
                    how = "match_dtype_to_c_struct"
                else:
                    per = _per_type_c(schemas[min(sizes)], tc, per_type_count)
                    how = "one verify per type"
            except ImportError as e:
                report.skip(f"{tc} per-type baseline", f"{e} (pip install pyopencl numpy)")
                continue
            report.add(Row("4. verify", f"  {tc}: {how}, {large:,} types (extrapolated)",
                           seconds(per * large), f"batched {seconds(times[large])}",
                           times[large] / (per * large),
                           note=f"{seconds(per)} per type, timed on {per_type_count} types"))


def _row_seconds(out: str) -> List[float]:
    """The time column of a verify table (the toolchains that ran)."""
    import re

    return [float(m) for m in re.findall(r"(?m)^\S+\s+\S+\s+(\d+\.\d+)s  ", out)]


def parallel(report: Report, repeat: int) -> None:
    """``verify`` of the example with every installed toolchain: ``-j 1`` (one after another)
    against the default (the cores), interleaved; the target is the slowest toolchain + 1 s."""
    from common import ROOT

    example = str(ROOT / "examples" / "geometry.toml")
    base = [*sarek_command(), "verify", example]
    sequential: List[float] = []
    side_by_side: List[float] = []
    slowest: List[float] = []
    ran = 0
    with tempfile.TemporaryDirectory(prefix="sarek-bench-verify-j-") as tmp:
        for i in range(repeat):
            for jobs, times in (("1", sequential), (None, side_by_side)):
                env = dict(os.environ, POCL_CACHE_DIR=str(Path(tmp) / f"pocl-{i}-{jobs}"))
                argv = base + (["-j", jobs] if jobs else [])
                start = time.perf_counter()
                run = subprocess.run(argv, env=env, capture_output=True, text=True)
                times.append(time.perf_counter() - start)
                if run.returncode != 0:
                    raise RuntimeError(f"{' '.join(argv)} exited {run.returncode}:\n{run.stderr}")
                if jobs:
                    rows = _row_seconds(run.stdout)
                    ran = len(rows)
                    slowest.append(max(rows, default=0.0))
    seq, par, slow = (statistics.median(x) for x in (sequential, side_by_side, slowest))
    from sarek_layout.verify.schedule import default_workers

    report.add(Row("4. verify", f"verify the example, {ran} toolchains, -j 1", seconds(seq),
                   note=f"median of {repeat}"))
    report.add(Row("4. verify", f"verify the example, {ran} toolchains, default -j "
                   f"({default_workers()} cores) vs -j 1", seconds(par), f"-j 1 {seconds(seq)}",
                   ratio=par / seq, note=f"median of {repeat}"))
    report.add(Row("4. verify", "verify the example, default -j, vs the slowest toolchain + 1 s",
                   seconds(par), f"{seconds(slow + 1.0)}", ratio=par / (slow + 1.0),
                   target="<= 1.0", met=par <= slow + 1.0,
                   note=f"slowest toolchain's own time {seconds(slow)} (its row, -j 1)"))
