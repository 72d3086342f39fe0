"""The member walk: one laid-out type as a tree of members and the holes between them.

Every view of a layout (the ``layout`` and ``explain`` text reports, the byte-map picture)
prints this one walk, so holes, offsets and totals cannot disagree between them. Offsets are
absolute (from the element start) at every depth; every byte of the type is covered by
exactly one member or hole at each level, arms included. Numbers come from the layout core:
member offsets from ``RecordLayout.fields`` and the constructors' leaves, sizes from the
layouts of the member types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ..ir.schema import RecordDecl, SchemaType, TypeExpr, VariantDecl
from ..ir.types import ElementType, Scalar, TRecord, TVariant
from ..layout.core import RecordLayout, VariantLayout, record_layout_of, scalar_size

__all__ = ["Member", "Hole", "Item", "Arm", "TypeWalk", "walk_type", "walk_types", "type_spelling"]

#: Hole kinds: a gap before a member, the padding that rounds a record (or an arm) up to its
#: alignment, and the part of the payload region an arm never uses.
HOLE, TAIL, UNUSED = "hole", "tail", "unused"


@dataclass(frozen=True)
class Hole:
    offset: int
    size: int
    kind: str  # HOLE | TAIL | UNUSED

    @property
    def end(self) -> int:
        return self.offset + self.size


@dataclass(frozen=True)
class Member:
    """A field, a constructor argument (``_0``…) or a variant's tag.

    ``items`` holds a nested record's own members and holes (empty for a scalar); ``path``
    is the dotted path of the layout core's leaves (``pos.x``, ``Circle._0.x``, ``tag``).
    """

    name: str
    path: str
    spelling: str
    offset: int
    size: int
    align: int
    items: Tuple["Item", ...] = ()

    @property
    def end(self) -> int:
        return self.offset + self.size

    @property
    def is_record(self) -> bool:
        return bool(self.items)


Item = Union[Member, Hole]


@dataclass(frozen=True)
class Arm:
    """One constructor over the payload region ``[payload_offset, size)`` of its variant."""

    name: str
    tag: int
    payload_size: int
    #: Bytes this arm leaves unused against the largest arm (largest payload − its own).
    waste: int
    items: Tuple[Item, ...]


@dataclass(frozen=True)
class TypeWalk:
    """A type's members and holes, its arms (variants), and its totals."""

    type: SchemaType
    size: int
    align: int
    #: A record's members; a variant's tag and the hole before its payload.
    items: Tuple[Item, ...]
    payload_offset: Optional[int] = None
    arms: Tuple[Arm, ...] = ()
    #: Bytes some scalar (or the tag) occupies — in at least one arm, for a variant.
    data_bytes: int = 0

    @property
    def kind(self) -> str:
        return self.type.kind

    @property
    def padding_bytes(self) -> int:
        """Bytes that never hold data: holes and tail padding (bytes no arm uses, for a variant)."""
        return self.size - self.data_bytes

    @property
    def padding_percent(self) -> float:
        return 100.0 * self.padding_bytes / self.size if self.size else 0.0

    @property
    def largest_payload(self) -> int:
        return max((a.payload_size for a in self.arms), default=0)

    def scalars(self) -> Iterator[Member]:
        """Every scalar member (the leaves, and a variant's tag), arms included."""
        for items in (self.items, *(a.items for a in self.arms)):
            yield from _scalars(items)

    def holes(self) -> Iterator[Hole]:
        """Every hole at every depth, arms included."""
        for items in (self.items, *(a.items for a in self.arms)):
            yield from _holes(items)


def _scalars(items: Sequence[Item]) -> Iterator[Member]:
    for item in items:
        if isinstance(item, Member):
            if item.is_record:
                yield from _scalars(item.items)
            else:
                yield item


def _holes(items: Sequence[Item]) -> Iterator[Hole]:
    for item in items:
        if isinstance(item, Hole):
            yield item
        elif item.is_record:
            yield from _holes(item.items)


def type_spelling(t: ElementType, expr: Optional[TypeExpr]) -> str:
    """How a member's type is shown: the scalar's name, or the type name as written."""
    if isinstance(t, Scalar) or expr is None:
        return t.name  # type: ignore[attr-defined]
    return str(expr)


# --- building --------------------------------------------------------------------------------


