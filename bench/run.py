#!/usr/bin/env python3
"""The benchmark suite (``make bench``): run every section, print a table, write the report.

    python bench/run.py [--quick] [--only SECTION]... [--no-write] [--output FILE]

Sections: ``layout`` (1), ``generate`` (2), ``scaling`` (3), ``verify`` (4), ``buildloop`` (5),
``explain`` (6), ``nesting`` (7), ``suite`` (8: ``make test`` itself, several minutes; not in
``--quick``), ``dimensions`` (9: time(5N) / time(N) of every command in every dimension of
its input: types, fields, files, constructors, arguments, nesting depth).
Each comparison is a ratio of two numbers measured in this run, interleaved, medians of
repeats (the machines are shared and noisy). What is not installed is skipped with the
line that installs it. ``--quick`` uses smaller sizes and fewer repeats (a smoke run; its
numbers are not the ones to publish, and it writes nothing unless ``--output`` is given).

Nothing here asserts a time: ``make test`` never depends on wall time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ROOT, Report, machine_description  # noqa: E402

SECTIONS = ("layout", "generate", "scaling", "verify", "buildloop", "explain", "nesting",
            "dimensions", "rustc", "suite")

HEADER = (f"  {'measurement':<52} {'sarek-layout':>18} {'baseline':>22} {'ratio':>7} "
          f"{'target':>10} {'':>8}")

#: Findings that do not change from run to run: where the time goes and what was done.
ANALYSIS = ROOT / "bench" / "ANALYSIS.md"


def run(args: argparse.Namespace) -> Report:
    report = Report()
    quick = args.quick
    only = set(args.only or (s for s in SECTIONS if not (quick and s == "suite")))
    print(HEADER)
    if "layout" in only:
        import bench_layout

        bench_layout.throughput(report, 2_000 if quick else 10_000, 3 if quick else 7)
    if "generate" in only:
        import bench_generate

        bench_generate.against_flatc(report, 2_000 if quick else 10_000, 2 if quick else 5)
    if "scaling" in only:
        import bench_generate
        import bench_layout

        sizes = (1_000, 2_000) if quick else (1_000, 10_000, 20_000, 50_000)
        bench_layout.scaling(report, sizes, 3 if quick else 5)
        bench_generate.scaling(report, sizes, 1 if quick else 3)
    if "verify" in only:
        import bench_verify

        sizes = (10, 100) if quick else (10, 100, 1_000)
        bench_verify.batching(report, sizes, 1 if quick else 3, 3 if quick else 10)
        bench_verify.parallel(report, 3 if quick else 7)
    if "buildloop" in only:
        import bench_buildloop

        reps = 5 if quick else 30
        bench_buildloop.startup(report, reps)
        bench_buildloop.noop_generate(report, 5 if quick else 15)
        bench_buildloop.make_noop(report, 3 if quick else 10)
    if "explain" in only:
        import bench_explain

        bench_explain.wide_records(report, (120, 480) if quick else (120, 480, 2_000), 1 if quick else 3)
    if "nesting" in only:
        import bench_nesting

        bench_nesting.doubling(report, 1 if quick else 3)
    if "dimensions" in only:
        import bench_dimensions

        bench_dimensions.dimensions(report, 2 if quick else 3, scale=0.2 if quick else 1.0)
        bench_dimensions.suggest_scaling(report, 1 if quick else 3, 1_600 if quick else 8_000)
    if "rustc" in only:
        import bench_rustc

        bench_rustc.scaling(report)
    if "suite" in only:
        import bench_suite

        bench_suite.make_test(report)
    return report


def markdown(report: Report, machine, elapsed: float, argv) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`python bench/run.py`); do not edit by hand. Every ratio",
        "compares two numbers measured in the same run, interleaved, as medians of repeats:",
        "these machines are shared and noisy, so read ratios, not absolute times.",
        "`make test` never depends on wall time.",
        "",
        "## Machine",
        "",
    ]
    lines += [f"- **{k}**: {v}" for k, v in machine.items()]
    lines += [f"- **command**: `{' '.join(argv)}` ({elapsed:.0f} s)", "", "## Results", "",
              "| section | measurement | sarek-layout | baseline | ratio | target | met | note |",
              "|---|---|---|---|---|---|---|---|"]
    for r in report.rows:
        ratio = f"{r.ratio:.2f}" if r.ratio is not None else ""
        met = {True: "yes", False: "**no**", None: ""}[r.met]
        lines.append(f"| {r.section} | {r.what.strip()} | {r.value} | {r.baseline} | {ratio} | "
                     f"{r.target} | {met} | {r.note} |")
    if report.skipped:
        lines += ["", "## Skipped", ""]
        lines += [f"- {section}: {reason}" for section, reason in report.skipped]
    if ANALYSIS.is_file():
        lines += ["", ANALYSIS.read_text().rstrip()]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    parser.add_argument("--only", action="append", choices=SECTIONS, help="run only SECTION")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--output", default=None,
                        help="report file (default docs/benchmarks.md for a full run)")
    args = parser.parse_args()
    machine = machine_description()
    for k, v in machine.items():
        print(f"{k:>15}: {v}")
    start = time.perf_counter()
    report = run(args)
    elapsed = time.perf_counter() - start
    output = args.output or (None if (args.quick or args.only) else str(ROOT / "docs" / "benchmarks.md"))
    if output and not args.no_write:
        Path(output).write_text(markdown(report, machine, elapsed, ["python", "bench/run.py", *sys.argv[1:]]))
        print(f"\nwrote {output}")
    not_met = [r for r in report.rows if r.met is False]
    print(f"\n{len(report.rows)} measurements, {len(not_met)} targets not met, "
          f"{len(report.skipped)} skipped ({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
