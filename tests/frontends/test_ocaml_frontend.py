"""The OCaml front end: ``[@@sarek.type]`` declarations found in realistic Sarek sources (and
nothing else), the lexical traps of OCaml, cross-file references, and every refusal with its
exact ``FILE:LINE:COL``.

Goldens: ``tests/data/ocaml/<case>.ml`` → ``<case>.layout.json`` (the ``layout --json``
document). Refresh deliberately with
``SAREK_UPDATE_GOLDENS=1 python -m pytest tests/frontends/test_ocaml_frontend.py``.
"""

from __future__ import annotations

import difflib
import json
import os

import pytest

from helpers.common import ROOT
from sarek_layout import SchemaError
from sarek_layout.cli.main import main
from sarek_layout.resolve import load_schema
from sarek_layout.frontends.ocaml import read_ocaml
from sarek_layout.frontends.ocaml.lexer import LineMap, tokenize
from sarek_layout.report import schema_json

DATA = ROOT / "tests" / "data" / "ocaml"
REFRESH = "SAREK_UPDATE_GOLDENS=1 python -m pytest tests/frontends/test_ocaml_frontend.py"


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
        # The C name is part of the layout fingerprint, so another module has other ones.
        t.pop("module"), t.pop("c_name"), t.pop("layout_id")
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
    # GADT syntax whose result is the type itself: a plain variant, as Sarek's PPX reads it.
    ("type v = A : v | B : float32 -> v | C : float32 * int32 -> v [@@sarek.type]",
     {"v": ["A", "B", "C"]}),
    ("type v =\n  | A\n  | B : (int32) -> (v) [@attr]\n  | C of int64\n[@@sarek.type]",
     {"v": ["A", "B", "C"]}),
    # Types of inner modules, at any depth, and the sig of a module that has a struct.
    ("module M = struct type t = { a : int32 } [@@sarek.type] end", {"t": ["a"]}),
    ("module M = struct module N = struct type t = A [@@sarek.type] end end", {"t": ["A"]}),
    ("module M : sig type t = { a : int32 } [@@sarek.type] end = struct\n"
     "  type t = { a : int32 } [@@sarek.type]\nend", {"t": ["a"]}),
    ("module rec A : sig end = struct type a = X [@@sarek.type] end\n"
     "and B : sig end = struct type b = Y [@@sarek.type] end", {"a": ["X"], "b": ["Y"]}),
    ("module F (X : sig type t end) = struct type f = { q : int64 } [@@sarek.type] end",
     {"f": ["q"]}),
    ("let g () = let module L = struct type l = { l : int32 } [@@sarek.type] end in ()",
     {"l": ["l"]}),
    ("include struct type i = { i : int32 } [@@sarek.type] end", {"i": ["i"]}),
]


@pytest.mark.parametrize("source, expected", ACCEPTED)
def test_accepted_declarations(tmp_path, source, expected):
    """Each was refused before (GADT syntax, ``[@@sarek.type]`` below the top level)."""
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


# --- inner modules: registered under the file's module, as Sarek does -------------------------


def test_types_of_inner_modules_are_the_files_types(tmp_path):
    # Sarek_ppx.ml: tdecl_module = module_name_of_loc loc (the file), tdecl_name = the bare name.
    path = tmp_path / "scene.ml"
    path.write_text(
        "module Geo = struct\n"
        "  type point = { x : float32; y : float32 } [@@sarek.type]\n"
        "  module Inner = struct type box = { lo : point; hi : point } [@@sarek.type] end\n"
        "end\n"
        "type sprite = { at : Geo.point; bounds : Geo.Inner.box; area : Inner.box }\n"
        "[@@sarek.type]\n")
    doc = {t["name"]: t for t in layout_json(path)["types"]}
    assert [(t["module"], t["c_name"]) for t in doc.values()] == [
        ("Scene", "Scene_point"), ("Scene", "Scene_box"), ("Scene", "Scene_sprite")]
    # M.t written in the file is the file's own type (not a module "Geo" to be found elsewhere).
    assert [f["type"] for f in doc["sprite"]["fields"]] == ["point", "box", "box"]
    assert [leaf["path"] for leaf in doc["sprite"]["leaves"]][:3] == ["at.x", "at.y", "bounds.lo.x"]


