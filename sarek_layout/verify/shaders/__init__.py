"""``verify --shader``: hand-written GLSL, WGSL and Metal structs against the schema, and the
model of the shading languages that ``verify``'s generated-file drivers share.

Every struct a shader declares under the C name of a schema type (or of a variant's
``<T>_<Ctor>_arm``) is compiled by the real compiler of its language, and what the compiler
built is compared member by member with the layout core (``check``): every member's name,
type, offset and size, and the struct's array stride and alignment, are read from the
compiler's output, never from the text (which a macro, an alias, an ``#if`` or a typedef can
change; the text only points at a line):

* GLSL (``.comp``, ``.glsl``, ``.vert``, ``.frag``, ray-tracing and mesh stages): glslang
  compiles the shader with probe buffers to SPIR-V, whose types and decorations say everything
  (``glsl``, ``spirv``); every block of the SPIR-V that holds a schema struct is judged by its
  own rules (``glsl_blocks``);
* WGSL (``.wgsl``): naga validates the shader and its type checker names each member's type,
  and a compute probe run by wgpu (Mesa's lavapipe on a CPU) reads every member back from a
  buffer of known words (``wgsl``, ``wgsl_probe``);
* Metal (``.metal``): clang++ as a proxy for Apple's compiler, with stand-in headers
  (``metal_stdlib``), its LLVM IR's debug information describing every member
  (``metal``, ``llvm_debug``).

Each language is one object (``language``: its lexicon, struct syntax, spellings, advice and
compiler), found by suffix in the ``registry``. Shader structs with no schema type are listed and
skipped; ``types`` narrows the check; a run that finds no struct to check exits 1, saying
what it looked for. The shaders are read once, before anything runs, with what they
``#include`` from the other shaders given or from ``include_dirs`` and nothing else
(``source``, ``lexer``); the compilers run in a temporary folder under ``tools.run_tool``'s
time and memory bounds, walled in (``sandbox``, ``metal.only_these_files``), and wgpu in a
child process under the same bounds.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple

from ...errors import ToolchainMissing
from ...ir.schema import Schema, SchemaType
from .check import Expected, Problem, compare_struct, expected_structs
from .reader import StructDecl, read_structs
from .registry import LANGUAGES
from .source import read_shaders
from .types import CompiledStruct

__all__ = ["verify_shaders", "ShaderReport"]


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
    #: What was looked for, when no struct of the shaders was checked (the report then
    #: fails: nothing checked is no agreement).
    nothing: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems and not self.failures and bool(self.checked)

    @property
    def exit_status(self) -> int:
        return 0 if self.ok else 1

    def differences(self) -> List[str]:
        return [str(p) for p in self.problems] + list(self.failures)

    def format(self) -> str:
        lines = []
        for where, name, tool, n in self.checked:
            verdict = ("not checked" if "did not compile" in tool else "agrees" if n == 0
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
        structs = sum(1 for c in self.checked if "did not compile" not in c[2])
        if not self.checked and not self.failures:
            return "\n".join(lines + [""] * bool(lines) + [f"error: no struct checked: "
                                                            f"{self.nothing}"]) + "\n"
        verdict = ("all agree" if self.ok else
                   f"{len(self.problems)} difference{'s' * (len(self.problems) != 1)}"
                   + (f", {len(self.failures)} shader{'s' * (len(self.failures) != 1)} "
                      f"not compiled" if self.failures else ""))
        lines += ["", f"{self.shaders} shader{'s' * (self.shaders != 1)}, {structs} "
                      f"struct{'s' * (structs != 1)} checked against the schema: {verdict}"]
        return "\n".join(lines) + "\n"


def verify_shaders(schema: Schema, paths: Sequence[str], include_dirs: Sequence[str] = (),
                   types: Optional[Sequence[SchemaType]] = None) -> ShaderReport:
    """Check every schema struct of the shaders ``paths`` (see the module docstring).

    Bad input (a shader that cannot be read, an ``#include`` outside what was given) raises
    ``SchemaError``/``UsageError`` before anything runs; a missing compiler raises
    ``ToolchainMissing``. A shader that does not compile is a failure of the report (exit 1).
    """
    from ..tools import memory_limit_mb, timeout_seconds

    timeout_seconds(), memory_limit_mb()  # a bad $SAREK_VERIFY_… is a usage error, up front
    sets = read_shaders(paths, include_dirs, list(LANGUAGES.values()))
    for s in sets:
        problem = s.language.missing()
        if problem:
            missing = ToolchainMissing(f"verify --shader {s.given[0].shown}: {problem}")
            missing.toolchain = s.language.toolchain  # type: ignore[attr-defined]
            raise missing
    every = expected_structs(schema.types)
    chosen = every if types is None else expected_structs(types)
    report = ShaderReport(shaders=len(paths), nothing=_looked_for(chosen, types is not None))
    for s in sets:
        _check_set(s, every, chosen, report)
    return report


def _looked_for(chosen: Dict[str, Expected], narrowed: bool) -> str:
    """One line: which struct names a shader had to declare to be checked."""
    names = sorted(chosen)
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    which = "the --type types" if narrowed else "the schema's types"
    return (f"no struct of the shaders has the C name of one of {which} ({shown}); verify "
            f"--shader checks a struct declared under that name")


def _named(lang, expected: Dict[str, Expected]) -> Dict[str, Expected]:
    """``expected`` by the names a struct of ``lang`` may have: the C name, and the name the
    language's generated code writes where it reserves the C name (GLSL's ``vec3_``: a
    struct cannot be named ``vec3`` there)."""
    out = dict(expected)
    for c_name, exp in expected.items():
        out.setdefault(lang.type_name(c_name), exp)
    return out


def _unwrap_elements(compiled: Dict[str, CompiledStruct]) -> None:
    """An array of element structs, each of one member ``v`` padded to the stride (as
    ``generate`` writes an element whose stride its language cannot say otherwise: WGSL's
    ``struct E { @size(16) v: f32 }``), is an array of that member's type: its stride is
    the struct's, measured."""
    from ...targets.naming import ELEMENT_MEMBER, is_padding

    def element(name: str):
        got = compiled.get(name)
        real = [m for m in got.members if not is_padding(m.name)] if got is not None else []
        return real[0].type if len(real) == 1 and real[0].name == ELEMENT_MEMBER else None

    def unwrap(t, depth: int = 0):
        if t.kind == "array" and t.elem is not None and depth < 64:
            inner = element(t.elem.name) if t.elem.kind == "struct" else None
            return replace(t, elem=unwrap(inner or t.elem, depth + 1))
        return t

    for got in compiled.values():
        for cm in got.members:
            cm.type = unwrap(cm.type)


