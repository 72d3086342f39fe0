"""GLSL: glslang compiles the generated ``.glsl`` to SPIR-V, and spirv-cross's reflection of
that SPIR-V gives the numbers (the ``glslang`` toolchain).

One probe shader includes every file and declares one std430 buffer holding, for each probed
type ``T``, ``struct SarekProbe<N> { uint a; T t[2]; }``: the reflected array stride of ``t`` is
``T``'s size, the offset of ``t`` its alignment (the ``uint`` before it is 4-aligned), and the
reflected member offsets of ``T`` and of the structs it uses are every member offset. A
constructor argument, kept in payload words, is measured on the arm struct
``<T>_<Ctor>_arm`` the file declares (the element typed as that constructor); the accessors
that read the words are measured by running them (the ``vulkan`` toolchain). One glslang and
one spirv-cross invocation for the whole probe list.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from typing import Dict, List, Sequence, Tuple

from ..probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, Probe
from . import Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt
from .gpu_probes import GLSL_PROBE, parse_structs

__all__ = ["compile_glsl", "reflection_source", "GlslangDriver", "GLSLANG_ARGS"]

#: glslang for Vulkan 1.1 SPIR-V; -I for the include folders.
GLSLANG_ARGS = ("glslangValidator", "-V", "--target-env", "vulkan1.1")


def compile_glsl(who: str, source: str, headers: HeaderSet, argv: Sequence[str] = GLSLANG_ARGS) -> bytes:
    """SPIR-V of the compute shader ``source`` that includes ``headers``."""
    with tempfile.TemporaryDirectory(prefix="sarek-glsl-") as tmp:
        headers.write(tmp)
        src = os.path.join(tmp, "sarek_probe.comp")
        out = os.path.join(tmp, "sarek_probe.spv")
        with open(src, "w") as f:
            f.write(source)
        flags = [f"-I{d}" for d in (tmp, *headers.search_dirs)]
        proc = subprocess.run([*argv, *flags, src, "-o", out], capture_output=True, text=True,
                              cwd=tmp)
        if proc.returncode != 0:
            raise ProbeFailed(who, error_excerpt((proc.stdout + proc.stderr).replace(tmp + "/", "")))
        with open(out, "rb") as f:
            return f.read()


def _arm(c_type: str, ctor: str) -> str:
    from ...codegen.shader_views import arm_struct_name

    return arm_struct_name(c_type, ctor)


def reflection_source(headers: HeaderSet, types: Sequence[str]) -> str:
    """A compute shader whose one buffer holds a ``SarekProbe<N>`` per type of ``types``."""
    lines = ["#version 450\n#extension GL_GOOGLE_include_directive : require\n"
             "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n",
             headers.include_lines()]
    lines.extend(f"struct SarekProbe{i} {{ uint a; {t} t[2]; }};\n" for i, t in enumerate(types))
    lines.append("layout(std430, binding = 0) buffer SarekIn {\n")
    lines.extend(f"    SarekProbe{i} p{i};\n" for i in range(len(types)))
    lines.append("} sarek_in;\nlayout(local_size_x = 1) in;\n"
                 "void main() { sarek_in.p0.a = 1u; }\n")
    return "".join(lines)


def _reflect(who: str, spirv: bytes) -> dict:
    with tempfile.TemporaryDirectory(prefix="sarek-spvc-") as tmp:
        path = os.path.join(tmp, "probe.spv")
        with open(path, "wb") as f:
            f.write(spirv)
        proc = subprocess.run(["spirv-cross", path, "--reflect"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise ProbeFailed(who, "spirv-cross --reflect failed: " + error_excerpt(proc.stderr))
    return json.loads(proc.stdout)


class GlslangDriver(Driver):
    """glslang + spirv-cross reflection (no device needed)."""

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        from ...codegen.dialects import GLSL
        from ...codegen.shader_views import escape

        who = self.toolchain.display
        start = time.perf_counter()
        esc = lambda n: escape(n, GLSL)  # noqa: E731
        structs = parse_structs(GLSL_PROBE, [t for _, t in headers.files])

        def target(p: Probe) -> Tuple[str, str]:
            """The struct and member a probe reads: arguments on the arm struct."""
            t = esc(p.c_type)
            parts = p.member.split(".")
            if parts[0] == "data" and len(parts) == 3:
                return esc(_arm(t, parts[1][:-2])), esc(parts[2])
            if parts[0] == "data":
                return t, "data"
            return t, esc(parts[0]) if p.member else ""

        types: Dict[str, int] = {}
        for p in probes:
            t, member = target(p)
            types.setdefault(t, len(types))
            for m, mt, _ in structs.get(t, []):
                if m == member and mt in structs:
                    types.setdefault(mt, len(types))
        if not types:
            return Measurement((("", ()),), 0.0)
        spirv = compile_glsl(who, reflection_source(headers, list(types)), headers)
        reflected = _reflect(who, spirv)
        layouts = _struct_layouts(reflected)
        probe_struct = {t: layouts.get(f"SarekProbe{i}", {}) for t, i in types.items()}

        def size_of(type_name: str) -> int:
            if type_name in GLSL_PROBE.scalar_size:
                return GLSL_PROBE.scalar_size[type_name]
            return probe_struct.get(type_name, {}).get("t", (-1, "", -1))[2]

        values: List[int] = []
        for p in probes:
            t, member = target(p)
            if p.quantity == SIZE:
                values.append(size_of(t))
            elif p.quantity == ALIGN:
                values.append(probe_struct[t].get("t", (-1, "", -1))[0])
            else:
                offset, type_name, _ = layouts.get(t, {}).get(member, (-1, "", -1))
                values.append(offset if p.quantity == OFFSET else size_of(type_name))
        return Measurement((("", tuple(values)),), time.perf_counter() - start)


def _struct_layouts(reflected: dict) -> Dict[str, Dict[str, Tuple[int, str, int]]]:
    """Struct name -> member -> (offset, type name, array stride) from spirv-cross's JSON:
    only the explicitly laid-out copy of each struct (the one with offsets)."""
    types = reflected.get("types", {})
    out: Dict[str, Dict[str, Tuple[int, str, int]]] = {}
    for info in types.values():
        members = info.get("members", [])
        if not members or "offset" not in members[0]:
            continue
        out[info["name"]] = {
            m["name"]: (m["offset"], types.get(m["type"], {}).get("name", m["type"]),
                        m.get("array_stride", -1))
            for m in members
        }
    return out
