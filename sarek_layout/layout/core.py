"""The Sarek aligned aggregate layout: pure arithmetic over elttypes, no I/O.

A faithful Python rendering of Sarek's ``Sarek_ir_layout`` (SPEC §1–2): C struct rules for
records, and for variants an int32 tag at 0 followed by a payload union at
``P = max(4, largest payload alignment)``. Same functions, same errors, same numbers.

Each record and each constructor is laid out as its *members* (``MemberLayout``: a field or
an argument ``_0``, ``_1``…, with its offset, size and alignment); a nested record is one
member whose own layout is computed once per distinct record type (memoised on the hashable
``TRecord``). The flattened scalar ``leaves`` of Sarek's API are derived from the members
only when asked for, so laying out deep or widely shared nesting stays linear in the schema;
only the leaves themselves can be as many as the schema describes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Iterable, List, Sequence, Tuple, Union

from ..errors import LayoutError, MisalignedField, NestedVariant, UnsupportedField
from ..ir.types import ElementType, Scalar, TArray, TRecord, TVariant, TVec

__all__ = [
    "Leaf",
    "MemberLayout",
    "RecordLayout",
    "CtorLayout",
    "VariantLayout",
    "ScalarLayout",
    "Layout",
    "align_up",
    "scalar_size",
    "scalar_align",
    "record_layout",
    "record_layout_of",
    "member_size_align",
    "variant_layout",
    "elttype_layout",
    "unsupported_kind",
]


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)  # slots: many are made, and no __dict__ to collect
class Leaf:
    """One scalar leaf of a flattened aggregate; ``offset`` is from the element start."""

    path: str
    type: Scalar
    offset: int
    size: int
    align: int


@dataclass(frozen=True, slots=True)
class MemberLayout:
    """One member placed by the core: a record field, or a constructor argument ``_N``.

    ``path`` is how errors and leaves name it (``inner``, ``Pair._1``); ``offset`` is from
    the element start; ``type`` is a ``Scalar`` or a ``TRecord`` (``record_layout_of`` gives
    the latter's own layout).
    """

    name: str
    path: str
    type: ElementType
    offset: int
    size: int
    align: int


def _leaves_of(members: Sequence[MemberLayout]) -> Tuple[Leaf, ...]:
    """The scalar leaves under ``members``, in declaration order, paths from the root."""
    out: List[Leaf] = []
    for m in members:
        t = m.type
        if isinstance(t, Scalar):
            out.append(Leaf(m.path, t, m.offset, m.size, m.align))
        else:
            prefix, base = m.path + ".", m.offset
            out.extend(
                Leaf(prefix + leaf.path, leaf.type, base + leaf.offset, leaf.size, leaf.align)
                for leaf in _nested_record_layout(t).leaves  # type: ignore[arg-type]
            )
    return tuple(out)


def _leaf_count(members: Sequence[MemberLayout]) -> int:
    return sum(
        1 if isinstance(m.type, Scalar) else _nested_record_layout(m.type).leaf_count  # type: ignore[arg-type]
        for m in members
    )


@dataclass(frozen=True)
class RecordLayout:
    """``fields``: ``(name, offset)`` of each immediate field; ``members``: the same with
    types and sizes; ``leaves`` (derived on first use): every scalar, flattened."""

    fields: Tuple[Tuple[str, int], ...]
    size: int
    align: int
    members: Tuple[MemberLayout, ...] = field(default=(), repr=False)

    @cached_property
    def leaves(self) -> Tuple[Leaf, ...]:
        return _leaves_of(self.members)

    @cached_property
    def leaf_count(self) -> int:
        """``len(self.leaves)``, without building them."""
        return _leaf_count(self.members)


@dataclass(frozen=True)
class CtorLayout:
    """One constructor: tag = declaration index; ``args`` and ``leaves`` are absolute,
    named ``Ctor._N``."""

    name: str
    tag: int
    payload_size: int
    args: Tuple[MemberLayout, ...] = field(default=(), repr=False)

    @cached_property
    def leaves(self) -> Tuple[Leaf, ...]:
        return _leaves_of(self.args)

    @cached_property
    def leaf_count(self) -> int:
        return _leaf_count(self.args)


@dataclass(frozen=True)
class VariantLayout:
    """``[tag:int32 @ tag_offset][payload @ payload_offset]``; ``align == payload_offset``."""

    tag_offset: int
    payload_offset: int
    ctors: Tuple[CtorLayout, ...]
    size: int
    align: int


@dataclass(frozen=True)
class ScalarLayout:
    size: int
    align: int


Layout = Union[ScalarLayout, RecordLayout, VariantLayout]


# --- arithmetic -------------------------------------------------------------------------------


def align_up(offset: int, align: int) -> int:
    """The smallest multiple of ``align`` (a power of two) that is >= ``offset``."""
    return (offset + align - 1) & -align


def scalar_size(t: ElementType) -> int:
    """Byte size of a scalar (the scalar table's): 4 for int32/float32/bool/unit, 8 for
    int64/float64."""
    if isinstance(t, Scalar):
        return t.size
    raise ValueError(f"scalar_size: not a scalar type: {t!r}")


def scalar_align(t: ElementType) -> int:
    """Natural alignment of a scalar: equal to its size for every Sarek scalar."""
    if isinstance(t, Scalar):
        return t.align
    raise ValueError(f"scalar_align: not a scalar type: {t!r}")


# --- aggregates -------------------------------------------------------------------------------


def unsupported_kind(t: ElementType) -> str:
    """How Sarek names a type with no element layout in ``UnsupportedField.what``."""
    return "TArray" if isinstance(t, TArray) else "TVec"


def _place(
    type_name: str, members: Iterable[Tuple[str, ElementType]], start: int, path_prefix: str
) -> Tuple[List[MemberLayout], int, int]:
    """Lay ``members`` out from ``start`` by C struct rules.

    Returns the placed members, the end offset of the last one and the largest member
    alignment (1 when there are none). Errors name ``type_name`` and the member's path
    (``path_prefix`` + name), re-rooted through nested records.
    """
    placed: List[MemberLayout] = []
    offset = start
    max_align = 1
    for name, t in members:
        if isinstance(t, Scalar):
            size = align = t.size
        elif isinstance(t, TRecord):
            try:
                inner = _nested_record_layout(t)
            except LayoutError as e:
                # Re-anchor the error on the root type, with the full dotted path.
                raise LayoutError(_reroot(e.error, type_name, path_prefix + name)) from None
            size, align = inner.size, inner.align
        elif isinstance(t, TVariant):
            raise LayoutError(NestedVariant(type_name, path_prefix + name))
        elif isinstance(t, (TArray, TVec)):
            raise LayoutError(UnsupportedField(type_name, path_prefix + name, unsupported_kind(t)))
        else:
            raise TypeError(f"not an elttype: {t!r} (field {path_prefix + name!r} of {type_name!r})")
        offset = (offset + align - 1) & -align  # align_up, inlined: this is the hot loop
        placed.append(MemberLayout(name, path_prefix + name, t, offset, size, align))
        offset += size
        if align > max_align:
            max_align = align
    return placed, offset, max_align


def _reroot(error, type_name: str, field_path: str):
    """The same error, reported against the enclosing type at ``field_path.<inner path>``."""
    inner_field = f"{field_path}.{error.field}"
    if isinstance(error, NestedVariant):
        return NestedVariant(type_name, inner_field)
    if isinstance(error, UnsupportedField):
        return UnsupportedField(type_name, inner_field, error.what)
    return MisalignedField(type_name, inner_field, error.offset, error.required_align)


def _check_alignment(type_name: str, placed: Sequence) -> None:
    """The defensive invariant of Sarek's layout: every member (or leaf) sits on its
    alignment. Checking members suffices: a nested record is checked when it is laid out,
    and it sits on its own alignment, which no leaf of it exceeds."""
    for item in placed:
        if item.offset % item.align:
            raise LayoutError(MisalignedField(type_name, item.path, item.offset, item.align))


# Unbounded on purpose: evicting an inner record would re-lay it out at its next use and,
# with a long chain of nested records, recurse deeply. The cache holds one small layout per
# distinct record type; ``_nested_record_layout.cache_clear()`` empties it.
@lru_cache(maxsize=None)
def _nested_record_layout(t: TRecord) -> RecordLayout:
    return record_layout(t.name, t.fields)


def record_layout_of(t: TRecord) -> RecordLayout:
    """The layout of a ``TRecord`` value, memoised (raises ``LayoutError`` like ``record_layout``)."""
    return _nested_record_layout(t)


def member_size_align(t: ElementType) -> Tuple[int, int]:
    """``(size, align)`` of a record member or payload argument: a scalar or a nested record."""
    if isinstance(t, TRecord):
        inner = _nested_record_layout(t)
        return inner.size, inner.align
    return scalar_size(t), scalar_align(t)


def record_layout(type_name: str, fields: Iterable[Tuple[str, ElementType]]) -> RecordLayout:
    """Aligned layout of a record; raises ``LayoutError`` for variant or array/vector fields."""
    placed, end, max_align = _place(type_name, fields, 0, "")
    _check_alignment(type_name, placed)
    return RecordLayout(
        tuple((m.name, m.offset) for m in placed), align_up(end, max_align), max_align, tuple(placed)
    )


def _payload_align(t: ElementType) -> int:
    """Alignment a payload argument asks for; errors are raised later, with the path."""
    if isinstance(t, Scalar):
        return t.align
    if isinstance(t, TRecord):
        try:
            return _nested_record_layout(t).align
        except LayoutError:
            return 1
    return 1


def variant_layout(
    type_name: str, ctors: Iterable[Tuple[str, Iterable[ElementType]]]
) -> VariantLayout:
    """Aligned layout of a variant: int32 tag at 0, payload at ``max(4, max arg align)``."""
    ctor_list = [(name, tuple(args)) for name, args in ctors]
    payload_offset = 4
    for _, args in ctor_list:
        for arg in args:
            payload_offset = max(payload_offset, _payload_align(arg))
    ctor_layouts = []
    max_payload = 0
    for tag, (name, args) in enumerate(ctor_list):
        members = ((f"_{i}", arg) for i, arg in enumerate(args))
        placed, end, arg_align = _place(type_name, members, payload_offset, name + ".")
        _check_alignment(type_name, placed)
        payload_size = align_up(end - payload_offset, arg_align) if args else 0
        max_payload = max(max_payload, payload_size)
        ctor_layouts.append(CtorLayout(name, tag, payload_size, tuple(placed)))
    size = align_up(payload_offset + max_payload, payload_offset)
    return VariantLayout(0, payload_offset, tuple(ctor_layouts), size, payload_offset)


def elttype_layout(t: ElementType) -> Layout:
    """Dispatch on ``t``: scalars, records and variants; arrays/vectors are unsupported."""
    if isinstance(t, Scalar):
        return ScalarLayout(t.size, t.align)
    if isinstance(t, TRecord):
        return record_layout(t.name, t.fields)
    if isinstance(t, TVariant):
        return variant_layout(t.name, t.ctors)
    if isinstance(t, (TArray, TVec)):
        raise LayoutError(UnsupportedField("<element>", "<self>", unsupported_kind(t)))
    raise TypeError(f"not an elttype: {t!r}")
