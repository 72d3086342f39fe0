"""How the original C headers lay out the imported types on i386 (issue 30, item 14).

An imported type has Sarek's layout, which is the x86-64 C layout of its header (what is
not is refused). On i386 (``gcc -m32``) C aligns an 8-byte scalar (``int64_t``,
``uint64_t``, ``double``) at 4 inside a struct, unless an alignment of 8 pins it: so the
original header lays some imported types out otherwise there, while the header ``generate``
writes from the schema pins every 8-byte member and has one layout on every ABI. Code
built with ``-m32`` against the original header then disagrees with the generated one.

``import-c`` says so, once per run (``i386_note``): a note naming the types whose i386
layout differs, not an error. The i386 layout is the C struct rules over the imported
members, with what the original header pins (``header._Reader.pinned_places``,
``pinned_types``, ``pinned_payloads``: where the header writes an alignment of 8 that
the reader accepted) kept at 8; a type differs when its size, its alignment, an offset or a
type it holds does. ``tests/frontends/test_cheader_i386.py`` checks the types named against
``gcc -m32`` on the original headers.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ...ir.schema import VECTOR, Member, Schema, SchemaType

__all__ = ["i386_note", "i386_differences"]

#: What i386 aligns an 8-byte scalar at inside a struct, and what an alignment pins it to.
_I386_WIDE_ALIGN = 4
_PINNED_ALIGN = 8
#: Types named in the note before the rest is counted.
_NAMED = 40


class _Pins:
    """What the original headers pin at 8: member places, type and payload C names."""

    def __init__(self, units: Iterable) -> None:
        self.places: Set[Tuple[str, int, int]] = set()
        self.types: Set[str] = set()
        self.payloads: Set[str] = set()
        for unit in units:
            self.places |= unit.pinned_places
            self.types |= unit.pinned_types
            self.payloads |= unit.pinned_payloads

    def member(self, m: Member) -> bool:
        loc = m.location
        return loc is not None and (loc.file, loc.line, loc.col) in self.places


def _align_up(offset: int, align: int) -> int:
    return (offset + align - 1) // align * align


class _I386:
    """The i386 layouts of a schema's types, each computed once (dependency order)."""

    def __init__(self, pins: _Pins) -> None:
        self.pins = pins
        #: C name -> (size, align) on i386, and whether it differs from Sarek's.
        self.layouts: Dict[str, Tuple[int, int]] = {}
        self.differs: Dict[str, bool] = {}

    def add(self, t: SchemaType) -> bool:
        """Lay ``t`` out (the types it holds already laid out); whether it differs."""
        if t.is_enum:  # an int on every ABI (``enums``)
            size, align, same = t.size, t.align, True
        elif t.kind == "record":
            size, align, same = self._struct(t.members, 0)
        else:
            size, align, same = self._variant(t)
        if t.c_name in self.pins.types:
            align = max(align, _PINNED_ALIGN)
            size = _align_up(size, align)
        differs = not same or (size, align) != (t.size, t.align)
        self.layouts[t.c_name] = (size, align)
        self.differs[t.c_name] = differs
        return differs

    def _member(self, m: Member) -> Tuple[int, int, bool]:
        """``(size, align, same)`` of one member on i386: its element's, repeated by its
        dimensions (C arrays, and CUDA's vectors, which ``vector_types.h`` aligns with an
        attribute on every ABI but the 3-vectors, aligned as their component)."""
        if m.scalar is not None:
            size, same = m.scalar.size, True
            align = _I386_WIDE_ALIGN if m.scalar.wide else m.scalar.align
        else:
            size, align = self.layouts[m.record.c_name]  # type: ignore[union-attr]
            same = not self.differs[m.record.c_name]  # type: ignore[union-attr]
        for dim in m.dims:
            size *= dim.count  # the stride is the element's size in C's rules
            if dim.kind == VECTOR and dim.count != 3:
                align = m.align
        if self.pins.member(m):
            align = max(align, _PINNED_ALIGN)
        return size, align, same

    def _struct(self, members: Sequence[Member], start: int) -> Tuple[int, int, bool]:
        """C's struct rules over ``members`` placed from ``start`` (a variant's arguments
        keep absolute offsets): ``(size, align, same)``, ``same`` when every offset and
        every type held is as in Sarek's layout."""
        offset, max_align, same = 0, 1, True
        for m in members:
            size, align, held_same = self._member(m)
            offset = _align_up(offset, align)
            same = same and held_same and start + offset == m.offset
            offset += size
            max_align = max(max_align, align)
        return _align_up(offset, max_align), max_align, same

    def _variant(self, t: SchemaType) -> Tuple[int, int, bool]:
        """``int32_t tag;`` and the union ``data`` of the arms (one argument: the arm
        itself; several: an inline struct of them)."""
        arms = [arm for arm in t.arms if arm.args]
        if not arms:
            return 4, 4, True
        payload_align = 1
        for arm in arms:
            payload_align = max(payload_align, max(self._member(a)[1] for a in arm.args))
        if t.c_name in self.pins.payloads:
            payload_align = max(payload_align, _PINNED_ALIGN)
        data = _align_up(4, payload_align)
        union_size, same = 0, data == t.payload_offset
        for arm in arms:
            size, _, arm_same = self._struct(arm.args, data)
            union_size = max(union_size, size)
            same = same and arm_same
        align = max(4, payload_align)
        return _align_up(data + _align_up(union_size, payload_align), align), align, same


def i386_differences(schema: Schema, units: Iterable) -> List[str]:
    """The C names of the types of ``schema`` whose i386 layout in the original headers
    (read as ``units``, ``header._Reader``s) differs from Sarek's, in declaration order."""
    i386 = _I386(_Pins(units))
    for t in schema.dependency_order():
        i386.add(t)
    return [t.c_name for t in schema if i386.differs[t.c_name]]


def i386_note(schema: Schema, units: Iterable) -> Optional[str]:
    """The one note ``import-c`` gives about i386, or None when no type differs there."""
    names = i386_differences(schema, units)
    if not names:
        return None
    shown = ", ".join(names[:_NAMED]) + (f" and {len(names) - _NAMED} more"
                                         if len(names) > _NAMED else "")
    return (f"note: on i386 (gcc -m32) the original header lays out {len(names)} of these types "
            f"otherwise, its 8-byte members being 4-aligned there where no alignment of 8 pins "
            f"them: {shown}; the headers generated from this schema pin them, so 32-bit code "
            f"built against the original header does not share its layout")
