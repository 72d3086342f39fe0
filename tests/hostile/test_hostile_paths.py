"""Hostile output paths and hostile surroundings: what a command writes, and the status it says.

People run sarek-layout on every build, on files they did not write. This module holds:

* ``CASES``, a corpus of command lines whose outputs must be refused: an output that is an
  input (by another spelling, through a link, a hard link), or another output; a FIFO, a
  device, a folder; a picture given a schema's name (``explain --svg a.toml b.toml``); a
  depfile path GNU make and ninja cannot both read. Each runs the real command line in a
  subprocess with a CPU-time limit and an address-space limit (a FIFO hung the old code, and
  ``/dev/zero`` ate its memory) and must exit 2 with one ``error:`` line naming the paths, no
  traceback, and nothing written (every file's bytes, inode and timestamp, links included);
* a hypothesis test over path characters: a schema and its output folder named with any of
  them are either refused cleanly or give a depfile from which real ``make`` and ``ninja``
  read exactly the right prerequisites and rebuild exactly when the schema changes;
* the pictures of ``explain`` with hostile schema file names: well-formed XML (parsed), no
  file name in a comment, the same bytes whatever the folder the command ran from, and a
  file name that is not UTF-8 handled instead of a traceback;
* a closed stdout: the status is the command's result (``verify`` with a disagreeing header
  and ``generate --check --diff`` exit 1 even when nobody reads what they print), with no
  "Exception ignored" noise.
"""

from __future__ import annotations

import contextlib
import io
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from helpers.bounded import run_cpu_bounded
from helpers.common import EXAMPLES, ROOT, require_toolchain
from sarek_layout.verify import toolchains
from sarek_layout.cli.main import main

GEOMETRY = EXAMPLES / "geometry.toml"
C_HEADER = ROOT / "generated" / "geometry.h"
TIME_LIMIT_S = 20  # CPU seconds (tests/helpers/bounded.py)
MEMORY_LIMIT = 1 << 30


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def run_cli(args, cwd, **kwargs):
    """The real command line in a subprocess, bounded in CPU time and memory (a FIFO that
    blocks the run is caught by the wall-clock hang guard, ``tests/helpers/bounded.py``)."""
    return run_cpu_bounded([sys.executable, "-m", "sarek_layout", *args], cpu_s=TIME_LIMIT_S,
                           memory=MEMORY_LIMIT, what="the command does unbounded work",
                           cwd=cwd, env=_env(), **kwargs)


def snapshot(root: pathlib.Path):
    """Everything under ``root`` without following links or opening anything but regular
    files: kind, inode, size, timestamp, and the bytes (or a link's target)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            st_ = os.lstat(path)
            entry = [stat.S_IFMT(st_.st_mode), st_.st_ino, st_.st_size, st_.st_mtime_ns]
            if stat.S_ISREG(st_.st_mode):
                entry.append(pathlib.Path(path).read_bytes())
            elif stat.S_ISLNK(st_.st_mode):
                entry.append(os.readlink(path))
            out[os.path.relpath(path, root)] = tuple(entry)
    return out


def require_tool(name: str, hint: str) -> str:
    """A build tool's executable; skip with the install line, or fail when CI requires it."""
    exe = shutil.which(name)
    if exe:
        return exe
    value = os.environ.get(toolchains.REQUIRE_ENV, "").strip()
    if value.lower() in ("1", "all", "yes", "true") or name in [v.strip() for v in value.split(",")]:
        pytest.fail(f"required tool missing: {hint}", pytrace=False)
    pytest.skip(hint)


MAKE_HINT = "make not found: apt-get install -y make"
NINJA_HINT = "ninja not found: apt-get install -y ninja-build (1.10.1 or later)"


# --- the corpus of refused outputs ---------------------------------------------------------------
#
# Each case: a function that builds the scene in a folder and returns the command line (run
# from that folder), and the fragments the one error line must hold.


def _schema(tmp, name="geometry.toml"):
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(GEOMETRY, path)
    return name


def _header(tmp, name="shapes.h"):
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(C_HEADER, path)
    return name


def _fifo(tmp, name):
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return name


