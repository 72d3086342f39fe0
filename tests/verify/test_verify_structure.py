"""The pycparser structure check of hand-written headers: what it accepts, what it names.

No compiler runs here except the C preprocessor. Messages are compared in full, since a
person acts on them.
"""

from __future__ import annotations

import pytest

from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.verify.structure import check_headers

from helpers.verify import DATA, EXAMPLES, schema_of


@pytest.fixture(scope="module")
def geometry():
    return load_schema([str(EXAMPLES / "geometry.toml")])


def _check(tmp_path, schema, text, name="h.h"):
    path = tmp_path / name
    path.write_text("#include <stdint.h>\n" + text if name.endswith(".h") else text)
    problems, passed = check_headers([str(path)], schema.types)
    return [p.message for p in problems], [t.c_name for t in passed]


_POINT = "typedef struct Geometry_point { float x; float y; } Geometry_point;\n"
_PARTICLE = ("typedef struct Geometry_particle { int32_t id; int32_t _sarek_pad0; double mass; "
             "Geometry_point pos; int32_t alive; int32_t _sarek_pad1; } Geometry_particle;\n")
_SHAPE = ("typedef struct Geometry_shape { int32_t tag; int32_t _sarek_pad0; union { "
          "struct { Geometry_point _0; float _1; } Circle_v; "
          "struct { Geometry_point _0; Geometry_point _1; } Rect_v; "
          "struct { double _0; int32_t _1; } Weighted_v; } data; } Geometry_shape;\n")


def test_spec_shape_passes(tmp_path, geometry):
    assert _check(tmp_path, geometry, _POINT + _PARTICLE + _SHAPE) == (
        [], ["Geometry_point", "Geometry_particle", "Geometry_shape"])


def test_separate_tag_and_typedef_and_own_typedefs_pass(tmp_path, geometry):
    text = ("typedef float real;\nstruct Geometry_point { real x; float y; };\n"
            "typedef struct Geometry_point Geometry_point;\n" + _PARTICLE + _SHAPE)
    assert _check(tmp_path, geometry, text)[0] == []


@pytest.mark.parametrize("old, new, message", [
    ("double mass", "long mass",
     "Geometry_particle.mass: header says long, schema says float64 (write double)"),
    ("int32_t alive", "long alive",
     "Geometry_particle.alive: header says long, schema says bool (long is 4 bytes on i386 "
     "and armhf: write int32_t)"),
    ("int32_t alive", "_Bool alive",
     "Geometry_particle.alive: header says _Bool, schema says bool (C bool is 1 byte, a Sarek "
     "bool is 4: write int32_t)"),
    ("Geometry_point pos", "float pos[2]",
     "Geometry_particle.pos: header says float[2], schema says Geometry_point (record point)"),
    ("int32_t id; int32_t _sarek_pad0; double mass",
     "int32_t _sarek_pad0; double mass; int32_t id",
     "Geometry_particle: members of Geometry_particle are in the order mass, id, pos, alive; "
     "the schema says id, mass, pos, alive"),
    ("int32_t alive;", "int32_t alive; float extra;",
     "Geometry_particle.extra: in the header but not in the schema"),
    ("int32_t alive;", "",
     "Geometry_particle.alive: missing from the header (schema members: id, mass, pos, alive)"),
])
def test_record_problems_are_named(tmp_path, geometry, old, new, message):
    messages, passed = _check(tmp_path, geometry, _POINT + _PARTICLE.replace(old, new) + _SHAPE)
    assert messages == [message]


def test_scalar_type_mismatch_is_still_probed_but_a_missing_member_is_not(tmp_path, geometry):
    wrong = _check(tmp_path, geometry, _POINT + _PARTICLE.replace("double mass", "float mass") + _SHAPE)
    assert "Geometry_particle" in wrong[1]
    missing = _check(tmp_path, geometry, _POINT + _PARTICLE.replace("double mass;", "") + _SHAPE)
    assert "Geometry_particle" not in missing[1]


@pytest.mark.parametrize("old, new, message", [
    ("Rect_v;", "Rect;",
     "Geometry_shape.data.Rect_v: missing from the header (schema members: Circle_v, Rect_v, "
     "Weighted_v)"),
    ("float _1; } Circle_v", "double _1; } Circle_v",
     "Geometry_shape.data.Circle_v._1: header says double, schema says float32 (write float)"),
    ("union {", "struct {",
     "Geometry_shape.data: header says struct, schema says a union of the constructors with "
     "arguments (Circle_v, Rect_v, Weighted_v)"),
])
def test_variant_problems_are_named(tmp_path, geometry, old, new, message):
    messages, _ = _check(tmp_path, geometry, _POINT + _PARTICLE + _SHAPE.replace(old, new))
    assert message in messages


