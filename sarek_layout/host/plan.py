"""Byte plans: how one record or constructor is packed with a single ``struct`` call.

A *plan* is the one host-side reading of a type's member model (``SchemaType.members``/
``items``/``arms``, filled in by ``layout.members``): the API codecs (``codec``) and their
compiled fast functions (``fast``), the numpy dtypes (``dtype``) and the generated
standalone module (``python_target``) all read it. For one record type or one constructor
it holds its own members, in offset order, and the ``struct`` format (``=`` mode: native
byte order, standard sizes, no implicit alignment; every padding byte an explicit ``x``, so
it is always written as zero) with the *slots*, the values the format takes, in order.

Plans are linear in the schema. A plan covers its own members only; a nested record member
is either

* *inlined*: the nested plan's slots are spliced in, so the common small nesting (a point
  in a particle) still costs one ``pack`` per element; or
* *opaque*: one ``Ns`` slot holding the nested record's bytes, which its own plan (and
  codec, or generated encoder) produces and reads back,

and it is inlined only while the plan stays within ``INLINE_SLOTS`` slots (and ``INLINE_DEPTH``
levels of inlined nesting, which keeps generated expressions far below Python's parser
limits). So every plan has a bounded number of slots beyond its own scalar members, is built
once per record type from the nested plans (memoised), and a record of two copies of a
record of two copies… (millions of leaves in 22 levels) gets 22 small plans.

A member of SPEC §1b's kinds (a fixed array, a vector, a matrix: ``Member.dims``) is one
slot whatever its element count, with a ``Repeat``: its elements back to back are packed in
place as ``count`` values of one repeated format item (``16f``); with padding between them
(a std430 ``vec3<float32>[2]``, a std140 ``float32[4]``) or records as elements, it is an
opaque ``Ns`` slot that the runtime's ``_sarek_Repeat`` packs in rows (``3f4x`` twice), so
a plan's size and the work of building it do not depend on element counts. An enum member
is a slot of its base scalar whose value is checked against the enum's values.

Plans read members and holes from the member model; nothing here computes an offset (a bare
elttype gets its member model from ``host.model``): the rows are the strides of
``Member.dims``. Every scalar fact (its ``struct`` character) comes from the scalar table
(``ir.types.Scalar``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

from ..ir.schema import Dim, Hole, Item, Member, SchemaType
from ..ir.types import Scalar

__all__ = [
    "INLINE_SLOTS",
    "INLINE_DEPTH",
    "Repeat",
    "PlanMember",
    "Slot",
    "RecordPlan",
    "CtorPlan",
    "VariantPlan",
    "Plan",
    "plan_of",
]

#: Most slots a plan may reach by inlining nested records (its own scalar members always
#: count, however many). Measured in bench/ANALYSIS.md ("Host plans"): below ~64 slots one
#: flat ``pack`` beats a nested encoder call clearly; beyond, the per-slot cost dominates and
#: the generated functions only grow.
INLINE_SLOTS = 64

#: Most levels of nested records inlined into one plan.
INLINE_DEPTH = 16

#: Entries a host memo keeps before it is emptied (a long-lived process may see many schemas).
LIMIT = 1 << 16

K = TypeVar("K")
V = TypeVar("V")


def memoised(memo: Dict[K, V], key: K, build: Callable[[], V], limit: int = LIMIT) -> V:
    """``memo[key]``, built by ``build()`` on first use; the memo is emptied when it holds
    more than ``limit`` entries (the host's caches of models, plans, dtypes and codecs)."""
    found = memo.get(key)
    if found is None:
        if len(memo) > limit:
            memo.clear()
        found = memo[key] = build()
    return found


class Repeat(NamedTuple):
    """How a member that repeats its element (``Member.dims``) is packed: the arguments of
    the runtime's ``_sarek_Repeat`` (``host._runtime``), read from the strides.

    ``shape`` is the counts, outermost first (the value's nesting); the bytes are ``rows``
    rows of ``row`` (a ``struct`` format without its ``=``: ``per_row`` elements, then the
    padding up to the next row), cut to the member's size. ``inline``: the elements are
    back to back scalars, so the plan's own format packs them in place (``row`` is then
    ``{count}{char}``, one row).
    """

    shape: Tuple[int, ...]
    count: int
    row: str
    per_row: int
    rows: int
    inline: bool


class Slot(NamedTuple):
    """One item of the ``struct`` format: a scalar, the bytes of an opaque nested record, or
    a repeated member (``member.repeat``: ``count`` values in place, or its bytes).

    ``path`` is the dotted path from the element (``pos.x``, ``Circle._0.x``, ``big.a``) as
    the layout names it, for messages and offset tables; ``offset`` is from the element
    start. ``member`` is the plan member the slot packs, where it is a repeated or an enum
    member (which the codecs need whole).
    """

    path: str
    offset: int
    scalar: Optional[Scalar]
    record: Optional["RecordPlan"]
    #: Values the format item takes (a repeated member packed in place: its element count).
    count: int = 1
    member: Optional["PlanMember"] = None

    @property
    def format(self) -> str:
        m = self.member
        if m is not None and m.repeat is not None:
            return m.repeat.row if m.repeat.inline else f"{m.size}s"
        return self.scalar.struct_format if self.scalar is not None else f"{self.record.size}s"  # type: ignore[union-attr]


class PlanMember(NamedTuple):
    """One member of a plan: a record field, or a constructor argument ``_N``.

    Exactly one of ``scalar`` and ``record`` is set (of the element, for a repeated member);
    a record member is ``inline`` (its plan's members are packed in place) or not (one opaque
    slot); a repeated member (``dims``, a fixed array, a vector or a matrix) has its
    ``repeat``, and an enum member (or an array of one) its ``enum`` type (``scalar`` is the
    enum's base). ``step`` reads it from the Python value: the field name, or the argument
    index. ``offset`` is from the start of the plan's element (a record's own start; for
    constructor arguments, the variant's).
    """

    name: str
    step: Union[str, int]
    offset: int
    size: int
    scalar: Optional[Scalar]
    record: Optional["RecordPlan"]
    inline: bool
    dims: Tuple[Dim, ...] = ()
    repeat: Optional[Repeat] = None
    enum: Optional[SchemaType] = None

    @property
    def elements(self) -> int:
        """Elements the member holds (1 unless it repeats one)."""
        return self.repeat.count if self.repeat is not None else 1


@dataclass(frozen=True, eq=False)
class RecordPlan:
    """The plan of one record type."""

    #: The record type whose member model this plan reads.
    key: SchemaType
    #: The record's name in messages: its declared name, without the module.
    name: str
    size: int
    align: int
    members: Tuple[PlanMember, ...]
    slots: Tuple[Slot, ...]
    #: The format's items without the ``=`` prefix, adjacent padding merged.
    tokens: Tuple[str, ...]
    #: Levels of nested records inlined (0: none).
    depth: int = 0
    #: Scalars in one element, nested records included (what decoding builds).
    leaves: int = 0
    names: Tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(m.name for m in self.members))

    @property
    def format(self) -> str:
        return "=" + "".join(self.tokens)


