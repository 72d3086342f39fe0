"""The extension scalars (``int8``, ``int16``, ``uint16``, ``uint32``, ``uint64``; issue 22) in
every input form, and what refuses them: they are not Sarek element types.

* JSON, TOML and C mean the same (same layouts, same generated headers); C reads
  ``<stdint.h>``'s names and the C types of that size on every ABI, OpenCL C its own names;
* an OCaml source naming one is refused at its place with what to use instead, and a schema
  using one is not written as a Sarek ``.ml``;
* the kernel's ``__aligned_u64`` (a ``__u64`` with ``aligned(8)``) imports as ``uint64``, as
  the issue's ``uint64_t a __attribute__((aligned(8)))``, compared with gcc's layout;
* ``verify --header`` explains ``unsigned long`` (4 bytes on i386) for a uint64;
* ``diff`` calls ``int32`` → ``uint32`` breaking (same bytes, another meaning);
* the shipped JSON schema knows every scalar of the table.
"""

from __future__ import annotations

import json
import pathlib
import re
import shutil

import pytest

from helpers.common import require_toolchain
from sarek_layout.cli.main import main
from sarek_layout.codegen import render_headers
from sarek_layout.frontends import read_module
from sarek_layout.ir.types import ALIASES, SCALARS
from sarek_layout.report import schema_json
from sarek_layout.resolve import load_schema
from sarek_layout.schema_writers import WRITERS, file_name, to_ocaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
GPU = ROOT / "tests" / "golden" / "extension_scalars" / "gpu.toml"
EXTENSION = [s.name for s in SCALARS.values() if s.extension]
HAVE_CPP = any(shutil.which(c) for c in ("cpp", "gcc", "clang"))


def _run(capsys, *args):
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_table_has_the_five_extension_scalars_at_their_natural_size():
    got = {s.name: (s.size, s.align, s.int_range, s.wide, s.sub_word) for s in SCALARS.values()
           if s.extension}
    assert got == {
        "int8": (1, 1, (-128, 127), False, True),
        "int16": (2, 2, (-32768, 32767), False, True),
        "uint16": (2, 2, (0, 65535), False, True),
        "uint32": (4, 4, (0, 2**32 - 1), False, False),
        "uint64": (8, 8, (0, 2**64 - 1), True, False),
    }


@pytest.mark.skipif(not HAVE_CPP, reason="no C preprocessor (cpp, gcc or clang)")
def test_json_toml_and_c_mean_the_same(tmp_path):
    module = read_module(str(GPU))
    want = schema_json(load_schema([str(GPU)]).types)
    want_headers = {f.filename: re.sub(r" from \S+ \(", " from S (", f.text, count=1)
                    for f in render_headers(load_schema([str(GPU)]), ["c", "cuda", "opencl"])}
    for fmt in ("json", "toml", "c"):
        path = tmp_path / fmt / file_name(module.name, fmt)
        path.parent.mkdir()
        path.write_text(WRITERS[fmt](module))
        schema = load_schema([str(path)])
        assert schema_json(schema.types) == want, fmt
        headers = {f.filename: re.sub(r" from \S+ \(", " from S (", f.text, count=1)
                   for f in render_headers(schema, ["c", "cuda", "opencl"])}
        assert headers == want_headers, fmt
    # The generated header reads back to the same schema.
    (tmp_path / "generated").mkdir()
    (f,) = render_headers(load_schema([str(GPU)]), ["c"])
    (tmp_path / "generated" / f.filename).write_text(f.text)
    got = schema_json(load_schema([str(tmp_path / "generated" / f.filename)]).types)["types"]
    assert sorted(map(str, got)) == sorted(map(str, want["types"]))


@pytest.mark.parametrize("suffix, toolchain", [("h", "gcc"), ("cuh", "nvrtc"),
                                               ("clh", "clang-opencl")])
def test_verify_header_reads_each_targets_spellings(capsys, suffix, toolchain):
    """The generated golden headers (int8_t… in C and CUDA, char/short/ushort/uint/ulong in
    OpenCL C) are read back member by member and measured by a compiler of the target."""
    require_toolchain(toolchain)
    header = GPU.parent / "expected" / f"gpu.{suffix}"
    status, out, err = _run(capsys, "verify", GPU, "--header", header, "--toolchain", toolchain)
    assert (status, err) == (0, ""), out
    assert "1 of 1 toolchain agree with the layout of 4 types" in out


@pytest.mark.parametrize("name", EXTENSION)
def test_an_ocaml_source_naming_one_is_refused_with_what_to_use(tmp_path, capsys, name):
    path = tmp_path / "regs.ml"
    path.write_text(f"type reg = {{ id : int32; v : {name} }} [@@sarek.type]\n")
    status, out, err = _run(capsys, "layout", path)
    assert (status, out) == (2, "")
    (line,) = err.splitlines()
    assert line.startswith(f"{path}:1:30: error: type '{name}' has no Sarek layout (a "
                           f"sarek-layout extension scalar, not a Sarek element type: JSON, "
                           f"TOML and C schemas only; in a Sarek source use int")
    # The list of what Sarek has leaves the extension scalars out.
    listed = line.split("element types are ")[1]
    assert "uint8" in listed and not any(re.search(rf"\b{e}\b", listed) for e in EXTENSION)


def test_a_schema_using_one_is_not_written_as_a_sarek_ml():
    module = read_module(str(GPU))
    with pytest.raises(ValueError, match=r"^extent\.w is uint32, a sarek-layout extension "
                                         r"scalar and not a Sarek element type: a schema using "
                                         r"it cannot be written as a Sarek \.ml"):
        to_ocaml(module)
    variant_only = module.__class__(module.name, module.path, module.format,
                                    tuple(d for d in module.decls if d.name == "event"),
                                    module.location)
    with pytest.raises(ValueError, match=r"^event\.Key\._0 is uint16"):
        to_ocaml(variant_only)


