"""Section 7: 22 levels of doubling nesting, end to end, in time and memory.

``t0 = {a: float32; b: float64}``, ``tK = {a: t(K-1); b: t(K-1)}`` for K up to 21, and a
variant over ``t21``: 22 levels of a record made of two copies of the previous one, so the
last record has 2^21 scalar leaves (the schema of ``tests/hostile/test_bounded_work.py``, where the
same commands run under a time and address-space limit; the speed itself is measured here).
Each command runs as a user runs it, through the console script, with its own peak RSS.
Target (issue 13): each under 1 s and 200 MB.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from common import Report, Row, check, megabytes, run_process, sarek_command, seconds

LEVELS = 22
TARGETS = ("c", "cuda", "opencl", "python", "glsl", "wgsl", "metal")


def doubling_toml(levels: int = LEVELS) -> str:
    lines = ['module = "Deep"', "", "[[types]]", 'record = "t0"',
             'fields = [["a", "float32"], ["b", "float64"]]']
    for k in range(1, levels):
        lines += ["", "[[types]]", f'record = "t{k}"',
                  f'fields = [["a", "t{k - 1}"], ["b", "t{k - 1}"]]']
    lines += ["", "[[types]]", 'variant = "v"',
              f'constructors = [["A", ["t{levels - 1}"]], ["B", ["t{levels - 1}", "int32"]], ["C"]]']
    return "\n".join(lines) + "\n"


def doubling(report: Report, repeat: int) -> None:
    sarek = sarek_command()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-nesting-") as tmp:
        schema = Path(tmp) / "deep.toml"
        schema.write_text(doubling_toml())
        targets = [arg for t in TARGETS for arg in ("-t", t)]
        commands = {
            "layout": ["layout", str(schema)],
            "layout --json --no-leaves": ["layout", "--json", "--no-leaves", str(schema)],
            f"generate (all {len(TARGETS)} targets)": ["generate", str(schema), "-o",
                                                     str(Path(tmp) / "out"), *targets],
            "explain": ["explain", str(schema)],
        }
        for label, args in commands.items():
            argv = [*sarek, *args]
            runs = [check(run_process(argv), argv) for _ in range(repeat)]
            took = statistics.median(r.seconds for r in runs)
            peak = max(r.peak_kib for r in runs)
            met = took < 1.0 and peak < 200 * 1024
            report.add(Row("7. nesting", f"{label}, {LEVELS} doubling levels", seconds(took),
                           megabytes(peak), None, "< 1 s, < 200 MB", met,
                           note=f"median of {repeat}; baseline column: peak memory"))
