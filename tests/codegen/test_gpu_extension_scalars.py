"""The extension scalars on a GPU API, end to end: kernels on Mesa's lavapipe read and write
int8, int16, uint16 (inside packed 32-bit words: the signed ones must come back
sign-extended), uint32 and uint64 through the generated GLSL (Vulkan) and WGSL (WebGPU) files.

Python packs records and variants of ``tests/golden/extension_scalars/gpu.toml`` with the
codec, at the ends of every range; a compute shader reads every value through the generated
accessors and members, computes new values whose result depends on the sign (``s8 * 100``,
``s16 >> 8``, ``i32 >> 24``), and writes new elements with the ``make_`` functions; Python
decodes them and compares every value with its own computation, and every byte (padding
included) with its own encoding of the expected values.
"""

from __future__ import annotations

import pytest

import sarek_layout as sl
from helpers.common import ROOT, require_toolchain
from sarek_layout.verify.run import generated_headers

SCHEMA = ROOT / "tests" / "golden" / "extension_scalars" / "gpu.toml"
N = 14  # two of each constructor of Gpu.event


def wrap(v: int, bits: int, signed: bool) -> int:
    """``v`` stored in ``bits`` bits (two's complement when ``signed``)."""
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


S8 = [-128, 127, -1, 0, 1, -100, 99]
S16 = [-32768, 32767, -1, 0, 256, -300, 12345]
U16 = [0, 65535, 1, 32768, 40000, 7, 255]
U32 = [0, 2**32 - 1, 2**31, 1, 123456789, 2**31 - 1, 42]
U64 = [0, 2**64 - 1, 2**63, 1, 2**32, 2**32 - 1, 0x0123456789ABCDEF]


def inputs():
    headers, events = [], []
    for k in range(N):
        i = k % 7
        small = {"s8": S8[i], "u8": (37 * k) % 256, "s16": S16[i], "u16": U16[i],
                 "h": 0.5 * k - 3}
        ext = {"w": U32[i], "h": U32[(i + 1) % 7], "depth": U32[(i + 2) % 7]}
        headers.append({"kind": S16[(i + 3) % 7], "ext": ext, "handle": U64[i],
                        "flags": U32[(i + 4) % 7], "tiny": S8[(i + 5) % 7],
                        "addr": -(2**62) + k})
        events.append([
            ("Idle", ()), ("Key", (U16[i], S8[i])), ("Count", (U32[i],)), ("Stamp", (U64[i],)),
            ("Small", (small,)), ("Sized", (ext, U64[(i + 1) % 7])),
            ("Signed", (S16[i], -(2**31) + 77 * k if k % 2 else 2**31 - 1 - k, S8[i])),
        ][i])
    return headers, events


def twist_small(s):
    return {"s8": s["s16"] >> 8, "u8": s["u8"], "s16": wrap(s["s8"] * 100, 16, True),
            "u16": wrap(s["u16"] - 1, 16, False), "h": s["h"]}


def turn(e):
    return {"w": e["h"], "h": e["depth"], "depth": wrap(e["w"] + 1, 32, False)}


def next64(v: int, native64: bool) -> int:
    """GLSL adds 1 to a uint64; WGSL, which has none, swaps its two words."""
    return wrap(v + 1, 64, False) if native64 else ((v & 0xFFFFFFFF) << 32) | (v >> 32)


