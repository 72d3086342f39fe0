"""The probe model: which numbers verify asks compilers for, and what the layout core expects.

Pure table tests (no compiler): the bundled example's probes, with the SPEC §1 numbers.
"""

from __future__ import annotations

from sarek_layout.frontends import load_schema
from sarek_layout.verify.drivers import expression
from sarek_layout.verify.probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, Probe, probes_for_type

from verify_helpers import EXAMPLES


def _table(c_name: str):
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    st = schema.by_c_name(c_name)
    return [(p.member, p.quantity, p.expected) for p in probes_for_type(st)]


def test_record_probes_cover_fields_and_nested_members():
    assert _table("Geometry_particle") == [
        ("", SIZE, 32), ("", ALIGN, 8),
        ("id", OFFSET, 0), ("id", MEMBER_SIZE, 4),
        ("mass", OFFSET, 8), ("mass", MEMBER_SIZE, 8),
        ("pos", OFFSET, 16), ("pos", MEMBER_SIZE, 8),
        ("pos.x", OFFSET, 16), ("pos.x", MEMBER_SIZE, 4),
        ("pos.y", OFFSET, 20), ("pos.y", MEMBER_SIZE, 4),
        ("alive", OFFSET, 24), ("alive", MEMBER_SIZE, 4),
    ]


def test_variant_probes_cover_tag_union_arms_and_arguments():
    table = _table("Geometry_shape")
    assert table[:5] == [("", SIZE, 24), ("", ALIGN, 8), ("tag", OFFSET, 0),
                         ("tag", MEMBER_SIZE, 4), ("data", OFFSET, 8)]
    offsets = {m: v for m, q, v in table if q == OFFSET}
    assert offsets["data.Circle_v"] == 8
    assert offsets["data.Circle_v._0"] == 8
    assert offsets["data.Circle_v._0.y"] == 12
    assert offsets["data.Circle_v._1"] == 16
    assert offsets["data.Rect_v._1.x"] == 16
    assert offsets["data.Weighted_v._0"] == 8
    assert offsets["data.Weighted_v._1"] == 16
    # A constant constructor has no arm.
    assert not any(m.startswith("data.Empty_v") for m in offsets)


def test_variant_of_constant_constructors_has_no_data_member(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"module": "C", "types": [{"variant": "color", "constructors": '
                    '[["Red"], ["Green"]]}]}')
    st = load_schema([str(path)]).types[0]
    assert [(p.member, p.quantity, p.expected) for p in probes_for_type(st)] == [
        ("", SIZE, 4), ("", ALIGN, 4), ("tag", OFFSET, 0), ("tag", MEMBER_SIZE, 4)]


def test_each_dialect_spells_offsetof_and_alignment_its_own_way():
    off = Probe("T", "a.b", OFFSET, 8)
    align = Probe("T", "", ALIGN, 8)
    assert expression(off, "c") == "offsetof(T, a.b)"
    assert expression(off, "opencl") == "__builtin_offsetof(T, a.b)"
    assert "__INTADDR__" in expression(off, "nvrtc")
    assert expression(align, "c") == "_Alignof(T)"
    assert expression(align, "c++") == "alignof(T)"
    assert expression(align, "opencl") == "__alignof__(T)"
    assert expression(Probe("T", "a", MEMBER_SIZE, 4), "c") == "sizeof(((T *)0)->a)"
