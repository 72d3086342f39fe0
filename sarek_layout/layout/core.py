"""The Sarek aligned aggregate layout: pure arithmetic over elttypes, no I/O.

A faithful Python rendering of Sarek's ``Sarek_ir_layout`` (SPEC §1–2): C struct rules for
records, and for variants an int32 tag at 0 followed by a payload union at
``P = max(4, largest payload alignment)``. Same functions, same errors, same numbers.

Nested records are laid out once per distinct record type (memoised on the hashable
``TRecord``) and their leaves are shifted into place at each use, so deep or widely shared
nesting stays linear.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, List, Sequence, Tuple, Union

from ..errors import LayoutError, MisalignedField, NestedVariant, UnsupportedField
from ..ir.types import (
    ElementType,
    Scalar,
    TArray,
    TBool,
    TFloat32,
    TFloat64,
    TInt32,
    TInt64,
    TRecord,
    TUnit,
    TVariant,
    TVec,
)

__all__ = [
    "Leaf",
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
]

_SCALAR_SIZE = {TInt32: 4, TFloat32: 4, TBool: 4, TUnit: 4, TInt64: 8, TFloat64: 8}
# The same, keyed by identity: the scalars are singletons, and hashing a dataclass is a
# Python-level call. Equal scalars that are other objects still go through _SCALAR_SIZE.
_SCALAR_SIZE_BY_ID = {id(t): size for t, size in _SCALAR_SIZE.items()}


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)  # slots: many are made, and no __dict__ to collect
class Leaf:
    """One scalar leaf of a flattened aggregate; ``offset`` is from the element start."""

    path: str
    type: Scalar
    offset: int
    size: int
    align: int


@dataclass(frozen=True)
class RecordLayout:
    """``fields``: ``(name, offset)`` of each immediate field; ``leaves``: all scalars."""

    fields: Tuple[Tuple[str, int], ...]
    leaves: Tuple[Leaf, ...]
    size: int
    align: int


@dataclass(frozen=True)
class CtorLayout:
    """One constructor: tag = declaration index; leaves are absolute, ``Ctor._N`` paths."""

    name: str
    tag: int
    leaves: Tuple[Leaf, ...]
    payload_size: int


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
    """Byte size of a scalar: 4 for int32/float32/bool/unit, 8 for int64/float64."""
    try:
        return _SCALAR_SIZE[t]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ValueError(f"scalar_size: not a scalar type: {t!r}") from None


def scalar_align(t: ElementType) -> int:
    """Natural alignment of a scalar: equal to its size for every Sarek scalar."""
    try:
        return _SCALAR_SIZE[t]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ValueError(f"scalar_align: not a scalar type: {t!r}") from None


# --- aggregates -------------------------------------------------------------------------------


def _unsupported_kind(t: ElementType) -> str:
    return "array" if isinstance(t, TArray) else "vector"


def _place_fields(
    type_name: str,
    members: Iterable[Tuple[str, ElementType]],
    start: int,
    path_prefix: str,
) -> Tuple[List[Tuple[str, int]], List[Leaf], int, int]:
    """Lay ``members`` out from ``start`` by C struct rules.

    Returns the member offsets, the flattened leaves, the end offset of the last member
    and the largest member alignment (1 when there are no members). Errors name
    ``type_name`` and the member's path (``path_prefix`` + name).
    """
    offsets: List[Tuple[str, int]] = []
    leaves: List[Leaf] = []
    offset = start
    max_align = 1
    by_id = _SCALAR_SIZE_BY_ID
    for name, t in members:
        size = by_id.get(id(t)) or _scalar_size_or_none(t)
        if size is not None:
            align = size
            offset = (offset + align - 1) & -align  # align_up, inlined: this is the hot loop
            leaves.append(Leaf(path_prefix + name, t, offset, size, align))  # type: ignore[arg-type]
        elif isinstance(t, TRecord):
            try:
                inner = _nested_record_layout(t)
            except LayoutError as e:
                # Re-anchor the error on the root type, with the full dotted path.
                raise LayoutError(_reroot(e.error, type_name, path_prefix + name)) from None
            size, align = inner.size, inner.align
            offset = align_up(offset, align)
            prefix = path_prefix + name + "."
            leaves.extend(
                Leaf(prefix + leaf.path, leaf.type, offset + leaf.offset, leaf.size, leaf.align)
                for leaf in inner.leaves
            )
        elif isinstance(t, TVariant):
            raise LayoutError(NestedVariant(type_name, path_prefix + name))
        elif isinstance(t, (TArray, TVec)):
            raise LayoutError(UnsupportedField(type_name, path_prefix + name, _unsupported_kind(t)))
        else:
            raise TypeError(f"not an elttype: {t!r} (field {path_prefix + name!r} of {type_name!r})")
        offsets.append((name, offset))
        offset += size
        if align > max_align:
            max_align = align
    return offsets, leaves, offset, max_align


def _scalar_size_or_none(t: ElementType):
    """Size of a scalar that is not one of the singletons (an equal copy), else ``None``."""
    if isinstance(t, Scalar):
        return _SCALAR_SIZE.get(t)
    return None


def _reroot(error, type_name: str, field_path: str):
    """The same error, reported against the enclosing type at ``field_path.<inner path>``."""
    inner_field = f"{field_path}.{error.field}"
    if isinstance(error, NestedVariant):
        return NestedVariant(type_name, inner_field)
    if isinstance(error, UnsupportedField):
        return UnsupportedField(type_name, inner_field, error.what)
    return MisalignedField(type_name, inner_field, error.offset, error.required_align)


def _check_alignment(type_name: str, leaves: Sequence[Leaf]) -> None:
    """The defensive invariant of Sarek's layout: every leaf sits on its alignment."""
    for leaf in leaves:
        if leaf.offset % leaf.align:
            raise LayoutError(MisalignedField(type_name, leaf.path, leaf.offset, leaf.align))


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
    size = scalar_size(t)
    return size, size


