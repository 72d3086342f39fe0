"""The OCaml front end: ``[@@sarek.type]`` declarations found in realistic Sarek sources (and
nothing else), the lexical traps of OCaml, cross-file references, and every refusal with its
exact ``FILE:LINE:COL``.

Goldens: ``tests/data/ocaml/<case>.ml`` → ``<case>.layout.json`` (the ``layout --json``
document). Refresh deliberately with
``SAREK_UPDATE_GOLDENS=1 python -m pytest tests/test_ocaml_frontend.py``.
"""

from __future__ import annotations

import difflib
import json
import os

import pytest

from conftest import ROOT
from sarek_layout import SchemaError
from sarek_layout.cli.main import main
from sarek_layout.frontends import load_schema
from sarek_layout.frontends.ocaml import read_ocaml
from sarek_layout.frontends.ocaml_lexer import LineMap, tokenize
from sarek_layout.report import schema_json

DATA = ROOT / "tests" / "data" / "ocaml"
REFRESH = "SAREK_UPDATE_GOLDENS=1 python -m pytest tests/test_ocaml_frontend.py"


def layout_json(*paths) -> dict:
    return schema_json(load_schema([str(p) for p in paths]).types)


# --- the corpus: every [@@sarek.type] found, with the right layout, and nothing else ----------

#: Corpus files that must be refused (tested below); every other ``*.ml`` has a golden layout.
REFUSED = {"enum_field.ml"}
CORPUS = sorted(p for p in DATA.glob("*.ml") if p.name not in REFUSED)


def test_the_corpus_is_there():
    assert {p.stem for p in CORPUS} >= {"particles", "kernels"}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_layouts_match_their_goldens(path):
    got = json.dumps(layout_json(path), indent=2) + "\n"
    golden = path.with_suffix(".layout.json")
    if os.environ.get("SAREK_UPDATE_GOLDENS"):
        golden.write_text(got)
    if not golden.exists():
        pytest.fail(f"{path.name} has no golden {golden.name}; create it with: {REFRESH}",
                    pytrace=False)
    want = golden.read_text()
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            str(golden), "computed"))
        pytest.fail(f"layout of {path.name} differs from its golden:\n{diff}\n"
                    f"If the change is intended, refresh with: {REFRESH}", pytrace=False)


@pytest.mark.parametrize("path, names", [
    ("particles.ml", ["point", "particle", "shape", "stats", "bounds"]),
    ("kernels.ml", ["bin", "ray", "vec3", "hit", "counter"]),
])
def test_exactly_the_attributed_declarations_are_found(path, names):
    module = read_ocaml(str(DATA / path))
    assert [d.name for d in module.decls] == names
    assert module.format == "ocaml"


def test_particles_layout_values():
    doc = {t["name"]: t for t in layout_json(DATA / "particles.ml")["types"]}
    assert doc["point"]["c_name"] == "Particles_point"
    assert (doc["particle"]["size"], doc["particle"]["align"]) == (32, 8)
    assert [f["offset"] for f in doc["particle"]["fields"]] == [0, 8, 16, 24]
    shape = doc["shape"]
    assert (shape["payload_offset"], shape["size"]) == (8, 24)
    assert [c["name"] for c in shape["constructors"]] == ["Circle", "Rect", "Weighted", "Empty"]
    assert [f["type"] for f in doc["stats"]["fields"]] == ["int32", "float64"]  # int = int32


def test_the_ocaml_example_matches_the_toml_example_of_the_same_types(tmp_path):
    # particles.ml declares geometry.toml's three types first; same layouts, other module.
    ml = layout_json(DATA / "particles.ml")["types"][:3]
    toml = layout_json(ROOT / "examples" / "geometry.toml")["types"]
    for t in ml + toml:
        t.pop("module"), t.pop("c_name")
    assert ml == toml


