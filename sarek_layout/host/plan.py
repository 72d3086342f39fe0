"""Byte plans: how one record or constructor is packed with a single ``struct`` call.

The host codecs (``codec``) and the generated standalone module (``python_target``) both
pack an element with one precompiled ``struct.Struct``. A *plan* is what they need for one
record type or one constructor: its own members, in offset order, and the ``struct`` format
(``=`` mode: native byte order, standard sizes, no implicit alignment; every padding byte an
explicit ``x``, so it is always written as zero) with the *slots*, the values the format
takes, in order.

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
record of two copies… (millions of leaves in 22 levels) gets 22 small plans. The rule
depends only on slot counts, so the codec's plans (built from elttypes) and the python
target's (built from the schema's member model) make the same choices and the same bytes.

Plans read members and holes from the layout stage (``layout.members.with_holes`` over the
core's ``MemberLayout``s, or the resolved ``SchemaType``'s member model); nothing here
computes an offset. Every scalar fact (its ``struct`` character) comes from the scalar table
(``ir.types.Scalar``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..ir.schema import Hole, Member, SchemaType
from ..ir.types import Scalar, TInt32, TRecord, TVariant
from ..layout.core import MemberLayout, record_layout_of, variant_layout
from ..layout.members import with_holes

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
    "schema_plan_of",
    "elttype_key",
]

#: Most slots a plan may reach by inlining nested records (its own scalar members always
#: count, however many). Measured in bench/ANALYSIS.md ("Host plans"): below ~64 slots one
#: flat ``pack`` beats a nested encoder call clearly; beyond, the per-slot cost dominates and
#: the generated functions only grow.
INLINE_SLOTS = 64

#: Most levels of nested records inlined into one plan.
INLINE_DEPTH = 16

#: What a plan is built from: an elttype (the API codecs) or a resolved schema type (the
#: python target, which needs each nested record's C name).
PlanKey = Union[TRecord, TVariant, SchemaType]


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

    key: Union[TRecord, SchemaType]
    #: The record's name in messages (the elttype's name, or ``Module.name``).
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
    key: Union[TVariant, SchemaType]
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


#: One member item as the builders see it: ``(name, offset, size, scalar, nested key)``.
_Source = Tuple[str, int, int, Optional[Scalar], Optional[PlanKey]]


#: Structural keys already computed, by object identity (the object is kept, so that its id
#: is not reused while the entry lives).
_KEYS: Dict[int, Tuple[object, bytes]] = {}


def elttype_key(t: object) -> bytes:
    """A digest of an elttype's structure: equal elttypes (``==``) get equal keys.

    Caches key elttypes by this rather than by the elttype itself because ``TRecord``'s
    ``==`` compares structurally, without memory: two distinct copies of shared nesting (a
    deep schema loaded twice, ``{a: r; b: r}`` twenty levels down) compare in time
    exponential in the depth, at every dictionary lookup. This is linear: each object is
    digested once, from its members' digests.
    """
    found = _KEYS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    if isinstance(t, TRecord):
        data: object = ("record", t.name, tuple((n, elttype_key(ft)) for n, ft in t.fields))
    elif isinstance(t, TVariant):
        data = ("variant", t.name, tuple((c, tuple(elttype_key(a) for a in args)) for c, args in t.ctors))
    elif isinstance(t, Scalar):
        data = ("scalar", t.name)
    else:  # arrays, vectors: no layout, refused where a plan is built; small anyway
        data = ("other", repr(t))
    key = hashlib.blake2b(repr(data).encode(), digest_size=20).digest()
    if len(_KEYS) > _Planner.LIMIT:
        _KEYS.clear()
    _KEYS[id(t)] = (t, key)
    return key


class _Planner:
    """Builds and memoises plans for one kind of key (elttypes, or schema types)."""

    #: Plans kept before the memo is emptied (a long-lived process may see many schemas).
    LIMIT = 1 << 16

    def __init__(self, record_items: Callable, variant_parts: Callable,
                 memo_key: Callable[[PlanKey], object]) -> None:
        self._record_items = record_items
        self._variant_parts = variant_parts
        self._memo_key = memo_key
        self._memo: Dict[object, Plan] = {}

    def plan(self, key: PlanKey) -> Plan:
        memo_key = self._memo_key(key)
        found = self._memo.get(memo_key)
        if found is not None:
            return found
        if len(self._memo) > self.LIMIT:
            self._memo.clear()
        built = self._build(key)
        self._memo[memo_key] = built
        return built

    def _record(self, key: PlanKey) -> RecordPlan:
        plan = self.plan(key)
        assert isinstance(plan, RecordPlan), key
        return plan

    def _build(self, key: PlanKey) -> Plan:
        if isinstance(key, TRecord) or (isinstance(key, SchemaType) and key.kind == "record"):
            name, size, align, items = self._record_items(key)
            members, slots, tokens, depth = self._place(items, False, "")
            return RecordPlan(key, name, size, align, members, slots, tuple(tokens), depth,
                              _leaves(members))
        if isinstance(key, (TVariant, SchemaType)):
            name, size, align, tag_offset, payload_offset, ctors = self._variant_parts(key)
            plans = []
            for tag, (ctor_name, items) in enumerate(ctors):
                members, slots, tokens, _ = self._place(items, True, ctor_name + ".")
                plans.append(CtorPlan(ctor_name, tag, members, slots, tuple(tokens), _leaves(members)))
            return VariantPlan(key, name, size, align, tag_offset, payload_offset, tuple(plans))
        raise TypeError(f"only records and variants have an element layout, not {key!r}")

    def _place(
        self, items: Sequence[Union[Hole, _Source]], ctor: bool, prefix: str
    ) -> Tuple[Tuple[PlanMember, ...], Tuple[Slot, ...], List[str], int]:
        """Members, slots, format tokens and inlined depth of one struct's ``items``: its
        members and holes in offset order, the whole element. For a constructor (``ctor``)
        the items start with the variant's ``tag``, which is packed first but is no member
        (arguments are named ``_N``, so no argument is called ``tag``)."""
        sources = [item for item in items if not isinstance(item, Hole)]
        members: List[PlanMember] = []
        slots: List[Slot] = []
        tokens: List[str] = []
        depth = 0
        left = len(sources)  # members not yet placed, each at least one slot
        for item in items:
            if isinstance(item, Hole):
                _merge(tokens, (f"{item.size}x",))
                continue
            left -= 1
            name, offset, size, scalar, nested = item
            if ctor and name == "tag":
                _merge(tokens, (TInt32.struct_format,))
                continue
            step: Union[str, int] = int(name[1:]) if ctor else name
            path = prefix + name
            if scalar is not None:
                members.append(PlanMember(name, step, offset, size, scalar, None, False))
                slots.append(Slot(path, offset, scalar, None))
                _merge(tokens, (scalar.struct_format,))
                continue
            inner = self._record(nested)  # type: ignore[arg-type]
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


# --- elttypes: the core's member layouts --------------------------------------------------------


def _elt_source(m: MemberLayout) -> _Source:
    t = m.type
    if isinstance(t, Scalar):
        return (m.name, m.offset, m.size, t, None)
    return (m.name, m.offset, m.size, None, t)  # type: ignore[return-value]


def _elt_record(t: TRecord):
    layout = record_layout_of(t)
    items = [i if isinstance(i, Hole) else _elt_source(i)  # type: ignore[arg-type]
             for i in with_holes(layout.members, 0, layout.size)]  # type: ignore[arg-type]
    return t.name, layout.size, layout.align, items


_TAG = MemberLayout("tag", "tag", TInt32, 0, TInt32.size, TInt32.align)


def _elt_variant(t: TVariant):
    vl = variant_layout(t.name, t.ctors)
    tag = _TAG._replace(offset=vl.tag_offset)
    ctors = []
    for c in vl.ctors:
        items = [i if isinstance(i, Hole) else _elt_source(i)  # type: ignore[arg-type]
                 for i in with_holes((tag, *c.args), 0, vl.size)]  # type: ignore[arg-type]
        ctors.append((c.name, items))
    return t.name, vl.size, vl.align, vl.tag_offset, vl.payload_offset, ctors


# --- schema types: the resolved member model ----------------------------------------------------


def _schema_source(m: Member) -> _Source:
    return (m.name, m.offset, m.size, m.scalar, m.record)


def _schema_items(items: Iterable) -> List[Union[Hole, _Source]]:
    return [i if isinstance(i, Hole) else _schema_source(i) for i in items]


def _schema_record(st: SchemaType):
    return st.qualified_name, st.size, st.align, _schema_items(st.items)


def _schema_variant(st: SchemaType):
    (tag,) = st.members
    head = _schema_items(st.items)  # the tag and the hole up to the payload
    ctors = [(arm.name, head + _schema_items(arm.items)) for arm in st.arms]
    return st.qualified_name, st.size, st.align, tag.offset, st.payload_offset, ctors


_ELTTYPES = _Planner(_elt_record, _elt_variant, elttype_key)
# A SchemaType is hashed and compared by identity: itself is the key.
_SCHEMA_TYPES = _Planner(_schema_record, _schema_variant, lambda st: st)


def plan_of(t: Union[TRecord, TVariant]) -> Plan:
    """The plan of a record or variant elttype, memoised (raises ``LayoutError`` like the
    core)."""
    if not isinstance(t, (TRecord, TVariant)):
        raise TypeError(f"only records and variants have an element layout, not {t!r}")
    return _ELTTYPES.plan(t)


def schema_plan_of(st: SchemaType) -> Plan:
    """The plan of a resolved schema type, from its member model, memoised; nested records
    are the schema's own (``RecordPlan.key`` is the nested ``SchemaType``)."""
    return _SCHEMA_TYPES.plan(st)
