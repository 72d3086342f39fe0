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

from conftest import EXAMPLES, ROOT
from sarek_layout import SchemaError
from sarek_layout.cli.main import main
from sarek_layout.frontends import load_schema
from sarek_layout.frontends.positions import json_positions, toml_positions
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
# (file name, content, expected "LINE:COL" or None for file-level, message fragments)
BAD = [
    ("unknown.toml", 'module = "M"\n[[types]]\nrecord = "p"\nfields = [["x", "float32"], ["y", "pointt"]]\n'
     '[[types]]\nrecord = "point"\nfields = [["x", "float32"]]\n',
     "4:35", ["unknown type 'pointt'", "did you mean 'point'"]),
    ("float.json", '{"types": [\n  {"record": "p", "fields": [["x", "float"]]}\n]}\n',
     "2:36", ["'float' is ambiguous", "float32", "float64"]),
    ("dupfield.json", '{"types": [\n  {"record": "p", "fields": [["x", "int32"], ["x", "int32"]]}\n]}\n',
     "2:47", ["duplicate field 'x'", "first at", "dupfield.json:2:31"]),
    ("duptype.toml", '[[types]]\nrecord = "p"\nfields = [["x", "int32"]]\n\n[[types]]\nvariant = "p"\nconstructors = [["A"]]\n',
     "6:11", ["duplicate type 'p'"]),
    ("dupctor.json", '{"types": [{"variant": "v",\n "constructors": [["A"], ["B"], ["A", ["int32"]]]}]}',
     "2:34", ["duplicate constructor 'A'"]),
    ("empty_record.json", '{"types": [{"record": "p", "fields": []}]}', "1:23", ["no fields"]),
    ("no_ctors.toml", '[[types]]\nvariant = "v"\nconstructors = []\n', "2:11", ["no constructors"]),
    ("recursive.json", '{"types": [\n  {"record": "p", "fields": [["x", "q"]]},\n  {"record": "q", "fields": [["y", "p"]]}\n]}\n',
     "2:14", ["recursive type", "Recursive.p -> Recursive.q -> Recursive.p"]),
    ("self.json", '{"types": [{"variant": "lst", "constructors": [["Nil"], ["Cons", ["int32", "lst"]]]}]}',
     "1:24", ["recursive type 'Self.lst'"]),
    ("identifier.json", '{"types": [{"record": "p", "fields": [["2x", "int32"]]}]}', "1:40",
     ["'2x' is not a valid identifier"]),
    ("keyword.toml", '[[types]]\nrecord = "p"\nfields = [\n  ["x", "int32"],\n  ["class", "float32"],\n]\n',
     "5:4", ["'class' is a keyword"]),
    ("opencl_keyword.json", '{"types": [{"variant": "v", "constructors": [["kernel"]]}]}', "1:47",
     ["'kernel' is a keyword"]),
    ("reserved.json", '{"types": [{"record": "_Point", "fields": [["x", "int32"]]}]}', "1:23",
     ["reserved for the implementation"]),
    ("padding.json", '{"types": [{"record": "p", "fields": [["_sarek_pad0", "int32"]]}]}', "1:40",
     ["'_sarek_'"]),
    ("nonascii.json", '{"types": [{"record": "p", "fields": [["caf\\u00e9", "int32"]]}]}', "1:40",
     ["non-ASCII"]),
    ("scalar_name.json", '{"types": [{"record": "int32", "fields": [["x", "int32"]]}]}', "1:23",
     ["built-in scalar name"]),
    ("param.json", '{"types": [{"record": "p", "fields": [["x", "\'a list"]]}]}', "1:45",
     ["parameterised type"]),
    ("inline.json", '{"types": [{"variant": "v", "constructors": [["A", [{"x": "int32"}]]]}]}', "1:53",
     ["inline record"]),
    ("tuple.json", '{"types": [{"variant": "v", "constructors": [["A", ["int32 * int32"]]]}]}', "1:53",
     ["bad type expression", "use a record type"]),
    ("list.json", '{"types": [{"record": "p", "fields": [["x", "int32 list"]]}]}', "1:45",
     ["unsupported type constructor 'list'"]),
    ("nested_variant.json", '{"types": [\n  {"record": "p", "fields": [["x", "int32"],\n     ["s", "sh"]]},\n'
     '  {"variant": "sh", "constructors": [["A"]]}]}\n', "3:12", ["nested variant at field 's' of type 'p'"]),
    ("nested_variant_arg.toml", '[[types]]\nvariant = "outer"\nconstructors = [["A", ["int32", "inner"]]]\n'
     '[[types]]\nvariant = "inner"\nconstructors = [["B"]]\n', "3:33", ["nested variant at field 'A._1'"]),
    ("array.toml", '[[types]]\nrecord = "p"\nfields = [["xs", "float32 array"]]\n', "3:18",
     ["unsupported field 'xs'", "array has no element layout"]),
    ("vector.json", '{"types": [{"variant": "v", "constructors": [["A", ["int32 vector"]]]}]}', "1:53",
     ["unsupported field 'A._0'", "vector"]),
    ("unknown_module.json", '{"types": [{"record": "p", "fields": [["x", "Geo.point"]]}]}', "1:45",
     ["unknown module 'Geo'", "same command line"]),
    ("syntax.json", '{"types": [\n  {"record": "p", "fields": [["x", "int32"]]}\n', "3:1", ["invalid JSON"]),
    ("syntax.toml", '[[types]]\nrecord = "p"\nfields = [["x" "int32"]]\n', "3:16", ["invalid TOML"]),
    ("top_array.json", '[1, 2]', "1:1", ["the schema must be a table/object, not an array"]),
    ("unknown_key.toml", 'modul = "M"\ntypes = []\n', "1:9", ["unknown key 'modul'"]),
    ("no_types.json", '{"module": "M"}', "1:1", ["no 'types' array"]),
    ("types_not_array.json", '{"types": {"a": 1}}', "1:11", ["'types' must be an array"]),
    ("field_pair.json", '{"types": [{"record": "p", "fields": [["x"]]}]}', "1:39", ["[name, type] pair"]),
    ("field_name_type.json", '{"types": [{"record": "p", "fields": [[7, "int32"]]}]}', "1:40",
     ["a field name must be a string, not a number"]),
    ("type_not_string.json", '{"types": [{"record": "p", "fields": [["x", 4]]}]}', "1:45",
     ["type must be written as a string"]),
    ("both_kinds.json", '{"types": [{"record": "p", "variant": "q", "fields": []}]}', "1:12",
     ["exactly one of 'record' or 'variant'"]),
    ("extra_key.json", '{"types": [{"record": "p", "fields": [["x", "int32"]], "doc": "x"}]}', "1:63",
     ["unknown key 'doc'"]),
    ("bad_module.json", '{"module": "my-mod", "types": []}', "1:12", ["module name 'my-mod'"]),
    ("empty.json", "", None, ["empty file"]),
    ("garbage.json", b"\x89PNG\r\n\x1a\n\x00\xff", None, ["not UTF-8"]),
    ("notes.yaml", "types: []", None, ["unknown schema format '.yaml'"]),
]


