"""Value encoding without numpy: exact bytes, round trips, arrays, and errors that name the
type and the field. numpy appears only to check that a dtype view reads what was encoded."""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sarek_layout as sl
from helpers.common import EXAMPLES
from sarek_layout.host import DecodeError, EncodeError, codec_of
from sarek_layout.host.schema_api import UnknownType
from sarek_layout.ir.types import (
    TBool,
    TFloat16,
    TFloat32,
    TFloat64,
    TInt32,
    TInt64,
    TRecord,
    TUint8,
    TUnit,
    TVariant,
)
from helpers.host import (
    FORMAT,
    check_numpy_row,
    conformance_records,
    conformance_variants,
    distinct_value,
    element_types,
    layout_of,
    leaf_values,
    same,
    stored,
    values_of,
)

little_endian = pytest.mark.skipif(sys.byteorder != "little", reason="pinned bytes are little-endian")


@pytest.fixture(scope="module")
def geo():
    return sl.load(str(EXAMPLES / "geometry.toml"))


CIRCLE = ("Circle", ({"x": 1.0, "y": 2.0}, 3.0))
PARTICLE = {"id": 7, "mass": 2.5, "pos": {"x": 1.0, "y": 2.0}, "alive": True}


@little_endian
def test_pinned_bytes(geo):
    # shape: P = 8 (Weighted has a float64), Circle._0 @ 8, Circle._1 @ 16, size 24.
    assert geo.encode("shape", CIRCLE) == bytes.fromhex(
        "00000000" "00000000" "0000803f" "00000040" "00004040" "00000000")
    assert geo.encode("shape", ("Weighted", (2.5, -1))) == bytes.fromhex(
        "02000000" "00000000" "0000000000000440" "ffffffff" "00000000")
    assert geo.encode("shape", ("Empty", ())) == bytes.fromhex("03000000") + bytes(20)
    # particle: id @ 0, mass @ 8, pos @ 16, alive @ 24, size 32.
    assert geo.encode("particle", PARTICLE) == bytes.fromhex(
        "07000000" "00000000" "0000000000000440" "0000803f" "00000040" "01000000" "00000000")


def test_round_trip_and_value_forms(geo):
    assert geo.decode("shape", geo.encode("shape", CIRCLE)) == CIRCLE
    assert geo.decode("particle", geo.encode("particle", PARTICLE)) == PARTICLE
    assert geo.decode("Geometry.shape", geo.encode("Geometry_shape", CIRCLE)) == CIRCLE

    @dataclass(frozen=True)
    class Point:
        x: float
        y: float

    @dataclass
    class Particle:
        id: int
        mass: float
        pos: object
        alive: bool

    as_objects = Particle(7, 2.5, Point(1.0, 2.0), True)
    mixed = {"id": 7, "mass": 2.5, "pos": Point(1.0, 2.0), "alive": True}
    expected = geo.encode("particle", PARTICLE)
    assert geo.encode("particle", as_objects) == expected
    assert geo.encode("particle", mixed) == expected
    assert geo.encode("shape", ("Circle", (Point(1.0, 2.0), 3.0))) == geo.encode("shape", CIRCLE)
    # Lists work where tuples are expected; decode always gives tuples.
    assert geo.decode("shape", geo.encode("shape", ["Circle", [{"x": 1, "y": 2}, 3]])) == CIRCLE


def test_scalar_rules():
    t = TRecord("s", [("i", TInt32), ("q", TInt64), ("b", TBool), ("u", TUnit), ("f", TFloat32)])
    c = codec_of(t)
    for i, q in [(-(2**31), -(2**63)), (2**31 - 1, 2**63 - 1), (0, 0)]:
        v = {"i": i, "q": q, "b": False, "u": None, "f": 0.1}
        back = c.decode(c.encode(v))
        assert (back["i"], back["q"], back["b"], back["u"]) == (i, q, False, None)
        assert back["f"] == struct.unpack("=f", struct.pack("=f", 0.1))[0]
    np = pytest.importorskip("numpy")
    v = {"i": np.int32(3), "q": np.int64(4), "b": np.bool_(True), "u": None, "f": np.float32(1.5)}
    assert c.decode(c.encode(v)) == {"i": 3, "q": 4, "b": True, "u": None, "f": 1.5}


