"""GLSL: glslang compiles the generated ``.glsl`` to SPIR-V, whose decorations give the numbers
(the ``glslang`` toolchain), read by the one SPIR-V reader (``shaders.spirv``; spirv-cross's
reflection is its test oracle).

One probe shader includes every file and declares std430 buffers holding, for each probed
type ``T``, ``struct SarekProbe<N> { uint a; T t[2]; }``: the reflected array stride of ``t`` is
``T``'s size, the offset of ``t`` its alignment (the ``uint`` before it is 4-aligned), and the
reflected member offsets of ``T`` and of the structs it uses are every member offset. A
constructor argument, kept in payload words, is measured on the arm struct
``<T>_<Ctor>_arm`` the file declares (the element typed as that constructor); the accessors
that read the words are measured by running them (the ``vulkan`` toolchain). So are the
uint8 and float16 members, which live inside 32-bit words (``_sarek_bytes<N>``): SPIR-V gives
the words' offsets, not a byte's within one, so glslang leaves those values unmeasured. One
glslang invocation for the whole probe list.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

from ..probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, STRIDE, Probe
from ..tools import ToolRun, run_tool
from . import Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt
from ..shaders.glsl import GLSL, probe_structs
from ..shaders.glsl_probe import member_size, probe_copy
from ..shaders.spirv import read_module
from .gpu_probes import GLSL_PROBE, SMALL_SCALARS, below_a_word, lay_out, parse_structs, single_arms
from .gpu_reads import split_member, typed_structs

__all__ = ["compile_glsl", "reflection_source", "struct_layouts", "reflect_spirv",
           "GlslangDriver", "GLSLANG_ARGS"]

#: glslang for Vulkan 1.1 SPIR-V; -I for the include folders.
GLSLANG_ARGS = ("glslangValidator", "-V", "--target-env", "vulkan1.1")


def compile_glsl(who: str, source: str, headers: HeaderSet, argv: Sequence[str] = GLSLANG_ARGS) -> bytes:
    """SPIR-V of the compute shader ``source`` that includes ``headers``."""
    with tempfile.TemporaryDirectory(prefix="sarek-glsl-") as tmp:
        flags = lay_out(headers, tmp)
        src = os.path.join(tmp, "sarek_probe.comp")
        out = os.path.join(tmp, "sarek_probe.spv")
        with open(src, "w") as f:
            f.write(source)
        # Through run_tool, as every compiler: its time and memory bounds, and killed with
        # the batch when verify is interrupted.
        run = run_tool([*argv, *flags, src, "-o", out], cwd=tmp)
        if not run.ok:
            raise ProbeFailed(who, _diagnostics(run, tmp))
        with open(out, "rb") as f:
            return f.read()


def _diagnostics(run: ToolRun, tmp: str) -> str:
    """Why a program failed (stopped, or its own messages), with the temporary folder cut."""
    text = "\n".join(part for part in (run.problem, run.stdout, run.stderr) if part)
    return error_excerpt(text.replace(tmp + "/", ""))


def _arm(c_type: str, ctor: str) -> str:
    from ...targets.naming import arm_struct_name

    return arm_struct_name(c_type, ctor)


def reflection_source(headers: HeaderSet, types: Sequence[str],
                      layouts: Optional[Sequence[str]] = None) -> str:
    """A compute shader whose buffers hold a ``SarekProbe<N>`` per type of ``types``
    (``shaders.glsl.probe_structs``: at most ``BLOCK`` per buffer), each in a block of its
    ``layouts`` entry (std430 by default: std140 and scalar for types of those rules)."""
    lines, _ = probe_structs(types, layout_of=layouts)
    return ("#version 450\n#extension GL_GOOGLE_include_directive : require\n"
            "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
            "#extension GL_EXT_scalar_block_layout : require\n"
            + headers.include_lines() + "layout(local_size_x = 1) in;\n" + "".join(lines))


def reflect_spirv(who: str, spirv: bytes) -> dict:
    """spirv-cross's JSON reflection of ``spirv`` (the reference the SPIR-V reader is tested
    against; it is quadratic in the number of types, so measuring uses ``struct_layouts``)."""
    with tempfile.TemporaryDirectory(prefix="sarek-spvc-") as tmp:
        path = os.path.join(tmp, "probe.spv")
        with open(path, "wb") as f:
            f.write(spirv)
        run = run_tool(["spirv-cross", path, "--reflect"], cwd=tmp)
    if not run.ok:
        raise ProbeFailed(who, "spirv-cross --reflect failed: " + _diagnostics(run, tmp))
    return json.loads(run.stdout)


class GlslangDriver(Driver):
    """glslang + spirv-cross reflection (no device needed)."""

    subprocess_only = True  # run_tool only; its SPIR-V reader is pure Python (Driver.subprocess_only)
    estimate_s = 0.1

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        from ...targets.dialects import GLSL
        from ...targets.naming import escape

        who = self.toolchain.display
        start = time.perf_counter()
        esc = lambda n: escape(n, GLSL)  # noqa: E731
        structs = parse_structs(GLSL_PROBE, [t for _, t in headers.files])
        single = single_arms(probes)

        def target(p: Probe) -> Tuple[str, str]:
            """The struct and member a probe reads: arguments on the arm struct (a single
            argument is probed as the arm itself, ``data.<Ctor>_v``)."""
            t = esc(p.c_type)
            parts = split_member(p.member)[0] if p.member else [""]
            if len(parts) == 2 and (p.c_type, parts[1]) in single:
                return esc(_arm(t, parts[1][:-2])), esc("_0")
            if parts[0] == "data" and len(parts) == 3:
                return esc(_arm(t, parts[1][:-2])), esc(parts[2])
            if parts[0] == "data":
                return t, "data"
            return t, esc(parts[0])

        typed = typed_structs(GLSL_PROBE, [t for _, t in headers.files])
        types: Dict[str, int] = {}
        layout_of: List[str] = []

        def add(t: str, p: Probe) -> None:
            if t not in types:
                types[t] = len(types)
                layout_of.append(_layout(p))

        def occupied(t: str, member: str) -> Optional[str]:
            """An array or matrix member's type, spelled: what it occupies is measured on
            a probe of its own (the scalar layout ends an array at its last element)."""
            mt = dict(typed.get(t, ())).get(member)
            return GLSL_PROBE.spell(mt) if mt is not None and mt.kind in ("array", "matrix") else None

        for p in probes:
            if p.enum:
                continue
            t, member = target(p)
            add(t, p)
            for m, mt, _ in structs.get(t, []):
                if m == member and mt in structs:
                    add(mt, p)
            if p.quantity == MEMBER_SIZE and occupied(t, member):
                add(occupied(t, member), p)  # type: ignore[arg-type]
        if not types:
            return Measurement((("", tuple(None for _ in probes)),), 0.0)
        spirv = compile_glsl(who, reflection_source(headers, list(types), layout_of), headers)
        values = _values(read_module(spirv), probes, types, target, occupied)
        return Measurement((("", below_a_word(probes, values)),), time.perf_counter() - start)


def _values(mod, probes: Sequence[Probe], types: Dict[str, int], target, occupied
            ) -> List[Optional[int]]:
    """Each probe's value, read from the decorations of the reflection module ``mod``."""
    decorated = {mod.names.get(sid, ""): sid for sid, t in mod.types.items()
                 if t[0] == "struct" and len(t) > 1 and (sid, 0) in mod.offsets}
    probe = {t: decorated.get(f"SarekProbe{i}") for t, i in types.items()}
    copies = {t: probe_copy(mod, pid) for t, pid in probe.items() if pid is not None}
    sizes: Dict[int, int] = {decorated[t]: c[3] for t, c in copies.items()
                             if t in decorated and c[3] is not None}

    def of_probe(t: str, what: int) -> int:
        """The probed type's alignment (2) or size (3)."""
        c = copies.get(t)
        value = c[what] if c is not None else None
        return value if value is not None else -1

    def member_value(p: Probe, t: str, member: str) -> Optional[int]:
        sid = decorated.get(t)
        found = [(k, off, tid) for k, (name, off, tid) in enumerate(mod.members(sid))
                 if name == member] if sid is not None else []
        if not found:
            # A scalar smaller than a word kept inside a 32-bit word (_sarek_bytes<N>): SPIR-V
            # has no offset for a byte of a member. The vulkan toolchain runs its accessor.
            return None if p.scalar in SMALL_SCALARS else -1
        (k, off, tid), = found
        if p.quantity == OFFSET:
            return off
        if p.quantity == STRIDE:  # of bytes kept as words: none of the words has it
            return None if p.scalar in SMALL_SCALARS else \
                _stride(mod, sid, k, tid, split_member(p.member)[1][:-1])  # type: ignore[arg-type]
        if occupied(t, member):
            return of_probe(occupied(t, member), 3)
        size = member_size(mod, tid, sizes, sid, k)  # type: ignore[arg-type]
        return size if size is not None else -1

    out: List[Optional[int]] = []
    for p in probes:
        t, member = target(p)
        if p.enum:
            out.append(None)  # an enum: constants, no type of its name
        elif p.quantity in (SIZE, ALIGN):
            out.append(of_probe(t, 3 if p.quantity == SIZE else 2))
        else:
            out.append(member_value(p, t, member))
    return out


