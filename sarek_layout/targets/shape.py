"""The emitted shape of a schema type: the one definition of what a generated struct holds.

SPEC §4. Every C-family header, and every target that keeps the C names (Zig, Rust, the
host dtypes), declares each schema type as a struct of this shape:

* a **record** is a struct of its fields, in declaration order;
* a **variant** is a struct of ``tag`` (its int32 at offset 0) and, when some constructor
  has arguments, the union ``data`` at the payload offset ``P``, holding one **arm**
  ``<Ctor>_v`` per constructor with arguments, in tag order: for a constructor of one
  argument the arm is that argument itself (``data.Value_v``, as Sarek's own kernels read
  it); for several, a struct of the arguments ``_0``, ``_1``… (``data.Pair_v._1``), whose
  offsets stay absolute (from the element start), as the member model gives them;
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

A new member kind (SPEC §1b: a fixed array ``T[N]``, a vector, a matrix, whose model
member carries its ``dims``, each a count and a stride, outermost first) is one more node
class here, made by ``_nodes``, the one function that turns model members into nodes: e.g.
an ``Array(path, name, offset, member)`` whose element (a scalar, or a record whose members
are its own shape) repeats as ``member.dims`` say. The consumers then say what they ask of
it where they tell the node classes apart (probes: its stride; the header check: the
declarator's count; the object check: DWARF's subrange; the views: the count the templates
print); until then the probes refuse a node of a kind they were not taught rather than
probe it in part.
"""

from __future__ import annotations

import weakref
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union as TypingUnion

from ..ir.schema import Arm, Item, LaidOut, Member, SchemaType
from .naming import DATA_MEMBER, arm_name

__all__ = ["Slot", "Struct", "Union", "Node", "Shape", "shape_of"]


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
Node = TypingUnion[Slot, Struct, Union]


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


def _nodes(members: Sequence[Member], prefix: str = "") -> Tuple[Slot, ...]:
    """The nodes of model members, each at ``prefix`` + its name: the one place a member
    kind is told apart. Every member is a ``Slot`` until SPEC §1b's kinds are taught here:
    one with ``dims`` (a fixed array, vector or matrix) is still one, a member holding its
    whole size, and ``verify`` and codegen refuse a schema that has one before any walk
    (``resolve.support.refuse_extensions``). One loop for them all: it runs for every
    member of every type."""
    return tuple([_new(Slot, (prefix + m.name, m.name, m.offset, m, None)) for m in members])


def _record(st: SchemaType, layout: LaidOut) -> Shape:
    """A record's fields (an enum, laid out as its base scalar, has none)."""
    return _new(Shape, (st.c_name, st.kind, layout.size, layout.align, _nodes(st.members),
                        st.items, ()))


def _variant(st: SchemaType, layout: LaidOut) -> Shape:
    top: Tuple[TypingUnion[Slot, Union], ...] = _nodes(st.members)  # its tag
    p = st.payload_offset
    arms: List[TypingUnion[Slot, Struct]] = []
    for arm in st.arms:
        if not arm.args:
            continue  # a constant constructor has no arm
        name = arm_name(arm.name)
        path = f"{DATA_MEMBER}.{name}"
        args = _nodes(arm.args, path + ".")
        if len(args) == 1:  # the arm is the argument itself, named as the arm
            arms.append(args[0]._replace(path=path, name=name, ctor=arm))
            continue
        arms.append(_new(Struct, (path, name, p, layout.size - p, args, arm.items, arm)))
    if arms:
        top += (_new(Union, (DATA_MEMBER, DATA_MEMBER, p, layout.size - p, layout.align,
                             tuple(arms))),)
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
