"""Plumbing shared by the build-system tests (``tests/integration/test_integration_*.py``).

Each of those tests copies an example project (``examples/cmake``, ``meson``, ``dune``…) into a
temporary folder and drives the real build tool through a first build, a no-op rebuild, a
schema edit and a deleted generated file, with the installed ``sarek-layout`` first on PATH
(the one beside the Python running the tests: the project's ``.venv/bin``) and nothing else
of this repository in reach. Which files a build rewrote is read from their modification
times, never from the build tool's own summary alone.

``require_tool`` skips with the one-line install hint when a build tool is missing here, and
fails instead when CI asks for every tool with ``SAREK_REQUIRE_TOOLCHAINS`` (as
``helpers.common.require_toolchain`` does for compilers).
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
from typing import Dict, Iterable, List, Mapping, Optional, Sequence

import pytest

from helpers.common import ROOT
from sarek_layout.verify.toolchains import REQUIRE_ENV

#: The folder of the Python running the tests; the installed ``sarek-layout`` lies beside it.
VENV_BIN = pathlib.Path(sys.executable).parent

#: A generous bound on any one build step, to turn a hang into a failure.
STEP_TIMEOUT = 600


def _required(name: str) -> bool:
    value = os.environ.get(REQUIRE_ENV, "").strip()
    if value.lower() in ("1", "all", "yes", "true"):
        return True
    return name in (v.strip() for v in value.split(","))


def require_tool(name: str, install_hint: str) -> str:
    """The path of the build tool ``name``; skip (locally) or fail (when required) without it.
    Looked for where the builds look: beside the test's Python first (pre-commit), then PATH."""
    path = shutil.which(name, path=_search_path())
    if path is None:
        reason = f"{name} not found: {install_hint}"
        if _required(name):
            pytest.fail(f"required build tool missing: {reason}", pytrace=False)
        pytest.skip(reason)
    return path


def _search_path() -> str:
    return os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "/usr/bin:/bin")])


def tool_env(**extra: str) -> Dict[str, str]:
    """The environment of a build: the installed sarek-layout first on PATH, no PYTHONPATH."""
    sarek = VENV_BIN / "sarek-layout"
    if not sarek.exists():
        pytest.fail(f"{sarek} is missing: run `make venv` (the package must be installed)",
                    pytrace=False)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MAKEFLAGS", "MFLAGS")}
    env["PATH"] = _search_path()
    env.update(extra)
    return env


def copy_example(name: str, dest: pathlib.Path) -> pathlib.Path:
    """A private copy of ``examples/<name>``, without any build folder left in the checkout."""
    target = dest / name
    shutil.copytree(
        ROOT / "examples" / name, target,
        ignore=shutil.ignore_patterns("build", "_build", "__pycache__"),
    )
    return target


def run(cmd: Sequence[str], cwd: pathlib.Path, env: Mapping[str, str],
        expect_ok: bool = True) -> subprocess.CompletedProcess:
    """Run one build step; on an unexpected status, fail with everything it printed."""
    proc = subprocess.run(
        list(cmd), cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=STEP_TIMEOUT,
    )
    if expect_ok and proc.returncode != 0:
        pytest.fail(
            f"`{' '.join(cmd)}` exited {proc.returncode} in {cwd}\n"
            f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}",
            pytrace=False,
        )
    return proc


def snapshot(root: pathlib.Path, suffixes: Iterable[str]) -> Dict[str, int]:
    """``relative path -> mtime_ns`` of the files under ``root`` whose name ends in a suffix."""
    ends = tuple(suffixes)
    return {
        str(p.relative_to(root)): p.stat().st_mtime_ns
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name.endswith(ends)
    }