def _link(tmp, name, target):
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return name


def header_over_its_c_input(tmp):
    return ["generate", _header(tmp), "-o", ".", "-t", "c"]


def header_through_a_linked_folder(tmp):
    _header(tmp, "src/shapes.h")
    _link(tmp, "out", "src")
    return ["generate", "src/shapes.h", "-o", "out", "-t", "c"]


def header_that_is_a_hard_link_to_its_input(tmp):
    _header(tmp, "src/shapes.h")
    (tmp / "out").mkdir()
    os.link(tmp / "src/shapes.h", tmp / "out/shapes.h")
    return ["generate", "src/shapes.h", "-o", "out", "-t", "c"]


def header_that_is_a_symlink_to_its_input(tmp):
    _header(tmp)
    _link(tmp, "out/shapes.h", "../shapes.h")
    return ["generate", "shapes.h", "-o", "out", "-t", "c"]


def depfile_over_the_schema(tmp):
    return ["generate", _schema(tmp), "-o", "out", "--depfile", "geometry.toml"]


def depfile_over_the_schema_spelled_otherwise(tmp):
    (tmp / "sub").mkdir()
    return ["generate", _schema(tmp), "-o", "out", "--depfile", "sub/../geometry.toml"]


def depfile_over_a_header_not_written_yet(tmp):
    return ["generate", _schema(tmp), "-o", "out", "-t", "c", "--depfile", "out/./geometry.h"]


def depfile_over_an_existing_header(tmp):
    _schema(tmp)
    assert main(["generate", str(tmp / "geometry.toml"), "-o", str(tmp / "out"), "-t", "c"]) == 0
    return ["generate", "geometry.toml", "-o", "out", "-t", "c", "--depfile", "out/geometry.h"]


def svg_with_its_file_name_forgotten(tmp):
    _schema(tmp, "a.toml")
    _schema(tmp, "b.toml")
    return ["explain", "--svg", "a.toml", "b.toml"]


def html_over_its_schema(tmp):
    return ["explain", _schema(tmp), "--html", "geometry.toml"]


def svg_through_a_link_to_its_schema(tmp):
    _link(tmp, "pic.svg", "geometry.toml")
    return ["explain", _schema(tmp), "--svg", "pic.svg"]


def svg_and_html_in_one_file(tmp):
    return ["explain", _schema(tmp), "--svg", "pic", "--html", "./pic"]


def two_imported_headers_of_one_name(tmp):
    _header(tmp, "a/shapes.h")
    _header(tmp, "b/shapes.h")
    return ["import-c", "a/shapes.h", "b/shapes.h", "-o", "out"]


def imported_schema_linked_to_its_header(tmp):
    _header(tmp)
    _link(tmp, "out/shapes.toml", "../shapes.h")
    return ["import-c", "shapes.h", "-o", "out"]


def fifo_header(tmp, *mode):
    _fifo(tmp, "out/geometry.h")
    return ["generate", _schema(tmp), "-o", "out", "-t", "c", *mode]


def fifo_depfile(tmp):
    return ["generate", _schema(tmp), "-o", "out", "--depfile", _fifo(tmp, "deps.d")]


def fifo_svg(tmp, *mode):
    return ["explain", _schema(tmp), "--svg", _fifo(tmp, "pic.svg"), *mode]


def fifo_html(tmp):
    return ["explain", _schema(tmp), "--html", _fifo(tmp, "page.html")]


def fifo_imported_schema(tmp):
    _fifo(tmp, "out/shapes.toml")
    return ["import-c", _header(tmp), "-o", "out"]


def header_linked_to_dev_zero(tmp, *mode):
    _link(tmp, "out/geometry.h", "/dev/zero")
    return ["generate", _schema(tmp), "-o", "out", "-t", "c", *mode]


def svg_linked_to_dev_zero(tmp):
    _link(tmp, "pic.svg", "/dev/zero")
    return ["explain", _schema(tmp), "--svg", "pic.svg", "--check"]


def depfile_linked_to_dev_null(tmp):
    _link(tmp, "deps.d", "/dev/null")
    return ["generate", _schema(tmp), "-o", "out", "--depfile", "deps.d"]