def expected(headers, events, native64: bool):
    out_h = [{"kind": wrap(-h["kind"], 16, True), "ext": turn(h["ext"]),
              "handle": next64(h["handle"], native64), "flags": h["flags"] ^ 0xFFFFFFFF,
              "tiny": wrap(h["tiny"] - 1, 8, True), "addr": h["addr"]} for h in headers]
    out_e = []
    for name, args in events:
        if name == "Key":
            out_e.append(("Key", (wrap(args[0] + 1, 16, False), wrap(-args[1], 8, True))))
        elif name == "Count":
            out_e.append(("Count", (args[0] ^ 0xFFFFFFFF,)))
        elif name == "Stamp":
            out_e.append(("Stamp", (next64(args[0], native64),)))
        elif name == "Small":
            out_e.append(("Small", (twist_small(args[0]),)))
        elif name == "Sized":
            out_e.append(("Sized", (turn(args[0]), next64(args[1], native64))))
        elif name == "Signed":
            out_e.append(("Signed", (wrap(args[2] * 200, 16, True), args[0], args[1] >> 24)))
        else:
            out_e.append(("Idle", ()))
    return out_h, out_e


GLSL = """#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "gpu.glsl"
layout(std430, binding = 0) readonly buffer In { Gpu_header h[N]; Gpu_event e[N]; } i_;
layout(std430, binding = 1) buffer Out { Gpu_header h[N]; Gpu_event e[N]; } o_;
layout(local_size_x = 1) in;
Gpu_small twist(Gpu_small s)
{
    return make_Gpu_small(Gpu_small_s16(s) >> 8, Gpu_small_u8(s), Gpu_small_s8(s) * 100,
                          Gpu_small_u16(s) - 1u, Gpu_small_h(s));
}
Gpu_extent turn(Gpu_extent e) { return make_Gpu_extent(e.h, e.depth, e.w + 1u); }
void main()
{
    uint k = gl_GlobalInvocationID.x;
    Gpu_header h = i_.h[k];
    o_.h[k] = make_Gpu_header(-Gpu_header_kind(h), turn(h.ext), h.handle + 1ul, ~h.flags,
                              Gpu_header_tiny(h) - 1, h.addr);
    Gpu_event v = i_.e[k];
    Gpu_event w = make_Gpu_event_Idle();
    if (v.tag == Gpu_event_Key) w = make_Gpu_event_Key(Gpu_event_Key_0(v) + 1u, -Gpu_event_Key_1(v));
    if (v.tag == Gpu_event_Count) w = make_Gpu_event_Count(~Gpu_event_Count_v(v));
    if (v.tag == Gpu_event_Stamp) w = make_Gpu_event_Stamp(Gpu_event_Stamp_v(v) + 1ul);
    if (v.tag == Gpu_event_Small) w = make_Gpu_event_Small(twist(Gpu_event_Small_v(v)));
    if (v.tag == Gpu_event_Sized) w = make_Gpu_event_Sized(turn(Gpu_event_Sized_0(v)), Gpu_event_Sized_1(v) + 1ul);
    if (v.tag == Gpu_event_Signed) w = make_Gpu_event_Signed(Gpu_event_Signed_2(v) * 200, Gpu_event_Signed_0(v),
                                                             Gpu_event_Signed_1(v) >> 24);
    o_.e[k] = w;
}
"""

WGSL = """
struct Buffers { h: array<Gpu_header, N>, e: array<Gpu_event, N>, }
@group(0) @binding(0) var<storage, read> i_: Buffers;
@group(0) @binding(1) var<storage, read_write> o_: Buffers;
fn twist(s: Gpu_small) -> Gpu_small {
    return make_Gpu_small(Gpu_small_s16(s) >> 8u, Gpu_small_u8(s), Gpu_small_s8(s) * 100,
                          Gpu_small_u16(s) - 1u, Gpu_small_h(s));
}
fn turn(e: Gpu_extent) -> Gpu_extent { return make_Gpu_extent(e.h, e.depth, e.w + 1u); }
fn swap(v: vec2<u32>) -> vec2<u32> { return vec2<u32>(v.y, v.x); }
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    let h = i_.h[k];
    o_.h[k] = make_Gpu_header(-Gpu_header_kind(h), turn(h.ext), swap(h.handle), ~h.flags,
                              Gpu_header_tiny(h) - 1, h.addr);
    let v = i_.e[k];
    var w = make_Gpu_event_Idle();
    if (v.tag == Gpu_event_Key) { w = make_Gpu_event_Key(Gpu_event_Key_0(v) + 1u, -Gpu_event_Key_1(v)); }
    if (v.tag == Gpu_event_Count) { w = make_Gpu_event_Count(~Gpu_event_Count_v(v)); }
    if (v.tag == Gpu_event_Stamp) { w = make_Gpu_event_Stamp(swap(Gpu_event_Stamp_v(v))); }
    if (v.tag == Gpu_event_Small) { w = make_Gpu_event_Small(twist(Gpu_event_Small_v(v))); }
    if (v.tag == Gpu_event_Sized) { w = make_Gpu_event_Sized(turn(Gpu_event_Sized_0(v)), swap(Gpu_event_Sized_1(v))); }
    if (v.tag == Gpu_event_Signed) { w = make_Gpu_event_Signed(Gpu_event_Signed_2(v) * 200, Gpu_event_Signed_0(v),
                                                               Gpu_event_Signed_1(v) >> 24u); }
    o_.e[k] = w;
}
"""


