"""Run the atheris harnesses of ``fuzz/``, one after another, each for a time budget.

``make fuzz`` runs this; ``.ci/run`` runs it with a shorter budget. For each harness it
builds the seed folder from files kept in the repository (the bad-input corpus, the fuzz
corpus, the examples and golden schemas, ``fuzz/seeds/``), then runs libFuzzer on
``OUT/corpus/NAME`` (what libFuzzer finds and keeps, reused by the next run) and the seeds,
with every file it writes kept under ``OUT`` (default ``build/fuzz``): findings (``crash-*``,
``timeout-*``, ``oom-*``) in ``OUT/artifacts/NAME/``, the log in ``OUT/logs/NAME.log``,
and one line per run in ``OUT/stats.tsv`` (executions, libFuzzer's ``cov:`` and ``ft:``).
The exit status is 1 if any harness found something, else 0.

Environment: ``FUZZ_SECONDS`` (each harness, default 60), ``FUZZ_OUT`` (default
``build/fuzz``), ``FUZZ_NICE`` (niceness of the harnesses, default 10: they share the
machine). Usage: ``python fuzz/run.py [NAME...]`` (default: every harness).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import time
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

#: name -> (libFuzzer's -max_len, seed globs relative to the repository). Inputs stay
#: small: a short input runs faster, and every reader's hard cases have short forms.
HARNESSES = {
    "jsontoml": (4096, ["tests/bad_inputs/*.json", "tests/bad_inputs/*.toml",
                        "tests/fuzz_corpus/*.json", "tests/fuzz_corpus/*.toml",
                        "examples/*.toml", "examples/*/schemas/*", "tests/golden/*/*.toml",
                        "tests/golden/*/*.json", "tests/data/*.toml", "tests/data/*/*.json",
                        "tests/data/verify/*.toml"]),
    "ocaml": (4096, ["tests/bad_inputs/*.ml", "tests/fuzz_corpus/*.ml", "tests/data/ocaml/*.ml",
                     "tests/data/ocaml/*/*.ml"]),
    "cheader": (8192, ["tests/bad_inputs/*.h", "tests/fuzz_corpus/*.h", "tests/data/c/*.h",
                       "tests/data/verify/*.h", "generated/*.h", "tests/golden/*/expected/*.h"]),
    "dwarf": (16384, ["fuzz/seeds/dwarf/*"]),
    "decode": (512, []),
}
#: Seeds larger than this are left out (libFuzzer would cut them at -max_len anyway).
MAX_SEED = 16384
#: A hang guard, not a speed test: one input running this long (wall clock, on a machine
#: that may be busy) is reported as a ``timeout-*`` finding.
TIMEOUT_S = 60
#: Resident memory of the harness process past which libFuzzer reports an ``oom-*`` finding.
RSS_LIMIT_MB = 2048


def _seed_files(patterns):
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            if os.path.isfile(path) and os.path.getsize(path) <= MAX_SEED:
                yield path


def _preprocessed(path: str, folder: str):
    """``path`` through the reader's own preprocessor, as a header named ``fuzz.h`` (the
    C harness fuzzes cpp's output; see ``fuzz_cheader.py``); None if cpp refuses it."""
    from sarek_layout.frontends.c.preprocess import preprocess
    from sarek_layout.errors import SarekLayoutError

    shutil.copyfile(path, os.path.join(folder, "fuzz.h"))
    here = os.getcwd()
    os.chdir(folder)
    try:
        text = preprocess("fuzz.h").text
    except SarekLayoutError:
        return None
    finally:
        os.chdir(here)
    return _without_unused_typedefs(text).encode("utf-8", "surrogateescape")


_MARKER = re.compile(r'^# \d+ "([^"]*)"')
_TYPEDEF = re.compile(r"^typedef\b.*?\b(\w+);$")


def _without_unused_typedefs(text: str) -> str:
    """cpp's output without the fake libc's typedefs that nothing else uses: the forty
    lines of ``stdint.h`` made every input three times slower to parse."""
    lines = text.split("\n")
    typedefs, where = {}, ""  # line index -> name, of the fake libc's typedefs
    for i, line in enumerate(lines):
        m = _MARKER.match(line)
        where = m.group(1) if m else where
        t = None if m or "fake_libc" not in where else _TYPEDEF.match(line)
        if t:
            typedefs[i] = t.group(1)
    kept = set(range(len(lines))) - set(typedefs)
    while True:  # a kept typedef may name another (int_fast32_t -> int32_t)
        used = set(re.findall(r"\w+", "\n".join(lines[i] for i in kept)))
        more = {i for i, name in typedefs.items() if name in used} - kept
        if not more:
            return "\n".join(lines[i] for i in sorted(kept))
        kept |= more