def svg_that_is_a_folder(tmp):
    (tmp / "pics").mkdir()
    return ["explain", _schema(tmp), "--svg", "pics"]


def output_folder_that_is_a_file(tmp):
    return ["generate", _schema(tmp), "-o", "geometry.toml/out"]


def depfile_naming(folder, out="out"):
    def case(tmp):
        return ["generate", f"--output={out}", "--depfile", "deps.d", "--", _schema(tmp, f"{folder}/geometry.toml")]
    case.__name__ = f"depfile_naming_{ascii(folder)}"
    return case


def header_linked_to_nothing(tmp):
    _link(tmp, "out/geometry.h", "../nowhere/geometry.h")
    return ["generate", _schema(tmp), "-o", "out", "-t", "c"]


def svg_linked_to_nothing(tmp):
    _link(tmp, "pic.svg", "missing.svg")
    return ["explain", _schema(tmp), "--svg", "pic.svg"]


#: A stem whose .h (241 bytes + the temporary name's 14) fits NAME_MAX (255) but whose .cuh
#: does not: the old code wrote the .h, then failed on the .cuh's temporary name.
LONG_STEM = "s" * 239


def headers_of_a_stem_too_long_for_the_cuh(tmp):
    return ["generate", _schema(tmp, LONG_STEM + ".toml"), "-o", "out", "-t", "c", "-t", "cuda",
            "-t", "opencl"]


def folder_name_too_long(tmp):
    return ["generate", _schema(tmp), "-o", "d/" + "x" * 256, "-t", "c"]


def _d(folder):
    """What every depfile refusal says: the path (as ``printable`` spells it) and the way out."""
    return ["cannot write a dependency file naming", "geometry.toml", "drop --depfile"]


