"""The member kinds of SPEC §1b as the host languages with typed arrays declare them (Rust, Zig).

A fixed array, a vector or a matrix member is declared as nested arrays of its element (a
vector is an array of its scalar, a matrix an array of its columns), read off the emitted
shape's levels (``targets.shape.levels_of``): where a level's stride is larger than its
element (a std430 ``vec3<float32>[4]``: stride 16, element 12), the element is wrapped in a
struct of the stride's size and the array's alignment whose one member is the element,
``naming.ELEMENT_MEMBER`` (``a[i].v``), the rest explicit padding. An enum member is its enum
type, which each language declares over the enum's base scalar.

Rust and Zig place every member by the explicit padding before it and pin each struct's
alignment, so a member needs nothing else: a std430 ``vec3<float32>`` is ``[f32; 3]`` (12
bytes) in a 16-aligned struct, and the next member sits in the last 4 bytes of its 16, as
the rules say. Both also refuse what their structs cannot hold (``refusal``): a type whose
size is not a multiple of its alignment (a ``scalar``- or ``hlsl-cbuffer``-rules record
ending mid-alignment), and an array that ends before its last stride where what follows
starts inside that stride (``Array.unheld``), since a Rust or Zig array always spans count ×
stride (the C family's reasons, ``declarations.unheld``); where nothing does, the array is
held, padded to its span. A one-argument constructor whose argument does not start the
payload (``hlsl-cbuffer``'s registers) has a struct arm, as the shape gives it
(``targets.shape.argument_is_arm``).

Nothing here computes a layout: the counts, strides and sizes are the member model's.
"""

from __future__ import annotations

from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple

from ..errors import SchemaError
from ..ir.schema import VECTOR, Member, SchemaType
from ..targets.naming import ELEMENT_MEMBER, element_struct_name
from ..targets.shape import Array, Level, levels_of, shape_of
from .declarations import unheld

__all__ = ["Wrapper", "Spelled", "spell_member", "uses_kinds", "kind_checks", "refusal",
           "members_of", "designator_parts"]


class Wrapper(NamedTuple):
    """A struct wrapping one array level's element up to its stride: ``name`` holds the one
    member ``ELEMENT_MEMBER`` of type ``element`` (``element_size`` bytes), then ``pad``
    bytes of padding; it is ``align``-aligned and ``size`` (the stride) bytes."""

    name: str
    element: str
    element_size: int
    align: int
    size: int

    @property
    def pad(self) -> int:
        return self.size - self.element_size

    @property
    def member(self) -> str:
        return ELEMENT_MEMBER


class Spelled(NamedTuple):
    """A member's type in one language, and the wrapper structs it needs (innermost first:
    each declared before the ones using it)."""

    type: str
    wrappers: Tuple[Wrapper, ...]
    #: The innermost element: a scalar's schema name, or the record's or enum's type.
    element: str
    element_kind: str  # "scalar" | "record" | "enum"


def uses_kinds(m: Member) -> bool:
    """Whether ``m`` is a member of SPEC §1b's kinds (an array, vector, matrix or enum)."""
    return bool(m.dims) or m.enum is not None


def members_of(st: SchemaType) -> Sequence[Member]:
    """Every member the type declares: fields, the tag, each constructor's arguments."""
    out: List[Member] = list(st.members)
    for arm in st.arms:
        out.extend(arm.args)
    return out


def spell_member(m: Member, owner: str, element: Callable[[Member], Tuple[str, str]],
                 array: Callable[[str, int], str]) -> Spelled:
    """``m``'s type: ``element(m)`` gives its innermost element's spelling and kind
    (``scalar``, ``record``, ``enum``), ``array(elem, n)`` spells ``n`` of ``elem``. A wrapped
    level's struct is named from ``owner`` (``<C name>_<member>``)."""
    elem, kind = element(m)
    inner = elem
    for d in m.dims:
        if d.kind == VECTOR:  # always the innermost repetition
            inner = array(inner, d.count)
    levels = levels_of(m) if m.dims else ()
    wrappers: List[Wrapper] = []
    spelled = inner
    for k in range(len(levels) - 1, -1, -1):
        level: Level = levels[k]
        if level.wrapped:
            name = element_struct_name(owner, k)
            wrappers.append(Wrapper(name, spelled, level.element_size, m.align, level.stride))
            spelled = name
        spelled = array(spelled, level.count)
    return Spelled(spelled, tuple(wrappers), elem, kind)


def designator_parts(designator: str) -> List[Tuple[str, int]]:
    """``a[0].v[0]`` as ``[("a", 1), ("v", 1)]``: each member name with how many ``[0]``
    follow it (the member paths the shape and the probes write)."""
    out = []
    for part in designator.split("."):
        name, _, rest = part.partition("[")
        out.append((name, part.count("[")))
    return out


def kind_checks(st: SchemaType) -> List[Tuple[str, str, int]]:
    """``(quantity, designator, value)`` for every array member of ``st``'s shape: each
    level's ``stride`` (the size of its first element, ``a[0]``, ``a[0].v[0]``:
    ``Array.designator``), innermost first, then its ``size`` (the whole member, as its
    count × stride spans it: ``Array.span``, past the model's size where the rules end it at
    its last element and leave that element's padding free): a wrong
    stride is then the first check to fail (Zig reports only that one), not what it moves.
    The offsets are checked with every member's."""
    out: List[Tuple[str, str, int]] = []
    for node in shape_of(st).nodes():
        if isinstance(node, Array):
            out.extend(("stride", node.designator(k), node.levels[k].stride)
                       for k in range(len(node.levels) - 1, -1, -1))
            out.append(("size", node.path, node.span))  # what count × stride spans
    return out


def refusal(st: SchemaType, target: str) -> Optional[SchemaError]:
    """Why ``target`` (Rust, Zig: its structs are a multiple of their alignment, its arrays
    count × stride) cannot hold ``st``, or ``None``: the C family's reasons
    (``declarations.unheld``)."""
    found = unheld(st, shape_of(st).nodes(), target.capitalize())
    if found is None:
        return None
    what, why, where = found
    return SchemaError(f"the {target} target cannot hold {what}: {why}", where)