def test_a_module_path_of_another_file_stays_a_reference_to_that_file(tmp_path):
    (tmp_path / "geometry_lib.ml").write_text(
        "type point = { x : float32; y : float32 } [@@sarek.type]\n")
    (tmp_path / "scene.ml").write_text(
        "module Local = struct type tag = { id : int32 } [@@sarek.type] end\n"
        "type sprite = { at : Geometry_lib.point; tag : Local.tag } [@@sarek.type]\n")
    doc = layout_json(tmp_path / "geometry_lib.ml", tmp_path / "scene.ml")
    sprite = doc["types"][-1]
    assert [f["type"] for f in sprite["fields"]] == ["Geometry_lib.point", "tag"]


def test_an_inner_module_shadows_another_files_module_of_the_same_name(tmp_path):
    # OCaml looks a module name up in the file first, so Geometry_lib.point is the inner one.
    (tmp_path / "geometry_lib.ml").write_text("type point = { x : float64 } [@@sarek.type]\n")
    (tmp_path / "scene.ml").write_text(
        "module Geometry_lib = struct type point = { x : int32 } [@@sarek.type] end\n"
        "type sprite = { at : Geometry_lib.point } [@@sarek.type]\n")
    doc = layout_json(tmp_path / "geometry_lib.ml", tmp_path / "scene.ml")
    sprite = doc["types"][-1]
    assert sprite["fields"][0]["type"] == "point" and sprite["size"] == 4


def test_a_signature_with_sarek_type_next_to_its_struct_gives_one_type(tmp_path):
    path = tmp_path / "m.ml"
    path.write_text("module P : sig\n  type t = { a : int32 } [@@sarek.type]\n  val zero : t\n"
                    "end = struct\n  type t = { a : int32 } [@@sarek.type]\n"
                    "  let zero = { a = 0l }\nend\n")
    assert [d.name for d in read_ocaml(str(path)).decls] == ["t"]


def test_the_readme_example_reads_with_the_c_names_it_states(tmp_path):
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("**Sarek OCaml sources**"):]
    block = section[section.index("```ocaml\n") + 9:section.index("```\n", section.index("```ocaml"))]
    path = tmp_path / "geometry.ml"
    path.write_text(block)
    names = [t["c_name"] for t in layout_json(path)["types"]]
    stated = block.split("(* in geometry.ml: ")[1].split(" *)")[0].split(", ")
    assert names == stated


# --- refusals of a whole file: what Sarek would silently not read ------------------------------

NEAR_MISSES = [
    ("[@@sarek.typ]", "sarek.type"),
    ("[@@sarek_type]", "sarek.type"),
    ("[@@sarek.types]", "sarek.type"),
    ("[@@sarek.tpye]", "sarek.type"),   # two letters swapped: one edit
    ("[@@Sarek.Type]", "sarek.type"),   # case
    ("[@@SAREK.TYPE]", "sarek.type"),
    ("[@@sarek.ty]", "sarek.type"),     # two edits
    ("[@@sarek.type_privte]", "sarek.type_private"),
    ("[@sarek.typ]", "sarek.type"),     # one '@' and misspelt
    ("[@@@sarek.types]", "sarek.type"),
]


