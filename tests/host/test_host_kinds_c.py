"""The member kinds of SPEC §1b from Python equal what C makes of them: random records of
fixed arrays (nested too), vectors, matrices, enums and nested records, declared as a C
programmer writes them (``float v[3]``, ``float m[4][4]``; under the ``cuda`` rules CUDA's
own ``vector_types.h``, ``float3``/``double2``/``float4 m[4]``), filled member by member by
a program gcc built (cffi), byte for byte equal to the API codec's and the generated
module's bytes; numpy reads the C bytes through the package's dtype and finds every element
where C put it. The structs are ``helpers.kinds_oracle``'s (the ones the layout is checked
against gcc and nvcc with), plus enum members laid out as their base integer.
"""

from __future__ import annotations

import importlib.util
import json
import struct

import pytest

import sarek_layout as sl
from helpers import kinds_oracle
from helpers.common import require_toolchain
from helpers.host import import_file
from kinds_cases import (Types, build, c_stores, c_structs, expected, generated, numpy_value)
from test_host_c import F16_BITS, c_literal
from test_host_python_target import generate

pytestmark = pytest.mark.toolchain("cffi")

C_SCALARS = ["int32", "uint32", "float32", "float64", "int64", "uint64", "int16", "uint16",
             "int8", "uint8", "float16", "bool"]
#: CUDA's vector_types.h has no half or bool vectors.
CUDA_SCALARS = [s for s in C_SCALARS if s != "float16"]

ENUMS = {"e8": ("uint8", [("Red", 0), ("Green", 3), ("Blue", 255)]),
         "e16": ("int16", [("Neg", -300), ("Zero", 0), ("Alias", 0), ("Big", 32767)])}

CUDA_INCLUDE = "/usr/local/cuda/include"


def kinds_types(seed: int, count: int, scalars) -> Types:
    """``kinds_oracle``'s random structs, every third with an enum member and an array of
    another enum, every fourth with ``char`` byte strings."""
    types = Types(enums=dict(ENUMS))
    for i, (name, members) in enumerate(kinds_oracle.random_structs(seed, count, scalars, glsl=False)):
        members = list(members)
        if i % 3 == 0:
            members.insert(i % len(members), ("e", ("enum", "e8")))
            members.append(("es", ("array", ("enum", "e16"), 3)))
        if i % 4 == 1:  # byte strings: C's char name[7], char names[2][4]
            members.insert(i % len(members), ("name", ("array", ("scalar", "char"), 7)))
            members.append(("names", ("array", ("array", ("scalar", "char"), 4), 2)))
        types.records[name] = members
    return types


def c_bytes(tmp_path, types: Types, rules: str, cases, module_name: str) -> bytes:
    """The bytes a gcc-built program stores: each case ``(record name, value)`` in a zeroed
    struct, filled member by member, copied out back to back."""
    import cffi

    functions = []
    for k, (name, value) in enumerate(cases):
        stores = c_stores("s", ("struct", name), value, types, rules, c_literal)
        functions.append(
            f"static size_t fill_{k}(unsigned char *out) {{\n    struct {name} s;\n"
            f"    memset(&s, 0, sizeof s);\n    " + "\n    ".join(stores)
            + "\n    memcpy(out, &s, sizeof s);\n    return sizeof s;\n}\n")
    calls = "".join(f"    n += fill_{k}(out + n);\n" for k in range(len(cases)))
    prelude = "#include <stdint.h>\n#include <string.h>\n#include <math.h>\n" + F16_BITS
    if rules == "cuda":
        prelude += "#include <vector_types.h>\n"
    ffi = cffi.FFI()
    ffi.cdef("size_t fill(unsigned char *out);")
    ffi.set_source(module_name, prelude + c_structs(types, rules) + "".join(functions)
                   + f"size_t fill(unsigned char *out) {{\n    size_t n = 0;\n{calls}    return n;\n}}\n",
                   include_dirs=[CUDA_INCLUDE] if rules == "cuda" else [],
                   extra_compile_args=["-O0", "-Wno-deprecated-declarations"])
    path = ffi.compile(tmpdir=str(tmp_path), verbose=False)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.ffi.new("unsigned char[]", 1 << 20)
    n = module.lib.fill(out)
    return bytes(module.ffi.buffer(out, n))


