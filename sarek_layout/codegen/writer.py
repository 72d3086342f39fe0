"""Putting generated files on disk: write only what changed, atomically and durably; check; diff.

A file whose content is unchanged is never touched, so its timestamp stays and Make rebuilds
nothing downstream. A changed file is written to a temporary file in the same folder
(``.<name>.<8 random characters>.tmp``), flushed to the disk (``fsync``), and renamed over
the old one (over the file a symbolic link names, never over the link); the folder is then
synced so that the rename itself survives a crash. A reader, an interrupted run or a power cut
therefore sees the old file or the new one, never half of one. A run killed between creating
and renaming its temporary file (``kill -9``, a cancelled CI job) leaves that file behind:
later runs writing the same output delete such leftovers of their own naming pattern once
they are an hour old (an in-flight one of a concurrent run is seconds old), and only regular
files owned by the user, never what a link points to.

Old outputs are read back only through ``output_paths.read_existing``, which never opens a
FIFO or a device. Commands call ``output_paths.check_outputs`` before any of this.
"""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ..errors import UsageError
from .depfile import depfile_text
from .output_paths import printable, read_existing

__all__ = [
    "Planned",
    "plan",
    "write_if_changed",
    "write_files",
    "remove_stale_temporaries",
    "unified_diff",
    "depfile_text",
    "STALE_TEMPORARY_SECONDS",
]

#: A leftover temporary file older than this is a killed run's, not a concurrent run's.
STALE_TEMPORARY_SECONDS = 3600

#: What ``tempfile.mkstemp`` puts between our prefix and suffix (its name alphabet, 8 long).
_RANDOM_PART = re.compile(r"\.[a-z0-9_]{8}\.tmp\Z")
_RANDOM_LENGTH = len(".12345678.tmp")


@dataclass(frozen=True)
class Planned:
    """One output file and what writing it would do: ``new``, ``changed`` or ``unchanged``.

    ``content`` is the new text in chunks (``GeneratedFile.chunks``), which ``write_files``
    takes as it is; ``text`` joins them."""

    path: str
    content: Tuple[str, ...]
    status: str
    old_text: Optional[str]
    sources: tuple

    @property
    def stale(self) -> bool:
        return self.status != "unchanged"

    @property
    def text(self) -> str:
        return "".join(self.content)


def _same_text(old: str, chunks: Sequence[str]) -> bool:
    """Whether ``old`` is exactly ``chunks`` joined, compared in place chunk by chunk."""
    at = 0
    for chunk in chunks:
        if not old.startswith(chunk, at):
            return False
        at += len(chunk)
    return at == len(old)


def _read_text(path: str) -> Optional[str]:
    data = read_existing(path)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return ""  # present but not ours to compare: it will be rewritten


