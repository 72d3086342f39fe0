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
from typing import Iterator, List, Optional, Sequence, Tuple, Union

from ..ir.schema import HOLE, TAIL, UNUSED, Dim, Hole, SchemaType
from ..ir.schema import Item as ModelItem
from ..ir.schema import Member as ModelMember
from ..ir.types import Scalar
from ..layout.rules import rules_named
from ..targets.naming import arm_name
from .databytes import DataBytes, record_data_bytes

__all__ = ["HOLE", "TAIL", "UNUSED", "Member", "Hole", "Item", "Arm", "TypeWalk", "walk_type",
           "walk_types", "data_bytes"]


@dataclass(frozen=True)
class Member:
    """A field, a constructor argument (``_0``…) or a variant's tag.

    ``record`` is the nested record's laid-out type (``None`` for a scalar); its members and
    holes, at this member's place, are ``items``. ``path`` is the dotted path of the layout
    core's leaves (``pos.x``, ``Circle._0.x``, ``tag``). A fixed array, vector or matrix
    (``dims``, ``elements`` of them) is one member, never opened: its elements are alike,
    and the padding inside it is described once per kind of gap (``inner_padding``).
    """

    name: str
    path: str
    spelling: str
    offset: int
    size: int
    align: int
    record: Optional[SchemaType] = None
    elements: int = 1
    #: The repetitions of a fixed array, vector or matrix, outermost first (SPEC §1b).
    dims: Tuple[Dim, ...] = ()
    #: The element's scalar (an enum's base), for a member that is not a record.
    scalar: Optional[Scalar] = None
    #: Its rule set ends an array at its last element's end (``scalar``: no stride
    #: padding after the last element).
    tail_unpadded: bool = False

    @property
    def end(self) -> int:
        return self.offset + self.size

    @property
    def is_record(self) -> bool:
        return self.record is not None and not self.dims

    @cached_property
    def items(self) -> Tuple["Item", ...]:
        """The nested record's members and holes, shifted to this member's offset (empty for
        a scalar, and for an array, vector or matrix: its elements are alike)."""
        if not self.is_record:
            return ()
        return _shifted(self.record.items, self.offset, self.path + ".",  # type: ignore[union-attr]
                        self.tail_unpadded)

    def inner_padding(self) -> List[Tuple[int, int, str]]:
        """The padding inside an array, vector or matrix, once per kind of gap: ``(bytes,
        times, where)``, ``where`` being ``"stride"`` (the gap after each element of one
        level: 4 bytes × 4 in a std430 ``vec3<float32>[4]``) or ``"element"`` (the padding
        inside each record element). Computed from the dims alone: a
        ``float32[100000000]`` costs what a ``float32[2]`` does."""
        if not self.dims:
            return []
        element = self.scalar.size if self.record is None else self.record.size  # type: ignore[union-attr]
        # The size of one element of each level, innermost level first.
        sizes = [element]
        for d in reversed(self.dims[1:]):
            last = (d.count - 1) * d.stride + sizes[-1] if self.tail_unpadded else d.count * d.stride
            sizes.append(last)
        sizes.reverse()
        out: List[Tuple[int, int, str]] = []
        instances = 1
        for d, size in zip(self.dims, sizes):
            gaps = d.count - 1 if self.tail_unpadded else d.count
            if d.stride > size and gaps:
                out.append((d.stride - size, instances * gaps, "stride"))
            instances *= d.count
        if self.record is not None:
            inside = self.record.size - record_data_bytes(self.record)
            if inside:
                out.append((inside, self.elements, "element"))
        return out


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


def _member(m: ModelMember, base: int, prefix: str, tail_unpadded: bool) -> Member:
    return Member(m.name, prefix + m.name, m.spelling, base + m.offset, m.size, m.align, m.record,
                  m.elements, m.dims, m.scalar, tail_unpadded)


def _shifted(items: Sequence[ModelItem], base: int, prefix: str,
             tail_unpadded: bool) -> Tuple[Item, ...]:
    """The model's items as walk items, ``base`` bytes further and below path ``prefix``."""
    return tuple(
        Hole(base + i.offset, i.size, i.kind) if isinstance(i, Hole)
        else _member(i, base, prefix, tail_unpadded)
        for i in items
    )


def _tail_unpadded(st: SchemaType) -> bool:
    """Whether ``st``'s rule set ends an array at its last element (``scalar``)."""
    rules = rules_named(st.rules)
    return bool(rules is not None and rules.array_tail_unpadded)


def data_bytes(st: SchemaType) -> int:
    """Bytes of ``st`` that some scalar occupies (in at least one constructor, for a variant)."""
    return _walk(st, DataBytes()).data_bytes


# --- building --------------------------------------------------------------------------------


def _record_walk(st: SchemaType, counter: DataBytes) -> TypeWalk:
    items = _shifted(st.items, 0, "", _tail_unpadded(st))
    return TypeWalk(st, st.size, st.align, items, data_bytes=counter.of_record(st))


def _arm_items(arm, tail_unpadded: bool) -> Tuple[Item, ...]:
    """An arm's members and holes. A constructor of one argument is that argument, named
    as the generated headers declare it (SPEC §4: ``float Value_v``, read
    ``v.data.Value_v``), not a struct of one ``_0``; its path stays the leaf path."""
    items = _shifted(arm.items, 0, arm.name + ".", tail_unpadded)
    if len(arm.args) != 1:
        return items
    return tuple(replace(i, name=arm_name(arm.name)) if isinstance(i, Member) else i
                 for i in items)


def _variant_walk(st: SchemaType, counter: DataBytes) -> TypeWalk:
    largest = max((arm.payload_size for arm in st.arms), default=0)
    unpadded = _tail_unpadded(st)
    arms = [
        Arm(arm.name, arm.tag, arm.payload_size, largest - arm.payload_size,
            _arm_items(arm, unpadded))
        for arm in st.arms
    ]
    return TypeWalk(
        st, st.size, st.align, _shifted(st.items, 0, "", unpadded), payload_offset=st.payload_offset,
        arms=tuple(arms), data_bytes=counter.of_variant(st),
    )


def walk_type(st: SchemaType, context: Sequence[SchemaType] = ()) -> TypeWalk:
    """The walk of one type. (``context`` is accepted for compatibility: members already
    know how they were spelled.)"""
    return walk_types([st], context)[0]


def walk_types(types: Sequence[SchemaType], context: Sequence[SchemaType] = ()) -> List[TypeWalk]:
    """The walks of ``types`` (sharing the per-record data counts)."""
    counter = DataBytes()
    return [_walk(st, counter) for st in types]


def _walk(st: SchemaType, counter: DataBytes) -> TypeWalk:
    if st.kind == "record":
        return _record_walk(st, counter)
    if st.kind == "enum":  # its base scalar: all data, no members
        return TypeWalk(st, st.size, st.align, (), data_bytes=st.size)
    return _variant_walk(st, counter)
