"""How each header target spells what the views decide: one dialect per target, in Python.

The shared template macros (``templates/_macros.j2``) print structs, checks and helpers
with the ``dialect`` they are handed; the entry templates differ only in their prelude. A
new C-family target is one ``Dialect`` here, one entry in ``targets.TARGETS`` and its
template (docs/extending.md). Scalar facts that are not spellings (sizes, Python formats)
live in the scalar table, ``ir.types``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Mapping

__all__ = ["Dialect", "C", "CUDA", "OPENCL", "DIALECTS"]


@dataclass(frozen=True)
class Dialect:
    """One target language's spellings (every field is printed verbatim by the templates)."""

    name: str
    #: Schema scalar name -> the target's type (``int64`` -> ``int64_t`` or ``long``).
    scalar: Mapping[str, str]
    #: Written before / after an 8-byte member's declaration (the alignment specifier).
    align8_before: str
    align8_after: str
    #: The alignment operator and ``offsetof``, as function-like spellings.
    alignof: str
    offsetof: str
    #: ``static_assert`` (then ``assert_name`` is its spelling) or ``typedef`` (a char array
    #: of negative size when false: OpenCL C has no static assertion).
    assert_style: str
    assert_name: str
    #: Qualifiers of the ``make_`` helpers and record copies, and the zero initialiser.
    fn: str
    zero: str


_FIXED_WIDTH = {"int32": "int32_t", "int64": "int64_t", "float32": "float", "float64": "double",
                "bool": "int32_t", "unit": "int32_t"}

#: One header for C11 and C++11: the prelude defines the SAREK_LAYOUT_* macros per language.
C = Dialect(
    name="c",
    scalar=_FIXED_WIDTH,
    align8_before="SAREK_LAYOUT_ALIGN8 ",
    align8_after="",
    alignof="SAREK_LAYOUT_ALIGNOF",
    offsetof="offsetof",
    assert_style="static_assert",
    assert_name="SAREK_LAYOUT_STATIC_ASSERT",
    fn="SAREK_LAYOUT_FN",
    zero="SAREK_LAYOUT_ZERO",
)

#: CUDA C++ for nvcc and NVRTC (the prelude picks offsetof or the builtin under NVRTC).
CUDA = Dialect(
    name="cuda",
    scalar=_FIXED_WIDTH,
    align8_before="alignas(8) ",
    align8_after="",
    alignof="alignof",
    offsetof="SAREK_LAYOUT_OFFSETOF",
    assert_style="static_assert",
    assert_name="static_assert",
    fn="static inline __host__ __device__",
    zero="{}",
)

#: OpenCL C 1.2 and later: no <stdint.h> (long is 64-bit, long long 128), no offsetof, no
#: static_assert.
OPENCL = Dialect(
    name="opencl",
    scalar={"int32": "int", "int64": "long", "float32": "float", "float64": "double",
            "bool": "int", "unit": "int"},
    align8_before="",
    align8_after=" __attribute__((aligned(8)))",
    alignof="__alignof__",
    offsetof="__builtin_offsetof",
    assert_style="typedef",
    assert_name="",
    fn="static inline",
    zero="{0}",
)

DIALECTS: Dict[str, Dialect] = {d.name: d for d in (C, CUDA, OPENCL)}
