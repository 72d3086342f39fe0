#!/usr/bin/env python3
"""The schema readers on hostile and realistic input: wall time and peak memory.

    python bench/bench_readers.py [--root TREE] [--timeout S] [--only REGEX]

Each input is read by ``read_module`` (the reader alone, no resolve) in a child process,
twice: once for the wall time, once under ``tracemalloc`` for the peak of Python memory
(the interpreter and the imported readers not counted; the position of an error is
printed, since JSON and TOML find it only then). ``--root`` measures another checkout, e.g.
an older commit extracted with ``git archive``, for a before/after comparison; a child that
runs past ``--timeout`` is reported as such. Nothing here asserts anything: the bounds the
test suite enforces, generously, are in ``tests/hostile/test_hostile_inputs.py``.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20

CHILD = r"""
import importlib, sys, time, tracemalloc
from sarek_layout import SarekLayoutError
from sarek_layout.frontends import READERS, read_module
for module, _ in READERS.values():
    importlib.import_module(module)
try:
    import pycparser.c_parser
except ImportError:
    pass
path, traced = sys.argv[1], sys.argv[2] == "1"
if traced:
    tracemalloc.start()
start = time.perf_counter()
try:
    read_module(path)
    outcome = "read"
except SarekLayoutError as e:
    outcome = str(e).split(": error: ")[-1][:60]
elapsed = time.perf_counter() - start
print(repr((elapsed, tracemalloc.get_traced_memory()[1] if traced else 0, outcome)))
"""


def _realistic_ocaml(size: int) -> str:
    source = (ROOT / "tests" / "data" / "ocaml" / "kernels.ml").read_text()
    copy = source.replace("[@@sarek.type]", "").replace("[@@sarek.type_private]", "")
    return source + copy * (size // len(copy))


INPUTS: Dict[str, Callable[[], str]] = {
    # OCaml: once exponential, quadratic, or 100-170 bytes of memory a byte of input
    "ml string of backslash-newlines, 134 B": lambda: '"' + "\\\n" * 67,
    "ml comment string of backslash-newlines, 134 B": lambda: '(* "' + "\\\n" * 67,
    "ml string of backslash-newlines, 1 MB": lambda: '"' + "\\\n" * (MB // 2),
    "ml {%a…a (no bar), 1 MB": lambda: "{%" + "a" * MB,
    "ml (* (* (* …, 1 MB": lambda: "(*" * (MB // 2),
    'ml """…, 1 MB': lambda: '"' * MB,
    "ml {| {| {| …, 1 MB": lambda: "{|" * (MB // 2),
    "ml ''' …, 1 MB": lambda: "'" * MB,
    "ml ((( … ))), 1 MB": lambda: "(" * (MB // 2) + ")" * (MB // 2),
    "ml a a a …, 4 MB": lambda: "a " * (2 * MB),
    "ml [@@a.a.a…], 1 MB": lambda: "type t = A [@@" + "a." * (MB // 2) + "a]",
    "ml realistic source, 4 MB": lambda: _realistic_ocaml(4 * MB),
    "ml 40k [@@sarek.type] records, 2 MB": lambda: "".join(
        f"type t{k} = {{ x : int32; y : float32 }} [@@sarek.type]\n" for k in range(2 * MB // 52)),
    # C
    "h enum 1 << 100000000000": lambda: "typedef struct T { int tag; } T;\n"
    "enum { T_A = 1 << 100000000000, T_B };\n",
    "h enum sum of 3,000 terms": lambda: "typedef struct T { int tag; } T;\nenum { T_A = "
    + "+".join(["0"] * 3000) + ", T_B };\n",
    "h 16k members on one line, 256 KB": lambda: "#define I int\ntypedef struct T {"
    + "".join(f"  I   a{i}  ;" for i in range(16384)) + " int *p; } T;\n",
    "h 18k members, 256 KB": lambda: "typedef struct T {"
    + "".join(f" int a{i};" for i in range(18724)) + " } T;\n",
    # JSON and TOML
    "json 5,000-digit integer": lambda: '{"types": [' + "9" * 5000 + "]}",
    "json 500 levels, 256k values": lambda: '{"types": [' + "[" * 500 + "1," * (MB // 8)
    + "1" + "]" * 500 + "]}",
    "toml key of 40,000 parts, 80 KB": lambda: "types = []\n" + ".".join(["a"] * 40000) + " = 1\n",
    "toml 87k small values, 256 KB": lambda: "types = [" + "1, " * (MB // 12) + "]\n",
}


def measure(root: Path, path: Path, traced: bool, timeout: float):
    env = dict(os.environ, PYTHONPATH=str(root))
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD, str(path), "1" if traced else "0"],
                              capture_output=True, text=True, timeout=timeout, cwd=root, env=env)
    except subprocess.TimeoutExpired:
        return None
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return ("crash", 0, last[:60])
    return ast.literal_eval(lines[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per child")
    parser.add_argument("--only", help="measure only the inputs matching this regex")
    args = parser.parse_args()
    print(f"{'input':<46} {'bytes':>9} {'time':>9} {'peak':>10} {'x input':>8}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in INPUTS.items():
            if args.only and not re.search(args.only, name):
                continue
            suffix = "." + {"ml": "ml", "h": "h", "json": "json", "toml": "toml"}[name.split()[0]]
            path = Path(tmp) / f"input{suffix}"
            path.write_text(make())
            size = path.stat().st_size
            timed = measure(args.root, path, False, args.timeout)
            traced = measure(args.root, path, True, args.timeout) if timed else None
            if timed is None:
                print(f"{name:<46} {size:>9} {'> ' + str(int(args.timeout)) + ' s':>9}")
                continue
            if timed[0] == "crash":
                print(f"{name:<46} {size:>9} {'crash':>9} {'':>10} {'':>8}  {timed[2]}")
                continue
            if traced is None or traced[0] == "crash":  # tracemalloc slows a read 2-3 times
                memory = f"{'?':>10} {'?':>8}"
            else:
                memory = f"{traced[1] / MB:>8.1f}MB {traced[1] / size:>7.1f}x"
            print(f"{name:<46} {size:>9} {timed[0]:>8.3f}s {memory}  {timed[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
