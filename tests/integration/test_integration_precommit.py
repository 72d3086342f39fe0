"""pre-commit: the hook of ``.pre-commit-hooks.yaml``, run by real pre-commit on a throwaway
git repository that uses this checkout as its hook repository.

pre-commit installs the hook repository into a virtual environment of its own (``language:
python``), as it would for a user; the test then commits current headers (the hook passes),
a schema edit without regenerating (the commit is refused, naming the stale header), and a
deleted header (refused, naming it as missing).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

from helpers.common import ROOT
from helpers.integration import require_tool, run, tool_env

SCHEMA = """module = "Geo"

[[types]]
record = "point"
fields = [["x", "float32"], ["y", "float32"]]
"""


def _hook_repository(dest: pathlib.Path) -> str:
    """A git repository holding this checkout as it is now (tracked files and new ones git
    would add), committed: pre-commit clones a revision. Returns the revision."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True, cwd=ROOT, check=True, timeout=60,
    ).stdout.decode().split("\0")
    for name in filter(None, listing):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    env = _git_env()
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "hooks"]):
        run(cmd, dest, env)
    return run(["git", "rev-parse", "HEAD"], dest, env).stdout.strip()


def _git_env(**extra: str) -> dict:
    return tool_env(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
                    GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid",
                    GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", **extra)


@pytest.mark.slow
def test_precommit_hook_refuses_commits_with_stale_or_missing_headers(tmp_path):
    require_tool("git", "apt-get install git")
    precommit = require_tool("pre-commit", "pip install pre-commit")
    rev = _hook_repository(tmp_path / "hooks")

    user = tmp_path / "user"
    (user / "schemas").mkdir(parents=True)
    (user / "schemas" / "geo.toml").write_text(SCHEMA)
    (user / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {tmp_path / 'hooks'}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: sarek-layout-check\n"
        "        args: [schemas/geo.toml, -o, include, -t, c]\n")
    env = _git_env(PRE_COMMIT_HOME=str(tmp_path / "cache"))
    run(["git", "init", "-q"], user, env)
    run([precommit, "install"], user, env)
    run(["sarek-layout", "generate", "schemas/geo.toml", "-o", "include", "-t", "c"], user, env)

    def commit(message: str) -> subprocess.CompletedProcess:
        run(["git", "add", "-A"], user, env)
        return run(["git", "commit", "-q", "-m", message], user, env, expect_ok=False)

    first = commit("current headers")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Passed" in first.stdout + first.stderr

    (user / "schemas" / "geo.toml").write_text(SCHEMA.replace('"y", "float32"', '"y", "float64"'))
    stale = commit("schema edited, header not regenerated")
    assert stale.returncode != 0
    assert "include/geo.h (stale)" in stale.stdout + stale.stderr
    assert run(["git", "log", "--oneline"], user, env).stdout.count("\n") == 1
    # The hook says the command that refreshes; run as printed, it does.
    said = [line.split("to update, run: ", 1)[1]
            for line in (stale.stdout + stale.stderr).splitlines() if "to update, run: " in line]
    assert said == ["sarek-layout generate schemas/geo.toml -o include -t c"], stale.stdout

    run(["/bin/sh", "-c", said[0]], user, env)
    regenerated = commit("header regenerated")
    assert regenerated.returncode == 0, regenerated.stdout + regenerated.stderr

    (user / "include" / "geo.h").unlink()
    missing = commit("header deleted")
    assert missing.returncode != 0
    assert "include/geo.h (missing)" in missing.stdout + missing.stderr


def test_hook_manifest_runs_generate_check():
    """The manifest pre-commit reads: one hook, running generate --check on the files the
    user names (not on the changed files alone: schemas are read together)."""
    yaml = pytest.importorskip("yaml", reason="PyYAML not installed (pre-commit brings it)")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    (hook,) = [h for h in hooks if h["id"] == "sarek-layout-check"]
    assert hook["entry"] == "sarek-layout generate --check"
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert hook["always_run"] is True  # a deleted header is in no list of changed files
