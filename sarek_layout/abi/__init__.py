"""ABI stage: is a schema change breaking for code and data built on the old layout?

``diff_schemas(old, new)`` compares two laid-out schemas type by type from their member
models (``diff``), tagging every change with one of the rules of ``rules.RULES`` (breaking
or compatible); ``report`` prints it for people or as JSON; ``sources`` reads OLD from
files, folders or a git revision. ``sarek-layout diff`` is this package on the command line.
"""

from __future__ import annotations

from .diff import Change, DiffReport, diff_schemas
from .rules import BREAKING, COMPATIBLE, RULES, Rule

__all__ = ["diff_schemas", "Change", "DiffReport", "RULES", "Rule", "BREAKING", "COMPATIBLE"]
