"""The emitted shape of SPEC §4 (``targets.shape``): the walk every consumer reads.

Table tests of the walk itself (no compiler: the paths and names are SPEC §4's, the numbers
the member model's, which the layout tests prove against compilers); that every consumer
follows the walk is ``tests/verify/test_verify_shape.py``'s, with gcc as the judge.
"""

from __future__ import annotations

import gc
import weakref

from sarek_layout.codegen.views import type_view
from sarek_layout.resolve import load_schema
from sarek_layout.targets.shape import Slot, Struct, Union, shape_of

from helpers.common import EXAMPLES


def _nodes(st):
    return [(type(n).__name__, n.path, n.name, n.offset, n.size) for n in shape_of(st).nodes()]


def test_a_record_is_its_fields():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    particle = shape_of(schema.by_c_name("Geometry_particle"))
    assert (particle.kind, particle.size, particle.align, particle.tag, particle.data) == \
        ("record", 32, 8, None, None)
    # A record member is one slot: the record's own fields are its own shape.
    assert _nodes(schema.by_c_name("Geometry_particle")) == [
        ("Slot", "id", "id", 0, 4), ("Slot", "mass", "mass", 8, 8),
        ("Slot", "pos", "pos", 16, 8), ("Slot", "alive", "alive", 24, 4)]
    assert particle.members[2].member.record is schema.by_c_name("Geometry_point")


def test_a_variant_is_tag_data_arms_and_arguments():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    st = schema.by_c_name("Geometry_shape")
    assert _nodes(st) == [
        ("Slot", "tag", "tag", 0, 4),
        ("Union", "data", "data", 8, 16),
        ("Struct", "data.Circle_v", "Circle_v", 8, 16),
        ("Slot", "data.Circle_v._0", "_0", 8, 8),
        ("Slot", "data.Circle_v._1", "_1", 16, 4),
        ("Struct", "data.Rect_v", "Rect_v", 8, 16),
        ("Slot", "data.Rect_v._0", "_0", 8, 8),
        ("Slot", "data.Rect_v._1", "_1", 16, 8),
        ("Struct", "data.Weighted_v", "Weighted_v", 8, 16),
        ("Slot", "data.Weighted_v._0", "_0", 8, 8),
        ("Slot", "data.Weighted_v._1", "_1", 16, 4),
    ]
    s = shape_of(st)
    assert s.data is not None and s.data.align == 8
    # Every constructor, with its arm; a constant one has none.
    assert [(c.name, a.name if a is not None else None) for c, a in s.arms()] == [
        ("Circle", "Circle_v"), ("Rect", "Rect_v"), ("Weighted", "Weighted_v"), ("Empty", None)]


def test_one_argument_is_the_arm_itself_and_constant_constructors_have_no_data(tmp_path):
    path = tmp_path / "v.json"
    path.write_text('{"module": "V", "types": [{"record": "pt", "fields": [["x", "float32"]]}, '
                    '{"variant": "v", "constructors": [["A"], ["B", ["float64"]], '
                    '["P", ["pt"]]]}, {"variant": "c", "constructors": [["Red"], ["Green"]]}]}')
    schema = load_schema([str(path)])
    v = schema.by_c_name("V_v")
    assert _nodes(v) == [("Slot", "tag", "tag", 0, 4), ("Union", "data", "data", 8, 8),
                         ("Slot", "data.B_v", "B_v", 8, 8), ("Slot", "data.P_v", "P_v", 8, 4)]
    b, p = shape_of(v).data.arms  # type: ignore[union-attr]
    assert isinstance(b, Slot) and b.ctor is not None and b.ctor.name == "B"
    assert b.member.name == "_0" and p.member.record is schema.by_c_name("V_pt")
    c = shape_of(schema.by_c_name("V_c"))
    assert (c.data, _nodes(schema.by_c_name("V_c"))) == (None, [("Slot", "tag", "tag", 0, 4)])
    assert [a for _, a in c.arms()] == [None, None]


