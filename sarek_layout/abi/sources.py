"""Where ``diff`` reads OLD and NEW from: schema files, folders of them, or a git revision.

``schema_files(path)`` is a file, or the schema files (by suffix) directly inside a folder.
``at_revision(rev, paths, into)`` writes each schema file as it was at a git revision into a
temporary folder, under the same path relative to its repository, so module names (taken
from file stems) and relative includes are the same as in the work tree.

The C headers among them are read as the revision has them, includes too: every file a
header's ``#include`` (or ``__has_include``) can name, in its own folder or in a ``-I``
folder inside the repository, is written from the revision beside it, and those ``-I``
folders are replaced by their copies (``RevisionFiles.include_dirs``); a ``-I`` folder
outside the repository is read as it is now.

Revisions and paths come from users and are hostile input: git runs as a list argv (never a
shell), a revision may not start with ``-`` (it would become an option) and is resolved
once to a commit id with ``--end-of-options``; paths are passed after ``--`` with
``--literal-pathspecs`` (no pathspec magic), and every blob is read by its object id.

The repository is hostile too: git runs as ``git_repo`` says, so that nothing its
configuration names can run.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..errors import UsageError
from ..frontends import READERS, is_header
from .git_repo import MAX_BLOB_BYTES, Repository, git_env, shown_path, top_level

__all__ = ["SCHEMA_SUFFIXES", "schema_files", "RevisionFiles", "at_revision", "MAX_BLOB_BYTES"]

#: Suffixes of schema files, for folders: those the front ends have a reader for.
SCHEMA_SUFFIXES = tuple(READERS)

#: Longest revision accepted (branch names, ``HEAD~3``, ``origin/main@{1}``, object ids).
MAX_REVISION_CHARS = 256

#: Most files, and bytes, a revision's C headers may include (a header includes tens).
MAX_INCLUDED_FILES = 10_000
MAX_INCLUDED_BYTES = 256 << 20


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
    #: Each copy in ``old`` -> the work-tree path it stands for (its repository's top
    #: joined with its path there): ``--c-module`` options name those.
    originals: Dict[str, str] = field(default_factory=dict)
    #: The ``-I`` folders for OLD: each one inside a repository replaced by its copy.
    include_dirs: List[str] = field(default_factory=list)


def _check_revision(revision: str) -> None:
    # Spaces are fine (HEAD@{2 days ago}): git gets a list argv, never a shell. A leading
    # '-' would make it an option, and control characters have no place in a revision.
    if (not revision or revision.startswith("-") or len(revision) > MAX_REVISION_CHARS
            or not revision.isprintable()):
        raise UsageError(f"not a git revision: {revision[:MAX_REVISION_CHARS]!r} (a branch, tag, "
                         f"commit id or expression such as HEAD~1, not starting with '-')")


def _safe_relative(path: str) -> bool:
    return not (os.path.isabs(path) or path.startswith("..") or "\0" in path
                or any(part in ("", ".", "..") for part in path.split("/")))


def _inside(path: str, top: str) -> Optional[str]:
    """``path`` (real) relative to ``top`` with ``/``, or None when it is outside."""
    if path == top:
        return "."
    if path.startswith(top.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, top).replace(os.sep, "/")
    return None


def at_revision(revision: str, paths: Sequence[str], into: str,
                include_dirs: Sequence[str] = ()) -> RevisionFiles:
    """The schema files ``paths`` (files or folders) at ``revision``, written under ``into``,
    with what their C headers include there; ``include_dirs`` are the ``-I`` folders."""
    _check_revision(revision)
    into = os.path.abspath(into)
    env = git_env(into)
    files = RevisionFiles()
    repos: Dict[str, Repository] = {}
    for path in paths:
        top = top_level(path, env)
        repo = repos.get(top)
        if repo is None:
            repo = repos[top] = Repository(top, revision, len(repos), env)
        rel = os.path.relpath(os.path.realpath(os.path.abspath(path)), top).replace(os.sep, "/")
        if rel != "." and not _safe_relative(rel):
            raise UsageError(f"{shown_path(path)}: outside the git work tree {shown_path(top)}")
        old, new = _schema_entries(repo, revision, path, rel, files.notes)
        files.new.extend(new)
        for mode, kind, obj, rel_path in old:
            copy = _write_blob(repo, revision, mode, kind, obj, rel_path, into, files.display)
            files.old.append(copy)
            files.originals[copy] = os.path.join(top, *rel_path.split("/"))
    files.old = list(dict.fromkeys(files.old))
    files.new = list(dict.fromkeys(files.new))
    files.include_dirs = _revision_include_dirs(include_dirs, repos, into)
    headers = [c for c in files.old if is_header(c)]
    if headers:
        _write_included(revision, headers, files.include_dirs, repos, into, files)
    return files


def _schema_entries(repo: Repository, revision: str, path: str, rel: str, notes: List[str]
                    ) -> Tuple[List[Tuple[str, str, str, str]], List[str]]:
    """What ``path`` (``rel`` in ``repo``) names on each side: its ``ls-tree`` entries at
    the revision (OLD) and its work-tree files (NEW), schema files only for a folder; a file
    only one side has gets a note."""
    entries = repo.entries(rel if rel != "." else ".")
    if os.path.isdir(path) or any(e[1] == "tree" and e[3] == rel for e in entries):
        listed = repo.entries(f"{rel}/" if rel != "." else ".")
        old = [e for e in listed if e[1] == "blob" and _is_schema(e[3])]
        new = schema_files(path) if os.path.isdir(path) else []
        if not old and not new:
            raise UsageError(f"{shown_path(path)}: no schema files in the folder, now or "
                             f"at {revision}")
        return old, new
    old = [e for e in entries if e[3] == rel]
    new = [path] if os.path.exists(path) else []
    if not old and not new:
        raise UsageError(f"{shown_path(path)}: no such file, now or at {revision}")
    if not old:
        notes.append(f"{shown_path(path)}: not at {revision} (a new file)")
    if not new:
        notes.append(f"{shown_path(path)}: deleted since {revision}")
    return old, new


def _copy_path(into: str, repo: Repository, rel_path: str) -> str:
    return os.path.join(into, str(repo.index), *rel_path.split("/"))


def _revision_include_dirs(include_dirs: Sequence[str], repos: Dict[str, Repository],
                           into: str) -> List[str]:
    """Each ``-I`` folder inside one of ``repos``, replaced by its place among the copies
    (made, so that it exists even when the revision has no such folder)."""
    mapped = []
    for d in include_dirs:
        real = os.path.realpath(os.path.abspath(d))
        for top, repo in repos.items():
            rel = _inside(real, top)
            if rel is not None:
                copy = os.path.join(into, str(repo.index)) if rel == "." else \
                    _copy_path(into, repo, rel)
                os.makedirs(copy, exist_ok=True)
                mapped.append(copy)
                break
        else:
            mapped.append(d)
    return mapped


#: ``#include "x"`` / ``<x>`` (and ``include_next``, ``import``), and ``__has_include``, which
#: opens the file too: whatever the conditionals around them (more files than cpp opens is
#: harmless, each is where a checkout of the revision would have it).
_INCLUDE = re.compile(
    rb"(?:^[ \t]*(?:#|%:)[ \t]*(?:include_next|include|import)[ \t]*"
    rb"|__has_include(?:_next)?[ \t]*\([ \t]*)"
    rb'(?:"([^"\n]*)"|<([^>\n]*)>)',
    re.M,
)


def _write_included(revision: str, headers: List[str], include_dirs: List[str],
                    repos: Dict[str, Repository], into: str, files: RevisionFiles) -> None:
    """Write from the revision every file the C ``headers`` (copies) can include, through
    their folders and ``include_dirs`` (as cpp searches them), and the files those include,
    so that no include of OLD reaches the work tree's version of a file. A file git does
    not track (generated by the build) is copied from the work tree, with a note."""
    # The folders searched for every include: the -I folders, then the folders of the
    # headers read (the C reader adds those).
    search = list(include_dirs) + list(dict.fromkeys(os.path.dirname(h) for h in headers))
    todo = list(headers)
    seen: Set[str] = set(todo)
    total = 0
    while todo:
        current = todo.pop()
        try:
            with open(current, "rb") as f:
                text = f.read(MAX_BLOB_BYTES + 1)
        except OSError:
            continue  # an -I file outside the repositories that cannot be read: cpp says so
        for m in _INCLUDE.finditer(text):
            quoted = m.group(1) is not None
            name = os.fsdecode(m.group(1) if quoted else m.group(2))
            if not name or os.path.isabs(name) or "\0" in name:
                continue
            folders = ([os.path.dirname(current)] if quoted else []) + search
            for folder in folders:
                candidate = os.path.normpath(os.path.join(folder, name))
                if candidate in seen:
                    continue
                copy = _from_revision(candidate, repos, into)
                if copy is not None:
                    repo, rel = copy
                    shown = f"{revision}:{shown_path(rel)}"
                    limit = min(MAX_BLOB_BYTES, MAX_INCLUDED_BYTES - total)
                    entry = _resolve(repo, rel, shown)
                    if entry is not None:
                        data = repo.blob(entry[1], shown, limit)
                    else:
                        found = repo.untracked(rel, limit)
                        if found is None:
                            continue
                        data = found
                        shown = shown_path(os.path.relpath(os.path.join(repo.top, rel)))
                        files.notes.append(f"{shown}: not in git; {revision}'s headers include "
                                           f"the work tree's file")
                    seen.add(candidate)
                    if len(seen) > MAX_INCLUDED_FILES:
                        raise UsageError(f"{revision}: its C headers include more than "
                                         f"{MAX_INCLUDED_FILES} files")
                    total += len(data)
                    os.makedirs(os.path.dirname(candidate), exist_ok=True)
                    with open(candidate, "wb") as f:
                        f.write(data)
                    files.display[candidate] = shown
                    todo.append(candidate)
                elif os.path.isfile(candidate) and len(seen) < MAX_INCLUDED_FILES:
                    # A file outside the repositories (an -I folder of the system): what it
                    # includes may still come from a folder of the revision.
                    seen.add(candidate)
                    todo.append(candidate)


def _from_revision(candidate: str, repos: Dict[str, Repository],
                   into: str) -> Optional[Tuple[Repository, str]]:
    """(repository, path there) when ``candidate`` is a place among the copies."""
    for repo in repos.values():
        rel = _inside(candidate, os.path.join(into, str(repo.index)))
        if rel is not None:
            return (repo, rel) if rel != "." and _safe_relative(rel) else None
    return None


def _resolve(repo: Repository, rel: str, shown: str) -> Optional[Tuple[str, str]]:
    """The regular file at ``rel`` in the commit, a relative symbolic link inside it
    followed (a few times); None when there is none (cpp then finds no file there)."""
    for _ in range(8):
        entry = repo.tree().get(rel)
        if entry is None or entry[0] in ("100644", "100755"):
            return entry
        if entry[0] != "120000":
            return None  # a submodule
        target = os.fsdecode(repo.blob(entry[1], shown))
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(rel), target))
        if target.startswith("/") or not _safe_relative(rel):
            return None
    return None


def _write_blob(repo: Repository, revision: str, mode: str, kind: str, obj: str,
                rel_path: str, into: str, display: Dict[str, str]) -> str:
    shown = f"{revision}:{shown_path(rel_path)}"
    if kind != "blob" or mode not in ("100644", "100755"):
        what = "a symbolic link" if mode == "120000" else f"not a regular file ({kind})"
        raise UsageError(f"{shown}: {what} at {revision}; name the schema file itself")
    if not _safe_relative(rel_path) or not all(c in "0123456789abcdef" for c in obj):
        raise UsageError(f"{shown}: unexpected path or object id from git")
    target = _copy_path(into, repo, rel_path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(repo.blob(obj, shown))
    display[target] = shown
    return target
