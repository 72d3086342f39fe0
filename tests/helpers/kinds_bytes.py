"""The bytes of structs with member kinds (SPEC §1b), as the compilers that own each rule set
write them: the oracle for the typescript target's encoders.

Structs are ``kinds_oracle``'s plain descriptions (declared as a programmer of each language
declares them: C arrays, CUDA's vector types, GLSL's vectors and matrices). Every scalar of a
struct gets a value of its own (``leaf_value``, from its position), and a program of each
language assigns them all to a zeroed struct and gives back its bytes:

* ``c_bytes``: gcc (the ``c`` rules) or nvcc (the ``cuda`` rules, CUDA's ``float4``…), a host
  program that prints each struct's bytes;
* ``glsl_bytes``: a GLSL compute shader per rule set (``std430``, ``std140``, ``scalar``), run
  on the Vulkan device (lavapipe), each struct in a zeroed storage buffer of its own.

``js_value`` is the same value in the typescript target's value form (a JavaScript literal),
so ``toBytes`` of it must be those bytes. Nothing here computes an offset.
"""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from helpers import kinds_oracle

Struct = kinds_oracle.Struct

_INT_RANGE = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767),
              "uint16": (0, 65535), "int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
              "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1)}


def leaf_value(scalar: str, k: int):
    """The value of the ``k``-th scalar of a struct: distinct, spread over the range, exact."""
    if scalar in _INT_RANGE:
        lo, hi = _INT_RANGE[scalar]
        return lo + 1 + (k * 2654435761 + 12345) % (hi - lo)
    if scalar == "bool":
        return k % 2 == 1
    if scalar == "float16":
        return (k % 64) * 0.5 - 8.0
    if scalar == "float32":
        return k * 0.75 - 3.0
    return k * 1.0e10 + 0.25  # float64


# A leaf's place: ("field", name) | ("index", i) | ("component", i) | ("column", c).
Step = Tuple[str, object]


def leaves(structs: Sequence[Struct], name: str) -> List[Tuple[Tuple[Step, ...], str]]:
    """Every scalar of struct ``name``, in declaration order: its place and its scalar."""
    by_name = dict(structs)
    out: List[Tuple[Tuple[Step, ...], str]] = []

    def walk(kind, place):
        tag = kind[0]
        if tag == "scalar":
            out.append((place, kind[1]))
        elif tag == "vec":
            for i in range(kind[1]):
                out.append((place + (("component", i),), kind[2]))
        elif tag == "mat":
            for c in range(kind[1]):
                for r in range(kind[2]):
                    out.append((place + (("column", c), ("component", r)), kind[3]))
        elif tag == "array":
            for i in range(kind[2]):
                walk(kind[1], place + (("index", i),))
        else:
            for f, k in by_name[kind[1]]:
                walk(k, place + (("field", f),))

    for f, k in by_name[name]:
        walk(k, (("field", f),))
    return out


def _js_number(scalar: str, v) -> str:
    if scalar in ("int64", "uint64"):
        return f"{v}n"
    if scalar == "bool":
        return "true" if v else "false"
    return repr(v)


def js_value(structs: Sequence[Struct], name: str) -> str:
    """The JavaScript literal of struct ``name``'s value (records as objects, arrays, vectors
    and matrices, column by column, as arrays)."""
    tree: dict = {}
    for k, (place, scalar) in enumerate(leaves(structs, name)):
        node = tree
        for step in place[:-1]:
            node = node.setdefault(step[1], {})
        node[place[-1][1]] = _js_number(scalar, leaf_value(scalar, k))

    def spell(node) -> str:
        if isinstance(node, str):
            return node
        if all(isinstance(k, int) for k in node):
            return "[" + ", ".join(spell(node[i]) for i in range(len(node))) + "]"
        return "{" + ", ".join(f"{k}: {spell(v)}" for k, v in node.items()) + "}"

    return spell(tree)


# --- C and CUDA -------------------------------------------------------------------------------

_CUDA_COMPONENTS = "xyzw"


