"""The typescript toolchain: tsc type-checks the typescript target's modules, and Node measures
where the encoders put each value (verify/drivers/typescript.py).

* the bundled example, the cross-module golden and the C toolchains' conformance subset (all
  780 records, every 10th variant: 3,859 types, as rustc checks) agree;
* every comparison is live: a module whose encoder writes a member elsewhere, a bool or an
  enum elsewhere, a tag elsewhere, an array with another stride, is caught with both numbers;
  a module that does not type-check under ``--strict`` is FAILED with tsc's message;
* detection: without tsc the toolchain is skipped in one line naming ``npm install
  typescript`` (a failure under ``SAREK_REQUIRE_TOOLCHAINS``).
"""

from __future__ import annotations

import json

import pytest

from helpers.common import require_toolchain
from helpers.shapes import conformance_records, conformance_variants
from helpers.verify import EXAMPLES, every_nth, sampled, schema_of
from sarek_layout.resolve import load_schema
from sarek_layout.verify import AGREES, DISAGREES, FAILED, toolchains
from sarek_layout.verify.drivers import HeaderSet
from sarek_layout.verify.probes import ALIGN, MEMBER_SIZE, probes_for
from sarek_layout.verify.run import generated_headers, measure_with

GOLDEN = EXAMPLES.parent / "tests" / "golden"


def _measure(schema, edit=None):
    tc = require_toolchain("typescript")
    headers = generated_headers(schema, ["typescript"])["typescript"]
    if edit is not None:
        files = tuple((name, edit(text)) for name, text in headers.files)
        assert files != headers.files, "the edit changed nothing"
        headers = HeaderSet(files, headers.includes)
    return measure_with(tc, headers, probes_for(schema.types))


def _agree(schema):
    result = _measure(schema)
    assert result.status == AGREES, result.error or "\n".join(map(str, result.differences[:20]))
    return result


def _schema(tmp_path, text, name="t.json"):
    path = tmp_path / name
    path.write_text(json.dumps(text) if isinstance(text, dict) else text)
    return load_schema([str(path)])


def test_example_schema_agrees():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    result = _agree(schema)
    probes = probes_for(schema.types)
    # Everything is measured but the alignments (TypeScript has none), the sizes of nested
    # records (their padding holds nothing an encoder writes) and the sizes of what takes no
    # marker: a bool (true or false) and the tag (0, 1, 2); and the offsets of the union
    # and of each constructor's struct of arguments (TypeScript has neither).
    unseen = [p for p in probes if p.quantity == ALIGN or (
        p.quantity == MEMBER_SIZE and (not p.scalar or p.scalar == "bool" or p.member == "tag"))
        or p.member in ("data", "data.Circle_v", "data.Rect_v", "data.Weighted_v")]
    assert len(unseen) == 13 and result.values == len(probes) - len(unseen)


def test_cross_module_schemas_agree():
    _agree(load_schema(sorted(str(p) for p in (GOLDEN / "cross_module").glob("*.toml"))))


@pytest.mark.slow
def test_conformance_subset_agrees(tmp_path):
    # The subset the rustc toolchain checks: every record and every 10th variant (make test:
    # every 4th of them, helpers.verify.sampled; CI, SAREK_EXHAUSTIVE=1: all).
    descs = list(conformance_records()) + every_nth(list(conformance_variants()), 10)
    assert len(descs) == 780 + 3079
    descs = sampled(descs, 4)
    result = _agree(schema_of(descs, tmp_path))
    assert result.values > 10 * len(descs)


def test_the_kinds_enumeration_agrees_under_every_rule_set(tmp_path):
    """The kinds' conformance enumeration (tests/helpers/kinds_shapes.py: 28 member kinds
    alone, before followers and as constructor arguments) under every rule set there is,
    one module per rule set, in one tsc and one Node run; every stride measured."""
    from helpers import kinds_shapes
    from sarek_layout.layout.rules import RULE_SETS
    from sarek_layout.verify.probes import STRIDE

    schema = load_schema(kinds_shapes.schema_files(tmp_path, tuple(RULE_SETS)))
    assert {st.rules for st in schema.types} == set(RULE_SETS)
    result = _agree(schema)
    probes = probes_for(schema.types)
    assert result.builds == 1
    assert sum(p.quantity == STRIDE for p in probes) > 800
    assert result.values > len(probes) // 2


def _differences(result):
    assert result.status == DISAGREES, result.error
    return {str(d) for d in result.differences}


GEOMETRY = str(EXAMPLES / "geometry.toml")


