"""``verify --header`` on headers from someone else (issue #12): paths, names and contents
that try to make verify (or a compiler it runs) do something else than measure.

Each case runs the real command line in a subprocess, as a reviewer would on a pull request,
under a wall-clock timeout and an address-space cap, with ``TMPDIR`` pointing at a fresh
folder. It checks the exit status, that an error is one line without a traceback, that the
folder holding the headers is left exactly as it was, and that no temporary file is left
behind. Every file a hostile header aims at lies inside the test's own folder.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

from helpers.common import require_toolchain
from sarek_layout.verify import toolchains
from sarek_layout.cli.main import main
from helpers.verify import BY_TARGET, DATA, SUFFIX, files_under, run_verify

TARGETS = ["c", "cuda", "opencl"]


@pytest.fixture
def project(tmp_path, capsys):
    """A folder with plain.toml and its generated headers in gen/ (every target)."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(DATA / "plain.toml", root / "plain.toml")
    assert main(["generate", str(root / "plain.toml"), "-o", str(root / "gen"),
                 "-t", "c", "-t", "cuda", "-t", "opencl"]) == 0
    capsys.readouterr()
    return root


def _generated(project: pathlib.Path, target: str) -> str:
    return (project / "gen" / f"plain{SUFFIX[target]}").read_text()


def _installed(target: str) -> list:
    names = [n for n in BY_TARGET[target] if toolchains.get(n).available]
    if not names:
        pytest.skip(f"no {target} toolchain installed")
    return names


def _assert_all_agree(result, names) -> None:
    assert result.status == 0, result
    for name in names:
        assert "agrees" in result.row(name), result
    assert result.tmp_left == [], result


# --- item 1: a header path is a path, never an option -----------------------------------------


@pytest.mark.parametrize("target", TARGETS)
def test_header_named_like_an_output_option_overwrites_nothing(project, target):
    """``--header=-oprecious.h``: cpp used to take it as ``-o precious.h`` and overwrite it."""
    names = _installed(target)
    suffix = SUFFIX[target]
    (project / f"-oprecious{suffix}").write_text(_generated(project, target))
    (project / f"precious{suffix}").write_text("precious data\n")
    before = files_under(project)
    result = run_verify(["plain.toml", f"--header=-oprecious{suffix}"], project)
    assert files_under(project) == before
    _assert_all_agree(result, names)


@pytest.mark.parametrize("target", TARGETS)
def test_header_in_a_folder_named_like_a_plugin_option_loads_nothing(project, target):
    """``--header=-fplugin=./plug.h`` (folder ``-fplugin=.``): cpp used to load ./plug.h,
    here a shared object whose constructor makes a folder, as a GCC plugin."""
    require_toolchain("gcc")
    names = _installed(target)
    suffix = SUFFIX[target]
    marker = project / "PLUGIN_LOADED"
    plugin_src = project.parent / "plugin.c"
    plugin_src.write_text(
        "extern int mkdir(const char *, unsigned int);\n"
        f"__attribute__((constructor)) static void loaded(void) {{ mkdir({str(marker)!r}, 0755); }}\n"
        .replace("'", '"'))
    subprocess.run(["gcc", "-shared", "-fPIC", str(plugin_src), "-o", str(project / f"plug{suffix}")],
                   check=True)
    folder = project / "-fplugin=."
    folder.mkdir()
    (folder / f"plug{suffix}").write_text(_generated(project, target))
    before = files_under(project)
    result = run_verify(["plain.toml", f"--header=-fplugin=./plug{suffix}"], project)
    assert not marker.exists()
    assert files_under(project) == before
    _assert_all_agree(result, names)


