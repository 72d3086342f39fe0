"""How glslang is asked about a GLSL shader: the probe shader's buffers, its SPIR-V version,
the compile (confined to its folder, ``sandbox``), and the compiled structs read back from the
SPIR-V (``spirv``). ``glsl`` describes the probe; the generated-file driver
(``drivers.glsl``) writes its reflection shader with the same ``probe_structs``.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from ..tools import run_tool
from .sandbox import confined
from .spirv import Module, read_module
from .types import CompiledMember, CompiledStruct

if TYPE_CHECKING:
    from .source import ShaderSet

__all__ = ["STAGES", "BLOCK", "BINDING", "probe_member", "probe_structs", "probe_copies", "target_env",
           "compile_probe", "compiled_struct", "member_size"]

#: glslang stage per suffix; a .glsl file (no stage of its own) is compiled as compute.
STAGES = {".vert": "vert", ".frag": "frag", ".geom": "geom", ".tesc": "tesc", ".tese": "tese",
          ".comp": "comp", ".glsl": "comp", ".mesh": "mesh", ".task": "task", ".rgen": "rgen",
          ".rchit": "rchit", ".rmiss": "rmiss", ".rahit": "rahit", ".rint": "rint",
          ".rcall": "rcall"}
#: At most this many probe structs per buffer: one SPIR-V instruction (a struct type lists
#: its members in one) holds at most 65,535 words.
BLOCK = 4096
BINDING = 4000

#: Extensions whose SPIR-V needs version 1.4 (Vulkan 1.2): ray tracing, ray queries and
#: mesh shaders refuse an older target ("not supported for current targeted SPIR-V
#: version").
_SPV14 = re.compile(r"\bGL_(?:EXT|NV|KHR)_(?:ray_tracing|ray_query|mesh_shader|"
                    r"ray_tracing_position_fetch)\b")
_SPV14_STAGES = ("rgen", "rchit", "rmiss", "rahit", "rint", "rcall", "mesh", "task")


def probe_member(t: str, name: str) -> str:
    """A member ``name`` (``t[2]``) of type ``t``, which may be an array (``float[3]``):
    GLSL writes an array's lengths after the name, the member's own first."""
    base, bracket, dims = t.partition("[")
    return f"{base} {name}{bracket}{dims}" if bracket else f"{t} {name}"


def probe_structs(types: Sequence[str], layouts: Sequence[str] = ("std430",),
                  binding: int = 0, prefix: str = "SarekProbe",
                  layout_of: Optional[Sequence[str]] = None
                  ) -> Tuple[List[str], List[Tuple[str, str, range]]]:
    """The probe's declarations: ``struct <prefix>N { uint a; T t[2]; uint z; }`` for each type
    (index N), and buffers of at most ``BLOCK`` of them for each of ``layouts``, bound from
    ``binding`` on; then ``main``, which keeps every buffer in the SPIR-V. With ``layout_of``
    (a layout per type), each type is in the buffers of its own layout only. Returns the
    lines and the buffers as (block name, layout, the indexes it holds)."""
    lines = [f"struct {prefix}{i} {{ uint a; {probe_member(t, 't[2]')}; uint z; }};\n"
             for i, t in enumerate(types)]
    body, buffers = [], []
    groups = ([(layout, list(range(len(types)))) for layout in layouts] if layout_of is None
              else [(layout, [i for i, x in enumerate(layout_of) if x == layout])
                    for layout in dict.fromkeys(layout_of)])
    for layout, indexes in groups:
        for first in range(0, len(indexes), BLOCK):
            b = len(buffers)
            members = indexes[first:first + BLOCK]
            buffers.append((f"{prefix}In{b}", layout, members))
            lines.append(f"layout({layout}, binding = {binding + b}) buffer {prefix}In{b} {{\n")
            lines += [f"    {prefix}{i} p{i};\n" for i in members]
            lines.append(f"}} {prefix.lower()}_in{b};\n")
            body.append(f"    {prefix.lower()}_in{b}.p{members[0]}.a = 1u;\n")
    return lines + ["void main() {\n", *body, "}\n"], buffers


#: A copy of a type in a probe buffer: (struct id, array stride, alignment, size).
Copy = Tuple[int, Optional[int], int, Optional[int]]


def probe_copy(mod: Module, pid: int) -> Copy:
    """The copy of a type that probe struct ``pid`` (``{ uint a; T t[2]; uint z; }``) holds:
    ``T``'s array stride, its alignment (where ``t`` starts after the ``uint``) and its size
    (where ``z`` starts after ``t[1]``: the scalar block layout does not round a struct up to
    its alignment, an array stride does)."""
    (_, _, _), (_, align, arr), (_, end, _) = mod.members(pid)[:3]
    stride = mod.strides.get(arr)
    size = end - align - stride if stride is not None and end >= 0 else None
    return mod.element(arr), stride, align, size


def probe_copies(mod: Module, buffers: Sequence[Tuple[str, str, range]], types: Sequence[str]
                 ) -> Dict[str, Dict[str, Copy]]:
    """type -> layout -> its copy in that probe buffer (``probe_copy``)."""
    out: Dict[str, Dict[str, Copy]] = {}
    for block, layout, indexes in buffers:
        bid = mod.struct_id(block)
        if bid is None:
            continue
        for i, (_, _, pid) in zip(indexes, mod.members(bid)):
            out.setdefault(types[i], {})[layout] = probe_copy(mod, pid)
    return out


def target_env(stage: str, text: str) -> str:
    """glslang's ``--target-env`` for a shader of ``stage`` whose text (comments blanked)
    is ``text``: Vulkan 1.2 (SPIR-V 1.4) where the stage or an extension needs it."""
    return "vulkan1.2" if stage in _SPV14_STAGES or _SPV14.search(text) else "vulkan1.1"


_VERSION = re.compile(r"[ \t]*(\d+)[ \t]*(\w*)")


def compile_probe(shaders: "ShaderSet", f, types: List[str], folder: str, n: int,
                  find: Sequence[str] = ()) -> Tuple[Optional[Module], list, str, dict]:
    """Compile the probe of ``types`` over root file ``f``: the module and the probe's
    buffers (``probe_structs``), or why not (the compiler's words, with the user's paths);
    and where glslang's preprocessor leaves the declaration of each struct of ``find``."""
    version = "450"
    for d in f.directives:
        if d.name == "version":
            m = _VERSION.match(d.rest)
            if m:
                version = " ".join(filter(None, m.groups()))
                # Blank it: #version must be the first line of what glslang compiles.
                end = f.text.index("\n", d.offset) if "\n" in f.text[d.offset:] else len(f.text)
                with open(os.path.join(folder, f.name), "w", encoding="utf-8",
                          errors="surrogateescape") as out:
                    out.write(f.text[:d.offset] + " " * (end - d.offset) + f.text[end:])
            break
    stage = STAGES.get(os.path.splitext(f.shown)[1].lower(), "comp")
    probe = f"sarek_shader_probe{n}_{os.path.basename(f.name)}.{stage}"
    head = [f"#version {version}\n", "#extension GL_GOOGLE_include_directive : require\n",
            "#extension GL_EXT_scalar_block_layout : require\n",
            "#define main sarek_user_main\n", f'#include "{f.name}"\n', "#undef main\n"]
    lines, buffers = probe_structs(types, ("std430", "scalar", "std140"), BINDING,
                                   "SarekShaderProbe")
    with open(os.path.join(folder, probe), "w") as out:
        out.write("".join(head + lines))
    env = target_env(stage, "\n".join(g.stripped for g in shaders.visible(f)))
    # Confined to the folder where the kernel allows it (sandbox): an include the scan
    # missed could not read a file outside it either.
    run = run_tool(confined(["glslangValidator", "-V", "--target-env", env, "-S", stage,
                             "-Iinc", "-Isrc", probe, "-o", "probe.spv"], folder),
                   cwd=folder, label="glslangValidator")
    if not run.ok:
        text = shaders.readable(run.stdout + run.stderr, folder).replace(probe, "(probe)")
        return None, buffers, run.problem or _errors(text), {}
    places = _declared_at(folder, probe, stage, find) if find else {}
    with open(os.path.join(folder, "probe.spv"), "rb") as spv:
        return read_module(spv.read()), buffers, "", places


