"""Section 9: every command linear in every dimension of its input (issue 24).

One schema family per dimension, grown from N to 5N with everything else fixed:

* **types**: N records of four fields in one file;
* **fields**: one record of N fields (every scalar: 1-, 2-, 4- and 8-byte members);
* **files**: N schema files of one record each;
* **constructors**: one variant of N constructors of one argument each;
* **arguments**: one variant of two constructors of N arguments each;
* **depth**: N records, each nesting the one before (nesting depth N).

For each: ``layout``, ``explain`` (``--suggest`` on the fields dimension), ``generate -t c``,
``verify``'s own part without a compiler (headers rendered, probes listed, the header's
structure checked: what it does before and after a compiler runs), ``import-c`` of the
generated header and ``diff`` against a copy with one field added at the end. Each is run in
a fresh process, timed from after the interpreter's start, median of repeats, with the time of
the same command on N = 1 taken off (so it hides no slope), and the row gives time(5N) / time(N): linear is 5, the target <= 5.5
(quadratic would be 25).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

from common import Report, Row, seconds

#: Every scalar of Sarek's table in a mix (bool and unit are 4 bytes there).
_SCALARS = ("int32", "float32", "bool", "int64", "float64", "float16", "uint8")

Files = Dict[str, dict]


def _record(name: str, fields: Sequence[Tuple[str, str]]) -> dict:
    return {"record": name, "fields": [list(f) for f in fields]}


def types_schema(n: int) -> Files:
    rnd = random.Random(1)
    return {"types.json": {"module": "Many", "types": [
        _record(f"r{i}", [(f"f{j}", rnd.choice(_SCALARS)) for j in range(4)]) for i in range(n)]}}


def fields_schema(n: int) -> Files:
    rnd = random.Random(2)
    return {"wide.json": {"module": "Wide", "types": [
        _record("wide", [(f"f{j}", rnd.choice(_SCALARS)) for j in range(n)])]}}


def files_schema(n: int) -> Files:
    rnd = random.Random(3)
    return {f"m{i}.json": {"module": f"M{i}", "types": [
        _record(f"r{i}", [(f"f{j}", rnd.choice(_SCALARS)) for j in range(4)])]}
        for i in range(n)}


def constructors_schema(n: int) -> Files:
    rnd = random.Random(4)
    return {"ctors.json": {"module": "Ctors", "types": [{"variant": "v", "constructors": [
        [f"C{i}", [rnd.choice(_SCALARS)]] for i in range(n)]}]}}


def arguments_schema(n: int) -> Files:
    rnd = random.Random(5)
    return {"args.json": {"module": "Args", "types": [{"variant": "v", "constructors": [
        [f"C{c}", [rnd.choice(_SCALARS) for _ in range(n)]] for c in range(2)]}]}}


def depth_schema(n: int) -> Files:
    types = [_record("d0", [("x", "float32"), ("y", "int64")])]
    types += [_record(f"d{i}", [("inner", f"d{i - 1}"), ("tag", "uint8")]) for i in range(1, n)]
    return {"deep.json": {"module": "Deep", "types": types}}


#: Dimension -> (schema family, N). N is chosen so that a run at 5N takes about a second.
DIMENSIONS: Dict[str, Tuple[Callable[[int], Files], int]] = {
    "types": (types_schema, 1_000),
    "fields per record": (fields_schema, 2_000),
    "files": (files_schema, 100),
    "constructors": (constructors_schema, 500),
    "arguments per constructor": (arguments_schema, 500),
    # Types may nest at most 100 levels deep (SPEC): 20 and 100.
    "nesting depth": (depth_schema, 20),
}


def _one_field_more(files: Files) -> Files:
    """The same schemas with an ``int32`` added at the end of the first record (or a
    constructor at the end of the first variant): a change ``diff`` has to find."""
    changed = json.loads(json.dumps(files))
    for content in changed.values():
        for t in content["types"]:
            if "record" in t:
                t["fields"].append(["added", "int32"])
                return changed
            t["constructors"].append(["Added", ["int32"]])
            return changed
    return changed


def _write(files: Files, folder: Path) -> List[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, content in files.items():
        path = folder / name
        path.write_text(json.dumps(content))
        paths.append(str(path))
    return paths


def _cli(argv: Sequence[str]) -> None:
    """``sarek-layout ARGV`` in this process (setup steps)."""
    from sarek_layout.cli.main import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main(list(argv))
    if status not in (0, 1):  # diff exits 1 on a breaking change, explain --suggest on advice
        raise RuntimeError(f"sarek-layout {' '.join(argv[:3])}... exited {status}")


def _verify_own_part(paths: Sequence[str]) -> None:
    """What ``verify`` does besides running compilers, on the C target: render the headers,
    list the probes, check the header's structure against the schema."""
    from sarek_layout.resolve import load_schema
    from sarek_layout.verify.probes import probes_for
    from sarek_layout.verify.run import rendered_headers
    from sarek_layout.verify.structure import check_header_set

    schema = load_schema(list(paths))
    headers, _ = rendered_headers(schema, ["c"])
    probes_for(schema.types)
    check_header_set(headers["c"], list(schema.types), "c", schema.types)


