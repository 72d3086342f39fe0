"""Measure which names each target's compiler declares at file scope before a generated header,
and (``--write``) regenerate ``sarek_layout/targets/declared.json`` from the installed compilers.

A type of module ``""`` is emitted with its bare name at file scope (``typedef struct T {…}
T;``), where it meets whatever the compiler and the header's includes already declare:
``std`` (g++'s <stddef.h>), ``atomicAdd``, ``make_float2``, ``FILE``, ``time`` (nvcc's
implicit CUDA runtime and libc headers), OpenCL C's builtins, and the program's own ``main``.
Rather than a hand list, the compilers are asked: every identifier the preprocessed includes
(and clang's OpenCL builtin header, glslang's builtin symbol table) mention is a candidate, and
each candidate is declared the way a generated header declares a type, one per line, after
the header's includes and a ``main`` prototype; a diagnostic on a candidate's line means the
name collides there. Names the toolchain's own target refuses by another rule already
(``targets.name_rules.language_problem``: keywords, macros, vector types, reserved spellings)
are left out; a name that target escapes is probed as it is emitted (GLSL's ``input_``).

    python tests/helpers/declared_names.py --write     # regenerate the shipped table

``tests/targets/test_names_declared.py`` re-measures the installed toolchains and names any collision
the shipped table misses.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
from typing import Dict, Iterable, List, Sequence, Set, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sarek_layout.verify import toolchains  # noqa: E402
from sarek_layout.targets.declared import DATA_FILE  # noqa: E402
from sarek_layout.targets.name_rules import FILE, language_problem, spelling  # noqa: E402

#: Toolchains measured, in the table's order; each is keyed by its registry name.
MEASURED = ("gcc", "g++", "clang", "gcc-m32", "aarch64", "armhf", "ppc64", "s390x", "nvcc",
            "hip", "clang-opencl", "glslang")

#: Every C11 standard header and the POSIX headers nvcc includes implicitly: a C or C++ program
#: has them before the header (``targets.predefined``'s C library tables are their macros that
#: rewrite a member; ``tests/targets`` compiles the c and cuda targets after them).
LIBC_C = "".join(f"#include <{h}>\n" for h in (
    "assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h "
    "math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h "
    "stdio.h stdlib.h stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h "
    "wctype.h sys/types.h sys/time.h sys/timex.h unistd.h pthread.h").split())
#: ... those C++ has too.
LIBC_CPP = "".join(line + "\n" for line in LIBC_C.splitlines() if not any(
    h in line for h in ("stdnoreturn.h", "complex.h", "tgmath.h", "stdatomic.h", "threads.h")))

#: The includes of the generated C and CUDA headers (templates/*.j2); the OpenCL C one has none.
INCLUDES = "#include <stddef.h>\n#include <stdint.h>\n"


def _includes(tc: toolchains.Toolchain) -> str:
    return "" if tc.language == "opencl" else INCLUDES

_IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9_]*\b")
_OBJECT_MACRO = re.compile(r"^#define ([A-Za-z][A-Za-z0-9_]*) ", re.M)
_GCC_DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):\d+: (?:fatal )?(?:error|warning)", re.M)
_EDG_DIAG = re.compile(r"^(?P<file>[^(\n]+)\((?P<line>\d+)\): (?:error|warning)", re.M)
_GLSLANG_DIAG = re.compile(r"^ERROR: (?P<file>.+?):(?P<line>\d+):", re.M)


def _default_mode(argv: Sequence[str]) -> List[str]:
    return [a for a in argv if not a.startswith(("-std=", "-cl-std="))]


def _run(cmd: Sequence[str], cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), capture_output=True, text=True, cwd=cwd, timeout=600,
                          stdin=subprocess.DEVNULL)


def _language_flags(tc: toolchains.Toolchain) -> List[str]:
    return {"c": ["-x", "c"], "c++": ["-x", "c++"]}.get(tc.language, [])


def _command_lines(tc: toolchains.Toolchain) -> List[List[str]]:
    """The toolchain's compile commands to probe with: its registry command line and, for
    the C family, its default dialect (gcc's GNU modes declare a little more)."""
    if tc.name == "nvcc":
        return [["nvcc", "-c", "-Xcudafe", "--error_limit=1000000"]]
    if tc.name == "hip":
        return [["hipcc", "-fsyntax-only", "-ferror-limit=0", "-x", "hip"]]
    if tc.name == "clang-opencl":
        base = list(tc.argv)
        return [base + ["-ferror-limit=0", "-fsyntax-only"]] + [
            _default_mode(base) + [f"-cl-std={std}", "-ferror-limit=0", "-fsyntax-only"]
            for std in ("CL2.0", "CL3.0")]
    if tc.name == "glslang":
        return [["glslangValidator", "-S", "comp"]]
    base = [a for a in tc.argv if a not in ("-x", "c++")]
    extra = ["-ferror-limit=0"] if base[0].startswith("clang") else ["-fmax-errors=0"]
    return [[*argv, *_language_flags(tc), *extra, "-fsyntax-only"]
            for argv in (base, _default_mode(base))]


def _suffix(tc: toolchains.Toolchain) -> str:
    return {"nvcc": ".cu", "hip": ".hip", "clang-opencl": ".cl", "glslang": ".comp"}.get(
        tc.name, ".cpp" if tc.language == "c++" else ".c")


def _preprocessed_identifiers(tc: toolchains.Toolchain, work: str) -> Set[str]:
    """Identifiers in the toolchain's preprocessed includes (or its builtin symbol table)."""
    if tc.name == "glslang":
        src = os.path.join(work, "empty.comp")
        pathlib.Path(src).write_text("#version 450\nvoid main() {}\n")
        proc = _run(["glslangValidator", "--dump-builtin-symbols", "-S", "comp", src], work)
        return set(_IDENT.findall(proc.stdout))
    src = os.path.join(work, "includes" + _suffix(tc))
    pathlib.Path(src).write_text(_includes(tc))
    names: Set[str] = set()
    for argv in _command_lines(tc):
        argv = [a for a in argv if a not in ("-c", "-fsyntax-only")]
        out = os.path.join(work, "includes.i")
        proc = _run([*argv, "-E", src, "-o", out], work)
        if proc.returncode == 0:
            text = pathlib.Path(out).read_text(errors="replace")
            names.update(_IDENT.findall("\n".join(
                line for line in text.splitlines() if not line.startswith("#"))))
        # The object-like macros too: one that renames (``#define cudaStreamAttrID
        # cudaLaunchAttributeID``) or names itself (``#define stdout stdout``) is harmless as a
        # member (``predefined`` lists those that are not), but at file scope it may clash.
        dump = ["-E", "-Xcompiler", "-dM"] if tc.name == "nvcc" else ["-E", "-dM"]
        proc = _run([*argv, *dump, src], work)
        if proc.returncode == 0:
            names.update(_OBJECT_MACRO.findall(proc.stdout))
    if tc.name == "clang-opencl":
        # clang declares OpenCL C's builtins from tables (-fdeclare-opencl-builtins), not
        # from header text: its opencl-c.h spells the same functions out.
        resource = _run(["clang", "-print-resource-dir"], work).stdout.strip()
        for header in ("opencl-c.h", "opencl-c-base.h"):
            path = pathlib.Path(resource, "include", header)
            if path.is_file():
                names.update(_IDENT.findall(path.read_text(errors="replace")))
    return names


def candidates(names: Iterable[str], target: str) -> List[str]:
    """The names worth probing for a toolchain of ``target``: not refused there by another
    rule, and not reserved ('_…')."""
    return sorted(n for n in set(names) | {"main"}
                  if not n.startswith("_") and language_problem(target, n, FILE) is None)


def _probe_source(tc: toolchains.Toolchain, names: Sequence[str]) -> Tuple[str, int]:
    """The probe translation unit and the line of its first candidate."""
    if tc.name == "glslang":
        head = "#version 450\nvoid main();\n"
        body = "".join(f"struct {n} {{ int x; }};\n" for n in names)
        return head + body + "void main() {}\n", head.count("\n") + 1
    # OpenCL C has no main (a kernel is the entry point), and refuses the name.
    head = _includes(tc) + ("" if tc.name == "clang-opencl" else "int main(void);\n")
    if tc.language in ("c++", "cuda"):
        head += '#ifdef __cplusplus\nextern "C" {\n#endif\n'
    body = "".join(f"typedef struct {n} {{ int x; }} {n};\n" for n in names)
    tail = '#ifdef __cplusplus\n}\n#endif\n' if tc.language in ("c++", "cuda") else ""
    if tc.name == "clang-opencl":
        tail += "__kernel void sarek_probe_kernel(__global int *o) { *o = 0; }\n"
    return head + body + tail, head.count("\n") + 1


def _diagnosed_lines(tc: toolchains.Toolchain, output: str, src: str) -> Set[int]:
    pattern = {"nvcc": _EDG_DIAG, "glslang": _GLSLANG_DIAG}.get(tc.name, _GCC_DIAG)
    base = os.path.basename(src)
    return {int(m["line"]) for m in pattern.finditer(output)
            if tc.name == "glslang" or os.path.basename(m["file"].strip()) == base}


def measure(tc: toolchains.Toolchain, names: Sequence[str], work: str) -> Set[str]:
    """The candidates ``names`` that collide under ``tc``, as the target spells them: declared
    one per line, a diagnostic on a line names its candidate; the others are declared again
    until they compile clean."""
    spelt = sorted({spelling(tc.target, n) for n in names})
    if tc.name == "glslang":
        return _measure_glslang(spelt, work)
    found: Set[str] = set()
    for argv in _command_lines(tc):
        found |= _measure_chunk(tc, argv, [n for n in spelt if n not in found],
                                {n: n for n in spelt}, work)
    return found


def _measure_glslang(names: Sequence[str], work: str) -> Set[str]:
    """glslang stops at its first syntax error (a GLSL keyword C does not have): one small
    shader per candidate, many shaders per run (it prints each file's name before its
    errors). The names are spelt as the GLSL target emits them (``input`` -> ``input_``)."""
    escaped = {n: n for n in names}
    todo = list(names)
    folder = pathlib.Path(work, "glsl")
    folder.mkdir(exist_ok=True)
    found: Set[str] = set()
    for start in range(0, len(todo), 1000):
        batch = {f"p{i}.comp": n for i, n in enumerate(todo[start:start + 1000], start)}
        for file, n in batch.items():
            (folder / file).write_text(f"#version 450\nvoid main();\n"
                                       f"struct {escaped[n]} {{ int x; }};\nvoid main() {{}}\n")
        proc = _run(["glslangValidator", "-S", "comp", *batch], str(folder))
        current = None
        for line in (proc.stdout + proc.stderr).splitlines():
            if line in batch:
                current = line
            elif line.startswith("ERROR:") and current is not None:
                found.add(batch[current])
    if todo and len(found) == len(todo):
        raise RuntimeError("glslang refused every probe: the probe itself is broken")
    return found


def _measure_chunk(tc, argv, remaining, escaped, work) -> Set[str]:
    found: Set[str] = set()
    for _round in range(len(remaining) + 1):
        src = os.path.join(work, "probe" + _suffix(tc))
        text, first = _probe_source(tc, [escaped[n] for n in remaining])
        pathlib.Path(src).write_text(text)
        cmd = [*argv, src] + (["-o", os.path.join(work, "probe.o")] if "-c" in argv else [])
        proc = _run(cmd, work)
        lines = _diagnosed_lines(tc, proc.stdout + proc.stderr, src)
        hit = {remaining[i - first] for i in lines if 0 <= i - first < len(remaining)}
        if not hit:
            if proc.returncode != 0:
                raise RuntimeError(f"$ {' '.join(cmd)} failed outside the candidate "
                                   f"lines:\n{(proc.stdout + proc.stderr)[-3000:]}")
            return found
        found |= hit
        remaining = [n for n in remaining if n not in hit]
    return found


def own_candidates(name: str, extra: Iterable[str] = ()) -> List[str]:
    """The candidates of one toolchain: what its own includes mention, plus ``extra``."""
    tc = toolchains.get(name)
    with tempfile.TemporaryDirectory(prefix="sarek-declared-") as work:
        return candidates(_preprocessed_identifiers(tc, work) | set(extra), tc.target)


def measure_one(name: str, names: Sequence[str]) -> Set[str]:
    with tempfile.TemporaryDirectory(prefix="sarek-declared-") as work:
        return measure(toolchains.get(name), names, work)


def measure_all(which: Sequence[str] = MEASURED) -> Dict[str, Set[str]]:
    """``{toolchain: colliding names}`` for the installed toolchains among ``which``, each
    probed with every candidate of them all."""
    with tempfile.TemporaryDirectory(prefix="sarek-declared-") as work:
        available = [toolchains.get(n) for n in which
                     if toolchains.get(n).unavailable_reason is None]
        names: Set[str] = set()
        for tc in available:
            names |= _preprocessed_identifiers(tc, work)
        result = {}
        for tc in available:
            start = time.monotonic()
            probe = candidates(names, tc.target)
            result[tc.name] = measure(tc, probe, work)
            print(f"{tc.name}: {len(result[tc.name])} of {len(probe)} candidates collide "
                  f"({time.monotonic() - start:.1f} s)", file=sys.stderr)
        return result


def render(measured: Dict[str, Set[str]], versions: Dict[str, str]) -> str:
    """The JSON text of ``declared.json``: per toolchain, its target, version and names."""
    data = {
        "about": ("Names each toolchain's compiler already declares at file scope before a "
                  "generated header, by the target it compiles (targets/declared.py). Written "
                  "by `python tests/helpers/declared_names.py --write` from the installed "
                  "compilers; do not edit (tests/targets/test_names_declared.py re-measures)."),
        "toolchains": {name: {"target": toolchains.get(name).target,
                              "version": versions.get(name, "?"), "names": sorted(names)}
                       for name, names in measured.items()},
    }
    return json.dumps(data, indent=1) + "\n"


def _version(tc: toolchains.Toolchain) -> str:
    program = {"glslang": "glslangValidator", "hip": "hipcc"}.get(tc.name, (tc.argv or [tc.name])[0])
    try:
        proc = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=60)
    except OSError:
        return "?"
    lines = [l.strip() for l in (proc.stdout or proc.stderr).splitlines() if l.strip()]
    pick = [l for l in lines if re.search(r"\d+\.\d+", l)]
    return (pick[-1] if tc.name == "nvcc" and pick else (pick or lines or ["?"])[0])[:80]


def main(argv: Sequence[str]) -> int:
    measured = measure_all()
    versions = {n: _version(toolchains.get(n)) for n in measured}
    text = render(measured, versions)
    if "--write" in argv:
        DATA_FILE.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