@pytest.mark.parametrize("target", TARGETS)
def test_header_folder_name_reaches_no_shell_and_no_option_string(project, target):
    """The header's folder is searched for its includes. nvcc used to run ```…``` in a
    ``-I`` folder through its shell, and PoCL split the folder at spaces into options."""
    names = _installed(target)
    suffix = SUFFIX[target]
    folder = project / "inc -DSAREK_INJECTED `cd ..;mkdir PWNED`"
    folder.mkdir()
    (folder / f"sibling{suffix}").write_text("#define SAREK_SIBLING_SEEN 1\n")
    (folder / f"plain{suffix}").write_text(
        f'#include "sibling{suffix}"\n'
        "#ifndef SAREK_SIBLING_SEEN\n#error the sibling header was not found\n#endif\n"
        "#ifdef SAREK_INJECTED\n#error an option was injected from the folder name\n#endif\n"
        + _generated(project, target))
    before = files_under(project)
    result = run_verify(["plain.toml", "--header", str(folder.relative_to(project) / f"plain{suffix}")],
                        project)
    assert not list(project.parent.rglob("PWNED")), result
    assert files_under(project) == before
    _assert_all_agree(result, names)


# --- item 2: a header name cannot inject lines into the probe source ---------------------------


@pytest.mark.parametrize("name, what", [
    ('x.h"\n#error SAREK_INJECTED\n#include "x.h', "has a double quote"),
    ("x.h\n#error SAREK_INJECTED\n.h", "has the control character \\n"),
    ("back\\slash.h", "has a backslash"),
])
def test_header_name_that_would_inject_lines_is_refused(project, name, what):
    require_toolchain("gcc")
    (project / "x.h").write_text(_generated(project, "c"))
    (project / name).write_text(_generated(project, "c"))
    result = run_verify(["plain.toml", "--header", name], project)
    assert result.status == 2, result
    line = result.one_line_error()
    assert what in line and "rename the file" in line
    assert result.out == ""  # no compiler ran, so no injected line reached one
    assert result.tmp_left == []


@pytest.mark.parametrize("trigraph, other", [("??-", "~"), ("??!", "|"), ("??(", "[")])
def test_header_name_with_a_trigraph_is_refused_not_swapped_for_another_file(
        project, trigraph, other):
    """``--header 'p??-.h'``: C11 and C++11 replace the trigraph inside ``#include "…"``,
    so the probe included ``p~.h`` beside it, and a ``#pragma pack(push,1)`` header
    "agreed" on gcc, g++, clang and gcc -m32 (exit 0). Refused now, before any compile."""
    require_toolchain("gcc")
    generated = _generated(project, "c")
    name = f"p{trigraph}.h"
    (project / name).write_text("#pragma pack(push, 1)\n" + generated + "#pragma pack(pop)\n")
    (project / f"p{other}.h").write_text(generated)
    # The compilers do rewrite the name (this test is not vacuous): each includes p~.h.
    probe = project.parent / "probe.c"
    probe.write_text(f'#include "{name}"\n')
    for compiler, std in [("gcc", "-std=c11"), ("g++", "-std=c++11"), ("clang", "-std=c11")]:
        if shutil.which(compiler) is None:
            continue
        deps = subprocess.run([compiler, std, "-x", "c++" if compiler == "g++" else "c", "-M",
                               "-I", str(project), str(probe)],
                              capture_output=True, text=True, check=True).stdout
        assert f"p{other}.h" in deps and name not in deps, (compiler, deps)
    before = files_under(project)
    result = run_verify(["plain.toml", "--header", name], project)
    assert result.status == 2, result
    line = result.one_line_error()
    assert f"the trigraph {trigraph}" in line and "rename the file" in line, line
    assert result.out == ""  # refused before any compiler ran
    assert files_under(project) == before
    assert result.tmp_left == []


# --- item 3: nothing a header holds runs ------------------------------------------------------


def test_cffi_never_runs_a_constructor_of_the_header(project):
    """cffi used to import the module it built from the header: its constructors ran inside
    sarek-layout (this one makes a folder, then aborts the process)."""
    require_toolchain("cffi")
    marker = project / "CONSTRUCTOR_RAN"
    (project / "ctor.h").write_text(
        _generated(project, "c")
        + "extern int mkdir(const char *, unsigned int);\n"
        + f'__attribute__((constructor)) static void sarek_evil(void) {{ mkdir("{marker}", 0755); '
          "__builtin_abort(); }\n")
    before = files_under(project)
    result = run_verify(["plain.toml", "--header", "ctor.h", "--toolchain", "cffi",
                         "--toolchain", "gcc"], project)
    assert not marker.exists()
    assert files_under(project) == before
    _assert_all_agree(result, ["cffi", "gcc"])


