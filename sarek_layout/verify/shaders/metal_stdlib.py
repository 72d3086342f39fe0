"""The Metal proxy's stand-ins: the clang++ command line that plays Apple's compiler, and the
headers it includes in place of MSL's own (``<metal_stdlib>``, ``<simd/simd.h>``).

No Metal compiler exists on Linux. MSL is a C++14 dialect and Apple's compiler is clang, so
the nearest check is clang++ ``-std=c++14 --target=arm64-apple-macos11`` with
``__METAL_VERSION__`` defined and stand-in headers that declare MSL's built-in types with
MSL's sizes and alignments: ``uint2`` a two-lane clang vector (8 bytes, 8-aligned, as in MSL),
``half`` clang's ``__fp16`` (2 bytes), ``float3`` 16 bytes and 16-aligned, ``packed_float3`` a
struct of three floats (12 bytes, 4-aligned), ``ulong`` 8 bytes. A proxy: it proves a layout
under clang's arm64 Apple ABI, not that Apple's compiler accepts the code.
"""

from __future__ import annotations

__all__ = ["METAL_SHIM", "METAL_PROXY_ARGS", "SHADER_SHIM", "SIMD_SHIM", "KEYWORDS"]

#: The stand-in for <metal_stdlib> that generated headers get: only what they use.
METAL_SHIM = """// sarek-layout's stand-in for <metal_stdlib> (the metal-proxy check, clang++ -std=c++14).
// MSL declares these built-in types; uint2 is 8 bytes and 8-aligned there as here, half 2
// bytes and 2-aligned (an IEEE binary16, as clang's __fp16 on arm64).
typedef unsigned int uint;
typedef unsigned int uint2 __attribute__((ext_vector_type(2)));
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned long ulong;  // 8 bytes, 8-aligned on arm64, as MSL's ulong
typedef __fp16 half;
"""

METAL_PROXY_ARGS = ("clang++", "-std=c++14", "--target=arm64-apple-macos11", "-x", "c++",
                    "-D__METAL_VERSION__=230", "-nostdinc", "-nostdinc++")

_ELEMENTS = (("float", "float"), ("int", "int"), ("unsigned int", "uint"), ("__fp16", "half"),
             ("short", "short"), ("unsigned short", "ushort"), ("char", "char"),
             ("unsigned char", "uchar"))
_VECTORS = "".join(
    f"typedef {c} {n}{k} __attribute__((ext_vector_type({k})));\n"
    for c, n in _ELEMENTS for k in (2, 3, 4))
_PACKED = "".join(
    f"struct packed_{n}{k} {{ {c} v[{k}]; packed_{n}{k}() = default; "
    f"packed_{n}{k}({n}{k} x) {{ for (int i = 0; i < {k}; i++) v[i] = x[i]; }} "
    f"operator {n}{k}() const {{ {n}{k} x; for (int i = 0; i < {k}; i++) x[i] = v[i]; return x; }} "
    f"{c} &operator[](int i) {{ return v[i]; }} }};\n"
    for c, n in _ELEMENTS if n != "char"
    for k in (2, 3, 4))

#: The stand-in <metal_stdlib> for hand-written shaders.
SHADER_SHIM = ("#pragma once\n" + METAL_SHIM.replace(
    "typedef unsigned int uint2 __attribute__((ext_vector_type(2)));\n", "")
    # MSL's atomic types: laid out as their scalar.
    + "typedef _Atomic(int) atomic_int;\ntypedef _Atomic(unsigned int) atomic_uint;\n"
    + _VECTORS + _PACKED
    + "namespace metal {}\n")

#: <simd/simd.h>, which headers shared between Metal and the host (Apple's ShaderTypes.h
#: pattern) include: its vector names are MSL's vectors.
SIMD_SHIM = ("#pragma once\n#include <metal_stdlib>\n" + "".join(
    f"typedef {n}{k} {prefix}_{n}{k};\n"
    for _, n in _ELEMENTS for k in (2, 3, 4) for prefix in ("simd", "vector")))

#: MSL keywords with no C++ meaning, defined away (as run_e2e.py's Metal step does).
#: ``-fno-trigraphs``: C++14 replaces ``??=`` by ``#`` before any directive is read, so
#: ``??=include "/etc/passwd"`` would include a file ``source`` never saw.
KEYWORDS = ("-fno-trigraphs", "-Dkernel=", "-Dvertex=", "-Dfragment=", "-Ddevice=",
            "-Dconstant=const", "-Dthread=", "-Dthreadgroup=", "-Wno-unknown-attributes")
