"""Meson: the documented ``custom_target`` with ``depfile:``, driven by real Meson and Ninja.

``examples/meson`` is built in a private copy with the installed ``sarek-layout`` first on
PATH, through the same scenario as the CMake example (``integration_helpers.drive_c_example``):
first build, no-op, an edit of an imported schema (exactly the dependents recompile), an edit
that changes no header (nothing recompiles), a deleted header (regenerated).
"""

from __future__ import annotations

from helpers.integration import copy_example, drive_c_example, require_tool, run, tool_env


def test_meson_example_rebuilds_exactly_what_a_schema_change_needs(tmp_path):
    meson = require_tool("meson", "apt-get install meson (1.0 or newer)")
    ninja = require_tool("ninja", "apt-get install ninja-build (1.10 or newer)")
    require_tool("cc", "apt-get install gcc")
    src = copy_example("meson", tmp_path)
    build = tmp_path / "build"
    env = tool_env()
    run([meson, "setup", str(build), str(src)], tmp_path, env)
    drive_c_example(
        step=[ninja, "-C", str(build)], build=build, src=src, gen=".", env=env,
        expected={"base.h", "scene.h", "particles.h"},
        busy="Generating sarek-layout-headers", idle="no work to do",
    )