def make_seeds(name: str, seeds: str, limit: Optional[int] = None) -> int:
    """Fill the folder ``seeds`` with the seed inputs of harness ``name`` (the first ``limit``
    of them); their number."""
    shutil.rmtree(seeds, ignore_errors=True)
    os.makedirs(seeds)
    count = 0

    def put(data: bytes, label: str) -> None:
        nonlocal count
        if limit is not None and count >= limit:
            return
        count += 1
        with open(os.path.join(seeds, f"{count:04d}-{label}"), "wb") as f:
            f.write(data)

    if name == "decode":  # type index, offset/flags, then the buffer
        for t in range(64):
            put(bytes([t, 0]) + bytes(48), f"type{t}")
            put(bytes([t, 16 | 4]) + bytes(4) + bytes(range(96)), f"type{t}-unpack")
        return count
    scratch = os.path.join(seeds, ".cpp")
    for path in _seed_files(HARNESSES[name][1]):
        if limit is not None and count >= limit:
            break
        label = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(path))
        if name == "cheader" and os.environ.get("SAREK_FUZZ_CPP") != "1":
            os.makedirs(scratch, exist_ok=True)
            data = _preprocessed(path, scratch)
            if data is None or len(data) > MAX_SEED:
                continue
        else:
            with open(path, "rb") as f:
                data = f.read()
        put(data, label)
    shutil.rmtree(scratch, ignore_errors=True)
    return count


_STAT = re.compile(r"^stat::number_of_executed_units:\s*(\d+)", re.M)
_COV = re.compile(r"cov: (\d+) ft: (\d+)")


def run_one(name: str, seconds: int, out: str) -> bool:
    """Fuzz harness ``name`` for ``seconds``; True when it found nothing."""
    corpus, seeds, artifacts, logs = (os.path.join(out, d, name) for d in
                                      ("corpus", "seeds", "artifacts", "logs"))
    for d in (corpus, artifacts, os.path.dirname(logs)):
        os.makedirs(d, exist_ok=True)
    n = make_seeds(name, seeds)
    cmd = ["nice", "-n", os.environ.get("FUZZ_NICE", "10"), sys.executable,
           os.path.join(HERE, f"fuzz_{name}.py"),
           f"-max_total_time={seconds}", f"-max_len={HARNESSES[name][0]}",
           f"-timeout={TIMEOUT_S}", f"-rss_limit_mb={RSS_LIMIT_MB}",
           f"-artifact_prefix={artifacts}{os.sep}", "-print_final_stats=1"]
    words = os.path.join(HERE, "dicts", f"{name}.dict")  # the input language's words
    if os.path.exists(words):
        cmd.append(f"-dict={words}")
    cmd += [corpus, seeds]
    print(f"fuzz {name}: {seconds} s, {n} seeds, findings in {artifacts}/", flush=True)
    started = time.time()
    with open(logs + ".log", "w") as log:
        status = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=out)
    with open(logs + ".log", errors="replace") as log:
        text = log.read()
    execs = _STAT.findall(text)
    cov = _COV.findall(text)
    line = "\t".join([time.strftime("%Y-%m-%dT%H:%M:%S"), name, str(round(time.time() - started)),
                      execs[-1] if execs else "?", cov[-1][0] if cov else "?",
                      cov[-1][1] if cov else "?", str(status)])
    with open(os.path.join(out, "stats.tsv"), "a") as stats:
        stats.write(line + "\n")
    print(f"  executions {execs[-1] if execs else '?'}, cov {cov[-1][0] if cov else '?'}, "
          f"ft {cov[-1][1] if cov else '?'}, exit status {status}", flush=True)
    if status != 0:
        tail = text.splitlines()[-40:]
        print(f"  FINDING (log: {logs}.log):\n    " + "\n    ".join(tail), flush=True)
    return status == 0


def main(argv) -> int:
    names = argv or list(HARNESSES)
    unknown = [n for n in names if n not in HARNESSES]
    if unknown:
        print(f"unknown harness {', '.join(unknown)}; known: {', '.join(HARNESSES)}",
              file=sys.stderr)
        return 2
    seconds = int(os.environ.get("FUZZ_SECONDS", "60"))
    out = os.path.abspath(os.environ.get("FUZZ_OUT", os.path.join(ROOT, "build", "fuzz")))
    ok = [run_one(name, seconds, out) for name in names]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
