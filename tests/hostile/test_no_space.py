"""A ``$TMPDIR`` with room for Python's own check but not for the files (issue #25).

``verify`` and ``diff --against`` write into temporary folders (compile folders, the
revision's copies), and so do the compilers verify runs. When that file system is full the
command stops with one line and exit 2, whoever failed to write: Python (that was an ENOSPC
traceback, exit 1), the compiler (a false "does not compile", exit 1) or the toolchain's
smoke test (a false "not installed"). Nothing is left behind.

The full file system is real: a small tmpfs, mounted for the test (root only; skipped
elsewhere), partly filled so that exactly the wanted number of bytes is free.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from helpers.common import require_toolchain
from helpers.verify import DATA

#: The tmpfs's size; the filler leaves the free space each case asks for.
SIZE_KB = 512
#: Hang guard for one command (each takes a second or two).
HANG_GUARD_S = 300


@pytest.fixture
def small_tmpdir(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE_KB}k", "tmpfs", str(mount)],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=60)


def _leave_free(mount: pathlib.Path, free_kb: int) -> None:
    for entry in mount.iterdir():
        entry.unlink() if not entry.is_dir() else shutil.rmtree(entry)
    with open(mount / "filler", "wb") as f:
        f.write(b"\0" * ((SIZE_KB - free_kb) << 10))


def _run(args, cwd: pathlib.Path, tmpdir: pathlib.Path) -> subprocess.CompletedProcess:
    import sarek_layout

    parent = pathlib.Path(sarek_layout.__file__).resolve().parent.parent
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONPATH=str(parent),
               SAREK_LAYOUT_NO_CACHE="1")  # nothing but the command's own files in TMPDIR
    return subprocess.run([sys.executable, "-m", "sarek_layout", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=HANG_GUARD_S)


def _assert_no_room(proc: subprocess.CompletedProcess, mount: pathlib.Path) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert lines[0].startswith("sarek-layout: error: No space left on device"), lines[0]
    assert "set TMPDIR to a folder with room" in lines[0], lines[0]
    assert proc.stdout.count("agree") == 0, proc.stdout  # never reported as a difference
    assert sorted(p.name for p in mount.iterdir()) == ["filler"], "something was left behind"


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(DATA / "plain.toml", root / "plain.toml")
    return root


def test_a_header_copy_that_does_not_fit_is_one_line(project, small_tmpdir):
    """Python's own write of the compile folder's copy fails (the old traceback)."""
    require_toolchain("gcc")
    assert _run(["generate", "plain.toml", "-o", "gen", "-t", "c"], project,
                project).returncode == 0
    text = (project / "gen" / "plain.h").read_text()
    (project / "big.h").write_text("/*" + "x" * (200 << 10) + "*/\n" + text)
    _leave_free(small_tmpdir, 64)  # room for gcc's smoke test, not for a 200 KB copy
    proc = _run(["verify", "plain.toml", "--header", "big.h", "--toolchain", "gcc"], project,
                small_tmpdir)
    _assert_no_room(proc, small_tmpdir)


@pytest.mark.parametrize("free_kb", [0, 4, 8, 12, 16, 24, 32, 48, 64])
def test_verify_with_little_room_agrees_or_says_there_is_no_room(project, small_tmpdir,
                                                                 free_kb):
    """Whoever runs out (Python, gcc's smoke test, the probe compile, its diagnostics):
    never a traceback, a false "does not compile" or a false "not installed"."""
    require_toolchain("gcc")
    _leave_free(small_tmpdir, free_kb)
    proc = _run(["verify", "plain.toml", "--toolchain", "gcc"], project, small_tmpdir)
    if proc.returncode == 0:
        assert "1 of 1 toolchain agree" in proc.stdout, proc.stdout
        assert sorted(p.name for p in small_tmpdir.iterdir()) == ["filler"]
    else:
        _assert_no_room(proc, small_tmpdir)


def test_diff_against_a_revision_that_does_not_fit_is_one_line(project, small_tmpdir):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    schema = project / "plain.toml"
    schema.write_text("#" + "x" * (200 << 10) + "\n" + schema.read_text())
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    for step in (["init", "-q"], ["add", "plain.toml"], ["commit", "-qm", "schema"]):
        subprocess.run(git + step, cwd=project, check=True, capture_output=True, timeout=60)
    _leave_free(small_tmpdir, 64)
    proc = _run(["diff", "--against", "HEAD", "plain.toml"], project, small_tmpdir)
    _assert_no_room(proc, small_tmpdir)
