"""uint8 and float16 on a GPU API, end to end: kernels on Mesa's lavapipe read them and write
them through the generated GLSL (Vulkan) and WGSL (WebGPU) files.

GLSL and WGSL keep scalars smaller than a word inside packed 32-bit words, read by
accessors (``Texels_texel_n(t)``, ``Texels_value_Pair_1(v)``) and written by the ``make_``
functions. Python packs records and variants of ``tests/golden/small_scalars/texels.toml``
with the codec; a compute shader reads every uint8 and float16 (in records, nested records
and constructor arguments, next to holes of 1 to 3 bytes), computes new values and writes
new elements; Python decodes them and compares every value with its own computation and
every byte (padding included) with its own encoding of the expected values.
"""

from __future__ import annotations

import struct

import pytest

import sarek_layout as sl
from helpers.common import ROOT, require_toolchain
from sarek_layout.verify.run import generated_headers

SCHEMA = ROOT / "tests" / "golden" / "small_scalars" / "texels.toml"
N = 14  # two of each constructor of Texels.value


def half(x: float) -> float:
    """``x`` rounded to binary16, as the kernels store it."""
    return struct.unpack("<e", struct.pack("<e", x))[0]


def inputs():
    samples, values = [], []
    for k in range(N):
        rgba = {"r": (40 * k + 3) % 256, "g": 255 - k, "b": k, "a": 200 + k}
        texel = {"c": rgba, "h": -1.5 + k / 4, "n": (250 + 3 * k) % 256, "w": 0.25 * k}
        samples.append({"id": 255 - 9 * k, "t": texel, "depth": 3.0 - k / 8,
                        "mass": 1.0e6 + k, "k": 100 * k - 7, "tag8": 17 * k % 256})
        values.append([
            ("Empty", ()), ("Byte", (250 - k,)), ("Half", (100.75 + k,)),
            ("Pair", (k * 19 % 256, -2.5 * k)), ("Color", (rgba,)), ("Texel", (texel, 254 - k)),
            ("Wide", (k | 0x80, -3.5e9 - k)),
        ][k % 7])
    return samples, values


def bump(c):
    return {"r": c["g"], "g": c["b"], "b": c["a"], "a": (c["r"] + 1) % 256}


def twist(t):
    return {"c": bump(t["c"]), "h": half(t["h"] + 1.0), "n": (t["n"] + 7) % 256, "w": t["w"] * 2}


def expected(samples, values, float64: bool):
    """What the kernels compute (WGSL has no float64: it copies those words)."""
    out_s = [{"id": (s["id"] + 1) % 256, "t": twist(s["t"]), "depth": half(s["depth"] * 2),
              "mass": s["mass"] + 1.0 if float64 else s["mass"], "k": s["k"] - 3,
              "tag8": 255 - s["tag8"]} for s in samples]
    out_v = []
    for name, args in values:
        if name == "Byte":
            out_v.append(("Half", (half(args[0] + 0.5),)))
        elif name == "Half":
            out_v.append(("Byte", (int(args[0]),)))
        elif name == "Pair":
            out_v.append(("Pair", ((args[0] + 7) % 256, -args[1])))
        elif name == "Color":
            out_v.append(("Color", (bump(args[0]),)))
        elif name == "Texel":
            out_v.append(("Texel", (twist(args[0]), 255 - args[1])))
        elif name == "Wide":
            out_v.append(("Wide", (args[0] ^ 0x5A, args[1] * 2 if float64 else args[1])))
        else:
            out_v.append(("Empty", ()))
    return out_s, out_v


