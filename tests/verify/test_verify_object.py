"""``sarek-layout verify --object``: the DWARF of objects built here, by every compiler, from
the generated headers (they agree) and from deliberately wrong ones (each caught, naming the
member); archives, shared libraries, executables, DWARF 2 to 5 and type units; the pytest
fixture; and hostile files (one line, exit 2, never a traceback or a hang).

The objects are compiled by real compilers in the tests; the expected numbers are the
layout's, the measured ones the compiler's own DWARF.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

from helpers.common import EXAMPLES, require_toolchain
from sarek_layout.cli.main import main

pytest.importorskip("elftools", reason="pyelftools not installed: pip install pyelftools")

GEOMETRY = EXAMPLES / "geometry.toml"
USE = "Geometry_particle g_particle; Geometry_shape g_shape; Geometry_point g_point;\n"
#: Stands for a hand-edited copy whose compile-time checks were removed (they would stop
#: every wrong build below at compile time).
NO_ASSERTS = "#define _Static_assert(...)\n"

#: A hand-written header with natural C layout (no alignment specifiers, no padding members):
#: right on x86-64, wrong wherever double is not 8-aligned in structs.
NATURAL = """\
#include <stdint.h>
typedef struct Geometry_point { float x; float y; } Geometry_point;
typedef struct Geometry_particle { int32_t id; double mass; Geometry_point pos; int32_t alive; } Geometry_particle;
typedef struct Geometry_shape {
    int32_t tag;
    union {
        struct { Geometry_point _0; float _1; } Circle_v;
        struct { Geometry_point _0; Geometry_point _1; } Rect_v;
        struct { double _0; int32_t _1; } Weighted_v;
    } data;
} Geometry_shape;
"""


@pytest.fixture(scope="module")
def header(tmp_path_factory) -> pathlib.Path:
    """The generated C header of the example (``generate``, as a user would run it)."""
    out = tmp_path_factory.mktemp("gen")
    assert main(["generate", str(GEOMETRY), "-o", str(out), "-t", "c", "-t", "cuda"]) == 0
    return out / "geometry.h"


def compile_object(toolchain: str, source: str, folder: pathlib.Path, *flags: str,
                   name: str = "use", suffix: str = ".c") -> pathlib.Path:
    """``source`` compiled with ``-g -c`` by a toolchain of the registry (its flags)."""
    tc = require_toolchain(toolchain)
    src = folder / f"{name}{suffix}"
    src.write_text(source)
    obj = folder / f"{name}.o"
    proc = subprocess.run([*tc.argv, "-g", *flags, "-c", str(src), "-o", str(obj)],
                          capture_output=True, text=True, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return obj


def verify(capsys, *argv) -> tuple:
    status = main(["verify", str(GEOMETRY), *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def objects_in(folder: pathlib.Path, header: pathlib.Path) -> pathlib.Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(header, folder / header.name)
    return folder


# --- agreeing builds ---------------------------------------------------------------------------

BUILDS = [
    ("gcc", ()), ("gcc", ("-gdwarf-2",)), ("gcc", ("-gdwarf-4",)), ("gcc", ("-gdwarf-5",)),
    ("clang", ()), ("clang", ("-gdwarf-4",)), ("gcc-m32", ()), ("gcc-m32", ("-malign-double",)),
    ("g++", ()), ("aarch64", ()), ("armhf", ()), ("ppc64", ()), ("s390x", ()),
]


@pytest.mark.parametrize("toolchain, flags", BUILDS, ids=[f"{t}{''.join(f)}" for t, f in BUILDS])
def test_generated_header_objects_agree(header, tmp_path, capsys, toolchain, flags):
    folder = objects_in(tmp_path, header)
    obj = compile_object(toolchain, f'#include "geometry.h"\n{USE}', folder, *flags)
    status, out, err = verify(capsys, "--object", obj)
    assert (status, err) == (0, ""), out + err
    assert f"{obj}  agrees (3 types, " in out
    assert out.rstrip().endswith("1 of 1 object agree with the layout of 3 types")


def test_clang_i386_and_big_endian_targets_agree(header, tmp_path, capsys):
    """clang as a cross compiler: i386, and big-endian ppc64 (byte order read from ELF)."""
    require_toolchain("clang")
    folder = objects_in(tmp_path, header)
    objs = []
    for i, target in enumerate(["i386-linux-gnu", "powerpc64-linux-gnu", "s390x-linux-gnu"]):
        objs.append(compile_object("clang", f'#include "geometry.h"\n{USE}', folder,
                                   f"--target={target}", "-ffreestanding", name=f"c{i}"))
    status, out, _ = verify(capsys, *[a for o in objs for a in ("--object", o)])
    assert status == 0, out
    assert out.rstrip().endswith("3 of 3 objects agree with the layout of 3 types")


def test_nvcc_host_object_agrees(tmp_path_factory, header, capsys):
    require_toolchain("nvcc")
    folder = tmp_path_factory.mktemp("nvcc")
    shutil.copy(header.with_suffix(".cuh"), folder / "geometry.cuh")
    obj = compile_object("nvcc", f'#include "geometry.cuh"\n{USE}'
                         "__global__ void k(Geometry_shape *s) { s->tag = 1; }\n",
                         folder, suffix=".cu")
    status, out, _ = verify(capsys, "--object", obj)
    assert status == 0, out
    assert "agrees (3 types, " in out


def test_archives_shared_libraries_executables_and_type_units(header, tmp_path, capsys):
    require_toolchain("gcc")
    folder = objects_in(tmp_path, header)
    a = compile_object("gcc", f'#include "geometry.h"\n{USE}', folder, name="a")
    b = compile_object("gcc", "int unrelated(void) { return 1; }\n", folder, name="b")
    subprocess.run(["ar", "rcs", str(folder / "libgeo.a"), str(a), str(b)], check=True)
    src = folder / "a.c"
    main_c = folder / "main.c"
    main_c.write_text("int main(void) { return 0; }\n")
    built = {"libgeo.a": folder / "libgeo.a"}
    for name, flags in (("libgeo.so", ["-shared", "-fPIC"]), ("exe", []),
                        ("exe-types4", ["-gdwarf-4", "-fdebug-types-section"]),
                        ("exe-types5", ["-gdwarf-5", "-fdebug-types-section"])):
        extra = [] if name.endswith(".so") else [str(main_c)]
        subprocess.run(["gcc", "-std=c11", "-g", *flags, str(src), *extra, "-o",
                        str(folder / name)], check=True, cwd=folder)
        built[name] = folder / name
    status, out, _ = verify(capsys, *[a for p in built.values() for a in ("--object", p)])
    assert status == 0, out
    for path in built.values():
        assert f"{path}" in out
    assert "5 of 5 objects agree" in out
    # In an object file, type units sit in COMDAT sections that cannot be told apart.
    obj = compile_object("gcc", f'#include "geometry.h"\n{USE}', folder, "-gdwarf-5",
                         "-fdebug-types-section", name="tu")
    status, out, err = verify(capsys, "--object", obj)
    assert status == 2 and out == ""
    assert "-fdebug-types-section" in err and "verify the linked binary" in err


def test_typedef_chains_and_anonymous_structs(tmp_path, capsys):
    source = textwrap.dedent("""\
        #include <stdint.h>
        typedef struct tagged_point { float x; float y; } base_point;
        typedef base_point middle_point;
        typedef middle_point Geometry_point;            /* three typedefs deep */
        typedef struct { int32_t id; int32_t pad_; double mass; Geometry_point pos;
                         int32_t alive; int32_t pad2_; } Geometry_particle;  /* anonymous */
        Geometry_point p; Geometry_particle q;
        """)
    obj = compile_object("gcc", source, tmp_path)
    status, out, _ = verify(capsys, "--object", obj)
    # Everything agrees but the two extra members someone added by hand.
    assert status == 1
    assert "Geometry_particle.pad_: the layout has no such member, " in out
    assert "Geometry_point" not in out.split("value(s) differ")[1].split("\n\n")[0]
    assert "Geometry_shape: not found in " in out


# --- wrong builds: each caught, naming the member ----------------------------------------------


def test_pragma_pack_copy_is_caught(header, tmp_path, capsys):
    folder = tmp_path
    packed = header.read_text().replace("#include <stdint.h>", "#include <stdint.h>\n#pragma pack(4)")
    (folder / "geometry.h").write_text(packed)
    obj = compile_object("gcc", f'{NO_ASSERTS}#include "geometry.h"\n{USE}', folder)
    status, out, _ = verify(capsys, "--object", obj)
    assert status == 1
    assert f"Geometry_particle.mass: layout says alignment 8, {obj} says 4" in out
    assert f"Geometry_particle: layout says alignment 8, {obj} says 4" in out
    assert f"Geometry_shape.data: layout says alignment 8, {obj} says 4" in out


def test_fpack_struct_build_is_caught(header, tmp_path, capsys):
    folder = objects_in(tmp_path, header)
    obj = compile_object("gcc", f'{NO_ASSERTS}#include "geometry.h"\n{USE}', folder,
                         "-fpack-struct")
    status, out, _ = verify(capsys, "--object", obj)
    assert status == 1
    assert f"Geometry_shape.data: layout says alignment 8, {obj} says 1" in out
    natural = compile_object("gcc", NATURAL + USE, folder, "-fpack-struct", name="natural")
    status, out, _ = verify(capsys, "--object", natural)
    assert status == 1
    assert f"Geometry_particle.mass: layout says offset 8, {natural} says 4" in out
    assert f"Geometry_particle: layout says size 32, {natural} says 24" in out


def test_i386_without_malign_double_is_caught(tmp_path, capsys):
    """A natural header is wrong on i386 (double 4-aligned in structs) and right with
    -malign-double: the object says which build a project really made."""
    wrong = compile_object("gcc-m32", NATURAL + USE, tmp_path, name="plain")
    status, out, _ = verify(capsys, "--object", wrong)
    assert status == 1
    assert f"Geometry_particle.mass: layout says offset 8, {wrong} says 4" in out
    assert f"Geometry_shape.data.Weighted_v._1: layout says offset 16, {wrong} says 12" in out
    right = compile_object("gcc-m32", NATURAL + USE, tmp_path, "-malign-double", name="aligned")
    status, out, _ = verify(capsys, "--object", right)
    assert status == 0, out


def test_hand_edited_member_types_are_caught(header, tmp_path, capsys):
    text = header.read_text()
    same_width = text.replace("    float y; /* offset 4 */", "    int32_t y; /* offset 4 */")
    narrower = text.replace("SAREK_LAYOUT_ALIGN8 double mass;", "SAREK_LAYOUT_ALIGN8 float mass;")
    assert same_width != text and narrower != text
    for name, edited in (("same", same_width), ("narrow", narrower)):
        (tmp_path / "geometry.h").write_text(edited)
        compile_object("gcc", f'{NO_ASSERTS}#include "geometry.h"\n{USE}', tmp_path, name=name)
    status, out, _ = verify(capsys, "--object", tmp_path / "same.o")
    assert status == 1
    assert (f"Geometry_point.y: layout says type float32, {tmp_path / 'same.o'} says "
            f"int32_t (4-byte signed integer)") in out
    status, out, _ = verify(capsys, "--object", tmp_path / "narrow.o")
    assert status == 1
    assert f"Geometry_particle.mass: layout says member size 8, {tmp_path / 'narrow.o'} says 4" in out
    assert "Geometry_particle.mass: layout says type float64" not in out  # float is a float


def test_missing_and_renamed_members_and_arms(tmp_path, capsys):
    text = NATURAL.replace("int32_t alive;", "int32_t is_alive;").replace(
        "} Rect_v;", "} Rectangle_v;")
    obj = compile_object("gcc", text + USE, tmp_path)
    status, out, _ = verify(capsys, "--object", obj)
    assert status == 1
    assert (f"Geometry_particle.alive: the layout has it (bool at offset 24), {obj} has no "
            f"such member") in out
    assert (f"Geometry_particle.is_alive: the layout has no such member, {obj} has one "
            f"(int32_t at offset 24)") in out
    assert f"Geometry_shape.data.Rect_v: the layout has it (constructor Rect), {obj}" in out
    assert f"Geometry_shape.data.Rectangle_v: the layout has no such arm, {obj} has one" in out


# --- what is not there -------------------------------------------------------------------------


def test_types_not_in_an_object_are_reported(header, tmp_path, capsys):
    folder = objects_in(tmp_path, header)
    obj = compile_object("gcc", '#include "geometry.h"\nGeometry_point only;\n', folder)
    status, out, _ = verify(capsys, "--object", obj)
    assert status == 0, out
    assert f"Geometry_particle: not found in {obj}" in out
    assert f"Geometry_shape: not found in {obj}" in out
    # DWARF keeps only the types code uses: none used is a failed check, with the hint.
    unused = compile_object("gcc", '#include "geometry.h"\nint nothing;\n', folder, name="unused")
    status, out, _ = verify(capsys, "--object", unused)
    assert status == 1
    assert "no schema type is in any object" in out and "-fno-eliminate-unused-debug-types" in out
    kept = compile_object("gcc", '#include "geometry.h"\nint nothing;\n', folder,
                          "-fno-eliminate-unused-debug-types", name="kept")
    assert verify(capsys, "--object", kept)[0] == 0


def test_refuses_files_without_dwarf_or_not_elf(tmp_path, capsys):
    tc = require_toolchain("gcc")
    src = tmp_path / "x.c"
    src.write_text("int x;\n")
    subprocess.run([*tc.argv, "-c", str(src), "-o", str(tmp_path / "x.o")], check=True)
    cases = {
        tmp_path / "x.o": "no DWARF debugging information; compile with -g",
        GEOMETRY: "not an ELF object, static library (.a), shared library or executable",
        tmp_path / "missing.o": "cannot read (No such file or directory)",
        tmp_path: "not a regular file",
        tmp_path / "fifo": "not a regular file",  # opening it would block
    }
    os.mkfifo(tmp_path / "fifo")
    for path, message in cases.items():
        status, out, err = verify(capsys, "--object", path)
        assert status == 2 and out == "", (path, out)
        assert err.startswith(f"sarek-layout: error: {path}: ") and message in err, err
        assert len(err.strip().splitlines()) == 1


def test_object_and_compilers_together(header, tmp_path, capsys):
    require_toolchain("gcc")
    folder = objects_in(tmp_path, header)
    obj = compile_object("gcc", f'#include "geometry.h"\n{USE}', folder)
    status, out, _ = verify(capsys, "--object", obj, "--toolchain", "gcc")
    assert status == 0
    assert "agrees (3 types" in out and "1 of 1 toolchain agree" in out


# --- the pytest fixture --------------------------------------------------------------------------


def test_fixture_checks_objects(sarek_verify, header, tmp_path):
    folder = objects_in(tmp_path, header)
    good = compile_object("gcc", f'#include "geometry.h"\n{USE}', folder)
    report = sarek_verify(str(GEOMETRY), objects=[good])
    assert report.ok and report.results[0].types_found == 3
    bad = compile_object("gcc-m32", NATURAL + USE, folder, name="bad")
    with pytest.raises(pytest.fail.Exception) as caught:
        sarek_verify(str(GEOMETRY), objects=[bad])
    assert "Geometry_particle.mass: layout says offset 8" in str(caught.value)


# --- hostile files -------------------------------------------------------------------------------

FUZZ = """
import random, sys
from sarek_layout.errors import SarekLayoutError
from sarek_layout.verify.dwarf import read_object
data = open(sys.argv[1], "rb").read()
rng = random.Random(int(sys.argv[3]))
names = ["Geometry_point", "Geometry_particle", "Geometry_shape"]
for i in range(int(sys.argv[2])):
    mutated = bytearray(data)
    for _ in range(rng.choice([1, 4, 32])):
        mutated[rng.randrange(len(mutated))] = rng.randrange(256)
    if rng.random() < 0.2:
        mutated = mutated[: rng.randrange(len(mutated))]
    path = sys.argv[1] + ".fuzz"
    open(path, "wb").write(mutated)
    try:
        read_object(path, names)
    except SarekLayoutError as e:
        assert "\\n" not in str(e), str(e)
