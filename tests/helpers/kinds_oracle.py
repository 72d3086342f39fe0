"""The oracles for the member kinds of SPEC §1b: real compilers measuring structs of fixed
arrays, vectors and matrices, written as a programmer of each language writes them.

Types are described independently of the package under test, as plain tuples::

    kind := ("scalar", name) | ("vec", n, scalar) | ("mat", cols, rows, scalar)
          | ("array", kind, count) | ("struct", name)
    struct := (name, [(field, kind), ...])

``measure_c`` compiles them as natural C (vectors as ``T v[N]``, matrices as ``T m[C][R]``)
with the host gcc and runs the program; ``measure_glsl`` writes one GLSL compute shader per
rule set (every struct in a block ``layout(<rules>) buffer { uint8_t pre; S s; uint8_t end; }``,
so the offset of ``s`` is the struct's alignment and ``end - s`` its size), compiles it with
glslang and reads spirv-cross's reflection of the SPIR-V. Nothing here computes an offset.
"""

from __future__ import annotations

import json
import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

Kind = tuple
Struct = Tuple[str, List[Tuple[str, Kind]]]

C_SCALAR = {
    "int32": "int32_t", "uint32": "uint32_t", "float32": "float", "float64": "double",
    "int64": "int64_t", "uint64": "uint64_t", "int16": "int16_t", "uint16": "uint16_t",
    "int8": "int8_t", "uint8": "uint8_t", "float16": "uint16_t", "bool": "int32_t",
}
SIZE = {"int32": 4, "uint32": 4, "float32": 4, "float64": 8, "int64": 8, "uint64": 8,
        "int16": 2, "uint16": 2, "int8": 1, "uint8": 1, "float16": 2, "bool": 4}

GLSL_SCALAR = {
    "int32": "int", "uint32": "uint", "float32": "float", "float64": "double",
    "int64": "int64_t", "uint64": "uint64_t", "int16": "int16_t", "uint16": "uint16_t",
    "int8": "int8_t", "uint8": "uint8_t", "float16": "float16_t", "bool": "bool",
}
GLSL_VEC_PREFIX = {
    "int32": "ivec", "uint32": "uvec", "float32": "vec", "float64": "dvec",
    "int64": "i64vec", "uint64": "u64vec", "int16": "i16vec", "uint16": "u16vec",
    "int8": "i8vec", "uint8": "u8vec", "float16": "f16vec",
}
GLSL_MAT_PREFIX = {"float32": "mat", "float64": "dmat", "float16": "f16mat"}


@dataclass
class Measured:
    """What a compiler says about one struct."""

    size: int
    align: int
    offsets: Dict[str, int] = field(default_factory=dict)
    strides: Dict[str, int] = field(default_factory=dict)  # array or matrix member -> stride


def _dims(kind: Kind) -> Tuple[Kind, List[int]]:
    """The innermost non-array kind of ``kind`` and its array dimensions, outermost first."""
    dims = []
    while kind[0] == "array":
        dims.append(kind[2])
        kind = kind[1]
    return kind, dims


# --- C ---------------------------------------------------------------------------------------


CUDA_VEC_BASE = {
    "int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort", "int32": "int",
    "uint32": "uint", "int64": "longlong", "uint64": "ulonglong", "float32": "float",
    "float64": "double",
}


def _cuda_decl(name: str, kind: Kind) -> str:
    """CUDA's spelling: vectors are vector_types.h's (``float4``), a matrix an array of its
    column vectors, anything else as in C."""
    base, dims = _dims(kind)
    if base[0] == "vec":
        spelled = f"{CUDA_VEC_BASE[base[2]]}{base[1]}"
    elif base[0] == "mat":
        dims.append(base[1])
        spelled = f"{CUDA_VEC_BASE[base[3]]}{base[2]}"
    else:
        return _c_decl(name, kind)
    return f"{spelled} {name}{''.join(f'[{d}]' for d in dims)};"


def measure_cuda(structs: Sequence[Struct], workdir: Path) -> Dict[str, Measured]:
    """As ``measure_c``, with CUDA's vector types, from a host program nvcc built and ran."""
    return measure_c(structs, workdir, cc="nvcc", decl=_cuda_decl)


def _c_decl(name: str, kind: Kind) -> str:
    base, dims = _dims(kind)
    if base[0] == "vec":
        dims.append(base[1])
        base = ("scalar", base[2])
    elif base[0] == "mat":
        dims += [base[1], base[2]]
        base = ("scalar", base[3])
    spelled = C_SCALAR[base[1]] if base[0] == "scalar" else f"struct {base[1]}"
    return f"{spelled} {name}{''.join(f'[{d}]' for d in dims)};"