_LINE = re.compile(r'#line\s+(\d+)\s+"(?:\./)*([^"]*)"')


def _declared_at(folder: str, probe: str, stage: str, names: Sequence[str]
                 ) -> Dict[str, Tuple[str, int]]:
    """Where each struct of ``names`` is declared in what glslang's preprocessor keeps
    (``-E`` keeps every line in its place and marks each included file with ``#line``): the
    live one of several ``#if`` branches."""
    run = run_tool(confined(["glslangValidator", "-E", "-S", stage, "-Iinc", "-Isrc", probe],
                            folder), cwd=folder, label="glslangValidator")
    wanted = re.compile(r"\bstruct\s+(" + "|".join(map(re.escape, names)) + r")\s*\{")
    out: Dict[str, Tuple[str, int]] = {}
    file, line = probe, 0
    for text in run.stdout.splitlines() if run.ok else []:
        line += 1
        m = _LINE.match(text.strip())
        if m:
            file, line = m.group(2), int(m.group(1)) - 1
            continue
        for s in wanted.finditer(text):
            out.setdefault(s.group(1), (file, line))
    return out


def _errors(text: str) -> str:
    """glslang's errors in the user's files (those of the probe lines only when there are
    none: they follow from the first), without its ``ERROR:`` prefixes and summaries."""
    lines = [re.sub(r"^ERROR:\s*", "", ln.strip()) for ln in text.splitlines()
             if "ERROR" in ln or "error" in ln]
    lines = [ln for ln in lines if "compilation errors" not in ln and
             not ln.startswith("Linking")]
    mine = [ln for ln in lines if not ln.startswith("(probe)")]
    return "; ".join((mine or lines)[:5]) or text.strip()[:400]


