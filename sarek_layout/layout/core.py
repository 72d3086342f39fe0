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
from functools import lru_cache
from typing import Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..errors import (LayoutError, MisalignedField, MixedRules, NestedVariant, TooLarge,
                      UnsupportedField)
from ..ir.types import (ElementType, Scalar, TArray, TEnum, TFixedArray, TMatrix, TRecord,
                        TVariant, TVec, TVector)
from .rules import (LARGEST_SIZE, RULE_SETS, RuleSet, Shape, array_shape, matrix_shape, place,
                    scalar_shape, struct_shape, vector_shape)

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
    "member_shape",
]


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)  # slots: many are made, and no __dict__ to collect
class Leaf:
    """One scalar leaf of a flattened aggregate; ``offset`` is from the element start.

    A leaf inside fixed arrays, vectors or matrices (SPEC §1b) stands for all its copies, once:
    ``count`` and ``stride`` list the repetitions, outermost first (``pts[].x`` of a
    ``point[16]`` of 12-byte points: count ``(16,)``, stride ``(12,)``; a ``vec3<float32>``:
    ``(3,)``, ``(4,)``), so leaves grow with members, never with elements."""

    path: str
    type: Scalar
    offset: int
    size: int
    align: int
    count: Tuple[int, ...] = ()
    stride: Tuple[int, ...] = ()


class MemberLayout(NamedTuple):
    """One member placed by the core: a record field, or a constructor argument ``_N``.

    ``path`` is how errors and leaves name it (``inner``, ``Pair._1``); ``offset`` is from
    the element start; ``type`` is a ``Scalar`` or a ``TRecord`` (``record_layout_of`` gives
    the latter's own layout). A tuple: many are made, and creating one must be cheap.
    """

    name: str
    path: str
    type: ElementType
    offset: int
    size: int
    align: int


def _leaves_of(members: Sequence[MemberLayout], rules: RuleSet) -> Tuple[Leaf, ...]:
    """The scalar leaves under ``members``, in declaration order, paths from the root."""
    out: List[Leaf] = []
    for m in members:
        t = m.type
        if isinstance(t, Scalar):
            out.append(Leaf(m.path, t, m.offset, m.size, m.align))
        else:
            out.extend(_leaves_in(t, m.path, m.offset, rules, (), ()))
    return tuple(out)


def _leaves_in(t: ElementType, path: str, base: int, rules: RuleSet,
               count: Tuple[int, ...], stride: Tuple[int, ...]) -> List[Leaf]:
    """The leaves of one member of type ``t`` at ``base``, inside ``count`` repetitions."""
    if isinstance(t, Scalar):
        return [Leaf(path, t, base, t.size, t.align, count, stride)]
    if isinstance(t, TEnum):
        return [Leaf(path, t.base, base, t.base.size, t.base.align, count, stride)]
    if isinstance(t, TVector):
        s = t.elem
        return [Leaf(path, s, base, s.size, s.align, count + (t.n,), stride + (s.size,))]
    if isinstance(t, TMatrix):
        s = t.elem
        column = member_shape(t, rules).stride
        return [Leaf(path, s, base, s.size, s.align, count + (t.cols, t.rows),
                     stride + (column, s.size))]
    if isinstance(t, TFixedArray):
        return _leaves_in(t.elem, path + "[]", base, rules, count + (t.count,),
                          stride + (member_shape(t, rules).stride,))
    prefix = path + "."
    return [
        Leaf(prefix + leaf.path, leaf.type, base + leaf.offset, leaf.size, leaf.align,
             count + leaf.count, stride + leaf.stride)
        for leaf in _nested_record_layout(t).leaves  # type: ignore[arg-type]
    ]


def _leaf_count(members: Sequence[MemberLayout]) -> int:
    return sum(_leaf_count_of(m.type) for m in members)


def _leaf_count_of(t: ElementType) -> int:
    while isinstance(t, TFixedArray):
        t = t.elem
    if isinstance(t, TRecord):
        return _nested_record_layout(t).leaf_count
    return 1


def _placed(items: Sequence[Tuple[str, ElementType]], offsets: Sequence[int],
            prefix: str, rules: RuleSet) -> Tuple[MemberLayout, ...]:
    out = []
    for (name, t), offset in zip(items, offsets):
        shape = member_shape(t, rules)
        out.append(MemberLayout(name, prefix + name, t, offset, shape.size, shape.align))
    return tuple(out)