GLSL = """#version 450
#extension GL_GOOGLE_include_directive : require
#include "texels.glsl"
layout(std430, binding = 0) readonly buffer In { Texels_sample s[N]; Texels_value v[N]; } i_;
layout(std430, binding = 1) buffer Out { Texels_sample s[N]; Texels_value v[N]; } o_;
layout(local_size_x = 1) in;
Texels_rgba bump(Texels_rgba c)
{
    return make_Texels_rgba(Texels_rgba_g(c), Texels_rgba_b(c), Texels_rgba_a(c), (Texels_rgba_r(c) + 1u) & 0xFFu);
}
Texels_texel twist(Texels_texel t)
{
    return make_Texels_texel(bump(t.c), Texels_texel_h(t) + 1.0, (Texels_texel_n(t) + 7u) & 0xFFu, t.w * 2.0);
}
void main()
{
    uint k = gl_GlobalInvocationID.x;
    Texels_sample s = i_.s[k];
    o_.s[k] = make_Texels_sample((Texels_sample_id(s) + 1u) & 0xFFu, twist(s.t), Texels_sample_depth(s) * 2.0,
                                 s.mass + 1.0, s.k - 3, 255u - Texels_sample_tag8(s));
    Texels_value v = i_.v[k];
    Texels_value w = make_Texels_value_Empty();
    if (v.tag == Texels_value_Byte) w = make_Texels_value_Half(float(Texels_value_Byte_v(v)) + 0.5);
    if (v.tag == Texels_value_Half) w = make_Texels_value_Byte(uint(Texels_value_Half_v(v)));
    if (v.tag == Texels_value_Pair) w = make_Texels_value_Pair((Texels_value_Pair_0(v) + 7u) & 0xFFu, -Texels_value_Pair_1(v));
    if (v.tag == Texels_value_Color) w = make_Texels_value_Color(bump(Texels_value_Color_v(v)));
    if (v.tag == Texels_value_Texel) w = make_Texels_value_Texel(twist(Texels_value_Texel_0(v)), 255u - Texels_value_Texel_1(v));
    if (v.tag == Texels_value_Wide) w = make_Texels_value_Wide(Texels_value_Wide_0(v) ^ 0x5Au, Texels_value_Wide_1(v) * 2.0);
    o_.v[k] = w;
}
"""

WGSL = """
struct Buffers { s: array<Texels_sample, N>, v: array<Texels_value, N>, }
@group(0) @binding(0) var<storage, read> i_: Buffers;
@group(0) @binding(1) var<storage, read_write> o_: Buffers;
fn bump(c: Texels_rgba) -> Texels_rgba {
    return make_Texels_rgba(Texels_rgba_g(c), Texels_rgba_b(c), Texels_rgba_a(c), (Texels_rgba_r(c) + 1u) & 0xFFu);
}
fn twist(t: Texels_texel) -> Texels_texel {
    return make_Texels_texel(bump(t.c), Texels_texel_h(t) + 1.0, (Texels_texel_n(t) + 7u) & 0xFFu, t.w * 2.0);
}
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    let s = i_.s[k];
    o_.s[k] = make_Texels_sample((Texels_sample_id(s) + 1u) & 0xFFu, twist(s.t), Texels_sample_depth(s) * 2.0,
                                 s.mass, s.k - 3, 255u - Texels_sample_tag8(s));
    let v = i_.v[k];
    var w = make_Texels_value_Empty();
    if (v.tag == Texels_value_Byte) { w = make_Texels_value_Half(f32(Texels_value_Byte_v(v)) + 0.5); }
    if (v.tag == Texels_value_Half) { w = make_Texels_value_Byte(u32(Texels_value_Half_v(v))); }
    if (v.tag == Texels_value_Pair) { w = make_Texels_value_Pair((Texels_value_Pair_0(v) + 7u) & 0xFFu, -Texels_value_Pair_1(v)); }
    if (v.tag == Texels_value_Color) { w = make_Texels_value_Color(bump(Texels_value_Color_v(v))); }
    if (v.tag == Texels_value_Texel) { w = make_Texels_value_Texel(twist(Texels_value_Texel_0(v)), 255u - Texels_value_Texel_1(v)); }
    if (v.tag == Texels_value_Wide) { w = make_Texels_value_Wide(Texels_value_Wide_0(v) ^ 0x5Au, Texels_value_Wide_1(v)); }
    o_.v[k] = w;
}
"""


