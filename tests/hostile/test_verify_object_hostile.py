"""``verify --object`` on hostile objects (issue #25): numbers of thousands of bits, arrays
of thousands of dimensions, DIEs whose children must all be read to find what follows,
compression bombs, and names that are not UTF-8 or hold a newline or ESC; and genuine
``gcc -gz=zlib-gnu`` / ``-gz=zlib`` objects, which are read.

The hostile objects are written by ``elf_builder`` (no compiler makes them). Each runs the
real command line in a child under ``hostile.run_bounded``'s address-space cap (its
wall-clock limit, raised here, is only a hang guard); the child reports its own CPU time
and how much its peak memory grew while the command ran, and those are what is bounded:
the numbers do not depend on how busy the machine is. A refusal is exit 2, one line
``sarek-layout: error: FILE: …``, nothing on stdout, no traceback, nothing written.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import struct
import subprocess

import pytest

from helpers import elf_builder as eb
from helpers.common import EXAMPLES, require_toolchain
from helpers.hostile import run_bounded
from sarek_layout.cli.main import main

pytest.importorskip("elftools", reason="pyelftools not installed: pip install pyelftools")

GEOMETRY = EXAMPLES / "geometry.toml"
#: Hang guard only (a child past it fails the test saying so); the bounds are CPU and memory.
HANG_GUARD_S = 300

#: Runs ``main(argv)`` with everything it imports loaded first, then writes its CPU seconds
#: and how many bytes its peak resident size grew while the command ran.
_CHILD = """
import resource, sys
import sarek_layout.cli.main, sarek_layout.cli.cmd_verify, sarek_layout.cli.common
import sarek_layout.verify.objects
import sarek_layout.frontends.jsontoml.reader, sarek_layout.verify.run
import elftools.elf.elffile, elftools.dwarf.dwarfinfo, elftools.elf.relocation
from sarek_layout.cli.main import main
sarek_layout.cli.common.load([sys.argv[3]])  # the schema's reading is not the object's
before = resource.getrusage(resource.RUSAGE_SELF)
try:
    status = main(sys.argv[2:])
finally:
    after = resource.getrusage(resource.RUSAGE_SELF)
    with open(sys.argv[1], "w") as f:
        f.write(f"{after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime} "
                f"{(after.ru_maxrss - before.ru_maxrss) * 1024}")
sys.exit(status)
"""


def files_under(folder: pathlib.Path) -> dict:
    return {p: p.stat().st_mtime_ns for p in folder.rglob("*")}


def run_object(folder: pathlib.Path, obj, *extra):
    """``verify geometry.toml --object OBJ`` in a bounded child: ``(process, CPU seconds,
    peak memory growth in bytes)``."""
    stats = folder.parent / f"{folder.name}.stats"
    argv = ["-c", _CHILD, str(stats), "verify", str(GEOMETRY), "--object", obj, *extra]
    proc = run_bounded(argv, folder, timeout=HANG_GUARD_S)
    assert "Traceback" not in proc.stderr.decode("utf-8", "replace"), proc.stderr[-3000:]
    cpu, grew = stats.read_text().split()
    return proc, float(cpu), int(grew)


def check_refused(folder: pathlib.Path, obj: pathlib.Path, *fragments: str,
                  cpu_s: float, grew_mb: int, label: str = "") -> str:
    """Exit 2, one line naming ``obj`` (or ``label``) with every fragment, nothing else,
    within bounds."""
    before = files_under(folder)
    proc, cpu, grew = run_object(folder, obj)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, err[-2000:]
    assert proc.stdout == b""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err[-2000:]
    assert lines[0].startswith(f"sarek-layout: error: {label or obj}: "), lines[0][:300]
    for fragment in fragments:
        assert fragment in lines[0], lines[0][:300]
    assert files_under(folder) == before, "a refused run wrote something"
    assert cpu < cpu_s, f"{cpu:.1f} s of CPU (bound {cpu_s} s): {lines[0][:200]}"
    assert grew < grew_mb << 20, f"peak memory grew by {grew >> 20} MB (bound {grew_mb} MB)"
    return lines[0]


@pytest.fixture
def folder(tmp_path) -> pathlib.Path:
    f = tmp_path / "objects"
    f.mkdir()
    return f


def write(folder: pathlib.Path, name: str, data: bytes) -> pathlib.Path:
    path = folder / name
    path.write_bytes(data)
    return path


def test_the_builder_makes_an_object_that_agrees(folder):
    """The hand-made DWARF is read like a compiler's (so every refusal below is the hostile
    piece's doing), in little CPU and memory."""
    proc, cpu, grew = run_object(folder, write(folder, "point.o",
                                               eb.elf_object(eb.point_unit().sections())))
    assert proc.returncode == 0, proc.stderr
    assert b"point.o  agrees (1 type, 5 values)" in proc.stdout
    assert cpu < 5 and grew < 40 << 20, (cpu, grew)


