"""Rule sets: the size, alignment and stride of every member kind under one buffer's rules.

SPEC §1b. A schema (or one type) is laid out by one rule set: ``c`` (Sarek's aligned layout,
the default, so every existing schema keeps its bytes) or one of the GPU buffer rules. Each
rule set is one ``RuleSet`` row of ``RULE_SETS``: a handful of numbers and switches, read by
the same few functions below. No consumer branches on a rule set's name; the layout core
(``core._place``) asks ``member_shape`` for every member and ``place`` for every offset.

The rows, and where each number comes from (each is checked against the compiler that
implements the rules natively: gcc for ``c``, glslang with spirv-cross's reflection for the
GLSL block layouts; ``tests/layout/test_rule_sets.py``):

* ``c``: C struct rules. A vector is an array of its scalars (``vec3<f32>`` is 12 bytes,
  4-aligned), a matrix ``matCxR<T>`` is ``T[C][R]``.
* ``std430``: GLSL 4.60 §7.6.2.2 (the Vulkan specification's standard storage buffer
  layout): ``vec2``/``vec4`` aligned to their size, ``vec3`` to four components (12 bytes, so
  the next member may use its tail); an array's stride is its element's size rounded up to the
  element's alignment; a matrix is an array of its column vectors; a structure is aligned to
  its largest member and its size rounded up to that.
* ``std140``: std430, and every array and structure is aligned to 16 (so an array's stride
  and a matrix's column stride are multiples of 16).
* ``scalar``: ``VK_EXT_scalar_block_layout``/``GL_EXT_scalar_block_layout`` as glslang lays it
  out: everything aligned to its scalar, a structure's size is *not* rounded up (DXC#7894: so
  it is not C's layout), and the member after an array starts right after its last element.
* ``wgsl-uniform``: WGSL's uniform address space (the WGSL specification's "Address Space
  Layout Constraints"): std430's sizes and alignments, with every array stride and every
  structure member 16-aligned and the member after a structure at least ``roundUp(16,
  SizeOf(S))`` further (std140's arithmetic), but matrices as in storage (a ``mat2x2<f32>``'s
  columns 8 bytes apart, where std140 puts them 16 apart).
* ``hlsl-cbuffer``: HLSL constant buffer packing (FXC's and DXC's, as Slang's reflection
  gives it for the HLSL target with column-major matrices): 16-byte registers; scalars and
  vectors aligned to their component and never crossing a register (a larger vector starts
  one); arrays, structures and matrices (arrays of their columns) start a register, array
  elements are 16 bytes apart, and the member after an array or a structure may use the
  rest of its last register (no tail padding: ``float a[3]`` is 36 bytes).
* ``cuda``: C struct rules, with vectors as CUDA's ``vector_types.h`` declares them: a
  2-vector aligned to its size (``float2`` 8, ``double2`` 16), a 3-vector to its scalar
  (``float3`` 12 bytes, 4-aligned), a 4-vector to its size but at most 16 (``float4`` 16,
  ``double4`` 32 bytes, 16-aligned); a matrix is an array of such column vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, NamedTuple, Optional, Tuple

from ..ir.types import RULE_SET_NAMES

__all__ = [
    "RuleSet",
    "RULE_SETS",
    "DEFAULT_RULES",
    "rules_named",
    "Shape",
    "LARGEST_SIZE",
    "scalar_shape",
    "vector_shape",
    "array_shape",
    "matrix_shape",
    "struct_shape",
    "place",
]

#: The largest type any rule set lays out: a type must compile on every 32-bit ABI.
LARGEST_SIZE = 2**31 - 1


@dataclass(frozen=True)
class RuleSet:
    """One buffer's layout rules, as numbers (SPEC §1b's table, one row)."""

    name: str
    #: One line for reports and ``--help``.
    summary: str
    #: A ``vecN<T>`` is aligned to ``vector_align[N - 2] * sizeof(T)``, at most
    #: ``vector_align_cap`` (0: no cap).
    vector_align: Tuple[int, int, int]
    #: Arrays, and structures used as members, are aligned to at least this (std140: 16).
    aggregate_align: int
    #: A structure's size is rounded up to its alignment (False: it ends at its last member).
    struct_size_rounded: bool
    #: The member after an array starts after its last element's size, not its stride.
    array_tail_unpadded: bool
    #: Which GLSL block layout qualifier means these rules, where GLSL has one.
    glsl_qualifier: Optional[str] = None
    vector_align_cap: int = 0
    #: HLSL's 16-byte constant registers: a vector never crosses a multiple of ``register``
    #: (it moves to the next one), and one larger than a register starts on one (0: none).
    register: int = 0
    #: A matrix's columns are strided as the column vector's own size rounded to its
    #: alignment, even where arrays round their stride to ``aggregate_align`` (WGSL's
    #: uniform space: a ``mat2x2<f32>``'s columns are 8 bytes apart).
    matrix_columns_natural: bool = False

    def __str__(self) -> str:
        return self.name


RULE_SETS: Dict[str, RuleSet] = {
    r.name: r
    for r in (
        RuleSet("c", "Sarek's aligned layout: C struct rules, vectors and matrices as arrays",
                vector_align=(1, 1, 1), aggregate_align=1, struct_size_rounded=True,
                array_tail_unpadded=False),
        RuleSet("std430", "GLSL/Vulkan storage buffers (std430)",
                vector_align=(2, 4, 4), aggregate_align=1, struct_size_rounded=True,
                array_tail_unpadded=False, glsl_qualifier="std430"),
        RuleSet("std140", "GLSL/Vulkan uniform buffers (std140): arrays and structures 16-aligned",
                vector_align=(2, 4, 4), aggregate_align=16, struct_size_rounded=True,
                array_tail_unpadded=False, glsl_qualifier="std140"),
        RuleSet("scalar", "Vulkan scalar block layout (VK_EXT_scalar_block_layout), as glslang lays it out",
                vector_align=(1, 1, 1), aggregate_align=1, struct_size_rounded=False,
                array_tail_unpadded=True, glsl_qualifier="scalar"),
        RuleSet("cuda", "C struct rules with CUDA's vector types (vector_types.h)",
                vector_align=(2, 1, 4), aggregate_align=1, struct_size_rounded=True,
                array_tail_unpadded=False, vector_align_cap=16),
        RuleSet("wgsl-uniform", "WGSL's uniform address space: array strides and structure "
                "members 16-aligned, matrices as in storage",
                vector_align=(2, 4, 4), aggregate_align=16, struct_size_rounded=True,
                array_tail_unpadded=False, matrix_columns_natural=True),
        RuleSet("hlsl-cbuffer", "HLSL constant buffers: 16-byte registers no vector straddles, "
                "arrays and structures starting one, the last element unpadded",
                vector_align=(1, 1, 1), aggregate_align=16, struct_size_rounded=False,
                array_tail_unpadded=True, register=16),
    )
}

DEFAULT_RULES = RULE_SETS["c"]
# One row per rule set the IR names, in its order.
assert tuple(RULE_SETS) == RULE_SET_NAMES, "layout.rules and ir.types.RULE_SET_NAMES differ"


def rules_named(name: str) -> Optional[RuleSet]:
    """The rule set a schema's ``rules`` key names, or ``None``."""
    return RULE_SETS.get(name)


