"""Hostile inputs the bad-input corpus cannot hold: files of hundreds of kilobytes made to
find exponential or quadratic steps and memory blow-ups in the readers.

Each is refused like any bad input (exit 2, one ``FILE:LINE:COL: error:`` line, no
traceback, nothing written), and runs in a child process under a generous time and memory
limit (``hostile.py``), so that a regression fails instead of hanging the suite. The memory
a reader needs is measured with ``tracemalloc`` and bounded by a multiple of the input size.
Small hostile files live in the corpus (``tests/bad_inputs``, ``BOUNDED`` in
``test_bad_inputs.py``).
"""

from __future__ import annotations

import os
import shutil

import pytest

from helpers.hostile import check_refused_bounded, reader_peak_memory, run_bounded

KB = 1 << 10
SIZE = 256 * KB  # big enough that a quadratic step takes minutes, small enough to run in CI

#: A refusal that needs the whole file read first (an empty record is refused by ``resolve``).
EMPTY_RECORD = "\ntype t = {} [@@sarek.type]\n"

# (id, source, "LINE:COL" of the refusal, a fragment of the message)
OCAML = [
    # ``(?:[^"\\]|\\.|\\\n)*`` matched a backslash-newline two ways: 2^n attempts.
    ("string_of_backslash_newlines", '"' + "\\\n" * (SIZE // 2), "1:1",
     "unterminated string literal"),
    ("comment_string_of_backslash_newlines", '(* "' + "\\\n" * (SIZE // 2), "1:4",
     "this comment contains an unterminated string literal"),
    ("string_of_backslashes", '"' + "\\" * SIZE, "1:1", "unterminated string literal"),
    # ``{%ext id|``: the extension name and the delimiter could share letters.
    ("quoted_extension_without_bar", "{%" + "a" * SIZE, "1:1", "unclosed '{'"),
    ("quoted_extension_in_comment", "(* {%" + "a" * SIZE + " *)" + EMPTY_RECORD, "2:6",
     "record 't' has no fields"),
    ("comment_openers", "(*" * (SIZE // 2), "1:1", "unterminated comment"),
    ("quotes", '"' * (SIZE + 1), f"1:{SIZE + 1}", "unterminated string literal"),
    ("quoted_string_openers", "{|" * (SIZE // 2), "1:1", "unterminated quoted string"),
    ("apostrophes", "'" * SIZE + EMPTY_RECORD, "2:6", "record 't' has no fields"),
    ("char_escapes", "'\\" * (SIZE // 2) + EMPTY_RECORD, "2:6", "record 't' has no fields"),
    ("numbers", "1" + "_" * SIZE + " 0x" + "f" * SIZE + EMPTY_RECORD, "2:6",
     "record 't' has no fields"),
    ("parentheses", "(" * (SIZE // 2) + ")" * (SIZE // 2) + EMPTY_RECORD, "2:6",
     "record 't' has no fields"),
    ("unclosed_parentheses", "(" * SIZE, f"1:{SIZE}", "unclosed '('"),
    ("attribute_path", "type u = A [@@" + "a." * (SIZE // 2) + "a]" + EMPTY_RECORD, "2:6",
     "record 't' has no fields"),
    ("nested_modules", "module M = struct " * (SIZE // 32) + "end " * (SIZE // 32)
     + EMPTY_RECORD, "2:6", "record 't' has no fields"),
    ("type_keywords", "type " * (SIZE // 5) + EMPTY_RECORD, "2:6", "record 't' has no fields"),
    ("and_chain", "type a = A [@@sarek.type]"
     + "".join(f" and b{k} = B [@@sarek.type]" for k in range(SIZE // 32)) + EMPTY_RECORD,
     "2:6", "record 't' has no fields"),
]


@pytest.mark.parametrize("case", OCAML, ids=[c[0] for c in OCAML])
def test_hostile_ocaml_is_refused_in_bounded_time_and_memory(case, tmp_path):
    name, source, where, fragment = case
    path = tmp_path / f"{name}.ml"
    path.write_text(source)
    check_refused_bounded([str(path)], tmp_path, tmp_path, f"{path}:{where}: error: ", [fragment])


def _realistic_ocaml(size: int) -> str:
    """The test corpus's Sarek source, repeated (the copies without their attributes)."""
    from helpers.common import ROOT

    source = (ROOT / "tests" / "data" / "ocaml" / "kernels.ml").read_text()
    copy = source.replace("[@@sarek.type]", "").replace("[@@sarek.type_private]", "")
    return source + copy * (size // len(copy))


#: The most memory any reader may need, as a multiple of the input's size. One object per
#: token (kind, text, offset) and a list of depths cost 100 to 170 bytes a byte of input.
MEMORY_FACTOR = 25

MEMORY = [
    ("realistic.ml", lambda: _realistic_ocaml(2 * SIZE)),
    ("apostrophes.ml", lambda: "'" * SIZE),
    ("parentheses.ml", lambda: "(" * (SIZE // 2) + ")" * (SIZE // 2)),
    ("empty_strings.ml", lambda: '""' * (SIZE // 2)),
    ("words.ml", lambda: "a " * (SIZE // 2)),
    ("newlines.ml", lambda: "\n" * SIZE + "(*"),  # an error: the line map is built
    ("deep_values.json", lambda: '{"types": [' + "[" * 500 + "1," * (SIZE // 4) + "1" + "]" * 500
     + "]}"),
    ("values.toml", lambda: "types = [" + "1, " * (SIZE // 3) + "]\n"),
]


@pytest.mark.parametrize("name, make", MEMORY, ids=[m[0] for m in MEMORY])
def test_reader_memory_is_a_small_multiple_of_the_input(name, make, tmp_path):
    path = tmp_path / name
    path.write_text(make())
    size = path.stat().st_size
    peak = reader_peak_memory(path)
    assert peak <= MEMORY_FACTOR * size, (
        f"reading {size} bytes of {name} took {peak} bytes ({peak / size:.0f}x; the limit is "
        f"{MEMORY_FACTOR}x)")


# --- C headers: devices, FIFOs and line markers -----------------------------------------------

needs_cpp = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("cpp", "gcc", "clang")),
    reason="reading C headers needs a C preprocessor: apt-get install cpp",
)


@needs_cpp
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_line_marker_naming_a_device_is_never_read(device, tmp_path):
    # The member is on "line 1 of the device" by the marker: positions were looked up there.
    header = tmp_path / "marker.h"
    header.write_text(f'#include <stdint.h>\ntypedef struct T T;\nstruct T {{\n# 1 "{device}"\n'
                      "  int32_t *p; };\n")
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{device}:1:", ["is a pointer"])


@needs_cpp
def test_a_line_marker_naming_a_fifo_is_never_opened(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    header = tmp_path / "marker.h"
    header.write_text(f'#include <stdint.h>\ntypedef struct T T;\nstruct T {{\n# 1 "{fifo}"\n'
                      "  int32_t *p; };\n")
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{fifo}:1:", ["is a pointer"])


@needs_cpp
@pytest.mark.parametrize("kind", ["fifo", "symlink to /dev/zero"])
def test_an_include_of_a_fifo_or_device_is_refused_before_cpp_runs(kind, tmp_path):
    target = tmp_path / "evil.h"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    header = tmp_path / "main.h"
    header.write_text('#include <stdint.h>\n#include "evil.h"\n'
                      "typedef struct T { int32_t a; } T;\n")
    what = "a FIFO" if kind == "fifo" else "a character device"
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{header}:2:10: error: ",
                          [f"#include names '{target}', which is {what}, not a header"])


@needs_cpp
def test_has_include_of_a_fifo_is_refused_before_cpp_runs(tmp_path):
    fifo = tmp_path / "fifo.h"
    os.mkfifo(fifo)
    header = tmp_path / "main.h"
    header.write_text('#if __has_include("fifo.h")\n#endif\ntypedef struct T { int a; } T;\n')
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{header}:1:19: error: ",
                          [f"__has_include names '{fifo}', which is a FIFO"])


@needs_cpp
def test_an_include_of_a_device_through_a_macro_is_bounded(tmp_path):
    # Found by no #include check: cpp runs under a memory limit and is refused in one line.
    header = tmp_path / "main.h"
    header.write_text('#define DEV "/dev/zero"\n#include DEV\ntypedef struct T { int a; } T;\n')
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{header}: error: ",
                          ["the C preprocessor ran out of its limits"])


@needs_cpp
def test_import_c_of_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "schema.h"
    os.mkfifo(fifo)
    check_refused_bounded([str(fifo)], tmp_path, tmp_path, f"{fifo}: error: ",
                          ["is not a regular file (a FIFO, socket or device)"], command="import-c")


@needs_cpp
@pytest.mark.parametrize("name, source, where, fragment", [
    ("unclosed_attributes", "__attribute__((" * (SIZE // 15), "1:1", "is not closed"),
    ("attributes", "int f(void) " + "__attribute__((unused)) " * (SIZE // 24)
     + ";\ntypedef struct T { int *p; } T;\n", "2:25", "is a pointer"),
    ("brackets", "[" * SIZE, "1:1", "is not closed"),
    ("enumerators", "typedef struct T { int tag; } T;\nenum {"
     + ",".join(f" T_A{i}" for i in range(SIZE // 8)) + ", T_B = T_A0 };\n", "2:",
     "the tags of tagged variant 'T' must be 0, 1"),
    ("members_on_one_line", "#define I int\ntypedef struct T {"
     + "".join(f"  I   a{i}  ;" for i in range(SIZE // 16)) + " int *p; } T;\n", "2:", "is a pointer"),
])
def test_hostile_c_is_refused_in_bounded_time_and_memory(name, source, where, fragment, tmp_path):
    header = tmp_path / f"{name}.h"
    header.write_text(source)
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{header}:{where}", [fragment],
                          command="import-c")


# --- JSON and TOML ------------------------------------------------------------------------------

JSON_TOML = [
    # tomllib walks the whole path for every dotted part: 80 KB of a.a.a… took a minute.
    ("dotted_key.toml", "types = []\n" + ".".join(["a"] * (SIZE // 4)) + " = 1\n", "2:1",
     f"a key or table name of {SIZE // 4} dotted parts"),
    ("dotted_table.toml", "[" + ".".join(["a"] * (SIZE // 4)) + "]\n", "1:2",
     "dotted parts"),
    # Python refuses to convert more than 4,300 digits (a ValueError out of the parsers).
    ("huge_int.json", '{"types": [' + "9" * SIZE + "]}", "1:12",
     "a type declaration must be a table/object, not a number"),
    ("huge_int.toml", "types = [" + "9" * SIZE + "]\n", "1:10",
     "an integer of more than 4300 digits"),
    # Every value's path was recorded, a path as long as the nesting is deep.
    ("deep_values.json", '{"types": [' + "[" * 500 + "1," * (SIZE // 2) + "1" + "]" * 500 + "]}",
     "1:12", "a type declaration must be a table/object, not an array"),
    ("deep_arrays.json", "[" * SIZE, "1:1", "invalid JSON: nested too deeply"),
    ("deep_arrays.toml", "x = " + "[" * SIZE, "1:1", "invalid TOML: nested too deeply"),
    ("deep_tables.toml", "x = " + "{a = " * (SIZE // 5), "1:1", "invalid TOML: nested too deeply"),
]


@pytest.mark.parametrize("name, source, where, fragment", JSON_TOML, ids=[c[0] for c in JSON_TOML])
def test_hostile_json_and_toml_are_refused_in_bounded_time_and_memory(name, source, where,
                                                                       fragment, tmp_path):
    path = tmp_path / name
    path.write_text(source)
    check_refused_bounded([str(path)], tmp_path, tmp_path, f"{path}:{where}: error: ", [fragment])


# --- every reader, called directly, on a FIFO: refused, never waited on ----------------------

_READ_FIFO = """
import importlib, sys
from sarek_layout import SarekLayoutError
module, function, path = sys.argv[1:]
try:
    getattr(importlib.import_module(module), function)(path)
except SarekLayoutError as e:
    print(e)
"""


@pytest.mark.parametrize("suffix", [".json", ".toml", ".ml", ".h"])
def test_every_reader_refuses_a_fifo_without_waiting_for_a_writer(suffix, tmp_path):
    from sarek_layout.frontends import READERS

    fifo = tmp_path / f"schema{suffix}"
    os.mkfifo(fifo)
    module, function = READERS[suffix]
    proc = run_bounded(["-c", _READ_FIFO, module, function, str(fifo)], tmp_path)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert proc.stdout.decode().strip() == (
        f"{fifo}: error: is not a regular file (a FIFO, socket or device); pass a schema file")