# --- numbers past 64 bits ------------------------------------------------------------------------


def test_a_byte_size_of_21000_bits_is_refused_in_one_line(folder):
    """A 3,000-byte ULEB128 ``DW_AT_byte_size`` used to reach the report as a 6,300-digit
    int, past Python's 4,300-digit limit: a traceback, exit 1."""
    check_refused(folder, write(folder, "size.o", eb.huge_byte_size(3000)),
                  "malformed DWARF (a number of more than 64 bits", cpu_s=5, grew_mb=40)


def test_a_900_kb_udata_is_refused_without_decoding_it(folder):
    """pyelftools OR-ed each 7-bit group into a growing int: quadratic (60 s of CPU here);
    now the decoder stops at the first group past 64 bits."""
    check_refused(folder, write(folder, "udata.o", eb.huge_byte_size(900_000)),
                  "a number of more than 64 bits", cpu_s=10, grew_mb=60)


def test_a_900_kb_plus_uconst_location_is_refused_without_decoding_it(folder):
    """A ``DW_OP_plus_uconst`` member location of 900 KB: decoded the same quadratic way by
    the member reader itself (58 s)."""
    check_refused(folder, write(folder, "uconst.o", eb.long_member_location(900_000)),
                  "a number of more than 64 bits", cpu_s=15, grew_mb=200)


def _sleb(value: int, pad_to: int = 0) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        if (value, byte & 0x40) in ((0, 0), (-1, 0x40)) and len(out) + 1 >= pad_to:
            return bytes(out + bytes([byte]))
        out.append(byte | 0x80)


def test_bounded_leb128_decoders_agree_with_pyelftools_up_to_64_bits(tmp_path):
    """Same value and same bytes consumed as pyelftools' own decoders for every number of
    64 bits (padded or not); NumberTooLarge past that; the stock decoders are back after."""
    import io
    import random

    from elftools.common.construct_utils import SLEB128, ULEB128

    from sarek_layout.verify.dwarf import read_object
    from sarek_layout.verify.dwarf_sections import NumberTooLarge, bounded_numbers, uleb128

    stock = (ULEB128._parse, SLEB128._parse)
    rng = random.Random(25)
    cases = [(rng.getrandbits(rng.choice([1, 7, 8, 63, 64, 65, 70, 71, 200])),
              rng.choice([0, 0, 5, 10, 11, 16])) for _ in range(3000)]
    expected = [(ULEB128("").parse_stream(io.BytesIO(eb.uleb(v, pad))),
                 SLEB128("").parse_stream(io.BytesIO(_sleb(-v, pad)))) for v, pad in cases]
    with bounded_numbers():
        for (v, pad), (u, s) in zip(cases, expected):
            for parse, data, fits, want, left in (
                    (ULEB128("").parse_stream, eb.uleb(v, pad), v < 1 << 64, u, b"rest"),
                    (SLEB128("").parse_stream, _sleb(-v, pad), v <= 1 << 63, s, b"rest"),
                    (lambda st: uleb128(list(st.read())), eb.uleb(v, pad), v < 1 << 64, u, b"")):
                stream = io.BytesIO(data + b"rest")
                if fits:
                    assert (parse(stream), stream.read()) == (want, left), (v, pad)
                else:
                    with pytest.raises(NumberTooLarge):
                        parse(stream)
    assert (ULEB128._parse, SLEB128._parse) == stock
    read_object(str(write(tmp_path, "p.o", point_object())), ["Geometry_point"])
    assert (ULEB128._parse, SLEB128._parse) == stock


