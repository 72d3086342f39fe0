"""View data of the ``metal`` target: the C-family view with the names MSL reserves escaped.

Metal is a C++ dialect with unions, so its header is the C-family one (the shared macros of
``templates/_macros.j2``, dialect ``METAL``) and its view is ``views.module_view``'s, with
every schema name that MSL reserves (``device``, ``kernel``…) escaped with a trailing ``_`` in
this target only. A type whose names all stay is handed on as it is, not copied; escaped type
names are claimed once per schema (``shader_views.FileNames``), so two that become alike are
refused with the schema location.
"""

from __future__ import annotations

import dataclasses
from typing import Dict

from ..errors import SchemaError
from ..ir.schema import ModuleDecl, Schema
from ..targets.dialects import METAL, Dialect
from ..targets.naming import memo_escape
from .shader_views import FileNames, per_schema
from .views import ModuleView, module_view

__all__ = ["metal_view"]


def _renamed(view: ModuleView, dialect: Dialect, esc=None) -> ModuleView:
    """``view`` with every name escaped for ``dialect``. Most names are not reserved, so a
    record whose names all stay is kept as it is (not copied), and each distinct name and
    member path is escaped once."""
    esc = esc or memo_escape(dialect)
    paths: Dict[str, str] = {}
    replace = dataclasses.replace

    def path(p: str) -> str:
        out = paths.get(p)
        if out is None:
            out = paths[p] = ".".join(esc(part) for part in p.split("."))
        return out

    def same(new: tuple, old: tuple) -> tuple:
        """``old`` when every element of ``new`` is the element of ``old``."""
        return old if all(a is b for a, b in zip(new, old)) else new

    def member(m):
        if m.kind == "padding":
            return m
        name = esc(m.name)
        type_ = esc(m.type) if m.kind == "record" else m.type
        if name == m.name and type_ == m.type:
            return m
        # A named tuple (views.Member): its own _replace.
        return m._replace(name=name, type=type_)

    def members(ms: tuple) -> tuple:
        return same(tuple(member(m) for m in ms), ms)

    def assign(a):
        target, source = path(a.target), path(a.source)
        if target == a.target and source == a.source:
            return a
        return replace(a, target=target, source=source)

    def assigns(xs: tuple) -> tuple:
        return same(tuple(assign(a) for a in xs), xs)

    def check(c, c_name: str):
        m = path(c.member)
        label = f"{c_name}::{m}" if c.member else c_name
        if m == c.member and label == c.label:
            return c
        return c._replace(member=m, label=label)  # a named tuple (views.Check)

    def param(p):
        if p.kind != "record":
            return p
        type_ = esc(p.type)
        return p if type_ == p.type else replace(p, type=type_)

    def ctor(c):
        enum_name = esc(c.enum_name)
        arm = esc(c.arm) if c.arm else ""
        ms = members(c.members)
        single = member(c.single) if c.single is not None else None
        params = same(tuple(param(p) for p in c.params), c.params)
        xs = assigns(c.assigns)
        if (enum_name == c.enum_name and arm == c.arm and ms is c.members
                and single is c.single and params is c.params and xs is c.assigns):
            return c
        return replace(c, enum_name=enum_name, arm=arm, members=ms, single=single,
                       params=params, assigns=xs)

    def copy(c):
        c_name = esc(c.c_name)
        xs = assigns(c.assigns)
        if c_name == c.c_name and xs is c.assigns:
            return c
        return replace(c, c_name=c_name, assigns=xs)

    def type_(t):
        c_name = esc(t.c_name)
        ms = members(t.members)
        checks = same(tuple(check(c, c_name) for c in t.checks), t.checks)
        ctors = same(tuple(ctor(c) for c in t.ctors), t.ctors)
        copies = same(tuple(copy(c) for c in t.copies), t.copies)
        if (c_name == t.c_name and ms is t.members and checks is t.checks
                and ctors is t.ctors and copies is t.copies):
            return t
        return replace(t, c_name=c_name, members=ms, checks=checks, ctors=ctors, copies=copies)

    types = same(tuple(type_(t) for t in view.types), view.types)
    return view if types is view.types else replace(view, types=types)


def _claim_metal_names(schema: Schema, esc) -> None:
    """Escaped type names must still be unique: claim every file-scope name of the schema.
    Once per schema, not once per module (that was types x modules for many files)."""
    def claim() -> bool:
        names = FileNames("metal")
        for st in schema.types:
            names.claim(esc(st.c_name), f"type {st.qualified_name!r}", st.decl.location)
        return True

    per_schema(schema, "metal type names", claim)


def metal_view(schema: Schema, module: ModuleDecl) -> ModuleView:
    """``module_view`` with the names Metal reserves escaped (members, arms, types)."""
    view = module_view(schema, module).held()  # read twice below
    esc = memo_escape(METAL)
    _claim_metal_names(schema, esc)
    for t in view.types:
        seen: Dict[str, str] = {}
        for m in t.members:
            name = esc(m.name)
            if name in seen and m.kind != "padding":
                raise SchemaError(
                    f"in the metal output, member {m.name!r} of type {t.qualified_name!r} is "
                    f"escaped to {name!r}, which the type already has; rename one of them",
                    schema.by_c_name(t.c_name).decl.location)
            seen[name] = m.name
    return _renamed(view, METAL, esc)