def test_missing_type_names_the_header(tmp_path, geometry):
    messages, passed = _check(tmp_path, geometry, _POINT + _PARTICLE)
    assert messages == ["Geometry_shape: not declared in the header (schema type Geometry.shape, "
                        "a variant; expected `typedef struct Geometry_shape {…} Geometry_shape;` "
                        "with tag and data)"]
    assert passed == ["Geometry_point", "Geometry_particle"]


def test_opencl_spellings(tmp_path):
    schema = load_schema([str(DATA / "wide.toml")])
    ok = tmp_path / "ok.clh"
    ok.write_text("typedef struct Plain_wide { int id; int _sarek_pad0; long count; } Plain_wide;\n")
    assert check_headers([str(ok)], schema.types)[0] == []
    problems, passed = check_headers([str(DATA / "plain_longlong.clh")], schema.types)
    assert [p.message for p in problems] == [
        "Plain_wide.count: header says long long, schema says int64 (long long is 16 bytes in "
        "OpenCL C: write long)"]
    assert str(problems[0]).startswith(str(DATA / "plain_longlong.clh") + ":5:")


def test_generated_style_cuda_header_parses(tmp_path):
    schema = load_schema([str(DATA / "plain.toml")])
    cuh = tmp_path / "p.cuh"
    cuh.write_text(
        "#ifdef __CUDACC_RTC__\ntypedef int int32_t;\n#else\n#include <stdint.h>\n#endif\n"
        "typedef struct Plain_mixed { int32_t id; unsigned char _sarek_pad0[4]; "
        "alignas(8) double mass; } Plain_mixed;\n"
        "static_assert(alignof(Plain_mixed) == 8, \"align\");\n"
        "static inline __host__ __device__ Plain_mixed make(void) { Plain_mixed v = {}; return v; }\n")
    assert check_headers([str(cuh)], schema.types) == ([], list(schema.types))


def test_unparsable_header_raises_schema_error_with_place(tmp_path, geometry):
    with pytest.raises(SchemaError) as e:
        _check(tmp_path, geometry, "typedef struct Geometry_point { float x float y; } P;\n")
    assert str(e.value).startswith(f"{tmp_path / 'h.h'}:2:")


# --- what the compilers may probe (issue #12) --------------------------------------------------

_NESTED = [
    ("record", "point", [("x", "float32"), ("y", "float32")]),
    ("record", "holder", [("p", "point"), ("n", "int32")]),
    ("record", "deep", [("h", "holder")]),
    ("record", "mixed", [("id", "int32"), ("mass", "float64")]),
]

#: point lacks y; mixed.mass has the wrong type; holder and deep are right as written.
NESTED_HEADER = (
    "#include <stdint.h>\n"
    "typedef struct Conf_point { float x; } Conf_point;\n"
    "typedef struct Conf_holder { Conf_point p; int32_t n; } Conf_holder;\n"
    "typedef struct Conf_deep { Conf_holder h; } Conf_deep;\n"
    "typedef struct Conf_mixed { int32_t id; float mass; } Conf_mixed;\n"
)


def test_types_containing_a_broken_record_are_left_out_and_the_rest_is_probed(tmp_path):
    """A probe of holder.p.y cannot compile when point lacks y: holder, and deep around it,
    are left out of the compile (each saying why), and mixed is still probed."""
    schema = schema_of(_NESTED, tmp_path / "schema")
    header = tmp_path / "n.h"
    header.write_text(NESTED_HEADER)
    problems, passed = check_headers([str(header)], schema.types)
    assert [p.message for p in problems] == [
        "Conf_point.y: missing from the header (schema members: x, y)",
        "Conf_mixed.mass: header says float, schema says float64 (write double)",
        "Conf_holder: left out of the compile: it contains Conf_point, whose declaration does "
        "not match the schema",
        "Conf_deep: left out of the compile: it contains Conf_holder, whose declaration does "
        "not match the schema",
    ]
    assert [t.c_name for t in passed] == ["Conf_mixed"]