def test_90000_array_dimensions_of_2_62_are_not_multiplied_out(folder):
    """Each dimension multiplied a growing product (38 s, then a 1.7-million-digit size that
    no message could print). The product stops past 2**64: the array's size is unknown, and
    it is still reported as an array where the layout has a float."""
    obj = write(folder, "dims.o", eb.many_subranges(90_000))
    before = files_under(folder)
    proc, cpu, grew = run_object(folder, obj)
    out = proc.stdout.decode()
    assert proc.returncode == 1 and proc.stderr == b"", proc.stderr[-2000:]
    assert f"Geometry_point.x: layout says type float32, {obj} says array float[]" in out
    assert "member size" not in out  # an unknown size is not compared
    assert files_under(folder) == before
    assert cpu < 15, f"{cpu:.1f} s of CPU"
    assert grew < 60 << 20, grew


def test_array_size_products_stop_past_2_64(tmp_path):
    """The product, directly: an array of more than 2**64 elements or bytes has an unknown
    size; a zero dimension makes it 0 whatever the others."""
    from sarek_layout.verify.dwarf import read_object

    for dims, each in ((2, 1 << 31), (3, 1 << 31), (80, 1 << 62), (4, 0), (1, 1 << 64 - 1)):
        path = write(tmp_path, f"a{dims}.o", eb.many_subranges(dims, each))
        image, = read_object(str(path), ["Geometry_point"])
        (info, _), = image.structs["Geometry_point"].items()
        x = info.members[0]
        count = each ** dims
        expected = count * 4 if count * 4 <= 1 << 64 else None
        assert (x.type.kind, x.type.size) == ("array", expected), (dims, each)


# --- children read to find a sibling -------------------------------------------------------------


def test_children_of_a_function_without_sibling_are_not_kept(folder):
    """pyelftools parsed and kept every child of a top-level DIE without ``DW_AT_sibling``
    to find the next one: about 300 bytes of memory per byte of file (400,000 children:
    120 MB). Now each is read, counted, and dropped."""
    obj = write(folder, "nosib.o", eb.function_without_sibling(400_000))
    proc, cpu, grew = run_object(folder, obj)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert b"agrees (1 type, 5 values)" in proc.stdout
    assert grew < 30 << 20, f"peak memory grew by {grew >> 20} MB for a 400 KB file"
    assert cpu < 30, cpu


def test_children_read_to_find_a_sibling_count_against_the_entry_budget(monkeypatch, tmp_path):
    """They were outside the 5,000,000-entry budget; each one read is now an entry."""
    from sarek_layout.verify import dwarf

    path = write(tmp_path, "nosib.o", eb.function_without_sibling(20_000))
    assert dwarf.read_object(str(path), ["Geometry_point"])[0].structs["Geometry_point"]
    monkeypatch.setattr(dwarf, "MAX_ENTRIES", 10_000)
    with pytest.raises(dwarf.ObjectError, match="more than 10,000 debugging entries"):
        dwarf.read_object(str(path), ["Geometry_point"])