print("ok")
"""


def _limited():  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_corrupted_objects_never_traceback_or_hang(header, tmp_path):
    """Random byte flips and truncations of a real object: each is read or refused with one
    line, within a generous timeout and 2 GiB of memory."""
    folder = objects_in(tmp_path, header)
    obj = compile_object("gcc", f'#include "geometry.h"\n{USE}', folder)
    count = int(os.environ.get("SAREK_FUZZ_EXAMPLES", "150"))
    proc = subprocess.run([sys.executable, "-c", FUZZ, str(obj), str(count), "7"],
                          capture_output=True, text=True, timeout=600, preexec_fn=_limited)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]


def test_huge_claims_are_refused_quickly(tmp_path, capsys):
    """An ELF header that claims a giant debug section, and a sparse 8 GiB file: refused
    with one line, without reading them."""
    obj = compile_object("gcc", "int used;\nstruct Geometry_point { float x, y; } p;\n", tmp_path)
    data = bytearray(obj.read_bytes())
    import struct

    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    strtab_off, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        base = shoff + i * shentsize
        name_off, = struct.unpack_from("<I", data, base)
        name = data[strtab_off + name_off:data.index(b"\0", strtab_off + name_off)]
        if name == b".debug_info":
            struct.pack_into("<Q", data, base + 0x20, 1 << 40)  # sh_size: 1 TiB
    big = tmp_path / "big.o"
    big.write_bytes(bytes(data))
    status, out, err = verify(capsys, "--object", big)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "bytes of debug sections, more than the" in err
    sparse = tmp_path / "sparse.o"
    with open(sparse, "wb") as f:
        f.write(obj.read_bytes()[:64])
        f.truncate(8 << 30)
    status, out, err = verify(capsys, "--object", sparse)
    assert status == 2 and len(err.strip().splitlines()) == 1, err


def test_archive_oddities(tmp_path, capsys):
    """A malformed archive, a thin one and one with no ELF member are refused in one line."""
    cases = {
        "bad.a": (b"!<arch>\n" + b"x" * 70, "malformed archive"),
        "thin.a": (b"!<thin>\n", "a thin archive"),
        "text.a": (b"!<arch>\n" + b"notes.txt/      0           0     0     644     4         `\n"
                   b"abcd", "an archive without ELF objects"),
    }
    for name, (content, message) in cases.items():
        (tmp_path / name).write_bytes(content)
        status, out, err = verify(capsys, "--object", tmp_path / name)
        assert status == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_long_archive_member_names(tmp_path):
    """GNU long member names (over 15 characters) are read from the // table."""
    require_toolchain("gcc")
    from sarek_layout.verify.dwarf import read_object

    obj = compile_object("gcc", "typedef struct Geometry_point { float x, y; } Geometry_point;\n"
                         "Geometry_point p;\n", tmp_path, name="a_rather_long_object_name")
    subprocess.run(["ar", "rcs", str(tmp_path / "lib.a"), str(obj)], check=True)
    images = read_object(str(tmp_path / "lib.a"), ["Geometry_point"])
    assert [i.label for i in images] == [f"{tmp_path / 'lib.a'}(a_rather_long_object_name.o)"]
    assert images[0].structs["Geometry_point"]