def _check_set(s, every: Dict[str, Expected], chosen: Dict[str, Expected],
               report: ShaderReport) -> None:
    """Check the shaders of one language (``source.ShaderSet``) into ``report``."""
    every, chosen = _named(s.language, every), _named(s.language, chosen)
    decls: Dict[str, StructDecl] = {}
    for f in s.files:
        for d in read_structs(f):
            if d.name in decls and d.kind == decls[d.name].kind:
                decls[d.name].alternatives.append(d)
            decls.setdefault(d.name, d)
    wanted = {n for n, d in decls.items() if n in chosen and d.kind == "struct"}
    for n, d in decls.items():
        if d.kind != "struct" or n in wanted:
            continue
        why = ("is not a schema type (no type has that C name)" if n not in every else
               "is not among the --type types")
        report.skipped.append((d.where, n, why))
    if not wanted:
        return
    lang = s.language
    s.expected = every
    folder = tempfile.mkdtemp(prefix=f"sarek-shader-{lang.name}-")
    try:
        rules = {n: chosen[n].schema.rules for n in wanted}
        compiled, extra, failures = lang.measure(s, decls, wanted, folder, rules)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    report.failures += failures
    _unwrap_elements(compiled)
    for n in sorted(wanted, key=lambda n: (decls[n].file.shown, decls[n].line)):
        got: Optional[CompiledStruct] = compiled.get(n)
        decl = decls[n].at(got.place if got is not None else None)
        if got is None or not got.measured:
            report.checked.append((decl.where, n, f"{lang.tool}: the shader did not compile", 0))
            continue
        exp = chosen.get(got.name)
        if got.name != n and exp is None:
            report.skipped.append((decl.where, n, f"compiles as {got.name} (a macro), which "
                                                  f"is not a schema type"))
            continue
        found = compare_struct(lang, exp or chosen[n], got, decl, lang.short)
        found += [p for p in extra if p.struct == n]
        report.checked.append((decl.where, n, lang.tool, len(found)))
        report.problems += found
    report.problems += [p for p in extra if p.struct not in wanted]
