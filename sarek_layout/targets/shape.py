"""The emitted shape of a schema type: the one definition of what a generated struct holds.

SPEC §4. Every C-family header, and every target that keeps the C names (Zig, Rust, the
host dtypes), declares each schema type as a struct of this shape:

* a **record** is a struct of its fields, in declaration order;
* a **variant** is a struct of ``tag`` (its int32 at offset 0) and, when some constructor
  has arguments, the union ``data`` at the payload offset ``P``, holding one **arm**
  ``<Ctor>_v`` per constructor with arguments, in tag order: for a constructor of one
  argument the arm is that argument itself (``data.Value_v``, as Sarek's own kernels read
  it); for several, a struct of the arguments ``_0``, ``_1``… (``data.Pair_v._1``), whose
  offsets stay absolute (from the element start), as the member model gives them; so is a
  lone argument the rules place after the payload's start (``hlsl-cbuffer``'s registers:
  ``data.One_v._0``, ``argument_is_arm``);
* between and after the members, the holes of the member model (``items``), which the
  headers fill with explicit padding members ``_sarek_pad<N>`` (named by codegen's views,
  through ``naming.padding_name``; every reader skips ``naming.is_padding`` names).

A member of record type is one ``Slot``: the nested record's own members are that record's
shape, never repeated inside the types that use it, so a walk of every type of a schema is
linear in the schema however deep records nest.

``shape_of(st)`` walks a resolved type's member model (``SchemaType.members``/``arms``) once
into the frozen nodes below, kept for as long as the type lives. Every consumer reads the
paths, names and numbers from here: verify's probes, its structure check of a header, its
DWARF check of an object, and codegen's views (their compile-time checks and arm names);
the shader check and the host dtypes are to follow (``Shape.nodes()``, ``Union.arms``).
Nothing here computes an offset: every number is the member model's.

The nodes are named tuples like the model's ``Member`` (a large schema has hundreds of
thousands, and making one must be cheap), one class per kind of member, told apart with
``isinstance``; so is the ``Shape`` of a type, which holds them:

* ``Slot``: a member holding one schema value, a scalar or a nested record (``member``,
  the model's ``Member``);
* ``Struct``: a struct member holding slots (the arm of a constructor of several arguments);
* ``Union``: the payload union ``data``, whose arms overlap at its offset.

* ``Array``: a member of SPEC §1b's kinds that repeats an element (a fixed array, and the
  columns of a matrix): its ``levels``, outermost first, say how.

**Arrays.** A member whose model member has ``dims`` (a fixed array ``T[N]``, a vector, a
matrix) is emitted as nested arrays, one per ``ARRAY`` or ``MATRIX`` dim (a matrix is an
array of its column vectors), of its element: a scalar, an enum, a record (whose members
are its own shape), or a vector (``VECTOR`` dims are part of the element: each target
spells a vector natively or as an array of its scalar, and nothing below a vector is
addressed). Where a level's stride is larger than its element's own size (a std430
``vec3<float32>[4]``: stride 16, element 12; std140's ``float32[4]``: stride 16), the
element is wrapped in a struct whose one member is the element, named ``ELEMENT_MEMBER``,
padded up to the stride: ``a[i].v`` is the element. ``Array.designator(k)`` is how level
``k``'s first element is reached (``a[0]``, ``a[0].v[0]``); its size is the level's stride,
which is what verify probes. A rule set whose arrays end at their last element's size
(``scalar``, ``hlsl-cbuffer``: ``Array.tail_unpadded``) may start the next member inside the
last element's padding, which no array of wrapped elements holds (a C, Rust or Zig array
spans count × stride, ``Array.span``): ``Array.unheld`` says so, and those targets refuse
that member. Where what follows starts past the span (``hlsl-cbuffer``'s ``{float32[2] a;
vec4<float32> b}``: ``b`` at 32), the array is emitted padded to its span, and the model's
hole after it, which the span covers, is not padded again (``emitted_items``).

A member kind to come (a runtime-sized array, a ``bool`` vector) is one more node class, or
one more level kind, made by ``_nodes``, the one function that turns model members into
nodes. The consumers say what they ask of each node class where they tell them apart;
the probes refuse a node of a kind they were not taught rather than probe it in part.
"""