def measure_c(structs: Sequence[Struct], workdir: Path, cc: str = "gcc",
              decl=_c_decl) -> Dict[str, Measured]:
    """Every struct's size, alignment and member offsets, from a program gcc built and ran
    (structs must be given with each one after those it uses)."""
    lines = ["#include <stdint.h>", "#include <stddef.h>", "#include <stdio.h>"]
    for name, members in structs:
        lines.append(f"struct {name} {{ {' '.join(decl(f, k) for f, k in members)} }};")
    lines.append("int main(void) {")
    for name, members in structs:
        t = f"struct {name}"
        lines.append(f'printf("{name} size %zu\\n", sizeof({t}));')
        lines.append(f'printf("{name} align %zu\\n", (size_t)__alignof__({t}));')
        for f, _ in members:
            lines.append(f'printf("{name} off.{f} %zu\\n", offsetof({t}, {f}));')
        for f, k in members:
            if k[0] == "array":
                lines.append(f'printf("{name} stride.{f} %zu\\n", sizeof((({t} *)0)->{f}[0]));')
    lines.append("return 0; }")
    src = workdir / ("kinds.cu" if cc == "nvcc" else "kinds.c")
    src.write_text("\n".join(lines) + "\n")
    exe = workdir / "kinds"
    std = [] if cc == "nvcc" else ["-std=c11"]
    build = subprocess.run([cc, *std, "-o", str(exe), str(src)], capture_output=True, text=True)
    if build.returncode != 0:
        raise AssertionError(f"{cc} refused the probe program:\n{build.stdout}{build.stderr}")
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return _parse(out)


def _parse(out: str) -> Dict[str, Measured]:
    result: Dict[str, Measured] = {}
    for line in out.splitlines():
        name, what, value = line.split()
        m = result.setdefault(name, Measured(0, 0))
        if what == "size":
            m.size = int(value)
        elif what == "align":
            m.align = int(value)
        elif what.startswith("off."):
            m.offsets[what[4:]] = int(value)
        else:
            m.strides[what[7:]] = int(value)
    return result


# --- GLSL ------------------------------------------------------------------------------------


def _glsl_decl(name: str, kind: Kind) -> str:
    base, dims = _dims(kind)
    if base[0] == "scalar":
        spelled = GLSL_SCALAR[base[1]]
    elif base[0] == "vec":
        spelled = f"{GLSL_VEC_PREFIX[base[2]]}{base[1]}"
    elif base[0] == "mat":
        spelled = f"{GLSL_MAT_PREFIX[base[3]]}{base[1]}x{base[2]}"
    else:
        spelled = base[1]
    return f"{spelled} {name}{''.join(f'[{d}]' for d in dims)};"


def glsl_source(structs: Sequence[Struct], rules: str, probed: Sequence[str]) -> str:
    lines = [
        "#version 450",
        "#extension GL_EXT_scalar_block_layout : require",
        "#extension GL_EXT_shader_explicit_arithmetic_types : require",
        "layout(local_size_x = 1) in;",
    ]
    for name, members in structs:
        lines.append(f"struct {name} {{ {' '.join(_glsl_decl(f, k) for f, k in members)} }};")
    for i, name in enumerate(probed):
        lines.append(f"layout({rules}, binding = {i}) buffer Probe{i} "
                     f"{{ uint8_t pre; {name} s; uint8_t end; }} probe{i};")
    lines.append("void main() {")
    lines += [f"    probe{i}.end = probe{i}.pre;" for i in range(len(probed))]
    lines.append("}")
    return "\n".join(lines) + "\n"


def measure_glsl(structs: Sequence[Struct], rules: str, workdir: Path) -> Dict[str, Measured]:
    """Every struct's size, alignment, member offsets and strides under the GLSL block layout
    ``rules`` (std430, std140 or scalar), from glslang's SPIR-V as spirv-cross reflects it."""
    probed = [name for name, _ in structs]
    src = workdir / f"kinds_{rules}.comp"
    src.write_text(glsl_source(structs, rules, probed))
    spv = workdir / f"kinds_{rules}.spv"
    run = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2", str(src),
                          "-o", str(spv)], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"glslang refused the probe shader:\n{run.stdout}{run.stderr}")
    reflect = json.loads(subprocess.run(["spirv-cross", str(spv), "--reflect"], check=True,
                                        capture_output=True, text=True).stdout)
    types = reflect["types"]
    by_block = {t["name"]: t for t in types.values()}
    result: Dict[str, Measured] = {}
    for i, name in enumerate(probed):
        block = {m["name"]: m for m in by_block[f"Probe{i}"]["members"]}
        s = block["s"]
        align = s["offset"]
        m = Measured(block["end"]["offset"] - align, align)
        for member in types[s["type"]]["members"]:
            m.offsets[member["name"]] = member["offset"]
            stride = member.get("array_stride") or member.get("matrix_stride")
            if stride:
                m.strides[member["name"]] = stride
        result[name] = m
    return result


