"""Helpers for the verify tests: schemas from shape descriptions, data paths, the CLI.

Descriptions are ``tests/helpers/shapes.py``'s plain tuples; ``schema_of`` writes them as a JSON
schema and loads it through the real front end, so the layout comes from the layout core.
"""

from __future__ import annotations

import json
import os
import pathlib
from typing import Iterable, List, Sequence

from sarek_layout.resolve import load_schema
from sarek_layout.ir.schema import Schema
from sarek_layout.verify.toolchains import TOOLCHAINS

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "verify"
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"

#: Every toolchain of the C-family header targets (the ones --header takes), in registry
#: order: taken from the registry, so a new toolchain is tested without touching this list.
ALL_TOOLCHAINS = [t.name for t in TOOLCHAINS.values() if t.target in ("c", "cuda", "opencl")]

#: Fast enough for the whole conformance enumeration (about 30 s each for 573,772 values).
FULL_CONFORMANCE = ["gcc", "g++", "clang", "gcc-m32", "cffi"]


def schema_json(descs: Iterable[tuple], module: str = "Conf") -> dict:
    types: List[dict] = []
    for kind, name, members in descs:
        if kind == "record":
            types.append({"record": name, "fields": [[f, t] for f, t in members]})
        else:
            types.append({"variant": name, "constructors": [[c, list(a)] for c, a in members]})
    return {"module": module, "types": types}


def schema_of(descs: Iterable[tuple], folder: pathlib.Path, stem: str = "conf",
              module: str = "Conf") -> Schema:
    """Write ``descs`` as ``folder/<stem>.json`` and load it as a resolved schema."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(schema_json(descs, module)))
    return load_schema([str(path)])


def every_nth(items: Sequence, n: int) -> list:
    """A deterministic subset: items 0, n, 2n, …"""
    return list(items[::n])


#: ``SAREK_EXHAUSTIVE=1`` (``.ci/run`` sets it): the exhaustive enumerations run whole. Without
#: it (``make test``), each runs a fixed sample: the first part of one split in parts
#: (``conftest.py``), every ``sampled``-th item of one that is a single test.
EXHAUSTIVE = os.environ.get("SAREK_EXHAUSTIVE") == "1"


def sampled(items: Sequence, n: int) -> list:
    """``items`` whole under ``SAREK_EXHAUSTIVE=1``, else every ``n``-th of them."""
    return list(items) if EXHAUSTIVE else every_nth(items, n)


# --- running verify on hostile headers --------------------------------------------------------

#: Toolchains of each header target, in registry order.
BY_TARGET = {target: [n for n in ALL_TOOLCHAINS if TOOLCHAINS[n].target == target]
             for target in ("c", "cuda", "opencl")}
SUFFIX = {"c": ".h", "cuda": ".cuh", "opencl": ".clh"}


def files_under(folder: pathlib.Path) -> dict:
    """``{relative path: bytes}`` of every file below ``folder`` (links not followed)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink() or not p.is_file():
            out[str(p.relative_to(folder))] = None
        else:
            out[str(p.relative_to(folder))] = p.read_bytes()
    return out


def run_verify(args: Sequence[str], cwd: pathlib.Path, *, timeout: float = 300,
               env: dict = None, memory_bytes: int = 8 << 30):
    """``python -m sarek_layout verify ARGS`` in ``cwd``, as a person would run it.

    Hostile headers need bounds on the test too: ``timeout`` CPU seconds for verify and for
    each compiler it runs (``ulimit -t``: other work on the machine does not count), a
    wall-clock hang guard of ``HANG_FACTOR`` times that (a hang fails the test instead of
    stalling the suite; ``tests/helpers/bounded.py``), and an address-space cap on the whole run.
    ``TMPDIR`` is a fresh folder, checked to be empty afterwards by ``Verified.tmp_left``.
    Returns a ``Verified``.
    """
    import os
    import signal
    import subprocess
    import sys

    tmp = cwd.parent / (cwd.name + "-tmpdir")
    tmp.mkdir(exist_ok=True)
    import sarek_layout

    # The same copy of the package the tests import (a checkout of older code, too).
    package_parent = pathlib.Path(sarek_layout.__file__).resolve().parent.parent
    path = os.pathsep.join(p for p in [str(package_parent), os.environ.get("PYTHONPATH")] if p)
    full_env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=path)
    full_env.pop("POCL_CACHE_DIR", None)
    full_env.update(env or {})

    from helpers.bounded import HANG_FACTOR, cpu_seconds_of_children

    # The caps through the shell: preexec_fn is unsafe in a process that may hold threads.
    cpu = max(1, int(timeout))
    argv = ["/bin/sh", "-c", 'ulimit -v "$0" && ulimit -t "$1" && shift && exec "$@"',
            str(memory_bytes >> 10), str(cpu), sys.executable, "-m", "sarek_layout", "verify",
            *args]
    before = cpu_seconds_of_children()
    proc = subprocess.Popen(argv, cwd=cwd, env=full_env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace",
                            start_new_session=True)
    guard = HANG_FACTOR * cpu
    try:
        out, err = proc.communicate(timeout=guard)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # verify and every compiler it started
        out, err = proc.communicate()
        raise AssertionError(f"hang guard: verify {' '.join(args)} still ran after {guard} s of "
                             f"wall-clock time (it waits on something; not a measure of speed):"
                             f"\n{out}\n{err}")
    if proc.returncode == -signal.SIGXCPU:
        used = cpu_seconds_of_children() - before
        raise AssertionError(f"verify {' '.join(args)} used more than {cpu} s of CPU time "
                             f"({used:.1f} s measured):\n{out}\n{err}")
    return Verified(proc.returncode, out, err, sorted(os.listdir(tmp)))


class Verified:
    def __init__(self, status: int, out: str, err: str, tmp_left: list) -> None:
        self.status, self.out, self.err, self.tmp_left = status, out, err, tmp_left

    def row(self, name: str) -> str:
        return next(ln for ln in self.out.splitlines() if ln.split()[:1] == [name])

    def __repr__(self) -> str:
        return f"exit {self.status}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"

    def one_line_error(self) -> str:
        """The single stderr line of an error exit (asserting it is one line, no traceback)."""
        lines = self.err.splitlines()
        assert len(lines) == 1 and "Traceback" not in self.err, repr(self)
        return lines[0]
