"""``sarek-layout layout``: the human report, the SPEC §5 JSON (checked against the C compiler
for random schemas written as files), ``--type``, and exit statuses."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import c_oracle
from helpers.common import EXAMPLES, require_toolchain
from helpers.shapes import flatten, json_schema_of, nested_descriptions
from sarek_layout.cli.main import main

GEOMETRY = str(EXAMPLES / "geometry.toml")


def test_report_marks_holes_and_totals(capsys):
    assert main(["layout", GEOMETRY]) == 0
    out = capsys.readouterr().out
    particle = out[out.index("record Geometry.particle"):out.index("variant Geometry.shape")]
    lines = [line.strip() for line in particle.splitlines()]
    assert lines[1].startswith("int32") and lines[1].endswith("/*     0     4 */")
    assert lines[2] == "/* XXX 4 byte hole */"
    assert lines[3].startswith("float64") and lines[3].endswith("/*     8     8 */")
    assert lines[4].startswith("point        pos;")
    assert "/* XXX 4 bytes of tail padding */" in lines
    assert "/* size: 32, align: 8, data: 24 bytes, padding: 8 bytes (25.0%) */" in lines
    shape = out[out.index("variant Geometry.shape"):]
    assert "Circle (tag 0): payload 12 bytes" in shape
    assert "Empty (tag 3): no payload, wastes 16 against the largest" in shape
    assert "size: 24, align: 8, payload at 8, largest payload: 16" in shape
    assert "/* data: 20 bytes, padding: 4 bytes (16.7%) */" in shape
    # The compact report keeps a nested record on one line; `explain` opens it.
    assert "float32      x;" not in particle


def test_json_has_exactly_the_spec_shape(capsys):
    assert main(["layout", GEOMETRY, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == ["types"]
    point, particle, shape = doc["types"]
    assert list(point) == ["name", "module", "c_name", "kind", "size", "align", "layout_id",
                           "rules", "fields", "leaves"]
    assert point["rules"] == "c"
    assert point["fields"] == [{"name": "x", "type": "float32", "offset": 0},
                               {"name": "y", "type": "float32", "offset": 4}]
    assert particle["fields"][2] == {"name": "pos", "type": "point", "offset": 16}
    assert particle["leaves"][2] == {"path": "pos.x", "type": "float32", "offset": 16, "size": 4, "align": 4}
    assert list(shape) == ["name", "module", "c_name", "kind", "size", "align", "layout_id",
                           "rules", "tag_offset", "payload_offset", "constructors"]
    assert shape["constructors"][3] == {"name": "Empty", "tag": 3, "payload_size": 0, "leaves": []}
    assert shape["constructors"][0]["leaves"][0]["path"] == "Circle._0.x"


def test_type_option_selects_by_any_name(capsys):
    for name in ("shape", "Geometry.shape", "Geometry_shape"):
        assert main(["layout", GEOMETRY, "--json", "--type", name]) == 0
        assert [t["name"] for t in json.loads(capsys.readouterr().out)["types"]] == ["shape"]


def test_unknown_type_and_bad_usage_exit_2(capsys, tmp_path):
    assert main(["layout", GEOMETRY, "--type", "nope"]) == 2
    assert "no type named 'nope'" in capsys.readouterr().err
    other = tmp_path / "other.toml"
    other.write_text('[[types]]\nrecord = "point"\nfields = [["x", "int32"]]\n')
    assert main(["layout", GEOMETRY, str(other), "--type", "point"]) == 2
    assert "ambiguous" in capsys.readouterr().err
    try:
        main(["layout"])
    except SystemExit as e:
        assert e.code == 2
    else:
        raise AssertionError("argparse should exit 2 without schema files")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(nested_descriptions(), min_size=1, max_size=25), st.randoms())
def test_layout_json_agrees_with_the_c_compiler(tmp_path, capsys, families, rnd: random.Random):
    """Random schemas, definitions in any order, through the file reader and the CLI."""
    require_toolchain("cffi")
    descs = flatten(families)
    rnd.shuffle(descs)
    path = tmp_path / "h.json"
    path.write_text(json.dumps(json_schema_of(descs)))
    capsys.readouterr()
    assert main(["layout", str(path), "--json"]) == 0
    reported = {t["name"]: t for t in json.loads(capsys.readouterr().out)["types"]}
    measured = c_oracle.measure(descs)
    for kind, name, _ in descs:
        t, m = reported[name], measured[name]
        assert (t["size"], t["align"]) == (m.size, m.align), name
        if kind == "record":
            assert {f["name"]: f["offset"] for f in t["fields"]} == m.fields, name
            assert {leaf["path"]: leaf["offset"] for leaf in t["leaves"]} == m.leaves, name
        else:
            leaves = {leaf["path"]: leaf["offset"] for c in t["constructors"] for leaf in c["leaves"]}
            assert leaves == m.leaves, name
            if m.payload_offset >= 0:
                assert t["payload_offset"] == m.payload_offset, name
            sizes = {c["name"]: c["payload_size"] for c in t["constructors"] if c["payload_size"]}
            assert sizes == {c: s for c, s in m.payload_sizes.items() if s}, name