def test_pocl_kernel_calls_no_function_of_the_header(project):
    """The probe kernel used to call get_global_id: a header macro could swap in its own
    function, which then ran inside sarek-layout."""
    require_toolchain("pocl")
    (project / "hijack.clh").write_text(
        _generated(project, "opencl")
        + "size_t sarek_hijack(uint d) { printf(\"HEADER CODE RAN\\n\"); return 0; }\n"
        + "#define get_global_id(d) sarek_hijack(d)\n")
    result = run_verify(["plain.toml", "--header", "hijack.clh", "--toolchain", "pocl"], project)
    assert "HEADER CODE RAN" not in result.out + result.err
    _assert_all_agree(result, ["pocl"])


def test_pocl_refuses_a_header_that_renames_a_word_of_the_kernel(project):
    require_toolchain("pocl")
    (project / "mac.clh").write_text(_generated(project, "opencl") + "#define volatile\n")
    result = run_verify(["plain.toml", "--header", "mac.clh", "--toolchain", "pocl"], project)
    assert result.status == 1, result
    assert "FAILED" in result.row("pocl")
    assert "the header defines a macro named volatile" in result.out
    assert result.tmp_left == []


def test_pocl_abort_on_a_header_constructor_does_not_take_verify_down(project):
    """PoCL aborts the process that runs a program with a constructor it cannot link: that
    is the helper process now, and verify reports it."""
    require_toolchain("pocl")
    (project / "ctor.clh").write_text(
        _generated(project, "opencl")
        + '__attribute__((constructor)) void sarek_evil(void) { printf("EVIL\\n"); }\n')
    result = run_verify(["plain.toml", "--header", "ctor.clh", "--toolchain", "pocl"], project)
    assert result.status == 1, result
    assert "FAILED" in result.row("pocl")
    assert "SIGABRT" in result.out
    assert "0 of 1 toolchain agree" in result.out
    assert result.tmp_left == []


# --- files that are not headers, and headers that never end ----------------------------------


_NOT_REGULAR = "not a regular file: a FIFO, socket or device"


@pytest.mark.parametrize("make, reason", [
    (lambda p: os.mkfifo(p), _NOT_REGULAR),
    (lambda p: os.symlink("/dev/zero", p), _NOT_REGULAR),
    (lambda p: os.mkdir(p), "it is a folder"),
    (lambda p: None, "No such file or directory"),
], ids=["fifo", "dev-zero", "folder", "missing"])
def test_header_path_that_is_not_a_file_is_refused_at_once(project, make, reason):
    make(str(project / "odd.h"))
    result = run_verify(["plain.toml", "--header", "odd.h"], project, timeout=60)
    assert result.status == 2, result
    assert result.one_line_error() == f"sarek-layout: error: odd.h: cannot read the header ({reason})"


def test_header_including_a_fifo_is_refused_before_cpp_runs(project):
    # The one C reader resolves #include as cpp does and refuses a FIFO at its place.
    os.mkfifo(project / "pipe.h")
    (project / "incl.h").write_text('#include "pipe.h"\n')
    result = run_verify(["plain.toml", "--header", "incl.h"], project, timeout=60,
                        env={"SAREK_VERIFY_TIMEOUT": "2"})
    assert result.status == 2, result
    line = result.one_line_error()
    assert line.startswith("incl.h:1:10: error: #include names "), line
    assert "which is a FIFO, not a header" in line
    assert result.tmp_left == []


