"""CMake: the package config shipped in the wheel, driven by real CMake with Ninja and Make.

``examples/cmake`` is built in a private copy with the installed ``sarek-layout`` first on
PATH (the project finds the CMake package by asking ``sarek-layout --cmakedir``): a first
build; a no-op rebuild that runs nothing; an edit of a schema that another schema imports,
which must rewrite that schema's headers and recompile exactly the sources that include them;
an edit that leaves every header as it was (a comment), which must recompile nothing; and a
deleted generated header, which must be regenerated. What was rebuilt is read from the
modification times of the headers and objects.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest

from helpers.common import ROOT
from helpers.integration import copy_example, drive_c_example, require_tool, run, tool_env

CMAKE_HINT = "apt-get install cmake (3.20 or newer)"
GENERATORS = {
    "Ninja": ("ninja", "apt-get install ninja-build"),
    "Unix Makefiles": ("make", "apt-get install make"),
}
GEN = "sarek_layout/shapes"  # the function's default OUT_DIR, relative to the build tree


@pytest.mark.parametrize("generator", list(GENERATORS))
def test_cmake_example_rebuilds_exactly_what_a_schema_change_needs(tmp_path, generator):
    cmake = require_tool("cmake", CMAKE_HINT)
    require_tool(*GENERATORS[generator])
    require_tool("cc", "apt-get install gcc")
    src = copy_example("cmake", tmp_path)
    build = tmp_path / "build"
    env = tool_env()
    run([cmake, "-S", str(src), "-B", str(build), "-G", generator], tmp_path, env)
    drive_c_example(
        step=[cmake, "--build", str(build)], build=build, src=src, gen=GEN, env=env,
        expected={"base.h", "base.cuh", "scene.h", "scene.cuh", "particles.h", "particles.cuh"},
        busy="sarek-layout: generating", idle="no work to do" if generator == "Ninja" else None,
    )


def _configure(tmp_path: pathlib.Path, body: str, expect_ok: bool = True) -> subprocess.CompletedProcess:
    cmake = require_tool("cmake", CMAKE_HINT)
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(probe NONE)\n" + body)
    cmakedir = run(["sarek-layout", "--cmakedir"], tmp_path, tool_env()).stdout.strip()
    return run([cmake, "-S", str(project), "-B", str(tmp_path / "b"), f"-Dsarek_layout_DIR={cmakedir}"],
               tmp_path, tool_env(), expect_ok=expect_ok)


def test_package_version_is_the_python_package_version(tmp_path):
    from sarek_layout import __version__

    major, minor = __version__.split(".")[:2]
    proc = _configure(tmp_path, f"""
find_package(sarek_layout CONFIG REQUIRED)
message(STATUS "any: ${{sarek_layout_VERSION}}")
find_package(sarek_layout {major}.{minor} CONFIG QUIET)
message(STATUS "same minor: ${{sarek_layout_FOUND}}")
unset(sarek_layout_FOUND)
find_package(sarek_layout {int(major) + 1}.0 CONFIG QUIET)
message(STATUS "next major: ${{sarek_layout_FOUND}}")
""")
    assert f"-- any: {__version__}\n" in proc.stdout
    assert "-- same minor: 1\n" in proc.stdout
    assert "-- next major: 0\n" in proc.stdout


def test_unknown_header_target_is_refused_at_configure_time(tmp_path):
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "a.toml").write_text('[[types]]\nrecord = "p"\nfields = [["x", "int32"]]\n')
    proc = _configure(tmp_path, """
find_package(sarek_layout CONFIG REQUIRED)
add_custom_target(lib)
sarek_layout_generate(TARGET lib SCHEMAS a.toml TARGETS c cobol)
""", expect_ok=False)
    assert proc.returncode != 0
    assert "unknown target 'cobol'" in proc.stderr


def test_cmake_suffix_table_matches_the_target_registry():
    """The CMake function must name the files generate writes: its table mirrors targets.py."""
    from sarek_layout.targets import DEFAULT_TARGETS, TARGETS

    config = (ROOT / "sarek_layout" / "cmake" / "sarek_layoutConfig.cmake").read_text()
    table = dict(re.findall(r'set\(_sarek_layout_suffix_(\w+) "([^"]*)"\)', config))
    assert table == {name: t.suffix for name, t in TARGETS.items()}
    for variable, expected in (("targets", tuple(TARGETS)), ("default_targets", DEFAULT_TARGETS)):
        listed = re.search(rf"set\(_sarek_layout_{variable} ([\w ]+)\)", config)
        assert listed and tuple(listed.group(1).split()) == expected, variable


def test_cmakedir_names_the_shipped_package_folder():
    proc = subprocess.run(["sarek-layout", "--cmakedir"], capture_output=True, text=True,
                          env=tool_env(), timeout=60)
    assert proc.returncode == 0, proc.stderr
    folder = pathlib.Path(proc.stdout.strip())
    assert (folder / "sarek_layoutConfig.cmake").is_file()
    assert (folder / "sarek_layoutConfigVersion.cmake").is_file()
    assert proc.stderr == ""


def test_cmakedir_imports_no_sub_command():
    """CMake asks at configure time: the answer must not pay for the sub-commands."""
    code = ("import sys\nfrom sarek_layout.cli.main import main\nmain(['--cmakedir'])\n"
            "print(sorted(m for m in sys.modules if m.startswith(('jinja2', 'sarek_layout.cli.cmd_',"
            " 'sarek_layout.codegen', 'sarek_layout.frontends'))))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    folder, imported = proc.stdout.splitlines()
    assert pathlib.Path(folder).name == "cmake"
    assert imported == "[]"