def _check(out: bytes, schema, samples, values, float64: bool) -> None:
    want_s, want_v = expected(samples, values, float64)
    size = N * schema.dtype("sample").itemsize
    assert schema.unpack("sample", out[:size]) == want_s
    assert schema.unpack("value", out[size:]) == want_v
    # Every byte, padding included: make_ zeroes it, as the codec does.
    assert out == schema.pack("sample", want_s) + schema.pack("value", want_v)
    np = pytest.importorskip("numpy")
    rows = np.frombuffer(out[:size], schema.dtype("sample"))
    assert list(rows["depth"]) == [np.float16(s["depth"]) for s in want_s]
    assert list(rows["t"]["c"]["a"]) == [s["t"]["c"]["a"] for s in want_s]


def test_vulkan_kernel_reads_and_writes_uint8_and_float16(tmp_path):
    require_toolchain("vulkan")
    from sarek_layout.verify.drivers.glsl import compile_glsl
    from sarek_layout.verify.drivers.vulkan import run_spirv

    schema = sl.load(str(SCHEMA))
    samples, values = inputs()
    data = schema.pack("sample", samples) + schema.pack("value", values)
    headers = generated_headers(schema.schema, ["glsl"])["glsl"]
    spirv = compile_glsl("glslang", GLSL.replace("[N]", f"[{N}]"), headers)
    _, out = run_spirv(spirv, [data, len(data)], groups=N)
    _check(out, schema, samples, values, float64=True)


def test_webgpu_kernel_reads_and_writes_uint8_and_float16(tmp_path):
    require_toolchain("webgpu")
    from sarek_layout.verify.drivers.wgsl import run_wgsl

    schema = sl.load(str(SCHEMA))
    samples, values = inputs()
    data = schema.pack("sample", samples) + schema.pack("value", values)
    ((_, text),) = generated_headers(schema.schema, ["wgsl"])["wgsl"].files
    _, out = run_wgsl(text + WGSL.replace(", N>", f", {N}>"), [data, len(data)], groups=N)
    _check(out, schema, samples, values, float64=False)


# --- what GLSL and WGSL cannot express: refused there only, with the schema location ---------


RGB = 'module = "Rgb"\n[[types]]\nrecord = "rgb"\nfields = [["r", "uint8"], ["g", "uint8"], ["b", "uint8"]]\n'


def _cli(capsys, *argv):
    from sarek_layout.cli.main import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("target", ["glsl", "wgsl"])
def test_a_record_of_three_bytes_is_refused_by_the_word_targets(target, tmp_path, capsys):
    path = tmp_path / "rgb.toml"
    path.write_text(RGB)
    out = tmp_path / "out"
    status, _, err = _cli(capsys, "generate", str(path), "-o", str(out), "-t", target)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith(f"{path}:3:10: error: type 'Rgb.rgb' is 3 bytes")
    assert not out.exists()
    # The C-family targets and Metal express it.
    status, _, err = _cli(capsys, "generate", str(path), "-o", str(out), "-t", "c", "-t", "metal")
    assert status == 0, err


def test_a_packed_record_inside_a_word_is_refused_by_the_word_targets(tmp_path):
    """A 4-byte record of uint8 is 1-aligned: after a uint8 it sits at byte 1, inside a word."""
    from sarek_layout.codegen import render_headers
    from sarek_layout.errors import SchemaError
    from sarek_layout.resolve import load_schema

    path = tmp_path / "m.toml"
    path.write_text('module = "M"\n[[types]]\nrecord = "c4"\n'
                    'fields = [["r", "uint8"], ["g", "uint8"], ["b", "uint8"], ["a", "uint8"]]\n'
                    '[[types]]\nrecord = "px"\nfields = [["k", "uint8"], ["c", "c4"], ["z", "uint8"], ["w", "uint8"], ["q", "uint8"]]\n')
    schema = load_schema([str(path)])
    for target in ("glsl", "wgsl"):
        with pytest.raises(SchemaError, match=r"member 'c' \(record 'M_c4'\) is at byte 1"):
            render_headers(schema, [target])
    render_headers(schema, ["c", "metal"])


