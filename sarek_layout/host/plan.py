"""Byte plans: each record and constructor flattened into one ``struct`` format string.

The host codec (``codec``) and the generated standalone Python module (``python_target``)
both pack an element with a single precompiled ``struct.Struct`` call. This module turns a
layout into what they need: the format (native byte order, standard sizes, no implicit
alignment, every padding byte an explicit ``x`` so it is always written as zero) and the
*slots*, the scalars in the order the format expects them, each with the access path that
reaches it from the Python value. Pure arithmetic over the layout core's numbers; nothing
here computes an offset of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import List, Sequence, Tuple, Union

from ..ir.types import Scalar, TBool, TFloat32, TFloat64, TInt32, TInt64, TRecord, TUnit, TVariant
from ..layout.core import Leaf, RecordLayout, VariantLayout, record_layout_of, variant_layout

__all__ = [
    "SCALAR_FORMAT",
    "Slot",
    "RecordPlan",
    "CtorPlan",
    "VariantPlan",
    "Plan",
    "plan_of",
    "struct_format",
]

#: ``struct`` format character of each scalar (``=`` mode: standard sizes, native order).
#: ``bool`` and ``unit`` are 4-byte ints, as in every generated header.
SCALAR_FORMAT = {TInt32: "i", TFloat32: "f", TBool: "i", TUnit: "i", TInt64: "q", TFloat64: "d"}

#: One step of an access path: a field name (records) or an argument index (constructors).
Step = Union[str, int]


@dataclass(frozen=True)
class Slot:
    """One scalar of the flattened element: where it is read from and where it lands."""

    #: Steps from the element's value to the scalar, e.g. ``("pos", "x")`` or ``(0, "x")``.
    steps: Tuple[Step, ...]
    #: The layout's dotted leaf path (``pos.x``, ``Circle._0.x``): used in error messages.
    path: str
    type: Scalar
    offset: int


@dataclass(frozen=True)
class RecordPlan:
    type: TRecord
    layout: RecordLayout
    #: ``struct`` format of the whole element, padding included (``=`` prefixed).
    format: str
    slots: Tuple[Slot, ...]

    @property
    def size(self) -> int:
        return self.layout.size


@dataclass(frozen=True)
class CtorPlan:
    name: str
    tag: int
    args: Tuple[object, ...]  # the argument elttypes (Scalar | TRecord)
    #: Format of the whole element for this constructor: the tag first, then the arguments,
    #: then zero padding up to the variant's size (every element has the variant's size).
    format: str
    #: The argument scalars; ``steps[0]`` is the argument index.
    slots: Tuple[Slot, ...]


@dataclass(frozen=True)
class VariantPlan:
    type: TVariant
    layout: VariantLayout
    ctors: Tuple[CtorPlan, ...]

    @property
    def size(self) -> int:
        return self.layout.size


Plan = Union[RecordPlan, VariantPlan]


def struct_format(items: Sequence[Tuple[int, Scalar]], size: int) -> str:
    """The ``=``-mode format placing each ``(offset, scalar)`` and padding up to ``size``.

    ``items`` must be in increasing offset order and must not overlap (the layout core's
    leaves always are). Padding appears as ``Nx``, which ``struct`` writes as zero bytes.
    """
    parts: List[str] = ["="]
    at = 0
    for offset, scalar in items:
        if offset < at:
            raise ValueError(f"overlapping or unordered slots at offset {offset} (already at {at})")
        if offset > at:
            parts.append(f"{offset - at}x")
        parts.append(SCALAR_FORMAT[scalar])
        at = offset + (8 if scalar in (TInt64, TFloat64) else 4)
    if size < at:
        raise ValueError(f"slots end at {at}, past the element size {size}")
    if size > at:
        parts.append(f"{size - at}x")
    return "".join(parts)


def _steps(path: str, ctor_qualified: bool) -> Tuple[Step, ...]:
    parts = path.split(".")
    if not ctor_qualified:
        return tuple(parts)
    # "Circle._0.x": drop the constructor, turn "_0" into the argument index 0.
    return (int(parts[1][1:]), *parts[2:])


def _slots(leaves: Sequence[Leaf], ctor_qualified: bool) -> Tuple[Slot, ...]:
    return tuple(
        Slot(_steps(leaf.path, ctor_qualified), leaf.path, leaf.type, leaf.offset) for leaf in leaves
    )


@lru_cache(maxsize=4096)
def plan_of(t: Union[TRecord, TVariant]) -> Plan:
    """The byte plan of a record or variant elttype (raises ``LayoutError`` like the core)."""
    if isinstance(t, TRecord):
        layout = record_layout_of(t)
        slots = _slots(layout.leaves, False)
        fmt = struct_format([(s.offset, s.type) for s in slots], layout.size)
        return RecordPlan(t, layout, fmt, slots)
    if isinstance(t, TVariant):
        vlayout = variant_layout(t.name, t.ctors)
        ctors = []
        for (name, args), c in zip(t.ctors, vlayout.ctors):
            slots = _slots(c.leaves, True)
            items = [(vlayout.tag_offset, TInt32)] + [(s.offset, s.type) for s in slots]
            ctors.append(CtorPlan(name, c.tag, tuple(args), struct_format(items, vlayout.size), slots))
        return VariantPlan(t, vlayout, tuple(ctors))
    raise TypeError(f"only records and variants have an element layout, not {t!r}")
