"""The data bytes of a variant (the union over its constructors) against the core's leaves.

``explain`` and ``layout`` report how many bytes of a variant some scalar occupies in at
least one constructor. The count is taken structurally (a record shared by constructors at
one place counts once), so it is checked here against the plain union of the bytes of every
scalar leaf the layout core flattens (each copy of a leaf of a fixed array, vector or
matrix, from its count and stride), on random variants whose constructors share, shift
and overlap records and arrays, under every rule set, with the structural step's budget
exhausted (data patterns decide) and with their common period cut short (masks decide).
"""

from __future__ import annotations

import itertools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarek_layout.explain import databytes
from sarek_layout.explain.walk import data_bytes, walk_types
from sarek_layout.ir.types import RULE_SET_NAMES
from sarek_layout.ir.types import SCALARS as SCALAR_TABLE
from sarek_layout.resolve import load_schema

#: Every scalar of the table but unit (which stores nothing a reader reads).
SCALARS = tuple(name for name, s in SCALAR_TABLE.items() if s.kind != "unit")
NUMERIC = tuple(name for name in SCALARS if SCALAR_TABLE[name].kind != "bool")


def _leaf_bytes(leaf):
    """Every byte of every copy of one leaf (the test's own expansion of count and stride)."""
    for index in itertools.product(*(range(c) for c in leaf.count)):
        at = leaf.offset + sum(i * s for i, s in zip(index, leaf.stride))
        yield from range(at, at + leaf.size)


def _leaf_union(st_type) -> int:
    covered = set(range(4))  # the tag
    for ctor in st_type.layout.ctors:
        for leaf in ctor.leaves:
            covered.update(_leaf_bytes(leaf))
    return len(covered)


def _record_leaf_bytes(st_type) -> int:
    covered = set()
    for leaf in st_type.layout.leaves:
        covered.update(_leaf_bytes(leaf))
    return len(covered)


@st.composite
def member_types(draw, records):
    """A type expression: a scalar, a vector, a matrix or an earlier record, maybe an array
    of it (of arrays)."""
    roll = draw(st.integers(0, 9))
    if roll < 4 or (roll >= 8 and not records):
        t = draw(st.sampled_from(SCALARS))
    elif roll < 6:
        t = f"vec{draw(st.integers(2, 4))}<{draw(st.sampled_from(NUMERIC))}>"
    elif roll < 8:
        t = f"mat{draw(st.integers(2, 4))}x{draw(st.integers(2, 4))}<float32>"
    else:
        t = draw(st.sampled_from(records))
    for _ in range(draw(st.integers(0, 2))):
        t += f"[{draw(st.integers(1, 3))}]"
    return t


@st.composite
def variant_schemas(draw, kinds: bool = False):
    records = []
    for k in range(draw(st.integers(1, 4))):
        names = [r["record"] for r in records]
        fields = draw(st.lists(member_types(names) if kinds else st.sampled_from(list(SCALARS) + names),
                               min_size=1, max_size=4))
        records.append({"record": f"r{k}", "fields": [[f"f{i}", t] for i, t in enumerate(fields)]})
    names = [r["record"] for r in records]
    args = member_types(names) if kinds else st.sampled_from(list(SCALARS) + names)
    ctors = draw(st.lists(st.lists(args, max_size=4), min_size=2, max_size=5))
    variant = {"variant": "v", "constructors": [[f"C{i}", a] for i, a in enumerate(ctors)]}
    rules = draw(st.sampled_from(RULE_SET_NAMES)) if kinds else "c"
    return {"module": "M", "rules": rules, "types": records + [variant]}


def _schema(tmp_path, schema):
    path = tmp_path / "v.json"
    path.write_text(json.dumps(schema))
    return load_schema([str(path)])


def _variant(tmp_path, schema):
    return next(t for t in _schema(tmp_path, schema).types if t.kind == "variant")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant_schemas(), st.sampled_from([4096, 1, 0]))
def test_variant_data_bytes_are_the_union_of_the_leaves(tmp_path, monkeypatch, schema, budget):
    monkeypatch.setattr(databytes, "UNION_BUDGET", budget)
    variant = _variant(tmp_path, schema)
    assert data_bytes(variant) == _leaf_union(variant)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant_schemas(kinds=True), st.sampled_from([4096, 1, 0]), st.sampled_from([1 << 16, 1]))
def test_arrays_vectors_and_matrices_count_their_elements_never_their_strides(
        tmp_path, monkeypatch, schema, budget, period_limit):
    """Arrays, vectors and matrices of scalars and records, under every rule set, in
    constructors that overlap: an array's stride padding is never counted as data (the
    byte masks painted an array's whole extent), whichever path counts it."""
    monkeypatch.setattr(databytes, "UNION_BUDGET", budget)
    monkeypatch.setattr(databytes, "PERIOD_LIMIT", period_limit)
    schema = _schema(tmp_path, schema)
    for walk in walk_types(schema.types):
        if walk.kind == "variant":
            assert walk.data_bytes == _leaf_union(walk.type), walk.type
        else:
            assert walk.data_bytes == _record_leaf_bytes(walk.type), walk.type


def test_shared_and_shifted_records(tmp_path):
    """Constructors sharing a record at one place, and the same record shifted by a scalar."""
    schema = {"module": "M", "types": [
        {"record": "p", "fields": [["a", "int32"], ["b", "float64"]]},
        {"record": "q", "fields": [["x", "p"], ["y", "int32"], ["z", "p"]]},
        {"variant": "v", "constructors": [["A", ["q"]], ["B", ["q", "int32"]],
                                          ["C", ["int32", "q"]], ["D", ["float32", "p", "p"]],
                                          ["E"]]},
    ]}
    variant = _variant(tmp_path, schema)
    assert data_bytes(variant) == _leaf_union(variant)


def test_overlapping_strided_arrays(tmp_path):
    """std430: a vec3<float32>[2] (16-byte stride, 4 bytes of padding after each vec3) under
    a float32[8] and under an int32 shifting another: the vec3s' gaps are data only where the
    other constructor's floats are. Found by painting: an array's strides were all data."""
    schema = {"module": "M", "rules": "std430", "types": [
        {"variant": "v", "constructors": [["A", ["vec3<float32>[2]"]],
                                          ["B", ["int32", "vec3<float32>[2]"]],
                                          ["C", ["float32[3]", "float64"]]]},
    ]}
    variant = _variant(tmp_path, schema)
    assert data_bytes(variant) == _leaf_union(variant)