@dataclass(frozen=True, eq=False)
class CtorPlan:
    """One constructor: the whole element packed with this constructor's tag."""

    name: str
    tag: int
    #: The arguments ``_0``, ``_1``… (steps are the argument indices).
    members: Tuple[PlanMember, ...]
    #: The arguments' slots; the format's first value is the tag, before them.
    slots: Tuple[Slot, ...]
    tokens: Tuple[str, ...]
    #: Scalars in the arguments, nested records included.
    leaves: int = 0

    @property
    def format(self) -> str:
        return "=" + "".join(self.tokens)


@dataclass(frozen=True, eq=False)
class VariantPlan:
    """The plan of one variant type: one ``CtorPlan`` per constructor, in tag order."""

    key: SchemaType
    name: str
    size: int
    align: int
    tag_offset: int
    payload_offset: int
    ctors: Tuple[CtorPlan, ...]

    @property
    def leaves(self) -> int:
        """Scalars in one element of its largest constructor."""
        return max((c.leaves for c in self.ctors), default=0)


Plan = Union[RecordPlan, VariantPlan]


# --- building -----------------------------------------------------------------------------------


def _merge(tokens: List[str], more: Iterable[str]) -> None:
    """Append ``more`` to ``tokens``, merging adjacent padding (``4x`` + ``4x`` = ``8x``)."""
    for token in more:
        if tokens and token.endswith("x") and tokens[-1].endswith("x"):
            tokens[-1] = f"{int(tokens[-1][:-1]) + int(token[:-1])}x"
        else:
            tokens.append(token)