_KERNEL_STYLE = """\
#include <stdint.h>
/* as <linux/types.h> spells them */
typedef unsigned long long __u64;
typedef unsigned int __u32;
typedef unsigned short __u16;
typedef signed char __s8;
#define __aligned_u64 __u64 __attribute__((aligned(8)))
typedef struct {
    __u32 flags;
    __aligned_u64 addr;
    uint64_t len __attribute__((aligned(8)));
    __u16 port;
    __s8 level;
    int16_t delta;
} probe_req;
"""


@pytest.mark.skipif(not HAVE_CPP, reason="no C preprocessor (cpp, gcc or clang)")
def test_the_kernels_aligned_u64_imports_as_uint64(tmp_path, capsys):
    """Before the extension scalars this header was refused ("natural alignment in Sarek's
    layout is 4" for the aligned(8) member); now every member is read, and the layout is
    gcc's own (x86-64 and i386: the aligned(8) pins both)."""
    header = tmp_path / "probe_req.h"
    header.write_text(_KERNEL_STYLE)
    status, out, err = _run(capsys, "import-c", "--json", header)
    assert (status, err) == (0, "")
    (t,) = json.loads(out)["types"]
    assert t["fields"] == [["flags", "uint32"], ["addr", "uint64"], ["len", "uint64"],
                           ["port", "uint16"], ["level", "int8"], ["delta", "int16"]]
    require_toolchain("gcc")
    require_toolchain("gcc-m32")
    status, out, err = _run(capsys, "verify", header, "--header", header,
                            "--toolchain", "gcc", "--toolchain", "gcc-m32")
    assert status == 0, out + err
    assert "2 of 2 toolchains agree" in out


@pytest.mark.skipif(not HAVE_CPP, reason="no C preprocessor (cpp, gcc or clang)")
@pytest.mark.parametrize("spelling, why", [
    ("char", "char has no Sarek layout (whether it is signed depends on the ABI); use int8_t "
             "or uint8_t"),
    ("unsigned long", "long is 4 or 8 bytes depending on the ABI; use int32_t or int64_t "
                      "(uint32_t or uint64_t when unsigned)"),
    ("uintptr_t", "the fixed-width scalars are int8_t, int16_t, int32_t, int64_t, uint8_t, "
                  "uint16_t, uint32_t, uint64_t"),
])
def test_c_types_of_no_fixed_size_or_sign_are_still_refused(tmp_path, capsys, spelling, why):
    header = tmp_path / "t.h"
    header.write_text(f"#include <stdint.h>\ntypedef struct {{ {spelling} v; }} t;\n")
    status, out, err = _run(capsys, "import-c", header)
    assert status == 2
    assert f"member 'v' of 't' has type '{spelling}': {why}" in err


def test_verify_header_explains_unsigned_long_for_a_uint64(tmp_path, capsys):
    schema = tmp_path / "s.toml"
    schema.write_text('module = ""\n[[types]]\nrecord = "big"\nfields = [["n", "uint64"], '
                      '["c", "uint32"]]\n')
    header = tmp_path / "big.h"
    header.write_text("#include <stdint.h>\ntypedef struct big { unsigned long n; unsigned c; } big;\n")
    status, out, err = _run(capsys, "verify", schema, "--header", header, "--toolchain", "gcc")
    assert status == 1
    assert ("big.n: header says unsigned long, schema says uint64 (unsigned long is 4 bytes on "
            "i386 and armhf: write uint64_t)") in out + err
    assert "big.c:" not in out + err  # ``unsigned`` is ``unsigned int``: a uint32


def test_diff_calls_int32_to_uint32_breaking(tmp_path, capsys):
    old, new = tmp_path / "old.toml", tmp_path / "new.toml"
    body = 'module = "M"\n[[types]]\nrecord = "r"\nfields = [["count", "{}"]]\n'
    old.write_text(body.format("int32"))
    new.write_text(body.format("uint32"))
    status, out, err = _run(capsys, "diff", old, new)
    assert status == 1
    assert "breaking: M.r.count: type changed: int32 -> uint32 [member-type-changed]" in out


def test_the_shipped_json_schema_knows_every_scalar():
    doc = json.loads((ROOT / "sarek_layout" / "sarek-layout.schema.json").read_text())
    not_type_names = set(doc["definitions"]["typeName"]["not"]["enum"])
    assert not_type_names == set(SCALARS) | set(ALIASES)
    described = doc["definitions"]["typeExpression"]["description"]
    assert all(re.search(rf"\b{s}\b", described) for s in SCALARS)


def test_explain_shows_them_and_finds_a_smaller_order(tmp_path, capsys):
    path = tmp_path / "r.toml"
    path.write_text('module = "R"\n[[types]]\nrecord = "r"\nfields = [["a", "int8"], '
                    '["b", "uint64"], ["c", "int16"], ["d", "uint32"], ["e", "uint16"]]\n')
    status, out, err = _run(capsys, "explain", path)
    assert (status, err) == (0, "")
    for row in ("int8         a;                       /*     0     1 */",
                "uint64       b;                       /*     8     8 */",
                "uint16       e;                       /*    24     2 */",
                "/* size: 32, align: 8, data: 17 bytes, padding: 15 bytes (46.9%) */",
                "/* a field order of 24 bytes exists (saves 8): explain --suggest prints it */"):
        assert row in out, out