def _check(out: bytes, schema, headers, events, native64: bool) -> None:
    want_h, want_e = expected(headers, events, native64)
    size = N * schema.dtype("header").itemsize
    assert schema.unpack("header", out[:size]) == want_h
    assert schema.unpack("event", out[size:]) == want_e
    # Every byte, padding included: make_ zeroes it, as the codec does.
    assert out == schema.pack("header", want_h) + schema.pack("event", want_e)


def test_the_inputs_reach_the_ends_of_every_range():
    headers, events = inputs()
    smalls = [args[0] for name, args in events if name == "Small"]
    assert {-128, 127} <= {s["s8"] for s in smalls} | {h["tiny"] for h in headers}
    assert {-32768, 32767} <= {h["kind"] for h in headers}
    assert {0, 2**64 - 1, 2**63} <= {h["handle"] for h in headers}


def test_vulkan_kernel_reads_and_writes_the_extension_scalars():
    require_toolchain("vulkan")
    from sarek_layout.verify.drivers.glsl import compile_glsl
    from sarek_layout.verify.drivers.vulkan import run_spirv

    schema = sl.load(str(SCHEMA))
    headers, events = inputs()
    data = schema.pack("header", headers) + schema.pack("event", events)
    files = generated_headers(schema.schema, ["glsl"])["glsl"]
    spirv = compile_glsl("glslang", GLSL.replace("[N]", f"[{N}]"), files)
    _, out = run_spirv(spirv, [data, len(data)], groups=N)
    _check(out, schema, headers, events, native64=True)


def test_webgpu_kernel_reads_and_writes_the_extension_scalars():
    require_toolchain("webgpu")
    from sarek_layout.verify.drivers.wgsl import run_wgsl

    schema = sl.load(str(SCHEMA))
    headers, events = inputs()
    data = schema.pack("header", headers) + schema.pack("event", events)
    ((_, text),) = generated_headers(schema.schema, ["wgsl"])["wgsl"].files
    _, out = run_wgsl(text + WGSL.replace(", N>", f", {N}>"), [data, len(data)], groups=N)
    _check(out, schema, headers, events, native64=False)


@pytest.mark.parametrize("target", ["glsl", "wgsl"])
def test_a_record_of_one_int16_is_refused_by_the_word_targets_only(target, tmp_path):
    """2 bytes: no struct of GLSL or WGSL has that size (as three uint8)."""
    from sarek_layout.codegen import render_headers
    from sarek_layout.errors import SchemaError
    from sarek_layout.resolve import load_schema

    path = tmp_path / "s.toml"
    path.write_text('module = "S"\n[[types]]\nrecord = "s"\nfields = [["v", "int16"]]\n')
    schema = load_schema([str(path)])
    with pytest.raises(SchemaError, match=r"type 'S\.s' is 2 bytes"):
        render_headers(schema, [target])
    assert render_headers(schema, ["c", "metal"])