CASES = [
    (header_over_its_c_input, ["header as ./shapes.h", "the input shapes.h"]),
    (header_through_a_linked_folder, ["header as out/shapes.h", "the input src/shapes.h"]),
    (header_that_is_a_hard_link_to_its_input, ["header as out/shapes.h", "the input src/shapes.h"]),
    (header_that_is_a_symlink_to_its_input, ["header as out/shapes.h", "the input shapes.h"]),
    (depfile_over_the_schema, ["dependency file as geometry.toml", "the input geometry.toml"]),
    (depfile_over_the_schema_spelled_otherwise,
     ["dependency file as sub/../geometry.toml", "the input geometry.toml"]),
    (depfile_over_a_header_not_written_yet,
     ["dependency file as out/./geometry.h", "the header (out/geometry.h)"]),
    (depfile_over_an_existing_header, ["dependency file as out/geometry.h", "the header (out/geometry.h)"]),
    (svg_with_its_file_name_forgotten, ["SVG picture as a.toml", "schema file's", "--svg"]),
    (html_over_its_schema, ["HTML page as geometry.toml", "the input geometry.toml"]),
    (svg_through_a_link_to_its_schema, ["SVG picture as pic.svg", "the input geometry.toml"]),
    (svg_and_html_in_one_file, ["HTML page as ./pic", "the SVG picture (pic)"]),
    (two_imported_headers_of_one_name,
     ["schema of b/shapes.h as out/shapes.toml", "the schema of a/shapes.h (out/shapes.toml)"]),
    (imported_schema_linked_to_its_header, ["schema of shapes.h as out/shapes.toml", "the input shapes.h"]),
    (fifo_header, ["header as out/geometry.h", "FIFO"]),
    (lambda tmp: fifo_header(tmp, "--check"), ["header as out/geometry.h", "FIFO"]),
    (lambda tmp: fifo_header(tmp, "--diff"), ["header as out/geometry.h", "FIFO"]),
    (fifo_depfile, ["dependency file as deps.d", "FIFO"]),
    (fifo_svg, ["SVG picture as pic.svg", "FIFO"]),
    (lambda tmp: fifo_svg(tmp, "--check"), ["SVG picture as pic.svg", "FIFO"]),
    (fifo_html, ["HTML page as page.html", "FIFO"]),
    (fifo_imported_schema, ["schema of shapes.h as out/shapes.toml", "FIFO"]),
    (header_linked_to_dev_zero, ["header as out/geometry.h", "device"]),
    (lambda tmp: header_linked_to_dev_zero(tmp, "--check"), ["header as out/geometry.h", "device"]),
    (svg_linked_to_dev_zero, ["SVG picture as pic.svg", "device"]),
    (depfile_linked_to_dev_null, ["dependency file as deps.d", "device"]),
    (svg_that_is_a_folder, ["SVG picture as pics", "folder"]),
    (header_linked_to_nothing, ["header as out/geometry.h", "symbolic link to a file that does not exist"]),
    (svg_linked_to_nothing, ["SVG picture as pic.svg", "symbolic link to a file that does not exist"]),
    (headers_of_a_stem_too_long_for_the_cuh, [LONG_STEM + ".cuh", "257 bytes", "allows 255"]),
    (folder_name_too_long, ["xxxxxxxx", "256 bytes", "allows 255"]),
    (output_folder_that_is_a_file, ["geometry.toml/out/geometry.h", "not a folder"]),
    # Paths make and ninja cannot both read in a depfile (docs/build-integration.md).
    (depfile_naming("version=2"), _d("version=2") + ["'='", "variable assignment"]),
    (depfile_naming("SHELL=x"), _d("SHELL=x") + ["'='"]),
    (depfile_naming("a", out="SHELL=evil"), ["SHELL=evil/geometry", "'='"]),
    (depfile_naming("a;b"), _d("a;b") + ["';'", "recipe"]),
    (depfile_naming("a|b"), _d("a|b") + ["'|'"]),
    (depfile_naming("100%"), _d("100%") + ["'%'"]),
    (depfile_naming("a*b"), _d("a*b") + ["'*'", "wildcard"]),
    (depfile_naming("a?b"), _d("a?b") + ["'?'"]),
    (depfile_naming("[ab]"), _d("[ab]") + ["'['"]),
    (depfile_naming("lib(x)"), _d("lib(x)") + ["'('", "archive"]),
    (depfile_naming("back\\slash"), _d("back\\slash") + ["'\\\\'"]),
    (depfile_naming("it's"), _d("it's") + ['"\'"', "ninja"]),
    (depfile_naming("a&b"), _d("a&b") + ["'&'"]),
    (depfile_naming("tab\tbed"), _d("tab") + ["tab\\tbed", "does not print"]),
    (depfile_naming("new\nline"), _d("new") + ["new\\nline", "does not print"]),
    (depfile_naming("cr\rlf"), _d("cr") + ["cr\\rlf"]),
    (depfile_naming("~home"), _d("~home") + ["starting with '~'"]),
    (depfile_naming("-lm"), _d("-lm") + ["starting with '-'"]),
]


def _case_id(case):
    return case[0].__name__ if case[0].__name__ != "<lambda>" else None


@pytest.mark.parametrize("build, fragments", CASES,
                         ids=[f"{i:02d}-{_case_id(c) or 'variant'}" for i, c in enumerate(CASES)])
