"""GLSL shaders measured by glslang: the user's shader compiled to SPIR-V together with one
probe buffer, and the layout read from the SPIR-V's own decorations.

For each given file, the compile folder holds the file (its ``#version`` line blanked, so
that it can be included) and what it includes (``source``), and a probe shader::

    #version <the shader's>
    #define main sarek_user_main      // the shader's entry point becomes a plain function
    #include "src/<file>"
    #undef main
    struct SarekShaderProbe0 { uint a; T t[2]; };   // for each struct T to measure
    layout(std430, binding = 4000) buffer SarekShaderIn { SarekShaderProbe0 p0; … } …;
    void main() { … }

The probe copy of ``T`` is its std430 layout (its scalar layout when every block of the
shader that holds ``T`` is ``layout(scalar)``, GL_EXT_scalar_block_layout's C-like rules): its member offsets are ``T``'s, the array
stride of ``t`` its size and the offset of ``t`` its alignment (the ``uint`` before it is
4-aligned). The shader's own blocks stay in the SPIR-V as it declared them: a schema struct
used in a block whose copy of it has other offsets (a ``uniform`` block is std140: arrays and
structs rounded to 16 bytes) is reported at that block, with what to write instead.
glslang and spirv-cross's reflection agree on these decorations (the ``glslang`` toolchain's
tests); reading them directly keeps the check linear in the shader.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Set, Tuple

from ..tools import run_tool
from .check import Measured, MeasuredMember, Problem
from .language import ShadingLanguage
from .lexer import GLSL_LEXICON
from .sandbox import confined
from .reader import StructDecl
from .source import ShaderSet, strip_comments
from .spirv import UNIFORM, Module, read_module

__all__ = ["measure_glsl", "STAGES", "TOOL"]

TOOL = "glslang"
#: glslang stage per suffix; a .glsl file (no stage of its own) is compiled as compute.
STAGES = {".vert": "vert", ".frag": "frag", ".geom": "geom", ".tesc": "tesc", ".tese": "tese",
          ".comp": "comp", ".glsl": "comp", ".mesh": "mesh", ".task": "task", ".rgen": "rgen",
          ".rchit": "rchit", ".rmiss": "rmiss", ".rahit": "rahit", ".rint": "rint",
          ".rcall": "rcall"}


class Glsl(ShadingLanguage):
    name = "glsl"
    suffixes = tuple(STAGES)
    lexicon = GLSL_LEXICON
    toolchain = tool = short = "glslang"

    def missing(self):
        import shutil

        if shutil.which("glslangValidator") is None:
            return "glslangValidator not found; apt-get install -y glslang-tools"
        return None


GLSL = Glsl()
BINDING = 4000
BLOCK = 4096

_VERSION = re.compile(r"^[ \t]*#[ \t]*version[ \t]+(\d+)[ \t]*(\w*)[ \t\r]*$", re.M)


class ShaderFailed(Exception):
    """The shader (with the probes) does not compile: ``output`` is the compiler's words."""

    def __init__(self, output: str) -> None:
        super().__init__(output)
        self.output = output


def _probe_source(version: str, name: str, types: List[str], scalar: Set[str]) -> str:
    """The probe shader: ``types`` in a std430 buffer, those of ``scalar`` in a
    ``layout(scalar)`` one (GL_EXT_scalar_block_layout: the C layout, vec3 aligned to 4)."""
    lines = [f"#version {version}\n",
             "#extension GL_GOOGLE_include_directive : require\n",
             *(["#extension GL_EXT_scalar_block_layout : require\n"] if scalar else []),
             "#define main sarek_user_main\n",
             f'#include "{name}"\n',
             "#undef main\n"]
    lines += [f"struct SarekShaderProbe{i} {{ uint a; {t} t[2]; }};\n" for i, t in enumerate(types)]
    # At most BLOCK members per buffer: a SPIR-V instruction (the block's struct type) holds
    # at most 65,535 words (as drivers/glsl.py does).
    buffers = [(layout, chunk[k:k + BLOCK])
               for layout in ("std430", "scalar")
               for chunk in [[i for i, t in enumerate(types) if (t in scalar) == (layout == "scalar")]]
               for k in range(0, len(chunk), BLOCK)]
    main = []
    for b, (layout, members) in enumerate(buffers):
        if members:
            lines.append(f"layout({layout}, binding = {BINDING + b}) buffer SarekShaderIn{b} {{\n")
            lines += [f"    SarekShaderProbe{i} p{i};\n" for i in members]
            lines.append(f"}} sarek_shader_in{b};\n")
            main.append(f"    sarek_shader_in{b}.p{members[0]}.a = 1u;\n")
    return "".join(lines + ["void main() {\n", *main, "}\n"])


