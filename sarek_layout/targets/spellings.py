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
    # The extension scalars: <stdint.h>'s names, and the C types of that size on every ABI
    # (``unsigned long`` is not: 4 bytes on i386, 8 on x86-64).
    "int8": ("int8_t", "signed char"), "int16": ("int16_t", "short"),
    "uint16": ("uint16_t", "unsigned short"), "uint32": ("uint32_t", "unsigned int"),
    "uint64": ("uint64_t", "unsigned long long"),
}

#: OpenCL C: no <stdint.h>; ``long`` is 64-bit.
OPENCL_READ: Mapping[str, Tuple[str, ...]] = {
    "int32": ("int",), "bool": ("int",), "unit": ("int",), "int64": ("long",),
    "float32": ("float",), "float64": ("double",), "float16": (FLOAT16_TYPEDEF,),
    "uint8": ("uchar", "unsigned char"),
    # OpenCL C's char is signed and 8 bits, short 16, ulong (and unsigned long) 64.
    "int8": ("char", "signed char"), "int16": ("short",), "uint16": ("ushort", "unsigned short"),
    "uint32": ("uint", "unsigned int"), "uint64": ("ulong", "unsigned long"),
}

_BITS16 = "16 unsigned bits do not say they are a float16's"

#: Near misses worth explaining, per target: what the header says -> why it is wrong.
C_FAMILY_WHY: Dict[str, Mapping[str, str]] = {
    "c": {"long": "long is 4 bytes on i386 and armhf", "_Bool": "C bool is 1 byte, a Sarek bool is 4",
          "uint16_t": _BITS16, "unsigned short": _BITS16,
          "unsigned long": "unsigned long is 4 bytes on i386 and armhf"},
    "cuda": {"long": "long is 4 bytes on 32-bit hosts",
             "_Bool": "C++ bool is 1 byte, a Sarek bool is 4",
             "uint16_t": _BITS16, "unsigned short": _BITS16,
             "unsigned long": "unsigned long is 4 bytes on 32-bit hosts"},
}
OPENCL_WHY: Mapping[str, str] = {
    "long long": "long long is 16 bytes in OpenCL C", "_Bool": "OpenCL C bool has no storable size",
    "ushort": _BITS16, "unsigned short": _BITS16,
    "unsigned long long": "unsigned long long is 16 bytes in OpenCL C",
}

#: The scalars a near miss explains (a ``long`` for a float64 is no near miss: "write double"
#: says it all).
NEAR_MISS_SCALARS = frozenset({"int32", "int64", "bool", "unit", "float16", "uint32", "uint64"})

#: Hand-written shaders (``verify --shader``): language -> schema scalar -> (the spelling to
#: write, the spellings accepted).
SHADER_READ: Dict[str, Dict[str, Tuple[str, Tuple[str, ...]]]] = {
    "glsl": {"int32": ("int", ("int", "int32_t")), "int64": ("int64_t", ("int64_t",)),
           "float32": ("float", ("float", "float32_t")),
           "float64": ("double", ("double", "float64_t")),
           "bool": ("int", ("int", "uint")), "unit": ("int", ("int", "uint")),
           "uint8": ("uint8_t", ("uint8_t",)), "float16": ("float16_t", ("float16_t",)),
           # GL_EXT_shader_explicit_arithmetic_types' names (8/16-bit storage for the small).
           "int8": ("int8_t", ("int8_t",)), "int16": ("int16_t", ("int16_t",)),
           "uint16": ("uint16_t", ("uint16_t",)), "uint32": ("uint", ("uint", "uint32_t")),
           "uint64": ("uint64_t", ("uint64_t",))},
    "wgsl": {"int32": ("i32", ("i32",)), "int64": ("vec2<u32>", ("vec2<u32>", "vec2u")),
           "float32": ("f32", ("f32",)), "float64": ("vec2<u32>", ("vec2<u32>", "vec2u")),
           "bool": ("i32", ("i32", "u32")), "unit": ("i32", ("i32", "u32")),
           "float16": ("f16", ("f16",)), "uint8": ("u32", ()),
           # WGSL has no 8/16-bit integers (a hand-written struct cannot hold one at its
           # offset) and no 64-bit ones (raw words, as int64).
           "int8": ("i32", ()), "int16": ("i32", ()), "uint16": ("u32", ()),
           "uint32": ("u32", ("u32",)), "uint64": ("vec2<u32>", ("vec2<u32>", "vec2u"))},
    "metal": {"int32": ("int", ("int", "int32_t")), "int64": ("long", ("long", "int64_t")),
            "float32": ("float", ("float",)), "float64": ("uint2", ("uint2",)),
            "bool": ("int", ("int", "uint")), "unit": ("int", ("int", "uint")),
            "uint8": ("uchar", ("uchar", "uint8_t", "unsigned char")),
            "float16": ("half", ("half",)),
            "int8": ("char", ("char", "int8_t", "signed char")),
            "int16": ("short", ("short", "int16_t")),
            "uint16": ("ushort", ("ushort", "uint16_t", "unsigned short")),
            "uint32": ("uint", ("uint", "uint32_t", "unsigned int")),
            "uint64": ("ulong", ("ulong", "uint64_t"))},
}
