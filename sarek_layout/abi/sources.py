"""Where ``diff`` reads OLD and NEW from: schema files, folders of them, or a git revision.

``schema_files(path)`` is a file, or the schema files (by suffix) directly inside a folder.
``at_revision(rev, paths, into)`` writes each schema file as it was at a git revision into a
temporary folder, under the same path relative to its repository, so module names (taken
from file stems) and relative includes are the same as in the work tree.

Revisions and paths come from users and are hostile input: git runs as a list argv (never a
shell), a revision may not start with ``-`` (it would become an option) and is resolved
once to a commit id with ``--end-of-options``; paths are passed after ``--`` with
``--literal-pathspecs`` (no pathspec magic), and every blob is read by its object id.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

from ..errors import UsageError
from ..frontends import READERS

__all__ = ["SCHEMA_SUFFIXES", "schema_files", "RevisionFiles", "at_revision", "MAX_BLOB_BYTES"]

#: Suffixes of schema files, for folders: those the front ends have a reader for.
SCHEMA_SUFFIXES = tuple(READERS)

#: Largest schema file read from git (a schema is kilobytes; this only stops a huge blob).
MAX_BLOB_BYTES = 64 * 1024 * 1024

#: Longest revision accepted (branch names, ``HEAD~3``, ``origin/main@{1}``, object ids).
MAX_REVISION_CHARS = 256


def _is_schema(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in SCHEMA_SUFFIXES


def schema_files(path: str) -> List[str]:
    """``[path]`` for a file; a folder's schema files (not recursive, sorted by name)."""
    if os.path.isdir(path):
        try:
            names = sorted(os.listdir(path))
        except OSError as e:
            raise UsageError(f"{path}: cannot list the folder ({e.strerror})") from None
        found = [os.path.join(path, n) for n in names
                 if _is_schema(n) and os.path.isfile(os.path.join(path, n))]
        if not found:
            raise UsageError(f"{path}: no schema files in the folder "
                             f"({', '.join(SCHEMA_SUFFIXES)})")
        return found
    return [path]


@dataclass
class RevisionFiles:
    """The schema files of one comparison with a revision.

    ``old``: files written from the revision (temporary paths); ``new``: work-tree files;
    ``display``: temporary path -> ``REV:path`` for messages; ``notes``: files only one side
    has (added or deleted since the revision).
    """

    old: List[str] = field(default_factory=list)
    new: List[str] = field(default_factory=list)
    display: Dict[str, str] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)


def _git(args: Sequence[str], cwd: str, *, binary: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    try:
        return subprocess.run(["git", "--literal-pathspecs", "-C", cwd, *args],
                              capture_output=True, text=not binary, env=env, timeout=300)
    except FileNotFoundError:
        raise UsageError("--against needs git, and git is not on PATH") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"git {args[0]} did not answer within 300 s in {cwd}") from None


def _first_line(stderr) -> str:
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[0] if lines else "no message"


def _check_revision(revision: str) -> None:
    # Spaces are fine (HEAD@{2 days ago}): git gets a list argv, never a shell. A leading
    # '-' would make it an option, and control characters have no place in a revision.
    if (not revision or revision.startswith("-") or len(revision) > MAX_REVISION_CHARS
            or not revision.isprintable()):
        raise UsageError(f"not a git revision: {revision[:MAX_REVISION_CHARS]!r} (a branch, tag, "
                         f"commit id or expression such as HEAD~1, not starting with '-')")


