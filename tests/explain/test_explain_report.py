"""``sarek-layout explain``: the expanded pahole-style report — every hole where it belongs,
the totals, variant arms — for Sarek's pinned worked values and the example schema; and the
member walk every view prints (it covers each byte once and agrees with the layout core)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.common import EXAMPLES
from helpers.shapes import flatten, json_schema_of, nested_descriptions
from sarek_layout.cli.main import main
from sarek_layout.explain.walk import Hole, Member, walk_types
from sarek_layout.resolve import load_schema

GEOMETRY = str(EXAMPLES / "geometry.toml")

# SPEC §1's worked values: (declaration, expected hole/padding lines in order, expected footer).
WORKED = [
    ({"record": "r", "fields": [["x", "float32"], ["y", "float32"]]},
     [], ["/* size: 8, align: 4, data: 8 bytes, padding: 0 bytes (0.0%) */"]),
    ({"record": "r", "fields": [["a", "int32"], ["b", "float64"]]},
     ["/* XXX 4 byte hole */"],
     ["/* size: 16, align: 8, data: 12 bytes, padding: 4 bytes (25.0%) */"]),
    ({"record": "r", "fields": [["b", "float64"], ["a", "int32"]]},
     ["/* XXX 4 bytes of tail padding */"],
     ["/* size: 16, align: 8, data: 12 bytes, padding: 4 bytes (25.0%) */"]),
    ({"record": "r", "fields": [["flag", "bool"], ["d", "float64"]]},
     ["/* XXX 4 byte hole */"],
     ["/* size: 16, align: 8, data: 12 bytes, padding: 4 bytes (25.0%) */"]),
    ({"record": "r", "fields": [["a", "float32"], ["inner", "inner"]]},
     [], ["/* size: 12, align: 4, data: 12 bytes, padding: 0 bytes (0.0%) */"]),
    ({"variant": "v", "constructors": [["Red"], ["Value", ["float32"]]]},
     [],  # a constant constructor's summary says what it leaves unused: no XXX line
     ["/* size: 8, align: 4, payload at 4, largest payload: 4 */",
      "/* data: 8 bytes, padding: 0 bytes (0.0%) */"]),
    ({"variant": "v", "constructors": [["None_"], ["Some_", ["float64"]]]},
     ["/* XXX 4 byte hole */"],
     ["/* size: 16, align: 8, payload at 8, largest payload: 8 */",
      "/* data: 12 bytes, padding: 4 bytes (25.0%) */"]),
    ({"variant": "v", "constructors": [["Nil"], ["Pair", ["int32", "float64"]]]},
     ["/* XXX 4 byte hole */", "/* XXX 4 byte hole */"],  # after the tag; inside Pair
     ["/* size: 24, align: 8, payload at 8, largest payload: 16 */",
      "/* data: 16 bytes, padding: 8 bytes (33.3%) */"]),
]

_INNER = {"record": "inner", "fields": [["b", "float32"], ["c", "float32"]]}
_OFFSET = re.compile(r"/\*\s+(\d+)\s+(\d+) \*/$")


def _explain(tmp_path, capsys, decl, *extra) -> list:
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"module": "W", "types": [decl, _INNER]}))
    capsys.readouterr()
    name = decl.get("record") or decl["variant"]
    assert main(["explain", str(path), "--type", name, *extra]) == 0
    return [line.strip() for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("decl, holes, footer", WORKED, ids=[str(i) for i in range(len(WORKED))])
def test_worked_values_holes_and_totals(tmp_path, capsys, decl, holes, footer):
    lines = _explain(tmp_path, capsys, decl)
    assert [line for line in lines if line.startswith("/* XXX")] == holes
    assert [line for line in lines if line.startswith("/* size:") or line.startswith("/* data:")] == footer


def test_worked_values_offsets(tmp_path, capsys):
    """Member lines carry the seed's offsets, nested members at absolute offsets."""
    lines = _explain(tmp_path, capsys, WORKED[4][0])
    placed = [(line.split()[1].rstrip(";"), _OFFSET.search(line).groups())
              for line in lines if _OFFSET.search(line) and not line.startswith("}")]
    assert placed == [("a", ("0", "4")), ("b", ("4", "4")), ("c", ("8", "4"))]
    assert any(line.startswith("} inner;") and line.endswith("/*     4     8 */") for line in lines)
    lines = _explain(tmp_path, capsys, WORKED[7][0])
    assert any(line.startswith("int32        _0;") and line.endswith("/*     8     4 */") for line in lines)
    assert any(line.startswith("float64      _1;") and line.endswith("/*    16     8 */") for line in lines)
    assert "/* Nil (tag 0): no payload, wastes 16 against the largest */" in lines