from __future__ import annotations

import weakref
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union as TypingUnion

from ..ir.schema import ARRAY, MATRIX, VECTOR, Arm, Hole, Item, LaidOut, Member, SchemaType
from .naming import DATA_MEMBER, ELEMENT_MEMBER, arm_name

__all__ = ["Slot", "Array", "Level", "Struct", "Union", "Node", "Shape", "shape_of",
           "argument_is_arm", "span_of", "emitted_items"]


class Slot(NamedTuple):
    """A member holding one schema value: a scalar, or a nested record as a whole.

    ``path`` is its member designator from the start of the type (``mass``, ``tag``,
    ``data.Circle_v``, ``data.Circle_v._0``: what ``offsetof`` names), ``name`` its own
    name in the struct or union that declares it (``mass``, ``Circle_v``, ``_0``),
    ``offset`` from the element start, and ``member`` the model's member (offset, size,
    alignment, scalar or record, spelling, source location). ``ctor`` is the constructor
    when the slot is a union arm itself (a constructor of one argument).
    """

    path: str
    name: str
    #: ``member.offset``, where every node keeps its offset (read for every member).
    offset: int
    member: Member
    ctor: Optional[Arm] = None

    @property
    def size(self) -> int:
        return self.member.size

    @property
    def align(self) -> int:
        return self.member.align


class Level(NamedTuple):
    """One array level of an ``Array``: ``count`` elements ``stride`` bytes apart, each of
    ``element_size`` bytes (wrapped to the stride when it is smaller: ``wrapped``)."""

    kind: str  # ARRAY | MATRIX (a matrix's columns)
    count: int
    stride: int
    element_size: int

    @property
    def wrapped(self) -> bool:
        return self.stride > self.element_size


class Array(NamedTuple):
    """A member repeating an element (SPEC §1b): a fixed array, or a matrix's columns.

    ``path``, ``name``, ``offset`` and ``member`` as a ``Slot``'s (``member.dims`` holds
    every repetition, vectors included); ``levels`` the array levels, outermost first.
    """

    path: str
    name: str
    offset: int
    member: Member
    levels: Tuple[Level, ...]
    ctor: Optional[Arm] = None
    #: Where what follows the array starts: the next member's offset, or the end of the
    #: struct (or arm) that holds it.
    follows: int = 0

    @property
    def size(self) -> int:
        return self.member.size

    @property
    def align(self) -> int:
        return self.member.align

    @property
    def span(self) -> int:
        """The bytes an array of this shape spans where a language's arrays are count ×
        stride (C, Rust, Zig): the member's size, or more where the rules end it at its last
        element (``tail_unpadded``)."""
        return self.levels[0].count * self.levels[0].stride

    @property
    def tail_unpadded(self) -> bool:
        """The array ends at its last element's size, before the stride (``scalar`` and
        ``hlsl-cbuffer`` rules)."""
        return self.member.size < self.span

    @property
    def unheld(self) -> bool:
        """What follows the array starts inside its span (the next member in the last
        element's padding, or the struct's end before it): no array of count × stride
        holds that layout."""
        return self.offset + self.span > self.follows

    def designator(self, level: int) -> str:
        """How the first element of ``level`` is reached from the start of the type:
        ``a[0]`` (level 0), ``a[0][0]`` or, through a wrapped level, ``a[0].v[0]``."""
        out = self.path
        for k, lvl in enumerate(self.levels[: level + 1]):
            if k:
                out += f".{ELEMENT_MEMBER}" if self.levels[k - 1].wrapped else ""
            out += "[0]"
        return out


def levels_of(member: Member) -> Tuple[Level, ...]:
    """The array levels of a member with ``dims`` (its ``ARRAY`` and ``MATRIX`` dims), each
    with the size of its element: the next level's count times stride, or, below the last,
    the element's (a vector: its components; else the scalar's or record's size)."""
    dims = member.dims
    element = member.scalar.size if member.scalar is not None else member.record.size  # type: ignore[union-attr]
    for d in dims:
        if d.kind == VECTOR:
            element = d.count * d.stride  # the vector is the element
    out: List[Level] = []
    arrays = [d for d in dims if d.kind in (ARRAY, MATRIX)]
    for i, d in enumerate(arrays):
        inner = arrays[i + 1].count * arrays[i + 1].stride if i + 1 < len(arrays) else element
        out.append(Level(d.kind, d.count, d.stride, inner))
    return tuple(out)


