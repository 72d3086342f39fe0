"""``diff --against REV`` in a repository that is not the user's own, and the revision read
as the revision has it.

* git runs with nothing the repository's configuration names: no ``core.fsmonitor`` (a
  ``:path`` revision used to read the index, which ran it), no lazy fetch of a partial
  clone's missing objects (which ran the promisor remote's ``uploadpack``), even when the
  repository allows the transport itself;
* file names that are not UTF-8 in a committed schema folder;
* OLD's C headers include the revision's files, not the work tree's (``-I`` folders and the
  header's own folder);
* ``--c-module HEADER=MODULE`` reaches the revision copy of HEADER only, not of every header
  whose path ends like it.

Each case runs the real command in a child process, as a user would.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from helpers.common import require_toolchain

ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def git(repo: pathlib.Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@e", GIT_CONFIG_NOSYSTEM="1", HOME=str(repo))
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


def write(path: pathlib.Path, text) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def schema_text(field_type: str, module: str = "Geo", name: str = "p") -> str:
    return json.dumps({"module": module, "types": [{"record": name,
                                                    "fields": [["a", field_type]]}]})


def new_repo(root: pathlib.Path) -> pathlib.Path:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    return root


def commit_all(repo: pathlib.Path, message: str = "c") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def diff(cwd: pathlib.Path, *argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(cwd), GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run([sys.executable, "-m", "sarek_layout", "diff", *argv], cwd=cwd,
                          capture_output=True, text=True, errors="replace", env=env,
                          timeout=120)


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def marker_script(tmp_path: pathlib.Path, name: str, then: str = "") -> tuple:
    marker = tmp_path / f"{name}-RAN"
    script = write(tmp_path / f"{name}.sh", f"#!/bin/sh\ntouch '{marker}'\n{then}")
    script.chmod(0o755)
    return script, marker


# --- no program named by the repository's configuration runs ---------------------------------


def test_against_runs_no_fsmonitor_named_by_the_repository(tmp_path):
    """A ``:path`` revision reads the index, and reading the index ran ``core.fsmonitor``."""
    repo = new_repo(tmp_path / "repo")
    write(repo / "s" / "geo.json", schema_text("int32"))
    commit_all(repo)
    script, marker = marker_script(tmp_path, "fsmonitor", "exit 1\n")
    git(repo, "config", "core.fsmonitor", str(script))
    for revision in (":s/geo.json", ":0:s/geo.json", "HEAD"):
        result = diff(repo, "--against", revision, "s/geo.json")
        assert result.returncode in (0, 2), (revision, result.stderr)
        if result.returncode == 2:
            assert "unknown revision" in one_line_error(result)
    assert not marker.exists(), "diff --against ran the repository's core.fsmonitor"
    assert diff(repo, "--against", "HEAD", "s/geo.json").returncode == 0  # still works


def test_against_never_fetches_a_partial_clones_missing_object(tmp_path):
    """The OLD blob is missing in a partial clone: git fetched it lazily, running the
    promisor remote's ``uploadpack`` (a program named by the repository). The repository
    also allows the file transport itself, which beat ``-c protocol.allow=never``."""
    upstream = new_repo(tmp_path / "upstream")
    write(upstream / "s" / "geo.json", schema_text("int32"))
    commit_all(upstream, "one")
    write(upstream / "s" / "geo.json", schema_text("int64"))
    commit_all(upstream, "two")
    git(upstream, "config", "uploadpack.allowFilter", "true")
    git(upstream, "config", "uploadpack.allowAnySHA1InWant", "true")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", "--filter=blob:none", str(upstream), str(clone))
    missing = git(clone, "rev-list", "--objects", "--missing=print", "HEAD~1")
    assert "?" in missing  # the OLD blob is not there: reading it needs a fetch
    script, marker = marker_script(tmp_path, "uploadpack", 'exec git-upload-pack "$@"\n')
    git(clone, "config", "remote.origin.uploadpack", str(script))
    git(clone, "config", "protocol.file.allow", "always")
    result = diff(clone, "--against", "HEAD~1", "s/geo.json")
    assert not marker.exists(), "diff --against ran the promisor remote's uploadpack"
    line = one_line_error(result)
    assert line.startswith("sarek-layout: error: HEAD~1:s/geo.json: git cannot read the object")
    assert "never fetches" in line
    assert result.stdout == ""


def test_git_as_run_by_diff_fetches_nothing_even_where_the_repository_allows_it(tmp_path):
    """The layer under ``GIT_NO_LAZY_FETCH`` (which git before 2.39.4 ignores): every
    transport is refused, overriding the repository's ``protocol.file.allow=always``, so no
    ``uploadpack`` runs whatever git command would fetch."""
    from sarek_layout.abi.git_repo import _git, git_env

    upstream = new_repo(tmp_path / "upstream")
    write(upstream / "s" / "geo.json", schema_text("int32"))
    commit_all(upstream)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", str(upstream), str(clone))
    script, marker = marker_script(tmp_path, "uploadpack", 'exec git-upload-pack "$@"\n')
    git(clone, "config", "remote.origin.uploadpack", str(script))
    git(clone, "config", "protocol.file.allow", "always")
    git(clone, "fetch", "-q", "origin")  # the repository's own settings do run it
    assert marker.exists()
    marker.unlink()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = _git(["fetch", "origin"], str(clone), git_env(str(scratch)))
    assert proc.returncode != 0
    assert b"not allowed" in proc.stderr, proc.stderr
    assert not marker.exists()


# --- file names that are not UTF-8 -----------------------------------------------------------


def test_against_a_folder_holding_names_that_are_not_utf8(tmp_path):
    repo = new_repo(tmp_path / "repo")
    write(repo / "s" / "geo.json", schema_text("int32"))
    write(repo / "s" / os.fsdecode(b"notes\xff.txt"), "not a schema\n")
    write(repo / "s" / os.fsdecode(b"b\xff.json"), schema_text("int32", module="Other"))
    commit_all(repo)
    result = diff(repo, "--against", "HEAD", "s")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("identical:"), result.stdout
    write(repo / "s" / os.fsdecode(b"b\xff.json"), schema_text("int64", module="Other"))
    result = diff(repo, "--against", "HEAD", "s")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    assert "breaking: Other.p.a: type changed: int32 -> int64" in result.stdout


# --- OLD's includes come from the revision ---------------------------------------------------


HEADER = '#include "types.h"\ntypedef struct Geo_p { T a; T b; } Geo_p;\n'


def _sizeof_with(types_h: str, tmp_path: pathlib.Path) -> int:
    """sizeof(Geo_p) as gcc lays it out with this types.h (the fact the diff must report)."""
    folder = tmp_path / f"gcc-{abs(hash(types_h))}"
    write(folder / "types.h", types_h)
    write(folder / "p.h", HEADER)
    write(folder / "main.c", '#include <stdio.h>\n#include "p.h"\n'
          'int main(void) { printf("%zu\\n", sizeof(Geo_p)); return 0; }\n')
    subprocess.run(["gcc", "-o", str(folder / "a.out"), str(folder / "main.c")], check=True)
    return int(subprocess.run([str(folder / "a.out")], capture_output=True, text=True,
                              check=True).stdout)


@pytest.mark.parametrize("where", ["include-folder", "beside-the-header"])
def test_against_reads_the_revisions_included_typedefs(tmp_path, where):
    """``T`` goes from int32_t to int64_t in an included header: OLD used to include the work
    tree's types.h, so both sides were 16 bytes and the break was "identical", exit 0."""
    require_toolchain("gcc")
    old_types = "#include <stdint.h>\ntypedef int32_t T;\n"
    new_types = "#include <stdint.h>\ntypedef int64_t T;\n"
    assert (_sizeof_with(old_types, tmp_path), _sizeof_with(new_types, tmp_path)) == (8, 16)
    repo = new_repo(tmp_path / "repo")
    types = repo / ("inc" if where == "include-folder" else "s") / "types.h"
    write(types, old_types)
    write(repo / "s" / "geo.h", HEADER)
    commit_all(repo)
    write(types, new_types)
    flags = ["-I", "inc"] if where == "include-folder" else []
    result = diff(repo, "--against", "HEAD", "s/geo.h", *flags)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "breaking: Geo.p: size changed: 8 -> 16 [size-changed]" in result.stdout
    assert "breaking: Geo.p.a: type changed: int32 -> int64" in result.stdout
    commit_all(repo)  # the work tree is the revision again: nothing changed
    result = diff(repo, "--against", "HEAD", "s/geo.h", *flags)
    assert result.returncode == 0 and result.stdout.startswith("identical:"), result.stdout