def test_verify_skips_a_word_target_that_cannot_express_the_schema(tmp_path, capsys,
                                                                   monkeypatch):
    """Not named: skipped, saying why; named with --toolchain: its refusal, exit 2."""
    from sarek_layout.verify import toolchains
    from sarek_layout.verify import run

    require_toolchain("glslang")
    path = tmp_path / "rgb.toml"
    path.write_text(RGB)
    status, out, err = _cli(capsys, "verify", str(path), "--toolchain", "gcc", "--toolchain", "glslang")
    assert status == 2 and "is 3 bytes" in err
    # Every toolchain, as when none is named, but only these three (the others are slow).
    monkeypatch.setattr(run, "TOOLCHAINS", {n: toolchains.TOOLCHAINS[n]
                                            for n in ("gcc", "glslang", "metal-proxy")})
    status, out, err = _cli(capsys, "verify", str(path))
    assert status == 0, out + err
    row = next(line for line in out.splitlines() if line.startswith("glslang"))
    assert "skipped: glsl cannot express a type" in row and "rgb.toml:3:10" in row


def test_field_accessors_are_claimed_like_every_file_scope_name(tmp_path):
    """The accessor of field n of texel, Texels_texel_n, would be the type texel_n."""
    from sarek_layout.codegen import render_headers
    from sarek_layout.errors import SchemaError
    from sarek_layout.resolve import load_schema

    path = tmp_path / "t.toml"
    path.write_text('module = "Texels"\n[[types]]\nrecord = "texel_n"\nfields = [["x", "int32"]]\n'
                    '[[types]]\nrecord = "texel"\nfields = [["h", "float16"], ["n", "uint8"], ["m", "uint8"]]\n')
    schema = load_schema([str(path)])
    with pytest.raises(SchemaError, match="Texels_texel_n"):
        render_headers(schema, ["glsl"])
    render_headers(schema, ["c"])


def test_uint8_and_float16_in_types_copied_with_loops(tmp_path):
    """Past UNROLL_WORDS words a type's words are copied with loops: the packed words of its
    uint8 and float16 travel with them, and the accessors still read the right bytes."""
    import json

    from sarek_layout.resolve import load_schema
    from sarek_layout.verify.run import verify_schema

    fields = [["n", "uint8"], ["h", "float16"], ["m", "uint8"]]
    fields += [[f"f{i}", "float32"] for i in range(36)] + [["last", "float16"], ["k", "uint8"]]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"module": "Big", "types": [
        {"record": "big", "fields": fields},
        {"variant": "v", "constructors": [["A", ["uint8", "big", "float16"]],
                                          ["B", ["float16", "uint8", "float64"]], ["C", []]]}]}))
    schema = load_schema([str(path)])
    headers = generated_headers(schema, ["glsl", "wgsl"])
    assert "[[unroll]] for" in headers["glsl"].files[0][1]
    assert "for (var _sarek_k" in headers["wgsl"].files[0][1]
    names = [n for n in ("glslang", "naga", "vulkan", "webgpu") if _installed(n)]
    if not names:
        pytest.skip("no GLSL or WGSL toolchain installed")
    report = verify_schema(schema, toolchains=names)
    assert all(r.status == "agrees" for r in report.results), report.format()
    assert any(r.values > 0 for r in report.results)


def _installed(name: str) -> bool:
    from sarek_layout.verify import toolchains

    return toolchains.TOOLCHAINS[name].available
