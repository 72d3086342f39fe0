"""``verify --shader``: hand-written GLSL, WGSL and Metal structs against the schema.

Every struct a shader declares under the C name of a schema type (or of a variant's
``<T>_<Ctor>_arm``) is laid out by the real compiler or runtime of its language and
compared member by member with the layout core (``check``):

* GLSL (``.comp``, ``.glsl``, ``.vert``, ``.frag``…): glslang compiles the shader with a
  std430 probe buffer to SPIR-V, whose decorations give every offset, size and array
  stride (``glsl``); a schema struct inside a std140 block is reported at that block;
* WGSL (``.wgsl``): naga validates the shader, and a compute probe run by wgpu (Mesa's
  lavapipe on a CPU) reads every member back from a buffer of known words (``wgsl``);
* Metal (``.metal``): clang++ as a proxy for Apple's compiler, with a stand-in
  ``<metal_stdlib>`` (``metal``).

Shader structs with no schema type are listed and skipped; ``types`` narrows the check.
The shaders are read once, before anything runs, with what they ``#include`` from the
other shaders given or from ``include_dirs`` and nothing else (``source``); the compilers
run in a temporary folder under ``tools.run_tool``'s time and memory bounds, and wgpu in a
child process under the same bounds.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from ...errors import ToolchainMissing
from ...ir.schema import Schema, SchemaType
from .check import Measured, Problem, compare_struct, expected_structs
from .reader import StructDecl, read_structs
from .source import GLSL, METAL, WGSL, read_shaders

__all__ = ["verify_shaders", "ShaderReport", "TOOLS"]

#: language -> the toolchain of ``toolchains`` that stands for its compiler (for
#: ``$SAREK_REQUIRE_TOOLCHAINS``).
TOOLCHAIN_OF = {GLSL: "glslang", WGSL: "webgpu", METAL: "metal-proxy"}

#: language -> (what measures it, as the summary names it; as a difference names it).
TOOLS = {GLSL: ("glslang", "glslang"), WGSL: ("naga + wgpu", "wgpu"),
         METAL: ("metal-proxy", "metal-proxy")}


@dataclass
class ShaderReport:
    """What ``verify_shaders`` found; ``exit_status`` is 0 (all agree) or 1."""

    #: (where, struct, tool, number of problems) for every struct checked.
    checked: List[Tuple[str, str, str, int]] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)
    #: (where, struct, why) for every struct not checked.
    skipped: List[Tuple[str, str, str]] = field(default_factory=list)
    failures: List[str] = field(default_factory=list)
    shaders: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems and not self.failures

    @property
    def exit_status(self) -> int:
        return 0 if self.ok else 1

    def differences(self) -> List[str]:
        return [str(p) for p in self.problems] + list(self.failures)

    def format(self) -> str:
        lines = []
        for where, name, tool, n in self.checked:
            verdict = (("spellings agree" if "not measured" in tool else "agrees") if n == 0
                       else f"{n} difference{'s' * (n != 1)}")
            lines.append(f"{where}: {name}: {verdict} ({tool})")
        if self.problems or self.failures:
            lines.append("")
            lines += [f"{p.where}: error: {p.struct}: {p.message}" for p in self.problems]
            lines += [f"error: {f}" for f in self.failures]
        if self.skipped:
            lines.append("")
            lines += [f"{where}: note: struct {name} {why}: skipped" for where, name, why
                      in self.skipped]
        structs = len(self.checked)
        verdict = ("all agree" if self.ok else
                   f"{len(self.problems)} difference{'s' * (len(self.problems) != 1)}"
                   + (f", {len(self.failures)} shader{'s' * (len(self.failures) != 1)} "
                      f"not compiled" if self.failures else ""))
        lines += ["", f"{self.shaders} shader{'s' * (self.shaders != 1)}, {structs} "
                      f"struct{'s' * (structs != 1)} checked against the schema: {verdict}"]
        return "\n".join(lines) + "\n"


def _missing(language: str) -> Optional[str]:
    if language == GLSL:
        if shutil.which("glslangValidator") is None:
            return ("glslangValidator not found; apt-get install -y glslang-tools")
    elif language == METAL:
        if shutil.which("clang++") is None:
            return "clang++ not found (the Metal proxy); apt-get install -y clang"
    else:
        from .wgsl import wgpu_problem

        return wgpu_problem()
    return None


def verify_shaders(schema: Schema, paths: Sequence[str], include_dirs: Sequence[str] = (),
                   types: Optional[Sequence[SchemaType]] = None) -> ShaderReport:
    """Check every schema struct of the shaders ``paths`` (see the module docstring).

    Bad input (a shader that cannot be read, an ``#include`` outside what was given) raises
    ``SchemaError``/``UsageError`` before anything runs; a missing compiler raises
    ``ToolchainMissing``. A shader that does not compile is a failure of the report (exit 1).
    """
    from ..tools import memory_limit_mb, timeout_seconds

    timeout_seconds(), memory_limit_mb()  # a bad $SAREK_VERIFY_… is a usage error, up front
    sets = read_shaders(paths, include_dirs)
    for s in sets:
        problem = _missing(s.language)
        if problem:
            missing = ToolchainMissing(f"verify --shader {s.given[0].shown}: {problem}")
            missing.toolchain = TOOLCHAIN_OF[s.language]  # type: ignore[attr-defined]
            raise missing
    every = expected_structs(schema.types)
    chosen = every if types is None else expected_structs(types)
    report = ShaderReport(shaders=len(paths))
    for s in sets:
        decls: Dict[str, StructDecl] = {}
        for f in s.files:
            for d in read_structs(f):
                decls.setdefault(d.name, d)
        wanted = {n for n, d in decls.items() if n in chosen and d.kind == "struct"}
        for n, d in decls.items():
            if d.kind != "struct" or n in wanted:
                continue
            why = ("is not a schema type (no type has that C name)" if n not in every else
                   "is not among the --type types")
            report.skipped.append((d.where, n, why))
        if not wanted:
            continue
        folder = tempfile.mkdtemp(prefix=f"sarek-shader-{s.language}-")
        try:
            measured, extra, failures = _measure(s, decls, wanted, folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        report.failures += failures
        tool, short = TOOLS[s.language]
        for n in sorted(wanted, key=lambda n: (decls[n].file.shown, _line(decls[n].where))):
            # Not measured (its shader did not compile, or the probe cannot hold it): its
            # spellings are still compared, and the report says that is all it was.
            got = measured.get(n) or Measured(None, None)
            found = compare_struct(s.language, chosen[n], decls[n], got, short)
            found += [p for p in extra if p.struct == n]
            unmeasured = got.size is None and not got.members
            report.checked.append((decls[n].where, n, tool + (": not measured"
                                                              if unmeasured else ""), len(found)))
            report.problems += found
    return report


def _line(where: str) -> Tuple[int, int]:
    parts = where.rsplit(":", 2)
    try:
        return int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return 0, 0


def _measure(s, decls, wanted, folder):
    if s.language == GLSL:
        from .glsl import measure_glsl

        return measure_glsl(s, decls, wanted, folder)
    if s.language == METAL:
        from .metal import measure_metal

        return measure_metal(s, decls, wanted, folder)
    from .wgsl import measure_wgsl

    return measure_wgsl(s, decls, wanted, folder)