OK = {"i": 1, "q": 2, "b": True, "u": None, "f": 1.0}
SCALARS = TRecord("s", [("i", TInt32), ("q", TInt64), ("b", TBool), ("u", TUnit), ("f", TFloat32)])


@pytest.mark.parametrize("field, bad, message", [
    ("i", 2**31, "2147483648 is out of range for int32 [-2147483648, 2147483647]"),
    ("i", -(2**31) - 1, "out of range for int32"),
    ("q", 2**63, "out of range for int64"),
    ("i", 1.5, "expected an integer (int32), got 1.5 (float)"),
    ("i", "3", "expected an integer (int32)"),
    ("b", 1, "expected a bool, got 1 (int)"),
    ("u", 0, "expected None (unit), got 0 (int)"),
    ("f", 1e300, "out of range for float32"),
    ("f", "x", "expected a number (float32)"),
])
def test_bad_scalars_name_type_and_field(field, bad, message):
    c = codec_of(SCALARS, "Mod.s")
    with pytest.raises(EncodeError) as info:
        c.encode({**OK, field: bad})
    text = str(info.value)
    assert f"Mod.s, field {field!r}" in text and message in text, text
    assert info.value.type_name == "Mod.s" and info.value.field == field


# Sarek's newer scalars: a uint8 is 0..255, a float16 whatever IEEE binary16 holds (65504 is
# its largest finite value; what rounds beyond it is refused, not stored as infinity).
SMALL = TRecord("px", [("r", TUint8), ("h", TFloat16), ("b", TUint8), ("d", TFloat64)])
SMALL_OK = {"r": 1, "h": 1.5, "b": 255, "d": -2.0}


@little_endian
def test_new_scalars_bytes_and_values():
    c = codec_of(SMALL, "Mod.px")
    data = c.encode(SMALL_OK)
    # r@0, h@2 (binary16 1.5 = 0x3e00), b@4, three bytes of padding, d@8.
    assert data == bytes([1, 0, 0x00, 0x3E, 255, 0, 0, 0]) + struct.pack("<d", -2.0)
    back = c.decode(data)
    assert back == SMALL_OK and type(back["h"]) is float and type(back["r"]) is int
    for h in (65504.0, -65504.0, 2.0 ** -24, float("inf"), 0.1):
        assert c.decode(c.encode({**SMALL_OK, "h": h}))["h"] == struct.unpack("<e", struct.pack("<e", h))[0]
    np = pytest.importorskip("numpy")
    row = np.frombuffer(data, sl.host.dtype_of(SMALL))[0]
    assert (row["r"], row["h"], row["b"]) == (1, np.float16(1.5), 255)
    assert row.dtype["h"] == np.float16 and row.dtype["r"] == np.uint8


class _Attrs:
    def __init__(self, values):
        self.__dict__.update(values)


@pytest.mark.parametrize("form", ["dict", "mapping", "object", "pack", "variant"])
@pytest.mark.parametrize("field, bad, message", [
    ("h", 1e6, "1000000.0 is out of range for float16"),
    ("h", 65520.0, "65520.0 is out of range for float16"),
    ("h", "x", "expected a number (float16)"),
    ("r", 256, "256 is out of range for uint8 [0, 255]"),
    ("b", -1, "-1 is out of range for uint8 [0, 255]"),
    ("r", 1.0, "expected an integer (uint8), got 1.0 (float)"),
])
def test_new_scalars_out_of_range_name_the_field(form, field, bad, message):
    """Refused the same way whichever path encodes the value: a plain dict (the fast path
    first), a mapping the fast path does not take, an attribute object, many at once, and
    as a constructor argument."""
    import types

    value = {**SMALL_OK, field: bad}
    where = field
    if form == "dict":
        encode = codec_of(SMALL, "Mod.px").encode
    elif form == "mapping":
        encode, value = codec_of(SMALL, "Mod.px").encode, types.MappingProxyType(value)
    elif form == "object":
        encode, value = codec_of(SMALL, "Mod.px").encode, _Attrs(value)
    elif form == "pack":
        encode, value = codec_of(SMALL, "Mod.px").pack, [SMALL_OK, value]
    else:
        variant = TVariant("v", [("A", []), ("P", [TUint8, SMALL])])
        encode, value, where = codec_of(variant, "Mod.v").encode, ("P", (7, value)), f"P._1.{field}"
    with pytest.raises(EncodeError) as info:
        encode(value)
    assert info.value.field == where and message in str(info.value), str(info.value)