class Shape(NamedTuple):
    """What the layout of a member needs to know of its type under one rule set.

    ``size`` is how many bytes it occupies (the next member may start right after them);
    ``align`` the alignment its offset is rounded up to; ``stride`` the distance between
    elements of an array (the column stride of a matrix; 0 for anything else).
    """

    size: int
    align: int
    stride: int = 0
    #: A vector: ``place`` keeps it within one of a rule set's registers.
    vector: bool = False


def place(rules: RuleSet, cursor: int, shape: Shape) -> int:
    """Where a member of ``shape`` goes at or after ``cursor``: the next multiple of its
    alignment; under a rule set of registers (HLSL), a vector that would cross one moves to
    the next, and one larger than a register starts on one."""
    offset = (cursor + shape.align - 1) & -shape.align
    register = rules.register
    if register and shape.vector and offset % register + shape.size > register:
        offset = (offset + register - 1) & -register
    return offset


def _align_up(offset: int, align: int) -> int:
    return (offset + align - 1) & -align


def scalar_shape(size: int) -> Shape:
    """A scalar: natural size and alignment under every rule set."""
    return Shape(size, size)


def vector_shape(rules: RuleSet, scalar_size: int, n: int) -> Shape:
    """``vecN<T>`` of a scalar of ``scalar_size`` bytes (N in 2..4)."""
    align = scalar_size * rules.vector_align[n - 2]
    if rules.vector_align_cap and align > rules.vector_align_cap:
        align = rules.vector_align_cap
    size = scalar_size * n
    return Shape(size, align, 0, True)


def array_shape(rules: RuleSet, elem: Shape, count: int) -> Shape:
    """``T[count]`` of an element of shape ``elem``: the stride is the element's size rounded
    up to its alignment (and to the rule set's aggregate alignment)."""
    align = max(elem.align, rules.aggregate_align)
    stride = _align_up(elem.size, align)
    size = stride * count
    if rules.array_tail_unpadded:
        # glslang's scalar layout: an array ends where its last element does (and an array
        # of such arrays strides by that unpadded size).
        size = stride * (count - 1) + elem.size
    return Shape(size, align, stride)


def matrix_shape(rules: RuleSet, scalar_size: int, cols: int, rows: int) -> Shape:
    """``matCxR<T>``, column-major: an array of ``cols`` column vectors ``vecR<T>``.

    Under ``c`` a column is ``T[R]``, so the matrix is ``T[C][R]``; under the GLSL rules it
    is the rule set's array of ``vecR`` (std140: columns 16 apart)."""
    column = vector_shape(rules, scalar_size, rows)
    if rules.matrix_columns_natural:
        stride = _align_up(column.size, column.align)
        return Shape(stride * cols, column.align, stride)
    return array_shape(rules, column, cols)


def struct_shape(rules: RuleSet, end: int, max_align: int) -> Shape:
    """A structure whose last member ends at ``end`` and whose largest member alignment is
    ``max_align`` (a record, or a variant's whole)."""
    align = max(max_align, rules.aggregate_align)
    size = _align_up(end, align) if rules.struct_size_rounded else end
    return Shape(size, align)


