"""The Metal proxy's stand-ins: the clang++ command line that plays Apple's compiler, and the
headers it includes in place of MSL's own (``<metal_stdlib>``, ``<simd/simd.h>``).

No Metal compiler exists on Linux. MSL is a C++14 dialect and Apple's compiler is clang, so
the nearest check is clang++ ``-std=c++14 --target=arm64-apple-macos11`` with
``__METAL_VERSION__`` defined and stand-in headers that declare MSL's built-in types with
MSL's sizes and alignments: ``uint2`` a two-lane clang vector (8 bytes, 8-aligned, as in MSL),
``half`` clang's ``__fp16`` (2 bytes), ``float3`` 16 bytes and 16-aligned, ``packed_float3`` a
struct of three floats (12 bytes, 4-aligned), ``ulong`` 8 bytes, ``float4x4`` four ``float4``
columns (64 bytes, 16-aligned), ``atomic_uint`` an ``_Atomic(uint)``. A proxy: it proves a
layout under clang's arm64 Apple ABI, not that Apple's compiler accepts the code.

For hand-written shaders (``SHADER_SHIM``) it also declares what kernels call, enough for
kernels like Apple's samples to compile: vector constructors (``float4(p, 1.0)``, ``float3(x)``,
written as a macro per vector type that builds the vector from its arguments' components),
matrices with their products, the common and geometric functions (``dot``, ``cross``,
``normalize``, ``floor``, ``fract``, ``clamp``, ``mix``…), atomics (``atomic_fetch_add_explicit``,
``memory_order_relaxed``), barriers, textures (``texture2d<float, access::write>`` with
``read``/``write``/``sample``/``get_width``) and samplers. The functions are declared, not
defined: the proxy compiles, it never runs.
"""

from __future__ import annotations

__all__ = ["METAL_SHIM", "METAL_PROXY_ARGS", "SHADER_SHIM", "SIMD_SHIM", "KEYWORDS", "STAND_INS"]

_ELEMENTS = (("float", "float"), ("int", "int"), ("unsigned int", "uint"), ("__fp16", "half"),
             ("short", "short"), ("unsigned short", "ushort"), ("char", "char"),
             ("unsigned char", "uchar"), ("long", "long"), ("unsigned long", "ulong"))
_VECTORS = "".join(
    f"typedef {c} {n}{k} __attribute__((ext_vector_type({k})));\n"
    for c, n in _ELEMENTS for k in (2, 3, 4))
#: The stand-in for <metal_stdlib> that generated headers get: only what they use.
METAL_SHIM = """// sarek-layout's stand-in for <metal_stdlib> (the metal-proxy check, clang++ -std=c++14).
// MSL declares these built-in types; uint2 is 8 bytes and 8-aligned there as here, half 2
// bytes and 2-aligned (an IEEE binary16, as clang's __fp16 on arm64).
typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned long ulong;  // 8 bytes, 8-aligned on arm64, as MSL's ulong
typedef __fp16 half;
// MSL's vectors (float2, uint2, half4…): clang's vectors lay out as MSL's (N components of
// 2 or 4 are N scalars aligned to their size; 3 are 16 bytes).
""" + _VECTORS

METAL_PROXY_ARGS = ("clang++", "-std=c++14", "--target=arm64-apple-macos11", "-x", "c++",
                    "-D__METAL_VERSION__=230", "-nostdinc", "-nostdinc++")

_PACKED = "".join(
    f"struct packed_{n}{k} {{ {c} v[{k}]; packed_{n}{k}() = default; "
    f"packed_{n}{k}({n}{k} x) {{ for (int i = 0; i < {k}; i++) v[i] = x[i]; }} "
    f"operator {n}{k}() const {{ {n}{k} x; for (int i = 0; i < {k}; i++) x[i] = v[i]; return x; }} "
    f"{c} &operator[](int i) {{ return v[i]; }} }};\n"
    for c, n in _ELEMENTS if n not in ("char", "long", "ulong")
    for k in (2, 3, 4))

