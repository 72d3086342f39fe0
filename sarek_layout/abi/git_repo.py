"""git, run in a repository that may be hostile: ``diff --against`` reads a revision with it.

A repository's configuration (a pull request's checkout, a downloaded project) can name
programs that git runs. git's own answer to untrusted repositories, ``safe.directory``, only
refuses those of another owner (and is kept); so every command here runs with the settings
of ``_GIT_CONFIG`` on its command line and ``git_env`` as its environment, which win over the
repository's: no fsmonitor, hook or transport (so no lazy fetch of a partial clone's missing
objects, whose ``uploadpack`` is a program), no index read, no embedded bare repository.
Only plumbing runs (``rev-parse``, ``ls-tree``, ``cat-file`` by object id), which applies no
filter, text conversion or pager. File names are bytes (``surrogateescape``).
"""

from __future__ import annotations

import os
import stat
import subprocess
from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

from ..errors import UsageError

__all__ = ["MAX_BLOB_BYTES", "Repository", "git_env", "shown_path", "top_level"]

#: Largest schema file read from git (a schema is kilobytes; this only stops a huge blob).
MAX_BLOB_BYTES = 64 * 1024 * 1024

#: ``git -c`` settings that win over the repository's own configuration. The index is never
#: read (``GIT_INDEX_FILE`` names no file), so ``core.fsmonitor`` has nothing to run for, and
#: is switched off too; no hook; no transport (``GIT_ALLOW_PROTOCOL`` below also overrides a
#: repository's ``protocol.<name>.allow``), so nothing is fetched and no ``uploadpack``,
#: ``sshCommand`` or remote helper runs; a bare repository is used only when named.
_GIT_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "protocol.allow=never",
    "safe.bareRepository=explicit",
    "core.untrackedCache=false",
)


def git_env(scratch: str) -> Dict[str, str]:
    """The environment of every git command (see ``_GIT_CONFIG``); ``scratch`` is a folder
    of ours, where the index file git is pointed at does not exist."""
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", LC_ALL="C", GIT_ALLOW_PROTOCOL="",
               GIT_NO_LAZY_FETCH="1", GIT_OPTIONAL_LOCKS="0", GIT_PAGER="cat",
               GIT_INDEX_FILE=os.path.join(os.path.abspath(scratch), "no-index"))
    for name in ("GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_PROXY_COMMAND",
                 "GIT_ASKPASS"):
        env.pop(name, None)
    return env


def _git(args: Sequence[Union[str, bytes]], cwd: str,
         env: Dict[str, str]) -> subprocess.CompletedProcess:
    """``git ARGS`` in ``cwd`` (a path may be bytes: names need not be UTF-8); output in
    bytes."""
    options = [a for setting in _GIT_CONFIG for a in ("-c", setting)]
    try:
        return subprocess.run(["git", *options, "--literal-pathspecs", "--no-pager", "-C", cwd,
                               *args], capture_output=True, env=env, timeout=300,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise UsageError("--against needs git, and git is not on PATH") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"git {os.fsdecode(args[0])} did not answer within 300 s in "
                         f"{shown_path(cwd)}") from None
    except OSError as e:
        raise UsageError(f"cannot run git in {shown_path(cwd)} ({e.strerror})") from None


def shown_path(path: str) -> str:
    """``path`` for a message of one line: bytes that are not UTF-8 and control characters
    escaped (a name read from git or the disk may hold either)."""
    return path if path.isprintable() else ascii(path)[1:-1]


def first_line(stderr) -> str:
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # git may warn first (``lazy fetching disabled``): the error is the line that says so.
    errors = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
    return shown_path((errors or lines)[0]) if lines else "no message"