# --- Sarek's newer scalars, and a constructor whose one argument is a record ------------------

PIXELS = pathlib.Path(__file__).resolve().parents[1] / "data" / "pixels.toml"
PIXELS_USE = ("Pixels_rgb g_rgb; Pixels_texel g_texel; Pixels_sample g_sample; "
              "Pixels_value g_value; Pixels_small g_small;\n")


@pytest.fixture(scope="module")
def pixels_header(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("pixels")
    assert main(["generate", str(PIXELS), "-o", str(out), "-t", "c", "-t", "cuda"]) == 0
    return out / "pixels.h"


def verify_pixels(capsys, *argv) -> tuple:
    status = main(["verify", str(PIXELS), *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("toolchain, flags", [
    ("gcc", ()), ("clang", ()), ("gcc-m32", ()), ("g++", ()), ("aarch64", ()), ("armhf", ()),
    ("ppc64", ()), ("s390x", ())])
def test_uint8_and_float16_objects_agree(pixels_header, tmp_path, capsys, toolchain, flags):
    """uint8 members are 1-byte unsigned chars in DWARF, float16 ones the 16 unsigned bits of
    sarek_layout_float16; Pixels_value has Color of rgb, an arm that is the record itself."""
    folder = objects_in(tmp_path, pixels_header)
    obj = compile_object(toolchain, f'#include "pixels.h"\n{PIXELS_USE}', folder, *flags)
    status, out, err = verify_pixels(capsys, "--object", obj)
    assert (status, err) == (0, ""), out + err
    assert f"{obj}  agrees (5 types, " in out


def test_a_2_byte_float_is_a_float16_and_wrong_small_types_are_caught(pixels_header, tmp_path,
                                                                      capsys):
    require_toolchain("gcc")
    text = pixels_header.read_text()
    # gcc's own 2-byte float (_Float16 on x86-64) for the float16 typedef: the same layout.
    as_float = text.replace("typedef uint16_t sarek_layout_float16;",
                            "typedef _Float16 sarek_layout_float16;")
    signed = text.replace("    uint8_t id; /* offset 0 */", "    int8_t id; /* offset 0 */").replace(
        "    sarek_layout_float16 depth;", "    int16_t depth;")
    assert as_float != text and signed != text
    for name, edited in (("as_float", as_float), ("signed", signed)):
        (tmp_path / "pixels.h").write_text(edited)
        compile_object("gcc", f'#include "pixels.h"\n{PIXELS_USE}', tmp_path, name=name)
    status, out, _ = verify_pixels(capsys, "--object", tmp_path / "as_float.o")
    assert status == 0, out
    status, out, _ = verify_pixels(capsys, "--object", tmp_path / "signed.o")
    assert status == 1
    obj = tmp_path / "signed.o"
    assert f"Pixels_sample.id: layout says type uint8, {obj} says int8_t (1-byte signed char)" in out
    assert (f"Pixels_sample.depth: layout says type float16, {obj} says int16_t (2-byte signed "
            f"integer)") in out
    assert out.count("layout says") == 2, out


def test_an_arm_that_is_its_one_record_argument_agrees(tmp_path, capsys):
    """SPEC §4: a constructor of one record argument stores the record itself as its arm
    (``Geometry_point P_v;``), not a struct of ``_0``: its fields are the record's."""
    schema = tmp_path / "one.toml"
    schema.write_text('module = "One"\n[[types]]\nrecord = "pt"\nfields = [["x", "float32"], '
                      '["y", "int32"]]\n[[types]]\nvariant = "v"\n'
                      'constructors = [["A"], ["P", ["pt"]]]\n')
    assert main(["generate", str(schema), "-o", str(tmp_path), "-t", "c"]) == 0
    capsys.readouterr()
    obj = compile_object("gcc", '#include "one.h"\nOne_v g_v;\n', tmp_path)
    status = main(["verify", str(schema), "--object", str(obj)])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), out
    assert f"{obj}  agrees (2 types, " in out
    # Another struct of the same fields in that arm is caught.
    obj = compile_object("gcc", textwrap.dedent("""\
        #include <stdint.h>
        typedef struct One_pt { float x; int32_t y; } One_pt;
        typedef struct Other { float x; int32_t y; } Other;
        typedef struct One_v { int32_t tag; union { Other P_v; } data; } One_v;
        One_v g_v; One_pt g_pt;
        """), tmp_path, name="other")
    assert main(["verify", str(schema), "--object", str(obj)]) == 1
    assert "One_v.data.P_v._0: the layout has it (pt at offset 4)" in capsys.readouterr().out


def test_report_text_caps_each_list_and_counts_in_words():
    """The report's text, from results alone: one row per object, the differences and the
    types not found each capped at ``max_lines`` with how many more, and the summary."""
    from sarek_layout.verify.objects import ObjectDifference, ObjectReport, ObjectResult

    diffs = [ObjectDifference("T", f"m{i}", "offset", i, i + 1, "a.o") for i in range(3)]
    report = ObjectReport([
        ObjectResult("a.o", 1, 1, 7, diffs, ["U", "V", "W"], ["a.o: no DWARF (compile with -g)"]),
        ObjectResult("build/b.o", 1, 1, 5),
        ObjectResult("c.o", 1, 0, 0, [ObjectDifference("T", "", "size", 8, 4, "c.o")]),
    ], 2)
    assert report.format(max_lines=2).splitlines() == [
        "object     result",
        "a.o        DISAGREES (3 values differ)",
        "build/b.o  agrees (1 type, 5 values)",
        "c.o        DISAGREES (1 value differs)",
        "",
        "a.o: 3 value(s) differ from the layout:",
        "  T.m0: layout says offset 0, a.o says 1",
        "  T.m1: layout says offset 1, a.o says 2",
        "  … and 1 more",
        "",
        "c.o: 1 value(s) differ from the layout:",
        "  T: layout says size 8, c.o says 4",
        "",
        "U: not found in a.o",
        "V: not found in a.o",
        "… and 1 more types not found",
        "a.o: no DWARF (compile with -g)",
        "",
        "1 of 3 objects agree with the layout of 2 types",
    ]
    nothing = ObjectReport([ObjectResult("z.o", 1)], 1).format().splitlines()
    assert nothing[1:3] == ["z.o     no schema type found", ""]
    assert nothing[-1].startswith("0 of 1 object agree with the layout of 1 type; no schema "
                                  "type is in any object")
