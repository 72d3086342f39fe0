"""``import-c``'s note on i386 (issue 30, item 14): the original header may lay the imported
types out otherwise under ``gcc -m32`` (8-byte members 4-aligned in structs unless an
alignment of 8 pins them), while the headers generated from the schema pin them. One note per
run names those types, on stderr; the exit status stays what the refusals make it.

The types named are checked against ``gcc -m32`` and ``gcc`` on the original header (the
real headers: ``test_cheader_real_headers.py``), never against numbers of this package.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from sarek_layout.cli.main import main

from helpers.real_headers import gcc_m32_works, i386_differences_by_gcc

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="the probes need gcc")

MIXED = """\
#include <stdint.h>
typedef struct plain4 { int32_t a; float b; } plain4;
typedef struct heap { uint64_t size; uint32_t flags; } heap;
typedef struct at4 { int32_t a; double d; } at4;
typedef struct pinned { int32_t a; _Alignas(8) double d; } pinned;
typedef struct holds_heap { int32_t a; heap h; } holds_heap;
typedef struct holds_pinned { int32_t a; pinned p; } holds_pinned;
typedef int64_t __attribute__((aligned(8))) aligned_i64;
typedef struct via_typedef { int32_t a; aligned_i64 x; } via_typedef;
typedef struct inner { int32_t a; int64_t b; int32_t c; int32_t d; } __attribute__((aligned(8))) inner;
typedef struct holds_inner { int32_t a; inner i; } holds_inner;
typedef struct V { int32_t tag; union { double Num_v; struct { int32_t _0; int64_t _1; } Pair_v; } data; } V;
enum { V_Num = 0, V_Pair = 1, V_None = 2 };
typedef struct W { int32_t tag; union { _Alignas(8) double Num_v; struct { int32_t _0; _Alignas(8) int64_t _1; } Pair_v; } data; } W;
enum { W_Num = 0, W_Pair = 1 };
typedef struct C { int32_t tag; } C;
enum { C_A = 0, C_B = 1 };
"""

_NOTE = re.compile(r"^note: on i386 \(gcc -m32\) the original header lays out (\d+) of these "
                   r"types otherwise, .*? pins them: (.*?); the headers generated", re.M)


@pytest.fixture
def m32(tmp_path):
    if not gcc_m32_works(str(tmp_path)):
        pytest.skip("gcc -m32 cannot build here (apt-get install libc6-dev-i386 lib32gcc-12-dev)")


def _run(capsys, *argv):
    status = main(["import-c", *map(str, argv)])
    out, err = capsys.readouterr()
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    named = []
    for line in notes:
        m = _NOTE.match(line)
        assert m is not None, line
        named = m.group(2).split(", ")
        assert int(m.group(1)) == len(named)
    return status, err, notes, named


def _types(schema_path):
    from sarek_layout.resolve import load_schema

    return list(load_schema([str(schema_path)]))


def test_the_types_gcc_m32_lays_out_otherwise_are_named_once(tmp_path, capsys, m32):
    path = tmp_path / "mixed.h"
    path.write_text(MIXED)
    status, err, notes, named = _run(capsys, path, "-o", tmp_path / "out")
    assert status == 0, err  # a note, not an error
    assert len(notes) == 1, err
    types = _types(tmp_path / "out" / "mixed.toml")
    assert len(types) == 12
    assert named == i386_differences_by_gcc(str(path), types, {}, str(tmp_path))
    # Each way a type differs is among them, and each way the header pins one is not.
    assert {"heap", "at4", "holds_heap", "inner", "holds_inner", "V"} <= set(named)
    assert not {"plain4", "pinned", "holds_pinned", "via_typedef", "W", "C"} & set(named)


def test_the_exit_status_stays_and_several_headers_get_one_note(tmp_path, capsys, m32):
    a = tmp_path / "a.h"
    a.write_text("#include <stdint.h>\ntypedef struct at4 { int32_t a; double d; } at4;\n"
                 "typedef struct refused { char c; } refused;\n")
    b = tmp_path / "b.h"
    b.write_text("#include <stdint.h>\ntypedef struct heap { uint64_t size; uint32_t f; } heap;\n")
    status, err, notes, named = _run(capsys, a, b, "-o", tmp_path / "out")
    assert status == 1 and "'refused'" in err  # as without the note
    assert len(notes) == 1 and set(named) == {"at4", "heap"}, err
    gcc = set(i386_differences_by_gcc(str(a), _types(tmp_path / "out" / "a.toml"), {},
                                      str(tmp_path)))
    gcc |= set(i386_differences_by_gcc(str(b), _types(tmp_path / "out" / "b.toml"), {},
                                       str(tmp_path)))
    assert gcc == set(named)


def test_a_header_generate_wrote_gets_no_note(tmp_path, capsys, m32):
    # generate pins every 8-byte member: its header has one layout on i386 and x86-64, and
    # import-c says nothing of i386 when it reads it back.
    schema = tmp_path / "wide.json"
    schema.write_text(json.dumps({"module": "Wide", "types": [
        {"record": "heap", "fields": [["size", "uint64"], ["flags", "uint32"]]},
        {"record": "holds", "fields": [["a", "int32"], ["h", "heap"], ["d", "float64"]]},
        {"variant": "shape", "constructors": [["Num", ["float64"]], ["Pair", ["int32", "int64"]],
                                       ["None", []]]},
    ]}))
    assert main(["generate", str(schema), "-o", str(tmp_path / "gen"), "-t", "c"]) == 0
    (header,) = (tmp_path / "gen").glob("*.h")
    capsys.readouterr()
    status, err, notes, _ = _run(capsys, header, "-o", tmp_path / "back")
    assert status == 0 and notes == [], err
    types = _types(next((tmp_path / "back").glob("*.toml")))
    assert len(types) == 3
    assert i386_differences_by_gcc(str(header), types, {}, str(tmp_path)) == []
