"""The zig target's member kinds (SPEC §1b: fixed arrays, vectors, matrices, enums) against
``zig build-obj``.

* the kind sample (tests/helpers/kind_samples.py: every kind in records and variants under the
  c, std430, std140 and cuda rules) compiles on every ABI of the ``zig`` toolchain, every
  declaration analysed and every offset, size and stride check live;
* a wrong stride, or a vector without its alignment pin, does not compile, and says where;
* ``make_`` helpers zero the padding of wrapped array elements whatever the argument held;
* an enum is a non-exhaustive ``enum(base)``: a value the schema does not name is a value, and
  a base whose every value is named has no ``_``.
"""

from __future__ import annotations

import json
import struct

import pytest

from helpers.common import TESTS
from helpers.kind_samples import held_sample_file, kind_sample_files
from helpers.zig import assert_builds, build, exported_bytes, reference_all, write, zig_env
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.verify.toolchains import ZIG_TARGETS

KINDS = TESTS / "golden" / "host_kinds"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return zig_env(tmp_path_factory)


def _zig_files(paths):
    return {f.filename: f.text for f in render_headers(load_schema([str(p) for p in paths]),
                                                        ["zig"])}


def test_the_kind_sample_compiles_on_every_abi(env, tmp_path):
    files = _zig_files(kind_sample_files(tmp_path / "schemas"))
    text = "".join(files.values())
    assert text.count("the stride of ") > 400 and text.count("the member size of ") > 400
    write(tmp_path, {**files, "all.zig": reference_all(sorted(files))})
    assert_builds(tmp_path, "all.zig", ZIG_TARGETS, env)


@pytest.mark.parametrize("rules", ["wgsl-uniform", "hlsl-cbuffer"])
def test_what_the_uniform_rules_hold_compiles_on_every_abi(rules, env, tmp_path):
    """The kind sample under WGSL's uniform rules, whole, and what Zig holds of it under
    HLSL's constant buffers (test_rust_kinds.py checks which types are held and refused)."""
    path, total, held = held_sample_file(tmp_path, rules, "zig")
    assert len(held) == total if rules == "wgsl-uniform" else len(held) < total / 2
    files = _zig_files([path])
    write(tmp_path / "out", {**files, "all.zig": reference_all(sorted(files))})
    assert_builds(tmp_path / "out", "all.zig", ZIG_TARGETS, env)


def _module(name: str, edit=None) -> str:
    text = _zig_files([KINDS / name])[name.rsplit(".", 1)[0] + ".zig"]
    if edit is not None:
        changed = edit(text)
        assert changed != text
        text = changed
    return text


def test_a_wrong_stride_fails_to_compile(env, tmp_path):
    """A wrapper 4 bytes too long: ``trail``'s elements are 32 bytes apart, not 16, and the
    comptime check names the level."""
    wrapper = ("pub const Particles_particle_trail_elem = extern struct {\n"
               "    v: [3]f32 align(16),\n    _sarek_pad0: [4]u8 = @splat(0),\n")
    text = _module("particles.toml",
                   lambda t: t.replace(wrapper, wrapper.replace("[4]u8", "[8]u8")))
    write(tmp_path, {"particles.zig": text, "all.zig": reference_all(["particles.zig"])})
    proc = build(tmp_path, "all.zig", "x86_64-linux", env)
    assert proc.returncode != 0
    assert "sarek-layout: the stride of Particles_particle::trail[0] must be 16" in proc.stderr


def test_the_alignment_pin_is_what_keeps_a_float4_16_aligned(env, tmp_path):
    """CUDA aligns a ``float4`` and a ``double2`` to 16; Zig's ``[4]f32`` is 4-aligned and
    ``[2]f64`` 8: without the members' ``align(16)`` the struct's alignment check refuses it."""
    text = _module("cuda_types.json", lambda t: t.replace(" align(16),", ","))
    write(tmp_path, {"cuda_types.zig": text, "all.zig": reference_all(["cuda_types.zig"])})
    proc = build(tmp_path, "all.zig", "x86_64-linux", env)
    assert proc.returncode != 0
    assert "sarek-layout: alignment of Cu_body must be 16" in proc.stderr


_MARKER = bytes(range(0xB0, 0xC0))


