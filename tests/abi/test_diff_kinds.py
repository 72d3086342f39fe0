"""``sarek-layout diff`` on SPEC §1b's member kinds (issue 32): the report lines, the
renamed-type hint for enums, and the work (linear in members, never in elements). Which
change is breaking is proven by C programs in ``test_diff_c_program_kinds.py``."""

from __future__ import annotations

import json

import pytest

from helpers.bounded import python_calls
from sarek_layout.cli.main import main


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


OLD = """\
module = "M"
rules = "std430"
[[types]]
record = "r"
fields = [["n", "int32"], ["a", "float32[6]"], ["g", "vec3<float32>[2]"], ["c", "color"],
          ["v", "vec3<float32>"]]
[[types]]
enum = "color"
base = "uint8"
values = [["Red", 0], ["Green", 1], ["Blue", 2]]
"""


def test_the_kinds_are_compared_not_refused(tmp_path, capsys):
    """diff used to refuse every schema with an array, a vector, a matrix, an enum or a rule
    set other than c (and, before that refusal, saw a float32[4] as one float32)."""
    path = _write(tmp_path, "m.toml", OLD)
    assert main(["diff", path, path]) == 0
    assert capsys.readouterr().out.strip().endswith(
        "identical: 0 breaking changes, 0 compatible changes (OLD 2 types, NEW 2 types)")


def test_each_change_of_a_kind_is_one_line_with_its_rule(tmp_path, capsys):
    old = _write(tmp_path, "old.toml", OLD)
    new = _write(tmp_path, "new.toml", OLD.replace('"float32[6]"', '"float32[4]"')
                 .replace('["v", "vec3<float32>"]', '["v", "vec4<float32>"]')
                 .replace('["Blue", 2]', '["Blue", 2], ["Cyan", 200]'))
    assert main(["diff", old, new]) == 1
    out = capsys.readouterr().out
    assert "M.r.g" not in out and "M.r.c" not in out  # neither moved
    for line in (
        "breaking: M.r.a: element count changed: float32[6] -> float32[4] [array-count-changed]",
        "compatible: M.r.v: elements added in bytes OLD left unused: vec3<float32> -> "
        "vec4<float32> [elements-added]",
        "compatible: M.color.Cyan: value added with a number OLD did not use (uint8 has room "
        "for it: 0..255): 200 [enum-value-added]",
    ):
        assert line in out, out


def test_a_rule_set_change_says_so_and_what_it_moves(tmp_path, capsys):
    old = _write(tmp_path, "old.json", json.dumps({"module": "M", "types": [
        {"record": "r", "fields": [["a", "float32"], ["g", "vec3<float32>[2]"]]}]}))
    new = _write(tmp_path, "new.json", json.dumps({"module": "M", "rules": "std430", "types": [
        {"record": "r", "fields": [["a", "float32"], ["g", "vec3<float32>[2]"]]}]}))
    assert main(["diff", old, new, "--json"]) == 1
    changes = {(c["rule"], c["where"]): (c["old"], c["new"])
               for c in json.loads(capsys.readouterr().out)["changes"]}
    assert changes[("rules-changed", "")] == ("c", "std430")
    assert changes[("member-moved", "g")] == (4, 16)
    assert changes[("stride-changed", "g")] == (12, 16)


def test_a_renamed_enum_is_suggested(tmp_path, capsys):
    old = _write(tmp_path, "old.toml", OLD)
    new = _write(tmp_path, "new.toml", OLD.replace('"color"', '"colour"')
                 .replace('["c", "color"]', '["c", "colour"]'))
    assert main(["diff", old, new]) == 1
    out = capsys.readouterr().out
    assert "breaking: M.color: removed (renamed to M.colour?) (was enum) [type-removed]" in out
    # The member reads every value alike through the renamed enum.
    assert "compatible: M.r.c: enum type replaced by one that reads every OLD value alike" in out


@pytest.mark.parametrize("json_output", [False, True])
def test_a_huge_array_costs_what_sixteen_elements_cost(tmp_path, capsys, json_output):
    """diff of float32[100000000] members (records, arrays of records, variant arguments):
    the same Python calls as of float32[16] (the same bytes left over modulo every
    alignment)."""
    def work(count):
        def schema(name, element, width):
            return _write(tmp_path, f"{name}{count}.toml", f"""\
module = "M"
rules = "std430"
[[types]]
record = "r"
fields = [["n", "int32"], ["big", "{element}[{count}]"], ["pts", "vec{width}<float32>[{count}]"]]
[[types]]
record = "q"
fields = [["ps", "p[{count}]"]]
[[types]]
record = "p"
fields = [["x", "float64"], ["y", "{element}"]]
[[types]]
variant = "v"
constructors = [["A", ["{element}[{count}]"]], ["B", ["int32", "vec3<float32>[{count}]"]]]
""")
        old, new = schema("old", "float32", 3), schema("new", "int32", 4)
        options = ["--json"] if json_output else []

        def run():
            assert main(["diff", old, new, *options]) == 1
        calls = python_calls(run)
        capsys.readouterr()
        return calls

    work(32)  # the first run fills the caches every run shares
    assert work(100_000_000) == work(16)