# --- random structs --------------------------------------------------------------------------


def random_structs(seed: int, count: int, scalars: Sequence[str], glsl: bool) -> List[Struct]:
    """``count`` structs of 1 to 5 members of every kind (scalars, vectors, matrices, arrays of
    them and of earlier structs, arrays of arrays), each after those it uses."""
    rng = random.Random(seed)
    numeric = [s for s in scalars if s != "bool"]
    floats = [s for s in ("float32", "float64", "float16") if s in scalars]
    structs: List[Struct] = []

    def leaf() -> Kind:
        roll = rng.random()
        if roll < 0.35:
            return ("scalar", rng.choice(scalars))
        if roll < 0.65:
            return ("vec", rng.randint(2, 4), rng.choice(numeric))
        if roll < 0.8 and floats:
            return ("mat", rng.randint(2, 4), rng.randint(2, 4), rng.choice(floats))
        if structs:
            return ("struct", rng.choice(structs)[0])
        return ("scalar", rng.choice(scalars))

    def member() -> Kind:
        kind = leaf()
        roll = rng.random()
        if roll < 0.25:
            kind = ("array", kind, rng.randint(1, 4))
        elif roll < 0.3:
            kind = ("array", ("array", kind, rng.randint(1, 3)), rng.randint(1, 3))
        return kind

    for i in range(count):
        members = [(f"m{j}", member()) for j in range(rng.randint(1, 5))]
        structs.append((f"S{i}", members))
    return structs


# --- HLSL ------------------------------------------------------------------------------------

HLSL_SCALAR = {
    "int32": "int", "uint32": "uint", "float32": "float", "float64": "double",
    "int64": "int64_t", "uint64": "uint64_t", "int16": "int16_t", "uint16": "uint16_t",
    "float16": "half", "bool": "bool",
}
#: HLSL has no 8-bit types: the random HLSL structs leave int8 and uint8 out.
HLSL_SCALARS = list(HLSL_SCALAR)


def _hlsl_decl(name: str, kind: Kind) -> str:
    """HLSL's spelling: ``float3``; a ``matCxR<T>`` (C columns of R rows) is ``TRxC``."""
    base, dims = _dims(kind)
    if base[0] == "scalar":
        spelled = HLSL_SCALAR[base[1]]
    elif base[0] == "vec":
        spelled = f"{HLSL_SCALAR[base[2]]}{base[1]}"
    elif base[0] == "mat":
        spelled = f"{HLSL_SCALAR[base[3]]}{base[2]}x{base[1]}"
    else:
        spelled = base[1]
    return f"{spelled} {name}{''.join(f'[{d}]' for d in dims)};"


def measure_hlsl(structs: Sequence[Struct]) -> Dict[str, Measured]:
    """Every struct's size, alignment, member offsets, member sizes (as ``sizes``) and
    array strides in an HLSL constant buffer, from Slang's reflection (tests/helpers/
    slang_oracle.py): each struct is the second member of a cbuffer of its own, after a
    ``float``, so its offset there is its alignment."""
    from . import slang_oracle

    lines = [f"struct {name} {{ {' '.join(_hlsl_decl(f, k) for f, k in members)} }};"
             for name, members in structs]
    for i, (name, _) in enumerate(structs):
        lines.append(f"cbuffer Probe{i} {{ float pre{i}; {name} s{i}; }};")
    lines += ["RWStructuredBuffer<float> sarek_out;", "[numthreads(1, 1, 1)]",
              "void main() { sarek_out[0] = pre0; }"]
    reflection = slang_oracle.reflect("\n".join(lines) + "\n")
    result: Dict[str, Measured] = {}
    for i, (name, _) in enumerate(structs):
        offset, s = reflection.buffer(f"Probe{i}").field(f"s{i}")
        m = Measured(s.size, offset)
        m.sizes = {}
        for member, member_offset, t in s.fields():
            m.offsets[member] = member_offset
            m.sizes[member] = t.size
            if t.kind == "array":
                m.strides[member] = t.element_stride
        result[name] = m
    return result
