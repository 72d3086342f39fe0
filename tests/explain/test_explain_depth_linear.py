"""``explain`` of records nested many levels deep counts each record's opened lines once
(issue 24, the nesting-depth rows of section 9).

Each block decides which nested records to open by the lines they would take; that count
was memoised per block, so the block of the record at depth ``i`` recounted the ``i``
records below it: a chain ``N`` deep counted about ``N^2 / 2`` record types. The count is
now shared by every block of a run. The bound is on work (items examined), not time.
"""

from __future__ import annotations

import json

from sarek_layout.explain import text
from sarek_layout.explain.text import render_walk
from sarek_layout.explain.walk import walk_types
from sarek_layout.resolve import load_schema

DEPTH = 100  # SPEC's deepest nesting


class _CountingHole(type):
    """Stands for the schema's hole class in ``explain.text``: every ``isinstance`` check
    against it is one item of a record examined while counting lines."""

    checks = 0

    def __instancecheck__(cls, obj: object) -> bool:
        _CountingHole.checks += 1
        return isinstance(obj, cls.real)


def _chain(tmp_path, depth: int):
    types = [{"record": "d0", "fields": [["x", "float32"], ["y", "int64"]]}]
    types += [{"record": f"d{i}", "fields": [["inner", f"d{i - 1}"], ["tag", "uint8"]]}
              for i in range(1, depth)]
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({"module": "Deep", "types": types}))
    return load_schema([str(path)])


def test_every_block_of_a_deep_chain_counts_each_record_once(tmp_path, monkeypatch):
    schema = _chain(tmp_path, DEPTH)
    walks = walk_types(list(schema.types), schema.types)
    items = sum(len(st.items) for st in schema.types)
    expected = ["\n".join(render_walk(w, expand=True)) for w in walks]
    counting = _CountingHole("ModelHole", (), {"real": text.ModelHole})
    monkeypatch.setattr(text, "ModelHole", counting)
    if hasattr(text, "_LINES"):
        monkeypatch.setattr(text, "_LINES", type(text._LINES)())  # counted afresh
    _CountingHole.checks = 0
    blocks = ["\n".join(render_walk(w, expand=True)) for w in walks]
    assert blocks == expected  # the same report
    # Once per item of each record type is ``items``; per block it was about
    # DEPTH / 2 times that (about 15,000 checks for these 300 items).
    assert _CountingHole.checks <= 2 * items, (
        f"{_CountingHole.checks} items examined to count the lines of {len(walks)} blocks "
        f"({items} items in all): recounted per block")