def test_a_record_member_must_be_the_struct_the_declaration_names(tmp_path):
    """Two modules declare point alike: B.holder.p is B_point, and A_point is wrong there,
    even though the two records are structurally equal."""
    a = tmp_path / "a.toml"
    a.write_text('module = "A"\n[[types]]\nrecord = "point"\nfields = [["x", "float32"]]\n')
    b = tmp_path / "b.toml"
    b.write_text('module = "B"\n[[types]]\nrecord = "point"\nfields = [["x", "float32"]]\n'
                 '[[types]]\nrecord = "holder"\nfields = [["p", "point"]]\n')
    schema = load_schema([str(a), str(b)])
    header = tmp_path / "ab.h"
    text = ("typedef struct A_point { float x; } A_point;\n"
            "typedef struct B_point { float x; } B_point;\n"
            "typedef struct B_holder { B_point p; } B_holder;\n")
    header.write_text(text)
    assert check_headers([str(header)], schema.types) == ([], list(schema.types))
    header.write_text(text.replace("{ B_point p; }", "{ A_point p; }"))
    problems, passed = check_headers([str(header)], schema.types)
    assert [p.message for p in problems] == [
        "B_holder.p: header says A_point, schema says B_point (record point)"]
    assert [t.c_name for t in passed] == ["A_point", "B_point"]


def test_a_bit_field_member_is_reported_and_not_probed(tmp_path):
    """offsetof cannot name a bit-field: probing one would break the whole compile."""
    schema = schema_of([("record", "r", [("a", "int32"), ("b", "int32")])], tmp_path / "s")
    header = tmp_path / "bf.h"
    header.write_text("#include <stdint.h>\n"
                      "typedef struct Conf_r { int32_t a; int32_t b : 32; } Conf_r;\n")
    problems, passed = check_headers([str(header)], schema.types)
    assert [str(p) for p in problems] == [
        f"{header}:2:44: Conf_r.b: header declares a bit-field, schema says a whole int32"]
    assert passed == []


# --- Sarek's newer scalars: each target's spellings of uint8 and float16 ----------------------

_TINY = ("typedef struct Tiny_t {{ {b} b; {b} pad_; {h} h; }} Tiny_t;\n")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "tiny.json"
    path.write_text('{"module": "Tiny", "types": [{"record": "t", "fields": '
                    '[["b", "uint8"], ["pad_", "uint8"], ["h", "float16"]]}]}')
    return load_schema([str(path)])


@pytest.mark.parametrize("name, prelude, b, h", [
    ("t.h", "typedef uint16_t sarek_layout_float16;\n", "uint8_t", "sarek_layout_float16"),
    ("t.h", "typedef unsigned short sarek_layout_float16;\n", "unsigned char", "sarek_layout_float16"),
    ("t.cuh", "#include <stdint.h>\ntypedef uint16_t sarek_layout_float16;\n", "uint8_t",
     "sarek_layout_float16"),
    ("t.clh", "typedef ushort sarek_layout_float16;\n", "uchar", "sarek_layout_float16"),
])
def test_uint8_and_float16_spellings_per_target(tmp_path, tiny, name, prelude, b, h):
    assert _check(tmp_path, tiny, prelude + _TINY.format(b=b, h=h), name) == ([], ["Tiny_t"])


@pytest.mark.parametrize("name, prelude, b, h, message", [
    ("t.h", "", "uint8_t", "uint16_t",
     "Tiny_t.h: header says uint16_t, schema says float16 (16 unsigned bits do not say they are "
     "a float16's: write sarek_layout_float16)"),
    ("t.clh", "", "uchar", "ushort",
     # ushort is read as written now that it is a spelling (of uint16, in OpenCL C)
     "Tiny_t.h: header says ushort, schema says float16 (16 unsigned bits do not say they are "
     "a float16's: write sarek_layout_float16)"),
    ("t.clh", "typedef ushort sarek_layout_float16;\n", "char", "sarek_layout_float16",
     "Tiny_t.b: header says char, schema says uint8 (write uchar)"),
    ("t.h", "typedef uint16_t sarek_layout_float16;\n", "int8_t", "sarek_layout_float16",
     "Tiny_t.b: header says int8_t, schema says uint8 (write uint8_t)"),
])
def test_uint8_and_float16_near_misses(tmp_path, tiny, name, prelude, b, h, message):
    messages = _check(tmp_path, tiny, prelude + _TINY.format(b=b, h=h), name)[0]
    assert messages[0] == message  # (and the same for pad_ when the uint8s are wrong)
    assert len(messages) == (2 if message.startswith("Tiny_t.b") else 1)