def _scalar_types(decls: Dict[str, StructDecl], files) -> Set[str]:
    """Structs that every block holding them (directly or nested) declares ``layout(scalar)``:
    those are measured in a scalar probe buffer, as the shader uses them."""
    reached: Dict[str, Set[bool]] = {}
    for b in decls.values():
        if b.kind != "block" or b.file not in files:
            continue
        is_scalar = "scalar" in re.split(r"[\s,=]+", b.layout)
        stack, seen = [m.type for m in b.members], set()
        while stack:
            t = stack.pop()
            d = decls.get(t)
            if d is None or d.kind != "struct" or t in seen:
                continue
            seen.add(t)
            reached.setdefault(t, set()).add(is_scalar)
            stack.extend(m.type for m in d.members)
    return {t for t, kinds in reached.items() if kinds == {True}}


def _member_size(mod: Module, tid: int, sizes: Dict[str, int], sid: int, k: int) -> Optional[int]:
    t = mod.types.get(tid, ("",))
    if t[0] == "array":
        n = mod.length(tid)
        stride = mod.strides.get(tid)
        return n * stride if n and stride else None
    if t[0] == "struct":
        return sizes.get(mod.names.get(tid, ""))
    if t[0] == "matrix":
        stride = mod.matrix_strides.get((sid, k))
        return t[2] * stride if stride else None
    return mod.scalar_bytes(tid)


def _layout_of(mod: Module, sid: int, sizes: Dict[str, int]) -> Dict[str, MeasuredMember]:
    return {name: MeasuredMember(off if off >= 0 else None,
                                 _member_size(mod, tid, sizes, sid, k))
            for k, (name, off, tid) in enumerate(mod.members(sid))}


def _nested(decls: Dict[str, StructDecl], wanted: List[str]) -> List[str]:
    """``wanted`` and every struct their members use (as declared), each once."""
    out: Dict[str, None] = {}
    stack = list(wanted)
    while stack:
        name = stack.pop(0)
        if name in out or name not in decls:
            continue
        out[name] = None
        stack.extend(m.type for m in decls[name].members if m.type in decls)
    return list(out)


def measure_glsl(shaders: ShaderSet, decls: Dict[str, StructDecl], wanted: Set[str],
                 folder: str) -> Tuple[Dict[str, Measured], List[Problem], List[str]]:
    """Measure the structs of ``wanted`` (names in ``decls``) with glslang: their std430
    layouts, std140 problems of the shader's blocks, and the compile failures (readable)."""
    measured: Dict[str, Measured] = {}
    problems: List[Problem] = []
    failures: List[str] = []
    shaders.lay_out(folder)
    for f in shaders.roots():
        mine = shaders.visible(f)
        todo = [n for n, d in decls.items() if n in wanted and d.file in mine and d.kind == "struct"
                and n not in measured]
        types = _nested({n: d for n, d in decls.items() if d.kind == "struct"}, todo)
        if not todo:
            continue  # nothing of the schema here: the shader's blocks cannot hold any of it
        m = _VERSION.search(f.stripped or strip_comments(f.text))
        version = " ".join(filter(None, m.groups())) if m else "450"
        if m:  # blank it: #version must be the first line of what glslang compiles
            with open(os.path.join(folder, f.name), "w", encoding="utf-8",
                      errors="surrogateescape") as out:
                out.write(f.text[:m.start()] + " " * (m.end() - m.start()) + f.text[m.end():])
        stage = STAGES.get(os.path.splitext(f.shown)[1].lower(), "comp")
        probe = f"sarek_shader_probe{len(failures)}_{os.path.basename(f.name)}.{stage}"
        with open(os.path.join(folder, probe), "w") as out:
            out.write(_probe_source(version, f.name, types, _scalar_types(decls, mine)))
        # Confined to the folder where the kernel allows it (sandbox): an include the scan
        # missed could not read a file outside it either.
        run = run_tool(confined(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-S",
                                 stage, "-Iinc", "-Isrc", probe, "-o", "probe.spv"], folder),
                       cwd=folder, label="glslangValidator")
        if not run.ok:
            text = shaders.readable(run.stdout + run.stderr, folder).replace(probe, "(probe)")
            failures.append(f"{f.shown}: glslang: " + (run.problem or _errors(text)))
            continue
        with open(os.path.join(folder, "probe.spv"), "rb") as spv:
            mod = read_module(spv.read())
        sizes: Dict[str, int] = {}
        copies: Dict[str, int] = {}
        for i, t in enumerate(types):
            pid = mod.struct_id(f"SarekShaderProbe{i}")
            if pid is None:
                continue
            (_, _, _), (_, align, arr) = mod.members(pid)
            copies[t] = mod.element(arr)
            stride = mod.strides.get(arr)
            if stride is not None:
                sizes[t] = stride
            measured.setdefault(t, Measured(stride, align))
        for t, sid in copies.items():
            measured[t].members = _layout_of(mod, sid, sizes)
        problems += _block_problems(mod, decls, copies, sizes, wanted, mine)
    return measured, problems, failures


