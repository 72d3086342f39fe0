"""Section 9: every command linear in every dimension of its input (issue 24).

One schema family per dimension, grown from N to 5N with everything else fixed:

* **types**: N records of four fields in one file;
* **fields**: one record of N fields (every scalar: 1-, 2-, 4- and 8-byte members);
* **files**: N schema files of one record each;
* **constructors**: one variant of N constructors of one argument each;
* **arguments**: one variant of two constructors of N arguments each;
* **depth**: records each nesting the one before, nesting depth N. Types nest at most 100
  levels deep (SPEC), so depth is 20 against 100 and what grows, until the work is large
  enough to measure, is the number of such chains side by side (the same for both depths).

For each: ``layout``, ``explain`` (``--suggest`` on the fields dimension), ``generate -t c``,
``verify``'s own part without a compiler (headers rendered, probes listed, the header's
structure checked: what it does before and after a compiler runs), ``import-c`` of the
generated header and ``diff`` against a copy with one field added at the end.

How it is timed, so that noise cannot decide a ratio: each command runs **in this process**
(the command line's ``main()``, the collector paused as ``main()`` pauses it), after a
warm-up run of every command so that imports are excluded, with every memo of the package
emptied and the heap collected before each run (a fresh process starts with them empty).
The time is CPU time, this process's and its children's (``import-c`` runs ``cpp``), the
best of k runs, N = 1, N and 5N interleaved. N is grown per row until the command spends at
least the target CPU time (50 ms) above N = 1, where whole processes measured a few
milliseconds of work under 70-160 ms of interpreter start. The ratio is 5 x the time per
unit of input above N = 1 at 5N over the same at N: linear is 5 (quadratic would be 25).

How a row is judged (``scaling``): by the work done, and by CPU time against what linear
code gets. CPU time grows faster than the work once a heap five times larger no longer fits
the caches: the first row measures code linear by construction the same way (the "linear
reference", 7-8 on these machines), so a CPU ratio of 5.5 is out of reach of any linear
command here and cannot tell linear from not. The ratio column is therefore the work's: the
Python and built-in calls the command makes (cProfile), which the caches leave alone, per
unit of input (against the output's growth where the command writes more per unit at 5N),
target <= 5.5. The CPU ratio, in the note, must stay within a tenth over the reference's:
it catches work inside one built-in call, which calls do not count.
"""
from __future__ import annotations

import contextlib
import cProfile
import gc
import io
import json
import random
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

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


def depth_schema(n: int, chains: int = 1) -> Files:
    """``chains`` chains of ``n`` records, each record of a chain nesting the one before."""
    types = []
    for c in range(chains):
        types.append(_record(f"c{c}d0", [("x", "float32"), ("y", "int64")]))
        types += [_record(f"c{c}d{i}", [("inner", f"c{c}d{i - 1}"), ("tag", "uint8")])
                  for i in range(1, n)]
    return {"deep.json": {"module": "Deep", "types": types}}


#: Dimension -> schema family of (N, copies). N is grown per row from the first number
#: (doubled at least) until the row's command spends the target time on it; for nesting
#: depth N stays 20 (5N = 100, SPEC's limit) and the chains side by side grow instead.
DIMENSIONS: Dict[str, Tuple[Callable[[int, int], Files], int, bool]] = {
    "types": (lambda n, _: types_schema(n), 16, False),
    "fields per record": (lambda n, _: fields_schema(n), 64, False),
    "files": (lambda n, _: files_schema(n), 4, False),
    "constructors": (lambda n, _: constructors_schema(n), 16, False),
    "arguments per constructor": (lambda n, _: arguments_schema(n), 16, False),
    "nesting depth": (depth_schema, 20, True),
}

#: CPU seconds a row's command must spend on N (scaled by --quick).
TARGET = 0.050


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