def _exported(env, folder, files, expr: str, size: int) -> bytes:
    """The bytes of ``expr`` (a value of the module ``m``), from the object Zig wrote."""
    marker = ", ".join(str(b) for b in _MARKER)
    program = (f'const m = @import("{next(iter(files))}");\n'
               "fn bytes(v: anytype) [@sizeOf(@TypeOf(v))]u8 {\n"
               "    return @as(*const [@sizeOf(@TypeOf(v))]u8, @ptrCast(&v)).*;\n}\n"
               f"export const sarek_test_values = [_]u8{{ {marker} }} ++ bytes({expr});\n")
    write(folder, {**files, "values.zig": program})
    proc = build(folder, "values.zig", "x86_64-linux", env, emit=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    data = exported_bytes((folder / "x86_64-linux.o").read_bytes(), _MARKER, size)
    assert data is not None and len(data) == size
    return data


def test_make_helpers_zero_the_padding_of_wrapped_elements(env, tmp_path):
    """A ``Cone`` built from elements whose padding holds 0xAA: the helper copies each
    element's ``v`` and no padding byte, so every byte outside the values is zero."""
    files = {"particles.zig": _module("particles.toml")}
    elem = ("m.Particles_emitter_Cone_0_elem{ .v = .{ 1.0, 2.0, 3.0 }, "
            "._sarek_pad0 = .{ 0xAA, 0xAA, 0xAA, 0xAA } }")
    cone = f"m.make_Particles_emitter_Cone(.{{ {elem}, {elem} }}, m.Particles_material_Glass)"
    data = _exported(env, tmp_path, files, cone, 64)
    assert b"\xaa" not in data
    one_two_three = bytes.fromhex("0000803f0000004000004040")
    # tag 1, then (16, 32) two vec3 at their stride of 16, the enum value 2 at 48.
    assert data == (bytes.fromhex("01000000") + bytes(12) + one_two_three + bytes(4)
                    + one_two_three + bytes(4) + bytes.fromhex("02000000") + bytes(12))


def test_an_enum_is_non_exhaustive_and_names_every_value(env, tmp_path):
    """Every base value is a value (``_``), a repeated value is one field and two constants,
    and an enum naming every value of its base has no ``_`` (Zig refuses one there)."""
    path = tmp_path / "e.json"
    path.write_text(json.dumps({"module": "E", "types": [
        {"enum": "small", "base": "int8", "values": [["A", -1], ["B", 5], ["Again", 5]]},
        {"enum": "full", "base": "uint8", "values": [[f"V{i}", i] for i in range(256)]},
        {"record": "r", "fields": [["s", "small"], ["f", "full"], ["ss", "small[3]"]]}]}))
    files = _zig_files([path])
    text = files["e.zig"]
    assert "pub const E_small = enum(i8) {\n    A = -1,\n    B = 5,\n    _,\n};" in text
    assert "pub const E_small_Again: E_small = @enumFromInt(5);" in text
    assert "    V255 = 255,\n};" in text  # no `_`
    data = _exported(env, tmp_path / "out", files,
                     "m.E_r{ .s = @enumFromInt(42), .f = m.E_full_V200, "
                     ".ss = .{ m.E_small_Again, m.E_small_A, @enumFromInt(-7) } }", 5)
    assert data == bytes([42, 200, 5, 0xFF, 0xF9])


def test_record_copies_zero_the_padding_inside_their_arrays(env, tmp_path):
    """A record argument holding padded elements (std140: ``float32[2]`` 16 bytes apart, a
    ``vec3`` array) and records: the helper's copy goes element by element, so the 0xAA in
    every padding byte of the argument reaches no byte of the value."""
    (path,) = kind_sample_files(tmp_path / "schemas", ("std140",))
    files = _zig_files([path])
    pad = lambda n: "@as([" + str(n) + "]u8, @splat(0xAA))"  # noqa: E731
    holder = ("m.Kstd140_holder{ "
              f".vs = .{{ .{{ .v = .{{ 1, 2, 3 }}, ._sarek_pad0 = {pad(4)} }}, "
              f".{{ .v = .{{ 4, 5, 6 }}, ._sarek_pad0 = {pad(4)} }} }}, "
              f".rs = .{{ .{{ .a = 7, .b = .{{ 8, 9 }}, ._sarek_pad0 = {pad(4)} }}, "
              f".{{ .a = 10, .b = .{{ 11, 12 }}, ._sarek_pad0 = {pad(4)} }} }}, "
              f".fs = .{{ .{{ .v = 13, ._sarek_pad0 = {pad(12)} }}, "
              f".{{ .v = 14, ._sarek_pad0 = {pad(12)} }} }} }}")
    size = load_schema([path]).find("held")[0].size
    data = _exported(env, tmp_path / "out", {"kstd140.zig": files["kstd140.zig"]},
                     f"m.make_Kstd140_held_H({holder}, 99)", size)
    assert b"\xaa" not in data
    floats = [x for x in range(1, 15)]
    found = [v for v in struct.unpack(f"<{size // 4}f", data) if v]
    assert found[:len(floats)] == floats