def _leaves(members: Sequence[PlanMember]) -> int:
    return sum(m.elements * (1 if m.record is None else m.record.leaves) for m in members)


def _repeated(item: Member, step: Union[str, int]) -> PlanMember:
    """The plan member of a fixed array, vector or matrix: its element and its rows."""
    record = _nested(item.record) if item.record is not None else None
    element = item.scalar.size if item.scalar is not None else record.size  # type: ignore[union-attr]
    # A char array's bytes are packed as byte values (its texts are turned into them).
    char = None if item.scalar is None else "B" if item.scalar.is_char else item.scalar.struct_format
    repeat = repeat_of(item.dims, element, char, item.size)
    return PlanMember(item.name, step, item.offset, item.size, item.scalar, record, False,
                      item.dims, repeat, item.enum)


#: Plans built, by schema type (a ``SchemaType`` is hashed and compared by identity).
_PLANS: Dict[SchemaType, Plan] = {}


def plan_of(st: SchemaType) -> Plan:
    """The plan of a resolved record or variant type, from its member model, memoised;
    nested records are the model's own (``RecordPlan.key`` is the nested ``SchemaType``).
    An elttype's model is ``host.model.model_of(t)``."""
    return memoised(_PLANS, st, lambda: _build(st))


def _build(st: SchemaType) -> Plan:
    if st.kind == "record":
        return _record(st)
    if st.kind == "variant":
        return _variant(st)
    raise TypeError(f"{st.qualified_name} is an {st.kind}: only records and variants are "
                    f"element types (an enum is the type of a member)")


def repeat_of(dims: Sequence[Dim], element_size: int, char: Optional[str], size: int) -> Repeat:
    """The rows of a member repeating an element of ``element_size`` bytes (a scalar of
    ``struct`` character ``char``, or a record: ``None``) as ``dims`` say, ``size`` bytes in
    all.

    Levels whose elements follow each other exactly (a ``float32[4][4]``; a std430
    ``vec3[2][3]``, whose inner array's stride is the outer one's element; any level of one
    element) merge into one. What is left is a run of scalars back to back, or one element,
    then the levels of padded elements: the outermost of them makes the rows, and the format
    of one row spells the levels inside it (a wgsl-uniform ``mat3x3<float16>[N]``: rows of
    three 6-byte columns 8 bytes apart, then the padding to 32), so the format grows with the
    counts inside a padded level (a matrix's columns), never with the outer count."""
    shape = tuple(d.count for d in dims)
    count = 1
    for n in shape:
        count *= n
    levels: List[Tuple[int, int]] = []  # (count, stride), outermost first, merged
    for d in reversed(dims):
        inner = levels[0][0] * levels[0][1] if levels else element_size
        stride = d.stride if d.count > 1 else inner  # one element: no stride to keep
        if stride == inner and (levels or char is not None):
            if levels:
                levels[0] = (d.count * levels[0][0], levels[0][1])
            else:
                levels.append((d.count, stride))
        else:
            levels.insert(0, (d.count, stride))
    if char is not None and levels and levels[-1][1] == element_size:
        run, padded = levels[-1][0], levels[:-1]  # scalars back to back
    else:
        run, padded = 1, levels  # each element, then the padding to its stride
    item = f"{run}{char}" if char is not None else f"{element_size}s"
    if not padded:
        return Repeat(shape, count, item, run, 1, char is not None and run * element_size == size)
    rows, step = padded[0]
    tokens, extent = _row(padded[1:], item, run * element_size)
    per_row = run
    for n, _ in padded[1:]:
        per_row *= n
    row = tokens + (f"{step - extent}x" if step > extent else "")
    return Repeat(shape, count, row, per_row, rows, False)


