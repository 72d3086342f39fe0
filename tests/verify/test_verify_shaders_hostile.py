"""``verify --shader`` on hostile shaders: the bad-shader corpus (``tests/bad_shaders``) and
inputs made on the fly (a FIFO, a device, a huge file, a million brackets, an include that
leads out of its -I folder, a shader that keeps its compiler busy).

Each is refused with exit status 2 and one line ``FILE[:LINE:COL]: error: …`` before any
compiler runs, or, when only the compiler can find out (a macro that expands forever), the
compiler is stopped by ``$SAREK_VERIFY_TIMEOUT`` and the shader reported as not compiled.
"""

from __future__ import annotations

import os
import pathlib

import pytest

from helpers.common import require_toolchain
from helpers.hostile import run_bounded
from sarek_layout.cli.main import main

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "bad_shaders"
SCHEMA = pathlib.Path(__file__).resolve().parents[1] / "data" / "shaders" / "mistakes.toml"

OUTSIDE = "verify reads only files among the shaders given or below an -I folder"
ONLY_INCLUDE = "verify follows only #include"
NESTED = "brackets nested deeper than 200 levels"

#: file -> (line:col, or "" for a refusal without a place, fragments of the message).
CASES = {
    "include_absolute.comp": ("2:1", ['#include "/etc/passwd"', OUTSIDE]),
    "include_dotdot.comp": ("2:1", [OUTSIDE, "no '..'"]),
    "include_empty.comp": ("2:1", [OUTSIDE]),
    "include_backslash.comp": ("2:1", [OUTSIDE]),
    "include_device.comp": ("2:1", ['"/dev/zero"', OUTSIDE]),
    "include_dot_part.comp": ("2:3", [OUTSIDE]),
    "include_missing.comp": ("2:1", ['#include "nothere.glsl" is neither a --shader given nor '
                                     'in an -I folder']),
    # A backslash-newline inside the directive: compilers splice it first.
    "include_spliced.comp": ("2:1", ['#include "/etc/passwd"', OUTSIDE]),
    "include_macro.metal": ("3:1", ["#include F", ONLY_INCLUDE]),
    # clang's #import (an #include once) is followed, and refused like an #include.
    "import.metal": ("1:1", ['#import "/etc/passwd"', OUTSIDE]),
    "include_next.metal": ("1:1", ["#include_next", ONLY_INCLUDE]),
    "embed.metal": ("1:1", ["#embed", ONLY_INCLUDE]),
    # %: is # in C++ (the Metal proxy's language).
    "digraph.metal": ("1:1", ['#include "/etc/passwd"', OUTSIDE]),
    # A "/*" inside a string opens no comment: the #include after it is read.
    "comment_in_string.metal": ("2:1", ['#include "/etc/passwd"', OUTSIDE]),
    "nested_parens.comp": ("2:224", [NESTED]),
    "nested_braces.wgsl": ("1:208", [NESTED]),
}


def _refused(capsys, args, prefix, fragments):
    status = main(["verify", str(SCHEMA), *map(str, args)])
    out, err = capsys.readouterr()
    assert (status, out) == (2, ""), err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith(prefix), lines[0]
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]


