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

Plans read members and holes from the member model; nothing here computes an offset (a bare
elttype gets its member model from ``host.model``). Every scalar fact (its ``struct``
character) comes from the scalar table (``ir.types.Scalar``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

from ..ir.schema import Hole, Item, Member, SchemaType
from ..ir.types import Scalar

__all__ = [
    "INLINE_SLOTS",
    "INLINE_DEPTH",
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


class Slot(NamedTuple):
    """One value of the ``struct`` format: a scalar, or the bytes of an opaque nested record.

    ``path`` is the dotted path from the element (``pos.x``, ``Circle._0.x``, ``big.a``) as
    the layout names it, for messages and offset tables; ``offset`` is from the element
    start.
    """

    path: str
    offset: int
    scalar: Optional[Scalar]
    record: Optional["RecordPlan"]

    @property
    def format(self) -> str:
        return self.scalar.struct_format if self.scalar is not None else f"{self.record.size}s"  # type: ignore[union-attr]


class PlanMember(NamedTuple):
    """One member of a plan: a record field, or a constructor argument ``_N``.

    Exactly one of ``scalar`` and ``record`` is set; a record member is ``inline`` (its
    plan's members are packed in place) or not (one opaque slot). ``step`` reads it from the
    Python value: the field name, or the argument index. ``offset`` is from the start of the
    plan's element (a record's own start; for constructor arguments, the variant's).
    """

    name: str
    step: Union[str, int]
    offset: int
    size: int
    scalar: Optional[Scalar]
    record: Optional["RecordPlan"]
    inline: bool


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
    return sum(1 if m.record is None else m.record.leaves for m in members)


#: Plans built, by schema type (a ``SchemaType`` is hashed and compared by identity).
_PLANS: Dict[SchemaType, Plan] = {}


def plan_of(st: SchemaType) -> Plan:
    """The plan of a resolved record or variant type, from its member model, memoised;
    nested records are the model's own (``RecordPlan.key`` is the nested ``SchemaType``).
    An elttype's model is ``host.model.model_of(t)``."""
    return memoised(_PLANS, st, lambda: _build(st))


def _build(st: SchemaType) -> Plan:
    if st.kind == "record":
        _refuse_kinds(st, st.members)
        return _record(st)
    if st.kind == "variant":
        for arm in st.arms:
            _refuse_kinds(st, arm.args)
        return _variant(st)
    raise TypeError(f"{st.qualified_name} is an {st.kind}: {_NOT_YET}")


#: Why a member kind of SPEC §1b is refused here: ``load`` and ``generate`` refuse it first,
#: at the member; this keeps it from being packed as one element of the member's type.
_NOT_YET = ("the host codecs, dtypes and python target do not handle the member kinds of "
            "SPEC §1b (fixed arrays, vectors, matrices, enums) yet")


def _refuse_kinds(st: SchemaType, members: Sequence[Member]) -> None:
    for m in members:
        if m.dims or m.enum is not None:
            raise TypeError(f"{st.qualified_name}.{m.name} has type {m.spelling!r}: {_NOT_YET}")


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
        if item.scalar is not None:
            members.append(PlanMember(name, step, offset, size, item.scalar, None, False))
            slots.append(Slot(path, offset, item.scalar, None))
            _merge(tokens, (item.scalar.struct_format,))
            continue
        inner = _nested(item.record)  # type: ignore[arg-type]
        inline = (len(slots) + len(inner.slots) + left <= INLINE_SLOTS
                  and inner.depth < INLINE_DEPTH)
        members.append(PlanMember(name, step, offset, size, None, inner, inline))
        if inline:
            slots.extend(Slot(f"{path}.{s.path}", offset + s.offset, s.scalar, s.record)
                         for s in inner.slots)
            _merge(tokens, inner.tokens)
            depth = max(depth, inner.depth + 1)
        else:
            slots.append(Slot(path, offset, None, inner))
            _merge(tokens, (f"{size}s",))
    return tuple(members), tuple(slots), tokens, depth