def test_the_header_asserts_every_node_of_the_shape():
    """The views' compile-time checks are the shape's nodes, in its order."""
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    for st in schema.types:
        offsets = [(c.member, c.value) for c in type_view(st).checks if c.kind == "offset"]
        assert offsets == [(n.path, n.offset) for n in shape_of(st).nodes()]
    (arm,) = [c for c in type_view(schema.by_c_name("Geometry_shape")).ctors if c.name == "Rect"]
    assert [a.target for a in arm.assigns] == ["data.Rect_v._0", "data.Rect_v._1"]
    data = shape_of(schema.by_c_name("Geometry_shape")).data
    assert isinstance(data, Union) and all(isinstance(a, Struct) for a in data.arms)


def test_a_shape_is_walked_once_and_goes_with_its_type():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    st = schema.by_c_name("Geometry_shape")
    kept = shape_of(st)
    assert shape_of(st) is kept and shape_of(st, keep=False) is kept
    other = schema.by_c_name("Geometry_point")
    assert shape_of(other, keep=False) is not shape_of(other, keep=False)  # not kept
    # Nothing in a shape refers back to its type: keeping it does not keep the schema.
    gone = weakref.ref(st)
    del kept, st, other, schema
    gc.collect()
    assert gone() is None


# --- SPEC §1b: arrays ------------------------------------------------------------------------

KINDS = """rules = "{rules}"
[[types]]
record = "r"
fields = [["a", "vec3<float32>[4]"], ["m", "mat3"], ["g", "float32[2][3]"], ["p", "pt[2]"],
          ["w", "vec4"], ["e", "int32"]]
[[types]]
record = "pt"
fields = [["x", "float64"], ["y", "float32"]]
"""


def _kinds(tmp_path, rules):
    path = tmp_path / f"k_{rules}.toml"
    path.write_text(KINDS.format(rules=rules))
    from sarek_layout.resolve import load_schema

    return load_schema([str(path)]).by_c_name(f"K_{rules}_r")


def test_arrays_and_matrices_are_array_nodes_with_their_levels(tmp_path):
    from sarek_layout.targets.shape import Array, Slot

    shape = shape_of(_kinds(tmp_path, "std430"))
    a, m, g, p, w, e = shape.members
    assert isinstance(a, Array) and [(lv.count, lv.stride, lv.element_size) for lv in a.levels] \
        == [(4, 16, 12)]
    assert a.levels[0].wrapped and a.designator(0) == "a[0]"
    assert [lv.kind for lv in m.levels] == ["matrix"] and m.levels[0].stride == 16
    assert [(lv.count, lv.stride) for lv in g.levels] == [(2, 12), (3, 4)]
    assert [g.designator(k) for k in (0, 1)] == ["g[0]", "g[0][0]"]
    assert not p.levels[0].wrapped and p.levels[0].stride == 16
    assert isinstance(w, Slot) and w.member.dims[0].count == 4  # a vector is its own element
    assert isinstance(e, Slot)


def test_a_wrapped_level_is_reached_through_the_element_member(tmp_path):
    from sarek_layout.targets.shape import Array, Level

    arr = Array("a", "a", 0, None, (Level("array", 2, 64, 48), Level("array", 3, 16, 12)))
    assert arr.designator(1) == "a[0].v[0]"


def test_a_scalar_rules_array_of_padded_records_ends_before_its_stride(tmp_path):
    shape = shape_of(_kinds(tmp_path, "scalar"))
    p = shape.members[3]
    assert (p.levels[0].stride, p.levels[0].element_size, p.member.size) == (16, 12, 28)
    assert p.tail_unpadded
    assert not shape_of(_kinds(tmp_path, "std430")).members[3].tail_unpadded


def test_probes_measure_each_level_s_stride_at_its_designator(tmp_path):
    from sarek_layout.verify.probes import STRIDE, probes_for_type

    strides = [(p.member, p.expected) for p in probes_for_type(_kinds(tmp_path, "std430"))
               if p.quantity == STRIDE]
    assert strides == [("a[0]", 16), ("m[0]", 16), ("g[0]", 12), ("g[0][0]", 4), ("p[0]", 16)]
