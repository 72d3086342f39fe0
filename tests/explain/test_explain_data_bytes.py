"""The data bytes of a variant (the union over its constructors) against the core's leaves.

``explain`` and ``layout`` report how many bytes of a variant some scalar occupies in at
least one constructor. The count is taken structurally (a record shared by constructors at
one place counts once), so it is checked here against the plain union of the bytes of every
scalar leaf the layout core flattens, on random variants whose constructors share, shift
and overlap records, and with the structural step's budget exhausted (byte masks decide).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarek_layout.explain import walk as walk_module
from sarek_layout.explain.walk import data_bytes
from sarek_layout.ir.types import SCALARS as SCALAR_TABLE
from sarek_layout.resolve import load_schema

#: Every scalar of the table but unit (which stores nothing a reader reads).
SCALARS = tuple(name for name, s in SCALAR_TABLE.items() if s.kind != "unit")


def _leaf_union(st_type) -> int:
    covered = set(range(4))  # the tag
    for ctor in st_type.layout.ctors:
        for leaf in ctor.leaves:
            covered.update(range(leaf.offset, leaf.offset + leaf.size))
    return len(covered)


@st.composite
def variant_schemas(draw):
    records = []
    for k in range(draw(st.integers(1, 4))):
        choices = list(SCALARS) + [f"r{j}" for j in range(k)]
        fields = draw(st.lists(st.sampled_from(choices), min_size=1, max_size=4))
        records.append({"record": f"r{k}", "fields": [[f"f{i}", t] for i, t in enumerate(fields)]})
    args = list(SCALARS) + [r["record"] for r in records]
    ctors = draw(st.lists(st.lists(st.sampled_from(args), max_size=4), min_size=2, max_size=5))
    variant = {"variant": "v", "constructors": [[f"C{i}", a] for i, a in enumerate(ctors)]}
    return {"module": "M", "types": records + [variant]}


def _variant(tmp_path, schema):
    path = tmp_path / "v.json"
    path.write_text(json.dumps(schema))
    return next(t for t in load_schema([str(path)]).types if t.kind == "variant")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant_schemas(), st.sampled_from([4096, 1, 0]))
def test_variant_data_bytes_are_the_union_of_the_leaves(tmp_path, monkeypatch, schema, budget):
    monkeypatch.setattr(walk_module, "_UNION_BUDGET", budget)
    variant = _variant(tmp_path, schema)
    assert data_bytes(variant) == _leaf_union(variant)


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
