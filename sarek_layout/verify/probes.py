"""The probe model: every number a compiler must agree on, with the value the layout core gives.

For each schema type, probes ask for its ``sizeof``, its alignment, and the offset and size of
every member a header in the SPEC §4 shape has: record fields and, recursively, the fields of
nested records (``pos``, ``pos.x``); for a variant ``tag``, the union ``data``, each arm
``data.<Ctor>_v`` and each argument ``data.<Ctor>_v._0`` (and ``data.Circle_v._0.x`` inside a
record argument). Padding members (``_sarek_…``) are the header's business and are not probed.

Nothing here computes a layout: every expected value is read from the layout core's results
(``SchemaType.layout`` and ``record_layout_of`` for nested records); the only arithmetic is
adding a nested record's own field offsets to the offset where the core placed that record.
Drivers turn probes into their language's spelling (``offsetof``, ``__builtin_offsetof``,
``_Alignof``/``alignof``…); see ``drivers``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Sequence

from ..ir.schema import SchemaType
from ..ir.types import Scalar, TRecord
from ..layout.core import RecordLayout, VariantLayout, member_size_align, record_layout_of

__all__ = ["Probe", "SIZE", "ALIGN", "OFFSET", "MEMBER_SIZE", "probes_for_type", "probes_for"]

#: What a probe measures.
SIZE = "size"  # sizeof(T)
ALIGN = "align"  # alignment of T
OFFSET = "offset"  # offsetof(T, member)
MEMBER_SIZE = "member size"  # sizeof(((T *)0)->member)


@dataclass(frozen=True)
class Probe:
    """One number: ``quantity`` of type ``c_type`` (at ``member``, a C member path)."""

    c_type: str
    member: str  # "" for SIZE and ALIGN
    quantity: str
    expected: int

    @property
    def label(self) -> str:
        """How a person reads it: ``Geometry_particle.mass offset``, ``Geometry_point size``."""
        where = f"{self.c_type}.{self.member}" if self.member else self.c_type
        return f"{where} {self.quantity}"


def _member_size(t) -> int:
    return member_size_align(t)[0]


def _record_members(c_type: str, prefix: str, t: TRecord, base: int, out: List[Probe]) -> None:
    """Probes for the fields of record ``t`` placed at ``base``, below member path ``prefix``."""
    layout = record_layout_of(t)
    for (name, offset), (_, ft) in zip(layout.fields, t.fields):
        _member(c_type, prefix + name, ft, base + offset, out)


def _member(c_type: str, path: str, t, offset: int, out: List[Probe]) -> None:
    out.append(Probe(c_type, path, OFFSET, offset))
    out.append(Probe(c_type, path, MEMBER_SIZE, _member_size(t)))
    if isinstance(t, TRecord):
        _record_members(c_type, path + ".", t, offset, out)


def probes_for_type(st: SchemaType) -> List[Probe]:
    """Every probe of one schema type, in a stable order (size, alignment, members)."""
    layout = st.layout
    c = st.c_name
    out: List[Probe] = [
        Probe(c, "", SIZE, layout.size),  # type: ignore[attr-defined]
        Probe(c, "", ALIGN, layout.align),  # type: ignore[attr-defined]
    ]
    if isinstance(layout, RecordLayout):
        assert isinstance(st.elttype, TRecord)
        for (name, offset), (_, ft) in zip(layout.fields, st.elttype.fields):
            _member(c, name, ft, offset, out)
        return out
    assert isinstance(layout, VariantLayout)
    out.append(Probe(c, "tag", OFFSET, layout.tag_offset))
    out.append(Probe(c, "tag", MEMBER_SIZE, 4))
    ctors = st.elttype.ctors  # type: ignore[union-attr]
    if any(args for _, args in ctors):
        out.append(Probe(c, "data", OFFSET, layout.payload_offset))
    for (name, args), ctor in zip(ctors, layout.ctors):
        if not args:
            continue
        arm = f"data.{name}_v"
        out.append(Probe(c, arm, OFFSET, layout.payload_offset))
        leaves = {leaf.path: leaf for leaf in ctor.leaves}
        for i, arg in enumerate(args):
            qualified = f"{name}._{i}"
            if isinstance(arg, Scalar):
                offset = leaves[qualified].offset
            else:
                # Where the core put the argument: its first leaf, less that leaf's own offset
                # inside the record (records are never empty, so there is a first leaf).
                first = record_layout_of(arg).leaves[0]
                offset = leaves[f"{qualified}.{first.path}"].offset - first.offset
            _member(c, f"{arm}._{i}", arg, offset, out)
    return out


def probes_for(types: Iterable[SchemaType]) -> List[Probe]:
    """The probes of several types, concatenated (the order drivers number them in)."""
    out: List[Probe] = []
    for st in types:
        out.extend(probes_for_type(st))
    return out


def types_of(probes: Sequence[Probe]) -> List[str]:
    """The C type names the probes mention, in first-seen order."""
    seen: dict = {}
    for p in probes:
        seen.setdefault(p.c_type, None)
    return list(seen)
