"""The member model of one resolved type: its members, the holes between them, its arms.

Filled in once, when the schema is resolved (``resolve`` calls ``members_of``),
from the layout core's placed members and the declaration they came from. Every later
stage reads it: header views take their padding runs from the holes, explain draws them,
the host codecs skip them, verify probes the members. Nothing after this module computes an
offset, a hole or the C name of a member's type.

Pure: plain arithmetic over the core's numbers, no I/O.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple, Union

from ..errors import LayoutError, MisalignedField
from ..ir.schema import (
    ARRAY,
    HOLE,
    MATRIX,
    VECTOR,
    Dim,
    TAIL,
    UNUSED,
    Arm,
    EnumDecl,
    Hole,
    Item,
    Member,
    RecordDecl,
    SchemaType,
    TypeExpr,
    VariantDecl,
)
from ..ir.types import ElementType, Scalar, TEnum, TFixedArray, TInt32, TMatrix, TVector
from .core import MemberLayout, RecordLayout, VariantLayout, _check_alignment, member_shape
from .rules import RuleSet

__all__ = ["with_holes", "members_of", "dims_of"]

#: What a member's type resolved to: a scalar of the table, the laid-out record, or, for the
#: member kinds of SPEC §1b, ``(elttype, schema type repeated or None)``.
MemberType = Union[Scalar, SchemaType, Tuple[ElementType, Optional[SchemaType]]]


def dims_of(t: ElementType, rules: RuleSet) -> Tuple[Tuple[Dim, ...], ElementType]:
    """The repetitions of a member of type ``t`` (outermost first) and the element they
    repeat: a scalar, an enum or a record."""
    dims: List[Dim] = []
    while True:
        if isinstance(t, TFixedArray):
            dims.append(Dim(ARRAY, t.count, member_shape(t, rules).stride))
            t = t.elem
        elif isinstance(t, TVector):
            dims.append(Dim(VECTOR, t.n, t.elem.size))
            return tuple(dims), t.elem
        elif isinstance(t, TMatrix):
            dims.append(Dim(MATRIX, t.cols, member_shape(t, rules).stride))
            dims.append(Dim(VECTOR, t.rows, t.elem.size))
            return tuple(dims), t.elem
        else:
            return tuple(dims), t


def _kind_member(name: str, offset: int, size: int, align: int, t: ElementType,
                 named: Optional[SchemaType], spelling: str, location, rules: RuleSet) -> Member:
    """A member of one of SPEC §1b's kinds (or an enum): its dims and its element."""
    dims, elem = dims_of(t, rules)
    if isinstance(elem, TEnum):
        return Member(name, offset, size, align, elem.base, None, spelling, location, dims,
                      named)
    if isinstance(elem, Scalar):
        return Member(name, offset, size, align, elem, None, spelling, location, dims)
    return Member(name, offset, size, align, None, named, spelling, location, dims)


def with_holes(members: Sequence[Member], start: int, end: int, last: str = TAIL) -> Tuple[Item, ...]:
    """``members`` (in offset order) with a ``Hole`` in every gap of ``[start, end)``; the gap
    after the last member is of kind ``last``, the others ``HOLE``."""
    items: List[Item] = []
    append = items.append
    cursor = start
    for m in members:
        offset = m.offset
        if offset > cursor:
            append(Hole(cursor, offset - cursor, HOLE))
        append(m)
        cursor = offset + m.size
    if end > cursor:
        append(Hole(cursor, end - cursor, last))
    return tuple(items)


def _member(placed: MemberLayout, t: MemberType, expr: Optional[TypeExpr], location,
            rules: RuleSet) -> Member:
    if isinstance(t, Scalar):
        return Member(placed.name, placed.offset, placed.size, placed.align, t, None, t.name,
                      location)
    if isinstance(t, tuple):
        return _kind_member(placed.name, placed.offset, placed.size, placed.align, t[0], t[1],
                            str(expr), location, rules)
    return Member(placed.name, placed.offset, placed.size, placed.align, None, t,
                  str(expr) if expr is not None else t.name, location)


def _record_members(decl: RecordDecl, layout: RecordLayout,
                    member_types: Sequence[Sequence[MemberType]]) -> Tuple[Member, ...]:
    """A record's members straight from the core's offsets: the hot path of resolving
    (one per field of every record), so the core's ``MemberLayout``s, which would only be
    copied, are not built (nor kept on the layout)."""
    out: List[Member] = []
    append = out.append
    new = tuple.__new__  # the named tuple without its generated __new__'s Python frame
    rules = layout.rules
    for f, offset, (t,) in zip(decl.fields, layout.offsets, member_types):
        if type(t) is Scalar:
            m = new(Member, (f.name, offset, t.size, t.align, t, None, t.name, f.location, (),
                             None))
        elif type(t) is tuple:
            shape = member_shape(t[0], rules)
            size, align = shape.size, shape.align
            m = _kind_member(f.name, offset, size, align, t[0], t[1], str(f.type), f.location,
                             rules)
        else:
            m = new(Member, (f.name, offset, t.size, t.align, None, t,  # type: ignore[arg-type]
                             str(f.type) if f.type is not None else t.name, f.location, (),
                             None))
        if offset % m.align:  # the core's invariant (``_check_alignment``), checked here
            raise LayoutError(MisalignedField(decl.name, f.name, offset, m.align))
        append(m)
    return tuple(out)


def members_of(
    decl: Union[RecordDecl, VariantDecl],
    layout: Union[RecordLayout, VariantLayout],
    member_types: Sequence[Sequence[MemberType]],
) -> Tuple[Tuple[Member, ...], Tuple[Item, ...], Tuple[Arm, ...]]:
    """``(members, items, arms)`` of one type.

    ``member_types[i]`` lists what the i-th field (one entry) or constructor (one per
    argument) of ``decl`` resolved to, in declaration order.
    """
    if isinstance(decl, EnumDecl):
        return (), (), ()
    if isinstance(decl, RecordDecl):
        assert isinstance(layout, RecordLayout)
        members = _record_members(decl, layout, member_types)
        return members, with_holes(members, 0, layout.size, TAIL), ()

    assert isinstance(layout, VariantLayout)
    p = layout.payload_offset
    tag = Member("tag", layout.tag_offset, TInt32.size, TInt32.align, TInt32, None, TInt32.name,
                 decl.location)
    # The element's own items end where the payload starts: from there each constructor's
    # items span the bytes (its arguments, then what it leaves unused).
    head = with_holes((tag,), 0, p, HOLE)
    arms = []
    for ctor, c, types in zip(layout.ctors, decl.ctors, member_types):
        _check_alignment(decl.name, ctor.args)
        args = tuple(
            _member(placed, t, expr, expr.location, layout.rules)
            for placed, t, expr in zip(ctor.args, types, c.args)
        )
        items = with_holes(args, p, p + ctor.payload_size, TAIL)
        unused = layout.size - p - ctor.payload_size
        if unused > 0:
            items += (Hole(p + ctor.payload_size, unused, UNUSED),)
        arms.append(Arm(ctor.name, ctor.tag, ctor.payload_size, args, items, c.location))
    return (tag,), head, tuple(arms)
