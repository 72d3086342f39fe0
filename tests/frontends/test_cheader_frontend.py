"""The C header front end and ``import-c``: headers this project generates and hand-written
headers read back to the schema they declare; everything without a Sarek layout is refused
with its C source position (exit 2, no traceback)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from helpers.common import EXAMPLES, ROOT
from sarek_layout.cli.main import main
from sarek_layout.resolve import load_schema
from sarek_layout.frontends.c import read_header
from sarek_layout.frontends.c.header import header_module_name
from sarek_layout.report import schema_json

DATA = ROOT / "tests" / "data" / "c"

pytestmark = pytest.mark.skipif(
    shutil.which("cpp") is None and shutil.which("gcc") is None and shutil.which("clang") is None,
    reason="reading C headers needs a C preprocessor: apt-get install cpp",
)


def layout_of(*paths):
    return schema_json(load_schema([str(p) for p in paths]).types)


def without_bool(doc):
    """What a C round trip can give back: bool and unit are int32_t in C. Their types'
    layout fingerprints differ too (a member's type is part of it): left out on both sides
    (``without_ids``); test_fingerprint.py compares fingerprints across forms."""
    text = json.dumps(without_ids(doc)).replace('"type": "bool"', '"type": "int32"')
    return json.loads(text.replace('"type": "unit"', '"type": "int32"'))


def without_ids(doc):
    return {"types": [{k: v for k, v in t.items() if k != "layout_id"} for t in doc["types"]]}


def test_header_in_the_generated_shape_reads_back_to_its_schema():
    assert without_ids(layout_of(DATA / "geometry.h")) == without_bool(layout_of(EXAMPLES / "geometry.toml"))


def test_committed_generated_header_reads_back_to_the_example():
    header = ROOT / "generated" / "geometry.h"
    assert header.exists(), "generated/geometry.h is the committed output of `make generate`"
    assert "@generated" in header.read_text()
    assert without_ids(layout_of(header)) == without_bool(layout_of(EXAMPLES / "geometry.toml"))


def test_freshly_generated_headers_round_trip(tmp_path, capsys):
    schemas = [str(EXAMPLES / "geometry.toml"), str(ROOT / "tests" / "data" / "ocaml" / "particles.ml")]
    assert main(["generate", *schemas, "-o", str(tmp_path), "-t", "c"]) == 0
    capsys.readouterr()
    headers = [tmp_path / "geometry.h", tmp_path / "particles.h"]
    assert without_ids(layout_of(*headers)) == without_bool(layout_of(*schemas))


# --- import-c ----------------------------------------------------------------------------------

SENSORS_TOML = '''\
# Imported from sensors.h by sarek-layout import-c.
# C has no 4-byte bool or unit: such fields read back as int32.
module = ""

[[types]]
record = "Vec3"
fields = [
  ["x", "float32"],
  ["y", "float32"],
  ["z", "float32"],
]

[[types]]
record = "Reading"
fields = [
  ["sensor", "int32"],
  ["value", "float64"],
  ["where", "Vec3"],
  ["stamp", "int64"],
  ["flags", "int32"],
]

[[types]]
record = "Summary"
fields = [
  ["last", "Reading"],
  ["first", "Reading"],
  ["count", "int32"],
]

[[types]]
enum = "sensor_kind"
base = "int32"
values = [
  ["SENSOR_TEMP", 0],
  ["SENSOR_PRESSURE", 1],
]
'''


def test_import_c_of_a_hand_written_header(capsys):
    assert main(["import-c", str(DATA / "sensors.h")]) == 0
    assert capsys.readouterr().out == SENSORS_TOML


def test_import_c_output_is_a_schema_that_loads_to_the_same_layout(tmp_path, capsys):
    for flag, suffix in (([], ".toml"), (["--json"], ".json")):
        assert main(["import-c", str(DATA / "geometry.h"), *flag]) == 0
        path = tmp_path / f"geometry{suffix}"
        path.write_text(capsys.readouterr().out)
        assert layout_of(path) == layout_of(DATA / "geometry.h")


def test_import_c_json(capsys):
    assert main(["import-c", str(DATA / "geometry.h"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["module"] == "Geometry"
    assert doc["types"][2] == {"variant": "shape", "constructors": [
        ["Circle", ["point", "float32"]], ["Rect", ["point", "point"]],
        ["Weighted", ["float64", "int32"]], ["Empty", []]]}


def write(folder, name, text):
    path = folder / name
    path.write_text(text)
    return str(path)


def test_headers_that_include_each_other_become_module_references(tmp_path, capsys):
    a = write(tmp_path, "shapes.h", "#include <stdint.h>\n"
              "typedef struct Shapes_point { float x; float y; } Shapes_point;\n")
    b = write(tmp_path, "scene.h", '#include "shapes.h"\n'
              "typedef struct Scene_sprite { Shapes_point at; int64_t id; } Scene_sprite;\n")
    doc = layout_of(a, b)
    sprite = doc["types"][1]
    assert (sprite["c_name"], sprite["fields"][0]["type"], sprite["size"]) == (
        "Scene_sprite", "Shapes.point", 16)
    out = tmp_path / "out"
    out.mkdir()
    assert main(["import-c", a, b, "-o", str(out)]) == 0
    note, written = capsys.readouterr().err.splitlines()
    assert written == "2 schemas written, 0 unchanged"
    # i386 aligns the int64_t at 4, so the struct at 4 (test_cheader_i386.py): one note.
    assert note.startswith("note: on i386 (gcc -m32)") and note.count("Scene_sprite") == 1
    assert '["at", "Shapes.point"]' in (out / "scene.toml").read_text()
    assert layout_of(out / "shapes.toml", out / "scene.toml") == doc
    assert main(["import-c", a, b, "-o", str(out)]) == 0
    assert capsys.readouterr().err.splitlines()[1:] == ["0 schemas written, 2 unchanged"]


def test_several_headers_need_an_output_folder(capsys):
    assert main(["import-c", str(DATA / "geometry.h"), str(DATA / "sensors.h")]) == 2
    assert "-o DIR" in capsys.readouterr().err


def test_include_dirs_and_defines_reach_the_preprocessor(tmp_path, capsys):
    inc = tmp_path / "inc"
    inc.mkdir()
    write(inc, "base.h", "typedef int base_int;\n")
    h = write(tmp_path, "cfg.h", "#include <base.h>\n#ifdef WIDE\ntypedef struct Cfg_v { int64_t a; } Cfg_v;\n"
              "#else\ntypedef struct Cfg_v { base_int a; } Cfg_v;\n#endif\n#include <stdint.h>\n")
    assert main(["import-c", h, "-I", str(inc)]) == 0
    assert '["a", "int32"]' in capsys.readouterr().out
    assert main(["import-c", h, "-I", str(inc), "-D", "WIDE"]) == 2  # int64_t used before <stdint.h>
    assert "cfg.h:3:" in capsys.readouterr().err


def test_module_rule():
    assert header_module_name("geo/geometry.h", ["Geometry_point", "Geometry_shape"]) == (
        "Geometry", {"Geometry_point": "point", "Geometry_shape": "shape"})
    assert header_module_name("Geometry.h", ["geometry_point"])[0] == "geometry"
    assert header_module_name("geometry.h", ["Geometry_point", "Vec3"]) == (
        "", {"Geometry_point": "Geometry_point", "Vec3": "Vec3"})
    assert header_module_name("geometry.h", ["Geometry_point", "GEOMETRY_shape"])[0] == ""
    assert header_module_name("geometry.h", ["Geometry_"])[0] == ""


# --- refusals: the table of bad headers with exact positions is tests/hostile/test_bad_inputs.py --------


def test_missing_file_and_folder(tmp_path, capsys):
    assert main(["import-c", str(tmp_path / "none.h")]) == 2
    assert "No such file" in capsys.readouterr().err
    assert main(["import-c", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_read_header_returns_declarations_with_positions():
    module = read_header(str(DATA / "geometry.h"))
    assert (module.name, module.format) == ("Geometry", "c")
    shape = module.decls[2]
    assert [c.name for c in shape.ctors] == ["Circle", "Rect", "Weighted", "Empty"]
    lines = (DATA / "geometry.h").read_text().splitlines()
    empty = next(i for i, l in enumerate(lines, 1) if "Geometry_shape_Empty = 3" in l)
    pos = next(i for i, l in enumerate(lines, 1) if "Geometry_point pos;" in l)
    assert str(shape.ctors[3].location).endswith(f"geometry.h:{empty}:5")  # its enum constant
    assert str(module.decls[1].fields[2].location).endswith(f"geometry.h:{pos}:20")
    assert str(shape.location).endswith("geometry.h:46:16")  # typedef struct Geometry_shape {


# --- mutations of the headers never crash ------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sarek_layout import SarekLayoutError  # noqa: E402

SNIPPETS = ["*", "[3]", " : 3", "char ", "unsigned ", "union ", "struct ", "{", "}", ";", "\n#if 0\n",
            "\n#endif\n", "_sarek_", "enum { X_A };", "tag", "data", "_0", "_v", "long ", "=", ",",
            "typedef ", "(", ")", "\n#include <nowhere.h>\n", "/*", "*/", "\"", "__attribute__((x))"]
HEADERS = [(DATA / "geometry.h").read_text(), (DATA / "sensors.h").read_text()]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(HEADERS), st.data())
def test_mutated_headers_give_a_schema_or_a_located_error(tmp_path, source, data):
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(source)))
        if data.draw(st.booleans()):
            source = source[:at] + data.draw(st.sampled_from(SNIPPETS)) + source[at:]
        else:
            source = source[:at] + source[at + data.draw(st.integers(1, 30)):]
    path = tmp_path / "mutant.h"
    path.write_text(source)
    try:
        load_schema([str(path)])
    except SarekLayoutError as e:
        message = str(e)
        assert message.startswith(str(path)) and "\n" not in message, message


# --- layout extensions: what keeps Sarek's layout is accepted, the rest is refused ------------
# (the refusals, with their positions, are rows of tests/hostile/test_bad_inputs.py)

ALIGNED_HEADER = """\
#include <stdint.h>
#include <stddef.h>
typedef struct Inner { int32_t a; _Alignas(8) int64_t b; } Inner;
typedef struct T {
    int32_t a;
    _Alignas(8) int64_t b;
    int32_t c;
    double d __attribute__((aligned(8)));
    int32_t e;
    __attribute__((__aligned__(0x8))) long long f;
    int32_t g;
    _Alignas(8) Inner inner;
    int32_t h;
    _Alignas(8) double x, y;
    int32_t z __attribute__((unused, deprecated));
} T;
int32_t helper(void) __attribute__((const, noinline));
"""
ALIGNED_SCHEMA = {"module": "", "types": [
    {"record": "Inner", "fields": [["a", "int32"], ["b", "int64"]]},
    {"record": "T", "fields": [["a", "int32"], ["b", "int64"], ["c", "int32"], ["d", "float64"],
                               ["e", "int32"], ["f", "int64"], ["g", "int32"], ["inner", "Inner"],
                               ["h", "int32"], ["x", "float64"], ["y", "float64"],
                               ["z", "int32"]]}]}


def test_alignments_of_8_on_8_byte_members_and_harmless_attributes_are_accepted(tmp_path):
    header = write(tmp_path, "aligned.h", ALIGNED_HEADER)
    schema = tmp_path / "aligned.json"
    schema.write_text(json.dumps(ALIGNED_SCHEMA))
    assert layout_of(header) == layout_of(schema)


@pytest.mark.parametrize("spelling", ["alignas(8)", "__declspec(align(8))", "__align__(8)",
                                      "[[gnu::aligned(8)]]", "_Alignas(010)", "_Alignas((8))"])
def test_every_spelling_of_an_alignment_of_8_is_accepted(spelling, tmp_path):
    header = write(tmp_path, "spelled.h", "#include <stdint.h>\ntypedef struct S { int32_t a; "
                   f"{spelling} double b; }} S;\n")
    assert [f["offset"] for f in layout_of(header)["types"][0]["fields"]] == [0, 8]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("abi", ["-m64", "-m32"])
def test_gcc_agrees_with_the_layout_of_an_accepted_aligned_header(abi, tmp_path):
    """What is accepted really has Sarek's layout: gcc checks every offset, size and
    alignment read back, on i386 too (where double and int64_t are 4-aligned unless the
    alignment is written)."""
    header = write(tmp_path, "aligned.h", ALIGNED_HEADER)
    checks = []
    for t in layout_of(header)["types"]:
        name = t["c_name"]
        checks.append(f"_Static_assert(sizeof({name}) == {t['size']}, \"size\");")
        checks.append(f"_Static_assert(_Alignof({name}) == {t['align']}, \"align\");")
        for f in t["fields"]:
            checks.append(f"_Static_assert(offsetof({name}, {f['name']}) == {f['offset']}, "
                          f"\"{name}.{f['name']}\");")
    probe = write(tmp_path, "probe.c", '#include "aligned.h"\n' + "\n".join(checks) + "\n")
    proc = subprocess.run(["gcc", abi, "-std=c11", "-fsyntax-only", probe], capture_output=True,
                          text=True)
    if abi == "-m32" and "bits/" in proc.stderr and "No such file" in proc.stderr:
        pytest.skip("gcc -m32 has no i386 libc headers here (libc6-dev-i386)")
    assert proc.returncode == 0, proc.stderr


def test_c_enum_numbering_counts_from_the_previous_constant(tmp_path):
    # C: T_B is T_C + 1 = 1, not one more than the largest value so far.
    header = write(tmp_path, "numbering.h", "#include <stdint.h>\n"
                   "typedef struct T { int32_t tag; } T;\nenum { T_C = 2, T_A = 0, T_B };\n")
    ctors = layout_of(header)["types"][0]["constructors"]
    assert [(c["name"], c["tag"]) for c in ctors] == [("A", 0), ("B", 1), ("C", 2)]


@pytest.mark.parametrize("directive", ['# 1 "elsewhere.h"', "#pragma pack(1)"])
def test_a_hash_in_the_middle_of_a_line_is_stray_where_gcc_says(tmp_path, directive):
    # pycparser honours a line marker or pragma anywhere; C only at the start of a line. Read
    # mid-line, the marker would move the error into a file that does not exist, and the
    # pragma would pack a struct that gcc refuses to compile at all.
    header = write(tmp_path, "stray.h", "typedef struct P {\n  int x; "
                   f"{directive}\n  char c; double y; }} P;\n")
    gcc = subprocess.run(["gcc", "-fsyntax-only", "-x", "c", header], capture_output=True,
                         text=True)
    assert gcc.returncode != 0 and f"{header}:2:10: error: stray" in gcc.stderr, gcc.stderr
    with pytest.raises(SarekLayoutError) as info:
        read_header(header)
    assert str(info.value).startswith(f"{header}:2:10: ")
    assert "stray '#'" in str(info.value)


# --- what is read: the header and the files cpp included, never what a line marker names ------


def test_line_markers_never_choose_what_is_read(tmp_path, monkeypatch):
    import builtins
    import os

    secret = write(tmp_path, "secret.txt", "not a header\n")
    # The struct is the header's; its member, by the marker, is on line 1 of secret.txt.
    header = write(tmp_path, "marker.h", "#include <stdint.h>\ntypedef struct T T;\nstruct T {\n"
                   f"# 1 \"{secret}\"\n  int32_t *p; }};\n")
    opened = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file, *args, **kwargs):
        opened.append(os.fspath(file) if not isinstance(file, int) else file)
        return real_open(file, *args, **kwargs)

    def spy_os_open(file, *args, **kwargs):
        opened.append(os.fspath(file))
        return real_os_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    with pytest.raises(SarekLayoutError) as info:
        read_header(header)
    monkeypatch.undo()
    assert "is a pointer" in str(info.value)
    assert str(info.value).startswith(f"{secret}:1:")  # where the marker says, as gcc does
    assert secret not in opened, "a line marker made the reader open a file cpp never included"


# --- Sarek's newer scalars -------------------------------------------------------------------


def test_generated_headers_of_uint8_and_float16_read_back_to_their_schema(tmp_path, capsys):
    schema = str(ROOT / "tests" / "data" / "pixels.toml")
    assert main(["generate", schema, "-o", str(tmp_path), "-t", "c"]) == 0
    capsys.readouterr()
    assert layout_of(tmp_path / "pixels.h") == layout_of(schema)


@pytest.mark.parametrize("member, scalar", [
    ("uint8_t v;", "uint8"),
    ("unsigned char v;", "uint8"),
    ("sarek_layout_float16 v;", "float16"),
    # The extension scalars (issue 22), which these once refused.
    ("int8_t v;", "int8"),
    ("signed char v;", "int8"),
    ("uint16_t v;", "uint16"),
    ("unsigned short v;", "uint16"),
    ("uint32_t v;", "uint32"),
    ("unsigned v;", "uint32"),
    ("uint64_t v;", "uint64"),
])
def test_uint8_and_the_float16_typedef_are_read(tmp_path, member, scalar):
    path = tmp_path / "t.h"
    path.write_text("#include <stdint.h>\ntypedef uint16_t sarek_layout_float16;\n"
                    f"typedef struct T {{ double d; {member} }} T;\n")
    assert [f.type.name for f in read_header(str(path)).decls[0].fields] == ["float64", scalar]


@pytest.mark.parametrize("member, typedef, fragments", [
    ("_Float16 v;", "", ["before '_Float16' (a float16 is written sarek_layout_float16"]),
    ("__fp16 v;", "", ["before '__fp16' (a float16 is written sarek_layout_float16"]),
    ("char v;", "", ["char has no Sarek layout (whether it is signed depends on the ABI); use "
                     "int8_t or uint8_t"]),
    ("unsigned long v;", "", ["long is 4 or 8 bytes depending on the ABI"]),
    ("sarek_layout_float16 v;", "typedef float sarek_layout_float16;\n",
     ["type sarek_layout_float16, which must be a typedef of uint16_t, not 'float'"]),
    ("sarek_layout_float16 v;", "typedef int16_t sarek_layout_float16;\n", ["not 'int16_t'"]),
])
def test_what_is_not_uint8_or_float16_is_refused_with_how_to_write_it(tmp_path, capsys, member,
                                                                       typedef, fragments):
    path = tmp_path / "t.h"
    path.write_text(f"#include <stdint.h>\n{typedef}typedef struct T {{ int32_t a; {member} }} T;\n")
    assert main(["import-c", str(path)]) == 2
    err = capsys.readouterr().err
    line = 3 if typedef else 2
    assert err.startswith(f"{path}:{line}:") and err.count("\n") == 1, err
    for fragment in fragments:
        assert fragment in err, err