def _stride(mod, sid: int, k: int, tid: int, steps: Sequence[str]) -> int:
    """The ArrayStride (or, of a matrix, the member's MatrixStride) of the array a
    designator's last index is in: ``tid`` (member ``k`` of ``sid``) after ``steps``."""
    for step in steps:
        t = mod.types.get(tid, ("",))
        if step.startswith("[") and t[0] in ("array", "matrix"):
            tid = t[1]
        elif t[0] == "struct":  # a wrapped element: GLSL declares none, a header may
            names = [name for name, _, _ in mod.members(tid)]
            if step[1:] in names:
                sid, k = tid, names.index(step[1:])
                tid = mod.members(tid)[k][2]
    t = mod.types.get(tid, ("",))
    if t[0] == "matrix":
        return mod.matrix_strides.get((sid, k), -1)
    return mod.strides.get(tid, -1)


def _layout(p: Probe) -> str:
    """The block a type of ``p``'s rule set is measured in: the one the generated file
    declares it for (``shader_kinds.block_of``)."""
    from ...codegen.shader_kinds import block_of
    from ...targets.dialects import GLSL as GLSL_DIALECT

    return block_of(GLSL_DIALECT, p.rules)


def struct_layouts(spirv: bytes) -> Dict[str, Dict[str, Tuple[int, str, int]]]:
    """Struct name -> member -> (offset, type name, array stride or -1), read by the SPIR-V
    reader (``shaders.spirv``): only the explicitly laid out copy of each struct (the one
    glslang decorates with offsets); an array member is named by its element type."""
    mod = read_module(spirv)
    out: Dict[str, Dict[str, Tuple[int, str, int]]] = {}
    for sid, t in mod.types.items():
        if t[0] != "struct" or len(t) < 2 or (sid, 0) not in mod.offsets:
            continue
        out[mod.names.get(sid, f"_{sid}")] = {
            name: (off, GLSL.spell(mod.gpu_type(mod.element(tid))), mod.strides.get(tid, -1))
            for name, off, tid in mod.members(sid)}
    return out