class Repository:
    """One git work tree and the commit the revision names in it."""

    def __init__(self, top: str, revision: str, index: int, env: Dict[str, str]) -> None:
        self.top = top
        self.index = index
        self.env = env
        self._tree: Optional[Dict[str, Tuple[str, str]]] = None
        self._head: Optional[Set[str]] = None
        self._links: Tuple[str, ...] = ()
        proc = _git(["rev-parse", "--verify", "--quiet", "--end-of-options",
                     os.fsencode(f"{revision}^{{commit}}")], top, env)
        commit = os.fsdecode(proc.stdout).strip()
        if proc.returncode != 0 or not commit or not all(c in "0123456789abcdef" for c in commit):
            raise UsageError(f"unknown revision {revision!r} in the git repository "
                             f"{shown_path(top)}{self._shallow_note()}")
        self.commit = commit

    def _shallow_note(self) -> str:
        """What to add to "unknown revision" in a shallow clone (CI checks out one commit by
        default, so ``HEAD~1`` is not there), else nothing."""
        proc = _git(["rev-parse", "--is-shallow-repository"], self.top, self.env)
        if proc.returncode != 0 or proc.stdout.strip() != b"true":
            return ""
        return (", a shallow clone (only part of its history is here): fetch the rest with "
                "`git fetch --unshallow` (in GitHub Actions, give actions/checkout "
                "`fetch-depth: 0`)")

    def entries(self, rel: str, recursive: bool = False) -> List[Tuple[str, str, str, str]]:
        """``ls-tree`` of ``rel`` at the commit: (mode, type, object, path) each. Not ``-l``:
        sizes need the objects themselves, which a partial clone may lack (``size``)."""
        args = ["ls-tree", "-z"] + (["-r", "--full-tree"] if recursive else [])
        proc = _git(args + [self.commit, "--", os.fsencode(rel)], self.top, self.env)
        if proc.returncode != 0:
            raise UsageError(f"git ls-tree failed in {shown_path(self.top)}: "
                             f"{first_line(proc.stderr)}")
        out = []
        for record in proc.stdout.split(b"\0"):
            if not record:
                continue
            head, _, path = record.partition(b"\t")
            parts = head.decode("ascii", "replace").split()
            if len(parts) == 3:
                out.append((parts[0], parts[1], parts[2], os.fsdecode(path)))
        return out

    def tree(self) -> Dict[str, Tuple[str, str]]:
        """Every file of the commit: path -> (mode, object); read once."""
        if self._tree is None:
            listed = self.entries(".", recursive=True)
            self._tree = {e[3]: (e[0], e[2]) for e in listed if e[1] == "blob"}
            self._links = tuple(e[3] + "/" for e in listed if e[1] == "commit")
        return self._tree

    def untracked(self, rel: str, limit: int) -> Optional[bytes]:
        """The work tree's regular file at ``rel`` when git tracks it neither at the commit
        nor at HEAD, nor in a submodule (a header the build generates, such as a config.h
        in a build folder): the revision has no version of it. None otherwise."""
        if rel in self.tree() or rel.startswith(self._links):
            return None
        if self._head is None:
            proc = _git(["ls-tree", "-z", "-r", "--full-tree", "--name-only", "HEAD"], self.top,
                        self.env)
            self._head = {os.fsdecode(p) for p in proc.stdout.split(b"\0") if p} \
                if proc.returncode == 0 else set()
        if rel in self._head:
            return None
        path = os.path.join(self.top, *rel.split("/"))
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None  # a FIFO or device: never waited on
            data = f.read(limit + 1)
        if len(data) > limit:
            raise UsageError(f"{shown_path(path)}: more than {limit} bytes")
        return data

    def _missing(self, obj: str, shown: str, proc) -> UsageError:
        return UsageError(f"{shown}: git cannot read the object {obj} in "
                          f"{shown_path(self.top)} ({first_line(proc.stderr)}); diff "
                          f"--against reads only objects the repository holds and never "
                          f"fetches (in a partial clone, fetch the revision first)")

    def blob(self, obj: str, shown: str, limit: int = MAX_BLOB_BYTES) -> bytes:
        """The blob ``obj``, ``UsageError`` when it is missing or larger than ``limit``."""
        proc = _git(["cat-file", "-s", obj], self.top, self.env)
        size = proc.stdout.strip()
        if proc.returncode != 0 or not size.isdigit():
            raise self._missing(obj, shown, proc)
        if int(size) > limit:
            raise UsageError(f"{shown}: {int(size)} bytes, more than the {limit} a file read "
                             f"from git may have")
        proc = _git(["cat-file", "blob", obj], self.top, self.env)
        if proc.returncode != 0:
            raise self._missing(obj, shown, proc)
        return proc.stdout


def top_level(path: str, env: Dict[str, str]) -> str:
    folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{shown_path(path)}: no such file or folder")
    proc = _git(["rev-parse", "--show-toplevel"], folder, env)
    if proc.returncode != 0:
        raise UsageError(f"{shown_path(path)}: --against needs a git work tree, and "
                         f"{shown_path(folder)} is not in one ({first_line(proc.stderr)})")
    return os.path.realpath(os.fsdecode(proc.stdout.rstrip(b"\n")))