@pytest.mark.parametrize("value, message", [
    (("Circl", ()), "unknown constructor 'Circl'; expected one of Circle, Rect, Weighted, Empty"),
    (("Circle", ({"x": 1.0, "y": 2.0},)), "constructor 'Circle' takes 2 arguments, got 1"),
    (("Empty", (1,)), "constructor 'Empty' takes 0 arguments, got 1"),
    (("Circle", ({"x": 1.0}, 3.0)), "field 'Circle._0.y': missing field 'y'"),
    (("Weighted", (1.0, 2**31)), "field 'Weighted._1': 2147483648 is out of range for int32"),
    (("Weighted", ("1", 2)), "field 'Weighted._0': expected a number (float64)"),
    (("Rect", ({"x": 1, "y": 2}, 5)), "field 'Rect._1.x': missing field 'x'"),
    ("Empty", "a variant value is (constructor_name, tuple_of_arguments)"),
    (("Empty", None), "arguments must be a tuple"),
])
def test_bad_variant_values(geo, value, message):
    with pytest.raises(EncodeError) as info:
        geo.encode("shape", value)
    assert "Geometry.shape" in str(info.value) and message in str(info.value), str(info.value)


@pytest.mark.parametrize("value", [("Circle", (1.0,)), ("Weighted", (1.0,)), ("Empty", (1,)), ("Empty", None)])
def test_a_wrong_argument_count_blames_the_constructor_not_a_field(geo, value):
    """A constructor given the wrong arguments is the variant's fault: the message names the
    constructor and no field (once it said "field 'Circle'")."""
    with pytest.raises(EncodeError) as info:
        geo.encode("shape", value)
    assert info.value.field is None and ", field" not in str(info.value), str(info.value)
    assert f"constructor {value[0]!r}" in str(info.value), str(info.value)


def test_bad_record_values(geo):
    with pytest.raises(EncodeError, match=r"Geometry.particle, field 'pos.y': missing field 'y'"):
        geo.encode("particle", {**PARTICLE, "pos": {"x": 1.0}})
    with pytest.raises(EncodeError, match=r"field 'mass': missing field 'mass'"):
        geo.encode("particle", {"id": 1, "pos": {"x": 1, "y": 2}, "alive": True})
    with pytest.raises(EncodeError, match=r"Geometry.point, field 'x': missing field 'x'.*got 3 \(int\)"):
        geo.encode("point", 3)
    with pytest.raises(EncodeError, match=r"Geometry.particle \(element 2\), field 'alive'"):
        geo.pack("particle", [PARTICLE, PARTICLE, {**PARTICLE, "alive": "yes"}])


def test_unknown_type_names(geo):
    with pytest.raises(UnknownType, match=r"no type 'shap'.*did you mean 'shape'"):
        geo.encode("shap", CIRCLE)
    assert isinstance(geo.codec("Geometry.shape").size, int)


def test_arrays(geo):
    shapes = [CIRCLE, ("Weighted", (2.5, 9)), ("Empty", ()),
              ("Rect", ({"x": 1.0, "y": 2.0}, {"x": 3.0, "y": 4.0}))] * 3
    data = geo.pack("shape", shapes)
    assert len(data) == 24 * len(shapes)
    assert data == b"".join(geo.encode("shape", s) for s in shapes)
    assert geo.unpack("shape", data) == shapes
    assert geo.unpack("shape", memoryview(data), count=2, offset=24) == shapes[1:3]
    buf = bytearray(24 * 20)
    assert geo.pack_into("shape", buf, shapes, offset=48) == len(data)
    assert bytes(buf[48:48 + len(data)]) == data and not any(buf[:48])
    with pytest.raises(DecodeError, match="not a whole number of 24-byte elements"):
        geo.unpack("shape", data[:-1])
    with pytest.raises(DecodeError, match="3 elements need 72 bytes, only 48"):
        geo.unpack("shape", data[:48], count=3)
    bad = bytearray(data)
    bad[24:28] = struct.pack("=i", 9)
    with pytest.raises(DecodeError, match="unknown tag 9 at offset 24"):
        geo.unpack("shape", bad)
    with pytest.raises(DecodeError, match="cannot read 32 bytes at offset 0"):
        geo.decode("particle", b"\0" * 31)
    with pytest.raises(ValueError, match="do not fit"):
        geo.pack_into("shape", bytearray(10), shapes)
    with pytest.raises(ValueError, match="writable"):
        geo.pack_into("shape", bytes(1000), shapes)
    particles = [{**PARTICLE, "id": i, "alive": i % 3 == 0} for i in range(20_000)]  # > GC pause
    assert geo.unpack("particle", geo.pack("particle", particles)) == particles
    assert geo.pack("particle", []) == b"" and geo.unpack("particle", b"") == []


