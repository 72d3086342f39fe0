"""The member walk: one laid-out type as a tree of members and the holes between them.

Every view of a layout (the ``layout`` and ``explain`` text reports, the byte-map picture)
prints this one walk, so holes, offsets and totals cannot disagree between them. It is read
off the schema's member model (``SchemaType.items``/``arms``): offsets are absolute (from the
element start) at every depth, and every byte of the type is covered by exactly one member
or hole at each level, arms included.

A nested record's own members (``Member.items``) are made only when a view opens it, so a
walk costs what is shown: records nested in records many levels deep, or one record used in
thousands of places, do not multiply the work of the views that leave them closed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ..ir.schema import HOLE, TAIL, UNUSED, Hole, SchemaType
from ..ir.schema import Item as ModelItem
from ..ir.schema import Member as ModelMember
from ..targets.naming import arm_name

__all__ = ["HOLE", "TAIL", "UNUSED", "Member", "Hole", "Item", "Arm", "TypeWalk", "walk_type",
           "walk_types", "data_bytes"]


@dataclass(frozen=True)
class Member:
    """A field, a constructor argument (``_0``…) or a variant's tag.

    ``record`` is the nested record's laid-out type (``None`` for a scalar); its members and
    holes, at this member's place, are ``items``. ``path`` is the dotted path of the layout
    core's leaves (``pos.x``, ``Circle._0.x``, ``tag``). A fixed array, vector or matrix
    (``elements`` > 1) is one member, never opened: its elements are alike.
    """

    name: str
    path: str
    spelling: str
    offset: int
    size: int
    align: int
    record: Optional[SchemaType] = None
    elements: int = 1

    @property
    def end(self) -> int:
        return self.offset + self.size

    @property
    def is_record(self) -> bool:
        return self.record is not None and self.elements == 1

    @cached_property
    def items(self) -> Tuple["Item", ...]:
        """The nested record's members and holes, shifted to this member's offset (empty for
        a scalar)."""
        if self.record is None:
            return ()
        return _shifted(self.record.items, self.offset, self.path + ".")


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
        """Every scalar member (the leaves, and a variant's tag), arms included: as many as
        the type has leaves, so only for views that show them all."""
        for items in (self.items, *(a.items for a in self.arms)):
            yield from _scalars(items)

    def holes(self) -> Iterator[Hole]:
        """Every hole at every depth, arms included (as many as the opened walk has)."""
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


def _member(m: ModelMember, base: int, prefix: str) -> Member:
    return Member(m.name, prefix + m.name, m.spelling, base + m.offset, m.size, m.align, m.record,
                  m.elements)


def _shifted(items: Sequence[ModelItem], base: int, prefix: str) -> Tuple[Item, ...]:
    """The model's items as walk items, ``base`` bytes further and below path ``prefix``."""
    return tuple(
        Hole(base + i.offset, i.size, i.kind) if isinstance(i, Hole) else _member(i, base, prefix)
        for i in items
    )


# --- data bytes ------------------------------------------------------------------------------


class _DataBytes:
    """Bytes that hold a scalar, per record (summed once per record type) and, for variants,
    the union over constructors (a byte mask, built once per record type, only when two or
    more constructors have arguments and so may overlap)."""

    def __init__(self) -> None:
        self._sums: Dict[int, int] = {}
        self._masks: Dict[int, bytes] = {}

    def of_record(self, st: SchemaType) -> int:
        return self._sum(st.members)

    def _sum(self, members: Sequence[ModelMember]) -> int:
        total = 0
        for m in members:
            if m.dims:  # a fixed array, vector or matrix: each element's data, not the strides'
                element = m.scalar.size if m.record is None else self._record_sum(m.record)  # type: ignore[union-attr]
                total += m.elements * element
            elif m.record is None:
                total += m.size
            else:
                total += self._record_sum(m.record)
        return total

    def _record_sum(self, record: SchemaType) -> int:
        key = id(record)
        if key not in self._sums:
            self._sums[key] = self._sum(record.members)
        return self._sums[key]

    def _mask(self, st: SchemaType) -> bytes:
        key = id(st)
        if key not in self._masks:
            mask = bytearray(st.size)
            self._paint(mask, st.members, 0)
            self._masks[key] = bytes(mask)
        return self._masks[key]

    def _paint(self, mask: bytearray, members: Sequence[ModelMember], base: int) -> None:
        """Set (OR in) the data bytes of ``members`` placed ``base`` bytes further."""
        for m in members:
            start = base + m.offset
            if m.record is None or m.dims:
                # An array's strides are painted as data here: painting element by element
                # would cost its element count (only overlapping constructor arguments that
                # the structural union cannot separate come here).
                mask[start:start + m.size] = b"\1" * m.size
            else:
                inner = self._mask(m.record)
                end = start + len(inner)
                # Bytewise OR of 0/1 bytes, at C speed through big integers.
                both = int.from_bytes(mask[start:end], "little") | int.from_bytes(inner, "little")
                mask[start:end] = both.to_bytes(len(inner), "little")

    def of_variant(self, st: SchemaType) -> int:
        tag = st.members[0].size
        with_args = [arm for arm in st.arms if arm.args]
        if len(with_args) <= 1:
            return tag + sum(self._sum(arm.args) for arm in with_args)
        placed = [(m.offset, m) for arm in with_args for m in arm.args]
        return tag + self._union(placed, _UNION_BUDGET)

    def _union(self, placed: Sequence[Tuple[int, ModelMember]], budget: int) -> int:
        """Data bytes of members that may overlap (the arguments of several constructors).

        The same record (or scalar) at the same place counts once, and a member that
        overlaps no other counts its own sum: so the usual shapes (constructors that share
        a leading argument, or differ only in a tail) cost one step per member, however
        deep the records nest. Only a run of members that really overlap differently is
        opened, one level at a time, while ``budget`` members remain; past that, its byte
        mask (linear in its bytes) decides."""
        unique = {}
        for start, m in placed:
            unique.setdefault((start, id(m.record) if m.record is not None else -m.size),
                              (start, m))
        ordered = sorted(unique.values(), key=lambda item: (item[0], item[0] + item[1].size))
        total, i = 0, 0
        while i < len(ordered):
            start, m = ordered[i]
            end, j = start + m.size, i + 1
            while j < len(ordered) and ordered[j][0] < end:
                end = max(end, ordered[j][0] + ordered[j][1].size)
                j += 1
            run = ordered[i:j]
            if len(run) == 1:
                total += self._sum((m,))
            else:
                total += self._overlapping(run, start, end, budget)
            i = j
        return total

    def _overlapping(self, run, start: int, end: int, budget: int) -> int:
        opened: List[Tuple[int, ModelMember]] = []
        for base, m in run:
            if m.record is None or m.dims:
                opened.append((base, m))
            else:
                opened.extend((base + inner.offset, inner) for inner in m.record.members)
        if len(opened) <= budget and any(m.record is not None and not m.dims for _, m in run):
            return self._union(opened, budget - len(opened))
        mask = bytearray(end - start)
        for base, m in run:
            self._paint(mask, (m,), base - m.offset - start)
        return mask.count(1)


#: Members the structural union of overlapping constructor arguments may open in all
#: before it falls back to byte masks (bounds the work of adversarial overlaps).
_UNION_BUDGET = 4096


def data_bytes(st: SchemaType) -> int:
    """Bytes of ``st`` that some scalar occupies (in at least one constructor, for a variant)."""
    return _walk(st, _DataBytes()).data_bytes


# --- building --------------------------------------------------------------------------------


def _record_walk(st: SchemaType, counter: _DataBytes) -> TypeWalk:
    items = _shifted(st.items, 0, "")
    return TypeWalk(st, st.size, st.align, items, data_bytes=counter.of_record(st))


def _arm_items(arm) -> Tuple[Item, ...]:
    """An arm's members and holes. A constructor of one argument is that argument, named
    as the generated headers declare it (SPEC §4: ``float Value_v``, read
    ``v.data.Value_v``), not a struct of one ``_0``; its path stays the leaf path."""
    items = _shifted(arm.items, 0, arm.name + ".")
    if len(arm.args) != 1:
        return items
    return tuple(replace(i, name=arm_name(arm.name)) if isinstance(i, Member) else i
                 for i in items)


def _variant_walk(st: SchemaType, counter: _DataBytes) -> TypeWalk:
    largest = max((arm.payload_size for arm in st.arms), default=0)
    arms = [
        Arm(arm.name, arm.tag, arm.payload_size, largest - arm.payload_size, _arm_items(arm))
        for arm in st.arms
    ]
    return TypeWalk(
        st, st.size, st.align, _shifted(st.items, 0, ""), payload_offset=st.payload_offset,
        arms=tuple(arms), data_bytes=counter.of_variant(st),
    )


def walk_type(st: SchemaType, context: Sequence[SchemaType] = ()) -> TypeWalk:
    """The walk of one type. (``context`` is accepted for compatibility: members already
    know how they were spelled.)"""
    return walk_types([st], context)[0]


def walk_types(types: Sequence[SchemaType], context: Sequence[SchemaType] = ()) -> List[TypeWalk]:
    """The walks of ``types`` (sharing the per-record data counts)."""
    counter = _DataBytes()
    return [_walk(st, counter) for st in types]


def _walk(st: SchemaType, counter: _DataBytes) -> TypeWalk:
    if st.kind == "record":
        return _record_walk(st, counter)
    if st.kind == "enum":  # its base scalar: all data, no members
        return TypeWalk(st, st.size, st.align, (), data_bytes=st.size)
    return _variant_walk(st, counter)
