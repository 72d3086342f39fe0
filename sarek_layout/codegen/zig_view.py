"""The view of the ``zig`` target: the C-family view, plus what a Zig file needs besides.

A Zig module is the C header's structs as ``extern struct``/``extern union`` with the same
member names, so the layout decisions (padding runs, pinned 8-byte members, arms, checks,
record copies) are ``views.module_view``'s, unchanged. Zig adds two things: every name is
spelt as Zig reads it (``@"type"`` for a keyword or primitive: ``targets.naming.escape``),
and a type of another schema file is reached through ``@import`` of that file's module
rather than an ``#include``, one alias per type used (``imports``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Tuple

from ..ir.schema import ModuleDecl, Schema
from ..targets.dialects import ZIG
from ..targets.naming import escape
from .views import ModuleView, module_view

__all__ = ["ZigImport", "ZigModuleView", "zig_view", "zig_name"]


def zig_name(name: str) -> str:
    """``name`` as the Zig module spells it: unchanged, or ``@"name"``."""
    return escape(name, ZIG)


@dataclass(frozen=True)
class ZigImport:
    """The types one other module's file gives this one: ``const T = @import("f.zig").T;``."""

    filename: str
    c_names: Tuple[str, ...]


@dataclass(frozen=True)
class ZigModuleView:
    """``module_view``'s view (``base``) and this file's imports."""

    base: ModuleView
    imports: Tuple[ZigImport, ...]

    def __getattr__(self, name: str):
        # The template reads the module view's fields (tool, types…) through this one.
        if name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)

    @staticmethod
    def ident(name: str) -> str:
        return zig_name(name)


def _record_names(view: ModuleView) -> List[str]:
    """Every record C name the file's declarations and helpers mention, first use first."""
    names: Dict[str, None] = {}
    for t in view.types:
        members = list(t.members)
        for c in t.ctors:
            members.extend(c.members)
            if c.single is not None:
                members.append(c.single)
        names.update((m.type, None) for m in members if m.kind == "record")
        names.update((c.c_name, None) for c in t.copies)
    return list(names)


def zig_view(schema: Schema, module: ModuleDecl,
             filename_of: Callable[[ModuleDecl], str]) -> ZigModuleView:
    """The Zig module of ``module``: its types, and aliases of the other modules' types."""
    view = module_view(schema, module).held()  # read here and by the template
    own = {t.c_name for t in view.types}
    by_file: Dict[str, List[str]] = {}
    for c_name in _record_names(view):
        if c_name not in own:
            source = schema.by_c_name(c_name).source
            by_file.setdefault(filename_of(source), []).append(c_name)
    imports = tuple(ZigImport(f, tuple(names)) for f, names in by_file.items())
    return ZigModuleView(view, imports)
