"""How the C-family headers declare, pin and copy a member of SPEC §1b's kinds.

A member with ``dims`` (a fixed array, a vector, a matrix) is declared as nested C arrays,
one per array level of its emitted shape (``targets.shape.levels_of``: a matrix is an array
of its column vectors), of its element: a scalar, an enum (its C name, a typedef of its
base), a record, or a vector. A vector is the language's own vector type where it has the
member's alignment (``Dialect.vector_type``: CUDA's ``float4`` under the ``cuda`` and
``std430`` rules, OpenCL C's ``float4``), else an array of its scalar (``float v[4]``). A
level whose stride is larger than its element (a std430 ``vec3<float32>[4]``: stride 16,
element 12) repeats a struct of the element, named ``naming.ELEMENT_MEMBER`` (``v``), and
the padding up to the stride: ``a[i].v``.

Nothing here computes an offset or a stride: they are the shape's (and through it the member
model's). What is decided here is C's side of the bytes: which members need an alignment
pin (``pin_of``) so that every ABI, i386 and Windows x86 included, gives them the rule set's
alignment, and how the ``make_`` helpers and record copies fill such a member, element by
element, so that every padding byte stays zero (``Assign``).

The templates spell all of it (``templates/_macros.j2``: ``declare``, ``assign``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..errors import SchemaError
from ..ir.schema import VECTOR, Member as ModelMember, SchemaType, SourceLocation
from ..layout.rules import RULE_SETS, vector_shape
from ..targets.naming import COMPONENT_INDEX, ELEMENT_MEMBER, loop_index, padding_name
from ..targets.shape import Array, levels_of

__all__ = ["Unrepresentable", "Wrapped", "Decl", "Param", "Assign", "declaration", "pin_of", "natural_align",
           "kinds_assign", "kinds_param", "refuse_unheld", "unheld", "vector_of", "struct_pin",
           "kinds_used", "param"]

class Unrepresentable(SchemaError):
    """A type the target's language cannot declare with the layout's bytes: that target
    refuses it (``verify`` then skips that target's toolchains, saying why)."""


#: Members at least this aligned carry an explicit alignment specifier, so that ABIs where
#: 8-byte scalars are only 4-aligned inside structs (i386) agree with the rest.
PINNED_ALIGN = 8


class Wrapped(NamedTuple):
    """The struct an array level repeats when its stride is larger than its element: the
    element as its one member ``member`` (``v``), declared as ``inner``, then ``pad`` bytes
    of padding named ``pad_name``."""

    inner: "Decl"
    member: str
    pad: int
    pad_name: str


class Decl(NamedTuple):
    """A member of SPEC §1b's kinds as the C family declares it: ``kind`` is ``scalar``
    (``type``: the scalar's schema name), ``enum``/``record`` (``type``: the C name),
    ``vector`` (``type``: its scalar's schema name, ``n`` components, ``align`` its
    alignment: the dialect spells it natively or as ``type[n]``) or ``wrapped``
    (``type``: a ``Wrapped``), repeated as the C arrays ``dims`` (outermost first)."""

    kind: str
    type: Union[str, Wrapped]
    dims: Tuple[int, ...] = ()
    n: int = 0
    align: int = 0


@dataclass(frozen=True)
class Param:
    """One parameter of a ``make_`` helper (``_0``, ``_1``…), typed like a ``Member``;
    ``pointer``: a member of SPEC §1b's kinds, passed as a pointer to its values in order
    (``const float *``: a ``float32[3][4]`` is 12 floats, a ``vec4`` 4, a ``mat4`` 16,
    column by column; an array of records points at the records)."""

    name: str
    kind: str
    type: str
    pointer: bool = False


@dataclass(frozen=True)
class Assign:
    """``value.<target> = <source>`` in a ``make_`` helper or a record copy.

    ``copy`` is empty for a scalar (``source`` is assigned as it is) or names the copy
    function of a record (``copy(source)`` is assigned, so that the record's padding is zero
    whatever the argument's padding held). A member of SPEC §1b's kinds is assigned element
    by element: ``loops`` are its array levels' ``(counter, count)``, outermost first, and
    ``target`` (and, for a record copy, ``source``) designate one element with those
    counters; ``vector`` is ``(scalar, components, alignment)`` when each element is a
    vector (copied component by component where the language has no vector type of it);
    ``flat``: ``source`` is a pointer to the values in order (a ``make_`` argument), indexed
    by the counters.
    """

    target: str
    source: str
    copy: str = ""
    loops: Tuple[Tuple[str, int], ...] = ()
    vector: Optional[Tuple[str, int, int]] = None
    flat: bool = False
    #: The component counter of a vector element (``naming.COMPONENT_INDEX``).
    component: str = COMPONENT_INDEX


def vector_of(m: ModelMember, rules: str) -> Optional[Tuple[str, int, int]]:
    """``(scalar, components, alignment)`` of the vector member ``m`` (of a type laid out by
    ``rules``) is made of (itself, its array's element, its matrix's column), or ``None``.
    The alignment is the rule set's (``layout.rules``): a language's vector type is used
    only where it has that alignment."""
    for d in m.dims:
        if d.kind == VECTOR:
            scalar = m.scalar
            assert scalar is not None
            return scalar.name, d.count, vector_shape(RULE_SETS[rules], scalar.size, d.count).align
    return None


def _element(m: ModelMember, rules: str) -> Decl:
    """The element a member's array levels repeat (a vector counts as one element)."""
    vector = vector_of(m, rules)
    if vector is not None:
        return Decl("vector", vector[0], (), vector[1], vector[2])
    if m.enum is not None:
        return Decl("enum", m.enum.c_name)
    if m.scalar is not None:
        return Decl("scalar", m.scalar.name)
    return Decl("record", m.record.c_name)  # type: ignore[union-attr]


def declaration(m: ModelMember, rules: str) -> Decl:
    """How member ``m`` (with ``dims``, of a type laid out by ``rules``) is declared: its
    element in nested arrays, each wrapped level a struct of ``v`` and its padding."""
    inner = _element(m, rules)
    dims: List[int] = []
    for level in reversed(levels_of(m)):
        if level.wrapped:
            pad = level.stride - level.element_size
            inner = Decl("wrapped", Wrapped(inner._replace(dims=tuple(dims)), ELEMENT_MEMBER,
                                            pad, padding_name(0)))
            dims = []
        dims.insert(0, level.count)
    return inner._replace(dims=tuple(dims))


def natural_align(m: ModelMember) -> int:
    """The alignment C gives member ``m``'s declaration on every ABI without a pin: its
    scalar's size (an 8-byte one is only 4-aligned on i386: always pinned, ``pin_of``), or
    its record's alignment (each record is pinned to its own)."""
    if m.record is not None:
        return m.record.align
    return m.scalar.size  # type: ignore[union-attr]


def pin_of(m: ModelMember) -> int:
    """The alignment specifier member ``m`` carries (0: none): its alignment, wherever C
    would give it less on some ABI (an 8-byte scalar on i386, a std430 ``vec3``'s 16, a
    CUDA-aligned ``float2``'s 8 where it is two floats)."""
    if m.align >= PINNED_ALIGN or m.align > natural_align(m):
        return m.align
    return 0


def kinds_param(name: str, m: ModelMember) -> Param:
    """The ``make_`` parameter of an argument of SPEC §1b's kinds: a pointer to its values
    (its scalars, or its records) in order."""
    if m.record is not None:
        return Param(name, "record", m.record.c_name, pointer=True)
    if m.enum is not None:
        return Param(name, "enum", m.enum.c_name, pointer=True)
    return Param(name, "scalar", m.scalar.name, pointer=True)  # type: ignore[union-attr]


def kinds_assign(target: str, source: str, m: ModelMember, rules: str, copy: str,
                 flat: bool) -> Assign:
    """Assign member ``m`` (with ``dims``) at ``target`` from ``source``: a pointer to its
    values in order (``flat``, a ``make_`` argument) or the same member of another value (a
    record copy), element by element through its array levels."""
    loops: List[Tuple[str, int]] = []
    path = target
    from_path = source
    for k, level in enumerate(levels_of(m)):
        counter = loop_index(k)
        loops.append((counter, level.count))
        step = f"[{counter}]" + (f".{ELEMENT_MEMBER}" if level.wrapped else "")
        path += step
        from_path += step
    return Assign(path, source if flat else from_path, copy, tuple(loops), vector_of(m, rules),
                  flat)


def unheld(st: SchemaType, nodes: Iterable[object], language: str
           ) -> Optional[Tuple[str, str, Optional[SourceLocation]]]:
    """Why a language whose structs' sizes are multiples of their alignment and whose arrays
    span count × stride (C, Rust, Zig: ``language`` names it) cannot hold ``st``, or
    ``None``: ``(what, why, where)``, the type or member, the reason and its place.

    * A structure whose size is not a multiple of its alignment (``scalar`` and
      ``hlsl-cbuffer`` end a structure at its last member).
    * An array (a node of ``st``'s shape) the rules end at its last element, where what
      follows starts inside the last element's padding (``Array.unheld``). Where nothing
      does (``hlsl-cbuffer``'s ``{float32[2] a; vec4<float32> b}``: ``b`` at 32, past the
      array's 2 × 16 bytes), it is held, padded to its span.
    """
    if st.kind != "enum" and st.size % st.align:
        return (st.qualified_name,
                f"under the {st.rules} rules it is {st.size} bytes, {st.align}-aligned, and a "
                f"{language} struct's size is a multiple of its alignment (lay it out by the "
                f"std430 or c rules, or pad it to "
                f"{st.size + st.align - st.size % st.align} bytes)", st.decl.location)
    for node in nodes:
        if isinstance(node, Array) and node.unheld:
            m, lvl = node.member, node.levels[0]
            return (f"{st.qualified_name}.{node.path}",
                    f"under the {st.rules} rules {m.spelling} at offset "
                    f"{node.offset} ends at its last element ({m.size} bytes, its {lvl.count} "
                    f"elements {lvl.stride} bytes apart), and what follows it starts at "
                    f"offset {node.follows}, inside the {node.span} bytes a {language} array "
                    f"of them spans (lay the type out by the std430 rules, or start what "
                    f"follows at offset {node.offset + node.span} or later)",
                    m.location or st.decl.location)
    return None


def refuse_unheld(st: SchemaType, nodes: Iterable[object]) -> None:
    """Refuse a type the C family cannot declare (``unheld``), naming the type or member
    and why."""
    found = unheld(st, nodes, "C")
    if found is not None:
        what, why, where = found
        raise Unrepresentable(f"{what} cannot be declared in C: {why}", where)


# --- the structs' own pins, the header's pins and vectors, the make_ parameters --------


def _model_members(st: SchemaType) -> Tuple[ModelMember, ...]:
    """Every member of ``st``'s struct: a record's fields; a variant's tag and arguments."""
    return (*st.members, *(a for arm in st.arms for a in arm.args))


def struct_pin(st: SchemaType) -> int:
    """The alignment ``st``'s first member is pinned to (0: none), when no member gives the
    struct its alignment (a std140 record of floats is 16-aligned)."""
    if any(max(pin_of(m), natural_align(m)) >= st.align for m in _model_members(st)):
        return 0
    return st.align


def kinds_used(types: Sequence[SchemaType]
               ) -> Tuple[Tuple[int, ...], Tuple[Tuple[str, int, int], ...]]:
    """The alignment pins other than 8 that the members of ``types`` carry (the struct's own
    pin included, ``struct_pin``), and the vectors they hold, each once in first-use order."""
    pins: Dict[int, None] = {}
    vectors: Dict[Tuple[str, int, int], None] = {}
    for st in types:
        if st.kind == "enum":
            continue
        pins.setdefault(struct_pin(st), None)
        for m in _model_members(st):
            pins.setdefault(pin_of(m), None)
            if m.dims:
                vector = vector_of(m, st.rules)
                if vector is not None:
                    vectors.setdefault(vector, None)
    return tuple(n for n in pins if n not in (0, PINNED_ALIGN)), tuple(vectors)


def param(a: ModelMember) -> Param:
    """The ``make_`` parameter of argument ``a``: a scalar, an enum or a record by value, a
    member of SPEC §1b's kinds by a pointer to its values (``Param``)."""
    if a.dims:
        return kinds_param(a.name, a)
    if a.enum is not None:
        return Param(a.name, "enum", a.enum.c_name)
    return Param(a.name, "scalar" if a.scalar is not None else "record", a.type_name)
