"""Section 5: what a build pays on every run when nothing changed.

* ``sarek-layout --version`` against ``python -c pass`` with the same interpreter (the one
  the console script runs): the cost of starting the tool at all.
* a no-op ``generate`` of the example schema (all three targets, every header already up
  to date, so nothing is written).
* ``make`` with nothing to do in a small project wired as ``docs/build-integration.md``
  says (grouped target + ``--depfile``), and ``make`` after the schema was touched without
  changing it (the generator runs, rewrites nothing, nothing is recompiled).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Sequence

from common import ROOT, Report, Row, check, run_process, sarek_command, seconds, which

EXAMPLE = ROOT / "examples" / "geometry.toml"

_MAKEFILE = """\
SAREK   := {sarek}
SCHEMAS := geometry.toml
GEN     := gen
HEADERS := $(GEN)/geometry.h $(GEN)/geometry.cuh $(GEN)/geometry.clh

app: app.o
\t$(CC) -o $@ $^

$(HEADERS) &:
\t$(SAREK) generate $(SCHEMAS) -o $(GEN) --depfile $(GEN)/sarek.d
-include $(GEN)/sarek.d

CFLAGS += -I$(GEN) -MMD
app.o: app.c | $(HEADERS)
-include app.d
"""

_APP = """\
#include "geometry.h"
int main(void) { Geometry_point p = {1.0f, 2.0f}; return (int)(p.x - 1.0f); }
"""


def _medians(commands: Dict[str, Sequence[str]], repeat: int, cwd=None) -> Dict[str, float]:
    times: Dict[str, List[float]] = {k: [] for k in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            times[name].append(check(run_process(argv, cwd=cwd), argv).seconds)
    return {k: statistics.median(v) for k, v in times.items()}


def startup(report: Report, repeat: int) -> None:
    sarek = sarek_command()
    # The console script's own interpreter, read from its #! line (same site, same .pth).
    python = sys.executable
    if len(sarek) == 1:
        first = Path(sarek[0]).read_text(errors="replace").splitlines()[0]
        if first.startswith("#!"):
            python = first[2:].strip().split()[0]
    t = _medians({"version": [*sarek, "--version"], "pass": [python, "-c", "pass"]}, repeat)
    ratio = t["version"] / t["pass"]
    report.add(Row("5. build loop", "sarek-layout --version (vs python -c pass)",
                   seconds(t["version"]), f"python {seconds(t['pass'])}", ratio, "<= 1.5",
                   ratio <= 1.5, note=f"median of {repeat}"))


def noop_generate(report: Report, repeat: int) -> None:
    sarek = sarek_command()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-noop-") as tmp:
        argv = [*sarek, "generate", str(EXAMPLE), "-o", tmp]
        check(run_process(argv), argv)
        before = {p.name: p.stat().st_mtime_ns for p in Path(tmp).iterdir()}
        t = _medians({"noop": argv}, repeat)["noop"]
        after = {p.name: p.stat().st_mtime_ns for p in Path(tmp).iterdir()}
        if before != after:
            raise RuntimeError("a no-op generate rewrote a header")
    report.add(Row("5. build loop", "no-op generate, examples/geometry.toml (3 targets)",
                   seconds(t), "", None, "<= 100 ms", t <= 0.100, note=f"median of {repeat}"))


def make_noop(report: Report, repeat: int) -> None:
    make, cc = which("make"), which("cc") or which("gcc")
    if not make or not cc:
        report.skip("make with nothing to do", "make or a C compiler is not installed "
                    "(apt-get install -y make gcc)")
        return
    sarek = sarek_command()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-make-") as tmp:
        project = Path(tmp)
        shutil.copy(EXAMPLE, project / "geometry.toml")
        (project / "app.c").write_text(_APP)
        (project / "Makefile").write_text(_MAKEFILE.format(sarek=" ".join(sarek)))
        argv = [make, "-s", "--no-print-directory"]
        check(run_process(argv, cwd=tmp), argv)  # first build: generate, compile, link
        t_noop = _medians({"make": argv}, repeat, cwd=tmp)["make"]
        # Touch the schema without changing it: the generator reruns and writes nothing.
        times = []
        for _ in range(repeat):
            now = time.time() + 1
            os.utime(project / "geometry.toml", (now, now))
            times.append(check(run_process(argv, cwd=tmp), argv).seconds)
        app_o = (project / "app.o").stat().st_mtime_ns
        if (project / "gen" / "geometry.h").stat().st_mtime_ns > app_o:
            raise RuntimeError("a no-op generate under make rewrote geometry.h")
    report.add(Row("5. build loop", "make, nothing to do (example project)", seconds(t_noop),
                   note=f"median of {repeat}"))
    report.add(Row("5. build loop", "make after touching the schema (generator reruns)",
                   seconds(statistics.median(times)), "", None, "",
                   note="headers unchanged, nothing recompiled"))