def _c_literal(scalar: str, v) -> str:
    if scalar == "float16":
        return str(struct.unpack("<H", struct.pack("<e", v))[0])
    if scalar == "bool":
        return "1" if v else "0"
    if scalar in ("int64",):
        return f"(int64_t){v}LL" if v != -2**63 else "INT64_MIN"
    if scalar in ("uint64", "uint32"):
        return f"{v}ULL"
    if scalar == "int32" and v == -2**31:
        return "INT32_MIN"
    return repr(v)


def _c_designator(place, cuda: bool) -> str:
    out = ""
    for step, value in place:
        if step == "field":
            out += f".{value}"
        elif step == "component" and cuda:
            out += f".{_CUDA_COMPONENTS[value]}"
        else:
            out += f"[{value}]"
    return out


def c_bytes(structs: Sequence[Struct], workdir: Path, cuda: bool = False) -> Dict[str, bytes]:
    """Each struct's bytes as gcc (or nvcc with CUDA's vector types) lays it out."""
    decl = kinds_oracle._cuda_decl if cuda else kinds_oracle._c_decl
    lines = ["#include <stdint.h>", "#include <stdio.h>", "#include <string.h>"]
    for name, members in structs:
        lines.append(f"struct {name} {{ {' '.join(decl(f, k) for f, k in members)} }};")
    lines.append("static void dump(const char *name, const void *p, size_t n) {")
    lines.append('  printf("%s ", name); for (size_t i = 0; i < n; i++) '
                 'printf("%02x", ((const unsigned char *)p)[i]); printf("\\n"); }')
    lines.append("int main(void) {")
    for name, _ in structs:
        lines.append(f"  {{ struct {name} s; memset(&s, 0, sizeof s);")
        for k, (place, scalar) in enumerate(leaves(structs, name)):
            lines.append(f"    s{_c_designator(place, cuda)} = "
                         f"{_c_literal(scalar, leaf_value(scalar, k))};")
        lines.append(f'    dump("{name}", &s, sizeof s); }}')
    lines.append("  return 0; }")
    src = workdir / ("bytes.cu" if cuda else "bytes.c")
    src.write_text("\n".join(lines) + "\n")
    exe = workdir / "bytes"
    argv = ["nvcc", "-o", str(exe), str(src)] if cuda else ["gcc", "-std=c11", "-o", str(exe), str(src)]
    build = subprocess.run(argv, capture_output=True, text=True)
    assert build.returncode == 0, f"{argv[0]} refused the program:\n{build.stdout}{build.stderr}"
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return {name: bytes.fromhex(data) for name, data in (ln.split() for ln in out.splitlines())}


# --- GLSL on the Vulkan device ----------------------------------------------------------------

#: What a GLSL storage buffer can hold without 8- and 16-bit storage features.
GLSL_SCALARS = ["int32", "uint32", "float32", "float64", "int64", "uint64", "bool"]


def _glsl_literal(scalar: str, v) -> str:
    if scalar == "bool":
        return "true" if v else "false"
    if scalar == "int64":
        return f"int64_t({v}l)" if v != -2**63 else "int64_t(-9223372036854775807l - 1l)"
    if scalar == "uint64":
        return f"{v}ul"
    if scalar == "uint32":
        return f"{v}u"
    if scalar == "float64":
        return f"{v!r}lf"
    if scalar == "int32" and v == -2**31:
        return "(-2147483647 - 1)"
    return repr(v)


def glsl_bytes(structs: Sequence[Struct], rules: str, workdir: Path,
               room: int = 1 << 16) -> Dict[str, bytes]:
    """Each struct's bytes as written by a shader through a ``layout(<rules>)`` buffer on the
    Vulkan device: ``room`` bytes per buffer, zeroed, the struct at offset 0."""
    from sarek_layout.verify.drivers.vulkan import run_spirv

    lines = ["#version 450", "#extension GL_EXT_scalar_block_layout : require",
             "#extension GL_EXT_shader_explicit_arithmetic_types : require",
             "layout(local_size_x = 1) in;"]
    for name, members in structs:
        lines.append(f"struct {name} {{ "
                     f"{' '.join(kinds_oracle._glsl_decl(f, k) for f, k in members)} }};")
    for i, (name, _) in enumerate(structs):
        lines.append(f"layout({rules}, binding = {i}) buffer Out{i} {{ {name} s; }} out{i};")
    lines.append("void main() {")
    for i, (name, _) in enumerate(structs):
        for k, (place, scalar) in enumerate(leaves(structs, name)):
            lines.append(f"  out{i}.s{_c_designator(place, False)} = "
                         f"{_glsl_literal(scalar, leaf_value(scalar, k))};")
    lines.append("}")
    src = workdir / f"bytes_{rules}.comp"
    src.write_text("\n".join(lines) + "\n")
    spv = workdir / f"bytes_{rules}.spv"
    build = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2", str(src),
                            "-o", str(spv)], capture_output=True, text=True)
    assert build.returncode == 0, f"glslang refused the shader:\n{build.stdout}{build.stderr}"
    out = run_spirv(spv.read_bytes(), [room] * len(structs))
    return {name: data for (name, _), data in zip(structs, out)}