class _Inputs:
    """One size of one dimension: the schema files, the copy with one field more, and (on
    first use) the C headers ``import-c`` reads, written once and shared by the commands."""

    def __init__(self, files: Files, work: Path) -> None:
        self.work = work
        self.paths = _write(files, work / "old")
        self.changed = _write(_one_field_more(files), work / "new")
        self._headers: Optional[List[str]] = None
        self._runs = 0
        self._outputs: List[str] = []

    def headers(self) -> List[str]:
        if self._headers is None:
            folder = self.work / "headers"
            _cli(["generate", *self.paths, "-o", str(folder), "-t", "c"])  # untimed
            self._headers = sorted(str(p) for p in folder.glob("*.h"))
        return self._headers

    def fresh(self, what: str) -> str:
        """A folder that does not exist yet, for one run's output (removed after it)."""
        self._runs += 1
        self._outputs.append(str(self.work / f"{what}{self._runs}"))
        return self._outputs[-1]

    def output_bytes(self) -> int:
        """The bytes of the files the runs so far wrote (their output folders)."""
        return sum(path.stat().st_size for folder in self._outputs
                   for path in Path(folder).rglob("*") if path.is_file())

    def clean(self) -> None:
        """Remove the runs' output folders (untimed; 5N's are megabytes)."""
        for folder in self._outputs:
            shutil.rmtree(folder, ignore_errors=True)
        self._outputs.clear()


def _commands(dimension: str) -> Dict[str, Callable[[_Inputs], List[str]]]:
    """Command name -> the arguments of one run on some inputs (each run its own output)."""
    suggest = ["--suggest"] if dimension == "fields per record" else []
    return {
        "layout": lambda i: ["layout", *i.paths],
        " ".join(["explain", *suggest]): lambda i: ["explain", *i.paths, *suggest],
        "generate -t c": lambda i: ["generate", *i.paths, "-o", i.fresh("out"), "-t", "c"],
        "verify (without compilers)": lambda i: ["verify-own-part", *i.paths],
        "import-c": lambda i: ["import-c", *i.headers(), "-o", i.fresh("imported")],
        "diff": lambda i: ["diff", str(Path(i.paths[0]).parent),
                           str(Path(i.changed[0]).parent)],
    }


def _cpu() -> float:
    """CPU seconds so far of this process and of its children that have ended (``cpp``)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


#: Memos kept in module dictionaries rather than ``functools`` caches: (module, name).
_MEMO_DICTS = (("sarek_layout.frontends.jsontoml.reader", "_PLAIN"),  # parsed type names
               ("sarek_layout.codegen.shader_views", "_CACHE"))  # shader views per schema


def _forget_memos() -> None:
    """Empty every memo of the package, as a fresh process has them: the layouts of nested
    records, the identifier checks, parsed type names, shader views (else a run would find
    the answers of the runs before it: the N = 1,600 names of one row fit a bounded memo
    that the 5N = 8,000 overflow)."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("sarek_layout"):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()
    for module_name, attribute in _MEMO_DICTS:
        module = sys.modules.get(module_name)
        if module is not None:
            getattr(module, attribute).clear()


def _time_once(arguments: Callable[[_Inputs], List[str]], inputs: _Inputs,
               profile: Optional[cProfile.Profile] = None,
               written: Optional[List[int]] = None) -> float:
    """CPU seconds of one run of the command on ``inputs`` in this process, from a clean
    slate (under ``profile``, when given, to count its calls; the bytes it printed and
    wrote appended to ``written``, when given)."""
    argv = arguments(inputs)
    _forget_memos()
    gc.collect()
    sink = io.StringIO()
    on = profile.enable if profile is not None else (lambda: None)
    off = profile.disable if profile is not None else (lambda: None)
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        if argv[0] == "verify-own-part":
            enabled = gc.isenabled()
            gc.disable()  # as the command line does for every command (cli/main.py)
            start = _cpu()
            on()
            try:
                _verify_own_part(argv[1:])
            finally:
                off()
                took = _cpu() - start
                if enabled:
                    gc.enable()
            status = 0
        else:
            from sarek_layout.cli.main import main

            start = _cpu()
            on()
            status = main(argv)
            off()
            took = _cpu() - start
    if status not in (0, 1):  # diff exits 1 on a breaking change
        raise RuntimeError(f"sarek-layout {' '.join(argv[:3])}... exited {status}: "
                           f"{sink.getvalue()[-500:]}")
    if written is not None:
        written.append(len(sink.getvalue()) + inputs.output_bytes())
    inputs.clean()
    return took


