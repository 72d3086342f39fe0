"""Each distinct name is judged once per target however often a schema repeats it, and every
bad one is still reported at each place it is used.

Names repeat across the types of a schema (``x``, ``y``, ``f0``…): a 10,000-type schema once ran
the member-name check 80,000 times on 8 names (docs/benchmarks.md). The per-target decision
(``targets.name_rules.judge``, the one place every check asks) counts its own work: its cache
says how many judgements were asked for and how many were computed, whatever calls it.
"""

from __future__ import annotations

import json

import pytest

from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets.name_rules import judge
from sarek_layout.targets.names import check_names

TARGETS = ["c", "cuda", "opencl"]


def _schema(tmp_path, records: int, names):
    types = [{"record": f"r{i}", "fields": [[n, "float32"] for n in names]} for i in range(records)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps({"module": "M", "types": types}))
    return str(path)


def test_repeated_member_names_are_judged_once_per_target(tmp_path):
    names = [f"f{j}" for j in range(8)]
    records = 2000
    schema = load_schema([_schema(tmp_path, records, names)])
    judge.cache_clear()
    check_names(schema, TARGETS)
    info = judge.cache_info()
    # Per target: each type's C name (M_r0…) once, each of the 8 field names once; not one
    # judgement per field (16,000 fields, 48,000 with the three targets).
    assert info.misses == len(TARGETS) * (records + len(names))
    assert info.hits + info.misses <= len(TARGETS) * (records + len(names))


def test_a_refused_member_name_is_reported_at_every_use(tmp_path):
    schema = load_schema([_schema(tmp_path, 3, ["ok", "int", "__bad"])])  # no target yet
    with pytest.raises(SchemaError) as caught:
        check_names(schema, TARGETS)
    messages = [str(e) for e in caught.value.errors]
    assert sum("'int'" in m for m in messages) == 3
    assert sum("'__bad'" in m for m in messages) == 3
    assert len({m.split(": ")[0] for m in messages}) == 6  # each at its own place