#: Vector constructors: ``float4(a, b…)`` is a macro of the type's name (a type name not
#: followed by ``(`` stays the type) that fills the vector with its arguments' components,
#: or one scalar in every lane.
_CONSTRUCT = """template <typename V> struct sarek_lanes;
template <typename V, typename S> void sarek_put(V &v, int &i, S s) { v[i++] = s; }
""" + "".join(
    f"template <> struct sarek_lanes<{n}{k}> {{ enum {{ n = {k} }}; }};\n"
    f"template <typename V> void sarek_put(V &v, int &i, {n}{k} w) "
    f"{{ for (int k = 0; k < {k}; k++) v[i++] = w[k]; }}\n"
    for _, n in _ELEMENTS for k in (2, 3, 4)) + "".join(
    f"template <typename V> void sarek_put(V &v, int &i, packed_{n}{k} w) "
    f"{{ for (int k = 0; k < {k}; k++) v[i++] = w.v[k]; }}\n"
    for _, n in _ELEMENTS if n not in ("char", "long", "ulong") for k in (2, 3, 4)) + """
template <typename V, typename... A> V sarek_make(A... a) {
    V v = V(); int i = 0;
    int sarek_each[] = {0, (sarek_put(v, i, a), 0)...};
    (void)sarek_each;
    if (i == 1) for (int k = 1; k < sarek_lanes<V>::n; k++) v[k] = v[0];
    return v;
}
""" + "".join(
    f"#define {n}{k}(...) (::sarek_make<{n}{k}>(__VA_ARGS__))\n"
    for _, n in _ELEMENTS for k in (2, 3, 4))

#: Matrices: ``C`` columns of ``R``-vectors (MSL's ``floatCxR``), and their products.
_SHAPES = [(s, n, c, r) for s, n in (("float", "float"), ("__fp16", "half"))
           for c in (2, 3, 4) for r in (2, 3, 4)]
_MATRICES = "".join(
    f"struct {n}{c}x{r} {{ {n}{r} columns[{c}]; {n}{c}x{r}() = default; "
    f"explicit {n}{c}x{r}({s} d) {{ for (int i = 0; i < {c}; i++) {{ columns[i] = {n}{r}(0); "
    f"if (i < {r}) columns[i][i] = d; }} }} "
    f"{n}{c}x{r}({', '.join(f'{n}{r} c{i}' for i in range(c))}) {{ "
    + " ".join(f"columns[{i}] = c{i};" for i in range(c)) + " } "
    f"{n}{r} &operator[](int i) {{ return columns[i]; }} "
    f"const {n}{r} &operator[](int i) const {{ return columns[i]; }} }};\n"
    for s, n, c, r in _SHAPES) + "".join(
    f"{n}{r} operator*({n}{c}x{r} m, {n}{c} v);\n"
    f"{n}{c} operator*({n}{r} v, {n}{c}x{r} m);\n"
    f"{n}{c}x{r} operator*({n}{c}x{r} m, {s} s);\n"
    f"{n}{c}x{r} operator+({n}{c}x{r} a, {n}{c}x{r} b);\n"
    f"{n}{r}x{c} transpose({n}{c}x{r} m);\n"
    for s, n, c, r in _SHAPES) + "".join(
    f"{n}{k}x{r} operator*({n}{c}x{r} a, {n}{k}x{c} b);\n"
    for _, n, c, r in _SHAPES for k in (2, 3, 4)) + "".join(
    f"typedef {n}{k}x{k} simd_{n}{k}x{k};\n" for n in ("float", "half") for k in (2, 3, 4))