@pytest.mark.parametrize("old, new, expected", [
    # A field written at another offset: x and y swapped (and so every member of point type
    # seems to start 4 bytes later: where its first value lands).
    ("_sarek_w_float32(view, at + 0, v.x);\n    f = \".y\";\n    _sarek_w_float32(view, at + 4, v.y);",
     "_sarek_w_float32(view, at + 4, v.x);\n    f = \".y\";\n    _sarek_w_float32(view, at + 0, v.y);",
     {"Geometry_point.x: layout says offset 0, typescript says 4",
      "Geometry_point.y: layout says offset 4, typescript says 0",
      "Geometry_particle.pos: layout says offset 16, typescript says 20"}),
    # A bool (no marker: measured by the byte that changes) in the tail padding.
    ("_sarek_w_bool(view, at + 24, v.alive)", "_sarek_w_bool(view, at + 28, v.alive)",
     {"Geometry_particle.alive: layout says offset 24, typescript says 28"}),
    # A variant's tag in the hole before the payload.
    ("_sarek_w_int32(view, at + 0, 1);", "_sarek_w_int32(view, at + 4, 1);",
     {"Geometry_shape.tag: layout says offset 0, typescript says -1"}),
    # A constructor's argument moved.
    ("_sarek_w_float32(view, at + 16, v._1);", "_sarek_w_float32(view, at + 20, v._1);",
     {"Geometry_shape.data.Circle_v._1: layout says offset 16, typescript says 20"}),
    # Every float32 stored with another value: its marker is nowhere.
    ("view.setFloat32(at, _sarek_float(x, true), true);",
     "view.setFloat32(at, _sarek_float(x, true) + 1, true);", None),
    # The element's size: toBytes makes 12 bytes.
    ('("Geometry.point", 8, 4,', '("Geometry.point", 12, 4,',
     {"Geometry_point: layout says size 8, typescript says 12"}),
])
def test_each_comparison_is_live(old, new, expected):
    result = _measure(load_schema([GEOMETRY]), lambda text: text.replace(old, new))
    found = _differences(result)
    if expected is None:
        assert "Geometry_point.x: layout says offset 0, typescript says -1" in found, found
    else:
        assert expected <= found, found


KINDS = {"module": "K", "rules": "std430", "types": [
    {"enum": "mode", "base": "uint16", "values": [["Off", 0], ["On", 0x101], ["Auto", 2]]},
    {"record": "p", "fields": [["a", "vec3<float32>"], ["b", "float32"], ["m", "mat3"],
                               ["arr", "vec3<float32>[2]"], ["mode", "mode"], ["grid", "int32[2][3]"]]},
    {"variant": "v", "constructors": [["A", ["p", "mode"]], ["B", ["float64[3]"]], ["C", []]]}]}


def test_member_kinds_agree_and_their_comparisons_are_live(tmp_path):
    schema = _schema(tmp_path, KINDS)
    _agree(schema)
    # An array of another stride, an enum moved, a matrix's columns packed, a vector short
    # of its last component's place.
    edits = {
        "[[2, 16], [3, 4]], _sarek_w_float32)": "[[2, 12], [3, 4]], _sarek_w_float32)",
        "_sarek_w_K_mode(view, at + 96, v.mode)": "_sarek_w_K_mode(view, at + 98, v.mode)",
        "_sarek_put_array(view, at + 16, v.m, [[3, 16], [3, 4]]":
            "_sarek_put_array(view, at + 16, v.m, [[3, 12], [3, 4]]",
    }

    def edit(text):
        for old, new in edits.items():
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        return text

    found = _differences(_measure(schema, edit))
    assert found == {"K_p.arr[0]: layout says stride 16, typescript says 12",
                     "K_p.mode: layout says offset 96, typescript says 98",
                     "K_p.m[0]: layout says stride 16, typescript says 12"}


def test_a_module_that_does_not_type_check_fails_with_tscs_message():
    result = _measure(load_schema([GEOMETRY]),
                      lambda text: text.replace("  x: number;", "  x: string;", 1))
    assert result.status == FAILED
    assert "error TS" in result.error and "geometry.ts" in result.error


def test_without_tsc_the_toolchain_is_skipped_in_one_line_naming_npm(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.chdir(tmp_path)
    toolchains.refresh()
    try:
        reason = toolchains.get("typescript").unavailable_reason
    finally:
        monkeypatch.undo()
        toolchains.refresh()
    assert reason is not None and "\n" not in reason
    assert reason.startswith("typescript: node not found") or "npm install typescript" in reason


def test_the_verify_table_keeps_its_columns_for_every_target():
    """The target column holds the longest target name: the typescript row's time and
    result stood four characters right of every other row's."""
    from sarek_layout.verify.compare import ToolchainResult, table_header, table_row

    header = table_header()
    for name in ("gcc", "typescript", "rustc"):
        row = table_row(ToolchainResult(toolchains.get(name), AGREES, values=3, seconds=1.5))
        assert row.index("1.50s") + len("1.50s") == header.index("time") + len("time"), row
        assert row.index("agrees") == header.index("result"), row


def test_an_argument_the_rules_put_past_the_union_s_start_agrees(tmp_path):
    """hlsl-cbuffer: One's vec4 moves to the next register (16) while the payload starts at
    4. The encoder writes nothing at 4, so neither the union nor One's arm (a struct of its
    argument in the C family) is measured, and the argument is measured where it lands
    (before: "data: layout says offset 4, typescript says 16")."""
    schema = _schema(tmp_path, {"module": "H", "rules": "hlsl-cbuffer", "types": [
        {"variant": "v", "constructors": [["One", ["vec4<float32>"]], ["Two"],
                                          ["After", ["uint8", "vec4<float32>"]]]}]})
    result = _agree(schema)
    probes = {p.member: p for p in probes_for(schema.types) if p.quantity == "offset"}
    assert probes["data.One_v._0"].expected == 16 and probes["data"].expected == 4
    wrong = _measure(schema, edit=lambda text: text.replace("at + 16", "at + 12", 1))
    assert _differences(wrong) == {
        "H_v.data.One_v._0: layout says offset 16, typescript says 12"}, wrong
