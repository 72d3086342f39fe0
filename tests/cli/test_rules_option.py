"""``layout --rules`` and ``explain --rules`` (issue 33 item 5): one schema seen under another
buffer's rules without editing it.

The override must give exactly what the schema would give had it named those rules itself
(that schema's layouts are judged against glslang, naga and Slang in tests/layout), for every
type of every input form, and it must not leak into a type's own rules where none is asked.
"""

from __future__ import annotations

import json

import pytest

from helpers.common import TESTS
from sarek_layout.cli.main import main
from sarek_layout.ir.types import RULE_SET_NAMES

LIGHTS = """\
module = "L"
[[types]]
record = "light"
fields = [["dir", "vec3<float32>"], ["power", "float32"], ["weights", "float32[3]"]]
[[types]]
record = "scene"
rules = "std430"
fields = [["weights", "float32[2]"], ["count", "uint32"]]
[[types]]
variant = "shape"
constructors = [["Dot"], ["Ball", ["light", "float32"]]]
"""


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("rules", RULE_SET_NAMES)
def test_an_override_gives_what_the_schema_naming_those_rules_gives(tmp_path, capsys, rules):
    given = tmp_path / "lights.toml"
    given.write_text(LIGHTS)
    # The same schema, edited as a user would: the module names the rules, no type its own.
    edited = tmp_path / "edited" / "lights.toml"
    edited.parent.mkdir()
    edited.write_text(f'rules = "{rules}"\n' + LIGHTS.replace('rules = "std430"\n', ""))
    overridden = _json(capsys, ["layout", "--json", "--rules", rules, str(given)])
    expected = _json(capsys, ["layout", "--json", str(edited)])
    for doc in (overridden, expected):
        for t in doc["types"]:
            t.pop("source", None)
            t.pop("location", None)
    assert overridden["types"] == expected["types"]
    assert {t.get("rules", "c") for t in overridden["types"] if "values" not in t} == {rules}


def test_without_the_option_each_type_keeps_its_own_rules(tmp_path, capsys):
    given = tmp_path / "lights.toml"
    given.write_text(LIGHTS)
    doc = _json(capsys, ["layout", "--json", str(given)])
    rules = {t["name"]: t.get("rules", "c") for t in doc["types"]}
    assert rules["scene"] == "std430" and rules["light"] == "c"


def test_the_uniform_rules_show_why_a_storage_struct_does_not_fit(tmp_path, capsys):
    """The user's question from the issue: the std430 record grows under std140 (its float
    array's stride becomes 16), and explain says where."""
    given = tmp_path / "lights.toml"
    given.write_text(LIGHTS)
    assert main(["explain", "--type", "light", "--rules", "std140", str(given)]) == 0
    std140 = capsys.readouterr().out
    assert main(["explain", "--type", "light", "--rules", "std430", str(given)]) == 0
    std430 = capsys.readouterr().out
    assert "std140 rules" in std140 and "stride padding" in std140
    assert "std430 rules" in std430 and "stride padding" not in std430


def test_a_sarek_source_and_a_c_header_take_the_override(capsys):
    for path in (TESTS / "data" / "ocaml" / "particles.ml", TESTS / "data" / "c" / "sensors.h"):
        doc = _json(capsys, ["layout", "--json", "--rules", "std140", str(path)])
        assert doc["types"] and all(t.get("rules") == "std140" for t in doc["types"]
                                    if "values" not in t), path


def test_an_unknown_rule_set_is_one_line_naming_the_known_ones(tmp_path, capsys):
    given = tmp_path / "lights.toml"
    given.write_text(LIGHTS)
    for command in ("layout", "explain"):
        assert main([command, "--rules", "std431", str(given)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "no such rule set" in err and "std430" in err