def _calls(arguments: Callable[[_Inputs], List[str]], inputs: _Inputs) -> Tuple[int, int]:
    """Python and built-in function calls of one run, a count of work that the machine's
    caches do not change (CPU time grows faster than the work once the heap outgrows them),
    and the bytes it printed and wrote."""
    profile = cProfile.Profile()
    written: List[int] = []
    _time_once(arguments, inputs, profile, written)
    return sum(entry.callcount for entry in profile.getstats()), written[0]


class _Sizes:
    """The inputs of one dimension by (N, copies), written on first use."""

    def __init__(self, family: Callable[[int, int], Files], root: Path) -> None:
        self.family, self.root, self.made = family, root, {}

    def __call__(self, n: int, copies: int = 1) -> _Inputs:
        key = (n, copies)
        if key not in self.made:
            self.made[key] = _Inputs(self.family(n, copies), self.root / f"{n}x{copies}")
        return self.made[key]


def _grown(run: Callable[[int], float], first: int, target: float, limit: int) -> int:
    """The size, from ``first`` up, at which ``run`` takes at least ``target`` seconds (a
    quarter more, once: the best of the runs that follow is below one run's time): grown at
    least twofold a step, toward the target from the last time seen."""
    target *= 1.25
    size = first
    while size < limit:
        took = run(size)
        if took >= target:
            return size
        guess = int(size * 1.3 * target / max(took, 1e-4))
        size = min(limit, max(2 * size, min(guess, 16 * size)))
    return size


def dimensions(report: Report, repeat: int, scale: float = 1.0,
               only: Sequence[str] = ()) -> None:
    """Rows of time(N), time(5N) and their ratio for every dimension and command: CPU time
    in this process, best of ``repeat``, N grown until time(N) >= ``TARGET * scale``."""
    target = TARGET * scale
    machine = _linear_reference(report, max(repeat, 5), target)
    for dimension, (family, first, grow_copies) in DIMENSIONS.items():
        if only and dimension not in only:
            continue
        commands = _commands(dimension)
        with tempfile.TemporaryDirectory(prefix="sarek-bench-dim-") as tmp:
            sizes = _Sizes(family, Path(tmp))
            for arguments in commands.values():  # warm-up: every import, every template
                _time_once(arguments, sizes(2))
            for name, arguments in commands.items():
                # Grown on the time above N = 1's, the part that grows.
                start = min(_time_once(arguments, sizes(1)) for _ in range(2))
                if grow_copies:
                    n = first
                    copies = _grown(lambda c: _time_once(arguments, sizes(n, c)) - start, 1,
                                    target, 1 << 12)
                else:
                    n = _grown(lambda m: _time_once(arguments, sizes(m)) - start, first,
                               target, 1 << 17)
                    copies = 1
                best = {1: float("inf"), n: float("inf"), 5 * n: float("inf")}
                for _ in range(repeat):  # interleaved, so a busy moment hits all three
                    for size in best:
                        inputs = sizes(size, copies if size > 1 else 1)
                        best[size] = min(best[size], _time_once(arguments, inputs))
                start = best[1]
                counted = {size: _calls(arguments, sizes(size, copies if size > 1 else 1))
                           for size in best}
                # Per unit of input above N = 1 (units: types, fields, files... of the
                # input; with chains, records), times 5: linear is 5 at any N (the
                # plain (t(5N) - t(1)) / (t(N) - t(1)) is (5N - 1) / (N - 1), 5.57 at N = 8).
                units = {size: size * copies - 1 for size in (n, 5 * n)}
                cpu, work, output = scaling(best, counted, n, units, machine)
                chains = f", {copies:,} chains" if copies > 1 else ""
                report.add(Row("9. dimensions", f"{dimension}: {name}, {5 * n:,} / {n:,}{chains}",
                               seconds(best[5 * n] - start), seconds(best[n] - start),
                               work.relative, "<= 5.5", cpu.linear and work.linear,
                               note=f"{_work_note(work.ratio, output)}; CPU x{cpu.ratio:.2f} "
                                    f"(linear code x{machine:.2f}: {cpu.relative:.2f} of 5.5), "
                                    f"best of {repeat}, above N = 1 ({seconds(start)})"))


