"""From a laid-out schema to the view data the header templates print.

Everything a template needs is decided here, as plain frozen records of names and numbers:
each struct's members *including* the explicit padding runs that leave no implicit padding
(named ``_sarek_pad<N>``, numbered per struct), which members carry the 8-byte alignment
specifier, the assignments of the ``make_`` helpers, and the list of compile-time checks.
No C text is assembled here: spelling is the templates' job, arithmetic the layout core's.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .._version import __version__
from ..ir.names import PADDING_PREFIX
from ..ir.schema import ModuleDecl, NamedType, Schema, SchemaType, TypeExpr, c_name_of
from ..ir.types import ElementType, Scalar, TInt32, TRecord
from ..layout.core import CtorLayout, RecordLayout, VariantLayout, member_size_align

__all__ = [
    "TOOL",
    "Member",
    "Param",
    "Assign",
    "Check",
    "Ctor",
    "TypeView",
    "ModuleView",
    "type_view",
    "module_view",
    "module_dependencies",
]

TOOL = "sarek-layout"

#: Members at least this aligned carry an explicit alignment specifier, so that ABIs where
#: 8-byte scalars are only 4-aligned inside structs (i386) agree with the rest.
_PINNED_ALIGN = 8


@dataclass(frozen=True)
class Member:
    """One member of a generated struct: a field, a constructor argument, the tag, or padding.

    ``kind`` is ``scalar`` (``type`` is the scalar's schema name), ``record`` (``type`` is the
    record's C name) or ``padding`` (``type`` is empty; ``size`` bytes). ``offset`` is from the
    start of the enclosing top-level element; ``align8`` asks for the alignment specifier.
    """

    name: str
    kind: str
    type: str
    offset: int
    size: int
    align8: bool = False


@dataclass(frozen=True)
class Param:
    """One parameter of a ``make_`` helper (``_0``, ``_1``…), typed like a ``Member``."""

    name: str
    kind: str
    type: str


@dataclass(frozen=True)
class Assign:
    """``value.<target> = <source>`` in a ``make_`` helper: one scalar leaf per line."""

    target: str
    source: str


@dataclass(frozen=True)
class Check:
    """One compile-time assertion: ``kind`` is ``size``, ``align`` or ``offset``.

    ``member`` is the member designator for ``offsetof`` (``data.Circle_v._0``), empty for
    size and alignment; ``label`` names it for people (``Geometry_shape::data.Circle_v._0``);
    ``ident`` is an identifier unique within the header, for targets whose assertions are
    typedefs (OpenCL C), built from the type and member so that the error names both.
    """

    kind: str
    member: str
    value: int
    label: str
    ident: str


@dataclass(frozen=True)
class Ctor:
    """One constructor of a variant: its enum constant, ``make_`` helper and union arm."""

    name: str
    tag: int
    enum_name: str
    make_name: str
    #: Name of the union arm (``<Ctor>_v``), empty for a constant constructor.
    arm: str
    #: The arm's members, arguments and padding, up to the end of the payload region.
    members: Tuple[Member, ...]
    params: Tuple[Param, ...]
    assigns: Tuple[Assign, ...]
    payload_size: int


@dataclass(frozen=True)
class TypeView:
    """One ``typedef struct``: a record, or a variant (tag, padding, ``data`` union)."""

    kind: str  # "record" | "variant"
    name: str
    qualified_name: str
    c_name: str
    size: int
    align: int
    #: Record: fields and padding. Variant: ``tag`` and the padding before ``data``.
    members: Tuple[Member, ...]
    checks: Tuple[Check, ...]
    payload_offset: int = 0
    #: Size of the ``data`` union (0 when every constructor is constant: no union).
    data_size: int = 0
    ctors: Tuple[Ctor, ...] = ()


@dataclass(frozen=True)
class ModuleView:
    """Everything one header of one schema file shows, before target-specific names."""

    tool: str
    version: str
    module: str
    #: Base name of the schema file (stable across machines, unlike the path given).
    source: str
    types: Tuple[TypeView, ...]
    #: The OpenCL header then needs fp64 (cl_khr_fp64).
    uses_float64: bool


# --- members and padding -----------------------------------------------------------------


class _Padder:
    """Numbers the padding runs of one struct: ``_sarek_pad0``, ``_sarek_pad1``…"""

    def __init__(self) -> None:
        self.count = 0

    def run(self, offset: int, size: int) -> Member:
        member = Member(f"{PADDING_PREFIX}pad{self.count}", "padding", "", offset, size)
        self.count += 1
        return member


def _with_padding(
    members: Sequence[Tuple[str, ElementType, str, int]], start: int, end: int
) -> Tuple[Member, ...]:
    """``(name, type, C name, offset)`` members of ``[start, end)``, every gap a padding run."""
    padder = _Padder()
    out: List[Member] = []
    cursor = start
    for name, t, c_name, offset in members:
        if offset > cursor:
            out.append(padder.run(cursor, offset - cursor))
        size, align = member_size_align(t)
        if isinstance(t, Scalar):
            out.append(Member(name, "scalar", t.name, offset, size, align >= _PINNED_ALIGN))
        else:
            assert isinstance(t, TRecord)
            out.append(Member(name, "record", c_name, offset, size, align >= _PINNED_ALIGN))
        cursor = offset + size
    if end > cursor:
        out.append(padder.run(cursor, end - cursor))
    return tuple(out)


def _c_type(st: SchemaType, t: ElementType, expr: TypeExpr) -> str:
    """The C name of a record-typed member, from its declaration (``""`` for a scalar).

    Taken from the declaration, not the elttype: two modules may declare structurally equal
    records of the same name, which compare equal as elttypes but are distinct C types.
    """
    if isinstance(t, Scalar):
        return ""
    assert isinstance(t, TRecord) and isinstance(expr, NamedType)
    return c_name_of(expr.module if expr.module is not None else st.module, expr.name)


def _arg_offset(ctor: CtorLayout, index: int, t: ElementType) -> int:
    """Offset of argument ``_<index>``, read off the layout core's leaves (never recomputed).

    A record argument starts where its first leaf does: a record's first field is at 0.
    """
    path = f"{ctor.name}._{index}"
    for leaf in ctor.leaves:
        if leaf.path == path or leaf.path.startswith(path + "."):
            return leaf.offset
    raise AssertionError(f"no leaf for {path} in the layout of {ctor.name}")  # pragma: no cover


# --- checks ------------------------------------------------------------------------------

_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]")


class _Checks:
    """Collects one type's checks, giving each a header-unique identifier."""

    def __init__(self, c_name: str, used_idents: set) -> None:
        self.c_name = c_name
        self.used = used_idents
        self.items: List[Check] = []

    def _ident(self, what: str) -> str:
        base = f"sarek_layout_check_{self.c_name}__{_NOT_IDENT.sub('_', what.replace('.', '__'))}"
        ident, n = base, 1
        while ident in self.used:
            ident, n = f"{base}_{n}", n + 1
        self.used.add(ident)
        return ident

    def size(self, value: int) -> None:
        self.items.append(Check("size", "", value, self.c_name, self._ident("size")))

    def align(self, value: int) -> None:
        self.items.append(Check("align", "", value, self.c_name, self._ident("align")))

    def offset(self, member: str, value: int) -> None:
        label = f"{self.c_name}::{member}"
        self.items.append(Check("offset", member, value, label, self._ident(member + "_offset")))


# --- types -------------------------------------------------------------------------------


def _record_view(st: SchemaType, used: set) -> TypeView:
    layout = st.layout
    assert isinstance(layout, RecordLayout) and isinstance(st.elttype, TRecord)
    members = [
        (name, t, _c_type(st, t, decl.type), offset)
        for (name, offset), (_, t), decl in zip(
            layout.fields, st.elttype.fields, st.decl.fields  # type: ignore[union-attr]
        )
    ]
    checks = _Checks(st.c_name, used)
    checks.size(layout.size)
    checks.align(layout.align)
    for name, _, _, offset in members:
        checks.offset(name, offset)
    return TypeView(
        kind="record",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        size=layout.size,
        align=layout.align,
        members=_with_padding(members, 0, layout.size),
        checks=tuple(checks.items),
    )


def _variant_view(st: SchemaType, used: set) -> TypeView:
    layout = st.layout
    assert isinstance(layout, VariantLayout)
    p = layout.payload_offset
    has_data = any(args for _, args in st.elttype.ctors)  # type: ignore[union-attr]
    data_size = layout.size - p if has_data else 0
    head_end = p if has_data else layout.size
    head = _with_padding([("tag", TInt32, "", layout.tag_offset)], 0, head_end)

    checks = _Checks(st.c_name, used)
    checks.size(layout.size)
    checks.align(layout.align)
    checks.offset("tag", layout.tag_offset)
    if has_data:
        checks.offset("data", p)

    ctors = []
    ctor_decls = st.decl.ctors  # type: ignore[union-attr]
    for ctor, (_, args), ctor_decl in zip(layout.ctors, st.elttype.ctors, ctor_decls):  # type: ignore[union-attr]
        arm = f"{ctor.name}_v" if args else ""
        # Argument offsets come from the layout core's leaves, never recomputed here.
        placed = []
        for i, (t, expr) in enumerate(zip(args, ctor_decl.args)):
            placed.append((f"_{i}", t, _c_type(st, t, expr), _arg_offset(ctor, i, t)))
        members = _with_padding(placed, p, p + data_size) if args else ()
        if args:
            checks.offset(f"data.{arm}", p)
            for name, _, _, off in placed:
                checks.offset(f"data.{arm}.{name}", off)
        prefix = f"{ctor.name}."
        assigns = tuple(
            Assign(f"data.{arm}.{leaf.path[len(prefix):]}", leaf.path[len(prefix):])
            for leaf in ctor.leaves
        )
        ctors.append(
            Ctor(
                name=ctor.name,
                tag=ctor.tag,
                enum_name=f"{st.c_name}_{ctor.name}",
                make_name=f"make_{st.c_name}_{ctor.name}",
                arm=arm,
                members=members,
                params=tuple(
                    Param(name, "record", c_name) if c_name else Param(name, "scalar", t.name)
                    for name, t, c_name, _ in placed
                ),
                assigns=assigns,
                payload_size=ctor.payload_size,
            )
        )
    return TypeView(
        kind="variant",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        size=layout.size,
        align=layout.align,
        members=head,
        checks=tuple(checks.items),
        payload_offset=p,
        data_size=data_size,
        ctors=tuple(ctors),
    )



def type_view(st: SchemaType, used_idents: Optional[set] = None) -> TypeView:
    """The view of one resolved type (``used_idents`` keeps check identifiers unique)."""
    used = set() if used_idents is None else used_idents
    if st.kind == "record":
        return _record_view(st, used)
    return _variant_view(st, used)


def _scalars_used(types: Sequence[SchemaType]) -> set:
    found = set()
    for st in types:
        layout = st.layout
        if isinstance(layout, RecordLayout):
            found.update(leaf.type.name for leaf in layout.leaves)
        else:
            found.update(leaf.type.name for c in layout.ctors for leaf in c.leaves)  # type: ignore[union-attr]
    return found


def module_dependencies(schema: Schema, module: ModuleDecl) -> Tuple[ModuleDecl, ...]:
    """The other modules whose types ``module``'s types use directly, in first-use order.

    First use in ``module``'s own declarations, never the command-line order of the schema
    files: the ``#include`` lines must not change when the files are given in another order.
    """
    used: Dict[int, ModuleDecl] = {}
    for st in schema.module_types(module):
        for dep in st.depends_on:
            source = schema.by_c_name(dep).source
            if source is not module:
                used.setdefault(id(source), source)
    return tuple(used.values())


def module_view(schema: Schema, module: ModuleDecl) -> ModuleView:
    """The target-independent view of ``module``'s header: its types in dependency order."""
    types = schema.dependency_order(schema.module_types(module))
    used: set = set()
    views = [type_view(st, used) for st in types]
    return ModuleView(
        tool=TOOL,
        version=__version__,
        module=module.name,
        source=os.path.basename(module.path),
        types=tuple(views),
        uses_float64="float64" in _scalars_used(types),
    )
