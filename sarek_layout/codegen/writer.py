"""Putting generated files on disk: write only what changed, atomically; check; diff.

A file whose content is unchanged is never touched, so its timestamp stays and Make rebuilds
nothing downstream. A changed file is written to a temporary file in the same folder and
renamed over the old one, so a reader (or an interrupted run) never sees half a header.

Old outputs are read back only through ``output_paths.read_existing``, which never opens a
FIFO or a device. Commands call ``output_paths.check_outputs`` before any of this.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple, Union

from ..errors import UsageError
from .depfile import depfile_text
from .output_paths import printable, read_existing

__all__ = [
    "Planned",
    "plan",
    "write_if_changed",
    "write_files",
    "unified_diff",
    "depfile_text",
]


@dataclass(frozen=True)
class Planned:
    """One output file and what writing it would do: ``new``, ``changed`` or ``unchanged``."""

    path: str
    text: str
    status: str
    old_text: Optional[str]
    sources: tuple

    @property
    def stale(self) -> bool:
        return self.status != "unchanged"


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
        status = "new" if old is None else ("unchanged" if old == f.text else "changed")
        planned.append(Planned(path, f.text, status, old, tuple(f.sources)))
    return planned


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _replace(path: str, data: bytes, mode: int) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path``."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)  # mkstemp creates 0600; give it the mode a plain open() would
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


Content = Union[str, bytes]


def write_files(files: Sequence[Tuple[str, Content]]) -> List[bool]:
    """Write each ``(path, content)`` whose file does not already hold exactly that content;
    returns, per file, whether it was written. Text is written as UTF-8.

    A file that cannot be written raises ``UsageError`` naming it; the files written before
    it stay complete, and it keeps its old content.
    """
    mode = 0o666 & ~_umask()
    written = []
    for path, content in files:
        data = content.encode("utf-8") if isinstance(content, str) else content
        if read_existing(path) == data:
            written.append(False)
            continue
        try:
            _replace(path, data, mode)
        except OSError as e:
            raise UsageError(f"cannot write {printable(path)}: {e.strerror or e}") from None
        written.append(True)
    return written


def write_if_changed(path: str, text: Content) -> bool:
    """Write ``text`` to ``path`` unless it already holds exactly that; True when written."""
    return write_files([(path, text)])[0]


def unified_diff(p: Planned) -> str:
    """A unified diff from what is on disk to what would be written (empty when unchanged)."""
    old = (p.old_text or "").splitlines(keepends=True)
    new = p.text.splitlines(keepends=True)
    label = printable(p.path)
    label_old = label if p.old_text is not None else "/dev/null"
    return "".join(difflib.unified_diff(old, new, label_old, label))