def plan(files: Iterable, out_dir: str) -> List[Planned]:
    """Compare each ``GeneratedFile`` with what ``out_dir`` holds; writes nothing."""
    planned = []
    for f in files:
        path = os.path.join(out_dir, f.filename)
        old = _read_text(path)
        status = "new" if old is None else ("unchanged" if _same_text(old, f.chunks) else "changed")
        planned.append(Planned(path, f.chunks, status, old, tuple(f.sources)))
    return planned


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fsync_folder(folder: str) -> None:
    """Make the renames in ``folder`` durable (where the platform can sync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the data itself is synced already
    finally:
        os.close(fd)


#: Characters of a text encoded at a time: a 16 MB header is never copied whole into bytes
#: (that copy was the last step of ``generate``'s peak memory).
_CHUNK = 1 << 20


def _encoded(content: "Content") -> Iterator[bytes]:
    """``content`` as UTF-8, a chunk at a time (UTF-8 encodes each character on its own, so
    the chunks joined are exactly ``content.encode("utf-8")``)."""
    if isinstance(content, bytes):
        yield content
        return
    if isinstance(content, tuple):  # text in chunks already (``GeneratedFile.chunks``)
        for chunk in content:
            yield from _encoded(chunk)
        return
    for start in range(0, len(content), _CHUNK):
        yield content[start:start + _CHUNK].encode("utf-8")


def _holds(old: Optional[bytes], content: "Content") -> bool:
    """Whether the old bytes ``old`` are exactly ``content`` encoded, compared chunk by chunk."""
    if old is None:
        return False
    if isinstance(content, bytes):
        return old == content
    at = 0
    for chunk in _encoded(content):
        if not old.startswith(chunk, at):  # a memcmp in place (a memoryview compares per item)
            return False
        at += len(chunk)
    return at == len(old)


def _replace(path: str, content: "Content", mode: int) -> None:
    """Write ``content`` (text as UTF-8) to a synced temporary file beside ``path`` and
    rename it over ``path``."""
    import tempfile  # only when a file is written: a no-op run does not pay for it

    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in _encoded(content):
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())  # the bytes are on disk before the name points at them
        os.chmod(tmp, mode)  # mkstemp creates 0600; give it the mode a plain open() would
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


#: Text (written as UTF-8), bytes, or text in consecutive chunks (a tuple of strings).
Content = Union[str, bytes, Tuple[str, ...]]


def write_files(files: Sequence[Tuple[str, Content]], tidy: Iterable[str] = ()) -> List[bool]:
    """Write each ``(path, content)`` whose file does not already hold exactly that content;
    returns, per file, whether it was written. Text is written as UTF-8.

    First deletes the stale temporary files of ``tidy`` and of the written paths (see the
    module docs). Each written file is synced before its rename, each folder once after.
    A file that cannot be written raises ``UsageError`` naming it; the files written before
    it stay complete, and it keeps its old content.
    """
    # An output that is a symbolic link is written through: the file it points to gets the
    # new content, renamed over it in its own folder, and the link stays a link (renaming over
    # the link itself would turn it, /dev/stdout included, into a regular file).
    files = [(_through_links(path), content) for path, content in files]
    remove_stale_temporaries([p for p, _ in files] + [_through_links(p) for p in tidy])
    mode = 0o666 & ~_umask()
    written = []
    folders: Dict[str, None] = {}
    try:
        for path, content in files:
            if _holds(read_existing(path), content):
                written.append(False)
                continue
            try:
                _replace(path, content, mode)
            except OSError as e:
                raise UsageError(f"cannot write {printable(path)}: {e.strerror or e}") from None
            folders[os.path.dirname(path) or "."] = None
            written.append(True)
    finally:
        for folder in folders:
            _fsync_folder(folder)
    return written


def _through_links(path: str) -> str:
    """``path``, or the file it names when it is a symbolic link (``check_outputs`` has made
    sure that is a regular file)."""
    return os.path.realpath(path) if os.path.islink(path) else path


def write_if_changed(path: str, text: Content) -> bool:
    """Write ``text`` to ``path`` unless it already holds exactly that; True when written."""
    return write_files([(path, text)])[0]


def remove_stale_temporaries(paths: Iterable[str], now: Optional[float] = None) -> int:
    """Delete the temporary files a killed run left beside ``paths``; returns how many.

    Only names of our own pattern (``.<name>.<8 characters>.tmp`` for a ``name`` in
    ``paths``), only regular files (a link of that name is left alone, and nothing it points
    to is touched), only the user's own, and only those older than
    ``STALE_TEMPORARY_SECONDS``. One listing per folder.
    """
    by_folder: Dict[str, List[str]] = {}
    for path in paths:
        by_folder.setdefault(os.path.dirname(path) or ".", []).append(os.path.basename(path))
    now = time.time() if now is None else now
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    removed = 0
    for folder, names in by_folder.items():
        wanted = set(names)
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue  # a folder that does not exist yet holds no leftovers
        for entry in entries:
            if not _is_our_temporary(entry.name, wanted):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid):
                continue
            if now - st.st_mtime < STALE_TEMPORARY_SECONDS:
                continue  # possibly a concurrent run's, about to be renamed
            try:
                os.unlink(entry.path)  # unlink never follows a link
                removed += 1
            except FileNotFoundError:
                pass  # another run removed it first
    return removed


def _is_our_temporary(name: str, outputs: set) -> bool:
    """``name`` is ``.<output>.<8 characters>.tmp`` for one of ``outputs`` (set lookup)."""
    return (name.startswith(".") and len(name) > 1 + _RANDOM_LENGTH
            and _RANDOM_PART.match(name, len(name) - _RANDOM_LENGTH) is not None
            and name[1:-_RANDOM_LENGTH] in outputs)


def unified_diff(p: Planned) -> str:
    """A unified diff from what is on disk to what would be written (empty when unchanged)."""
    import difflib  # only --diff needs it

    old = (p.old_text or "").splitlines(keepends=True)
    new = p.text.splitlines(keepends=True)
    label = printable(p.path)
    label_old = label if p.old_text is not None else "/dev/null"
    return "".join(difflib.unified_diff(old, new, label_old, label))