#: The child of one run: the command timed from after the interpreter started (its own
#: lazy imports included, which the N = 1 run takes off), its output kept in memory.
_CHILD = """
import contextlib, gc, io, sys, time
sys.path.insert(0, {bench!r})
argv = sys.argv[1:]
sink = io.StringIO()
start = time.perf_counter()
with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
    if argv[0] == "verify-own-part":
        import bench_dimensions
        gc.disable()  # as the command line does for every command (cli/main.py)
        bench_dimensions._verify_own_part(argv[1:])
        status = 0
    else:
        from sarek_layout.cli.main import main
        status = main(argv)
took = time.perf_counter() - start
if status not in (0, 1):
    sys.exit(f"exit {{status}}: {{sink.getvalue()[-500:]}}")
print(took)
"""


def _commands(dimension: str, paths: List[str], changed: List[str], work: Path
              ) -> Dict[str, Callable[[], List[str]]]:
    """Command name -> a function giving the arguments of one run (each run its own output)."""
    header_dir = work / "headers"
    header_dir.mkdir(exist_ok=True)
    _cli(["generate", *paths, "-o", str(header_dir), "-t", "c"])  # import-c's input, untimed
    headers = sorted(str(p) for p in header_dir.glob("*.h"))
    suggest = ["--suggest"] if dimension == "fields per record" else []
    runs = iter(range(1 << 30))
    return {
        "layout": lambda: ["layout", *paths],
        " ".join(["explain", *suggest]): lambda: ["explain", *paths, *suggest],
        "generate -t c": lambda: ["generate", *paths, "-o", str(work / f"out{next(runs)}"),
                                  "-t", "c"],
        "verify (without compilers)": lambda: ["verify-own-part", *paths],
        "import-c": lambda: ["import-c", *headers, "-o", str(work / f"imported{next(runs)}")],
        "diff": lambda: ["diff", str(Path(paths[0]).parent), str(Path(changed[0]).parent)],
    }


def _median(arguments: Callable[[], List[str]], repeat: int) -> float:
    """Median over ``repeat`` fresh processes of the time the command itself took."""
    import subprocess
    import sys

    child = _CHILD.format(bench=str(Path(__file__).resolve().parent))
    times = []
    for _ in range(repeat):
        args = arguments()
        proc = subprocess.run([sys.executable, "-c", child, *args], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:3])}...: {proc.stderr[-500:]}")
        times.append(float(proc.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def dimensions(report: Report, repeat: int, scale: float = 1.0,
               only: Sequence[str] = ()) -> None:
    """Rows of time(N), time(5N) and their ratio for every dimension and command.

    Each run is a fresh process, timed from after the interpreter started (in one process,
    a heap grown by earlier runs and caches warmed by the small input's repeats made the
    ratios noise); the same command on N = 1 (its lazy imports, mostly) is taken off both
    times, so the ratio is that of the work that grows."""
    for dimension, (family, base) in DIMENSIONS.items():
        if only and dimension not in only:
            continue
        n = max(2, int(base * scale))
        times: Dict[int, Dict[str, float]] = {}
        with tempfile.TemporaryDirectory(prefix="sarek-bench-dim-") as tmp:
            for size in (1, n, 5 * n):
                files = family(size)
                work = Path(tmp) / str(size)
                paths = _write(files, work / "old")
                changed = _write(_one_field_more(files), work / "new")
                commands = _commands(dimension, paths, changed, work)
                times[size] = {name: _median(fn, repeat) for name, fn in commands.items()}
        for name in times[n]:
            start = times[1][name]
            small, large = times[n][name] - start, times[5 * n][name] - start
            ratio = large / small if small > 0 else float("inf")
            report.add(Row("9. dimensions", f"{dimension}: {name}, {5 * n:,} / {n:,}",
                           seconds(large), seconds(small), ratio, "<= 5.5", ratio <= 5.5,
                           note=f"above the start ({seconds(start)}); median of {repeat}"))


def suggest_scaling(report: Report, repeat: int, n: int = 8_000) -> None:
    """Issue 24's measure: ``explain --suggest`` of one record of N and 5N mixed 1/2/4/8-byte
    members (every scalar), the command after the interpreter's start; the target is
    5N = 40,000 fields in < 2 s."""
    times = {}
    with tempfile.TemporaryDirectory(prefix="sarek-bench-suggest-") as tmp:
        for size in (n, 5 * n):
            paths = _write(fields_schema(size), Path(tmp) / str(size))
            times[size] = _median(lambda: ["explain", *paths, "--suggest"], repeat)
    large = times[5 * n]
    report.add(Row("9. dimensions", f"explain --suggest, one record of {5 * n:,} mixed fields",
                   seconds(large), target="< 2 s", met=large < 2.0,
                   note=f"median of {repeat}, after the interpreter's start"))
    ratio = large / times[n]
    report.add(Row("9. dimensions", f"explain --suggest, {5 * n:,} / {n:,} fields",
                   f"{ratio:.2f}", seconds(times[n]), ratio, "<= 5.5", ratio <= 5.5,
                   note="linear = 5"))