def test_a_function_body_nested_100000_deep_is_read(folder):
    """Finding the sibling of nested DIEs without ``DW_AT_sibling`` recursed once per level
    (RecursionError, refused as malformed); it is a loop now, and every level is counted."""
    proc, cpu, grew = run_object(folder, write(folder, "deep.o",
                                               eb.nested_without_sibling(100_000)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert b"agrees (1 type, 5 values)" in proc.stdout
    assert cpu < 20 and grew < 30 << 20, (cpu, grew)


# --- compressed sections -------------------------------------------------------------------------


def test_a_zdebug_bomb_counts_at_its_inflated_size(folder):
    """600 MiB of zeros in a 620 KB ``.zdebug_info``: counted at its compressed size it
    passed the 512 MiB limit and was inflated whole (a 3 MB file: 3.2 GB). Its stated size
    is counted now, before anything is inflated."""
    check_refused(folder, write(folder, "bomb.o", eb.zdebug_bomb(600)),
                  "629,145,705 bytes of debug sections, more than the 536,870,912 read",
                  cpu_s=5, grew_mb=40)


def test_a_zdebug_section_inflating_past_its_stated_size_stops_there(folder):
    """The same bomb stating 1,000 bytes: inflated to 1,001 at most, then refused."""
    check_refused(folder, write(folder, "liar.o", eb.zdebug_bomb(600, claimed=1000)),
                  "compressed section .zdebug_info inflates past the 1,000 bytes it states",
                  cpu_s=5, grew_mb=40)


def test_zdebug_sections_that_do_not_inflate_to_their_size_are_refused(folder):
    sections = eb.point_unit().sections()
    for i, (claimed, data, message) in enumerate([
            (10_000, None, "inflates to fewer than the 10,000 bytes it states"),
            (None, b"ZLIB" + struct.pack(">Q", 9) + b"not zlib",
             "compressed section .zdebug_info: "),
            (None, b"ZLIB", "is too short")]):
        name, info = eb.zdebug(".debug_info", sections[".debug_info"], claimed)
        obj = write(folder, f"z{i}.o", eb.elf_object({".debug_abbrev": sections[".debug_abbrev"],
                                                      name: data or info}))
        check_refused(folder, obj, message, cpu_s=5, grew_mb=40)


@pytest.fixture(scope="module")
def header(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("gen")
    assert main(["generate", str(GEOMETRY), "-o", str(out), "-t", "c"]) == 0
    return out / "geometry.h"


USE = "Geometry_particle g_particle; Geometry_shape g_shape; Geometry_point g_point;\n"


@pytest.mark.parametrize("how", ["zlib-gnu", "zlib"])
def test_genuine_gcc_compressed_debug_sections_are_read(header, tmp_path, capsys, how):
    """``gcc -gz=zlib-gnu`` objects were refused as malformed: pyelftools looks only for
    ``.zdebug_*`` names once one exists (gcc leaves ``.debug_abbrev`` uncompressed) and
    relocates the compressed bytes. Objects, an archive, a shared library and an
    executable built with ``-gz`` agree."""
    tc = require_toolchain("gcc")
    shutil.copy(header, tmp_path / "geometry.h")
    src = tmp_path / "use.c"
    src.write_text(f'#include "geometry.h"\n{USE}')
    main_c = tmp_path / "main.c"
    main_c.write_text("int main(void) { return 0; }\n")
    obj = tmp_path / "use.o"
    subprocess.run([*tc.argv, "-g", f"-gz={how}", "-c", str(src), "-o", str(obj)], check=True)
    sections = subprocess.run(["readelf", "-SW", str(obj)], capture_output=True, text=True,
                              check=True).stdout
    if how == "zlib-gnu":
        assert ".zdebug_info" in sections and ".rela.zdebug_info" in sections, sections
    subprocess.run(["ar", "rcs", str(tmp_path / "libgeo.a"), str(obj)], check=True)
    built = [obj, tmp_path / "libgeo.a"]
    for name, flags in (("libgeo.so", ["-shared", "-fPIC"]), ("exe", [str(main_c)])):
        proc = subprocess.run([*tc.argv, "-g", f"-gz={how}", *flags, str(src), "-o",
                               str(tmp_path / name)], capture_output=True, text=True)
        if proc.returncode == 0:  # the linker may not write this format
            built.append(tmp_path / name)
    status = main(["verify", str(GEOMETRY), *[a for p in built for a in ("--object", str(p))]])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), out + err
    assert f"{len(built)} of {len(built)} objects agree with the layout of 3 types" in out


# --- names ---------------------------------------------------------------------------------------


def point_object() -> bytes:
    return eb.elf_object(eb.point_unit().sections())


def test_a_path_that_is_not_utf8_is_shown_escaped(folder, monkeypatch):
    """The check agreed, then printing the path crashed the report (strict UTF-8 stdout)."""
    name = os.fsdecode(b"geo\xff\x1b[2J.o")
    write(folder, name, point_object())
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("PYTHONIOENCODING", "utf-8:strict")
    proc, _, _ = run_object(folder, name)
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 0, proc.stderr
    assert "'geo\\xff\\x1b[2J.o'  agrees (1 type, 5 values)" in out
    assert "\x1b" not in out and proc.stderr == b""
    missing = os.fsdecode(b"gone\xff\nsarek-layout: all good.o")
    proc, _, _ = run_object(folder, missing)
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("sarek-layout: error: 'gone\\xff\\x0asarek-layout: all good.o': "
                          "cannot read"), err


def test_shown_name_changes_only_what_a_terminal_would_not_show_as_text():
    from sarek_layout.verify.dwarf import shown_name

    assert shown_name("build/géo metry.o") == "build/géo metry.o"
    assert shown_name("a\\b'c.o") == "a\\b'c.o"  # printable: as it is
    assert shown_name(os.fsdecode(b"a\xff\\b'\n.o")) == "'a\\xff\\\\b\\'\\x0a.o'"
    assert shown_name("rtl\u202egpj.o") == "'rtl\\u202egpj.o'"


def bsd_archive(members) -> bytes:
    """An ``ar`` archive of ``(name bytes, data)`` in BSD form (``#1/LEN``: any bytes)."""
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        body = name + data
        out += (f"#1/{len(name)}".ljust(16) + "0".ljust(12) + "0".ljust(6) + "0".ljust(6)
                + "644".ljust(8) + str(len(body)).ljust(10) + "`\n").encode()
        out += body + (b"\n" if len(body) % 2 else b"")
    return bytes(out)


def test_archive_member_names_cannot_fake_a_line(folder):
    """A member named ``a.o\\n<a line of the report>`` printed that line (here: that all
    agree, when this member disagrees); ESC sequences reached the terminal."""
    fake = b"x.o) says 8\n\n1 of 1 object agree with the layout of 3 types\n\x1b[2J"
    wrong = eb.elf_object(eb.point_unit(byte_size=eb.uleb(12)).sections())
    lib = write(folder, "lib.a", bsd_archive([(fake, wrong), (b"bad\xff.o", wrong)]))
    proc, _, _ = run_object(folder, lib)
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 1, proc.stderr
    assert "\x1b" not in out
    lines = out.splitlines()
    assert "1 of 1 object agree with the layout of 3 types" not in lines, out
    assert lines[-1] == "0 of 1 object agree with the layout of 3 types", out
    assert (f"  Geometry_point: layout says size 8, {lib}('x.o) says 8\\x0a\\x0a1 of 1 object "
            f"agree with the layout of 3 types\\x0a\\x1b[2J') says 12") in lines, out
    assert f"  Geometry_point: layout says size 8, {lib}('bad\\xff.o') says 12" in lines, out
    bad = eb.elf_object({".debug_info": b"\0" * 8})
    lib = write(folder, "bad.a", bsd_archive([(b"evil\n.o", bad)]))
    check_refused(folder, lib, "malformed ELF or DWARF", cpu_s=5, grew_mb=40,
                  label=f"{lib}('evil\\x0a.o')")