@pytest.mark.parametrize("rules, seed, scalars", [("c", 32, C_SCALARS), ("cuda", 33, CUDA_SCALARS)])
def test_kinds_bytes_from_c_equal_python(tmp_path, rules, seed, scalars):
    require_toolchain("cffi")
    if rules == "cuda":
        import os

        if not os.path.exists(f"{CUDA_INCLUDE}/vector_types.h"):
            pytest.skip("CUDA's vector_types.h is not installed")
    types = kinds_types(seed, 40, scalars)
    (tmp_path / "k.json").write_text(json.dumps(types.schema(rules)))
    schema = sl.load(str(tmp_path / "k.json"))
    counter = [0]
    cases = [(name, build(("struct", name), types, counter)) for name in types.records]
    got = c_bytes(tmp_path, types, rules, cases, f"_sarek_host_kinds_{rules}")

    files = generate(tmp_path, str(tmp_path / "k.json"))
    module = import_file(files["k_layout.py"], f"k_layout_{rules}")
    np = pytest.importorskip("numpy")
    at = 0
    for name, value in cases:
        size = schema.size(name)
        chunk = got[at:at + size]
        at += size
        assert schema.encode(name, value) == chunk, (name, value)
        obj = generated(module, ("struct", name), value, types)
        assert getattr(module, f"encode_K_{name}")(obj) == chunk, name
        want = expected(("struct", name), value, types)
        assert schema.decode(name, chunk) == want, name
        assert getattr(module, f"decode_K_{name}")(chunk) == generated(
            module, ("struct", name), want, types), name
        # numpy reads what C wrote, every element at its own offset.
        dt = schema.dtype(name)
        assert dt.itemsize == size
        row = np.frombuffer(chunk, dt)[0]
        assert {f: numpy_value(row[f], k, types) for f, k in types.records[name]} == want, name
    assert at == len(got)


