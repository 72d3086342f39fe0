"""Sections 1 and 3a: layout throughput of the Python API against numpy and ctypes, and its
scaling in N (CPU time).

The same N flat records of 8 random scalar fields are laid out three ways, each from inputs
built beforehand so that only the layout is timed:

* ``sarek_layout.record_layout(name, fields)`` with the elttype values;
* ``numpy.dtype([(name, format), ...], align=True)`` (C struct rules, like ours);
* a ``ctypes.Structure`` subclass with ``_fields_`` (the class creation computes the layout).
"""

from __future__ import annotations

import ctypes
import gc
import importlib.util
from typing import Callable, List

from common import Report, Row, cpu_seconds, median_time, random_records, seconds

_NUMPY = {"int32": "<i4", "int64": "<i8", "float32": "<f4", "float64": "<f8", "bool": "<i4"}
_CTYPES = {"int32": ctypes.c_int32, "int64": ctypes.c_int64, "float32": ctypes.c_float,
           "float64": ctypes.c_double, "bool": ctypes.c_int32}


def project_layout(records) -> Callable[[], object]:
    import sarek_layout as sl

    scalar = {"int32": sl.TInt32, "int64": sl.TInt64, "float32": sl.TFloat32,
              "float64": sl.TFloat64, "bool": sl.TBool}
    inputs = [(name, [(f, scalar[t]) for f, t in fields]) for name, fields in records]
    record_layout = sl.record_layout

    def run() -> List[object]:
        return [record_layout(name, fields) for name, fields in inputs]

    return run


def numpy_layout(records) -> Callable[[], object]:
    import numpy as np

    inputs = [[(f, _NUMPY[t]) for f, t in fields] for _, fields in records]
    dtype = np.dtype

    def run() -> List[object]:
        return [dtype(fields, align=True) for fields in inputs]

    return run


def ctypes_layout(records) -> Callable[[], object]:
    inputs = [(name, [(f, _CTYPES[t]) for f, t in fields]) for name, fields in records]
    base = (ctypes.Structure,)

    def run() -> List[object]:
        return [type(name, base, {"_fields_": fields}) for name, fields in inputs]

    return run


def _time(make: Callable, records, repeat: int) -> float:
    fn = make(records)
    fn()  # warm: imports and first-use caches are not what is measured
    gc.collect()
    return median_time(fn, repeat)


def _cross_check(records) -> None:
    """Sizes must agree before any speed is worth comparing."""
    import numpy as np

    ours = project_layout(records[:200])()
    theirs = numpy_layout(records[:200])()
    for layout, dt in zip(ours, theirs):
        offsets = [off for _, off in layout.fields]
        if layout.size != dt.itemsize or offsets != [dt.fields[n][1] for n in dt.names]:
            raise RuntimeError("sarek-layout and numpy disagree on a layout; benchmark aborted")
    del np


def throughput(report: Report, n: int, repeat: int) -> None:
    if importlib.util.find_spec("numpy") is None:
        report.skip("layout throughput", "numpy is not installed (pip install numpy)")
        return
    records = random_records(n)
    _cross_check(records)
    t = {"project": [], "numpy": [], "ctypes": []}
    # Interleaved rounds: each round times all three, so noise hits them alike.
    for _ in range(repeat):
        t["project"].append(_time(project_layout, records, 1))
        t["numpy"].append(_time(numpy_layout, records, 1))
        t["ctypes"].append(_time(ctypes_layout, records, 1))
    med = {k: sorted(v)[len(v) // 2] for k, v in t.items()}
    per = f"{n:,} records"
    report.add(Row("1. layout", f"record_layout, {per} (vs numpy align=True)",
                   seconds(med["project"]), f"numpy {seconds(med['numpy'])}",
                   med["project"] / med["numpy"], "<= 1.5", med["project"] <= 1.5 * med["numpy"]))
    report.add(Row("1. layout", f"record_layout, {per} (vs ctypes.Structure)",
                   seconds(med["project"]), f"ctypes {seconds(med['ctypes'])}",
                   med["project"] / med["ctypes"]))


def _best_cpu(fn: Callable[[], object], paused: bool) -> float:
    """CPU seconds of one ``fn()`` from a collected heap, the collector on (the Python API
    as a program calls it) or ``paused`` (as the command line runs)."""
    gc.collect()
    enabled = gc.isenabled()
    if paused:
        gc.disable()
    start = cpu_seconds()
    result = fn()
    took = cpu_seconds() - start
    if enabled:
        gc.enable()
    del result
    return took


def scaling(report: Report, sizes, repeat: int) -> None:
    """``record_layout`` of N records: CPU time, best of ``repeat``, the sizes interleaved
    (wall-time medians on this shared machine gave 6.34 for 50k / 10k where CPU time gives
    about 5.2, collector on or paused alike: bench/ANALYSIS.md)."""
    runs = {n: project_layout(random_records(n)) for n in sizes}
    for fn in runs.values():
        fn()  # warm: imports and first-use caches are not what is measured
    best = {(n, paused): float("inf") for n in sizes for paused in (False, True)}
    for _ in range(repeat):
        for (n, paused) in best:
            best[n, paused] = min(best[n, paused], _best_cpu(runs[n], paused))
    for n in sizes:
        took = best[n, False]
        report.add(Row("3. scaling", f"record_layout, {n:,} records", seconds(took),
                       note=f"{took / n * 1e6:.1f} us per record, CPU, best of {repeat}"))
    if 10_000 in sizes and 50_000 in sizes:
        ratio = best[50_000, False] / best[10_000, False]
        paused = best[50_000, True] / best[10_000, True]
        report.add(Row("3. scaling", "layout: time(50k) / time(10k) (linear = 5)",
                       f"{ratio:.2f}", "", ratio, "<= 5.5", ratio <= 5.5,
                       note=f"collector on (the API); paused as the command line does: "
                            f"{paused:.2f}"))