def _errors(text: str) -> str:
    """glslang's errors in the user's files (those of the probe lines only when there are
    none: they follow from the first), without its ``ERROR:`` prefixes and summaries."""
    lines = [re.sub(r"^ERROR:\s*", "", ln.strip()) for ln in text.splitlines()
             if "ERROR" in ln or "error" in ln]
    lines = [ln for ln in lines if "compilation errors" not in ln and
             not ln.startswith("Linking")]
    mine = [ln for ln in lines if not ln.startswith("(probe)")]
    return "; ".join((mine or lines)[:5]) or text.strip()[:400]


def _block_problems(mod: Module, decls: Dict[str, StructDecl], copies: Dict[str, int],
                    sizes: Dict[str, int], wanted: Set[str], files) -> List[Problem]:
    """Schema structs a shader block lays out otherwise than std430 (std140, mostly)."""
    out: List[Problem] = []
    blocks = {name: d for name, d in decls.items() if d.kind == "block" and d.file in files}
    for bid in mod.blocks:
        bname = mod.names.get(bid, "")
        decl = blocks.get(bname)
        if decl is None:
            continue
        layout = decl.layout
        if "scalar" in re.split(r"[\s,=]+", layout):
            continue  # the C layout itself: the struct's own check says whether it agrees
        uniform = any(cls == UNIFORM and t == bid for cls, t in mod.variables.values())
        std = "std140" if "std140" in layout or (uniform and "std430" not in layout
                                                 and "scalar" not in layout) else "its layout"
        found: Dict[str, str] = {}
        _walk(mod, bid, copies, sizes, wanted, found, 0)
        for t, why in found.items():
            fix = ("declare it `layout(std430) buffer` (a storage buffer), or keep a uniform "
                   "block with GL_EXT_scalar_block_layout's `layout(scalar)`" if uniform else
                   "declare the block `layout(std430)`")
            out.append(Problem(decl.where, t, f"{bname} is a {'uniform' if uniform else 'buffer'} "
                               f"block laid out {std}, where the schema needs std430 (the C "
                               f"layout): {why}; {fix}"))
    return out


def _walk(mod: Module, sid: int, copies: Dict[str, int], sizes: Dict[str, int], wanted: Set[str],
          found: Dict[str, str], depth: int) -> None:
    if depth > 64:
        return
    for name, _off, tid in mod.members(sid):
        elem = mod.element(tid)
        if mod.types.get(elem, ("",))[0] != "struct":
            continue
        t = mod.names.get(elem, "")
        if t in wanted and t in copies and t not in found:
            if mod.types.get(tid, ("",))[0] == "array" and tid in mod.strides and \
                    sizes.get(t) is not None and mod.strides[tid] != sizes[t]:
                found[t] = (f"an array of {t} ({name}) has a stride of {mod.strides[tid]} "
                            f"bytes, where {t} is {sizes[t]} bytes (its std430 and C array stride)")
            elif elem != copies[t]:
                mine = {n: o for n, o, _ in mod.members(elem)}
                ref = {n: o for n, o, _ in mod.members(copies[t])}
                bad = [n for n in ref if mine.get(n) != ref[n]]
                if bad:
                    n = bad[0]
                    found[t] = (f"{t}.{n} is at offset {mine.get(n)} there, at {ref[n]} in "
                                f"std430")
        _walk(mod, elem, copies, sizes, wanted, found, depth + 1)

