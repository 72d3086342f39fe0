"""A module's member names are judged once per distinct name, and every bad one still reported.

Names repeat across the types of a schema (``x``, ``y``, ``f0``…): a 10,000-type schema ran the
member-name check 80,000 times on 8 names (docs/benchmarks.md). A name found fine is fine
again (the check depends on the name alone); a refused one is refused at every place it is
used, each with its own location.
"""

from __future__ import annotations

import json

import pytest

from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema, resolver


def _schema(tmp_path, records: int, names):
    types = [{"record": f"r{i}", "fields": [[n, "float32"] for n in names]} for i in range(records)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps({"module": "M", "types": types}))
    return str(path)


def test_repeated_member_names_are_checked_once(tmp_path, monkeypatch):
    checked = []
    original = resolver._check_name

    def counting(what, name, location, file_scope=False, emitted=False):
        checked.append((what, name))
        return original(what, name, location, file_scope=file_scope, emitted=emitted)

    monkeypatch.setattr(resolver, "_check_name", counting)
    names = [f"f{j}" for j in range(8)]
    load_schema([_schema(tmp_path, 200, names)])
    fields = [n for what, n in checked if what == "field name"]
    assert sorted(fields) == sorted(names)  # 8 checks, not 1,600
    assert sum(what == "type name" for what, _ in checked) == 200


def test_a_refused_member_name_is_reported_at_every_use(tmp_path):
    with pytest.raises(SchemaError) as caught:
        load_schema([_schema(tmp_path, 3, ["ok", "int", "__bad"])])
    messages = [str(e) for e in caught.value.errors]
    assert sum("'int'" in m for m in messages) == 3
    assert sum("'__bad'" in m for m in messages) == 3
    assert len({m.split(": ")[0] for m in messages}) == 6  # each at its own place