def test_header_including_a_fifo_through_a_macro_is_stopped_by_the_timeout(project):
    # A file only a macro names escapes the #include check: the preprocessor's own bounds
    # stop it.
    os.mkfifo(project / "pipe.h")
    (project / "incl.h").write_text('#define HIDDEN "pipe.h"\n#include HIDDEN\n')
    result = run_verify(["plain.toml", "--header", "incl.h"], project, timeout=60,
                        env={"SAREK_VERIFY_TIMEOUT": "2"})
    assert result.status == 2, result
    assert "did not finish" in result.one_line_error()
    assert result.tmp_left == []


@pytest.mark.parametrize("name, guard", [("gcc", "__GNUC__"), ("nvrtc", "__CUDACC_RTC__")])
def test_compiler_only_include_of_a_fifo_is_stopped_by_the_timeout(project, name, guard):
    """The structure check does not see it (cpp defines neither macro): the compiler does,
    and is stopped. NVRTC used to compile in-process, where no timeout could stop it."""
    tc = require_toolchain(name)
    os.mkfifo(project / "pipe.h")
    # Named through a macro, so that the structure check's #include check cannot see it.
    (project / f"incl{SUFFIX[tc.target]}").write_text(
        f'#define HIDDEN "pipe.h"\n#ifdef {guard}\n#include HIDDEN\n#endif\n'
        + _generated(project, tc.target))
    result = run_verify(["plain.toml", "--header", f"incl{SUFFIX[tc.target]}", "--toolchain", name],
                        project, timeout=120, env={"SAREK_VERIFY_TIMEOUT": "3"})
    assert result.status == 1, result
    assert "FAILED" in result.row(name)
    assert "stopped after 3 s ($SAREK_VERIFY_TIMEOUT)" in result.out
    assert result.tmp_left == []


def test_header_including_dev_zero_is_stopped_by_the_memory_cap(project):
    (project / "zero.h").write_text('#include "/dev/zero"\n')
    result = run_verify(["plain.toml", "--header", "zero.h"], project, timeout=120,
                        env={"SAREK_VERIFY_MEMORY_MB": "512"}, memory_bytes=2 << 30)
    assert result.status == 2, result
    assert result.one_line_error().startswith("zero.h:1:10: error: #include names '/dev/zero', "
                                              "which is a character device")


def test_macro_bomb_is_too_large_for_the_structure_check(project):
    """Ten nested macros of ten words each: 10**10 words after preprocessing."""
    lines = ["#define B0 word"] + [f"#define B{i} " + " ".join([f"B{i - 1}"] * 10)
                                   for i in range(1, 11)]
    (project / "bomb.h").write_text("\n".join(lines) + "\nB10\n")
    result = run_verify(["plain.toml", "--header", "bomb.h"], project, timeout=120,
                        memory_bytes=4 << 30)
    assert result.status == 2, result
    assert result.one_line_error() == ("bomb.h: error: the header is too large to read: more "
                                       "than 32 MiB after preprocessing")
    assert result.tmp_left == []


# --- probe tables hold 32-bit values -------------------------------------------------------


@pytest.mark.parametrize("name", ["nvcc", "nvrtc", "pocl"])
def test_a_size_past_4_gib_does_not_wrap_round_to_agreement(project, name):
    """4 GiB + 16 bytes is 16 modulo 2**32: the 32-bit device tables used to read exactly
    the layout's size of Plain_mixed."""
    tc = require_toolchain(name)
    text = _generated(project, tc.target).replace(
        "/* offset 8 */", "unsigned char _sarek_huge[4294967296];", 1)  # after mass
    # Its own assertions (size 16) no longer hold: drop them; the probes must say why.
    text = "\n".join(ln for ln in text.splitlines() if "sizeof(Plain_mixed)" not in ln)
    (project / f"huge{SUFFIX[tc.target]}").write_text(text + "\n")
    result = run_verify(["plain.toml", "--header", f"huge{SUFFIX[tc.target]}", "--toolchain", name],
                        project)
    assert result.status == 1, result
    passes = [f"{name} ({p})" for p in tc.passes] or [name]
    for who in passes:
        assert f"Plain_mixed: layout says size 16, {who} says " in result.out, result