def changed(before: Mapping[str, int], after: Mapping[str, int]) -> List[str]:
    """Files written (or created, or deleted) between two snapshots, sorted."""
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def edit(path: pathlib.Path, old: str, new: str, newer_than: Optional[Iterable[pathlib.Path]] = None) -> None:
    """Replace ``old`` by ``new`` in ``path`` (once; it must be there) and make sure the file is
    newer than every file in ``newer_than``: two writes within one tick of the kernel's
    coarse clock may share a timestamp, which Make would read as "up to date"."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))
    newest = max((p.stat().st_mtime_ns for p in (newer_than or ()) if p.exists()), default=0)
    if path.stat().st_mtime_ns <= newest:
        stamp = newest + 10_000_000
        os.utime(path, ns=(stamp, stamp))


# --- the scenario shared by examples/cmake and examples/meson ----------------------------
# Both build the same C library from examples/*/schemas: base.toml (imported by scene.toml),
# scene.toml and particles.ml, included by src/uses_base.c, uses_scene.c, uses_particles.c.

#: What the snapshots watch: generated files, objects, the library and the program.
C_PRODUCTS = (".h", ".cuh", ".o", ".a", "shapes_demo", ".stamp")


def object_names(paths: Iterable[str]) -> set:
    """``uses_base`` for ``CMakeFiles/shapes.dir/src/uses_base.c.o`` (CMake) or
    ``libshapes.a.p/src_uses_base.c.o`` (Meson)."""
    names = set()
    for p in paths:
        if p.endswith(".o"):
            name = pathlib.Path(p).name.split(".")[0]
            names.add(name[4:] if name.startswith("src_") else name)
    return names


def header_names(paths: Iterable[str], gen: str) -> set:
    """The generated files among ``paths`` (relative to the build tree), by name."""
    return {pathlib.Path(p).name for p in paths
            if str(pathlib.Path(p).parent) == gen and p.endswith((".h", ".cuh"))}


def drive_c_example(*, step: Sequence[str], build: pathlib.Path, src: pathlib.Path, gen: str,
                    env: Mapping[str, str], expected: set, busy: str,
                    idle: Optional[str] = None, reruns_after_edit: bool = False) -> None:
    """First build, no-op, edit of an imported schema, edit that changes no header, deleted
    header: after each, exactly the right files are rewritten.

    ``step`` builds; ``gen`` is the generated files' folder relative to ``build``;
    ``expected`` the names it must hold; ``busy`` a text the build prints when the generator
    runs and ``idle`` one it prints when there is nothing to do (when the tool has one).
    ``reruns_after_edit``: the build may run the generator again (writing nothing) while a
    schema is newer than a header it left untouched (plain Make without a stamp).
    """
    cwd = build.parent
    run(step, cwd, env)
    gen_dir = build / gen
    assert {p.name for p in gen_dir.iterdir() if p.name.endswith((".h", ".cuh"))} == expected
    demo = str(build / "shapes_demo")
    assert "Base_id 4\n" in run([demo], cwd, env).stdout

    def rebuild(noop: bool = False) -> List[str]:
        before = snapshot(build, C_PRODUCTS)
        proc = run(step, cwd, env)
        rewritten = changed(before, snapshot(build, C_PRODUCTS))
        if noop:  # nothing written, the generator not run, and the tool says so
            assert rewritten == [], rewritten
            assert busy not in proc.stdout, proc.stdout
            # generate's own summary ("0 headers written, 3 unchanged"), also when the
            # build tool does not echo the command
            assert not re.search(r"\d+ headers? written", proc.stdout + proc.stderr), proc
            if idle is not None:
                assert idle in proc.stdout, proc.stdout
        return rewritten

    rebuild(noop=True)

    # An edit of base.toml, which scene.toml imports: base's headers change; the sources that
    # include base.h (directly, or through scene.h) recompile; particles' do not.
    edit(src / "schemas" / "base.toml", '["value", "int32"]', '["value", "int64"]',
         newer_than=gen_dir.iterdir())
    rewritten = rebuild()
    headers = header_names(rewritten, gen)
    assert "base.h" in headers and not any(h.startswith("particles.") for h in headers), rewritten
    assert object_names(rewritten) == {"uses_base", "uses_scene"}, rewritten
    assert "Base_id 8\n" in run([demo], cwd, env).stdout
    assert rebuild(noop=not reruns_after_edit) == []  # after an edit, too

    # An edit that changes no header (a comment in the OCaml source): the generator may rerun
    # but rewrites nothing, and nothing is recompiled; the next build is a no-op again.
    edit(src / "schemas" / "particles.ml", "let describe", "(* a comment *)\nlet describe",
         newer_than=gen_dir.iterdir())
    rewritten = rebuild()
    assert header_names(rewritten, gen) == set() and object_names(rewritten) == set(), rewritten
    assert rebuild(noop=not reruns_after_edit) == []

    # A deleted generated header is generated again, and what includes it is recompiled.
    (gen_dir / "scene.h").unlink()
    rewritten = rebuild()
    assert (gen_dir / "scene.h").exists()
    assert header_names(rewritten, gen) == {"scene.h"}, rewritten
    assert object_names(rewritten) == {"uses_scene"}, rewritten
    assert rebuild(noop=not reruns_after_edit) == []