def test_unsafe_outputs_are_refused_and_nothing_is_written(tmp_path, build, fragments):
    args = build(tmp_path)
    before = snapshot(tmp_path)
    proc = run_cli(args, tmp_path)
    err = proc.stderr.decode("utf-8", "backslashreplace")
    assert proc.returncode == 2, (proc.returncode, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sarek-layout: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert snapshot(tmp_path) == before, "something was written"


# --- an output that is a symbolic link is written through, never renamed over ----------------------


@pytest.mark.parametrize("command", ["generate", "explain", "depfile"])
def test_an_output_that_is_a_link_is_written_through_and_stays_a_link(tmp_path, command):
    # As `explain x.toml --svg /dev/stdout > pic.svg` (as root) did to /dev/stdout: the old
    # writer renamed its temporary file over the link, which became a regular file.
    schema = _schema(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "target"
    target.write_text("old content\n")
    link = {"generate": "out/geometry.h", "explain": "pic.svg", "depfile": "deps.d"}[command]
    _link(tmp_path, link, str(target))
    args = {"generate": ["generate", schema, "-o", "out", "-t", "c"],
            "explain": ["explain", schema, "--svg", link],
            "depfile": ["generate", schema, "-o", "out", "-t", "c", "--depfile", link]}[command]
    proc = run_cli(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert os.path.islink(tmp_path / link), "the link was replaced by a regular file"
    assert os.readlink(tmp_path / link) == str(target)
    text = target.read_text()
    assert text != "old content\n"
    assert {"generate": "#ifndef", "explain": "<svg", "depfile": "geometry.toml"}[command] in text
    assert sorted(os.listdir(elsewhere)) == ["target"]  # no temporary file left beside it
    # A second run finds the content unchanged through the link and writes nothing.
    mtime = target.stat().st_mtime_ns
    again = run_cli(args, tmp_path)
    assert again.returncode == 0 and target.stat().st_mtime_ns == mtime
    assert os.path.islink(tmp_path / link)


# --- depfiles that make and ninja both read right -------------------------------------------------

#: Characters a path may hold: every printable ASCII character but '/', controls, and a few
#: non-ASCII ones (a letter, a non-breaking space, a line separator, a byte that is not UTF-8).
PATH_CHARACTERS = sorted(set(map(chr, range(1, 128))) - {"/"}) + [
    "é", "€", "\u00a0", "\u2028", os.fsdecode(b"\xff"), os.fsdecode(b"\xc3")]
#: Half the names from every character, half from those that tend to be written (so that
#: both outcomes are tried often; the tools, not this list, judge the written ones).
FOLDER_NAMES = st.one_of(
    st.text(st.sampled_from(PATH_CHARACTERS), min_size=1, max_size=6),
    st.text(st.sampled_from("ab_-.~ #$:{}!@,+é" + os.fsdecode(b"\xff")), min_size=1, max_size=6),
).filter(lambda name: name not in (".", ".."))


def _ninja_path(path: str) -> str:
    """A path in a build.ninja manifest (its own syntax, not a depfile's)."""
    return path.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def _tool(args, cwd):
    return subprocess.run(args, cwd=cwd, capture_output=True, timeout=60)


def _set_mtime(path, seconds_ago):
    t = os.stat(path).st_mtime - seconds_ago
    os.utime(path, (t, t))


def check_depfile_with_make_and_ninja(work: pathlib.Path, schema: str, header: str) -> None:
    """``work/deps.d`` names ``header: schema``: make and ninja must both read exactly that,
    and rebuild the header exactly when the schema changes."""
    schema_b, header_b = os.fsencode(schema), os.fsencode(header)
    # GNU make: the rule as make stores it, then up to date, then out of date after an edit.
    (work / "Makefile").write_text("-include deps.d\n%.h:\n\t@echo rebuild $@\n")
    _set_mtime(work / schema, 7200)
    _set_mtime(work / header, 3600)
    database = _tool(["make", "-pqrR", "--no-print-directory", header_b], work).stdout
    assert header_b + b": " + schema_b in database.splitlines(), "make read other prerequisites"
    assert schema_b + b":" in database.splitlines()
    assert _tool(["make", "-qrR", header_b], work).returncode == 0, "make rebuilds for nothing"
    os.utime(work / schema)
    assert _tool(["make", "-qrR", header_b], work).returncode == 1, "make misses the edit"

    # ninja: the dependencies it records from the depfile, then the same two questions.
    _set_mtime(work / schema, 7200)
    shutil.copy(work / "deps.d", work / "deps.keep")
    (work / "build.ninja").write_bytes(
        b"rule gen\n  command = cp deps.keep deps.d\n  depfile = deps.d\n  deps = gcc\n"
        b"build " + os.fsencode(_ninja_path(header)) + b": gen\n")
    built = _tool(["ninja"], work)
    assert built.returncode == 0, built.stdout + built.stderr
    deps = _tool(["ninja", "-t", "deps", header_b], work).stdout.splitlines()
    assert deps[1:] == [b"    " + schema_b, b""], deps
    assert b"no work to do" in _tool(["ninja", "-n"], work).stdout
    os.utime(work / schema)
    assert b"cp deps.keep" in _tool(["ninja", "-n", "-v"], work).stdout, "ninja misses the edit"


def _generate_in(work: pathlib.Path, folder: str):
    """``generate`` run in-process from ``work`` on ``folder/s.toml`` into ``folder/out``."""
    (work / folder).mkdir()
    shutil.copy(GEOMETRY, work / folder / "s.toml")
    err = io.StringIO()
    here = os.getcwd()
    os.chdir(work)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(["generate", f"--output={folder}/out", "-t", "c", "--depfile", "deps.d",
                           "--", f"{folder}/s.toml"])
    finally:
        os.chdir(here)
    return status, err.getvalue()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=FOLDER_NAMES)
def test_depfile_paths_are_refused_or_read_right_by_make_and_ninja(tmp_path, folder):
    require_tool("make", MAKE_HINT)
    require_tool("ninja", NINJA_HINT)
    work = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    status, err = _generate_in(work, folder)
    event("refused" if status == 2 else "written")
    if status == 2:
        assert len(err.splitlines()) == 1 and "cannot write a dependency file naming" in err, err
        assert sorted(os.listdir(work)) == [folder] and os.listdir(work / folder) == ["s.toml"]
        return
    assert status == 0, err
    check_depfile_with_make_and_ninja(work, f"{folder}/s.toml", f"{folder}/out/s.h")


@pytest.mark.parametrize("folder", ["my schemas", "v$1", "#2", "a:b", " lead", "a  b", "x{y}!@,+",
                                    "é€", "mid~tilde~", os.fsdecode(b"not-utf8-\xff")])
def test_depfile_paths_that_both_tools_can_read_are_written(tmp_path, folder):
    """The escapable characters are escaped, not refused (docs/build-integration.md)."""
    require_tool("make", MAKE_HINT)
    require_tool("ninja", NINJA_HINT)
    status, err = _generate_in(tmp_path, folder)
    assert status == 0, err
    check_depfile_with_make_and_ninja(tmp_path, f"{folder}/s.toml", f"{folder}/out/s.h")


# --- the pictures of explain ----------------------------------------------------------------------

HOSTILE_SCHEMA_NAMES = ["a---b.toml", "x-.toml", "c\x01d.toml", "e\x1bf.toml", "<&>'\".toml",
                        "g\x7fh.toml", "sp\u2028ace.toml", "]]>.toml", "line\nbreak.toml"]


@pytest.mark.parametrize("name", HOSTILE_SCHEMA_NAMES, ids=[ascii(n) for n in HOSTILE_SCHEMA_NAMES])
def test_pictures_are_well_formed_whatever_the_schema_file_names(tmp_path, name):
    shutil.copy(GEOMETRY, tmp_path / name)
    proc = run_cli(["explain", name, "--svg", "pic.svg", "--html", "page.html"], tmp_path)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    svg = (tmp_path / "pic.svg").read_bytes()
    root = ET.fromstring(svg)  # raises on a comment broken by '--' or a control character
    title = root.find("{http://www.w3.org/2000/svg}title").text
    assert title.startswith("sarek-layout byte map of ")
    shown = title[len("sarek-layout byte map of "):]
    assert shown == (name if name.isprintable() else ascii(name)[1:-1]), shown
    page = (tmp_path / "page.html").read_bytes().decode("utf-8")
    ET.fromstring(page[page.index("<svg "):page.index("</svg>") + 6].encode())
    assert all(ch.isprintable() or ch == "\n" for ch in page)


def test_a_schema_file_name_that_is_not_utf8_is_drawn(tmp_path):
    name = os.fsdecode(b"g\xffo.toml")
    shutil.copy(GEOMETRY, tmp_path / name)
    proc = run_cli(["explain", name, "--svg", "pic.svg", "--html", "page.html"], tmp_path)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    root = ET.fromstring((tmp_path / "pic.svg").read_bytes())
    assert root.find("{http://www.w3.org/2000/svg}title").text.endswith("g\\xffo.toml")
    assert "g\\xffo.toml" in (tmp_path / "page.html").read_text("utf-8")
    # An output path that is not UTF-8 is written too.
    out = os.fsdecode(b"pic-\xfe.svg")
    proc = run_cli(["explain", name, "--svg", out], tmp_path)
    assert proc.returncode == 0 and (tmp_path / out).is_file(), proc.stderr


def test_pictures_do_not_depend_on_how_the_schema_path_was_typed(tmp_path):
    work = tmp_path / "docs"
    work.mkdir()
    shutil.copy(GEOMETRY, work / "geometry.toml")
    assert run_cli(["explain", "geometry.toml", "--svg", "g.svg", "--html", "g.html"],
                   work).returncode == 0
    for cwd, schema in ((tmp_path, "docs/geometry.toml"), (tmp_path.parent, str(work / "geometry.toml"))):
        svg = os.path.relpath(work / "g.svg", cwd)
        proc = run_cli(["explain", schema, "--svg", svg, "--check"], cwd)
        assert proc.returncode == 0, proc.stderr


# --- a closed stdout -------------------------------------------------------------------------------


def run_with_stdout_closed(args, cwd):
    """The command line with a stdout whose reader has already gone: the read end of its pipe
    is closed before the command starts, so its first flush meets a broken pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return run_cpu_bounded([sys.executable, "-m", "sarek_layout", *args], cpu_s=120,
                               memory=MEMORY_LIMIT, cwd=cwd, env=_env(), capture_output=False,
                               stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)


def _disagreeing_header(tmp_path) -> pathlib.Path:
    """The generated header with one member's type changed: verify must report it (exit 1)."""
    shutil.copy(GEOMETRY, tmp_path / "geometry.toml")
    assert main(["generate", str(tmp_path / "geometry.toml"), "-o", str(tmp_path / "gen"),
                 "-t", "c"]) == 0
    text = (tmp_path / "gen" / "geometry.h").read_text()
    assert "    float x;" in text
    (tmp_path / "bad.h").write_text(text.replace("    float x;", "    int32_t x;", 1))
    return tmp_path / "bad.h"


def _stale_outputs(tmp_path):
    shutil.copy(GEOMETRY, tmp_path / "geometry.toml")
    assert main(["generate", str(tmp_path / "geometry.toml"), "-o", str(tmp_path / "gen"),
                 "-t", "c"]) == 0
    header = tmp_path / "gen" / "geometry.h"
    header.write_text(header.read_text().replace("float y;", "float why;"))
    return ["generate", "geometry.toml", "-o", "gen", "-t", "c"]


def test_verify_disagreement_is_exit_1_when_nobody_reads_stdout(tmp_path):
    require_toolchain("gcc")
    _disagreeing_header(tmp_path)
    args = ["verify", "geometry.toml", "--toolchain", "gcc", "--header", "bad.h"]
    assert run_cli(args, tmp_path).returncode == 1  # the baseline: a real disagreement
    proc = run_with_stdout_closed(args, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert b"Exception ignored" not in proc.stderr and b"BrokenPipe" not in proc.stderr


@pytest.mark.parametrize("mode", [["--check", "--diff"], ["--diff"]])
def test_generate_stale_is_exit_1_when_nobody_reads_stdout(tmp_path, mode):
    args = _stale_outputs(tmp_path) + mode
    proc = run_with_stdout_closed(args, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert b"Exception ignored" not in proc.stderr and b"BrokenPipe" not in proc.stderr
    assert b"1 header would be written" in proc.stderr  # the command ran to its end


def _run_with_descriptors_closed(args, cwd, fds):
    """The command line started with the descriptors ``fds`` closed (``>&-``, ``2>&-``); what
    stays open of stdout and stderr is captured."""
    def close():
        for fd in fds:
            os.close(fd)

    return run_cpu_bounded([sys.executable, "-m", "sarek_layout", *args], cpu_s=120,
                           memory=MEMORY_LIMIT, cwd=cwd, env=_env(), preexec=close)


def test_a_stream_closed_before_the_start_drops_writes_and_keeps_the_status(tmp_path):
    """Started with stdout closed, Python's sys.stdout is None: printing the diff raised a
    traceback (whose exit 1 matched the result only by accident)."""
    args = _stale_outputs(tmp_path)
    proc = _run_with_descriptors_closed(args + ["--diff"], tmp_path, fds=(1,))
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr, proc.stderr
    assert b"1 header would be written" in proc.stderr  # ran to its end
    proc = _run_with_descriptors_closed(["layout", "geometry.toml", "--json"], tmp_path, fds=(1,))
    assert (proc.returncode, proc.stderr) == (0, b"")
    proc = _run_with_descriptors_closed(["layout", "missing.toml"], tmp_path, fds=(1, 2))
    assert proc.returncode == 2
    proc = _run_with_descriptors_closed(args, tmp_path, fds=(0, 1, 2))
    assert proc.returncode == 0
    assert run_cli(args + ["--check"], tmp_path).returncode == 0  # the header was rewritten


def test_closed_standard_descriptors_are_not_handed_to_later_files(tmp_path):
    """A file opened while descriptor 1 is closed takes number 1, and becomes the stdout of
    every compiler verify starts: main() points a closed 0-2 at the null device first."""
    shutil.copy(GEOMETRY, tmp_path / "geometry.toml")
    script = ("import os, sys\n"
              "os.close(1)\n"
              "from sarek_layout.cli.main import main\n"
              "status = main(['layout', 'geometry.toml'])\n"
              "fd = os.open('probe.txt', os.O_WRONLY | os.O_CREAT)\n"
              "sys.stderr.write(f'status={status} fd={fd}')\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.stderr.startswith("status=0 fd="), proc.stderr
    assert int(proc.stderr.split("fd=")[1]) > 2, proc.stderr


def test_pipefail_sees_the_result_through_a_pipe_into_true(tmp_path):
    """What a CI step does: ``set -o pipefail; sarek-layout … | true``."""
    require_toolchain("gcc")
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash not found")
    _disagreeing_header(tmp_path)
    _stale_outputs(tmp_path)
    python = f"{sys.executable} -m sarek_layout"
    for command in (f"{python} verify geometry.toml --toolchain gcc --header bad.h | true",
                    f"{python} generate geometry.toml -o gen -t c --check --diff | true"):
        proc = subprocess.run([bash, "-o", "pipefail", "-c", command], cwd=tmp_path, env=_env(),
                              capture_output=True, timeout=120)
        assert proc.returncode == 1, (command, proc.stderr)
        assert b"Exception ignored" not in proc.stderr


def test_output_after_the_reader_is_gone_is_dropped_in_process(tmp_path, monkeypatch):
    """The same in-process (as tests and the pytest plugin call main): once a write to stdout
    raises BrokenPipeError, nothing more is written to it and the status stays the command's."""

    class GoneReader(io.StringIO):
        writes = 0

        def write(self, text):
            GoneReader.writes += 1
            raise BrokenPipeError(32, "Broken pipe")

    args = _stale_outputs(tmp_path) + ["--diff"]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdout", GoneReader())
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(args) == 1
    assert GoneReader.writes == 1  # the first write failed; the rest were dropped
    assert "1 header would be written" in sys.stderr.getvalue()


@pytest.mark.parametrize("argv, says", [
    (["import-c", "shapes.h", "-o", "shapes.h"],
     "cannot write the schema of shapes.h as shapes.h/shapes.toml: a name on its path is a file"),
    (["generate", "geometry.toml", "-o", "geometry.toml", "-t", "c"],
     "cannot write the header as geometry.toml/geometry.h: a name on its path is a file"),
])
def test_an_output_folder_that_is_a_file_is_refused_naming_what_and_where(tmp_path, argv, says):
    # The role and the path are told apart ("the schema of shapes.h shapes.h/shapes.toml"
    # ran them together), and nothing is written over the file given as the folder.
    _schema(tmp_path)
    _header(tmp_path)
    before = snapshot(tmp_path)
    proc = run_cli(argv, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.decode().strip() == f"sarek-layout: error: {says}, not a folder"
    assert snapshot(tmp_path) == before