class _Walker:
    """Builds walks; ``decls`` maps a nested ``TRecord`` to its declaration for spellings."""

    def __init__(self, decls: Dict[TRecord, RecordDecl]) -> None:
        self.decls = decls

    def member(self, name: str, path: str, t: ElementType, expr: Optional[TypeExpr], offset: int) -> Member:
        spelling = type_spelling(t, expr)
        if isinstance(t, TRecord):
            inner = record_layout_of(t)
            items = self.record_items(t, inner, offset, path + ".")
            return Member(name, path, spelling, offset, inner.size, inner.align, items)
        size = scalar_size(t)
        return Member(name, path, spelling, offset, size, size)

    def record_items(self, t: TRecord, layout: RecordLayout, base: int, prefix: str) -> Tuple[Item, ...]:
        decl = self.decls.get(t)
        exprs: Sequence[Optional[TypeExpr]] = (
            [f.type for f in decl.fields] if decl is not None else [None] * len(t.fields)
        )
        members = [
            self.member(name, prefix + name, ft, expr, base + offset)
            for (name, offset), (_, ft), expr in zip(layout.fields, t.fields, exprs)
        ]
        return _with_holes(members, base, base + layout.size, TAIL)


def _with_holes(members: Sequence[Member], start: int, end: int, last: str) -> Tuple[Item, ...]:
    """``members`` with a ``Hole`` in every gap of ``[start, end)``; the last gap is ``last``."""
    items: List[Item] = []
    cursor = start
    for m in members:
        if m.offset > cursor:
            items.append(Hole(cursor, m.offset - cursor, HOLE))
        items.append(m)
        cursor = m.end
    if end > cursor:
        items.append(Hole(cursor, end - cursor, last))
    return tuple(items)


def _covered(intervals: Sequence[Tuple[int, int]]) -> int:
    """Bytes covered by the union of half-open ``(start, end)`` intervals."""
    total = 0
    reach = None
    for start, end in sorted(intervals):
        if reach is None or start >= reach:
            total += end - start
            reach = end
        elif end > reach:
            total += end - reach
            reach = end
    return total


def _record_walk(walker: _Walker, st: SchemaType, layout: RecordLayout) -> TypeWalk:
    assert isinstance(st.elttype, TRecord) and isinstance(st.decl, RecordDecl)
    members = [
        walker.member(name, name, t, f.type, offset)
        for (name, offset), (_, t), f in zip(layout.fields, st.elttype.fields, st.decl.fields)
    ]
    items = _with_holes(members, 0, layout.size, TAIL)
    data = sum(leaf.size for leaf in layout.leaves)
    return TypeWalk(st, layout.size, layout.align, items, data_bytes=data)


def _variant_walk(walker: _Walker, st: SchemaType, layout: VariantLayout) -> TypeWalk:
    assert isinstance(st.elttype, TVariant) and isinstance(st.decl, VariantDecl)
    p = layout.payload_offset
    tag = Member("tag", "tag", "int32", layout.tag_offset, 4, 4)
    items = _with_holes([tag], 0, p, HOLE)
    largest = max((c.payload_size for c in layout.ctors), default=0)
    arms = []
    used = [(tag.offset, tag.end)]
    for ctor, (_, args), decl in zip(layout.ctors, st.elttype.ctors, st.decl.ctors):
        members = []
        for i, (t, expr) in enumerate(zip(args, decl.args)):
            path = f"{ctor.name}._{i}"
            # An argument starts where its first leaf does: a record's first field is at 0.
            offset = min(
                leaf.offset for leaf in ctor.leaves
                if leaf.path == path or leaf.path.startswith(path + ".")
            )
            members.append(walker.member(f"_{i}", path, t, expr, offset))
        arm_items = list(_with_holes(members, p, p + ctor.payload_size, TAIL))
        if layout.size > p + ctor.payload_size:
            arm_items.append(Hole(p + ctor.payload_size, layout.size - p - ctor.payload_size, UNUSED))
        arms.append(Arm(ctor.name, ctor.tag, ctor.payload_size, largest - ctor.payload_size, tuple(arm_items)))
        used.extend((leaf.offset, leaf.offset + leaf.size) for leaf in ctor.leaves)
    return TypeWalk(
        st, layout.size, layout.align, items, payload_offset=p, arms=tuple(arms),
        data_bytes=_covered(used),
    )


def _decls_of(types: Sequence[SchemaType]) -> Dict[TRecord, RecordDecl]:
    return {
        t.elttype: t.decl
        for t in types
        if isinstance(t.elttype, TRecord) and isinstance(t.decl, RecordDecl)
    }


def walk_type(st: SchemaType, context: Sequence[SchemaType] = ()) -> TypeWalk:
    """The walk of one type; ``context`` (e.g. the whole schema) spells nested members as written."""
    return walk_types([st], context)[0]


def walk_types(types: Sequence[SchemaType], context: Sequence[SchemaType] = ()) -> List[TypeWalk]:
    """The walks of ``types``, nested members spelled from ``context`` and ``types``."""
    walker = _Walker(_decls_of([*context, *types]))
    walks = []
    for st in types:
        if isinstance(st.layout, RecordLayout):
            walks.append(_record_walk(walker, st, st.layout))
        else:
            assert isinstance(st.layout, VariantLayout)
            walks.append(_variant_walk(walker, st, st.layout))
    return walks
