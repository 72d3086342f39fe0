"""What a shader compiler built, in one model for every shading language.

A ``GpuType`` is a member's type as the compiler's output says it: SPIR-V's ``OpTypeInt``
width and signedness (glslang), the type naga names in its diagnostics (WGSL), the base types
under the typedefs of LLVM's debug information (the Metal proxy). Typedefs, aliases and macros
are gone: ``typedef float int32_t;`` is a float here, whatever the text says. A
``CompiledStruct`` is one struct with its members' names, types, offsets and sizes, as
compiled. Every verdict of ``verify --shader`` is read from these; the text (``reader``) only
points at a line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

__all__ = ["GpuType", "scalar", "vector", "CompiledMember", "CompiledStruct", "SCALAR_KINDS", "BOOL",
           "OPAQUE", "bound"]

#: The boolean kind, the word SPIR-V, WGSL, GLSL and MSL spell it with (the one place it is
#: written in ``verify.shaders``).
BOOL = "bool"
#: Kinds of scalar: C's signed and unsigned integers, IEEE floats, and booleans.
SCALAR_KINDS = ("int", "uint", "float", BOOL)


@dataclass(frozen=True)
class GpuType:
    """A compiled type. ``kind`` is a scalar kind (``bits`` wide), ``vector`` (``count``
    ``elem``s), ``matrix`` (``count`` columns, each an ``elem`` vector), ``array`` (``count``
    ``elem``s, 0 for a runtime array), ``atomic`` (of ``elem``), ``struct`` (``name``), or
    ``other`` (``name`` says what the compiler called it)."""

    kind: str
    bits: int = 0
    count: int = 0
    elem: Optional["GpuType"] = None
    name: str = ""

    @property
    def is_scalar(self) -> bool:
        return self.kind in SCALAR_KINDS

    def scalar_of(self) -> "GpuType":
        """The scalar under vectors, matrices, arrays and atomics."""
        t = self
        while t.elem is not None:
            t = t.elem
        return t

    def bytes(self) -> Optional[int]:
        """Bytes of a scalar, or of the scalars of a vector (``None`` for anything else)."""
        if self.is_scalar:
            return self.bits // 8
        if self.kind == "vector" and self.elem is not None and self.elem.is_scalar:
            return self.count * self.elem.bits // 8
        if self.kind == "atomic" and self.elem is not None:
            return self.elem.bytes()
        return None


def scalar(kind: str, bits: int) -> GpuType:
    return GpuType(kind, bits)


def vector(elem: GpuType, count: int) -> GpuType:
    return GpuType("vector", count=count, elem=elem)


#: A type the compiler built that no shading language's spelling names here.
OPAQUE = GpuType("other", name="?")


@dataclass
class CompiledMember:
    """One member as compiled: ``offset`` and ``size`` in bytes (``None``: not measured);
    ``levels``, for an array, a matrix or a vector, each level's count and stride in bytes,
    outermost first (an array's elements, a matrix's columns, a vector's components; a
    stride ``None`` where the compiler's output does not say)."""

    name: str
    type: GpuType
    offset: Optional[int] = None
    size: Optional[int] = None
    levels: Tuple[Tuple[int, Optional[int]], ...] = ()


@dataclass
class CompiledStruct:
    """One struct as compiled: its members in order, its array stride and its alignment
    (``None`` where the compiler's output does not say)."""

    name: str
    members: List[CompiledMember] = field(default_factory=list)
    size: Optional[int] = None
    align: Optional[int] = None
    #: Whether the compiler built it (``False``: its shader did not compile).
    measured: bool = True
    #: Where the compiler says it is declared: (file name in the compile folder, line), when
    #: it says (a struct the text declares twice, in ``#if`` branches, is pointed at there).
    place: Optional[Tuple[str, int]] = None

    def member(self, name: str) -> Optional[CompiledMember]:
        for m in self.members:
            if m.name == name:
                return m
        return None


#: Struct nesting a probe follows: deeper than any schema (``resolve.MAX_NESTING``), far
#: from Python's recursion limit.
MAX_DEPTH = 128


def bound(t: GpuType, types: Dict[str, Dict[str, GpuType]], memo: Dict[str, int],
          depth: int = 0) -> int:
    """An upper bound of a type's size in bytes, in every layout (16 per scalar or vector, 16
    per member), for the probe buffers of every shading language; ``types`` holds each
    struct's member types by name (-1: it cannot be probed: a struct not there, or one that
    contains itself, or one nested deeper than ``MAX_DEPTH``)."""
    if depth > MAX_DEPTH:
        return -1
    if t.is_scalar or t.kind in ("vector", "atomic"):
        return 16
    if t.kind == "matrix":
        return 16 * t.count
    if t.kind == "array":
        inner = bound(t.elem, types, memo, depth + 1) if t.elem is not None else -1
        return t.count * (inner + 16) if t.count and inner >= 0 else -1
    if t.kind != "struct" or t.name not in types:
        return -1
    if t.name not in memo:
        memo[t.name] = -1  # a struct that contains itself cannot be probed
        parts = [bound(m, types, memo, depth + 1) for m in types[t.name].values()]
        memo[t.name] = -1 if any(p < 0 for p in parts) else 16 + sum(p + 16 for p in parts)
    return memo[t.name]