#: What kernels call, declared (never defined: the proxy only compiles).
_FUNCTIONS = """
namespace metal {
typedef ::int8_t int8_t; typedef ::uint8_t uint8_t; typedef ::int16_t int16_t;
typedef ::uint16_t uint16_t; typedef ::int32_t int32_t; typedef ::uint32_t uint32_t;
typedef ::int64_t int64_t; typedef ::uint64_t uint64_t;
template <typename T> T abs(T); template <typename T> T fabs(T);
template <typename T> T floor(T); template <typename T> T ceil(T); template <typename T> T fract(T);
template <typename T> T round(T); template <typename T> T rint(T); template <typename T> T trunc(T);
template <typename T> T sqrt(T); template <typename T> T rsqrt(T); template <typename T> T sign(T);
template <typename T> T sin(T); template <typename T> T cos(T); template <typename T> T tan(T);
template <typename T> T asin(T); template <typename T> T acos(T); template <typename T> T atan(T);
template <typename T> T sinh(T); template <typename T> T cosh(T); template <typename T> T tanh(T);
template <typename T> T exp(T); template <typename T> T exp2(T); template <typename T> T log(T);
template <typename T> T log2(T); template <typename T> T saturate(T);
template <typename T> T normalize(T);
template <typename T, typename U> T min(T, U); template <typename T, typename U> T max(T, U);
template <typename T, typename U> T pow(T, U); template <typename T, typename U> T fmod(T, U);
template <typename T, typename U> T atan2(T, U); template <typename T, typename U> U step(T, U);
template <typename T, typename U> T reflect(T, U);
template <typename T, typename U, typename V> T clamp(T, U, V);
template <typename T, typename U, typename V> T mix(T, U, V);
template <typename T, typename U, typename V> V smoothstep(T, U, V);
template <typename T, typename U, typename V> T fma(T, U, V);
template <typename T, typename U, typename V> T refract(T, U, V);
template <typename T, typename U, typename V> T select(T, U, V);
template <typename V> auto dot(V a, V b) -> decltype(a.x);
template <typename V> auto length(V a) -> decltype(a.x);
template <typename V> auto length_squared(V a) -> decltype(a.x);
template <typename V> auto distance(V a, V b) -> decltype(a.x);
template <typename V> V cross(V a, V b);
template <typename V> bool all(V); template <typename V> bool any(V);
template <typename T, typename U> T as_type(U);
template <typename T> T determinant(T);
enum memory_order { memory_order_relaxed, memory_order_acquire, memory_order_release,
                    memory_order_acq_rel, memory_order_seq_cst };
template <typename A, typename T> T atomic_fetch_add_explicit(A *, T, memory_order);
template <typename A, typename T> T atomic_fetch_sub_explicit(A *, T, memory_order);
template <typename A, typename T> T atomic_fetch_and_explicit(A *, T, memory_order);
template <typename A, typename T> T atomic_fetch_or_explicit(A *, T, memory_order);
template <typename A, typename T> T atomic_fetch_xor_explicit(A *, T, memory_order);
template <typename A, typename T> T atomic_fetch_min_explicit(A *, T, memory_order);
template <typename A, typename T> T atomic_fetch_max_explicit(A *, T, memory_order);
template <typename A, typename T> T atomic_exchange_explicit(A *, T, memory_order);
template <typename A, typename T> void atomic_store_explicit(A *, T, memory_order);
template <typename T> T atomic_load_explicit(const volatile _Atomic(T) *, memory_order);
template <typename A, typename T> bool atomic_compare_exchange_weak_explicit(
    A *, T *, T, memory_order, memory_order);
template <typename T> using atomic = _Atomic(T);
template <typename T, int N> using vec = T __attribute__((ext_vector_type(N)));
enum class mem_flags { mem_none, mem_device, mem_threadgroup, mem_texture };
void threadgroup_barrier(mem_flags); void simdgroup_barrier(mem_flags);
enum class access { sample, read, write, read_write };
enum class coord { normalized, pixel };
enum class filter { nearest, linear };
enum class address { clamp_to_zero, clamp_to_edge, clamp_to_border, repeat, mirrored_repeat };
enum class mip_filter { none, nearest, linear };
struct sampler { template <typename... A> constexpr sampler(A...) {} };
template <typename T, access A = access::sample> struct texture1d {
    vec<T, 4> read(uint, uint = 0) const;
    void write(vec<T, 4>, uint, uint = 0) const;
    vec<T, 4> sample(sampler, float) const;
    uint get_width(uint = 0) const; };
template <typename T, access A = access::sample> struct texture2d {
    vec<T, 4> read(uint2, uint = 0) const;
    vec<T, 4> read(ushort2, uint = 0) const;
    void write(vec<T, 4>, uint2, uint = 0) const;
    void write(vec<T, 4>, ushort2, uint = 0) const;
    vec<T, 4> sample(sampler, float2) const;
    vec<T, 4> sample(sampler, float2, int2) const;
    uint get_width(uint = 0) const; uint get_height(uint = 0) const; };
template <typename T, access A = access::sample> struct texture3d {
    vec<T, 4> read(uint3, uint = 0) const;
    void write(vec<T, 4>, uint3, uint = 0) const;
    vec<T, 4> sample(sampler, float3) const;
    uint get_width(uint = 0) const; uint get_height(uint = 0) const;
    uint get_depth(uint = 0) const; };
template <typename T, access A = access::sample> struct depth2d {
    T read(uint2, uint = 0) const; T sample(sampler, float2) const;
    uint get_width(uint = 0) const; uint get_height(uint = 0) const; };
}
"""