@pytest.mark.parametrize("attribute, target", NEAR_MISSES)
def test_a_near_miss_of_the_attribute_is_refused_where_it_is(tmp_path, capsys, attribute, target):
    path = tmp_path / "p.ml"
    path.write_text(f"type ok = {{ a : int32 }} [@@sarek.type]\ntype p = {{ x : float32 }} {attribute}\n")
    assert main(["layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"{path}:2:26: error: {attribute} is not [@@{target}]: Sarek ignores an "
                   f"attribute it does not know, so this would be no Sarek type; write "
                   f"[@@{target}] after the type declaration\n")


@pytest.mark.parametrize("attribute", ["[@@sarek.t]", "[@@deriving show]", "[@sarek.module]",
                                       "[@@sarek.module_private]", "[@@ocaml.warning \"-32\"]"])
def test_attributes_that_are_not_near_misses_are_left_alone(tmp_path, attribute):
    path = tmp_path / "p.ml"
    path.write_text(f"type ok = {{ a : int32 }} [@@sarek.type]\ntype p = {{ x : float32 }} {attribute}\n"
                    f"let[@sarek.module] f (x : float32) : float32 = x\n")
    assert [d.name for d in read_ocaml(str(path)).decls] == ["ok"]


@pytest.mark.parametrize("a, b, distance", [
    ("sarek.type", "sarek.type", 0), ("sarek.typ", "sarek.type", 1),
    ("sarek_type", "sarek.type", 1), ("sarek.tpye", "sarek.type", 1),
    ("sarek.ty", "sarek.type", 2), ("sarek.t", "sarek.type", 3), ("", "abc", 3),
    ("sarek.module", "sarek.type", 3),  # more than the limit: reported as limit + 1
])
def test_edit_distance_table(a, b, distance):
    from sarek_layout.frontends.ocaml.attributes import edit_distance

    assert edit_distance(a, b, 2) == min(distance, 3)


def test_an_attribute_inside_a_type_definition_is_reported_once(tmp_path, capsys):
    path = tmp_path / "inside.ml"
    # Inside a Sarek declaration, the parser stops at it: one report, not two.
    path.write_text("type t = { x : int32 [@@sarek.type] ; y : int32 } [@@sarek.type]\n"
                    # Inside a declaration without the attribute: the attribute is refused.
                    "type u = { z : int32 [@@sarek.type] }\n")
    assert main(["layout", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:1:22: error: expected ';' or '}}' after field 'x', found '['",
        f"{path}:2:22: error: [@@sarek.type] is read only on type declarations (of the file or "
        f"of a module's struct … end), and this one is inside a type's definition; write it "
        f"after the whole declaration"]


NO_TYPE = "(* kernels only *)\nlet k = [%kernel fun (v : float32 vector) -> v.(0) <- 1.0]\n"


@pytest.mark.parametrize("command", [["layout"], ["layout", "--json"], ["explain"],
                                     ["generate", "-o", "OUT"], ["verify", "--toolchain", "gcc"],
                                     ["diff", "GOOD"]])
def test_a_file_with_no_sarek_type_is_refused_by_every_command(tmp_path, capsys, command):
    good = tmp_path / "good.ml"
    good.write_text("type p = { x : float32 } [@@sarek.type]\n")
    path = tmp_path / "kernels.ml"
    path.write_text(NO_TYPE)
    argv = [str(tmp_path / "out") if a == "OUT" else str(good) if a == "GOOD" else a
            for a in command]
    schemas = [str(path)] if command[0] == "diff" else [str(good), str(path)]
    assert main(argv + schemas) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"{path}: error: this OCaml file declares no Sarek type: no type declaration "
                   f"carries [@@sarek.type] (or [@@sarek.type_private]); mark the element types, "
                   f"or do not pass the file\n")
    assert not (tmp_path / "out").exists()


# --- several refusals at once -------------------------------------------------------------------


def test_every_refused_declaration_of_a_file_is_reported(tmp_path):
    path = tmp_path / "many.ml"
    path.write_text("type a = { x : 'a } [@@sarek.type]\n"
                    "type b = { y : int32 * int32 } [@@sarek.type]\n"
                    "type c = { z : a } [@@sarek.type]\n"   # holds a refused type: not reported
                    "type d = A : int32 -> e [@@sarek.type]\n"
                    "type e = { w : char } [@@sarek.type]\n")
    with pytest.raises(SchemaError) as info:
        read_ocaml(str(path))
    places = [(e.location.line, e.location.col) for e in info.value.errors]
    assert places == [(1, 16), (2, 16), (4, 23), (5, 16)]
    assert str(info.value).count("\n") == 3
    assert info.value.location.line == 1  # as a SchemaError, it is its first error


def test_knock_on_errors_of_one_root_cause_are_not_reported(tmp_path, capsys):
    path = tmp_path / "chain.ml"
    path.write_text("type a = { x : nope } [@@sarek.type]\n"
                    "type b = { a : a } [@@sarek.type]\n"
                    "type c = { b : b } [@@sarek.type]\n"
                    "type r = { s : s } [@@sarek.type]\nand s = { r : r } [@@sarek.type]\n"
                    "type u = { r : r } [@@sarek.type]\n"
                    "type v = A | B [@@sarek.type]\n"
                    "type w = { v : v } [@@sarek.type]\ntype z = { w : w } [@@sarek.type]\n")
    assert main(["layout", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": error: ")[0] for line in lines] == [
        f"{path}:1:16", f"{path}:4:6", f"{path}:8:16"]
    assert "unknown type 'nope'" in lines[0]
    assert "recursive type 'Chain.r'" in lines[1]
    assert "layout of 'w': field 'v' is a variant nested below top level" in lines[2]


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


# --- refusals: the table of bad sources with exact positions is tests/hostile/test_bad_inputs.py ---------


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
        lines = str(e).split("\n")  # several independent refusals: one line each
        assert len(lines) == len(getattr(e, "errors", [e])), str(e)
        for line in lines:
            assert line.startswith(f"{path}:"), line
