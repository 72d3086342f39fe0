"""CUDA's vector types in C headers (SPEC §1b): ``float4``, ``int2``, ``uchar4``, ``double2``…
read as ``vecN<T>`` members of a type laid out by the ``cuda`` rules.

CUDA declares them in ``vector_types.h`` as structs of ``x``, ``y`` (``z``, ``w``) with an
alignment of their own: a 2-vector aligned to its size (``float2`` 8, ``double2`` 16), a
3-vector to its component (``float3`` 12 bytes, 4-aligned), a 4-vector to its size but at
most 16 (``float4`` 16; ``double4`` and ``double4_16a`` 32 bytes, 16-aligned). A struct is
read as one only when *all* of this holds, so that a header's own ``float4`` laid out
otherwise (a CPU library's ``typedef struct { float x, y, z, w; } float4;``, 4-aligned) stays
the plain struct it is:

* its name is CUDA's (``<component><N>``, or ``<component>4_16a``): ``char``/``uchar``,
  ``short``/``ushort``, ``int``/``uint``, ``longlong``/``ulonglong``, ``float``, ``double``;
  ``long``/``ulong`` vectors are 8 or 16 bytes by ABI and stay refused, as ``long`` is;
* its members are ``x``, ``y``[, ``z``[, ``w``]] of that component, read as the C reader
  reads scalars (``signed char`` is int8, ``unsigned long long`` uint64…);
* its alignment, what an alignment attribute sets (``__align__(16)``,
  ``__attribute__((aligned(16)))``, on the struct or its typedef) or else its component's, is
  CUDA's, and nothing else changes its layout (no packing).

``CUDA_VECTOR_ALIGN`` states CUDA's alignments once here; the ``cuda`` rule set of the layout
stage (``layout.rules``) lays the members out by the same numbers, and
``tests/frontends/test_cheader_vectors.py`` holds both against nvcc. The one-component types
(``float1``…) and ``dim3`` are plain structs of one or three scalars, read as such.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ...ir.types import (RULE_SET_NAMES, TFloat32, TFloat64, TInt8, TInt16, TInt32, TInt64,
                         TUint8, TUint16, TUint32, TUint64, Scalar)

__all__ = ["CUDA_RULES", "CUDA_COMPONENTS", "CUDA_VECTOR_ALIGN", "cuda_vector_name",
           "cuda_vector_align"]

#: The rule set that lays out the types holding them (``namespace``).
CUDA_RULES = "cuda"
assert CUDA_RULES in RULE_SET_NAMES

#: The component of each of CUDA's vector type families, by the name's stem.
CUDA_COMPONENTS = {
    "char": TInt8, "uchar": TUint8, "short": TInt16, "ushort": TUint16, "int": TInt32,
    "uint": TUint32, "longlong": TInt64, "ulonglong": TUint64, "float": TFloat32,
    "double": TFloat64,
}

_NAME = re.compile(r"(?P<stem>[a-z]+)(?P<n>[234])(?P<a16>_16a)?\Z")

#: The largest alignment CUDA gives a vector type (``vector_types.h``: ``__builtin_align__(16)``
#: on the 4-vectors of 8-byte components; the ``_32a`` forms are 32 and are not vecN).
_ALIGN_CAP = 16
#: A vector of N components is aligned to this many components (N = 2, 3, 4), at most 16 bytes.
CUDA_VECTOR_ALIGN = (2, 1, 4)


def cuda_vector_name(name: str) -> Optional[Tuple[Scalar, int]]:
    """``(component, N)`` when ``name`` is one of CUDA's vector type names, else ``None``."""
    m = _NAME.match(name)
    if m is None:
        return None
    component = CUDA_COMPONENTS.get(m.group("stem"))
    n = int(m.group("n"))
    if component is None or (m.group("a16") and not (n == 4 and component.wide)):
        return None
    return component, n


def cuda_vector_align(component: Scalar, n: int) -> int:
    """The alignment CUDA gives the vector of ``n`` ``component``s."""
    return min(component.size * CUDA_VECTOR_ALIGN[n - 2], _ALIGN_CAP)
