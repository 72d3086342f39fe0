"""C headers with the member kinds of SPEC §1b (issue 32 item 2): fixed arrays (multi-dimensional,
of scalars, structs and enums, sizes from macros, enum constants and ``sizeof``), ``char``
strings, enum types with their values and enum-typed members, and CUDA's vector types.

Every layout is judged by a compiler on the ORIGINAL header (``helpers.real_headers``: gcc
runs a probe printing sizeof, _Alignof, offsetof, each array stride and each enum value; nvcc
compiles the same numbers as static_asserts, host and device passes), never by numbers the
package computed. The refusals are each judged too: gcc shows the layout the schema could
not hold (an 8-byte enum, a 1-byte packed one, a 4-aligned ``float4``).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from helpers.hostile import check_refused_bounded, run_bounded
from helpers.real_headers import (
    CUDA_INCLUDE,
    compiler_numbers,
    expected_numbers,
    gcc_m32_works,
    gcc_probe,
    i386_differences_by_gcc,
    import_one,
    nvcc_agrees,
    probe_of,
)
from sarek_layout.cli.main import main
from sarek_layout.frontends import read_module
from sarek_layout.frontends.c import CHeaderOptions, read_header
from sarek_layout.resolve import load_schema
from sarek_layout.report import schema_json
from sarek_layout.schema_writers import file_name, to_c

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="judging C layouts needs gcc (apt-get install gcc)")

needs_cuda = pytest.mark.skipif(CUDA_INCLUDE is None,
                                reason="CUDA's vector_types.h is not installed (the CUDA toolkit)")


def _imported(tmp_path, text, name="h.h", include_dirs=()):
    path = tmp_path / name
    path.write_text(text)
    result = import_one(str(path), include_dirs=include_dirs)
    assert result.failure is None, result.failure
    return result, str(path)


def _agrees_with_gcc(result, path, tmp_path, include_dirs=()):
    """Every imported type's numbers are gcc's on the original header."""
    measured = gcc_probe(path, result.imported, result.spellings, str(tmp_path),
                         enumerators=result.enumerators, include_dirs=include_dirs)
    for t in result.imported:
        expected = expected_numbers(t)
        assert {k: measured[k] for k in expected} == expected, t.c_name


def _fields(result):
    return {t.c_name: {m.name: m.spelling for m in t.members}
            for t in result.imported if not t.is_enum}


ARRAYS = """\
#include <stdint.h>
#define N 4
enum { K = N * 2, L = K - 5 };
typedef float vec3_t[3];                      /* an array typedef */
typedef uint16_t sarek_layout_float16;
typedef enum mode { MODE_FAST, MODE_SLOW = 4, MODE_MAX } mode;
typedef struct Inner { int16_t a; double b; } Inner;
typedef struct Arrays {
    float m[4][4];                            /* a matrix, as C writes it: float32[4][4] */
    char name[32];                            /* a byte string */
    uint8_t pad[3];                           /* the kernel's __u8 pad[3] */
    Inner items[3];                           /* an array of structs */
    mode modes[2];                            /* an array of enums */
    double d[N * 2];                          /* a size from a macro */
    int16_t s[sizeof(float) + 1];             /* ... from sizeof */
    int32_t k[K][L];                          /* ... from enum constants */
    vec3_t p;                                 /* through a typedef */
    vec3_t ps[2];                             /* an array of arrays through a typedef */
    sarek_layout_float16 h[2];
    int64_t w[2];
    char names[4][8];
} Arrays;
"""


def test_arrays_of_every_member_kind_are_gcc_s_layout(tmp_path):
    result, path = _imported(tmp_path, ARRAYS)
    assert not result.refusals, [str(r) for r in result.refusals]
    assert _fields(result)["Arrays"] == {
        "m": "float32[4][4]", "name": "char[32]", "pad": "uint8[3]", "items": "Inner[3]",
        "modes": "mode[2]", "d": "float64[8]", "s": "int16[5]", "k": "int32[8][3]",
        "p": "float32[3]", "ps": "float32[2][3]", "h": "float16[2]", "w": "int64[2]",
        "names": "char[4][8]"}
    _agrees_with_gcc(result, path, tmp_path)  # sizes, offsets, every stride, enum values


def test_the_i386_note_knows_arrays(tmp_path):
    # int64_t w[2] and Inner items[3] (a double inside) are 4-aligned under gcc -m32.
    result, path = _imported(tmp_path, ARRAYS)
    if not gcc_m32_works(str(tmp_path)):
        pytest.skip("gcc -m32 does not build here (libc6-dev-i386)")
    assert result.i386 == i386_differences_by_gcc(path, result.imported, result.spellings,
                                                  str(tmp_path))
    assert "Arrays" in result.i386


ENUMS = """\
#include <stdint.h>
#define BIT(n) (1 << (n))
typedef enum color { color_red, color_green = 3, color_blue } color;    /* prefixed */
enum flags { FLAG_A = BIT(0), FLAG_B = BIT(4), FLAG_AB = FLAG_A | FLAG_B, FLAG_NEG = -7,
             FLAG_NEXT, FLAG_HEX = 0x7fffffff };
