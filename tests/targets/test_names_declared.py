"""File-scope names a target's compilers already declare are refused for a type of module "",
for that target, and the shipped table of them (``sarek_layout/targets/declared.json``) is what
the installed compilers really declare: each is re-measured here
(``tests/helpers/declared_names.py``) and any collision the table misses is named. A missing
toolchain skips, or fails under ``SAREK_REQUIRE_TOOLCHAINS``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from helpers import declared_names
from helpers.common import ROOT, require_toolchain
from sarek_layout.targets.declared import declared_by
from sarek_layout.verify import toolchains


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


_TARGETS = ("c", "cuda", "glsl", "wgsl")


@pytest.mark.parametrize("name, why, refusing", [
    ("main", "is the program's entry point", ["c", "cuda", "glsl"]),
    ("std", "already declared at file scope where the header is compiled (g++", ["c", "cuda"]),
    ("atomicAdd", "(nvcc)", ["cuda"]),
    ("make_float2", "(nvcc", ["cuda"]),
    ("FILE", "nvcc", ["cuda"]),
    ("abort", "nvcc", ["cuda"]),
    ("time", "nvcc", ["cuda"]),
    ("dim3", "(nvcc", ["cuda"]),
])
def test_a_type_named_like_a_declared_name_is_refused_where_it_is_declared(tmp_path, name, why,
                                                                           refusing):
    path = _schema(tmp_path, name)
    argv = ["generate", path, "-o", str(tmp_path / "out")] + [a for t in _TARGETS for a in ("-t", t)]
    proc = _run(*argv, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"{path}:3:10: error: C name '{name}' of type '{name}' "), lines[0]
    named = {t for group in re.findall(r"\(targets? ([^)]*)\)", lines[0])
             for t in re.split(r", | and ", group)}
    assert why in lines[0] and named == set(refusing), lines[0]
    assert proc.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.toml"]  # nothing written
    # Refused only where it breaks: the other targets emit it, and commands that emit no
    # target (layout) accept it.
    others = [a for t in _TARGETS if t not in refusing for a in ("-t", t)]
    ok = _run("generate", path, "-o", str(tmp_path / "ok"), *others, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert _run("layout", path, cwd=tmp_path).returncode == 0


def test_a_name_declared_only_inside_a_module_prefix_is_accepted(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text('module = "Geo"\n[[types]]\nrecord = "main"\nfields = [["x", "int32"]]\n'
                    '[[types]]\nrecord = "std"\nfields = [["y", "int32"]]\n')
    proc = _run("generate", str(path), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Geo_main" in (tmp_path / "out" / "ok.h").read_text()


def test_the_table_holds_only_names_no_other_rule_refuses():
    # Keeps the measured table to what it adds (it is regenerated, not edited): no name its
    # toolchain's target refuses by another rule (a keyword, a predefined macro…).
    for target in ("c", "cuda", "opencl", "glsl"):
        by_toolchain = declared_by(target)
        assert by_toolchain, target
        for toolchain, names in by_toolchain.items():
            assert toolchains.get(toolchain).target == target
            assert set(declared_names.candidates(names, target)) >= names, toolchain
    assert "main" in declared_by("c")["gcc"]


@pytest.mark.parametrize("toolchain", declared_names.MEASURED)
def test_the_shipped_table_covers_what_the_compiler_declares(toolchain):
    tc = require_toolchain(toolchain)
    shipped = declared_by(tc.target).get(toolchain, frozenset())
    # Candidates: what this toolchain's own includes mention, and every shipped name (a
    # compiler that stopped declaring one is no problem: the table may over-refuse).
    probe = declared_names.own_candidates(toolchain, shipped)
    measured = declared_names.measure_one(toolchain, probe)
    assert "main" in measured or toolchain == "clang-opencl"  # the probe really ran
    missing = sorted(measured - shipped)
    assert not missing, (
        f"{toolchain} declares at file scope names sarek_layout/targets/declared.json does not "
        f"list for it: {' '.join(missing[:50])}{' …' if len(missing) > 50 else ''}; regenerate "
        f"it with `python tests/helpers/declared_names.py --write` ({ROOT})")