def record_layout(type_name: str, fields: Iterable[Tuple[str, ElementType]]) -> RecordLayout:
    """Aligned layout of a record; raises ``LayoutError`` for variant or array/vector fields."""
    offsets, leaves, end, max_align = _place_fields(type_name, fields, 0, "")
    _check_alignment(type_name, leaves)
    return RecordLayout(tuple(offsets), tuple(leaves), align_up(end, max_align), max_align)


def _payload_align(t: ElementType) -> int:
    """Alignment a payload argument asks for; errors are raised later, with the path."""
    if t in _SCALAR_SIZE:
        return _SCALAR_SIZE[t]  # type: ignore[index]
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
        _, leaves, end, arg_align = _place_fields(type_name, members, payload_offset, name + ".")
        _check_alignment(type_name, leaves)
        payload_size = align_up(end - payload_offset, arg_align) if args else 0
        max_payload = max(max_payload, payload_size)
        ctor_layouts.append(CtorLayout(name, tag, tuple(leaves), payload_size))
    size = align_up(payload_offset + max_payload, payload_offset)
    return VariantLayout(0, payload_offset, tuple(ctor_layouts), size, payload_offset)


def elttype_layout(t: ElementType) -> Layout:
    """Dispatch on ``t``: scalars, records and variants; arrays/vectors are unsupported."""
    if t in _SCALAR_SIZE:
        size = _SCALAR_SIZE[t]  # type: ignore[index]
        return ScalarLayout(size, size)
    if isinstance(t, TRecord):
        return record_layout(t.name, t.fields)
    if isinstance(t, TVariant):
        return variant_layout(t.name, t.ctors)
    if isinstance(t, (TArray, TVec)):
        raise LayoutError(UnsupportedField("<element>", "<self>", _unsupported_kind(t)))
    raise TypeError(f"not an elttype: {t!r}")
