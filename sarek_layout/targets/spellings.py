"""How a C-family header of each target may spell each scalar, as the readers-back see it.

``verify --header`` and ``import-c`` read a header and must know which C spellings mean a
schema scalar on every ABI of its target (the generated headers' own spelling first), and
which near misses to explain. Anything else is not that scalar: ``long`` is 4 bytes on i386,
``long long`` is 16 in OpenCL C, a C ``bool`` is 1 byte. A float16 is the typedef generated
headers declare (``FLOAT16_TYPEDEF``, its binary16 bits in 16 unsigned bits): a bare
``uint16_t`` says nothing of what its bits mean. The registry (``targets.registry``) hands
these to each target; the scalar table itself is ``ir.types``.
"""

from __future__ import annotations

from typing import Dict, Mapping, Tuple

from .naming import FLOAT16_TYPEDEF

__all__ = ["C_FAMILY_READ", "OPENCL_READ", "C_FAMILY_WHY", "OPENCL_WHY", "NEAR_MISS_SCALARS",
           "SHADER_READ"]

#: C and CUDA: the fixed-width names of <stdint.h> and the C types of the same size on every ABI.
C_FAMILY_READ: Mapping[str, Tuple[str, ...]] = {
    "int32": ("int32_t", "int"), "bool": ("int32_t", "int"), "unit": ("int32_t", "int"),
    "int64": ("int64_t", "long long"), "float32": ("float",), "float64": ("double",),
    "float16": (FLOAT16_TYPEDEF,), "uint8": ("uint8_t", "unsigned char"),
}

#: OpenCL C: no <stdint.h>; ``long`` is 64-bit.
OPENCL_READ: Mapping[str, Tuple[str, ...]] = {
    "int32": ("int",), "bool": ("int",), "unit": ("int",), "int64": ("long",),
    "float32": ("float",), "float64": ("double",), "float16": (FLOAT16_TYPEDEF,),
    "uint8": ("uchar", "unsigned char"),
}

_BITS16 = "16 unsigned bits do not say they are a float16's"

#: Near misses worth explaining, per target: what the header says -> why it is wrong.
C_FAMILY_WHY: Dict[str, Mapping[str, str]] = {
    "c": {"long": "long is 4 bytes on i386 and armhf", "_Bool": "C bool is 1 byte, a Sarek bool is 4",
          "uint16_t": _BITS16, "unsigned short": _BITS16},
    "cuda": {"long": "long is 4 bytes on 32-bit hosts",
             "_Bool": "C++ bool is 1 byte, a Sarek bool is 4",
             "uint16_t": _BITS16, "unsigned short": _BITS16},
}
OPENCL_WHY: Mapping[str, str] = {
    "long long": "long long is 16 bytes in OpenCL C", "_Bool": "OpenCL C bool has no storable size",
    "ushort": _BITS16, "unsigned short": _BITS16,
}

#: The scalars a near miss explains (a ``long`` for a float64 is no near miss: "write double"
#: says it all).
NEAR_MISS_SCALARS = frozenset({"int32", "int64", "bool", "unit", "float16"})

#: Hand-written shaders (``verify --shader``): language -> schema scalar -> (the spelling to
#: write, the spellings accepted).
SHADER_READ: Dict[str, Dict[str, Tuple[str, Tuple[str, ...]]]] = {
    "glsl": {"int32": ("int", ("int", "int32_t")), "int64": ("int64_t", ("int64_t",)),
           "float32": ("float", ("float", "float32_t")),
           "float64": ("double", ("double", "float64_t")),
           "bool": ("int", ("int", "uint")), "unit": ("int", ("int", "uint")),
           "uint8": ("uint8_t", ("uint8_t",)), "float16": ("float16_t", ("float16_t",))},
    "wgsl": {"int32": ("i32", ("i32",)), "int64": ("vec2<u32>", ("vec2<u32>", "vec2u")),
           "float32": ("f32", ("f32",)), "float64": ("vec2<u32>", ("vec2<u32>", "vec2u")),
           "bool": ("i32", ("i32", "u32")), "unit": ("i32", ("i32", "u32")),
           "float16": ("f16", ("f16",)), "uint8": ("u32", ())},
    "metal": {"int32": ("int", ("int", "int32_t")), "int64": ("long", ("long", "int64_t")),
            "float32": ("float", ("float",)), "float64": ("uint2", ("uint2",)),
            "bool": ("int", ("int", "uint")), "unit": ("int", ("int", "uint")),
            "uint8": ("uchar", ("uchar", "uint8_t", "unsigned char")),
            "float16": ("half", ("half",))},
}