@pytest.mark.parametrize("name, content, where, fragments", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_refused_with_its_place(tmp_path, capsys, name, content, where, fragments):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    status = run_cli("layout", str(path))
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    prefix = f"{path}:{where}: error: " if where else f"{path}: error: "
    assert lines[0].startswith(prefix), err
    for fragment in fragments:
        assert fragment in lines[0], err


def test_a_directory_and_a_missing_file_are_refused(tmp_path, capsys):
    assert run_cli("layout", str(tmp_path) + ".json") == 2
    assert "cannot read" in capsys.readouterr().err
    folder = tmp_path / "dir.json"
    folder.mkdir()
    assert run_cli("layout", str(folder)) == 2
    assert "is a directory" in capsys.readouterr().err


def test_mangled_c_names_must_not_collide(tmp_path, capsys):
    a = write(tmp_path, "a.json", json.dumps({"module": "A", "types": [
        {"record": "b_c", "fields": [["x", "int32"]]}]}))
    ab = write(tmp_path, "ab.json", json.dumps({"module": "A_b", "types": [
        {"record": "c", "fields": [["x", "int32"]]}]}))
    assert run_cli("layout", a, ab) == 2
    err = capsys.readouterr().err
    assert f"{ab}:1:40: error: C name 'A_b_c'" in err and "collides" in err


def test_enum_constants_must_not_collide_with_types(tmp_path, capsys):
    path = write(tmp_path, "m.json", json.dumps({"module": "M", "types": [
        {"variant": "v", "constructors": [["A"]]},
        {"record": "v_A", "fields": [["x", "int32"]]}]}))
    assert run_cli("layout", path) == 2
    assert "C name 'M_v_A'" in capsys.readouterr().err


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


def test_the_console_script_reports_errors_without_a_traceback(tmp_path):
    bad = write(tmp_path, "bad.toml", '[[types]]\nrecord = "p"\nfields = [["x", "float"]]\n')
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "layout", bad],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"{bad}:3:17: error: type 'float' is ambiguous")