def test_every_corpus_file_has_a_case():
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted([*CASES, "not_a_shader.txt"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_shader_is_refused_in_one_line_before_any_compiler_runs(name, capsys,
                                                                          monkeypatch):
    where, fragments = CASES[name]
    monkeypatch.chdir(CORPUS)
    # No compiler may be reached: an empty PATH would make one a missing toolchain instead.
    monkeypatch.setenv("PATH", "/nonexistent")
    _refused(capsys, ["--shader", name], f"{name}:{where}: error: " if where else f"{name}: ",
             fragments)


def test_a_file_of_no_shading_language_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.chdir(CORPUS)
    _refused(capsys, ["--shader", "not_a_shader.txt"], "sarek-layout: error: not_a_shader.txt: ",
             ["cannot tell the shader's language from its suffix '.txt'"])


def _unreadable(kind: str, folder: pathlib.Path):
    path = folder / "s.comp"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "not a regular file: a FIFO, socket or device"
    if kind == "device":
        path.symlink_to("/dev/zero")
        return path, "not a regular file: a FIFO, socket or device"
    if kind == "huge":
        with open(path, "wb") as f:
            f.truncate((4 << 20) + 1)  # sparse: costs no disk
        return path, "larger than 4 MiB"
    if kind == "folder":
        path.mkdir()
        return path, "it is a folder"
    assert kind == "missing"
    return path, "No such file or directory"


@pytest.mark.parametrize("kind", ["fifo", "device", "huge", "folder", "missing"])
def test_a_shader_that_cannot_be_read_is_refused_in_one_line(kind, tmp_path):
    path, fragment = _unreadable(kind, tmp_path)
    proc = run_bounded(["-m", "sarek_layout", "verify", str(SCHEMA), "--shader", str(path)],
                       tmp_path)
    err = proc.stderr.decode()
    assert (proc.returncode, proc.stdout) == (2, b""), err
    assert err == f"{path}: error: cannot read the shader ({fragment})\n"


def test_a_million_brackets_are_refused_in_bounded_time(tmp_path):
    path = tmp_path / "deep.comp"
    path.write_text("void main() { float x = " + "(" * 1_000_000 + "1.0;\n")
    proc = run_bounded(["-m", "sarek_layout", "verify", str(SCHEMA), "--shader", str(path)],
                       tmp_path)
    err = proc.stderr.decode()
    assert (proc.returncode, proc.stdout) == (2, b""), err
    assert err.startswith(f"{path}:1:224: error: {NESTED}") and err.count("\n") == 1, err


@pytest.mark.parametrize("kind", ["fifo", "escaping symlink"])
def test_an_included_file_must_be_a_regular_file_inside_its_I_folder(kind, tmp_path, capsys):
    lib = tmp_path / "lib"
    lib.mkdir()
    shader = tmp_path / "s.comp"
    shader.write_text('#version 450\n#include "x.glsl"\nvoid main() { }\n')
    if kind == "fifo":
        os.mkfifo(lib / "x.glsl")
        _refused(capsys, ["--shader", shader, "-I", lib], f"{lib / 'x.glsl'}: error: ",
                 ["cannot read the included file (not a regular file"])
    else:
        (tmp_path / "secret.glsl").write_text("struct K_item { float x; };\n")
        (lib / "x.glsl").symlink_to(tmp_path / "secret.glsl")
        _refused(capsys, ["--shader", shader, "-I", lib], f"{shader}:2:1: error: ",
                 ["leads out of the -I folder"])


def test_a_compiler_kept_busy_by_a_shader_is_stopped_by_the_verify_timeout(tmp_path,
                                                                            monkeypatch):
    require_toolchain("glslang")
    # Each macro doubles the one before: 2**40 tokens, which glslang would expand forever.
    lines = ["#version 450", "#define M0 1.0"]
    lines += [f"#define M{i} M{i - 1} + M{i - 1}" for i in range(1, 41)]
    lines += ["struct K_item { float x; };", "void main() { float y = M40; }"]
    shader = tmp_path / "busy.comp"
    shader.write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("SAREK_VERIFY_TIMEOUT", "2")
    proc = run_bounded(["-m", "sarek_layout", "verify", str(SCHEMA), "--shader", str(shader)],
                       tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 1, (out, proc.stderr.decode())
    # Which bound stops it first depends on how fast this machine is at the moment: the 2 s
    # timeout, or the address-space limit the growing expansion reaches (glslang aborts).
    stopped = (f"error: {shader}: glslang: stopped after 2 s ($SAREK_VERIFY_TIMEOUT)",
               f"error: {shader}: glslang: glslangValidator died of SIGABRT (if it ran out of "
               "memory: its address space is limited to")
    assert any(line in out for line in stopped), out


def test_the_files_read_together_are_bounded_too(tmp_path, capsys):
    """256 includes of 4 MiB each would be 1 GiB in memory: the total is capped (16 MiB)."""
    lib = tmp_path / "lib"
    lib.mkdir()
    for i in range(5):
        (lib / f"part{i}.glsl").write_text("// filler\n" + " " * ((4 << 20) - 1000) + "\n")
    shader = tmp_path / "s.comp"
    shader.write_text("".join(f'#include "part{i}.glsl"\n' for i in range(5)))
    _refused(capsys, ["--shader", shader, "-I", lib], f"{lib / 'part4.glsl'}: error: ",
             ["larger than 16 MiB together"])


# --- #include directives the compilers read and a line-by-line scanner would miss -----------

SECRET = "SAREK_SECRET_d41d8cd9"

#: name -> the text before the directive, what stands between the "#include" and the file
#: name, and where the directive's "#" is (LINE:COL). Each evasion was read by its compiler
#: (glslang 12, clang 14) before the scan read lines as they do.
EVASIONS = {
    # glslang and clang end a line at a lone CR.
    "lone_cr.comp": ("int a;\r", "2:1"),
    "lone_cr.metal": ("int a;\r", "2:1"),
    # Form feeds and vertical tabs are white space before a '#' (clang).
    "form_feed.metal": ("\f", "1:2"),
    "vertical_tab.metal": ("\v", "1:2"),
    "form_feed.comp": ("\f", "1:2"),
    # A raw string holds what looks like an open comment; the directive after it is live.
    "raw_string.metal": ('const char *s = R"(\n/*)";\n', "3:1"),
    "raw_string_delimiter.metal": ('const char *s = R"x(\n)"/*)x";\n', "3:1"),
    # A splice inside a raw string is no splice: the string ends later than it seems.
    "raw_string_splice.metal": ('const char *s = R"(a)\\\n"; /*\n)";\n', "4:1"),
    # A digit separator is no quote: the "/*" after it is in a string.
    "digit_separator.metal": ("int a = 1'0; const char *b = \"'/*\";\n", "2:1"),
    # glslang reads "..." as one token too: the "/*" inside opens no comment.
    "string.comp": ('const int a = "/*";\n', "2:1"),
    # A comment before the '#' or before the name is white space.
    "comment_before.comp": ("/* a\n */ ", "2:5"),
    "comment_inside.metal": ("", "1:1"),
}


def _evasion(tmp_path, name):
    """The shader ``name`` and the secret file it tries to read (absolute for clang; up and
    down again for glslang, which resolves a name below the including file's folder)."""
    secret = tmp_path / "outside" / "secret.h"
    secret.parent.mkdir()
    secret.write_text(f"{SECRET} hunter2\n")  # not code: a compiler that reads it says so
    before, _ = EVASIONS[name]
    target = ("../" * 40 + str(secret).lstrip("/")) if name.endswith(".comp") else str(secret)
    middle = "# /* x */ include /* y */ " if name.startswith("comment_inside") else "#include "
    shaders = tmp_path / "shaders"
    shaders.mkdir()
    shader = shaders / name
    # A schema struct first, so that the compiler runs (#version first in GLSL): the
    # evasion's line numbers count from the line after it.
    head = ("#version 450\n" if name.endswith(".comp") else "") + "struct K_item { float x; };\n"
    shader.write_bytes((head + before + middle + f'"{target}"\n// */\n').encode())
    return shader


@pytest.mark.parametrize("name", sorted(EVASIONS))
def test_an_include_after_a_line_end_a_compiler_reads_is_refused(name, tmp_path, monkeypatch):
    shader = _evasion(tmp_path, name)
    line, col = EVASIONS[name][1].split(":")
    line = str(int(line) + (2 if name.endswith(".comp") else 1))
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # the compile folders: none may be left behind
    proc = run_bounded(["-m", "sarek_layout", "verify", str(SCHEMA), "--shader", str(shader)],
                       shader.parent)
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert SECRET not in out + err
    assert (proc.returncode, out) == (2, ""), out + err
    assert err.count("\n") == 1 and err.startswith(f"{shader}:{line}:{col}: error: #include "), err
    assert OUTSIDE in err, err
    assert sorted(p.name for p in shader.parent.iterdir()) == [name]  # nothing written
    assert list(temp.iterdir()) == []


@pytest.mark.parametrize("suffix", ["comp", "metal"])
def test_the_compiler_cannot_read_outside_its_folder_even_past_the_scan(suffix, tmp_path,
                                                                        capsys, monkeypatch):
    """The second wall: with the scan of #include lines switched off, the compiler itself
    finds no file outside its compile folder (clang: a file-system overlay of only those
    files; glslang: Landlock, where the kernel has it)."""
    from sarek_layout.verify.shaders import sandbox, source

    toolchain = {"comp": "glslang", "metal": "metal-proxy"}[suffix]
    require_toolchain(toolchain)
    if suffix == "comp" and not sandbox.landlock_available():
        pytest.skip("this kernel has no Landlock: glslang cannot be confined")
    monkeypatch.setattr(source, "_READS_A_FILE", ())
    shader = _evasion(tmp_path, "lone_cr." + suffix)
    shader.write_bytes(shader.read_bytes().replace(b"\r", b"\n"))
    status = main(["verify", str(SCHEMA), "--shader", str(shader)])
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    assert status == 1 and "1 shader not compiled" in out, out + err
    assert ("file not found" if suffix == "metal" else "Could not process include") in out, out


#: 4 MiB of what makes a lexer work per character: digit separators (each ``'`` asks whether
#: it is inside a number), comments, line splices, raw strings.
DENSE = {
    "digits.metal": lambda n: "int x = 1" + "'1" * (n // 2 - 100) + ";\n",
    "comments.metal": lambda n: "/**/" * (n // 4 - 10),
    "splices.comp": lambda n: "\\\n" * (n // 2 - 10),
    "raw.metal": lambda n: ('R"(' + "x" * 50 + ')" ') * (n // 60),
}


@pytest.mark.parametrize("name", sorted(DENSE))
def test_the_line_scan_is_linear_in_the_shader(name, tmp_path):
    """Each reads as the compiler reads it in bounded CPU time (the digit separators once
    went back over the whole number at each quote: 16 s for 1.5 MB), and checks nothing."""
    shader = tmp_path / name
    shader.write_text(DENSE[name]((4 << 20) - 4096))
    proc = run_bounded(["-m", "sarek_layout", "verify", str(SCHEMA), "--shader", str(shader)],
                       tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 1, out + proc.stderr.decode()
    assert "error: no struct checked" in out, out
