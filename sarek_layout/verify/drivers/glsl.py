"""GLSL: glslang compiles the generated ``.glsl`` to SPIR-V, and spirv-cross's reflection of
that SPIR-V gives the numbers (the ``glslang`` toolchain).

One probe shader includes every file and declares one std430 buffer holding, for each probed
type ``T``, ``struct SarekProbe<N> { uint a; T t[2]; }``: the reflected array stride of ``t`` is
``T``'s size, the offset of ``t`` its alignment (the ``uint`` before it is 4-aligned), and the
reflected member offsets of ``T`` and of the structs it uses are every member offset. A
constructor argument, kept in payload words, is measured on the arm struct
``<T>_<Ctor>_arm`` the file declares (the element typed as that constructor); the accessors
that read the words are measured by running them (the ``vulkan`` toolchain). So are the
uint8 and float16 members, which live inside 32-bit words (``_sarek_bytes<N>``): SPIR-V gives
the words' offsets, not a byte's within one, so glslang leaves those values unmeasured. One
glslang and one spirv-cross invocation for the whole probe list.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

from ..probes import ALIGN, OFFSET, SIZE, Probe
from ..tools import ToolRun, run_tool
from . import Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt
from .gpu_probes import GLSL_PROBE, SMALL_SCALARS, below_a_word, lay_out, parse_structs, single_arms

__all__ = ["compile_glsl", "reflection_source", "struct_layouts", "reflect_spirv",
           "GlslangDriver", "GLSLANG_ARGS"]

#: glslang for Vulkan 1.1 SPIR-V; -I for the include folders.
GLSLANG_ARGS = ("glslangValidator", "-V", "--target-env", "vulkan1.1")

#: Probe structs per buffer block of the reflection shader.
BLOCK = 4096


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


def reflection_source(headers: HeaderSet, types: Sequence[str]) -> str:
    """A compute shader whose one buffer holds a ``SarekProbe<N>`` per type of ``types``."""
    lines = ["#version 450\n#extension GL_GOOGLE_include_directive : require\n"
             "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n",
             headers.include_lines()]
    lines.extend(f"struct SarekProbe{i} {{ uint a; {t} t[2]; }};\n" for i, t in enumerate(types))
    # Several buffers of at most BLOCK members: one SPIR-V instruction holds at most 65,535
    # words, and a struct type lists its members in one.
    blocks = range(0, len(types), BLOCK)
    for b, first in enumerate(blocks):
        lines.append(f"layout(std430, binding = {b}) buffer SarekIn{b} {{\n")
        lines.extend(f"    SarekProbe{i} p{i};\n" for i in range(first, min(first + BLOCK, len(types))))
        lines.append(f"}} sarek_in{b};\n")
    lines.append("layout(local_size_x = 1) in;\nvoid main() {\n")
    lines.extend(f"    sarek_in{b}.p{first}.a = 1u;\n" for b, first in enumerate(blocks))
    lines.append("}\n")
    return "".join(lines)


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
            parts = p.member.split(".")
            if len(parts) == 2 and (p.c_type, parts[1]) in single:
                return esc(_arm(t, parts[1][:-2])), esc("_0")
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
        layouts = struct_layouts(spirv)
        probe_struct = {t: layouts.get(f"SarekProbe{i}", {}) for t, i in types.items()}

        def size_of(type_name: str) -> int:
            if type_name in GLSL_PROBE.scalar_size:
                return GLSL_PROBE.scalar_size[type_name]
            return probe_struct.get(type_name, {}).get("t", (-1, "", -1))[2]

        values: List[Optional[int]] = []
        for p in probes:
            t, member = target(p)
            if p.quantity == SIZE:
                values.append(size_of(t))
            elif p.quantity == ALIGN:
                values.append(probe_struct[t].get("t", (-1, "", -1))[0])
            elif p.scalar in SMALL_SCALARS and member not in layouts.get(t, {}):
                # Kept inside a 32-bit word (_sarek_bytes<N>): SPIR-V has no offset for a
                # byte of a member. The vulkan toolchain measures it by running the accessor.
                values.append(None)
            else:
                offset, type_name, _ = layouts.get(t, {}).get(member, (-1, "", -1))
                values.append(offset if p.quantity == OFFSET else size_of(type_name))
        return Measurement((("", below_a_word(probes, values)),), time.perf_counter() - start)


#: SPIR-V opcodes and decorations the layout reader needs (SPIR-V 1.x specification).
_OP_NAME, _OP_MEMBER_NAME, _OP_TYPE_INT, _OP_TYPE_FLOAT, _OP_TYPE_VECTOR = 5, 6, 21, 22, 23
_OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY, _OP_TYPE_STRUCT = 28, 29, 30
_OP_DECORATE, _OP_MEMBER_DECORATE = 71, 72
_ARRAY_STRIDE, _OFFSET = 6, 35

#: Scalar and vector types by (opcode, width, signedness or component count) -> GLSL spelling.
_SCALARS = {(_OP_TYPE_INT, 32, 1): "int", (_OP_TYPE_INT, 32, 0): "uint",
            (_OP_TYPE_INT, 64, 1): "int64_t", (_OP_TYPE_INT, 64, 0): "uint64_t",
            (_OP_TYPE_FLOAT, 32, 0): "float", (_OP_TYPE_FLOAT, 64, 0): "double"}


def _string(words) -> str:
    """A SPIR-V literal string: UTF-8, nul-terminated, packed little-endian into ``words``
    (an ``array('I')`` slice, already in the host's order: ``tobytes`` then is that order)."""
    raw = words.tobytes() if sys.byteorder == "little" else b"".join(
        w.to_bytes(4, "little") for w in words)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def struct_layouts(spirv: bytes) -> Dict[str, Dict[str, Tuple[int, str, int]]]:
    """Struct name -> member -> (offset, type name, array stride or -1), read from the SPIR-V
    module's own declarations and its Offset/ArrayStride decorations: only the explicitly laid
    out copy of each struct (the one glslang decorates with offsets). Linear in the module."""
    import array

    words = array.array("I", spirv[: len(spirv) // 4 * 4])
    if words and words[0] != 0x07230203:
        words.byteswap()
    names: Dict[int, str] = {}
    member_names: Dict[Tuple[int, int], str] = {}
    offsets: Dict[Tuple[int, int], int] = {}
    strides: Dict[int, int] = {}
    types: Dict[int, Tuple] = {}
    structs: Dict[int, Tuple[int, ...]] = {}
    # One pass over the instructions; only the few opcodes read below are sliced (most of
    # a probe module is function code and decorations the reader skips).
    wanted = {_OP_NAME, _OP_MEMBER_NAME, _OP_TYPE_INT, _OP_TYPE_FLOAT, _OP_TYPE_VECTOR,
              _OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY, _OP_TYPE_STRUCT, _OP_DECORATE,
              _OP_MEMBER_DECORATE}
    i, n = 5, len(words)
    while i < n:
        head = words[i]
        count, op = head >> 16, head & 0xFFFF
        if count == 0:
            raise ValueError("malformed SPIR-V: an instruction of 0 words")
        if op not in wanted:
            i += count
            continue
        if op == _OP_MEMBER_DECORATE:
            if count >= 5 and words[i + 3] == _OFFSET:
                offsets[(words[i + 1], words[i + 2])] = words[i + 4]
        elif op == _OP_DECORATE:
            if count >= 4 and words[i + 2] == _ARRAY_STRIDE:
                strides[words[i + 1]] = words[i + 3]
        elif op == _OP_MEMBER_NAME:
            member_names[(words[i + 1], words[i + 2])] = _string(words[i + 3:i + count])
        elif op == _OP_NAME:
            names[words[i + 1]] = _string(words[i + 2:i + count])
        elif op == _OP_TYPE_STRUCT:
            structs[words[i + 1]] = tuple(words[i + 2:i + count])
        elif op in (_OP_TYPE_INT, _OP_TYPE_FLOAT):
            types[words[i + 1]] = (op, words[i + 2], words[i + 3] if op == _OP_TYPE_INT else 0)
        elif op == _OP_TYPE_VECTOR:
            types[words[i + 1]] = ("vector", words[i + 2], words[i + 3])
        else:  # an array or a runtime array
            types[words[i + 1]] = ("array", words[i + 2])
        i += count

    def type_name(t: int) -> str:
        if t in structs:
            return names.get(t, f"_{t}")
        info = types.get(t, ())
        if info and info[0] == "array":
            return type_name(info[1])
        if info and info[0] == "vector":
            component = _SCALARS.get(types.get(info[1], ()), "?")
            prefix = {"uint": "u", "int": "i", "float": "", "double": "d"}.get(component, "?")
            return f"{prefix}vec{info[2]}"
        return _SCALARS.get(info, "?")

    out: Dict[str, Dict[str, Tuple[int, str, int]]] = {}
    for sid, member_types in structs.items():
        if not member_types or (sid, 0) not in offsets:
            continue
        out[names.get(sid, f"_{sid}")] = {
            member_names.get((sid, k), f"_m{k}"): (offsets.get((sid, k), -1), type_name(mt),
                                                    strides.get(mt, -1))
            for k, mt in enumerate(member_types)
        }
    return out
