"""The layout core as table tests: arithmetic, scalars, Sarek's pinned worked values (also
checked against the C compiler), and every error with its type, path and message."""

from __future__ import annotations

import pytest

from helpers import c_oracle
from helpers.shapes import mismatches, to_elttype
from sarek_layout import (
    LayoutError,
    MisalignedField,
    NestedVariant,
    ScalarLayout,
    TArray,
    TBool,
    TFloat32,
    TFloat64,
    TInt32,
    TInt64,
    TRecord,
    TUnit,
    TVariant,
    TVec,
    UnsupportedField,
    elttype_layout,
    layout_error_message,
    record_layout,
    scalar_align,
    scalar_size,
    variant_layout,
)
from sarek_layout.layout.core import Leaf, _check_alignment, align_up, record_layout_of


@pytest.mark.parametrize(
    "offset, align, expected",
    [(0, 4, 0), (1, 4, 4), (4, 4, 4), (17, 4, 20), (17, 8, 24), (24, 8, 24), (3, 1, 3)],
)
def test_align_up(offset, align, expected):
    assert align_up(offset, align) == expected


@pytest.mark.parametrize(
    "t, size",
    [(TInt32, 4), (TFloat32, 4), (TBool, 4), (TUnit, 4), (TInt64, 8), (TFloat64, 8)],
)
def test_scalar_size_and_align(t, size):
    assert scalar_size(t) == size
    assert scalar_align(t) == size
    assert elttype_layout(t) == ScalarLayout(size, size)


@pytest.mark.parametrize(
    "t",
    [TRecord("r", [("a", TInt32)]), TVariant("v", [("A", [])]), TArray(TInt32), TVec(TFloat32)],
)
def test_scalar_functions_refuse_aggregates(t):
    with pytest.raises(ValueError, match="not a scalar"):
        scalar_size(t)
    with pytest.raises(ValueError, match="not a scalar"):
        scalar_align(t)


# Sarek's own pinned values (SPEC §1), as plain descriptions the oracle can compile too.
WORKED = [
    # description, {leaf path: offset}, payload offset (variants), size
    (("record", "xy", [("x", "float32"), ("y", "float32")]), {"x": 0, "y": 4}, None, 8),
    (("record", "ab", [("a", "int32"), ("b", "float64")]), {"a": 0, "b": 8}, None, 16),
    (("record", "ba", [("b", "float64"), ("a", "int32")]), {"b": 0, "a": 8}, None, 16),
    (("record", "fd", [("flag", "bool"), ("d", "float64")]), {"flag": 0, "d": 8}, None, 16),
    (("record", "nest", [("a", "float32"), ("inner", "bc")]),
     {"a": 0, "inner.b": 4, "inner.c": 8}, None, 12),
    (("variant", "color", [("Red", []), ("Value", ["float32"])]), {"Value._0": 4}, 4, 8),
    (("variant", "opt", [("None_", []), ("Some_", ["float64"])]), {"Some_._0": 8}, 8, 16),
    (("variant", "lst", [("Nil", []), ("Pair", ["int32", "float64"])]),
     {"Pair._0": 8, "Pair._1": 16}, 8, 24),
]
INNER_BC = ("record", "bc", [("b", "float32"), ("c", "float32")])


def _all_descs():
    return [INNER_BC] + [w[0] for w in WORKED]


@pytest.mark.parametrize("desc, leaves, payload, size", WORKED, ids=[w[0][1] for w in WORKED])
def test_worked_values(desc, leaves, payload, size):
    by_name = {d[1]: d for d in _all_descs()}
    layout = elttype_layout(to_elttype(desc, by_name))
    assert layout.size == size
    if desc[0] == "record":
        assert {leaf.path: leaf.offset for leaf in layout.leaves} == leaves
    else:
        assert layout.payload_offset == payload
        assert {leaf.path: leaf.offset for c in layout.ctors for leaf in c.leaves} == leaves


def test_worked_values_agree_with_the_c_compiler():
    descs = _all_descs()
    by_name = {d[1]: d for d in descs}
    measured = c_oracle.measure(descs)
    problems = []
    for d in descs:
        problems += mismatches(d[1], elttype_layout(to_elttype(d, by_name)), measured[d[1]])
    assert problems == []


def test_pair_payload_size_and_ctor_tags():
    layout = variant_layout("lst", [("Nil", []), ("Pair", [TInt32, TFloat64])])
    assert [(c.name, c.tag, c.payload_size) for c in layout.ctors] == [("Nil", 0, 0), ("Pair", 1, 16)]
    assert (layout.tag_offset, layout.align) == (0, 8)


def test_record_fields_are_immediate_members_with_nested_records_whole():
    inner = TRecord("bc", [("b", TFloat32), ("c", TFloat64)])
    layout = record_layout("outer", [("a", TInt32), ("inner", inner), ("z", TBool)])
    assert layout.fields == (("a", 0), ("inner", 8), ("z", 24))
    assert layout.leaves[1] == Leaf("inner.b", TFloat32, 8, 4, 4)
    assert (layout.size, layout.align) == (32, 8)


