"""The README's ``verify --object`` CI snippet works with a Makefile written as the docs say
(issue 22, item 6g).

The snippet builds with ``make CFLAGS="-O2 -g"``; a variable given on make's command line
replaces the Makefile's own, so a recipe that kept ``-I$(GEN)`` in ``CFLAGS`` lost it and the
build stopped at the first generated header. The test takes the command line from the README
and the recipe from examples/make (whose lines docs/build-integration.md shows, as
``test_integration_make.test_docs_show_the_tested_recipes`` checks), runs make, and checks
that both the snippet's flags and the recipe's ``-I`` reached every compile, and that the
objects carry the DWARF that the snippet's next step, ``verify --object``, reads.
"""

from __future__ import annotations

import re
import shlex

import pytest

from helpers.common import ROOT
from helpers.integration import copy_example, require_tool, run, tool_env


def _snippet_make_command() -> list:
    """The ``make …`` step of the README's ``verify --object`` CI snippet."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### What the build really produced: `verify --object`"):]
    yaml = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    line = next(ln for ln in yaml.splitlines() if re.match(r"\s*- run: make\b", ln))
    return shlex.split(line.split("- run:", 1)[1])


@pytest.mark.parametrize("makefile", ["Makefile", "stamp.mk"])
def test_the_ci_snippets_make_line_builds_the_documented_recipe(tmp_path, makefile):
    make = require_tool("make", "apt-get install make (GNU Make 4.3 or newer)")
    require_tool("cc", "apt-get install gcc")
    pytest.importorskip("elftools", reason="pip install pyelftools")
    command = _snippet_make_command()
    assert command[0] == "make"
    flags = [a.split("=", 1)[1] for a in command[1:] if a.startswith("CFLAGS=")]
    assert flags, f"the snippet's make line sets no CFLAGS: {command}"
    src = copy_example("make", tmp_path)
    env = tool_env()
    built = run([make, "-C", str(src), "-f", makefile, *command[1:]], src, env)
    compiles = [ln for ln in built.stdout.splitlines() if " -c " in ln and ln.endswith(".c")]
    assert len(compiles) == 4, built.stdout
    for line in compiles:
        words = shlex.split(line)
        assert all(flag in words for flag in shlex.split(flags[0])), line
        assert "-Ibuild/generated" in words, line
    # What the snippet wants of the build: objects with the DWARF that --object reads.
    from elftools.elf.elffile import ELFFile

    objects = sorted((src / "build").glob("*.o"))
    assert len(objects) == 4
    for path in objects:
        with open(path, "rb") as f:
            assert ELFFile(f).get_section_by_name(".debug_info") is not None, path