class Struct(NamedTuple):
    """A struct member holding slots: the arm ``<Ctor>_v`` of constructor ``ctor``, of
    several arguments. It spans the payload region ``[offset, offset + size)``; ``items``
    are the model's arguments and holes over that region (the header's padding)."""

    path: str
    name: str
    offset: int
    size: int
    members: Tuple[Slot, ...]
    items: Tuple[Item, ...]
    ctor: Arm

    def __repr__(self) -> str:
        return f"Struct({self.path!r}, offset={self.offset}, members={self.members!r})"


class Union(NamedTuple):
    """The payload union ``data`` of a variant: its arms (a ``Slot`` or a ``Struct`` each,
    one per constructor with arguments, in tag order) overlap at ``offset``, the payload
    offset, which is also its alignment."""

    path: str
    name: str
    offset: int
    size: int
    align: int
    arms: Tuple[TypingUnion[Slot, Struct], ...]


#: Any node of a shape.
Node = TypingUnion[Slot, Array, Struct, Union]


class Shape(NamedTuple):
    """The emitted struct of one schema type (``shape_of``): its top-level members (a
    record's fields; a variant's ``tag`` and, when it has a payload, ``data``), its size
    and alignment, and ``items``, the model's members and holes of the top-level struct.
    A named tuple too: a header's views make one per type and let it go."""

    c_name: str
    kind: str  # "record" | "variant" | "enum" (no members: its base scalar)
    size: int
    align: int
    members: Tuple[TypingUnion[Slot, Union], ...]
    items: Tuple[Item, ...]
    #: A variant's constructors, in tag order (the model's arms).
    ctors: Tuple[Arm, ...] = ()

    def __repr__(self) -> str:
        return f"Shape({self.c_name!r}, {self.kind}, size={self.size}, members={self.members!r})"

    @property
    def tag(self) -> Optional[Slot]:
        """A variant's ``tag`` (``None`` for a record)."""
        first = self.members[0] if self.kind == "variant" else None
        return first if isinstance(first, Slot) else None

    @property
    def data(self) -> Optional[Union]:
        """A variant's payload union (``None`` for a record, or when no constructor has
        arguments)."""
        last = self.members[-1] if self.members else None
        return last if isinstance(last, Union) else None

    def arms(self) -> Iterator[Tuple[Arm, Optional[TypingUnion[Slot, Struct]]]]:
        """Each constructor of a variant, in tag order, with its arm (``None`` for a
        constant constructor, which has none)."""
        nodes = iter(self.data.arms if self.data is not None else ())
        for ctor in self.ctors:
            yield ctor, next(nodes) if ctor.args else None

    def nodes(self) -> Iterator[Node]:
        """Every node, parents before children, in declaration order: the order the headers
        assert them and verify probes them (``tag``, ``data``, each arm, its arguments)."""
        for node in self.members:
            yield node
            if isinstance(node, Union):
                for arm in node.arms:
                    yield arm
                    if isinstance(arm, Struct):
                        yield from arm.members


#: Makes a node without its named tuple's generated ``__new__`` frame (one per member).
_new = tuple.__new__


def span_of(m: Member) -> int:
    """The bytes member ``m`` spans as the shape emits it: an array's count × stride
    (``Array.span``), any other member's size."""
    levels = levels_of(m) if m.dims else ()
    return levels[0].count * levels[0].stride if levels else m.size


def emitted_items(items: Sequence[Item]) -> Sequence[Item]:
    """``items`` (a struct's members and holes, in order) as the shape emits them: a hole
    that an array padded to its span covers (``hlsl-cbuffer``'s last element's padding) is
    cut down to what lies past the span, or dropped; ``items`` itself when none is."""
    out: Optional[List[Item]] = None
    covered = 0
    for i, item in enumerate(items):
        if type(item) is Hole:
            if item.offset < covered:
                if out is None:
                    out = list(items[:i])
                if item.end > covered:
                    out.append(item._replace(offset=covered, size=item.end - covered))
                continue
        else:
            covered = item.offset + span_of(item) if item.dims else 0  # type: ignore[union-attr, arg-type]
        if out is not None:
            out.append(item)
    return items if out is None else tuple(out)