class _Repository:
    """One git work tree and the commit the revision names in it."""

    def __init__(self, top: str, revision: str, index: int) -> None:
        self.top = top
        self.index = index
        proc = _git(["rev-parse", "--verify", "--quiet", "--end-of-options",
                     f"{revision}^{{commit}}"], top)
        commit = proc.stdout.strip()
        if proc.returncode != 0 or not commit or not all(c in "0123456789abcdef" for c in commit):
            raise UsageError(f"unknown revision {revision!r} in the git repository {top}")
        self.commit = commit

    def entries(self, rel: str) -> List[Tuple[str, str, str, str, str]]:
        """``ls-tree -l`` of ``rel`` at the commit: (mode, type, object, size, path) each."""
        proc = _git(["ls-tree", "-z", "-l", self.commit, "--", rel], self.top)
        if proc.returncode != 0:
            raise UsageError(f"git ls-tree failed in {self.top}: {_first_line(proc.stderr)}")
        out = []
        for record in proc.stdout.split("\0"):
            if not record:
                continue
            head, _, path = record.partition("\t")
            parts = head.split()
            if len(parts) == 4:
                out.append((parts[0], parts[1], parts[2], parts[3], path))
        return out

    def blob(self, obj: str) -> bytes:
        proc = _git(["cat-file", "blob", obj], self.top, binary=True)
        if proc.returncode != 0:
            raise UsageError(f"git cat-file failed in {self.top}: {_first_line(proc.stderr)}")
        return proc.stdout


def _top_level(path: str) -> str:
    folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{path}: no such file or folder")
    proc = _git(["rev-parse", "--show-toplevel"], folder)
    if proc.returncode != 0:
        raise UsageError(f"{path}: --against needs a git work tree, and {folder} is not in one "
                         f"({_first_line(proc.stderr)})")
    return os.path.realpath(proc.stdout.strip())


def _safe_relative(path: str) -> bool:
    return not (os.path.isabs(path) or path.startswith("..") or "\0" in path
                or any(part in ("", ".", "..") for part in path.split("/")))


def at_revision(revision: str, paths: Sequence[str], into: str) -> RevisionFiles:
    """The schema files ``paths`` (files or folders) at ``revision``, written under ``into``."""
    _check_revision(revision)
    files = RevisionFiles()
    repos: Dict[str, _Repository] = {}
    for path in paths:
        top = _top_level(path)
        repo = repos.get(top)
        if repo is None:
            repo = repos[top] = _Repository(top, revision, len(repos))
        rel = os.path.relpath(os.path.realpath(os.path.abspath(path)), top).replace(os.sep, "/")
        if rel != "." and not _safe_relative(rel):
            raise UsageError(f"{path}: outside the git work tree {top}")
        entries = repo.entries(rel if rel != "." else ".")
        is_folder = os.path.isdir(path) or any(e[1] == "tree" and e[4] == rel for e in entries)
        if is_folder:
            listed = repo.entries(f"{rel}/" if rel != "." else ".")
            old = [e for e in listed if e[1] == "blob" and _is_schema(e[4])]
            new = schema_files(path) if os.path.isdir(path) else []
            if not old and not new:
                raise UsageError(f"{path}: no schema files in the folder, now or at {revision}")
        else:
            old = [e for e in entries if e[4] == rel]
            new = [path] if os.path.exists(path) else []
            if not old and not new:
                raise UsageError(f"{path}: no such file, now or at {revision}")
            if not old:
                files.notes.append(f"{path}: not at {revision} (a new file)")
            if not new:
                files.notes.append(f"{path}: deleted since {revision}")
        files.new.extend(new)
        for mode, kind, obj, size, rel_path in old:
            files.old.append(_write_blob(repo, revision, mode, kind, obj, size, rel_path, into,
                                         files.display))
    files.old = list(dict.fromkeys(files.old))
    files.new = list(dict.fromkeys(files.new))
    return files


def _write_blob(repo: _Repository, revision: str, mode: str, kind: str, obj: str, size: str,
                rel_path: str, into: str, display: Dict[str, str]) -> str:
    shown = f"{revision}:{rel_path}"
    if kind != "blob" or mode not in ("100644", "100755"):
        what = "a symbolic link" if mode == "120000" else f"not a regular file ({kind})"
        raise UsageError(f"{shown}: {what} at {revision}; name the schema file itself")
    if not _safe_relative(rel_path) or not all(c in "0123456789abcdef" for c in obj):
        raise UsageError(f"{shown}: unexpected path or object id from git")
    if size.isdigit() and int(size) > MAX_BLOB_BYTES:
        raise UsageError(f"{shown}: {int(size)} bytes, more than the {MAX_BLOB_BYTES} a schema "
                         f"file may have")
    target = os.path.join(into, str(repo.index), *rel_path.split("/"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(repo.blob(obj))
    display[target] = shown
    return target