# --- WGSL through Dawn (npm webgpu) in Node ----------------------------------------------------

#: What a WGSL storage buffer holds without extensions (no bool, no 64-bit, no f16).
WGSL_SCALARS = ["int32", "uint32", "float32"]
_WGSL_SCALAR = {"int32": "i32", "uint32": "u32", "float32": "f32"}


def _wgsl_type(kind) -> str:
    tag = kind[0]
    if tag == "array":
        return f"array<{_wgsl_type(kind[1])}, {kind[2]}>"
    if tag == "scalar":
        return _WGSL_SCALAR[kind[1]]
    if tag == "vec":
        return f"vec{kind[1]}<{_WGSL_SCALAR[kind[2]]}>"
    if tag == "mat":
        return f"mat{kind[1]}x{kind[2]}<{_WGSL_SCALAR[kind[3]]}>"
    return kind[1]


def _wgsl_bits(scalar: str, v) -> str:
    """The value's 32 bits, reinterpreted: exact for every value, no literal rounding."""
    bits = (struct.unpack("<I", struct.pack("<f", v))[0] if scalar == "float32"
            else v & 0xFFFFFFFF)
    return f"{bits}u" if scalar == "uint32" else f"bitcast<{_WGSL_SCALAR[scalar]}>({bits}u)"


def wgsl_kernels(structs: Sequence[Struct]) -> Dict[str, str]:
    """Per struct, a WGSL compute shader that writes its value (``leaf_value`` at each scalar)
    into a zeroed storage buffer through the struct WGSL lays out (vectors and matrix columns
    indexed, as the value's arrays are)."""
    decls = [f"struct {name} {{ {' '.join(f'{f}: {_wgsl_type(k)},' for f, k in members)} }}"
             for name, members in structs]
    out = {}
    for name, _ in structs:
        body = [f"  out{_c_designator(place, False)} = {_wgsl_bits(scalar, leaf_value(scalar, k))};"
                for k, (place, scalar) in enumerate(leaves(structs, name))]
        out[name] = "\n".join(decls + [
            f"@group(0) @binding(0) var<storage, read_write> out: {name};",
            "@compute @workgroup_size(1)", "fn main() {", *body, "}"])
    return out


#: The Node program: for each struct, the kernel's bytes (Dawn) and the module's toBytes.
DAWN_PROGRAM = """import { readFileSync } from "node:fs";
const [dawn, module, cases] = process.argv.slice(2);
const webgpu = await import(dawn);
const M = await import(module);
const gpu = webgpu.create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) throw new Error("Dawn found no adapter");
const device = await adapter.requestDevice();
const { GPUBufferUsage, GPUMapMode } = webgpu.globals;
const out = {};
for (const [name, code, value, room] of JSON.parse(readFileSync(cases, "utf8"))) {
  const buffer = device.createBuffer({ size: room, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: room, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const pipeline = device.createComputePipeline({
    layout: "auto", compute: { module: device.createShaderModule({ code }), entryPoint: "main" } });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer } }] }));
  pass.dispatchWorkgroups(1);
  pass.end();
  encoder.copyBufferToBuffer(buffer, 0, read, 0, room);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const theirs = Buffer.from(read.getMappedRange().slice(0)).toString("hex");
  read.unmap();
  const ours = Buffer.from(M["K_" + name].toBytes((0, eval)("(" + value + ")"))).toString("hex");
  out[name] = [ours, theirs];
}
device.destroy();
process.stdout.write(JSON.stringify(out));
"""