typedef enum { STEP_ONE = color_blue * 2, STEP_TWO = sizeof(int64_t), STEP_LAST = 10 / 3 } phase;
typedef enum color color_alias;                /* a second name of the same enum */
typedef struct Paint { color c; enum flags f; phase s; color_alias again; phase seq[2]; } Paint;
"""


def test_enum_types_with_their_values_are_gcc_s(tmp_path):
    result, path = _imported(tmp_path, ENUMS)
    assert not result.refusals, [str(r) for r in result.refusals]
    enums = {t.c_name: [(v.name, v.value) for v in t.decl.values]
             for t in result.imported if t.is_enum}
    # The values are checked against gcc below; the names are the header's, less the type's
    # own prefix where every one has it (what to_c and generated headers write).
    assert [n for n, _ in enums["color"]] == ["red", "green", "blue"]
    assert [n for n, _ in enums["flags"]] == ["FLAG_A", "FLAG_B", "FLAG_AB", "FLAG_NEG",
                                             "FLAG_NEXT", "FLAG_HEX"]
    assert all(t.decl.base == "int32" for t in result.imported if t.is_enum)
    assert _fields(result)["Paint"] == {"c": "color", "f": "flags", "s": "phase",
                                        "again": "color", "seq": "phase[2]"}
    _agrees_with_gcc(result, path, tmp_path)


@pytest.mark.parametrize("source, gcc_says, words", [
    ("typedef enum E { E_A = 0x80000000 } E;", ("unsigned", 4),
     "enum constant 'E_A' of 'E' is 2147483648, outside int32"),
    ("typedef enum E { E_A = 0x100000000 } E;", ("size", 8),
     "enum constant 'E_A' of 'E' is 4294967296, outside int32"),
    ("typedef enum __attribute__((packed)) E { E_A, E_B } E;", ("size", 1),
     "enum 'E' is not laid out as an int: an attribute changes its size"),
    ("typedef enum E { E_A } __attribute__((mode(QI))) E;", ("size", 1),
     "enum 'E' is not laid out as an int"),
])
def test_an_enum_not_laid_out_as_an_int_is_refused(tmp_path, capsys, source, gcc_says, words):
    header = tmp_path / "e.h"
    header.write_text("#include <stdint.h>\n" + source + "\ntypedef struct T { int32_t x; } T;\n")
    # gcc on the original: not a 4-byte signed int.
    probe = tmp_path / "p.c"
    probe.write_text(f'#include <stdio.h>\n#include "{header}"\n'
                     'int main(void) { printf("%zu %d\\n", sizeof(E), (E)-1 > 0); }\n')
    subprocess.run(["gcc", "-w", "-o", str(tmp_path / "p"), str(probe)], check=True)
    size, unsigned = map(int, subprocess.run([str(tmp_path / "p")], capture_output=True,
                                             text=True, check=True).stdout.split())
    assert (unsigned == 1) if gcc_says[0] == "unsigned" else (size == gcc_says[1])
    assert main(["import-c", str(header)]) == 1
    out, err = capsys.readouterr()
    assert words in err and "record = \"T\"" in out and "enum =" not in out


CUDA_PARTICLES = """\
#include <vector_types.h>
#include <stdint.h>
typedef struct Inner { int32_t id; float w; } Inner;
typedef struct Particle {
    float4 pos; float4 vel; int2 cell; uchar4 color; float3 normal; double2 d;
    Inner inner; float4 history[3]; short3 s3; ulonglong2 u2; char2 c2;
} Particle;
typedef struct Holder { Inner a; int32_t b; } Holder;   /* holds Inner, which Particle holds */
typedef struct Cold { int32_t x; double y; } Cold;       /* connected to no vector */
"""


@needs_cuda
def test_cuda_vector_types_are_vecn_members_of_the_cuda_rules(tmp_path):
    result, path = _imported(tmp_path, CUDA_PARTICLES, include_dirs=(CUDA_INCLUDE,))
    assert not result.refusals, [str(r) for r in result.refusals]
    rules = {t.c_name: t.rules for t in result.imported}
    # Particle holds vectors; Inner is held by it and Holder holds Inner: one rule set for
    # all three (SPEC §1b refuses mixed rules; cuda is C's for all but vectors).
    assert rules == {"Inner": "cuda", "Particle": "cuda", "Holder": "cuda", "Cold": "c"}
    assert _fields(result)["Particle"] == {
        "pos": "vec4<float32>", "vel": "vec4<float32>", "cell": "vec2<int32>",
        "color": "vec4<uint8>", "normal": "vec3<float32>", "d": "vec2<float64>",
        "inner": "Inner", "history": "vec4<float32>[3]", "s3": "vec3<int16>",
        "u2": "vec2<uint64>", "c2": "vec2<int8>"}
    _agrees_with_gcc(result, path, tmp_path, include_dirs=(CUDA_INCLUDE,))
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed: gcc judged the host layout only")
    cuda = [t for t in result.imported if t.rules == "cuda"]
    nvcc_agrees(path, {t.c_name: probe_of(t, result.spellings, result.enumerators) for t in cuda},
                {k: v for t in cuda for k, v in expected_numbers(t).items()}, str(tmp_path),
                include_dirs=(CUDA_INCLUDE,))


@needs_cuda
def test_the_i386_note_knows_cuda_vectors(tmp_path):
    # vector_types.h pins float4, int2, double2 with alignment attributes, on i386 too; a
    # double3 is aligned as its component, 4 under gcc -m32.
    result, path = _imported(tmp_path, "#include <vector_types.h>\n#include <stdint.h>\n"
                             "typedef struct P { float4 p; int2 c; double3 d3; double2 d; } P;\n"
                             "typedef struct S { int32_t a; double3 d3; } S;\n",
                             include_dirs=(CUDA_INCLUDE,))
    if not gcc_m32_works(str(tmp_path)):
        pytest.skip("gcc -m32 does not build here (libc6-dev-i386)")
    assert result.i386 == ["S"] == i386_differences_by_gcc(
        path, result.imported, result.spellings, str(tmp_path), include_dirs=(CUDA_INCLUDE,))


def test_a_float4_laid_out_otherwise_is_no_cuda_vector(tmp_path):
    # A CPU library's own float4, 4-aligned (CUDA's is 16): the plain struct it is, never a
    # 16-aligned vec4, and gcc agrees with its layout.
    result, path = _imported(tmp_path, "#include <stdint.h>\n"
                             "typedef struct { float x, y, z, w; } float4;\n"
                             "typedef struct P { int32_t n; float4 v; } P;\n")
    assert not result.vectors
    assert _fields(result)["P"] == {"n": "int32", "v": "float4"}
    assert {t.c_name: t.rules for t in result.imported} == {"float4": "c", "P": "c"}
    _agrees_with_gcc(result, path, tmp_path)


@needs_cuda
def test_a_misaligned_cuda_vector_name_stays_a_struct(tmp_path):
    # Named like CUDA's, aligned otherwise (8, CUDA's float4 is 16): not a vector.
    header = tmp_path / "odd.h"
    header.write_text("#include <stdint.h>\n"
                      "typedef struct __attribute__((aligned(8))) { float x, y, z, w; } float4;\n"
                      "typedef struct P { float4 v; } P;\n")
    result = import_one(str(header))
    assert not result.vectors and "P" not in {t.c_name for t in result.imported}


# --- round trips -----------------------------------------------------------------------

ROUND_TRIP = """\
module = "Geo"
[[types]]
enum = "mode"
values = [["Fast", 0], ["Slow", 5], ["Max"]]
[[types]]
record = "item"
fields = [["name", "char[32]"], ["m", "mode"], ["mat", "float32[4][4]"], ["pad", "uint8[3]"],
          ["h", "float16[2]"], ["modes", "mode[2]"], ["w", "int64[2]"]]
