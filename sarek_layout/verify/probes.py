"""The probe model: every number a compiler must agree on, with the value the layout gives.

For each schema type, probes ask for its ``sizeof``, its alignment, and for every member of
its emitted shape (``targets.shape``: record fields; a variant's ``tag``, the union
``data``, each arm ``data.<Ctor>_v``, each argument ``data.<Ctor>_v._0``) the offset, and
the size of each member holding a value (a ``Slot``; the union and a struct arm are probed
by their offset alone). A member of record type is probed as a whole (offset and size); the
nested record's own fields are probed once, as that record's own type (``probes_for`` adds
every record the given types use), which proves the same offsets (``offsetof(T, a.b) ==
offsetof(T, a) + offsetof(A, b)`` in C) at a cost linear in the schema however deep
records nest. Padding members (``_sarek_…``) are the header's business and are not probed.

Nothing here computes a layout or a member path: every expected value is read from the
shape, and through it from the member model (``SchemaType.members``/``arms``). Drivers turn
probes into their language's spelling (``offsetof``, ``__builtin_offsetof``,
``_Alignof``/``alignof``…); see ``drivers``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Dict, Iterable, List, Sequence

from ..ir.schema import SchemaType
from ..targets.shape import Array, Slot, Struct, Union, shape_of

__all__ = ["Probe", "SIZE", "ALIGN", "OFFSET", "MEMBER_SIZE", "STRIDE", "probes_for_type",
           "probes_for", "with_nested_records", "spanned"]

#: What a probe measures.
SIZE = "size"  # sizeof(T)
ALIGN = "align"  # alignment of T
OFFSET = "offset"  # offsetof(T, member)
MEMBER_SIZE = "member size"  # sizeof(((T *)0)->member)
#: An array level's stride: the size of its first element, ``sizeof(((T *)0)->a[0])``
#: (``member`` is the element's designator, ``targets.shape.Array.designator``).
STRIDE = "stride"


@dataclass(frozen=True)
class Probe:
    """One number: ``quantity`` of type ``c_type`` (at ``member``, a C member path)."""

    c_type: str
    member: str  # "" for SIZE and ALIGN
    quantity: str
    expected: int
    #: The member's scalar type (``uint8``…), "" for a record member or the type itself:
    #: languages that keep scalars smaller than a word inside words (GLSL, WGSL) read those
    #: through accessors.
    scalar: str = ""
    #: The type's rule set (SPEC §1b): GLSL reads a type of ``std140`` or ``scalar`` rules in
    #: a block of that layout. An enum is its base scalar: a language without enum types
    #: (GLSL, WGSL: constants only) has no type of its name to measure.
    rules: str = "c"
    enum: bool = False
    #: A member-size probe of an array the rules end at its last element (``scalar``,
    #: ``hlsl-cbuffer``), where nothing uses that element's padding: the bytes it spans as
    #: count × stride (``targets.shape.Array.span``), which the languages whose arrays always
    #: span that (``Target.arrays_span``: C, Rust, Zig) declare and measure (0: none).
    span: int = 0

    @property
    def label(self) -> str:
        """How a person reads it: ``Geometry_particle.mass offset``, ``Geometry_point size``."""
        where = f"{self.c_type}.{self.member}" if self.member else self.c_type
        return f"{where} {self.quantity}"


def probes_for_type(st: SchemaType) -> List[Probe]:
    """Every probe of one schema type, in a stable order (size, alignment, then each member
    of its shape, parents first)."""
    c, rules = st.c_name, st.rules
    if st.is_enum:
        # An enum is a typedef of its base: alone, an 8-byte integer is 4-aligned on i386
        # (as int64_t is), and no language pins a typedef's alignment portably; a member of
        # it is pinned, and probed as a member of the type that holds it.
        return [Probe(c, "", SIZE, st.size, rules=rules, enum=True)]
    out: List[Probe] = [Probe(c, "", SIZE, st.size, rules=rules),
                        Probe(c, "", ALIGN, st.align, rules=rules)]
    for node in shape_of(st).nodes():
        if isinstance(node, Slot):
            m = node.member
            scalar = m.scalar.name if m.scalar is not None else ""
            out.append(Probe(c, node.path, OFFSET, m.offset, scalar, rules))
            out.append(Probe(c, node.path, MEMBER_SIZE, m.size, scalar, rules))
        elif isinstance(node, Array):  # the whole array, then each level's stride
            m = node.member
            scalar = m.scalar.name if m.scalar is not None else ""
            out.append(Probe(c, node.path, OFFSET, m.offset, scalar, rules))
            out.append(Probe(c, node.path, MEMBER_SIZE, m.size, scalar, rules,
                             span=node.span if node.tail_unpadded else 0))
            out.extend(Probe(c, node.designator(k), STRIDE, level.stride, scalar, rules)
                       for k, level in enumerate(node.levels))
        elif isinstance(node, (Union, Struct)):  # the union, a struct arm: where they start
            out.append(Probe(c, node.path, OFFSET, node.offset, rules=rules))
        else:  # a member kind the probes were not taught: refused, not probed in part
            raise TypeError(f"no probes for a {type(node).__name__} ({c}.{node.path})")
    return out


def with_nested_records(types: Iterable[SchemaType]) -> List[SchemaType]:
    """``types`` followed by every record they use (transitively) that is not among them,
    each once: the types whose probes prove ``types``' nested offsets."""
    chosen: Dict[int, SchemaType] = {}
    for st in types:
        chosen.setdefault(id(st), st)
    todo = list(chosen.values())
    while todo:
        for record in todo.pop().records_used():
            if id(record) not in chosen:
                chosen[id(record)] = record
                todo.append(record)
    return list(chosen.values())


def probes_for(types: Iterable[SchemaType]) -> List[Probe]:
    """The probes of several types and of the records they use, concatenated (the order
    drivers number them in)."""
    out: List[Probe] = []
    for st in with_nested_records(types):
        out.extend(probes_for_type(st))
    return out


def spanned(probes: List[Probe]) -> List[Probe]:
    """``probes`` as a language whose arrays always span count × stride measures them: each
    array's member size is its span (``Probe.span``); ``probes`` itself when none has one."""
    if not any(p.span for p in probes):
        return probes
    return [replace(p, expected=p.span) if p.span else p for p in probes]


def types_of(probes: Sequence[Probe]) -> List[str]:
    """The C type names the probes mention, in first-seen order."""
    seen: dict = {}
    for p in probes:
        seen.setdefault(p.c_type, None)
    return list(seen)
