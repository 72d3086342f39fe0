"""Section 5: what a build pays on every run when nothing changed.

* ``sarek-layout --version`` against ``python -c pass`` with the same interpreter (the one
  the console script runs): the cost of starting the tool at all.
* a no-op ``generate`` of the example schema (all three targets, every header already up
  to date, so nothing is written).
* ``make`` with nothing to do in a small project wired as ``docs/build-integration.md``
  says (grouped target + ``--depfile``), and ``make`` after the schema was touched without
  changing it (the generator runs, rewrites nothing, nothing is recompiled).

Every command runs as an installed copy runs: with its bytecode. A source checkout run with
``PYTHONDONTWRITEBYTECODE=1`` (CI images, sandboxes) has no ``__pycache__`` and compiles every
module from source at every start (~30 ms of a no-op ``generate``), which no user of a wheel
pays. So the children get a temporary ``PYTHONPYCACHEPREFIX`` (nothing is written into the
checkout), the package is byte-compiled into it (as an installer does) and each command runs
once before it is timed (the standard library's and jinja2's bytecode, which an installed
Python has). The CPU time of the runs (user + system, best of the repeats) is noted next to
the wall-clock medians: on a shared machine the wall clock mostly measures the other load.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

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


def _python_of(sarek: Sequence[str]) -> str:
    """The console script's own interpreter, read from its #! line (same site, same .pth)."""
    if len(sarek) == 1:
        first = Path(sarek[0]).read_text(errors="replace").splitlines()[0]
        if first.startswith("#!"):
            return first[2:].strip().split()[0]
    return sys.executable


@contextlib.contextmanager
def _with_bytecode(python: str) -> Iterator[Dict[str, str]]:
    """The environment of a child that runs with bytecode, as an installed copy does (see the
    module's docstring), in a temporary pycache prefix: the checkout is left untouched."""
    with tempfile.TemporaryDirectory(prefix="sarek-bench-pyc-") as prefix:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=prefix)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([python, "-m", "compileall", "-q", str(ROOT / "sarek_layout")], env=env,
                       check=True, stdout=subprocess.DEVNULL)
        yield env


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _timed(argv: Sequence[str], cwd=None, env=None) -> Tuple[float, float]:
    """Wall and CPU seconds (user + system, its children included) of one run of ``argv``."""
    cpu = _children_cpu()
    wall = check(run_process(argv, cwd=cwd, env=env), argv).seconds
    return wall, _children_cpu() - cpu


def _medians(commands: Dict[str, Sequence[str]], repeat: int, cwd=None,
             env: Optional[Dict[str, str]] = None) -> Dict[str, Tuple[float, float]]:
    """Per command: (median wall, best CPU) of ``repeat`` runs, interleaved, after one
    untimed run each (it writes the bytecode of what the command imports)."""
    for argv in commands.values():
        check(run_process(argv, cwd=cwd, env=env), argv)
    times: Dict[str, List[Tuple[float, float]]] = {k: [] for k in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            times[name].append(_timed(argv, cwd, env))
    return {k: (statistics.median(w for w, _ in v), min(c for _, c in v))
            for k, v in times.items()}


def _note(repeat: int, cpu: float) -> str:
    return f"median of {repeat}, with bytecode; CPU {seconds(cpu)} (best)"


def startup(report: Report, repeat: int) -> None:
    sarek = sarek_command()
    python = _python_of(sarek)
    with _with_bytecode(python) as env:
        t = _medians({"version": [*sarek, "--version"], "pass": [python, "-c", "pass"]}, repeat,
                     env=env)
    (version, version_cpu), (python_wall, python_cpu) = t["version"], t["pass"]
    ratio = version / python_wall
    report.add(Row("5. build loop", "sarek-layout --version (vs python -c pass)",
                   seconds(version), f"python {seconds(python_wall)}", ratio, "<= 1.5",
                   ratio <= 1.5,
                   note=f"{_note(repeat, version_cpu)}, python -c pass {seconds(python_cpu)}"))


def noop_generate(report: Report, repeat: int) -> None:
    sarek = sarek_command()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-noop-") as tmp, \
            _with_bytecode(_python_of(sarek)) as env:
        argv = [*sarek, "generate", str(EXAMPLE), "-o", tmp]
        check(run_process(argv, env=env), argv)
        before = {p.name: p.stat().st_mtime_ns for p in Path(tmp).iterdir()}
        t, cpu = _medians({"noop": argv}, repeat, env=env)["noop"]
        after = {p.name: p.stat().st_mtime_ns for p in Path(tmp).iterdir()}
        if before != after:
            raise RuntimeError("a no-op generate rewrote a header")
    # 150 ms since issue 31: Jinja compiles the C, CUDA and OpenCL templates at each start (no
    # compiled templates in the source tree, nothing compiled read back from a file), ~60 ms.
    report.add(Row("5. build loop", "no-op generate, examples/geometry.toml (3 targets)",
                   seconds(t), "", None, "<= 150 ms", t <= 0.150, note=_note(repeat, cpu)))


def make_noop(report: Report, repeat: int) -> None:
    make, cc = which("make"), which("cc") or which("gcc")
    if not make or not cc:
        report.skip("make with nothing to do", "make or a C compiler is not installed "
                    "(apt-get install -y make gcc)")
        return
    sarek = sarek_command()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-make-") as tmp, \
            _with_bytecode(_python_of(sarek)) as env:
        project = Path(tmp)
        shutil.copy(EXAMPLE, project / "geometry.toml")
        (project / "app.c").write_text(_APP)
        (project / "Makefile").write_text(_MAKEFILE.format(sarek=" ".join(sarek)))
        argv = [make, "-s", "--no-print-directory"]
        check(run_process(argv, cwd=tmp, env=env), argv)  # first build: generate, compile, link
        t_noop, cpu_noop = _medians({"make": argv}, repeat, cwd=tmp, env=env)["make"]
        # Touch the schema without changing it: the generator reruns and writes nothing.
        times = []
        for _ in range(repeat):
            now = time.time() + 1
            os.utime(project / "geometry.toml", (now, now))
            times.append(_timed(argv, tmp, env))
        app_o = (project / "app.o").stat().st_mtime_ns
        if (project / "gen" / "geometry.h").stat().st_mtime_ns > app_o:
            raise RuntimeError("a no-op generate under make rewrote geometry.h")
    report.add(Row("5. build loop", "make, nothing to do (example project)", seconds(t_noop),
                   note=_note(repeat, cpu_noop)))
    report.add(Row("5. build loop", "make after touching the schema (generator reruns)",
                   seconds(statistics.median(w for w, _ in times)), "", None, "",
                   note=f"headers unchanged, nothing recompiled; "
                        f"{_note(repeat, min(c for _, c in times))}"))
