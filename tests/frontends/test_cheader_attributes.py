"""Real shapes ``import-c`` misread (issue 30, item 13), each judged by gcc on the header:
the structs of linux/virtio_ring.h and linux/bpf.h, written here the way those headers
write them (the real headers themselves: ``test_cheader_real_headers.py``).

What imports must have gcc's size, alignment and offsets; what is refused must be what gcc
lays out otherwise than the schema would (or what no schema can hold), refused at its own
place, naming the type.
"""

from __future__ import annotations

import shutil

import pytest

from sarek_layout.cli.main import main

from helpers.hostile import check_refused_bounded
from helpers.real_headers import compiler_numbers, expected_numbers

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="reading C headers and the gcc probe need gcc")


def _import(tmp_path, capsys, text, name="shapes.h"):
    """``import-c`` of ``text``: (exit status, refusal lines, imported types by C name)."""
    from sarek_layout.resolve import load_schema

    path = tmp_path / name
    path.write_text(text)
    out = tmp_path / "out"
    status = main(["import-c", str(path), "-o", str(out)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    schema = out / (path.stem + ".toml")
    imported = {t.c_name: t for t in load_schema([str(schema)])} if schema.exists() else {}
    return status, [line for line in err.splitlines() if ": error: " in line], imported, path


def _gcc(path, tmp_path, probes):
    return compiler_numbers(str(path), probes, str(tmp_path))


def _assert_gcc_agrees(path, tmp_path, imported, spelling):
    measured = _gcc(path, tmp_path, {c: (spelling.get(c, c), [m.name for m in t.members])
                                     for c, t in imported.items()})
    for t in imported.values():
        expected = expected_numbers(t)
        assert {k: measured[k] for k in expected} == expected, t.c_name


def _refusal(lines, path, name):
    """The one refusal line naming ``name``: (line, col, message)."""
    named = [line for line in lines
             if f": error: '{name}' not imported: " in line or f" of '{name}' " in line]
    assert len(named) == 1, (name, lines)
    where, _, message = named[0].partition(": error: ")
    file, line, col = where.rsplit(":", 2)
    assert file == str(path), named[0]
    return int(line), int(col), message


VIRTIO = """\
#include <stdint.h>
struct vring_desc { uint64_t addr; uint32_t len; uint16_t flags; uint16_t next; };
struct vring_used_elem { uint32_t id; uint32_t len; };
typedef struct vring_used_elem __attribute__((aligned(4))) vring_used_elem_t;
typedef struct vring_desc __attribute__((aligned(16)))
    vring_desc_t;
struct uses_struct { struct vring_desc d; uint32_t n; };
struct uses_typedef { vring_desc_t d; uint32_t n; };
"""


def test_an_attribute_on_a_typedef_changes_the_typedef_not_the_struct(tmp_path, capsys):
    status, lines, imported, path = _import(tmp_path, capsys, VIRTIO)
    assert status == 1, lines
    assert set(imported) == {"vring_desc", "vring_used_elem", "uses_struct"}, lines
    _assert_gcc_agrees(path, tmp_path, imported, {c: f"struct {c}" for c in imported})
    # The typedef, and what uses it, are refused: gcc aligns them at 16, the struct at 8.
    gcc = _gcc(path, tmp_path, {"vring_desc_t": ("vring_desc_t", []),
                                "uses_typedef": ("struct uses_typedef", ["d", "n"])})
    assert gcc["vring_desc_t@align"] == 16 != imported["vring_desc"].align
    assert gcc["uses_typedef@align"] == 16 != imported["uses_struct"].align
    line, col, message = _refusal(lines, path, "vring_desc_t")
    assert (line, col) == (5, 27) and "'__attribute__((aligned(16)))' sets alignment 16" in message
    line, col, message = _refusal(lines, path, "uses_typedef")
    assert (line, col) == (8, 36) and "has type 'vring_desc_t'" in message


BPF = """\
#include <stdint.h>
#define __aligned_u64 uint64_t __attribute__((aligned(8)))
struct bpf_btf_info {
    __aligned_u64 btf;
    uint32_t btf_size;
    uint32_t id;
    __aligned_u64 name;
    uint32_t name_len;
    uint32_t kernel_btf;
} __attribute__((aligned(8)));
typedef struct __attribute__((aligned(8))) four { int32_t a; int32_t b; } four;
typedef struct eight { int32_t a; double d; } __attribute__((aligned(8))) eight;
typedef int64_t __attribute__((aligned(8))) aligned_i64;
typedef struct uses_aligned_i64 { aligned_i64 x; } uses_aligned_i64;
"""


def test_an_alignment_of_8_on_a_struct_already_aligned_at_8_imports(tmp_path, capsys):
    status, lines, imported, path = _import(tmp_path, capsys, BPF)
    assert status == 1, lines
    assert set(imported) == {"bpf_btf_info", "eight", "uses_aligned_i64"}, lines
    _assert_gcc_agrees(path, tmp_path, imported, {"bpf_btf_info": "struct bpf_btf_info"})
    assert (imported["bpf_btf_info"].size, imported["bpf_btf_info"].align) == (32, 8)
    # Where the natural alignment is 4, gcc's 8 is another layout: refused at the attribute.
    gcc = _gcc(path, tmp_path, {"four": ("four", ["a", "b"])})
    assert gcc["four@align"] == 8
    line, col, message = _refusal(lines, path, "four")
    assert (line, col) == (11, 16) and "its natural alignment in Sarek's layout is less" in message


def test_an_alignment_through_a_macro_is_reported_at_its_own_place(tmp_path, capsys):
    text = ("#include <stdint.h>\n#define ALIGN8 __attribute__((aligned(8)))\n"
            "typedef struct A { int32_t x ALIGN8; } A;\n"
            "typedef struct B { int64_t y __attribute__((aligned(8))); } B;\n")
    status, lines, imported, path = _import(tmp_path, capsys, text)
    assert status == 1 and set(imported) == {"B"}, lines
    _assert_gcc_agrees(path, tmp_path, imported, {})
    assert _gcc(path, tmp_path, {"A": ("A", ["x"])})["A@align"] == 8  # Sarek's would be 4
    (line,) = lines
    assert line.startswith(f"{path}:3:30: error: '__attribute__((aligned(8)))' aligns member "
                           f"'x' of 'A' at 8"), line


def test_a_flexible_array_member_is_refused_naming_the_type_and_its_place(tmp_path, capsys):
    text = ("#include <stdint.h>\nstruct vring_avail {\n    uint16_t flags;\n    uint16_t idx;\n"
            "    uint16_t ring[];\n};\n")
    status, lines, imported, path = _import(tmp_path, capsys, text)
    assert status == 2 and not imported
    # gcc gives the member no bytes of the struct: no field of a schema can stand for it.
    gcc = _gcc(path, tmp_path, {"vring_avail": ("struct vring_avail", ["ring"])})
    assert gcc["vring_avail"] == gcc["vring_avail.ring"] == 4
    (line,) = lines
    assert line.startswith(f"{path}:5:14: error: member 'ring' of 'vring_avail' is a flexible "
                           f"array member"), line


def test_a_zero_width_bit_field_is_a_bit_field_at_its_place(tmp_path, capsys):
    text = "#include <stdint.h>\ntypedef struct Z {\n    uint8_t a;\n    int32_t : 0;\n" \
           "    uint8_t b;\n} Z;\n"
    status, lines, imported, path = _import(tmp_path, capsys, text)
    assert status == 2 and not imported
    # gcc moves b to the next int32_t: 4, where a schema of a and b puts it at 1.
    assert _gcc(path, tmp_path, {"Z": ("Z", ["a", "b"])})["Z.b"] == 4
    (line,) = lines
    assert line.startswith(f"{path}:4:5: error: an unnamed member of 'Z' is a bit-field"), line


@pytest.mark.parametrize("text, where, fragment", [
    ("#include <stdint.h>\ntypedef struct Z { uint8_t a; int32_t : 0; uint8_t b; } Z;\n",
     "2:31", "an unnamed member of 'Z' is a bit-field"),
    ("#include <stdint.h>\n#define A8 __attribute__((aligned(8)))\n"
     "typedef struct A { int32_t x A8; } A;\ntypedef struct B { int64_t y A8; } B;\n",
     "3:30", "aligns member 'x' of 'A' at 8"),
])
def test_each_is_refused_in_one_line_and_nothing_is_written(tmp_path, text, where, fragment):
    # Through generate, under CPU and memory bounds: exit 2, one line at the place,
    # nothing written.
    (tmp_path / "bad.h").write_text(text)
    check_refused_bounded(["bad.h"], tmp_path, tmp_path, f"bad.h:{where}: error: ", [fragment])
