"""The probe model: which numbers verify asks compilers for, and what the layout core expects.

Pure table tests (no compiler): the bundled example's probes, with the SPEC §1 numbers.
"""

from __future__ import annotations

import pytest

from sarek_layout.resolve import load_schema
from sarek_layout.verify.drivers import expression
from sarek_layout.verify.probes import (ALIGN, MEMBER_SIZE, OFFSET, SIZE, Probe, probes_for,
                                        probes_for_type)

from helpers.verify import EXAMPLES


def _table(c_name: str):
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    st = schema.by_c_name(c_name)
    return [(p.member, p.quantity, p.expected) for p in probes_for_type(st)]


def test_record_probes_cover_fields_and_nested_members():
    # A nested record is probed as a whole here, and field by field as its own type.
    assert _table("Geometry_particle") == [
        ("", SIZE, 32), ("", ALIGN, 8),
        ("id", OFFSET, 0), ("id", MEMBER_SIZE, 4),
        ("mass", OFFSET, 8), ("mass", MEMBER_SIZE, 8),
        ("pos", OFFSET, 16), ("pos", MEMBER_SIZE, 8),
        ("alive", OFFSET, 24), ("alive", MEMBER_SIZE, 4),
    ]


def test_probes_of_a_type_include_the_records_it_uses():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    probes = probes_for([schema.by_c_name("Geometry_shape")])
    assert [p.c_type for p in probes if p.quantity == SIZE] == ["Geometry_shape", "Geometry_point"]
    assert ("Geometry_point", "y", OFFSET, 4) in [(p.c_type, p.member, p.quantity, p.expected)
                                                   for p in probes]


def test_probes_stay_linear_in_doubling_nesting(tmp_path):
    # t_k holds two t_(k-1): 2^22 scalar leaves, but only 2 members per record.
    lines = ['{"module": "D", "types": [{"record": "t0", "fields": [["a", "float32"]]}']
    lines += [f', {{"record": "t{k}", "fields": [["a", "t{k-1}"], ["b", "t{k-1}"]]}}'
              for k in range(1, 23)]
    path = tmp_path / "d.json"
    path.write_text("".join(lines) + "]}")
    schema = load_schema([str(path)])
    probes = probes_for([schema.types[-1]])
    assert len(probes) == 4 + 22 * 6  # t0: size, align, a; then size, align, a, b each


def test_variant_probes_cover_tag_union_arms_and_arguments():
    table = _table("Geometry_shape")
    assert table[:5] == [("", SIZE, 24), ("", ALIGN, 8), ("tag", OFFSET, 0),
                         ("tag", MEMBER_SIZE, 4), ("data", OFFSET, 8)]
    offsets = {m: v for m, q, v in table if q == OFFSET}
    assert offsets["data.Circle_v"] == 8
    assert offsets["data.Circle_v._0"] == 8
    assert offsets["data.Circle_v._1"] == 16
    assert offsets["data.Rect_v._1"] == 16
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


def test_a_member_kind_the_probes_were_not_taught_is_refused(monkeypatch):
    """A new node kind in the shape (SPEC §1b's arrays, say) must be taught to the probes:
    until it is, probing a type that has one fails instead of leaving its values unprobed."""
    from typing import NamedTuple

    from sarek_layout.targets import shape

    class Array(NamedTuple):  # stands for a kind to come
        path: str
        name: str
        offset: int

    nodes = shape._nodes
    monkeypatch.setattr(shape, "_nodes", lambda members, prefix="": tuple(
        Array(n.path, n.name, n.offset) if n.name == "mass" else n for n in nodes(members, prefix)))
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    assert len(probes_for_type(schema.by_c_name("Geometry_point"))) == 6
    with pytest.raises(TypeError, match=r"no probes for a Array \(Geometry_particle.mass\)"):
        probes_for_type(schema.by_c_name("Geometry_particle"))