def _row(levels: Sequence[Tuple[int, int]], item: str, item_size: int) -> Tuple[str, int]:
    """The ``struct`` format of one element of the level around ``levels`` (each ``(count,
    stride)``, outermost first, around ``item``), and the bytes it spans up to the end of
    its last element."""
    if not levels:
        return item, item_size
    n, stride = levels[0]
    inner, extent = _row(levels[1:], item, item_size)
    pad = f"{stride - extent}x" if stride > extent else ""
    return (inner + pad) * (n - 1) + inner, (n - 1) * stride + extent


def _record(st: SchemaType) -> RecordPlan:
    members, slots, tokens, depth = _place(st.items, "")
    return RecordPlan(st, st.name, st.size, st.align, members, slots, tuple(tokens), depth,
                      _leaves(members))


def _variant(st: SchemaType) -> VariantPlan:
    (tag,) = st.members
    # Every constructor's format starts with the element's head: the tag, packed first but
    # no member of the constructor (its arguments are named ``_N``), and the bytes up to the
    # payload.
    head: List[str] = []
    for item in st.items:
        _merge(head, (f"{item.size}x",) if isinstance(item, Hole)
               else (item.scalar.struct_format,))  # type: ignore[union-attr]  # the tag: int32
    ctors = []
    for arm in st.arms:
        members, slots, tokens, _ = _place(arm.items, arm.name + ".")
        ctors.append(CtorPlan(arm.name, arm.tag, members, slots, tuple(_joined(head, tokens)),
                              _leaves(members)))
    return VariantPlan(st, st.name, st.size, st.align, tag.offset, st.payload_offset, tuple(ctors))


def _joined(head: List[str], tokens: List[str]) -> List[str]:
    out = list(head)
    _merge(out, tokens)
    return out


def _nested(st: SchemaType) -> RecordPlan:
    plan = plan_of(st)
    assert isinstance(plan, RecordPlan), st
    return plan


def _place(
    items: Sequence[Item], prefix: str
) -> Tuple[Tuple[PlanMember, ...], Tuple[Slot, ...], List[str], int]:
    """Members, slots, format tokens and inlined depth of one struct's ``items``: its
    members and holes in offset order (a record's whole element; a constructor's payload
    region, its arguments named ``_N`` and read by index, ``prefix`` being ``Ctor.``)."""
    members: List[PlanMember] = []
    slots: List[Slot] = []
    tokens: List[str] = []
    depth = 0
    left = sum(1 for item in items if not isinstance(item, Hole))  # members not yet placed
    for item in items:
        if isinstance(item, Hole):
            _merge(tokens, (f"{item.size}x",))
            continue
        left -= 1
        name, offset, size = item.name, item.offset, item.size
        step: Union[str, int] = int(name[1:]) if prefix else name
        path = prefix + name
        if item.dims:
            m = _repeated(item, step)
            members.append(m)
            slots.append(Slot(path, offset, m.scalar, None, m.repeat.count if m.repeat.inline else 1, m))  # type: ignore[union-attr]
            _merge(tokens, (slots[-1].format,))
            continue
        if item.scalar is not None:
            m = PlanMember(name, step, offset, size, item.scalar, None, False, enum=item.enum)
            members.append(m)
            slots.append(Slot(path, offset, item.scalar, None, 1, m if item.enum is not None else None))
            _merge(tokens, (item.scalar.struct_format,))
            continue
        inner = _nested(item.record)  # type: ignore[arg-type]
        inline = (len(slots) + len(inner.slots) + left <= INLINE_SLOTS
                  and inner.depth < INLINE_DEPTH)
        members.append(PlanMember(name, step, offset, size, None, inner, inline))
        if inline:
            slots.extend(s._replace(path=f"{path}.{s.path}", offset=offset + s.offset)
                         for s in inner.slots)
            _merge(tokens, inner.tokens)
            depth = max(depth, inner.depth + 1)
        else:
            slots.append(Slot(path, offset, None, inner))
            _merge(tokens, (f"{size}s",))
    return tuple(members), tuple(slots), tokens, depth
