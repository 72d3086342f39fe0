"""SPEC §1b in the JSON/TOML schemas: fixed arrays, vectors, matrices, enums and rule sets, as
written, as refused, as `layout` and `layout --json` print them, and as the fingerprint sees
them. The numbers themselves are judged against the compilers in tests/layout/test_rule_sets.py.
"""

from __future__ import annotations

import json
import sys

import pytest

from helpers.bounded import python_calls, run_cpu_bounded
from sarek_layout.cli.main import main
from sarek_layout.errors import SchemaError
from sarek_layout.layout.fingerprint import canonical_text, layout_id_hex
from sarek_layout.resolve import load_schema
from sarek_layout.schema_writers import to_json, to_ocaml, to_toml


def write(tmp_path, text, name="m.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


PARTICLES = """
module = "Sim"
rules = "std430"

[[types]]
record = "particle"
fields = [["pos", "vec3<float32>"], ["mass", "float32"], ["color", "float32[4]"],
          ["m", "mat4"], ["mat", "material"], ["hist", "int32[2][3]"]]

[[types]]
enum = "material"
base = "uint8"
values = [["Lambert", 0], ["Metal"], ["Glass", 7]]
"""


def test_the_kinds_read_and_lay_out(tmp_path):
    schema = load_schema([write(tmp_path, PARTICLES)])
    particle = schema.by_c_name("Sim_particle")
    assert particle.rules == "std430"
    assert [(m.name, m.offset, m.size) for m in particle.members] == [
        ("pos", 0, 12), ("mass", 12, 4), ("color", 16, 16), ("m", 32, 64), ("mat", 96, 1),
        ("hist", 100, 24)]
    assert (particle.size, particle.align) == (128, 16)
    m = particle.members[3]
    assert [(d.kind, d.count, d.stride) for d in m.dims] == [("matrix", 4, 16), ("vector", 4, 4)]
    material = schema.by_c_name("Sim_material")
    assert material.is_enum and material.elttype.values == (("Lambert", 0), ("Metal", 1),
                                                            ("Glass", 7))
    assert particle.members[4].enum is material and particle.members[4].scalar.name == "uint8"


def test_layout_json_describes_an_array_once_with_count_and_stride(tmp_path, capsys):
    path = write(tmp_path, """
[[types]]
record = "point"
fields = [["x", "float32"], ["y", "float32"], ["z", "float32"]]
[[types]]
record = "cloud"
fields = [["n", "int32"], ["pts", "point[16]"]]
""")
    assert main(["layout", path, "--json", "--type", "cloud"]) == 0
    cloud, = json.loads(capsys.readouterr().out)["types"]
    assert cloud["rules"] == "c"
    assert cloud["fields"][1] == {"name": "pts", "type": "point[16]", "offset": 4}
    assert cloud["leaves"][1] == {"path": "pts[].x", "type": "float32", "offset": 4, "size": 4,
                                  "align": 4, "count": [16], "stride": [12]}
    assert len(cloud["leaves"]) == 4


def test_layout_json_gives_an_enum_its_values(tmp_path, capsys):
    assert main(["layout", write(tmp_path, PARTICLES), "--json", "--type", "material"]) == 0
    material, = json.loads(capsys.readouterr().out)["types"]
    assert material["kind"] == "enum" and material["base"] == "uint8"
    assert material["values"] == [{"name": "Lambert", "value": 0}, {"name": "Metal", "value": 1},
                                  {"name": "Glass", "value": 7}]
    assert (material["size"], material["align"]) == (1, 1)


def test_the_text_report_shows_the_kinds_and_the_enum(tmp_path, capsys):
    assert main(["layout", write(tmp_path, PARTICLES)]) == 0
    out = capsys.readouterr().out
    assert "vec3<float32> pos;" in out and "float32[4]   color;" in out
    assert "enum Sim.material : uint8 {" in out and "Glass = 7," in out
    # std430: mass sits in the vec3's tail (12); the only padding is the record's tail.
    assert "float32      mass;                    /*    12     4 */" in out
    assert "/* size: 128, align: 16" in out


def test_a_bare_vec3_is_the_schemas_own_record_when_it_declares_one(tmp_path):
    path = write(tmp_path, """
[[types]]
record = "vec3"
fields = [["x", "float32"], ["y", "float32"], ["z", "float32"]]
[[types]]
record = "r"
fields = [["own", "vec3"], ["builtin", "vec3<float32>"], ["mat", "mat2"]]
""")
    r = load_schema([path]).by_c_name("M_r")
    own, builtin, mat = r.members
    assert own.record is not None and own.record.c_name == "M_vec3" and not own.dims
    assert builtin.record is None and builtin.dims[0].count == 3
    assert [d.count for d in mat.dims] == [2, 2]


def test_an_ocaml_source_cannot_mean_a_vector(tmp_path):
    path = write(tmp_path, "type p = { v : vec3 } [@@sarek.type]\n", "p.ml")
    with pytest.raises(SchemaError, match="unknown type 'vec3'"):
        load_schema([path])


def test_the_forms_round_trip_and_ocaml_refuses(tmp_path):
    from sarek_layout.frontends.jsontoml.reader import read_toml

    module = read_toml(write(tmp_path, PARTICLES))
    again_toml = write(tmp_path, to_toml(module), "again.toml")
    again_json = write(tmp_path, to_json(module), "again.json")
    texts = [
        [canonical_text(t) for t in load_schema([p]).types]
        for p in (str(tmp_path / "m.toml"), again_toml, again_json)
    ]
    assert texts[0] == texts[1] == texts[2]
    with pytest.raises(ValueError, match="std430 rules.*cannot be written as a Sarek .ml"):
        to_ocaml(module)


@pytest.mark.parametrize("expr, fragment", [
    ("float32[0]", "array dimension 0"),
    ("float32[x]", "bad array dimension 'x'"),
    ("float32[-1]", "bad array dimension '-1'"),
    ("float32[99999999999]", "too large"),
    ("float32" + "[1]" * 9, "more than 8 array dimensions"),
    ("vec5", "unknown type 'vec5'"),
    ("vec5<float32>", "a vector has 2, 3 or 4 components"),
    ("vec3<bool>", "a vector's components are a numeric scalar, not bool"),
    ("vec3<point>", "is not a scalar"),
    ("mat3<int32>", "a matrix's components are float32, float16 or float64"),
    ("mat5", "unknown type 'mat5'"),
    ("int32<3>", "only vectors and matrices take a component type"),
    ("[3]", "the array has no element type"),
    ("float32 array[3]", "write one type name"),
    ("float32 array", "a fixed number of elements is a fixed array, written like `float32[4]`"),
    ("float32[1073741824]", "over the largest type"),
])
def test_bad_type_expressions_are_refused_with_their_place(tmp_path, capsys, expr, fragment):
    path = write(tmp_path, f'[[types]]\nrecord = "r"\nfields = [["a", "{expr}"]]\n')
    assert main(["layout", path]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and fragment in err, err
    assert err.startswith(f"{path}:3:")


@pytest.mark.parametrize("decl, fragment", [
    ('enum = "e"\nbase = "float32"\nvalues = [["A", 0]]', "an enum's base is an integer scalar"),
    ('enum = "e"\nvalues = []', "has no values"),
    ('enum = "e"\nbase = "uint8"\nvalues = [["A", 256]]', "out of the range of its base uint8"),
    ('enum = "e"\nvalues = [["A", 0], ["A", 1]]', "duplicate enum value 'A'"),
    ('enum = "e"\nvalues = [["A", 1.5]]', "must be an integer"),
    ('enum = "e"\nvalues = [["A", 0, 1]]', "[name, integer] or [name]"),
    ('record = "r"\nrules = "std431"\nfields = [["a", "int32"]]', "did you mean 'std430'?"),
    ('record = "r"\nrules = "c"\nfields = [["a", "q"]]\n[[types]]\nrecord = "q"\nrules = "std430"'
     '\nfields = [["v", "vec3"]]', "laid out by the std430 rules, inside a type laid out by the c"),
    ('record = "r"\nfields = [["a", "v[2]"]]\n[[types]]\nvariant = "v"\nconstructors = [["A"]]',
     "variant nested below top level"),
])
def test_bad_declarations_are_refused(tmp_path, capsys, decl, fragment):
    path = write(tmp_path, f"[[types]]\n{decl}\n")
    assert main(["layout", path]) == 2
    err = capsys.readouterr().err
    assert fragment in err and f"{path}:" in err, err


def test_enum_constants_are_c_names_that_must_not_collide(tmp_path, capsys):
    path = write(tmp_path, """
[[types]]
enum = "color"
values = [["Red"], ["Green"]]
[[types]]
variant = "color_Red"
constructors = [["X"]]
""")
    assert main(["layout", path]) == 2
    assert "C name 'M_color_Red' of enum value M.color.Red collides with type 'M.color_Red'" in \
        capsys.readouterr().err


@pytest.mark.parametrize("change", [
    ("float32[4]", "float32[5]"),
    ('"rules" : "c"', '"rules" : "std430"'),
    ('["B", 1]', '["B", 2]'),
    ("vec3<float32>", "float32[3]"),
])
def test_the_fingerprint_sees_counts_rules_strides_and_enum_values(tmp_path, change):
    text = """{"module": "M", "rules" : "c", "types": [
      {"record": "r", "fields": [["a", "float32[4]"], ["e", "e"], ["v", "vec3<float32>"]]},
      {"enum": "e", "values": [["A", 0], ["B", 1]]}]}"""
    ids = []
    for t in (text, text.replace(*change)):
        path = write(tmp_path, t, "m.json")
        ids.append(layout_id_hex(load_schema([path]).by_c_name("M_r")))
    assert ids[0] != ids[1]


def test_a_vector_and_its_array_differ_only_in_their_kind_under_c(tmp_path):
    # Same bytes under c (vec3<float32> is float32[3]), but not the same member kind: the
    # canonical text says which, so a target's native vector is not silently an array.
    path = write(tmp_path, '[[types]]\nrecord = "r"\nfields = [["v", "vec3<float32>"], '
                           '["a", "float32[3]"]]\n')
    text = canonical_text(load_schema([path]).by_c_name("M_r"))
    assert "member v 0 float32 vector 3 4\n" in text and "member a 12 float32 array 3 4\n" in text


def test_a_huge_array_costs_what_one_element_costs(tmp_path):
    """float32[100000000] in layout, layout --json and the fingerprint: linear in members,
    never in elements (the same calls as a float32[2])."""
    from sarek_layout.report import schema_json, text_report

    def work(count):
        path = write(tmp_path, f'[[types]]\nrecord = "r"\nfields = [["big", "float32[{count}]"], '
                               f'["grid", "point[{count}][{count}]"]]\n[[types]]\nrecord = '
                               f'"point"\nfields = [["x", "float32"]]\n', f"m{count}.toml")

        def run():
            types = load_schema([path]).types
            text_report(types)
            schema_json(types)
            [layout_id_hex(t) for t in types]
        return python_calls(run)

    work(3)  # the first run fills the caches every run shares
    assert work(10_000) == work(2)
    path = write(tmp_path, '[[types]]\nrecord = "r"\nfields = [["big", "float32[100000000]"]]\n')
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "layout", "--json", path],
                           cpu_s=5, what="an array's elements are laid out one by one")
    assert proc.returncode == 0, proc.stderr
    leaf, = json.loads(proc.stdout)["types"][0]["leaves"]
    assert (leaf["count"], leaf["stride"]) == ([100_000_000], [4])
