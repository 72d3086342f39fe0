"""File-scope names a target's compiler already declares are refused for a type of module "",
and the shipped table of them (``sarek_layout/targets/declared.py``) is what the installed
compilers really declare: each is re-measured here (``tests/helpers/declared_names.py``) and any
collision the table misses is named. A missing toolchain skips, or fails under
``SAREK_REQUIRE_TOOLCHAINS``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from helpers import declared_names
from helpers.common import ROOT, require_toolchain
from sarek_layout.targets.declared import ALL_DECLARED, DECLARED


def _schema(tmp_path, name: str) -> str:
    path = tmp_path / "n.toml"
    path.write_text(textwrap.dedent(f"""\
        module = ""
        [[types]]
        record = "{name}"
        fields = [["x", "int32"]]
        """))
    return str(path)


def _run(*argv, cwd):
    return subprocess.run([sys.executable, "-m", "sarek_layout", *argv], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


@pytest.mark.parametrize("name, why", [
    ("main", "is the program's entry point"),
    ("std", "already declared at file scope where the header is compiled (g++"),
    ("atomicAdd", "(nvcc)"),
    ("make_float2", "(nvcc)"),
    ("FILE", "nvcc"),
    ("abort", "nvcc"),
    ("time", "nvcc"),
])
@pytest.mark.parametrize("command", ["generate", "layout", "explain"])
def test_a_type_named_like_a_declared_name_is_refused_at_its_position(tmp_path, name, why, command):
    path = _schema(tmp_path, name)
    argv = [command, path] + (["-o", str(tmp_path / "out")] if command == "generate" else [])
    proc = _run(*argv, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"{path}:3:10: error: C name '{name}' of type '{name}' "), lines[0]
    assert why in lines[0]
    assert proc.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.toml"]  # nothing written


def test_a_name_declared_only_inside_a_module_prefix_is_accepted(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text('module = "Geo"\n[[types]]\nrecord = "main"\nfields = [["x", "int32"]]\n'
                    '[[types]]\nrecord = "std"\nfields = [["y", "int32"]]\n')
    proc = _run("layout", str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Geo_main" in proc.stdout and "Geo_std" in proc.stdout


def test_the_table_holds_only_names_no_other_rule_refuses():
    # Keeps the generated table to what it adds (it is regenerated, not edited).
    assert "main" in ALL_DECLARED
    assert declared_names.candidates(ALL_DECLARED) == sorted(ALL_DECLARED)


@pytest.mark.parametrize("toolchain", declared_names.MEASURED)
def test_the_shipped_table_covers_what_the_compiler_declares(toolchain):
    require_toolchain(toolchain)
    # Candidates: what this toolchain's own includes mention, and every shipped name (a
    # compiler that stopped declaring one is no problem: the table may over-refuse).
    probe = declared_names.own_candidates(toolchain, ALL_DECLARED)
    measured = declared_names.measure_one(toolchain, probe)
    assert "main" in measured or toolchain == "clang-opencl"  # the probe really ran
    missing = sorted(measured - DECLARED.get(toolchain, frozenset()))
    assert not missing, (
        f"{toolchain} declares at file scope names sarek_layout/targets/declared.py does not list "
        f"for it: {' '.join(missing[:50])}{' …' if len(missing) > 50 else ''}; regenerate it "
        f"with `python tests/helpers/declared_names.py --write` ({ROOT})")