def test_enum_used_as_a_record_field_is_a_nested_variant_naming_the_field(capsys):
    path = DATA / "enum_field.ml"
    assert main(["layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:7:12: error: layout of 'pixel': field 'colour' is a variant nested below top level")
    assert "Traceback" not in err


def test_cross_file_references_between_two_ml_files():
    lib, scene = DATA / "cross" / "geometry_lib.ml", DATA / "cross" / "scene.ml"
    doc = {t["c_name"]: t for t in layout_json(lib, scene)["types"]}
    assert list(doc) == ["Geometry_lib_point", "Geometry_lib_box", "Scene_sprite", "Scene_event"]
    sprite = doc["Scene_sprite"]
    assert [(f["name"], f["type"], f["offset"]) for f in sprite["fields"]] == [
        ("at", "Geometry_lib.point", 0), ("bounds", "Geometry_lib.box", 8), ("layer", "int32", 24)]
    assert sprite["size"] == 28
    event = doc["Scene_event"]
    assert (event["payload_offset"], event["size"]) == (8, 48)
    assert [leaf["path"] for leaf in event["constructors"][1]["leaves"]][:2] == [
        "Clicked._0.at.x", "Clicked._0.at.y"]


def test_a_cross_file_reference_without_the_other_file_points_at_the_use(capsys):
    scene = DATA / "cross" / "scene.ml"
    assert main(["layout", str(scene)]) == 2
    assert capsys.readouterr().err.startswith(f"{scene}:4:8: error: unknown module 'Geometry_lib'")


def test_module_name_is_the_capitalised_stem(tmp_path):
    path = tmp_path / "geometry_lib.ml"
    path.write_text("type point = { x : float32 } [@@sarek.type]\n")
    (t,) = load_schema([str(path)]).types
    assert (t.module, t.c_name) == ("Geometry_lib", "Geometry_lib_point")


def test_layout_cli_reads_ml_files(capsys):
    assert main(["layout", str(DATA / "particles.ml"), "--json", "--type", "shape"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [t["c_name"] for t in doc["types"]] == ["Particles_shape"]


# --- accepted syntax ---------------------------------------------------------------------------

ACCEPTED = [
    # (source, {type: [member names]})
    ("type t = | A | B of int32 [@@sarek.type]", {"t": ["A", "B"]}),
    ("type t = A | B of int32 * float64 [@@sarek.type]", {"t": ["A", "B"]}),
    ("type t =\n  A\n  | B\n\n[@@sarek.type]", {"t": ["A", "B"]}),
    ("type t = { mutable a : int32 [@warning \"-69\"] ; b : float32 [@default 0.] }\n"
     "[@@sarek.type]", {"t": ["a", "b"]}),
    ("type t = { a : int32 } [@@deriving show] [@@sarek.type] [@@ocaml.doc \"x\"]", {"t": ["a"]}),
    ("type nonrec t = { a : int32 } [@@sarek.type]", {"t": ["a"]}),
    ("type t = private { a : int32 } [@@sarek.type]", {"t": ["a"]}),
    ("type t = { a : int32 } [@@sarek.type]\nand u = int\nand v = A [@@sarek.type]",
     {"t": ["a"], "v": ["A"]}),
    ("type t = { a : (int32) ; b : int32 (* c *) ; }[@@sarek.type]", {"t": ["a", "b"]}),
    ("type t = A of int32 [@attr] | B [@@sarek.type]", {"t": ["A", "B"]}),
    ("let x = 1\ntype t = { a : int32 } [@@sarek.type] let y = 2", {"t": ["a"]}),
    ("type t = { a : int32 };; [@@@warning \"-30\"]\ntype u = A\n[@@sarek.type]", {"u": ["A"]}),
    ("(* only code *) let f x = x", {}),
]


@pytest.mark.parametrize("source, expected", ACCEPTED)
def test_accepted_declarations(tmp_path, source, expected):
    path = tmp_path / "ok.ml"
    path.write_text(source)
    module = read_ocaml(str(path))
    got = {d.name: [m.name for m in getattr(d, "fields", None) or d.ctors] for d in module.decls}
    assert got == expected


def test_type_expressions_and_containers(tmp_path, capsys):
    path = tmp_path / "exprs.ml"
    path.write_text("type p = { x : float32 } [@@sarek.type]\n"
                    "type t = { a : Exprs.p ; b : p ; c : int ; d : int64 ; e : bool ; f : unit }"
                    " [@@sarek.type]\n")
    doc = layout_json(path)["types"][1]
    assert [f["type"] for f in doc["fields"]] == ["Exprs.p", "p", "int32", "int64", "bool", "unit"]
    path.write_text("type t = { a : int32 ;\n  xs : float32 vector } [@@sarek.type]\n")
    assert main(["layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:2:8: error: layout of 't': field 'xs' has type TVec")


# --- the lexer ---------------------------------------------------------------------------------

LEXER_CASES = [
    ("(* a (* nested *) comment *) x", ["x"]),
    ('(* "*)" still a comment *) x', ["x"]),
    ("(* '\"' is a char, not a string *) x", ["x"]),
    ("(* don't, can't *) x", ["x"]),
    ("(* {|*)|} quoted *) x", ["x"]),
    ("(** doc *) x", ["x"]),
    ('"a \\" b *) c" x', ['"a \\" b *) c"', "x"]),
    ("{|raw \" (* |} x", ['{|raw " (* |}', "x"]),
    ("{id|a |} b|id} x", ["{id|a |} b|id}", "x"]),
    ("{%sql|select|} x", ["{%sql|select|}", "x"]),
    ("{%sql id|a |} b|id} x", ["{%sql id|a |} b|id}", "x"]),
    ("{%%M.ext \t|a|} x", ["{%%M.ext \t|a|}", "x"]),
    ("{%sqlid|a|} x", ["{%sqlid|a|}", "x"]),  # no blank: all of it is the extension name
    ('"a\\\nb\\\\" x', ['"a\\\nb\\\\"', "x"]),  # backslash-newline, escaped backslash
    ("'\"' '\\'' '\\n' '\\065' '\\x41' 'a' x", ["'\"'", "'\\''", "'\\n'", "'\\065'", "'\\x41'",
                                                "'a'", "x"]),
    ("'a t", ["'a", "t"]),
    ("('a, 'b) t", ["(", "'a", ",", "'b", ")", "t"]),
    ("x' y'' ;;", ["x'", "y''", ";;"]),
    ("[@@sarek.type]", ["[", "@@", "sarek", ".", "type", "]"]),
    ("a:=b |> c", ["a", ":=", "b", "|>", "c"]),
]


@pytest.mark.parametrize("source, texts", LEXER_CASES)
def test_lexer(source, texts):
    assert [t.text for t in tokenize(source, LineMap("x.ml", source))] == texts


# --- refusals: the table of bad sources with exact positions is tests/test_bad_inputs.py ---------


def test_refusals_raise_schema_errors_with_locations(tmp_path):
    path = tmp_path / "bad.ml"
    path.write_text("type 'a t = A of 'a [@@sarek.type]")
    with pytest.raises(SchemaError) as info:
        read_ocaml(str(path))
    assert (info.value.location.line, info.value.location.col) == (1, 6)


def test_latin1_sources_are_read_byte_for_byte(tmp_path):
    path = tmp_path / "latin.ml"
    path.write_bytes("(* caf\xe9 *) type t = { x : int32 } [@@sarek.type]".encode("latin-1"))
    assert [d.name for d in read_ocaml(str(path)).decls] == ["t"]


# --- mutations of the corpus never crash -------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sarek_layout import SarekLayoutError  # noqa: E402

SNIPPETS = ["(*", "*)", '"', "{|", "|}", "'", "'a", "[@@sarek.type]", "[@sarek.type]", "type ",
            " and ", "end", "(", ")", "|", " of ", "{", "}", ":", ";", ";;", "*", "->", "=",
            "mutable ", "float", "char", "Geo.p", " array", "'\\''", "\\", "\n", "module M = struct"]
SOURCES = [(DATA / "particles.ml").read_text(), (DATA / "kernels.ml").read_text()]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SOURCES), st.data())
def test_mutated_sources_give_a_schema_or_a_located_error(tmp_path, source, data):
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(source)))
        if data.draw(st.booleans()):
            source = source[:at] + data.draw(st.sampled_from(SNIPPETS)) + source[at:]
        else:
            source = source[:at] + source[at + data.draw(st.integers(1, 40)):]
    path = tmp_path / "mutant.ml"
    path.write_text(source)
    try:
        load_schema([str(path)])
    except SarekLayoutError as e:
        message = str(e)
        assert message.startswith(f"{path}:") and "\n" not in message, message