def test_against_a_generated_header_git_does_not_track_is_read_from_the_work_tree(tmp_path):
    """A build's config.h (ignored by git) has no version at the revision: OLD includes the
    work tree's, and says so in a note; it is not a missing file."""
    repo = new_repo(tmp_path / "repo")
    write(repo / ".gitignore", "build/\n")
    write(repo / "build" / "types.h", "#include <stdint.h>\ntypedef int32_t T;\n")
    write(repo / "s" / "geo.h", HEADER)
    commit_all(repo)
    result = diff(repo, "--against", "HEAD", "s/geo.h", "-I", "build")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == ("note: build/types.h: not in git; HEAD's headers "
                                             "include the work tree's file")
    assert "identical:" in result.stdout


def test_against_names_an_error_in_an_included_file_of_the_revision(tmp_path):
    repo = new_repo(tmp_path / "repo")
    write(repo / "inc" / "types.h", "typedef int T\n")  # no ';'
    write(repo / "s" / "geo.h", HEADER)
    commit_all(repo)
    write(repo / "inc" / "types.h", "typedef int T;\n")
    result = diff(repo, "--against", "HEAD", "s/geo.h", "-I", "inc")
    line = one_line_error(result)
    assert line.startswith("HEAD:"), line
    assert "sarek-diff-" not in line, line


# --- --c-module names one file ---------------------------------------------------------------


@pytest.mark.parametrize("root_header, status", [
    ("typedef struct q { int y; } q;\n", "exit 2 before"),
    ("typedef struct Bar_q { int y; } Bar_q;\n", "exit 1 before"),
])
def test_against_c_module_reaches_only_the_copy_of_that_header(tmp_path, root_header, status):
    """``--c-module lib/p.h=Bar``: the revision copy of ``p.h`` got module Bar too (its path
    ends like ``lib/p.h``): nothing changed, yet a refusal (exit 2) or "breaking: Bar_q:
    removed" (exit 1)."""
    repo = new_repo(tmp_path / "repo")
    write(repo / "lib" / "p.h", "typedef struct Bar_r { int x; } Bar_r;\n")
    write(repo / "p.h", root_header)
    commit_all(repo)
    for order in (["p.h", "lib/p.h"], ["lib/p.h", "p.h"]):
        result = diff(repo, "--against", "HEAD", *order, "--c-module", "lib/p.h=Bar")
        assert result.returncode == 0, (status, result.stdout, result.stderr)
        assert result.stdout.startswith("identical:"), result.stdout
