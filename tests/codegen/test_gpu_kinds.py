"""SPEC §1b's member kinds in the generated GLSL and WGSL: how each rule set's arrays, vectors,
matrices and enums are spelled (the languages' own types where their layout is the rule
set's, arrays of scalars or element structs where not), refusals per target, and the
generated functions run on a device (lavapipe): enum constants, the record word conversions
and the variant accessors and ``make_`` functions of kind arguments move every value.
The layout numbers are measured in tests/verify/test_gpu_kinds_verify.py.
"""

from __future__ import annotations

import json
import struct

import pytest

from helpers.common import require_toolchain
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.verify.drivers import HeaderSet


def _schema(tmp_path, rules, types, module="K", name="k.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"module": module, "rules": rules, "types": types}))
    return load_schema([str(path)])


def _text(schema, target):
    (f,) = render_headers(schema, [target])
    return f.text


def _glslang(text, tmp_path, body=""):
    require_toolchain("glslang")
    from sarek_layout.verify.drivers.glsl import compile_glsl

    headers = HeaderSet((("k.glsl", text),), ("k.glsl",))
    return compile_glsl("glslang", "#version 450\n#extension GL_GOOGLE_include_directive : "
                        "require\n" + headers.include_lines() + body
                        + "layout(local_size_x = 1) in;\nvoid main() {}\n", headers)


def _naga(text):
    require_toolchain("naga")
    from sarek_layout.verify.drivers.wgsl import validate_wgsl

    validate_wgsl(text + "\n@compute @workgroup_size(1) fn main() {}\n")


PARTICLE = [{"record": "particle", "fields": [["pos", "vec3<float32>"], ["mass", "float32"],
                                              ["color", "vec4"], ["m", "mat3"],
                                              ["w", "float32[4][2]"], ["ids", "int32[3]"]]}]


@pytest.mark.parametrize("rules, glsl, wgsl", [
    # The GLSL rule sets: GLSL's own types in a block of that layout; WGSL is std430's.
    ("std430", ["vec3 pos;", "vec4 color;", "mat3 m;", "float w[4][2];", "int ids[3];"],
     ["pos: vec3<f32>,", "color: vec4<f32>,", "m: mat3x3<f32>,", "w: array<array<f32, 2>, 4>,"]),
    ("std140", ["vec3 pos;", "vec4 color;", "mat3 m;", "float w[4][2];", "int ids[3];"],
     ["ids: array<K_particle_ids_elem, 3>,", "struct K_particle_ids_elem { @size(16) v: i32, }"]),
    ("scalar", ["vec3 pos;", "vec4 color;", "mat3 m;", "float w[4][2];"],
     ["pos: array<f32, 3>,", "color: array<f32, 4>,", "m: array<array<f32, 3>, 3>,"]),
    # Sarek's layout: a vector is an array of its scalars (vec4 is 16 bytes, 4-aligned).
    ("c", ["float pos[3];", "float color[4];", "float m[3][3];"],
     ["pos: array<f32, 3>,", "color: array<f32, 4>,", "m: array<array<f32, 3>, 3>,"]),
    # CUDA's vector_types.h: float4 16-aligned, float3 4-aligned.
    ("cuda", ["float pos[3];", "vec4 color;", "float m[3][3];"],
     ["pos: array<f32, 3>,", "color: vec4<f32>,"]),
])
def test_native_types_where_the_language_lays_them_out_so(rules, glsl, wgsl, tmp_path):
    types = PARTICLE if rules != "std140" else [
        {"record": "particle", "fields": PARTICLE[0]["fields"] + [["pad", "vec4"]]}]
    schema = _schema(tmp_path, rules, types)
    g = _text(schema, "glsl")
    assert all(line in g for line in glsl), g
    if rules != "std140":  # std140's particle is 16-aligned: WGSL (naga) cannot say so
        w = _text(schema, "wgsl")
        assert all(line in w for line in wgsl), w
        _naga(w)
    block = {"std140": "std140", "scalar": "scalar"}.get(rules, "std430")
    ext = "#extension GL_EXT_scalar_block_layout : require\n" if rules == "scalar" else ""
    _glslang(g, tmp_path, ext + f"layout({block}, binding = 0) buffer B {{ K_particle p[]; }};\n")


def test_cuda_double4_is_two_dvec2_in_glsl(tmp_path):
    """CUDA's double4 is 32 bytes and 16-aligned: no GLSL vector is (dvec4: 32-aligned), two
    dvec2 are."""
    schema = _schema(tmp_path, "cuda", [{"record": "r", "fields": [["d", "vec4<float64>"],
                                                                    ["f", "float32"]]}])
    g = _text(schema, "glsl")
    assert "dvec2 d[2];" in g
    _glslang(g, tmp_path)


def test_enum_constants_compile_in_each_language(tmp_path):
    schema = _schema(tmp_path, "c", [
        {"enum": "material", "values": [["Lambert", 0], ["Metal", 1], ["Glass", -7]]},
        {"enum": "wide", "base": "int64", "values": [["Big", 5000000000], ["Low", -2 ** 63]]},
        {"enum": "flags", "base": "uint32", "values": [["A", 1], ["B", 2 ** 31]]},
        {"enum": "small", "base": "uint8", "values": [["X", 255]]},
        {"record": "surface", "fields": [["m", "material"], ["ms", "material[2]"],
                                         ["f", "flags"], ["s", "small"], ["w", "wide"]]}])
    g, w = _text(schema, "glsl"), _text(schema, "wgsl")
    for line in ("const int K_material_Glass = -7;", "const uint K_flags_B = 2147483648u;",
                 "const int64_t K_wide_Low = (-9223372036854775807L - 1L);",
                 "const uint K_small_X = 255u;", "int ms[2];"):
        assert line in g, line
    for line in ("const K_material_Glass: i32 = -7i;", "const K_flags_B: u32 = 2147483648u;",
                 "const K_wide_Big: vec2<u32> = vec2<u32>(705032704u, 1u);", "ms: array<i32, 2>,"):
        assert line in w, line
    _glslang(g, tmp_path)
    _naga(w)


GLSL_CONSTANTS = """#version 450
#extension GL_GOOGLE_include_directive : require
#include "k.glsl"
layout(std430, binding = 0) buffer Out { int v[]; } o_;
layout(local_size_x = 1) in;
void main() { o_.v[0] = K_material_Lambert; o_.v[1] = K_material_Metal; o_.v[2] = K_material_Glass; }
"""
WGSL_CONSTANTS = """
@group(0) @binding(0) var<storage, read_write> o_: array<i32>;
@compute @workgroup_size(1) fn main() { o_[0] = K_material_Lambert; o_[1] = K_material_Metal; o_[2] = K_material_Glass; }
"""


@pytest.mark.parametrize("toolchain", ["vulkan", "webgpu"])
def test_enum_constants_have_the_schema_values_on_a_device(toolchain, tmp_path):
    schema = _schema(tmp_path, "c", [
        {"enum": "material", "values": [["Lambert", 0], ["Metal", 1], ["Glass", -7]]}])
    require_toolchain(toolchain)
    if toolchain == "vulkan":
        from sarek_layout.verify.drivers.glsl import compile_glsl
        from sarek_layout.verify.drivers.vulkan import run_spirv

        text = _text(schema, "glsl")
        spirv = compile_glsl("glslang", GLSL_CONSTANTS, HeaderSet((("k.glsl", text),), ("k.glsl",)))
        (out,) = run_spirv(spirv, [12])
    else:
        from sarek_layout.verify.drivers.wgsl import run_wgsl

        (out,) = run_wgsl(_text(schema, "wgsl") + WGSL_CONSTANTS, [12])
    assert struct.unpack("<3i", out) == (0, 1, -7)


# --- the generated functions move every value of a kind --------------------------------------

ROUND = [
    {"record": "inner", "fields": [["a", "int32"], ["b", "vec2<float32>"]]},
    {"record": "rec", "fields": [["pos", "vec3<float32>"], ["k", "int32"],
                                 ["m", "mat2x3<float32>"], ["xs", "uint32[5]"],
                                 ["big", "float32[40]"], ["rs", "inner[2]"], ["d", "float64[2]"]]},
    {"variant": "val", "constructors": [["A", ["vec4", "inner[3]"]], ["B", ["float32[40]"]],
                                        ["C", ["rec"]], ["D", []]]},
]

GLSL_ROUND = """#version 450
#extension GL_GOOGLE_include_directive : require
#include "k.glsl"
layout(std430, binding = 0) readonly buffer In { K_rec r[2]; K_val v[4]; } i_;
layout(std430, binding = 1) buffer Out { K_rec r[2]; K_val v[4]; } o_;
layout(local_size_x = 1) in;
void main() {
    for (int k = 0; k < 2; k++) o_.r[k] = sarek_layout_K_rec_from_words(sarek_layout_K_rec_to_words(i_.r[k]));
    for (int k = 0; k < 4; k++) {
        K_val v = i_.v[k];
        if (v.tag == K_val_A) o_.v[k] = make_K_val_A(K_val_A_0(v), K_val_A_1(v));
        if (v.tag == K_val_B) o_.v[k] = make_K_val_B(K_val_B_v(v));
        if (v.tag == K_val_C) o_.v[k] = make_K_val_C(K_val_C_v(v));
        if (v.tag == K_val_D) o_.v[k] = make_K_val_D();
    }
}
"""
WGSL_ROUND = """
struct Buffers { r: array<K_rec, 2>, v: array<K_val, 4>, }
@group(0) @binding(0) var<storage, read> i_: Buffers;
@group(0) @binding(1) var<storage, read_write> o_: Buffers;
@compute @workgroup_size(1) fn main() {
    for (var k = 0; k < 2; k++) { o_.r[k] = sarek_layout_K_rec_from_words(sarek_layout_K_rec_to_words(i_.r[k])); }
    for (var k = 0; k < 4; k++) {
        let v = i_.v[k];
        if (v.tag == K_val_A) { o_.v[k] = make_K_val_A(K_val_A_0(v), K_val_A_1(v)); }
        if (v.tag == K_val_B) { o_.v[k] = make_K_val_B(K_val_B_v(v)); }
        if (v.tag == K_val_C) { o_.v[k] = make_K_val_C(K_val_C_v(v)); }
        if (v.tag == K_val_D) { o_.v[k] = make_K_val_D(); }
    }
}
"""


def _occupied(schema, c_name: str, tag=None) -> set:
    """The words the scalars of a type (or the tag and one constructor's arguments) occupy:
    its leaves, each element of an array leaf (a vec3 column's fourth word, an element
    record's padding are not a scalar's)."""
    import itertools

    st = schema.by_c_name(c_name)
    leaves = st.layout.leaves if tag is None else st.layout.ctors[tag].leaves
    out = set() if tag is None else {0}  # a variant's tag, word 0
    for leaf in leaves:
        for index in itertools.product(*(range(n) for n in leaf.count)):
            strides = leaf.stride
            at = leaf.offset + sum(i * s for i, s in zip(index, strides))
            out.update(range(at // 4, (at + leaf.size + 3) // 4))
    return out


@pytest.mark.parametrize("rules", ["c", "std430", "cuda"])
@pytest.mark.parametrize("toolchain", ["vulkan", "webgpu"])
def test_word_conversions_accessors_and_makers_move_every_value(toolchain, rules, tmp_path):
    """Values filled word by word (word i holds i + 1, a valid tag in each variant) go
    through the record's from/to words and each constructor's accessors and make_ function:
    every word a member or argument occupies comes back, every other word is zero (the
    words that move are the members' own, measured by the verify toolchains). Small arrays
    are spelled element by element, ``float32[40]`` with loops: both ways run."""
    require_toolchain(toolchain)
    schema = _schema(tmp_path, rules, ROUND)
    rec, val = schema.by_c_name("K_rec"), schema.by_c_name("K_val")
    words = (2 * rec.size + 4 * val.size) // 4
    data = list(range(1, words + 1))
    base = 2 * rec.size // 4
    for k in range(4):
        data[base + k * val.size // 4] = k  # the tag of the k-th value: A, B, C, D
    blob = struct.pack(f"<{words}I", *data)
    if toolchain == "vulkan":
        from sarek_layout.verify.drivers.glsl import compile_glsl
        from sarek_layout.verify.drivers.vulkan import run_spirv

        text = _text(schema, "glsl")
        spirv = compile_glsl("glslang", GLSL_ROUND, HeaderSet((("k.glsl", text),), ("k.glsl",)))
        _, out = run_spirv(spirv, [blob, len(blob)])
    else:
        from sarek_layout.verify.drivers.wgsl import run_wgsl

        _, out = run_wgsl(_text(schema, "wgsl") + WGSL_ROUND, [blob, len(blob)])
    got = struct.unpack(f"<{words}I", out)
    want = []
    for k in range(2):
        used = _occupied(schema, "K_rec")
        want += [data[k * rec.size // 4 + w] if w in used else 0 for w in range(rec.size // 4)]
    for k in range(4):
        used = _occupied(schema, "K_val", tag=k)
        at = base + k * val.size // 4
        want += [data[at + w] if w in used else 0 for w in range(val.size // 4)]
    assert list(got) == want


# --- what a language cannot hold: refused there alone, naming the type and why --------------


@pytest.mark.parametrize("target, rules, types, says", [
    ("glsl", "std430", [{"variant": "v", "constructors": [["A", ["vec4<float64>"]]]}],
     "type 'K.v' (std430 rules) is 64 bytes, aligned to 32, where its members' types make "
     "it 64 bytes aligned to 16 in a layout(std430) block (GLSL has no alignment pin"),
    ("wgsl", "std140", [{"record": "r", "fields": [["a", "float32"], ["b", "vec2"]]}],
     "type 'K.r' (std140 rules) is 16 bytes, aligned to 16, where its members' types make "
     "it 16 bytes aligned to 8 in WGSL (as naga lays it out"),
    ("wgsl", "std430", [{"record": "r", "fields": [["d", "vec3<float64>"]]}],
     "aligned to 32, where its members' types make it 32 bytes aligned to 8 in WGSL"),
    ("glsl", "c", [{"record": "r", "fields": [["a", "uint8"], ["b", "uint8[3]"]]}],
     "member 'b' (uint8[3]) cannot be declared: its 3 bytes of uint8 start or end inside a "
     "32-bit word"),
])
def test_a_layout_the_language_cannot_hold_is_refused_for_it_alone(target, rules, types, says,
                                                                  tmp_path, capsys):
    from sarek_layout.cli.main import main

    schema = _schema(tmp_path, rules, types)
    with pytest.raises(SchemaError) as e:
        render_headers(schema, [target])
    assert says in str(e.value), str(e.value)
    assert str(e.value).startswith(str(tmp_path / "k.json") + ":1:")
    out = tmp_path / "out"
    status = main(["generate", str(tmp_path / "k.json"), "-t", target, "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and says in err
    assert not out.exists() or not any(out.iterdir())
    other = "wgsl" if target == "glsl" else "glsl"
    try:  # the other language is judged on its own
        render_headers(schema, [other])
    except SchemaError as e2:
        assert target not in str(e2).split("in the ")[-1][:8]


def test_sub_word_kinds_are_words(tmp_path):
    """``uint8[32]`` and ``vec4<uint8>``, word-aligned: their bytes as 32-bit words, as the
    packed scalars are (read with bit operations)."""
    schema = _schema(tmp_path, "c", [{"record": "r", "fields": [
        ["name", "uint8[32]"], ["rgba", "vec4<uint8>"], ["h", "float16[2]"], ["x", "int32"]]}])
    g, w = _text(schema, "glsl"), _text(schema, "wgsl")
    assert "uint name[8]; // offset 0, uint8[32]" in g and "uint rgba[1];" in g
    assert "name: array<u32, 8>, // offset 0, uint8[32]" in w
    _glslang(g, tmp_path)
    _naga(w)