class RecordLayout:
    """``fields``: ``(name, offset)`` of each immediate field; ``members``: the same with
    types and sizes; ``leaves``: every scalar, flattened (SPEC §2).

    Only the offsets, the size and the alignment are computed when a record is laid out;
    ``fields``, ``members`` and ``leaves`` are built from them on first use, so laying out
    is cheap and deep nesting costs nothing until its leaves are asked for.
    """

    __slots__ = ("_input", "_offsets", "size", "align", "rules", "_fields", "_members",
                 "_leaves", "_leaf_count")

    def __init__(self, fields: Sequence[Tuple[str, ElementType]], offsets: Sequence[int],
                 size: int, align: int, rules: RuleSet = RULE_SETS["c"]) -> None:
        self._input = fields
        self._offsets = offsets
        self.size = size
        self.align = align
        #: The rule set it was laid out by (SPEC §1b).
        self.rules = rules
        self._fields: Optional[Tuple[Tuple[str, int], ...]] = None
        self._members: Optional[Tuple[MemberLayout, ...]] = None
        self._leaves: Optional[Tuple[Leaf, ...]] = None
        self._leaf_count: Optional[int] = None

    @property
    def fields(self) -> Tuple[Tuple[str, int], ...]:
        if self._fields is None:
            self._fields = tuple((name, off) for (name, _), off in zip(self._input, self._offsets))
        return self._fields

    @property
    def offsets(self) -> Sequence[int]:
        """The offset of each immediate field, in declaration order."""
        return self._offsets

    @property
    def members(self) -> Tuple[MemberLayout, ...]:
        if self._members is None:
            self._members = _placed(self._input, self._offsets, "", self.rules)
        return self._members

    @property
    def leaves(self) -> Tuple[Leaf, ...]:
        if self._leaves is None:
            self._leaves = _leaves_of(self.members, self.rules)
        return self._leaves

    @property
    def leaf_count(self) -> int:
        """``len(self.leaves)``, without building them."""
        if self._leaf_count is None:
            self._leaf_count = _leaf_count(self.members)
        return self._leaf_count

    def _key(self) -> tuple:
        return (tuple(self._input), tuple(self._offsets), self.size, self.align, self.rules.name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordLayout):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"RecordLayout(fields={self.fields!r}, size={self.size}, align={self.align})"


class CtorLayout:
    """One constructor: tag = declaration index; ``args`` and ``leaves`` are absolute,
    named ``Ctor._N``; built on first use, like ``RecordLayout``'s."""

    __slots__ = ("name", "tag", "payload_size", "_types", "_offsets", "_rules", "_args",
                 "_leaves", "_leaf_count")

    def __init__(self, name: str, tag: int, payload_size: int,
                 types: Sequence[ElementType] = (), offsets: Sequence[int] = (),
                 rules: RuleSet = RULE_SETS["c"]) -> None:
        self.name = name
        self.tag = tag
        self.payload_size = payload_size
        self._types = tuple(types)
        self._offsets = tuple(offsets)
        self._rules = rules
        self._args: Optional[Tuple[MemberLayout, ...]] = None
        self._leaves: Optional[Tuple[Leaf, ...]] = None
        self._leaf_count: Optional[int] = None

    @property
    def args(self) -> Tuple[MemberLayout, ...]:
        if self._args is None:
            items = [(f"_{i}", t) for i, t in enumerate(self._types)]
            self._args = _placed(items, self._offsets, self.name + ".", self._rules)
        return self._args

    @property
    def leaves(self) -> Tuple[Leaf, ...]:
        if self._leaves is None:
            self._leaves = _leaves_of(self.args, self._rules)
        return self._leaves

    @property
    def leaf_count(self) -> int:
        if self._leaf_count is None:
            self._leaf_count = _leaf_count(self.args)
        return self._leaf_count

    def _key(self) -> tuple:
        return (self.name, self.tag, self.payload_size, self._types, self._offsets)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CtorLayout):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"CtorLayout(name={self.name!r}, tag={self.tag}, payload_size={self.payload_size})"


@dataclass(frozen=True)
class VariantLayout:
    """``[tag:int32 @ tag_offset][payload @ payload_offset]``; ``align == payload_offset``, at
    least the rule set's structure alignment (16 under std140 and hlsl-cbuffer)."""

    tag_offset: int
    payload_offset: int
    ctors: Tuple[CtorLayout, ...]
    size: int
    align: int
    #: The rule set its arguments were laid out by (SPEC §1b).
    rules: RuleSet = field(default=RULE_SETS["c"], compare=False)


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
    """Byte size of a scalar (the scalar table's): 1 for uint8, 2 for float16, 4 for
    int32/float32/bool/unit, 8 for int64/float64."""
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


def _rule_set(name: str) -> RuleSet:
    rules = RULE_SETS.get(name)
    if rules is None:  # the readers refuse an unknown name; a hand-built elttype may not
        raise ValueError(f"unknown rule set {name!r}: one of {', '.join(RULE_SETS)}")
    return rules


