"""Putting generated files on disk: write only what changed, atomically; check; diff; depfile.

A file whose content is unchanged is never touched, so its timestamp stays and Make rebuilds
nothing downstream. A changed file is written to a temporary file in the same folder and
renamed over the old one, so a reader (or an interrupted run) never sees half a header.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence

__all__ = [
    "Planned",
    "plan",
    "write_if_changed",
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


def _read(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (IsADirectoryError, UnicodeDecodeError):
        return ""  # present but not ours to compare: rewrite (the write reports real errors)


def plan(files: Iterable, out_dir: str) -> List[Planned]:
    """Compare each ``GeneratedFile`` with what ``out_dir`` holds; writes nothing."""
    planned = []
    for f in files:
        path = os.path.join(out_dir, f.filename)
        old = _read(path)
        status = "new" if old is None else ("unchanged" if old == f.text else "changed")
        planned.append(Planned(path, f.text, status, old, tuple(f.sources)))
    return planned


def write_if_changed(path: str, text: str) -> bool:
    """Write ``text`` to ``path`` unless it already holds exactly that; True when written."""
    if _read(path) == text:
        return False
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        # mkstemp creates the file 0600; give it the mode a plain open() would have.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return True


def unified_diff(p: Planned) -> str:
    """A unified diff from what is on disk to what would be written (empty when unchanged)."""
    old = (p.old_text or "").splitlines(keepends=True)
    new = p.text.splitlines(keepends=True)
    label_old = p.path if p.old_text is not None else "/dev/null"
    return "".join(difflib.unified_diff(old, new, label_old, p.path))


def _make_escape(path: str) -> str:
    """A path as a Make word: spaces, '#' and ':' backslashed, '$' doubled.

    Make has no escape for a newline or another control character: such a path is refused
    (``UsageError``) rather than written into a rule it would break.
    """
    if not path.isprintable():
        from ..errors import UsageError

        raise UsageError(
            f"cannot write a Make dependency file naming {ascii(path)}: Make cannot express a "
            f"path with a newline or another control character; rename it or drop --depfile"
        )
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ").replace(":", "\\:")


def depfile_text(planned: Sequence[Planned]) -> str:
    """Make rules ``OUTPUT: SCHEMA...`` (one per output), plus an empty rule per schema.

    The empty rules are what ``gcc -MP`` adds: deleting or renaming a schema file then makes
    Make rerun the generator instead of stopping with "No rule to make target".
    """
    # Rules by schema file (outputs of one schema keep their target order), then the schemas
    # sorted: the text must not depend on the command-line order of the schema files.
    lines = []
    schemas = set()
    for p in sorted(planned, key=lambda p: p.sources[:1]):
        lines.append(f"{_make_escape(p.path)}: {' '.join(_make_escape(s) for s in p.sources)}")
        schemas.update(p.sources)
    lines.append("")
    lines.extend(f"{_make_escape(s)}:" for s in sorted(schemas))
    return "\n".join(lines) + "\n"