def test_nested_record_is_laid_out_once_per_type():
    from sarek_layout.layout import core

    inner = TRecord("memo_inner", [("b", TFloat32), ("c", TFloat64)])
    core._nested_record_layout.cache_clear()
    layout = record_layout("outer", [(f"f{i}", inner) for i in range(50)])
    info = core._nested_record_layout.cache_info()
    assert (info.misses, info.hits) == (1, 49)
    assert record_layout_of(inner).size == 16 and layout.size == 50 * 16


# --- errors ---------------------------------------------------------------------------------

SHAPE = TVariant("shape", [("Circle", [TFloat32]), ("Empty", [])])
POINT = TRecord("point", [("x", TFloat32), ("y", TFloat32)])

ERRORS = [
    ("variant field", lambda: record_layout("r", [("a", TInt32), ("s", SHAPE)]),
     NestedVariant("r", "s")),
    ("variant two records down",
     lambda: record_layout("outer", [("mid", TRecord("mid", [("inner", TRecord("inner", [("v", SHAPE)]))]))]),
     NestedVariant("outer", "mid.inner.v")),
    ("variant argument", lambda: variant_layout("w", [("A", []), ("B", [TInt32, SHAPE])]),
     NestedVariant("w", "B._1")),
    ("variant inside a record argument",
     lambda: variant_layout("w", [("B", [TRecord("holder", [("s", SHAPE)])])]),
     NestedVariant("w", "B._0.s")),
    ("array field", lambda: record_layout("r", [("xs", TArray(TFloat32))]),
     UnsupportedField("r", "xs", "TArray")),
    ("vector field", lambda: record_layout("r", [("p", POINT), ("xs", TVec(TInt32))]),
     UnsupportedField("r", "xs", "TVec")),
    ("vector argument", lambda: variant_layout("w", [("A", [TVec(TInt64)])]),
     UnsupportedField("w", "A._0", "TVec")),
    ("array element", lambda: elttype_layout(TArray(POINT)), UnsupportedField("<element>", "<self>", "TArray")),
    ("vector element", lambda: elttype_layout(TVec(TInt32)), UnsupportedField("<element>", "<self>", "TVec")),
]


@pytest.mark.parametrize("call, expected", [(e[1], e[2]) for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_layout_errors_are_typed_and_named(call, expected):
    with pytest.raises(LayoutError) as info:
        call()
    assert info.value.error == expected
    message = str(info.value)
    assert message == layout_error_message(expected)
    assert repr(expected.type_name) in message and repr(expected.field) in message


def test_error_messages_say_what_to_do():
    assert "top level" in layout_error_message(NestedVariant("r", "s"))
    assert "separate kernel parameter" in layout_error_message(UnsupportedField("r", "xs", "TArray"))
    message = layout_error_message(MisalignedField("r", "inner.d", 12, 8))
    assert all(s in message for s in ("'r'", "'inner.d'", "12", "8"))


# Upstream's own wording (Sarek_ir_layout.layout_error_message), which the Python API
# promises: "same errors".
UPSTREAM_WORDING = [
    (NestedVariant("outer", "mid.v"),
     "layout of 'outer': field 'mid.v' is a variant nested below top level; variants are only "
     "supported as the element type itself. Hoist the variant to its own vector or flatten its "
     "payload into the enclosing record"),
    (UnsupportedField("r", "xs", "TVec"),
     "layout of 'r': field 'xs' has type TVec, which has no byte layout in a vector element; "
     "pass it as a separate kernel parameter instead"),
]


@pytest.mark.parametrize("error, text", UPSTREAM_WORDING)
def test_error_messages_use_upstream_wording(error, text):
    assert layout_error_message(error) == text


def test_layout_error_message_accepts_the_caught_exception():
    with pytest.raises(LayoutError) as info:
        record_layout("r", [("xs", TVec(TInt32))])
    assert layout_error_message(info.value) == layout_error_message(info.value.error)


def test_misaligned_field_guard_is_live():
    # Well-formed input cannot reach it, so drive the guard directly with a bad leaf.
    with pytest.raises(LayoutError) as info:
        _check_alignment("r", [Leaf("a", TInt32, 0, 4, 4), Leaf("d", TFloat64, 12, 8, 8)])
    assert info.value.error == MisalignedField("r", "d", 12, 8)


def test_elttypes_are_immutable_and_hashable():
    a = TRecord("p", [("x", TFloat32)])
    b = TRecord("p", (("x", TFloat32),))
    assert a == b and hash(a) == hash(b) and len({a, b, POINT}) == 2
    with pytest.raises(AttributeError):
        a.name = "q"  # type: ignore[misc]