class Growth(NamedTuple):
    """One measure's time(5N) / time(N) per unit of input (linear = 5), ``relative`` to what
    linear code gives by the same measure on this machine, and whether that is linear."""

    ratio: float
    relative: float

    @property
    def linear(self) -> bool:
        return self.relative <= 5.5


def scaling(cpu: Dict[int, float], counted: Dict[int, Tuple[int, int]], n: int,
            units: Dict[int, int], machine: float) -> Tuple[Growth, Growth, float]:
    """How a row grows, by work done and by CPU time, and how its output grows.

    Work is the judged measure: the calls the command makes, which the caches leave alone,
    per unit of input, against 5, or against the output's growth where a command writes
    more per unit of input at 5N (``explain`` opens nested records in place up to a budget
    of lines per type, so at nesting depth 100 it prints 5.7 times the lines of depth 20):
    linear in what it reads plus what it writes. CPU time catches what calls cannot (work
    inside one built-in call, such as ``x in some_list``), judged against ``machine``, the
    ratio of code linear by construction measured the same way (above 5, 7-8 on these
    machines, once a heap five times larger outgrows the caches): no more than a tenth over
    it, as 5.5 is over 5."""
    cpu_ratio = _slope_ratio(cpu, n, units)
    calls = _slope_ratio({size: c for size, (c, _) in counted.items()}, n, units)
    output = _slope_ratio({size: w for size, (_, w) in counted.items()}, n, units)
    return (Growth(cpu_ratio, 5 * cpu_ratio / machine),
            Growth(calls, 5 * calls / _work_scale(output)), output)


def _work_scale(output: float) -> float:
    """What a command's work is judged against: its output's growth where that is above 5;
    no allowance where nothing is written (``_slope_ratio`` gives inf: verify's own part)."""
    return output if 5.0 < output < float("inf") else 5.0


def _work_note(calls: float, output: float) -> str:
    if output == float("inf"):
        return f"calls x{calls:.2f}, writes nothing"
    if _work_scale(output) != 5.0:
        return f"calls x{calls:.2f} against output x{output:.2f}"
    return f"calls x{calls:.2f}, output x{output:.2f}"


def _slope_ratio(measured: Dict[int, float], n: int, units: Dict[int, int]) -> float:
    """5 x (growth per unit at 5N) / (growth per unit at N), growth taken above N = 1."""
    small = (measured[n] - measured[1]) / units[n]
    large = (measured[5 * n] - measured[1]) / units[5 * n]
    return 5 * large / small if small > 0 else float("inf")


def _reference_work(n: int) -> int:
    """Linear by construction: ``n`` small dicts built, indexed by name, each looked up once
    (what a command does per declaration, in miniature)."""
    objects = [{"name": f"f{i}", "type": "int32", "offset": i * 4} for i in range(n)]
    by_name = {o["name"]: o for o in objects}
    return sum(by_name[o["name"]]["offset"] for o in objects)


def _linear_reference(report: Report, repeat: int, target: float) -> float:
    """The same measure of code that is linear by construction: what this machine gives for
    time(5N) / time(N) when the heap grows fivefold (above 5 where the larger heap no longer
    fits the caches). Its row, and the ratio, which the rows of commands are judged by."""

    def once(n: int) -> float:
        gc.collect()
        enabled = gc.isenabled()
        gc.disable()
        start = _cpu()
        _reference_work(n)
        took = _cpu() - start
        if enabled:
            gc.enable()
        return took

    n = _grown(once, 1_000, target, 1 << 24)
    best = {n: float("inf"), 5 * n: float("inf")}
    for _ in range(repeat):
        for size in best:
            best[size] = min(best[size], once(size))
    ratio = best[5 * n] / best[n]
    report.add(Row("9. dimensions", f"linear reference: {5 * n:,} / {n:,} dicts by name",
                   seconds(best[5 * n]), seconds(best[n]), ratio,
                   note=f"linear by construction, measured the same way (best of {repeat}): "
                        f"the machine's share of a ratio; each row's CPU ratio is judged against it"))
    return ratio


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