def member_size(mod: Module, tid: int, sizes: Dict[int, int], sid: int, k: int,
                unpadded: bool = False) -> Optional[int]:
    """Bytes member ``k`` (type ``tid``) of struct ``sid`` occupies, as laid out there;
    ``sizes`` holds the measured size of each probed struct, by type id. ``unpadded``: the
    block is GL_EXT_scalar_block_layout's, where an array ends at its last element."""
    t = mod.types.get(tid, ("",))
    if t[0] == "array":
        n, stride = mod.length(tid), mod.strides.get(tid)
        if not (n and stride):
            return None
        last = member_size(mod, t[1], sizes, sid, k, unpadded) if unpadded else stride
        return (n - 1) * stride + last if last is not None else None
    if t[0] == "struct":
        return sizes.get(tid)
    if t[0] == "matrix":
        stride = mod.matrix_strides.get((sid, k))
        return t[2] * stride if stride else None
    return mod.scalar_bytes(tid)


def member_levels(mod: Module, tid: int, sid: int, k: int
                  ) -> Tuple[Tuple[int, Optional[int]], ...]:
    """Each array, matrix and vector level of member ``k`` (type ``tid``) of struct ``sid``:
    its count and stride (``ArrayStride``, the member's ``MatrixStride``, a component's
    bytes), outermost first."""
    out: List[Tuple[int, Optional[int]]] = []
    for _ in range(64):
        t = mod.types.get(tid, ("",))
        if t[0] == "array":
            out.append((mod.length(tid), mod.strides.get(tid)))
        elif t[0] == "matrix":
            out.append((t[2], mod.matrix_strides.get((sid, k))))
        elif t[0] == "vector":
            out.append((t[2], mod.scalar_bytes(t[1])))
        else:
            break
        tid = t[1]
    return tuple(out)


def compiled_struct(mod: Module, sid: int, sizes: Dict[int, int], size: Optional[int],
                    align: Optional[int], unpadded: bool = False) -> CompiledStruct:
    """Struct ``sid`` of ``mod`` as ``types.CompiledStruct`` (``unpadded``: as laid out in a
    scalar block)."""
    members = [CompiledMember(name, mod.gpu_type(tid), off if off >= 0 else None,
                              member_size(mod, tid, sizes, sid, k, unpadded),
                              member_levels(mod, tid, sid, k))
               for k, (name, off, tid) in enumerate(mod.members(sid))]
    return CompiledStruct(mod.names.get(sid, ""), members, size, align)
