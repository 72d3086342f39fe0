"""C headers read together (docs/c-headers.md): a typedef of an included header resolves to
its definition, one definition per name, the module of a header (``--c-module``, the
``sarek-layout: module`` comment, the file name), and ``-I``/``-D`` on every command that
reads headers. Layouts are compared with what gcc compiles from the same headers."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from sarek_layout.cli.main import main

pytestmark = pytest.mark.skipif(
    shutil.which("gcc") is None, reason="the layouts are checked against gcc"
)

VEC_H = "#ifndef VEC_H\n#define VEC_H\ntypedef struct vec2 { float x; float y; } vec2;\n#endif\n"
TOP_H = ('#include "vec.h"\n'
         "typedef struct body { vec2 p; vec2 v; } body;\n")


@pytest.fixture
def repro(tmp_path, monkeypatch):
    """The issue's layout: inc/vec.h, and top.h including "vec.h"; the current folder."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "vec.h").write_text(VEC_H)
    (tmp_path / "top.h").write_text(TOP_H)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv):
    """``(exit status, stdout, stderr)`` of the command line ``argv``."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def layout_json(capsys, *argv):
    status, out, err = run(capsys, "layout", "--json", *argv)
    assert status == 0, err
    return {t["c_name"]: t for t in json.loads(out)["types"]}


def gcc_layout(folder, includes, types, flags=()):
    """``{c_name: (size, align, {field: offset})}`` as gcc compiles ``includes``."""
    lines = ["#include <stdio.h>", "#include <stddef.h>"]
    lines += [f'#include "{h}"' for h in includes]
    lines.append("int main(void) {")
    for c_name, fields in types.items():
        lines.append(f'  printf("{c_name} %zu %zu", sizeof({c_name}), _Alignof({c_name}));')
        for f in fields:
            lines.append(f'  printf(" {f}=%zu", offsetof({c_name}, {f}));')
        lines.append('  printf("\\n");')
    lines.append("  return 0;\n}")
    source = folder / "probe.c"
    source.write_text("\n".join(lines) + "\n")
    exe = folder / "probe"
    subprocess.run(["gcc", "-std=c11", *flags, "-o", str(exe), str(source)], check=True,
                   cwd=folder)
    result = {}
    for line in subprocess.run([str(exe)], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        c_name, size, align, *offsets = line.split()
        result[c_name] = (int(size), int(align),
                          {k: int(v) for k, v in (o.split("=") for o in offsets)})
    return result


def as_measured(types, names):
    return {n: (types[n]["size"], types[n]["align"],
                {f["name"]: f["offset"] for f in types[n]["fields"]}) for n in names}


def assert_one_line_usage_error(status, err, *fragments):
    assert status == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


# --- the repro: a typedef of an included header ------------------------------------------------


def test_import_c_resolves_a_typedef_of_an_included_header(repro, capsys):
    status, out, err = run(capsys, "import-c", "top.h", "-I", "inc")
    assert status == 0, err
    assert 'record = "vec2"' in out and '["p", "vec2"]' in out
    # The printed schema lays out as gcc compiles the headers.
    (repro / "top.toml").write_text(out)
    types = layout_json(capsys, "top.toml")
    expected = gcc_layout(repro, ["top.h"], {"vec2": ["x", "y"], "body": ["p", "v"]}, ["-Iinc"])
    assert as_measured(types, ["vec2", "body"]) == expected


def test_layout_of_a_header_and_the_header_it_includes_given_together(repro, capsys):
    types = layout_json(capsys, "inc/vec.h", "top.h")
    assert types["body"]["fields"][0]["type"] == "vec2"
    expected = gcc_layout(repro, ["top.h"], {"vec2": ["x", "y"], "body": ["p", "v"]}, ["-Iinc"])
    assert as_measured(types, ["vec2", "body"]) == expected


def test_import_c_of_headers_given_together_gives_schemas_that_load_together(repro, capsys):
    status, _, err = run(capsys, "import-c", "inc/vec.h", "top.h", "-o", "out")
    assert status == 0, err
    top = (repro / "out" / "top.toml").read_text()
    assert 'record = "vec2"' not in top and '["p", "vec2"]' in top  # vec.h's type, used
    types = layout_json(capsys, "out/vec.toml", "out/top.toml")
    expected = gcc_layout(repro, ["top.h"], {"vec2": ["x", "y"], "body": ["p", "v"]}, ["-Iinc"])
    assert as_measured(types, ["vec2", "body"]) == expected


def test_diamond_include_is_one_type(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "vec.h").write_text(VEC_H)
    (tmp_path / "a.h").write_text('#include "vec.h"\ntypedef struct A { vec2 a; double w; } A;\n')
    (tmp_path / "b.h").write_text('#include "vec.h"\ntypedef struct B { int b; vec2 v; } B;\n')
    (tmp_path / "top.h").write_text('#include "a.h"\n#include "b.h"\n'
                                    "typedef struct top { B b; A a; } top;\n")
    fields = {"vec2": ["x", "y"], "A": ["a", "w"], "B": ["b", "v"], "top": ["b", "a"]}
    expected = gcc_layout(tmp_path, ["top.h"], fields)
    assert as_measured(layout_json(capsys, "top.h"), fields) == expected
    types = layout_json(capsys, "a.h", "b.h", "top.h", "vec.h")
    assert as_measured(types, fields) == expected


# --- one definition per typedef name -----------------------------------------------------------


def test_one_name_defined_with_different_members_names_both_places(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.chdir(tmp_path)
    for folder, scalar in (("x", "float"), ("y", "double")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "vec.h").write_text(
            f"\ntypedef struct vec2 {{ {scalar} x; {scalar} y; }} vec2;\n")
    (tmp_path / "a.h").write_text('#include "x/vec.h"\ntypedef struct A { vec2 a; } A;\n')
    (tmp_path / "b.h").write_text('#include "y/vec.h"\ntypedef struct B { vec2 b; } B;\n')
    status, out, err = run(capsys, "layout", "a.h", "b.h")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "different members" in err
    assert "x/vec.h:2:" in err and "y/vec.h:2:" in err


# --- the module of a header --------------------------------------------------------------------

GEO_TYPES = "typedef struct Geo_vec2 { float x; float y; } Geo_vec2;\n"


def test_module_comment_sets_the_module(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shapes.h").write_text("// sarek-layout: module Geo\n" + GEO_TYPES)
    types = layout_json(capsys, "shapes.h")
    assert (types["Geo_vec2"]["module"], types["Geo_vec2"]["name"]) == ("Geo", "vec2")
    assert as_measured(types, ["Geo_vec2"]) == gcc_layout(tmp_path, ["shapes.h"],
                                                          {"Geo_vec2": ["x", "y"]})


def test_module_comment_with_an_empty_name_means_no_module(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "geo.h").write_text('/* sarek-layout: module "" */\n' + GEO_TYPES)
    types = layout_json(capsys, "geo.h")  # without the comment: module Geo (file name)
    assert (types["Geo_vec2"]["module"], types["Geo_vec2"]["name"]) == ("", "Geo_vec2")


def test_c_module_option_wins_over_the_comment_and_the_file_name(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "geo.h").write_text("// sarek-layout: module Geo\n" + GEO_TYPES)
    types = layout_json(capsys, "geo.h", "--c-module", "geo.h=")
    assert (types["Geo_vec2"]["module"], types["Geo_vec2"]["name"]) == ("", "Geo_vec2")
    (tmp_path / "shapes.h").write_text(GEO_TYPES)
    types = layout_json(capsys, "shapes.h", "--c-module", "shapes.h=Geo")
    assert (types["Geo_vec2"]["module"], types["Geo_vec2"]["name"]) == ("Geo", "vec2")


def test_c_module_whose_prefix_the_typedefs_lack_is_refused_at_the_typedef(repro, capsys):
    status, out, err = run(capsys, "layout", "top.h", "-I", "inc", "--c-module", "top.h=Geo")
    assert status == 2 and out == ""
    assert err.startswith("top.h:2:") and "'Geo_<name>'" in err
    assert len(err.strip().splitlines()) == 1


# --- -I and -D on every command ----------------------------------------------------------------

WIDE_TOP_H = ('#include "vec.h"\n#ifdef WIDE\ntypedef double real;\n#else\ntypedef float real;\n'
              "#endif\ntypedef struct body { vec2 p; real m; } body;\n")


@pytest.mark.parametrize("command", ["layout", "generate", "explain", "verify", "diff",
                                     "import-c"])
def test_include_folders_and_macros_on_every_command(command, repro, capsys):
    (repro / "top.h").write_text(WIDE_TOP_H)
    options = ["-I", "inc", "-D", "WIDE"]
    argv = {
        "layout": ["layout", "top.h", "--json"],
        "generate": ["generate", "top.h", "-o", "out", "-t", "c"],
        "explain": ["explain", "top.h", "--type", "body"],
        "verify": ["verify", "top.h", "--toolchain", "gcc"],
        "diff": ["diff", "top.h", "top.h"],
        "import-c": ["import-c", "top.h"],
    }[command]
    status, out, err = run(capsys, *argv, *options)
    assert status == 0, err
    if command == "layout":
        types = {t["c_name"]: t for t in json.loads(out)["types"]}
        expected = gcc_layout(repro, ["top.h"], {"body": ["p", "m"]}, ["-Iinc", "-DWIDE"])
        assert as_measured(types, ["body"]) == expected
        assert expected["body"][0] == 16  # the macro counted: a double
    if command == "import-c":
        assert '["m", "float64"]' in out


# --- bad and hostile input ---------------------------------------------------------------------


@pytest.mark.parametrize("value", ["top.h", "=Geo", "top.h=1x", "top.h=_x", "top.h=a-b",
                                   "top.h=Geo\nx", "top.h=" + "G" * 300])
def test_bad_c_module_values_are_one_line_usage_errors(value, repro, capsys):
    status, out, err = run(capsys, "layout", "top.h", "-I", "inc", "--c-module", value)
    assert_one_line_usage_error(status, err, "sarek-layout: error: --c-module")
    assert out == ""


def test_c_module_naming_a_file_not_given_is_refused(repro, capsys):
    status, out, err = run(capsys, "layout", "top.h", "-I", "inc", "--c-module", "inc/vec.h=V")
    assert_one_line_usage_error(status, err, "inc/vec.h", "not among the C headers given")


def test_one_header_given_two_modules_is_refused(repro, capsys):
    status, out, err = run(capsys, "import-c", "top.h", "-I", "inc",
                           "--c-module", "top.h=A", "--c-module", "./top.h=B")
    assert_one_line_usage_error(status, err, "two modules")


@pytest.mark.parametrize("comment, column, fragment", [
    ("// sarek-layout: module 9x", 25, "'9x'"),
    ("// sarek-layout: module _Geo", 25, "'_Geo'"),
    ("/* sarek-layout: module Geo-2 */", 25, "'Geo-2'"),
    ("// sarek-layout: module", 1, "no module name"),
    ("// sarek-layout: module Geo extra", 29, "more than a module name"),
    ("// sarek-layout: module " + "G" * 5000, 25, "'GGG"),
])
def test_a_bad_module_comment_is_refused_at_its_place(comment, column, fragment, tmp_path,
                                                      monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "geo.h").write_text("\n" + comment + "\n" + GEO_TYPES)
    status, out, err = run(capsys, "layout", "geo.h")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"geo.h:2:{column}: error: ") and fragment in err


def test_a_second_module_comment_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "geo.h").write_text("// sarek-layout: module Geo\n"
                                    "// sarek-layout: module Geo\n" + GEO_TYPES)
    status, out, err = run(capsys, "layout", "geo.h")
    assert status == 2 and err.startswith("geo.h:2:1: error: a second") and "geo.h:1:1" in err


@pytest.mark.skipif(shutil.which("git") is None, reason="diff --against reads git")
def test_diff_against_a_revision_gives_its_copy_of_a_header_the_module(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.chdir(tmp_path)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q", "."], check=True)
    (tmp_path / "shapes.h").write_text(GEO_TYPES)
    subprocess.run(git + ["add", "shapes.h"], check=True)
    subprocess.run(git + ["commit", "-qm", "v1"], check=True)
    (tmp_path / "shapes.h").write_text(GEO_TYPES.replace("float y;", "float y; float z;"))
    status, out, err = run(capsys, "diff", "--against", "HEAD", "shapes.h", "--json",
                           "--c-module", "shapes.h=Geo")
    assert status == 1, err
    changes = json.loads(out)["changes"]
    # One type, Geo.vec2, on both sides: it grew (not removed under one name, added under another).
    assert {c["type"] for c in changes} == {"Geo.vec2"}, changes