def test_example_schema_every_hole_and_the_advice(capsys):
    assert main(["explain", GEOMETRY]) == 0
    out = capsys.readouterr().out
    particle = out[out.index("record Geometry.particle"):out.index("variant Geometry.shape")]
    lines = [line.strip() for line in particle.splitlines()]
    assert lines[1:10] == [
        "int32        id;                      /*     0     4 */",
        "/* XXX 4 byte hole */",
        "float64      mass;                    /*     8     8 */",
        "point {",
        "float32      x;                   /*    16     4 */",
        "float32      y;                   /*    20     4 */",
        "} pos;                                /*    16     8 */",
        "bool         alive;                   /*    24     4 */",
        "/* XXX 4 bytes of tail padding */",
    ]
    assert "/* size: 32, align: 8, data: 24 bytes, padding: 8 bytes (25.0%) */" in lines
    # The plain report does not search: it says a smaller order exists, --suggest finds it.
    assert "/* a field order of 24 bytes exists (saves 8): explain --suggest prints it */" in lines
    assert "reordered" not in out and "replaces the declaration" not in out
    point = out[:out.index("record Geometry.particle")]
    assert "/* no field order is smaller */" in point and "[[types]]" not in point
    shape = out[out.index("variant Geometry.shape"):]
    for text in (
        "struct {                          /* Circle (tag 0): payload 12 bytes, wastes 4 against the largest */",
        "/* XXX 4 bytes unused by this arm */",
        "} Circle_v;                       /*     8    12 */",
        "/* Rect (tag 1): payload 16 bytes, the largest */",
        "/* Weighted (tag 2): payload 16 bytes, the largest */",
        "/* XXX 4 bytes of tail padding */",
        "/* Empty (tag 3): no payload, wastes 16 against the largest */",
        "/* size: 24, align: 8, payload at 8, largest payload: 16 */",
        "/* data: 20 bytes, padding: 4 bytes (16.7%) */",
    ):
        assert text in shape, text
    # Variants get no reorder advice: their arguments' order is their meaning.
    assert "reordered" not in shape


def test_plain_report_runs_no_search(capsys, monkeypatch):
    """Without --suggest nothing searches for an order (the search used to run anyway)."""
    import sarek_layout.explain.reorder as reorder

    def refuse(*args, **kwargs):
        raise AssertionError("the plain report must not search for an order")

    monkeypatch.setattr(reorder, "best_order", refuse)
    monkeypatch.setattr(reorder, "_search", refuse)
    assert main(["explain", GEOMETRY]) == 0
    assert "a field order of 24 bytes exists" in capsys.readouterr().out


def test_suggest_prints_only_the_records_that_shrink(capsys, tmp_path):
    assert main(["explain", GEOMETRY, "--suggest"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Geometry.particle in 24 bytes instead of 32 (saves 8)")
    assert "point" not in captured.out.split("\n", 1)[0] and "shape" not in captured.out
    assert captured.err.strip() == "1 of 2 records would shrink (8 bytes in all)"
    tight = tmp_path / "tight.toml"
    tight.write_text('[[types]]\nrecord = "p"\nfields = [["a", "int32"], ["b", "int32"], ["c", "float64"]]\n')
    assert main(["explain", str(tight), "--suggest"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no record would shrink" in captured.err


def test_check_needs_a_picture(capsys):
    assert main(["explain", GEOMETRY, "--check"]) == 2
    assert "--check needs --svg or --html" in capsys.readouterr().err


def _covers(items, start, end):
    """Members and holes tile [start, end) exactly, at every depth."""
    cursor = start
    for item in items:
        assert item.offset == cursor, (item, cursor)
        if isinstance(item, Member) and item.is_record:
            _covers(item.items, item.offset, item.end)
        cursor = item.offset + item.size
    assert cursor == end


def _check_walks(schema):
    for walk in walk_types(schema.types, schema.types):
        layout = walk.type.layout
        if walk.kind == "record":
            _covers(walk.items, 0, walk.size)
            leaves = [(leaf.path, leaf.offset, leaf.size) for leaf in layout.leaves]
        else:
            _covers(walk.items, 0, walk.payload_offset)
            for arm in walk.arms:
                _covers(arm.items, walk.payload_offset, walk.size)
            leaves = [("tag", 0, 4)] + [(leaf.path, leaf.offset, leaf.size)
                                        for c in layout.ctors for leaf in c.leaves]
        assert [(m.path, m.offset, m.size) for m in walk.scalars()] == leaves
        assert walk.padding_bytes + walk.data_bytes == walk.size
        assert all(isinstance(h, Hole) and h.size > 0 for h in walk.holes())


def test_walk_of_the_example_tiles_every_byte():
    _check_walks(load_schema([GEOMETRY]))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(nested_descriptions(), min_size=1, max_size=6))
def test_walk_tiles_every_byte_and_agrees_with_the_layout_core(tmp_path, families):
    """Random nested schemas: members and holes tile each level, scalars are the core's leaves."""
    path = tmp_path / "h.json"
    path.write_text(json.dumps(json_schema_of(flatten(families))))
    _check_walks(load_schema([str(path)]))


def test_docs_excerpt_is_what_explain_prints(capsys, monkeypatch):
    """docs/explain.md quotes a real report: it must match the current output line for line."""
    from helpers.common import ROOT

    doc = (ROOT / "docs" / "explain.md").read_text()
    plain, suggested = [block.split("```")[0] for block in doc.split("```text\n")[1:3]]
    monkeypatch.chdir(ROOT)
    assert main(["explain", "examples/geometry.toml", "--type", "particle"]) == 0
    assert capsys.readouterr().out == plain
    assert main(["explain", "examples/geometry.toml", "--type", "particle", "--suggest"]) == 0
    assert capsys.readouterr().out == suggested