def test_numpy_arrays_in_and_out(geo):
    np = pytest.importorskip("numpy")
    shapes = [CIRCLE, ("Weighted", (2.5, 9)), ("Empty", ()),
              ("Rect", ({"x": 1.0, "y": 2.0}, {"x": 3.0, "y": 4.0}))]
    arr = np.zeros(len(shapes), geo.dtype("shape"))
    geo.pack_into("shape", arr, shapes)  # a union dtype has no typed buffer: viewed as bytes
    assert list(arr["tag"]) == [0, 2, 3, 1]
    assert arr["data"]["Weighted_v"]["_1"][1] == 9
    assert arr["data"]["Rect_v"]["_1"]["y"][3] == 4.0
    assert arr["data"]["Circle_v"]["_0"]["x"][0] == 1.0
    assert geo.unpack("shape", arr) == shapes
    assert geo.decode("shape", arr, offset=24) == shapes[1]


# --- every conformance shape: bytes land at the layout's leaf offsets, padding zero ----------


def check_encoding(t, value):
    codec = codec_of(t)
    data = codec.encode(value)
    layout = layout_of(t)
    assert len(data) == layout.size
    if isinstance(t, TVariant):
        ctor = next(c for c in layout.ctors if c.name == value[0])
        leaves = ctor.leaves
        assert struct.unpack_from("=i", data, 0)[0] == ctor.tag
        covered = set(range(4))
    else:
        leaves, covered = layout.leaves, set()
    values = leaf_values(t, value)
    for leaf in leaves:
        got = struct.unpack_from("=" + FORMAT[leaf.type], data, leaf.offset)[0]
        want = stored(leaf.type, values[leaf.path])
        if leaf.type is TUnit:
            want = 0
        assert same(bool(got) if leaf.type is TBool else got, want), (t, leaf)
        covered.update(range(leaf.offset, leaf.offset + leaf.size))
    assert all(data[i] == 0 for i in range(len(data)) if i not in covered), (t, data.hex())
    back = codec.decode(data)
    expect_back = value
    assert back == decoded_form(t, expect_back), (t, back)
    return data


def decoded_form(t, value):
    """``value`` as decode returns it (float32 rounded, tuples)."""
    def conv(tt, v):
        if isinstance(tt, TRecord):
            return {n: conv(ft, v[n]) for n, ft in tt.fields}
        return stored(tt, v)

    if isinstance(t, TVariant):
        name, args = value
        return (name, tuple(conv(a, v) for a, v in zip(dict(t.ctors)[name], args)))
    return conv(t, value)


def test_conformance_records_encode():
    for t in conformance_records():
        check_encoding(t, distinct_value(t))


@pytest.mark.slow
def test_conformance_variants_encode_sample():
    """Every constructor of one variant in 13 (2,368 variants; codecs compile per type)."""
    count = 0
    for k, t in enumerate(conformance_variants()):
        if k % 13:
            continue
        for i in range(len(t.ctors)):
            check_encoding(t, distinct_value(t, i))
        count += 1
    assert count == 2368


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_hypothesis_round_trip(data):
    t = data.draw(element_types(big=True))
    values = data.draw(st.lists(values_of(t), min_size=1, max_size=4))
    for v in values:
        check_encoding(t, v)
    codec = codec_of(t)
    packed = codec.pack(values)
    assert codec.unpack(packed) == [decoded_form(t, v) for v in values]


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_hypothesis_numpy_view_reads_encoded_bytes(data):
    np = pytest.importorskip("numpy")
    from sarek_layout.host.dtype import dtype_of

    t = data.draw(element_types(big=True))
    values = data.draw(st.lists(values_of(t), min_size=1, max_size=3))
    arr = np.frombuffer(codec_of(t).pack(values), dtype_of(t))
    for row, v in zip(arr, values):
        check_numpy_row(np, t, row, v)
