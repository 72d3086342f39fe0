"""Make: the recipes of docs/build-integration.md, in examples/make, driven by GNU make.

``Makefile`` is the depfile recipe (grouped targets, ``--depfile``), ``stamp.mk`` the stamp
recipe. Both go through the scenario of the CMake and Meson examples
(``integration_helpers.drive_c_example``): first build, no-op, an edit of an imported schema
(exactly the dependents recompile), an edit that changes no header (nothing recompiles), and
a deleted generated header, which must be generated again. The stamp recipe once failed
there with "scene.h: No such file or directory": its header rule was empty, and the stamp
was up to date. The depfile recipe may rerun the generator after an edit (Make has no
restat) but rewrites nothing; the stamp recipe runs nothing.
"""

from __future__ import annotations

import re

import pytest

from helpers.common import ROOT
from helpers.integration import copy_example, drive_c_example, require_tool, tool_env


@pytest.mark.parametrize("makefile", ["Makefile", "stamp.mk"])
def test_make_recipe_rebuilds_exactly_what_a_schema_change_needs(tmp_path, makefile):
    make = require_tool("make", "apt-get install make (GNU Make 4.3 or newer)")
    require_tool("cc", "apt-get install gcc")
    src = copy_example("make", tmp_path)
    drive_c_example(
        step=[make, "-C", str(src), "-f", makefile, "-j2"], build=src / "build", src=src,
        gen="generated", env=tool_env(), expected={"base.h", "scene.h", "particles.h"},
        busy="sarek-layout generate",
        reruns_after_edit=makefile == "Makefile",
    )


def _recipe_lines(text: str) -> list:
    """The non-comment lines of make code, whitespace-normalised."""
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            lines.append(re.sub(r"\s+", " ", line))
    return lines


def test_docs_show_the_tested_recipes():
    """Every line of the Make snippets in docs/build-integration.md is in examples/make."""
    docs = (ROOT / "docs" / "build-integration.md").read_text()
    snippets = re.findall(r"```make\n(.*?)```", docs, re.S)
    assert len(snippets) >= 2
    example = set(_recipe_lines((ROOT / "examples" / "make" / "Makefile").read_text())
                  + _recipe_lines((ROOT / "examples" / "make" / "stamp.mk").read_text()))
    missing = [line for s in snippets for line in _recipe_lines(s) if line not in example]
    assert not missing, f"docs lines not in examples/make: {missing}"


def test_the_docs_makefile_as_written_builds_the_program(tmp_path):
    """The first Make snippet of docs/build-integration.md, saved as a Makefile beside the
    example's sources, builds and runs the program with a plain `make` (it used to lack its
    `all:` line, so its first rule, the headers, was the default goal: no program)."""
    make = require_tool("make", "apt-get install make (GNU Make 4.3 or newer)")
    require_tool("cc", "apt-get install gcc")
    docs = (ROOT / "docs" / "build-integration.md").read_text()
    src = copy_example("make", tmp_path)
    (src / "Makefile").write_text(re.findall(r"```make\n(.*?)```", docs, re.S)[0])
    from helpers.integration import run

    run([make, "-C", str(src)], src, tool_env())
    demo = src / "build" / "shapes_demo"
    assert demo.exists(), sorted(p.name for p in (src / "build").iterdir())
    run([str(demo)], src, tool_env())