def member_shape(t: ElementType, rules: RuleSet, type_name: str = "<element>",
                 path: str = "<self>") -> Shape:
    """The ``Shape`` (size, alignment, stride) of a member of type ``t`` laid out by
    ``rules``: a scalar, an enum, a vector, a matrix, a fixed array or a record of the same
    rule set. Errors name ``type_name`` and the member's ``path``: a variant (*nested
    variant*), Sarek's ``T array``/``T vector`` (*unsupported field*), a record of another
    rule set (*mixed rules*) and anything over ``LARGEST_SIZE`` bytes (*too large*)."""
    cls = type(t)
    if cls is Scalar:
        return scalar_shape(t.size)  # type: ignore[attr-defined]
    if cls is TRecord:
        if t.rules != rules.name:  # type: ignore[attr-defined]
            raise LayoutError(MixedRules(type_name, path, t.name, t.rules, rules.name))  # type: ignore[attr-defined]
        try:
            inner = _nested_record_layout(t)  # type: ignore[arg-type]
        except LayoutError as e:
            # Re-anchor the error on the root type, with the full dotted path.
            raise LayoutError(_reroot(e.error, type_name, path)) from None
        return Shape(inner.size, inner.align)
    if cls is TEnum:
        return scalar_shape(t.base.size)  # type: ignore[attr-defined]
    if cls is TVector:
        return vector_shape(rules, t.elem.size, t.n)  # type: ignore[attr-defined]
    if cls is TMatrix:
        shape = matrix_shape(rules, t.elem.size, t.cols, t.rows)  # type: ignore[attr-defined]
    elif cls is TFixedArray:
        elem = member_shape(t.elem, rules, type_name, path + "[]")  # type: ignore[attr-defined]
        shape = array_shape(rules, elem, t.count)  # type: ignore[attr-defined]
    elif isinstance(t, TVariant):
        raise LayoutError(NestedVariant(type_name, path))
    elif isinstance(t, (TArray, TVec)):
        raise LayoutError(UnsupportedField(type_name, path, unsupported_kind(t)))
    elif isinstance(t, Scalar):
        return scalar_shape(t.size)
    else:
        raise TypeError(f"not an elttype: {t!r} (field {path!r} of {type_name!r})")
    if shape.size > LARGEST_SIZE:
        raise LayoutError(TooLarge(type_name, path, shape.size))
    return shape


def _place(
    type_name: str, members: Sequence[Tuple[str, ElementType]], start: int, path_prefix: str,
    rules: RuleSet = RULE_SETS["c"],
) -> Tuple[List[int], int, int]:
    """Lay ``members`` out from ``start`` by C struct rules (or ``rules``' own, SPEC §1b).

    Returns their offsets, the end offset of the last one and the largest member alignment
    (1 when there are none). Errors name ``type_name`` and the member's path
    (``path_prefix`` + name), re-rooted through nested records. Every placed offset is a
    multiple of its member's alignment by construction (the guard, ``_check_alignment``,
    stands for Sarek's defensive invariant).
    """
    offsets: List[int] = []
    offset = start
    max_align = 1
    for name, t in members:
        if type(t) is Scalar:  # the hot loop: Sarek's own scalars first
            size = align = t.size  # type: ignore[attr-defined]
            offset = (offset + align - 1) & -align  # align_up, inlined
        else:
            shape = member_shape(t, rules, type_name, path_prefix + name)
            size, align = shape.size, shape.align
            offset = place(rules, offset, shape)
        offsets.append(offset)
        offset += size
        if align > max_align:
            max_align = align
    if offset > LARGEST_SIZE:
        raise LayoutError(TooLarge(type_name, path_prefix.rstrip(".") or "<self>", offset))
    return offsets, offset, max_align


def _reroot(error, type_name: str, field_path: str):
    """The same error, reported against the enclosing type at ``field_path.<inner path>``."""
    inner_field = f"{field_path}.{error.field}"
    if isinstance(error, NestedVariant):
        return NestedVariant(type_name, inner_field)
    if isinstance(error, UnsupportedField):
        return UnsupportedField(type_name, inner_field, error.what)
    if isinstance(error, MixedRules):
        return MixedRules(type_name, inner_field, error.inner_type, error.inner_rules,
                          error.rules)
    if isinstance(error, TooLarge):
        return TooLarge(type_name, inner_field, error.size)
    return MisalignedField(type_name, inner_field, error.offset, error.required_align)


