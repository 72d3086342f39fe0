"""Bytes from Zig equal bytes from Python: a Zig program built with the generated ``zig``
module (record literals, ``make_…`` helpers for variants) lays values out at comptime and
exports them; ``zig build-obj`` writes them into the object, where the test reads them and
compares them with the codec's, padding included. Float values reach Zig as the bits of an
f64 and Zig converts them to f32 and to the float16 bits itself.

And the other way, for SPEC §1b's member kinds: std430 particles (a ``vec4``, a ``float[5]``,
an enum, a ``mat4``, padded ``vec3`` elements) that Python wrote at glslang's offsets
(tests/helpers/host_kinds.py) are read by a Zig program at comptime from the file's bytes,
value by value, and exported for the test to compare."""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sarek_layout as sl
from helpers import host_kinds
from helpers.common import EXAMPLES, require_toolchain
from helpers.host import SchemaDocument, element_types, values_of
from helpers.zig import build, exported_bytes, write, zig_env
from sarek_layout.codegen import render_headers
from sarek_layout.codegen.zig_view import zig_name
from sarek_layout.host import codec_of
from sarek_layout.layout.fingerprint import layout_id_hex
from sarek_layout.resolve import load_schema
from sarek_layout.ir.types import (TBool, TFloat16, TFloat32, TFloat64, TInt8, TInt16, TInt32,
                                   TInt64, TRecord, TUint8, TUint16, TUint32, TUint64, TUnit,
                                   TVariant)

_MARKER = bytes(range(0xA0, 0xB0))


def _f64(v: float) -> str:
    return f"@as(f64, @bitCast(@as(u64, 0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016x})))"


def zig_literal(t, v) -> str:
    # The test's own Zig spelling of each integer (an oracle, not the dialect's).
    ints = {TInt32: "i32", TInt64: "i64", TUint8: "u8", TInt8: "i8", TInt16: "i16",
            TUint16: "u16", TUint32: "u32", TUint64: "u64"}
    if t in ints:
        return f"@as({ints[t]}, {v})"
    if t is TFloat64:
        return _f64(v)
    if t is TFloat32:
        return f"@as(f32, @floatCast({_f64(v)}))"
    if t is TFloat16:
        return f"@as(u16, @bitCast(@as(f16, @floatCast({_f64(v)}))))"
    if t is TBool:
        return f"@as(i32, {int(bool(v))})"
    assert t is TUnit
    return "@as(i32, 0)"


def zig_value(t, v, names) -> str:
    if isinstance(t, TRecord):
        inits = ", ".join(f".{zig_name(n)} = {zig_value(ft, v[n], names)}" for n, ft in t.fields)
        return f"@as(m.{zig_name(names[t])}, .{{ {inits} }})"
    if isinstance(t, TVariant):
        ctor, args = v
        exprs = ", ".join(zig_value(a, x, names) for a, x in zip(dict(t.ctors)[ctor], args))
        return f"m.{zig_name('make_' + names[t] + '_' + ctor)}({exprs})"
    return zig_literal(t, v)


def program(module_file: str, cases, names) -> str:
    items = " ++ ".join(f"sarek_test_bytes({zig_value(t, v, names)})" for t, v in cases)
    marker = ", ".join(str(b) for b in _MARKER)
    return (f'const m = @import("{module_file}");\n'
            "fn sarek_test_bytes(v: anytype) [@sizeOf(@TypeOf(v))]u8 {\n"
            "    return @as(*const [@sizeOf(@TypeOf(v))]u8, @ptrCast(&v)).*;\n}\n"
            "export const sarek_test_values = blk: {\n"
            "    @setEvalBranchQuota(10_000_000);\n"
            f"    break :blk [_]u8{{ {marker} }} ++ {items};\n}};\n")