[[types]]
record = "bag"
fields = [["items", "item[3]"], ["n", "int32"]]
[[types]]
variant = "shape"
constructors = [["Circle", ["float32[2]", "mode"]], ["Empty"]]
"""


def _layout(*paths, include_dirs=()):
    options = CHeaderOptions(tuple(include_dirs))
    return schema_json(load_schema([str(p) for p in paths], options).types)


def test_a_header_written_by_to_c_reads_back_to_the_same_layout(tmp_path):
    schema = tmp_path / "geo.toml"
    schema.write_text(ROUND_TRIP)
    module = read_module(str(schema))
    header = tmp_path / file_name(module.name, "c")
    header.write_text(to_c(module))
    assert read_header(str(header)).decls == module.decls  # the same declarations
    assert _layout(header) == _layout(schema)  # the same layouts and fingerprints
    # and gcc lays the written header out as the schema says
    result = import_one(str(header))
    _agrees_with_gcc(result, str(header), tmp_path)


@pytest.mark.parametrize("flag", [[], ["--json"]], ids=["toml", "json"])
def test_import_c_output_reads_back_to_the_same_fingerprints(tmp_path, capsys, flag):
    header = tmp_path / "arrays.h"
    header.write_text(ARRAYS + ENUMS.split("\n", 1)[1])
    assert main(["import-c", str(header), *flag]) == 0
    schema = tmp_path / ("arrays.json" if flag else "arrays.toml")
    schema.write_text(capsys.readouterr().out)
    assert _layout(schema) == _layout(header)


@needs_cuda
def test_a_cuda_schema_round_trips_through_import_c_and_to_c(tmp_path, capsys):
    header = tmp_path / "particles.h"
    header.write_text(CUDA_PARTICLES)
    include = ["-I", CUDA_INCLUDE]
    assert main(["import-c", str(header), "--json", *include]) == 0
    schema = tmp_path / "particles.json"
    schema.write_text(capsys.readouterr().out)
    assert json.loads(schema.read_text())["types"][1]["rules"] == "cuda"
    written = tmp_path / "again" / "types.h"
    written.parent.mkdir()
    written.write_text(to_c(read_module(str(schema))))
    for doc in (_layout(schema), _layout(written, include_dirs=[CUDA_INCLUDE])):
        assert doc == _layout(header, include_dirs=[CUDA_INCLUDE])


# --- hostile headers: exit 2, one line, nothing written, bounded CPU -------------------

@pytest.mark.parametrize("command", ["import-c", "generate"])
@pytest.mark.parametrize("name, text, where, fragments", [
    ("enum_1000000", "typedef enum E {\n" + "".join(f"  E_{i},\n" for i in range(1_000_000))
     + "} E;\n", "1:9", ["an enum of more than 100000 values"]),
    ("dimensions_100000", "typedef struct T { int a" + "[1]" * 100_000 + "; } T;\n", "1:25",
     ["nested too deeply (more than 100 array dimensions"]),
    ("array_typedefs_20000", "typedef int t0;\n"
     + "".join(f"typedef t{i} t{i + 1}[1];\n" for i in range(20_000))
     + "typedef struct T { t20000 p; } T;\n", "20002:27",
     ["member 'p' of 'T' is an array of 20000 dimensions; a struct member has at most 8"]),
])
def test_a_hostile_header_is_refused_in_one_line_in_bounded_time(tmp_path, command, name, text,
                                                                 where, fragments):
    header = tmp_path / f"{name}.h"
    header.write_text(text)
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{header}:{where}: error: ",
                          fragments, command=command)


def test_an_enum_at_the_limit_imports_in_bounded_time(tmp_path):
    # 100,000 enumerators (the limit): read, evaluated and written in linear time.
    header = tmp_path / "big.h"
    header.write_text("typedef enum E {\n" + "".join(f"  E_{i},\n" for i in range(100_000))
                      + "} E;\ntypedef struct T { E e[2]; } T;\n")
    proc = run_bounded(["-m", "sarek_layout", "import-c", str(header), "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    doc = json.loads(proc.stdout)
    assert doc["types"][0]["values"][-1] == ["E_99999", 99999]
    assert doc["types"][1]["fields"] == [["e", "E[2]"]]


def test_a_large_array_costs_what_one_element_costs(tmp_path):
    # float a[2147483647 / 4] is one member: laid out and written without a loop over its
    # elements (the largest type that compiles on every 32-bit ABI).
    header = tmp_path / "big.h"
    header.write_text("typedef struct T { float a[536870911]; } T;\n")
    proc = run_bounded(["-m", "sarek_layout", "layout", "--json", str(header)], tmp_path,
                       timeout=10)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert json.loads(proc.stdout)["types"][0]["size"] == 536870911 * 4