def _nodes(members: Sequence[Member], end: int, prefix: str = ""
           ) -> Tuple[TypingUnion[Slot, Array], ...]:
    """The nodes of model members, each at ``prefix`` + its name: the one place a member
    kind is told apart. A member with array levels (a fixed array, a matrix) is an
    ``Array`` (what follows it: the next member, or ``end``, the end of the struct holding
    them); any other (a scalar, an enum, a record, a vector) a ``Slot``. One loop for them
    all: it runs for every member of every type."""
    out: List[TypingUnion[Slot, Array]] = []
    last = len(members) - 1
    for i, m in enumerate(members):
        levels = levels_of(m) if m.dims else ()
        if levels:
            follows = members[i + 1].offset if i < last else end
            out.append(_new(Array, (prefix + m.name, m.name, m.offset, m, levels, None,
                                    follows)))
        else:
            out.append(_new(Slot, (prefix + m.name, m.name, m.offset, m, None)))
    return tuple(out)


def _record(st: SchemaType, layout: LaidOut) -> Shape:
    """A record's fields (an enum, laid out as its base scalar, has none)."""
    return _new(Shape, (st.c_name, st.kind, layout.size, layout.align,
                        _nodes(st.members, layout.size),
                        st.items, ()))


def argument_is_arm(arm: Arm, payload_offset: int) -> bool:
    """Whether constructor ``arm``'s union arm is its argument itself (SPEC §4: ``float
    Value_v``): it has one argument, and that argument starts the payload. A rule set that
    places a lone argument further on (``hlsl-cbuffer``: a ``vec4<float32>`` after a 4-byte
    payload start moves to the next 16-byte register) gets a struct arm of that argument,
    ``_0``, after the padding the model gives it, as a constructor of several arguments
    does: a union member always starts at the union's offset."""
    return len(arm.args) == 1 and arm.args[0].offset == payload_offset


def _variant(st: SchemaType, layout: LaidOut) -> Shape:
    p = st.payload_offset
    top: Tuple[TypingUnion[Slot, Union], ...] = _nodes(st.members, p)  # its tag
    arms: List[TypingUnion[Slot, Struct]] = []
    for arm in st.arms:
        if not arm.args:
            continue  # a constant constructor has no arm
        name = arm_name(arm.name)
        path = f"{DATA_MEMBER}.{name}"
        args = _nodes(arm.args, layout.size, path + ".")
        if argument_is_arm(arm, p):  # the arm is the argument itself, named as the arm
            arms.append(args[0]._replace(path=path, name=name, ctor=arm))
            continue
        arms.append(_new(Struct, (path, name, p, layout.size - p, args, arm.items, arm)))
    if arms:
        # The union is as aligned as its arms, whose alignment is the payload offset's (the
        # variant itself may be more aligned: a std140 variant is 16-aligned, its payload at 8).
        top += (_new(Union, (DATA_MEMBER, DATA_MEMBER, p, layout.size - p, p, tuple(arms))),)
    return _new(Shape, (st.c_name, "variant", layout.size, layout.align, top, st.items,
                        st.arms))


#: Shapes by type, each kept while its type lives (a ``Shape`` holds no reference to it).
_SHAPES: "weakref.WeakKeyDictionary[SchemaType, Shape]" = weakref.WeakKeyDictionary()


def shape_of(st: SchemaType, keep: bool = True) -> Shape:
    """The emitted shape of ``st``, walked from its member model once and kept.

    ``keep=False`` is for a reader that goes through every type once and lets each go (a
    header's views): the shape kept is used if there is one, but a new one is not kept, so
    that such a pass does not hold the shapes of every type at once (``generate``'s peak
    memory, docs/benchmarks.md).
    """
    found = _SHAPES.get(st)
    if found is None:
        layout = st.layout  # its size and alignment, read once
        found = _variant(st, layout) if st.kind == "variant" else _record(st, layout)
        if keep:
            _SHAPES[st] = found
    return found
