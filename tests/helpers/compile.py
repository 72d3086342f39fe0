"""Compiling generated headers with real toolchains, for the codegen tests.

One translation unit per (toolchain, batch): it includes every header of the batch, so a
single compiler run checks thousands of types, and the headers' own compile-time assertions
are the check. Flags are the strict ones of the issue: ``-Wall -Wextra -Werror -pedantic
-Wpadded`` for the C family (``-Wpadded`` proves no implicit padding remains), the same
through ``-Xcompiler`` for nvcc's host pass, and clang's OpenCL C mode for ``.clh`` headers.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterable, List, Sequence

import pytest

from helpers.common import require_toolchain

def _with_driver(*classes: str) -> tuple:
    """Registry toolchains measured by one of the driver ``classes`` (in registry order)."""
    from sarek_layout.verify.toolchains import TOOLCHAINS

    return tuple(t.name for t in TOOLCHAINS.values() if t.driver.rpartition(":")[2] in classes)


#: The command-line C and C++ compilers of the registry (gcc, g++, clang, gcc -m32, the
#: cross compilers): the generated headers must compile with each, strictly.
C_TOOLCHAINS = _with_driver("ObjfileDriver")
#: ... and nvcc and clang's OpenCL C (NVRTC, PoCL and the others have their own tests).
COMPILE_TOOLCHAINS = C_TOOLCHAINS + _with_driver("NvccDriver", "ClangOpenCLDriver")

STRICT = ("-Wall", "-Wextra", "-Werror", "-pedantic", "-Wpadded")

#: The start of a C program that compares values the make_ helpers returned with byte images
#: (``check(got, want, n, what)``, counting ``failures``), after ``#include <stdio.h>`` and
#: ``<string.h>``.
BYTE_CHECK = [
    "static int failures;",
    "static void check(const void *got, const unsigned char *want, size_t n, const char *what)",
    "{",
    "    size_t i;",
    "    for (i = 0; i < n; i++)",
    "        if (((const unsigned char *)got)[i] != want[i]) {",
    '            printf("%s: byte %u is %u, want %u\\n", what, (unsigned)i,',
    "                   ((const unsigned char *)got)[i], want[i]);",
    "            failures++;",
    "            return;",
    "        }",
    "}",
]

def run_byte_checks(tc, src: pathlib.Path, out: pathlib.Path) -> None:
    """Build the ``BYTE_CHECK`` program ``src`` with toolchain ``tc`` (strict, in ``out``,
    where its headers are) and run it: it must count no failure."""
    exe = out / "run"
    proc = subprocess.run([*tc.argv, *STRICT[:4], str(src), "-o", str(exe)],
                          capture_output=True, text=True, cwd=out)
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "0 failures", run.stdout + run.stderr


#: The C compilers on which verify's conformance enumeration (test_verify_drivers.py) runs in
#: full: there it compiles with STRICT too (``measure_strictly``), so one compile per part both
#: proves the headers strictly clean and measures them, and the codegen conformance test leaves
#: these four to it instead of compiling the same 31,563 types again.
STRICT_IN_VERIFY = ("gcc", "g++", "clang", "gcc-m32")

_SUFFIX = {"c": ".c", "c++": ".cpp", "cuda": ".cu", "opencl": ".cl"}
_HEADER_SUFFIX = {"c": ".h", "cuda": ".cuh", "opencl": ".clh"}

#: Something for each language to compile besides the headers (a device entry point for the
#: GPU languages, so that their device passes run).
_TAIL = {
    "c": "int sarek_layout_test_tu(void);\n",
    "c++": "int sarek_layout_test_tu(void);\n",
    "cuda": "__global__ void sarek_layout_test_kernel(int *out) { *out = 1; }\n",
    "opencl": "__kernel void sarek_layout_test_kernel(__global int *out) { *out = 1; }\n",
}


@dataclass(frozen=True)
class Result:
    toolchain: str
    argv: Sequence[str]
    returncode: int
    output: str
    seconds: float


def measure_strictly(tc, headers, probes):
    """``verify.run.measure_with`` of toolchain ``tc`` with the STRICT flags after its own:
    a warning, implicit padding included, fails its compile, so the result is a failure (or,
    for a warning inside the headers' assertions only, needs the retry without them: two
    builds, which the tests refuse). ``measure_with`` finds the driver by name in the
    registry, so the stricter toolchain is handed to it for this one call."""
    import dataclasses
    from unittest import mock

    from sarek_layout.verify import run

    strict = dataclasses.replace(tc, argv=(*tc.argv, *STRICT))
    with mock.patch.object(run, "driver_for", lambda name: strict.driver_class()(strict)):
        return run.measure_with(strict, headers, probes)


def header_suffix(toolchain: str) -> str:
    from sarek_layout.verify.toolchains import get

    return _HEADER_SUFFIX[get(toolchain).target]


def translation_unit(toolchain: str, headers: Iterable[str], extra: str = "") -> str:
    """Source text including ``headers`` (names relative to an include folder)."""
    from sarek_layout.verify.toolchains import get

    lines = [f'#include "{h}"' for h in headers]
    return "\n".join(lines) + "\n" + extra + _TAIL[get(toolchain).language]


def command(toolchain: str, source: str, output: str, include_dirs: Sequence[str]) -> List[str]:
    from sarek_layout.verify.toolchains import get

    tc = get(toolchain)
    includes = [f"-I{d}" for d in include_dirs]
    if tc.language == "cuda":
        host_flags = ",".join(STRICT[:2] + ("-Werror", "-Wpadded"))
        return [*tc.argv, "-Werror", "all-warnings", f"-Xcompiler={host_flags}", *includes,
                source, "-o", output]
    if tc.language == "opencl":
        return [*tc.argv, *STRICT, *includes, "-fsyntax-only", source]
    return [*tc.argv, *STRICT, *includes, "-c", source, "-o", output]


def compile_tu(toolchain: str, text: str, workdir: pathlib.Path, name: str,
               include_dirs: Sequence[os.PathLike]) -> Result:
    """Write ``text`` as ``workdir/name.<ext>`` and compile it; never raises on failure."""
    from sarek_layout.verify.toolchains import get

    tc = get(toolchain)
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / f"{name}-{toolchain}{_SUFFIX[tc.language]}"
    src.write_text(text)
    argv = command(toolchain, str(src), str(workdir / f"{name}-{toolchain}.o"),
                   [str(d) for d in include_dirs])
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=workdir)
    return Result(toolchain, argv, proc.returncode, proc.stdout + proc.stderr,
                  time.monotonic() - start)


def _explain(r: Result) -> str:
    lines = r.output.strip().splitlines()
    shown = "\n".join(lines[:40]) + (f"\n... ({len(lines) - 40} more lines)" if len(lines) > 40 else "")
    return f"{r.toolchain} failed (exit {r.returncode}):\n$ {' '.join(r.argv)}\n{shown}"


def assert_compiles(toolchain: str, batches: Sequence[tuple], workdir: pathlib.Path,
                    workers: int = 2) -> List[Result]:
    """Compile each ``(name, headers, include_dirs[, extra source])`` batch; fail on any error.

    Skips (locally) or fails (CI) when the toolchain is missing. Batches run ``workers`` at a
    time: one compiler process per batch, never one per type.
    """
    require_toolchain(toolchain)

    def one(batch):
        name, headers, include_dirs, *extra = batch
        text = translation_unit(toolchain, headers, extra[0] if extra else "")
        return compile_tu(toolchain, text, workdir, name, include_dirs)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one, batches))
    failed = [r for r in results if r.returncode != 0]
    if failed:
        pytest.fail("\n\n".join(_explain(r) for r in failed), pytrace=False)
    return results


def assert_fails(toolchain: str, name: str, headers: Sequence[str], include_dir: pathlib.Path,
                 workdir: pathlib.Path) -> str:
    """Compile a batch that must be rejected; return the compiler's diagnostics."""
    require_toolchain(toolchain)
    text = translation_unit(toolchain, headers)
    r = compile_tu(toolchain, text, workdir, name, [include_dir])
    if r.returncode == 0:
        pytest.fail(f"{toolchain} accepted a header that must not compile:\n$ {' '.join(r.argv)}",
                    pytrace=False)
    return r.output