def bytes_from_zig(folder, module_file, module_text, cases, names, env, target="x86_64-linux"):
    write(folder, {module_file: module_text, "values.zig": program(module_file, cases, names)})
    proc = build(folder, "values.zig", target, env, emit=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    total = sum(len(codec_of(t).encode(v)) for t, v in cases)
    data = exported_bytes((folder / f"{target}.o").read_bytes(), _MARKER, total)
    assert data is not None and len(data) == total
    return data


def _compare(got, cases):
    at = 0
    for t, v in cases:
        chunk = codec_of(t).encode(v)
        assert got[at:at + len(chunk)] == chunk, (t, v, got[at:at + len(chunk)].hex(), chunk.hex())
        at += len(chunk)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return zig_env(tmp_path_factory)


def test_geometry_bytes_from_zig_equal_python(env, tmp_path):
    schema = sl.load(str(EXAMPLES / "geometry.toml"))
    types = {s.name: s.elttype for s in schema}
    names = {s.elttype: s.c_name for s in schema}
    values = [
        ("shape", ("Circle", ({"x": 1.5, "y": -2.0}, 3.25))),
        ("shape", ("Rect", ({"x": 1.0, "y": 2.0}, {"x": 3.0, "y": 4.0}))),
        ("shape", ("Weighted", (-2.5e100, -(2**31)))),
        ("shape", ("Empty", ())),
        ("particle", {"id": 2**31 - 1, "mass": 1e-300, "pos": {"x": 0.5, "y": 8.0}, "alive": True}),
        ("particle", {"id": -5, "mass": -0.0, "pos": {"x": -math.inf, "y": 1e30}, "alive": False}),
        ("point", {"x": 6.5, "y": -7.75}),
    ]
    cases = [(types[n], v) for n, v in values]
    (module,) = render_headers(schema.schema, ["zig"])
    for target in ("x86_64-linux", "x86-linux", "x86-windows"):
        _compare(bytes_from_zig(tmp_path / target, module.filename, module.text, cases, names,
                                env, target), cases)


# filter_too_much: the strategies drop drawn names that collide or are reserved, which on some
# draws filters more than hypothesis likes (as in test_host_python_target.py).
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(data=st.data())
def test_random_schemas_bytes_from_zig_equal_python(env, tmp_path_factory, data):
    """A batch of random types (nested records, every scalar) and 3 random values of each,
    all in one Zig program: one zig run per example."""
    ts = data.draw(st.lists(element_types(), min_size=6, max_size=6))
    doc = SchemaDocument("Hz")
    for t in ts:
        doc.add(t)
    cases = [(t, data.draw(values_of(t))) for t in ts for _ in range(3)]
    folder = tmp_path_factory.mktemp("zig-hyp")
    path = doc.write(folder / "hz.json")
    (module,) = render_headers(sl.load(path).schema, ["zig"])
    _compare(bytes_from_zig(folder, module.filename, module.text, cases, doc.c_names, env), cases)


def _reader(module_file: str, count: int) -> str:
    """A Zig program reading ``particles.bin`` (framed) at comptime into f64 values."""
    values = ", ".join(f"@as(f64, @floatFromInt({p}))" if "@intFromEnum" in p else f"@as(f64, {p})"
                       for p in host_kinds.paths("zig"))
    n = host_kinds.counts()["values"]
    marker = ", ".join(str(b) for b in _MARKER)
    return f"""const std = @import("std");
const m = @import("{module_file}");
const data = @embedFile("particles.bin");
fn read() [{count * n}]f64 {{
    @setEvalBranchQuota(1_000_000);
    const id = std.mem.readInt(u64, data[8..16], .little);
    if (!m.Host_particle_LAYOUT_OK(id)) @compileError("layout id");
    if (std.mem.readInt(u64, data[16..24], .little) != {count}) @compileError("count");
    const size = @sizeOf(m.Host_particle);
    var out: [{count * n}]f64 = undefined;
    for (0..{count}) |i| {{
        const p = std.mem.bytesToValue(m.Host_particle, data[24 + i * size ..][0..size]);
        const values = [_]f64{{ {values} }};
        @memcpy(out[i * {n} ..][0..{n}], &values);
    }}
    return out;
}}
export const sarek_test_values = [_]u8{{ {marker} }} ++ @as([{count * n * 8}]u8, @bitCast(read()));
"""


def test_zig_reads_python_framed_member_kinds_value_by_value(env, tmp_path):
    """Each value a Zig program reads from the Python-written particles (on x86-64, i386 and
    Windows x86: little-endian, as the file) is the one written: vector components, array
    elements, the matrix's columns, the padded elements' ``v``, the enum's integer (one of
    them a value the enum does not name: a non-exhaustive enum holds it)."""
    require_toolchain("glslang")
    schema = load_schema([host_kinds.write_schema(tmp_path)])
    (particle,) = schema.find("particle")
    data = host_kinds.framed_bytes(int(layout_id_hex(particle), 16), tmp_path)
    (module,) = render_headers(schema, ["zig"])
    count, n = host_kinds.COUNT, host_kinds.counts()["values"]
    expected = [float(v) for values in host_kinds.particles() for _, _, v in values]
    for target in ("x86_64-linux", "x86-linux", "x86-windows"):
        folder = tmp_path / target
        write(folder, {module.filename: module.text, "values.zig": _reader(module.filename, count)})
        (folder / "particles.bin").write_bytes(data)
        proc = build(folder, "values.zig", target, env, emit=True)
        assert proc.returncode == 0, proc.stderr[-4000:]
        raw = exported_bytes((folder / f"{target}.o").read_bytes(), _MARKER, count * n * 8)
        assert raw is not None
        assert list(struct.unpack(f"<{count * n}d", raw)) == expected, target