#: The stand-in <metal_stdlib> for hand-written shaders.
SHADER_SHIM = ("#pragma once\n" + METAL_SHIM
    + "typedef signed char int8_t;\ntypedef unsigned char uint8_t;\ntypedef short int16_t;\n"
    "typedef unsigned short uint16_t;\ntypedef int int32_t;\ntypedef unsigned int uint32_t;\n"
    "typedef long int64_t;\ntypedef unsigned long uint64_t;\n"
    # MSL's atomic types: laid out as their scalar.
    + "typedef _Atomic(int) atomic_int;\ntypedef _Atomic(unsigned int) atomic_uint;\n"
    + _PACKED + _CONSTRUCT + _MATRICES + _FUNCTIONS)

#: <simd/simd.h>, which headers shared between Metal and the host (Apple's ShaderTypes.h
#: pattern) include: its vector names are MSL's vectors.
SIMD_SHIM = ("#pragma once\n#include <metal_stdlib>\n" + "".join(
    f"typedef {n}{k} {prefix}_{n}{k};\n"
    for _, n in _ELEMENTS for k in (2, 3, 4) for prefix in ("simd", "vector")))

#: Headers a Metal shader may include that only stand-ins provide: (name, text).
#: ``Foundation/Foundation.h`` is what a shared header includes for the host's side of an
#: ``#ifdef __METAL_VERSION__`` (never compiled here: its stand-in is empty).
STAND_INS = (("metal_stdlib", SHADER_SHIM), ("simd/simd.h", SIMD_SHIM),
             ("Foundation/Foundation.h", "#pragma once\n"))

#: MSL keywords with no C++ meaning, defined away (as run_e2e.py's Metal step does).
#: ``-fno-trigraphs``: C++14 replaces ``??=`` by ``#`` before any directive is read, so
#: ``??=include "/etc/passwd"`` would include a file ``source`` never saw.
KEYWORDS = ("-fno-trigraphs", "-Dkernel=", "-Dvertex=", "-Dfragment=", "-Ddevice=",
            "-Dconstant=const", "-Dthread=", "-Dthreadgroup=", "-Wno-unknown-attributes",
            "-Wno-c99-extensions", "-Wno-c11-extensions",
            # Apple's ShaderTypes.h pattern: NS_ENUM's `enum E : T E;` in a typedef.
            "-Wno-elaborated-enum-base")
