"""A compiler's own cache that outlives one ``verify`` run: a per-user private folder.

``verify`` compiles every time (no result is ever kept from one run to the next), but a
compiler may keep what it derives from its *own* installation: Zig's global cache holds the
parsed standard library (ZIR) and each target's ``builtin.zig``, which every
``zig build-obj`` of a cold cache rebuilds (about 0.45 s of CPU, the most of a zig run).
Zig checks those entries against its own files' metadata, so a stale entry is rebuilt, and
the probe and the headers are never in it: they are compiled through the local cache, which
stays in the compile folder and goes with it.

Read back only from a folder no other user can write: ``private_cache`` answers ``None``
(and the caller falls back to a cold cache in the compile folder) unless the folder and
every folder above it is owned by this user or root and not writable by anyone else (a
sticky folder such as ``/tmp`` excepted above the user's own), and the folder itself is
this user's alone (mode 0700).
"""

from __future__ import annotations

import os
import stat
from typing import Optional

__all__ = ["private_cache", "cache_root"]


def cache_root() -> Optional[str]:
    """``$XDG_CACHE_HOME`` (when absolute, as the XDG spec requires), else ``~/.cache``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return base


def _trusted_above(path: str) -> bool:
    """Every folder from ``path`` up to ``/`` is owned by this user or root and writable by
    no one else (a sticky folder excepted: others may not rename what is ours in it)."""
    uid = os.geteuid()
    while True:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if st.st_uid not in (uid, 0):
            return False
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not st.st_mode & stat.S_ISVTX:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def _own_folder(path: str) -> bool:
    """``path`` is a real folder (not a link), this user's, with no access for others;
    created so when missing."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid()
            and not st.st_mode & 0o077)


def private_cache(name: str) -> Optional[str]:
    """``<cache root>/sarek-layout/<name>``, created mode 0700, or ``None`` when it cannot
    be made or cannot be trusted (module docstring)."""
    root = cache_root()
    if root is None:
        return None
    try:
        os.makedirs(root, 0o700, exist_ok=True)
        root = os.path.realpath(root)
    except OSError:
        return None
    if not _trusted_above(root):
        return None
    ours = os.path.join(root, "sarek-layout")
    folder = os.path.join(ours, name)
    if not (_own_folder(ours) and _own_folder(folder)):
        return None
    return folder
