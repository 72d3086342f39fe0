"""The ``diff`` report: one line per change for people (and CI annotations), or JSON.

A line reads like a compiler diagnostic, so that editors and CI problem matchers pick it up::

    geometry.toml:12:5: breaking: Geometry.particle.mass: offset changed: 8 -> 16 [member-moved]

The place is the NEW declaration when there is one, else the OLD one (with ``--against``,
``REV:path``). After the changes, one line per changed type gives its verdict with its old and
new layout fingerprint (``type_lines``). ``display`` maps a schema file's path to the name
printed for it.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from ..ir.schema import SourceLocation
from .diff import Change, DiffReport
from .rules import BREAKING

__all__ = ["change_line", "report_lines", "type_lines", "summary_line", "report_json",
           "status_word"]

Display = Callable[[str], str]


def _identity(path: str) -> str:
    return path


def _place(location: Optional[SourceLocation], display: Display) -> str:
    if location is None:
        return ""
    file = display(location.file)
    file = file if file.isprintable() else ascii(file)[1:-1]
    if location.line <= 0:
        return f"{file}: "
    return f"{file}:{location.line}:{max(location.col, 1)}: "


def _values(c: Change) -> str:
    if c.old is not None and c.new is not None:
        return f": {c.old} -> {c.new}"
    if c.old is not None:
        return f" (was {c.old})"
    if c.new is not None:
        return f": {c.new}"
    return ""


def _severity(c: Change) -> str:
    if c.allowed:
        return "breaking (allowed)"
    return c.severity


def change_line(c: Change, display: Display = _identity) -> str:
    place = _place(c.location, display)
    return f"{place}{_severity(c)}: {c.subject}: {c.what}{_values(c)} [{c.rule}]"


def report_lines(report: DiffReport, display: Display = _identity) -> List[str]:
    """Breaking changes first (those left after ``--allow``), then allowed, then compatible,
    each group in schema order."""
    groups = (report.breaking, report.allowed, report.compatible)
    return [change_line(c, display) for group in groups for c in group]


def type_lines(report: DiffReport) -> List[str]:
    """One line per changed type: its verdict, then its old and new layout fingerprint
    (``-`` for a side without the type), ``Geometry.particle: breaking, layout_id
    0x8202fc4597979348 -> 0x3d3c0a1f2b4e9c77``."""
    return [f"{name}: {verdict}, layout_id {old or '-'} -> {new or '-'}"
            for name, verdict, old, new in report.changed_types()]


def status_word(report: DiffReport) -> str:
    if report.breaking:
        return "breaking"
    return "compatible" if report.changes else "identical"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def summary_line(report: DiffReport) -> str:
    parts = [_count(len(report.breaking), "breaking change")]
    if report.allowed:
        parts.append(f"{len(report.allowed)} allowed")
    parts.append(_count(len(report.compatible), "compatible change"))
    return (f"{status_word(report)}: {', '.join(parts)} "
            f"(OLD {_count(report.old_types, 'type')}, NEW {_count(report.new_types, 'type')})")


def _change_json(c: Change, display: Display) -> Dict[str, Any]:
    loc = c.location
    return {
        "rule": c.rule,
        "severity": c.severity,
        "breaking": c.severity == BREAKING,
        "allowed": c.allowed,
        "type": c.type_name,
        "where": c.where,
        "what": c.what,
        "old": c.old,
        "new": c.new,
        "location": None if loc is None else {
            "file": display(loc.file), "line": loc.line, "col": loc.col},
    }


def report_json(report: DiffReport, display: Display = _identity,
                notes: Optional[List[str]] = None) -> Dict[str, Any]:
    """The machine-readable report (documented in docs/diff.md)."""
    return {
        "status": status_word(report),
        "breaking": len(report.breaking),
        "allowed": len(report.allowed),
        "compatible": len(report.compatible),
        "old_types": report.old_types,
        "new_types": report.new_types,
        "notes": list(notes or []),
        "changes": [_change_json(c, display) for c in report.changes],
        "types": [{"type": name, "verdict": verdict, "old_layout_id": old,
                   "new_layout_id": new}
                  for name, verdict, old, new in report.changed_types()],
    }