def _check_alignment(type_name: str, placed: Sequence) -> None:
    """The defensive invariant of Sarek's layout: every member (or leaf) sits on its
    alignment. ``_place`` aligns every offset it hands out, so this is a guard for code that
    builds placements otherwise (and it is tested live)."""
    for item in placed:
        if item.offset % item.align:
            raise LayoutError(MisalignedField(type_name, item.path, item.offset, item.align))


# Unbounded on purpose: evicting an inner record would re-lay it out at its next use and,
# with a long chain of nested records, recurse deeply. The cache holds one small layout per
# distinct record type; ``_nested_record_layout.cache_clear()`` empties it.
@lru_cache(maxsize=None)
def _nested_record_layout(t: TRecord) -> RecordLayout:
    return record_layout(t.name, t.fields, t.rules)


def record_layout_of(t: TRecord) -> RecordLayout:
    """The layout of a ``TRecord`` value, memoised (raises ``LayoutError`` like ``record_layout``)."""
    return _nested_record_layout(t)


def member_size_align(t: ElementType, rules: str = "c") -> Tuple[int, int]:
    """``(size, align)`` of a record member or payload argument under the rule set named
    ``rules``: a scalar, a nested record or any member kind of SPEC §1b."""
    shape = member_shape(t, _rule_set(rules))
    return shape.size, shape.align


def record_layout(type_name: str, fields: Iterable[Tuple[str, ElementType]],
                  rules: str = "c") -> RecordLayout:
    """Aligned layout of a record (by the rule set named ``rules``, SPEC §1b); raises
    ``LayoutError`` for variant or Sarek array/vector fields."""
    items = fields if isinstance(fields, (tuple, list)) else list(fields)
    rule_set = _rule_set(rules)
    offsets, end, max_align = _place(type_name, items, 0, "", rule_set)
    shape = struct_shape(rule_set, end, max_align)
    return RecordLayout(items, offsets, shape.size, shape.align, rule_set)


def _payload_align(t: ElementType, rules: RuleSet) -> int:
    """Alignment a payload argument asks for; errors are raised later, with the path."""
    if isinstance(t, Scalar):
        return t.align
    try:
        return member_shape(t, rules).align
    except LayoutError:
        return 1


def variant_layout(
    type_name: str, ctors: Iterable[Tuple[str, Iterable[ElementType]]], rules: str = "c"
) -> VariantLayout:
    """Aligned layout of a variant: int32 tag at 0, payload at ``max(4, max arg align)``;
    the arguments' sizes and alignments are those of the rule set named ``rules``."""
    rule_set = _rule_set(rules)
    ctor_list = [(name, tuple(args)) for name, args in ctors]
    payload_offset = 4
    for _, args in ctor_list:
        for arg in args:
            payload_offset = max(payload_offset, _payload_align(arg, rule_set))
    ctor_layouts = []
    max_payload = 0
    for tag, (name, args) in enumerate(ctor_list):
        members = [(f"_{i}", arg) for i, arg in enumerate(args)]
        offsets, end, arg_align = _place(type_name, members, payload_offset, name + ".",
                                         rule_set)
        payload_size = align_up(end - payload_offset, arg_align) if args else 0
        max_payload = max(max_payload, payload_size)
        ctor_layouts.append(CtorLayout(name, tag, payload_size, args, offsets, rule_set))
    # A variant is a structure of its rule set: 16-aligned in a constant buffer or a std140
    # block (Slang's reflection puts an hlsl-cbuffer variant on a register of its own), its
    # size rounded up to that where the rule set rounds structures.
    whole = struct_shape(rule_set, align_up(payload_offset + max_payload, payload_offset),
                         payload_offset)
    if whole.size > LARGEST_SIZE:
        raise LayoutError(TooLarge(type_name, "<self>", whole.size))
    return VariantLayout(0, payload_offset, tuple(ctor_layouts), whole.size, whole.align,
                         rule_set)


def elttype_layout(t: ElementType) -> Layout:
    """Dispatch on ``t``: scalars, records and variants; arrays/vectors are unsupported."""
    if isinstance(t, Scalar):
        return ScalarLayout(t.size, t.align)
    if isinstance(t, TRecord):
        return record_layout(t.name, t.fields, t.rules)
    if isinstance(t, TVariant):
        return variant_layout(t.name, t.ctors, t.rules)
    if isinstance(t, (TArray, TVec)):
        raise LayoutError(UnsupportedField("<element>", "<self>", unsupported_kind(t)))
    if isinstance(t, (TEnum, TVector, TMatrix, TFixedArray)):
        shape = member_shape(t, RULE_SETS["c"])
        return ScalarLayout(shape.size, shape.align)
    raise TypeError(f"not an elttype: {t!r}")
