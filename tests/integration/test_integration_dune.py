"""dune: headers generated from the OCaml sources themselves, and checked-in headers kept
honest with ``(diff …)`` under ``@runtest`` and ``dune promote``; driven by real dune.

``examples/dune`` is built in a private copy with the installed ``sarek-layout`` first on
PATH: a first build; a no-op (nothing printed, nothing written); an edit of ``geometry.ml``,
whose types ``scene.ml`` uses, which must recompile the C stubs that include the regenerated
headers and not the independent ones, and make ``@runtest`` fail with a diff until ``dune
promote``; an edit that changes no header, which must recompile no C; a deleted generated
header (regenerated) and a deleted checked-in header (restored by ``dune promote``); and
the ``(mode promote)`` variant the documentation shows.

dune compares contents, not times: a header it regenerates with the same content does not
rebuild what includes it. What was recompiled is read from the C stubs' object files.
"""

from __future__ import annotations

import pathlib
import subprocess

from helpers.common import ROOT
from helpers.integration import changed, copy_example, edit, require_tool, run, snapshot, tool_env

DUNE_HINT = "apt-get install ocaml-dune ocaml-nox (dune 2.9 or newer, OCaml 4.13 or newer)"
STUBS = ("_stubs.o",)


def _dune(*args: str, cwd: pathlib.Path, expect_ok: bool = True) -> subprocess.CompletedProcess:
    dune = require_tool("dune", DUNE_HINT)
    # --root: the copy is its own project, whatever encloses it.
    return run([dune, *args, "--root", ".", "--display", "short", "--no-print-directory"],
               cwd, tool_env(), expect_ok=expect_ok)


def _recompiled(project: pathlib.Path, step) -> list:
    before = snapshot(project / "_build", STUBS)
    step()
    return changed(before, snapshot(project / "_build", STUBS))


def _demo(project: pathlib.Path) -> str:
    return run([str(project / "_build" / "default" / "bin" / "main.exe")], project, tool_env()).stdout


def test_dune_example_generates_from_ocaml_sources_and_keeps_checked_in_headers_honest(tmp_path):
    require_tool("ocamlopt", DUNE_HINT)
    require_tool("cc", "apt-get install gcc")
    project = copy_example("dune", tmp_path)
    build = project / "_build" / "default"
    # The copy's checked-in headers as this sarek-layout writes them: the scenario tests the
    # mechanism; whether the committed ones are current is the last test's question.
    run(["sarek-layout", "generate", "src/geometry.ml", "src/scene.ml", "-o", "include", "-t", "c"],
        project, tool_env())

    # First build: headers generated in _build, the C stubs compiled against them.
    _dune("build", cwd=project)
    assert (build / "src" / "geometry.h").exists() and (build / "src" / "scene.h").exists()
    assert "Scene_node 12\n" in _demo(project)
    _dune("build", "@runtest", cwd=project)  # the checked-in headers are current

    # No-op: nothing printed, nothing written.
    before = snapshot(project / "_build", (".h", ".o", ".exe", ".a"))
    noop = _dune("build", "@default", "@runtest", cwd=project)
    assert noop.stdout + noop.stderr == ""
    assert changed(before, snapshot(project / "_build", (".h", ".o", ".exe", ".a"))) == []

    # An edit of geometry.ml, which scene.ml uses: the library's stubs (they include scene.h,
    # which includes geometry.h) recompile, the particles' do not; the checked-in headers
    # are now stale, so @runtest fails with a diff until `dune promote`.
    edit(project / "src" / "geometry.ml", "y : float32 }", "y : float64 }",
         newer_than=(project / "src").iterdir())
    recompiled = _recompiled(project, lambda: _dune("build", cwd=project))
    assert [pathlib.Path(p).name for p in recompiled] == ["shapes_stubs.o"], recompiled
    assert "Scene_node 24\n" in _demo(project)
    stale = _dune("build", "@runtest", cwd=project, expect_ok=False)
    assert stale.returncode != 0
    assert "include/geometry.h" in stale.stdout + stale.stderr
    assert "float64" in stale.stdout + stale.stderr or "double" in stale.stdout + stale.stderr
    _dune("promote", cwd=project)
    assert (project / "include" / "geometry.h").read_text() == (build / "include" / "gen" / "geometry.h").read_text()
    _dune("build", "@runtest", cwd=project)

    # An edit that changes no header (a comment): no C is recompiled.
    edit(project / "particles" / "particles.ml", "let describe", "(* a comment *)\nlet describe",
         newer_than=(project / "particles").iterdir())
    assert _recompiled(project, lambda: _dune("build", cwd=project)) == []

    # A deleted generated header is generated again (same content: nothing recompiled).
    (build / "src" / "scene.h").unlink()
    assert _recompiled(project, lambda: _dune("build", cwd=project)) == []
    assert (build / "src" / "scene.h").exists()

    # A deleted checked-in header: @runtest fails, `dune promote` restores it.
    checked_in = project / "include" / "scene.h"
    expected = checked_in.read_text()
    checked_in.unlink()
    assert _dune("build", "@runtest", cwd=project, expect_ok=False).returncode != 0
    _dune("promote", cwd=project)
    assert checked_in.read_text() == expected
    _dune("build", "@runtest", cwd=project)


def test_dune_promote_mode_keeps_a_source_copy_current(tmp_path):
    """The ``(mode promote)`` variant of docs/build-integration.md: the header is copied into
    the source tree on every build, restored when deleted, updated after an edit."""
    require_tool("ocamlopt", DUNE_HINT)
    project = copy_example("dune", tmp_path)
    (project / "promoted").mkdir()
    (project / "promoted" / "dune").write_text(
        "(rule\n (mode promote)\n (targets particles.h)\n (deps ../particles/particles.ml)\n"
        " (action\n  (run sarek-layout generate %{deps} -o . -t c)))\n")
    header = project / "promoted" / "particles.h"
    _dune("build", "promoted/particles.h", cwd=project)
    assert "Particles_particle" in header.read_text()
    header.unlink()
    _dune("build", "promoted/particles.h", cwd=project)
    assert header.exists()
    edit(project / "particles" / "particles.ml", "alive : bool", "alive : int64",
         newer_than=[header])
    _dune("build", "promoted/particles.h", cwd=project)
    assert "int64_t alive" in header.read_text()


def test_checked_in_headers_of_the_dune_example_are_current():
    """examples/dune/include/ is what `dune promote` writes; refresh it after a change of
    the generated headers with: sarek-layout generate examples/dune/src/geometry.ml
    examples/dune/src/scene.ml -o examples/dune/include -t c"""
    example = ROOT / "examples" / "dune"
    proc = run(["sarek-layout", "generate", "src/geometry.ml", "src/scene.ml", "-o", "include",
                "-t", "c", "--check"], example, tool_env(), expect_ok=False)
    assert proc.returncode == 0, (
        "examples/dune/include/ is stale; refresh it with: sarek-layout generate "
        "examples/dune/src/geometry.ml examples/dune/src/scene.ml -o examples/dune/include -t c\n"
        + proc.stderr)