def test_numpy_reads_padded_elements_where_c_and_the_codec_put_them(tmp_path):
    """A std430 ``vec3<float32>[2]`` (stride 16, element 12) and a std140 ``float32[4]``
    (stride 16): the element is a struct ``v`` of the stride's size, so ``frombuffer`` reads
    each element at its offset, as a C struct with the same explicit padding does."""
    np = pytest.importorskip("numpy")
    require_toolchain("cffi")
    import cffi

    (tmp_path / "p.json").write_text(json.dumps({"module": "P", "types": [
        {"record": "a", "rules": "std430", "fields": [["pts", "vec3<float32>[2]"], ["w", "float32"]]},
        {"record": "b", "rules": "std140", "fields": [["f", "float32[4]"], ["n", "int32"]]}]}))
    schema = sl.load(str(tmp_path / "p.json"))
    # The same layouts written by hand in C, padding as named members (the GLSL block rules
    # are not C's; the numbers are the Vulkan specification's: vec3 in an array strides 16,
    # a std140 array element is rounded up to 16).
    ffi = cffi.FFI()
    ffi.cdef("size_t fill(unsigned char *out);")
    ffi.set_source("_sarek_host_kinds_padded", """
        #include <string.h>
        #include <stdint.h>
        struct a { struct { float v[3]; float pad; } pts[2]; float w; float tail[3]; };
        struct b { struct { float v; float pad[3]; } f[4]; int32_t n; int32_t tail[3]; };
        size_t fill(unsigned char *out) {
            struct a x; struct b y; memset(&x, 0, sizeof x); memset(&y, 0, sizeof y);
            for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) x.pts[i].v[j] = 10 * i + j;
            x.w = 99;
            for (int i = 0; i < 4; i++) y.f[i].v = 0.5f + i;
            y.n = -7;
            memcpy(out, &x, sizeof x); memcpy(out + sizeof x, &y, sizeof y);
            return sizeof x + sizeof y;
        }""")
    path = ffi.compile(tmpdir=str(tmp_path), verbose=False)
    spec = importlib.util.spec_from_file_location("_sarek_host_kinds_padded", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.ffi.new("unsigned char[]", 256)
    got = bytes(module.ffi.buffer(out, module.lib.fill(out)))
    assert len(got) == 48 + 80
    a_value = {"pts": [[0, 1, 2], [10, 11, 12]], "w": 99}
    b_value = {"f": np.array([0.5, 1.5, 2.5, 3.5], dtype=np.float32), "n": -7}
    assert schema.encode("a", a_value) == got[:48]
    assert schema.encode("b", b_value) == got[48:]
    a = np.frombuffer(got[:48], schema.dtype("a"))
    assert a.dtype.fields["pts"][0].itemsize == 32 and a.dtype.fields["w"][1] == 32
    assert a["pts"]["v"].tolist() == [[[0, 1, 2], [10, 11, 12]]] and a["w"][0] == 99
    b = np.frombuffer(got[48:], schema.dtype("b"))
    assert b["f"]["v"].tolist() == [[0.5, 1.5, 2.5, 3.5]] and b["n"][0] == -7


# --- the GLSL block rules: a shader built by glslang reads what Python wrote --------------------

GLSL_SCALARS = ["float32", "int32", "uint32"]
_TO_UINT = {"float32": "floatBitsToUint({})", "int32": "uint({})", "uint32": "{}"}


def _word(scalar: str, value) -> int:
    if scalar == "float32":
        return struct.unpack("=I", struct.pack("=f", value))[0]
    return value & 0xFFFFFFFF


@pytest.mark.toolchain("vulkan")
@pytest.mark.parametrize("rules, seed", [("std430", 430), ("std140", 140), ("scalar", 7)])
def test_a_glsl_shader_reads_every_element_python_wrote(tmp_path, rules, seed):
    """Random records of vectors, matrices, arrays and nested records under a GLSL block
    layout, declared natively in GLSL (``vec3``, ``mat2x3``, ``float[4]``) in one storage
    buffer each: the shader, compiled by glslang and run on a Vulkan device, copies every
    scalar it reads (by its own member offsets and strides) into a word array, which must
    hold the values Python encoded, in declaration order."""
    require_toolchain("vulkan")
    import subprocess

    from sarek_layout.verify.drivers.vulkan import run_spirv
    from kinds_cases import scalar_leaves

    structs = kinds_oracle.random_structs(seed, 16, GLSL_SCALARS, glsl=True)
    types = Types(records={name: list(members) for name, members in structs})
    (tmp_path / "g.json").write_text(json.dumps(types.schema(rules)))
    schema = sl.load(str(tmp_path / "g.json"))
    counter = [0]
    cases = [(name, build(("struct", name), types, counter)) for name in types.records]
    lines = ["#version 450", "#extension GL_EXT_scalar_block_layout : require",
             "layout(local_size_x = 1) in;"]
    lines += [f"struct {name} {{ {' '.join(kinds_oracle._glsl_decl(f, k) for f, k in members)} }};"
              for name, members in structs]
    lines += [f"layout({rules}, binding = {i}) readonly buffer In{i} {{ {name} v; }} in{i};"
              for i, (name, _) in enumerate(cases)]
    lines.append(f"layout(std430, binding = {len(cases)}) writeonly buffer Out {{ uint w[]; }} o;")
    lines.append("void main() {\n    uint k = 0;")
    words = []
    for i, (name, value) in enumerate(cases):
        for lvalue, scalar, v in scalar_leaves(f"in{i}.v", ("struct", name), value, types, True):
            lines.append(f"    o.w[k++] = {_TO_UINT[scalar].format(lvalue)};")
            words.append(_word(scalar, v))
    lines.append("}")
    (tmp_path / "g.comp").write_text("\n".join(lines) + "\n")
    built = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2",
                            str(tmp_path / "g.comp"), "-o", str(tmp_path / "g.spv")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    buffers = [schema.encode(name, value) for name, value in cases] + [4 * len(words)]
    out = run_spirv((tmp_path / "g.spv").read_bytes(), buffers)
    assert list(struct.unpack(f"={len(words)}I", out[-1])) == words
