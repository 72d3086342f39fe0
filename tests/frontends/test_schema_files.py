"""JSON and TOML schema files: one meaning in both syntaxes, any order of definition, several
files sharing a namespace, and every refusal of SPEC §3 as ``FILE:LINE:COL: error: …``
with exit status 2 and no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.common import EXAMPLES, ROOT
from sarek_layout import SchemaError
from sarek_layout.cli.main import main
from sarek_layout.resolve import load_schema
from sarek_layout.frontends.jsontoml.positions import json_positions, toml_positions
from sarek_layout.report import schema_json

DATA = ROOT / "tests" / "data" / "schemas"


def run_cli(*argv):
    """Run the command line in-process; returns (status, stdout, stderr) via capsys users."""
    return main(list(argv))


def test_json_and_toml_of_the_same_schema_agree():
    from_toml = schema_json(load_schema([str(EXAMPLES / "geometry.toml")]).types)
    from_json = schema_json(load_schema([str(DATA / "geometry.json")]).types)
    assert from_toml == from_json
    assert [t["c_name"] for t in from_toml["types"]] == [
        "Geometry_point", "Geometry_particle", "Geometry_shape"]


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_types_may_be_used_before_they_are_defined(tmp_path):
    later = write(tmp_path, "later.toml", """
[[types]]
variant = "shape"
constructors = [["Dot", ["point"]], ["Nothing", []]]
[[types]]
record = "point"
fields = [["x", "int"], ["y", "float64"]]
""")
    schema = load_schema([later])
    shape = schema.find("shape")[0]
    assert shape.c_name == "Later_shape"  # default module: the file stem, capitalised
    assert shape.layout.payload_offset == 8 and shape.layout.size == 24
    assert [c.name for c in shape.layout.ctors] == ["Dot", "Nothing"]


def test_qualified_names_across_files_and_the_empty_module(tmp_path):
    base = write(tmp_path, "base.json", json.dumps(
        {"module": "", "types": [{"record": "vec2", "fields": [["x", "float32"], ["y", "float32"]]}]}))
    scene = write(tmp_path, "scene.json", json.dumps(
        {"module": "Scene", "types": [
            {"record": "base_user", "fields": [["p", "Geo.point"], ["n", "int64"]]}]}))
    geo = write(tmp_path, "geo.toml", 'module = "Geo"\n[[types]]\nrecord = "point"\nfields = [["x", "float64"]]\n')
    schema = load_schema([scene, geo, base])
    assert [t.c_name for t in schema.types] == ["Scene_base_user", "Geo_point", "vec2"]
    user = schema.find("Scene.base_user")[0]
    assert user.depends_on == ("Geo_point",)
    assert [t.c_name for t in schema.dependency_order()][:2] == ["Geo_point", "Scene_base_user"]


def test_constant_constructor_spellings(tmp_path):
    path = write(tmp_path, "c.json", json.dumps({"types": [
        {"variant": "v", "constructors": [["A"], ["B", []], ["C", ["int"]]]}]}))
    layout = load_schema([path]).types[0].layout
    assert [(c.name, c.payload_size) for c in layout.ctors] == [("A", 0), ("B", 0), ("C", 4)]


# --- refusals --------------------------------------------------------------------------------
# The table of bad inputs (every form, with exact positions) is tests/hostile/test_bad_inputs.py.


def test_a_directory_and_a_missing_file_are_refused(tmp_path, capsys):
    assert run_cli("layout", str(tmp_path) + ".json") == 2
    assert "cannot read" in capsys.readouterr().err
    folder = tmp_path / "dir.json"
    folder.mkdir()
    assert run_cli("layout", str(folder)) == 2
    assert "is a directory" in capsys.readouterr().err


def test_same_module_twice_is_refused(tmp_path, capsys):
    one = write(tmp_path, "one.toml", 'module = "G"\ntypes = []\n')
    two = write(tmp_path, "two.toml", 'module = "G"\ntypes = []\n')
    assert run_cli("layout", one, two) == 2
    assert "module 'G' is also defined by" in capsys.readouterr().err


def test_deep_nesting_is_a_clear_error_not_a_crash(tmp_path, capsys):
    types = [{"record": "r0", "fields": [["x", "int32"]]}]
    types += [{"record": f"r{i}", "fields": [["inner", f"r{i - 1}"]]} for i in range(1, 3000)]
    path = write(tmp_path, "deep.json", json.dumps({"types": types}))
    assert run_cli("layout", path) == 2
    err = capsys.readouterr().err
    assert "levels deep; the limit is 100" in err and "Traceback" not in err


def test_nesting_up_to_the_limit_is_laid_out(tmp_path):
    types = [{"record": "r0", "fields": [["x", "float64"]]}]
    types += [{"record": f"r{i}", "fields": [["a", "int32"], ["inner", f"r{i - 1}"]]} for i in range(1, 100)]
    schema = load_schema([write(tmp_path, "deep.json", json.dumps({"types": types[::-1]}))])
    deepest = schema.find("r99")[0].layout
    assert deepest.size == 99 * 8 + 8 and len(deepest.leaves) == 100


def test_schema_error_is_also_an_api_exception(tmp_path):
    with pytest.raises(SchemaError) as info:
        load_schema([write(tmp_path, "x.json", '{"types": [{"record": "p", "fields": []}]}')])
    assert info.value.location.line == 1 and "no fields" in info.value.message


# --- positions ---------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


def _paths(value, path=()):
    yield path, value
    if isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))


@settings(max_examples=200, deadline=None)
@given(json_values, st.sampled_from([None, 1, 2]))
def test_json_positions_point_at_each_value(value, indent):
    text = json.dumps(value, indent=indent)
    positions = json_positions(text)
    offsets = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    for path, v in _paths(value):
        line, col = positions(path)
        decoder = json.JSONDecoder()
        found, _ = decoder.raw_decode(text, offsets[line - 1] + col - 1)
        assert found == v, (path, line, col)


def test_toml_positions_point_at_each_value():
    import tomllib

    text = (EXAMPLES / "geometry.toml").read_text()
    value = tomllib.loads(text)
    positions = toml_positions(text)
    lines = text.splitlines()
    checked = 0
    for path, v in _paths(value):
        if isinstance(v, str):
            line, col = positions(path)
            assert lines[line - 1][col - 1:].startswith(f'"{v}"'), (path, line, col)
            checked += 1
    assert checked > 20


toml_values = st.recursive(
    st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=4), inner, min_size=1, max_size=4),
    max_leaves=20,
)


def _toml_str(text: str) -> str:
    # JSON's escapes are TOML's, but TOML wants DEL escaped and no surrogate pairs.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_inline(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_inline(v) for v in value) + "]"
    return "{" + ", ".join(f"{_toml_str(k)} = {_toml_inline(v)}" for k, v in value.items()) + "}"


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=4), toml_values, min_size=1, max_size=4),
       st.sampled_from(["{}", "[[{}]]\n"]))
def test_toml_positions_point_at_each_value_at_any_depth(document, header):
    """Every value of a TOML document, at any depth of arrays and inline tables, under a
    table, an array of tables or none."""
    import tomllib

    body = "".join(f"{_toml_str(k)} = {_toml_inline(v)}\n" for k, v in document.items())
    text = ("" if header == "{}" else "[[t]]\nx = 1\n" + header.format('"t"')) + body
    value = tomllib.loads(text)
    positions = toml_positions(text)
    offsets = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    for path, v in _paths(value):
        if not path or isinstance(v, dict) or path == ("t",):
            continue  # tables and the array of tables are where their headers or keys are
        line, col = positions(path)
        at = text[offsets[line - 1] + col - 1:]
        if isinstance(v, bool):
            assert at.startswith("true" if v else "false"), (path, at[:20])
        elif isinstance(v, (int, str)):
            assert at.startswith(_toml_inline(v)), (path, at[:20])
        else:
            assert at.startswith("["), (path, at[:20])


def test_positions_of_deeply_nested_values():
    deep = "[" * 400 + "1, 2" + "]" * 400
    text = '{"a": ' + deep + "}"
    assert json_positions(text)(("a",) + (0,) * 399 + (1,)) == (1, len('{"a": ') + 400 + 4)
    toml = "a = " + deep + "\n"
    assert toml_positions(toml)(("a",) + (0,) * 399 + (1,)) == (1, len("a = ") + 400 + 4)


def test_the_console_script_reports_errors_without_a_traceback(tmp_path):
    bad = write(tmp_path, "bad.toml", '[[types]]\nrecord = "p"\nfields = [["x", "floot"]]\n')
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "layout", bad],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"{bad}:3:17: error: unknown type 'floot'")
