"""How each header target spells what the views decide: one dialect per target, in Python.

The shared template macros (``templates/_macros.j2``) print structs, checks and helpers
with the ``dialect`` they are handed; the entry templates differ only in their prelude. A
new C-family target is one ``Dialect`` here, one entry in ``targets.TARGETS`` and its
template (docs/extending.md). Scalar facts that are not spellings (sizes, Python formats)
live in the scalar table, ``ir.types``.
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Dict, FrozenSet, Mapping, Pattern

from .naming import FLOAT16_TYPEDEF

__all__ = ["Dialect", "C", "CUDA", "OPENCL", "DIALECTS", "METAL", "ShaderDialect", "GLSL", "WGSL",
           "ZigDialect", "ZIG", "RustDialect", "RUST"]


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
    #: Words reserved only in this target's language: a schema name equal to one is escaped
    #: there (``device`` -> ``device_`` in Metal), never refused (``shader_views.escape``).
    reserved_words: FrozenSet[str] = frozenset()
    #: The suffix of a 64-bit unsigned literal (the ``<c_name>_LAYOUT_ID`` fingerprints):
    #: ``ULL`` in C and C++; ``UL`` where ``long`` is always 64-bit (OpenCL C, Metal).
    u64_suffix: str = "ULL"


# A float16 member of a C-family header is the typedef its prelude declares
# (``targets.naming.FLOAT16_TYPEDEF``): a 16-bit unsigned integer holding the IEEE 754 binary16
# bits. C11/C++11, NVRTC and OpenCL C without cl_khr_fp16 have no 2-byte float type a struct
# member may have, so each stores the bits (kernels convert: CUDA ``__ushort_as_half``,
# OpenCL ``vload_half``), and the name tells ``import-c`` and ``verify --header`` that the
# member is a float16. Metal has ``half``.

_FIXED_WIDTH = {"int32": "int32_t", "int64": "int64_t", "float32": "float", "float64": "double",
                "bool": "int32_t", "unit": "int32_t", "float16": FLOAT16_TYPEDEF,
                "uint8": "uint8_t",
                # The extension scalars (not Sarek element types): <stdint.h>'s own names.
                "int8": "int8_t", "int16": "int16_t", "uint16": "uint16_t", "uint32": "uint32_t",
                "uint64": "uint64_t",
                # A byte string's element (``ir.types.ELEMENT_SCALARS``): C's own char.
                "char": "char"}

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
            "bool": "int", "unit": "int", "float16": FLOAT16_TYPEDEF, "uint8": "uchar",
            # OpenCL C's own fixed sizes (char is signed, 8 bits; ulong is 64 bits).
            "int8": "char", "int16": "short", "uint16": "ushort", "uint32": "uint",
            "uint64": "ulong", "char": "char"},
    align8_before="",
    align8_after=" __attribute__((aligned(8)))",
    alignof="__alignof__",
    offsetof="__builtin_offsetof",
    assert_style="typedef",
    assert_name="",
    fn="static inline",
    zero="{0}",
    u64_suffix="UL",
)

DIALECTS: Dict[str, Dialect] = {d.name: d for d in (C, CUDA, OPENCL)}


# --- GPU API targets (issue #14): Metal is C-family; GLSL and WGSL have their own dialect ---

#: Metal Shading Language words that are not C, C++, CUDA or OpenCL C keywords (those are
#: refused by the resolver): address spaces, function and attribute qualifiers, built-in types.
_MSL_RESERVED = frozenset("""
device thread threadgroup threadgroup_imageblock constant ray_data object_data kernel vertex
fragment visible stage_in patch metal uint ushort uchar ulong half bool2 bool3 bool4 half2 half3
half4 short2 short3 short4 ushort2 ushort3 ushort4 packed_float2 packed_float3 packed_float4
float2x2 float3x3 float4x4 half2x2 half3x3 half4x4 texture1d texture2d texture3d texturecube
texture2d_array texturecube_array depth2d depth2d_array depthcube texture_buffer sampler array
array_ref packed_int2 packed_int3 packed_int4 as_type access imageblock sample_mask
""".split())

#: Metal Shading Language (a C++14 dialect): ``long`` is 64-bit and 8-aligned; MSL has no
#: ``double``, so a float64 is kept as its raw 64-bit words (``uint2``, 8-aligned: the layout
#: is unchanged); ``bool`` is 1 byte in MSL, so bool/unit are ``int``. MSL has 2-byte
#: ``half`` (align 2) and 1-byte ``uchar`` natively: float16 and uint8 are those.
METAL = Dialect(
    name="metal",
    scalar={"int32": "int", "int64": "long", "float32": "float", "float64": "uint2",
            "bool": "int", "unit": "int", "float16": "half", "uint8": "uchar",
            # MSL's fixed sizes, as in OpenCL C (ulong is 64-bit and 8-aligned).
            "int8": "char", "int16": "short", "uint16": "ushort", "uint32": "uint",
            "uint64": "ulong", "char": "char"},
    align8_before="alignas(8) ",
    align8_after="",
    alignof="alignof",
    offsetof="__builtin_offsetof",
    assert_style="static_assert",
    assert_name="static_assert",
    fn="static inline",
    zero="{}",
    reserved_words=_MSL_RESERVED,
    u64_suffix="UL",
)

DIALECTS[METAL.name] = METAL


@dataclass(frozen=True)
class ShaderDialect:
    """A shading language without unions (GLSL, WGSL): its spelling of each scalar and of the
    32-bit words a variant's payload is kept in, and its reserved words."""

    name: str
    #: Schema scalar name -> the member's type in a struct.
    scalar: Mapping[str, str]
    #: The unsigned 32-bit word and the two-word vector (8-aligned): payload words.
    word: str
    word2: str
    #: Scalars the language has no type for, kept as ``word2`` (raw words, same layout).
    raw64: FrozenSet[str]
    #: Names a schema name must not be emitted as (escaped with a trailing ``_``).
    reserved_words: FrozenSet[str]
    #: A prefix the language reserves (``gl_``): names with it are escaped with a leading
    #: ``sarek_`` (a trailing ``_`` would not help).
    reserved_prefix: str = ""


_GLSL_RESERVED = frozenset("""
attribute const uniform varying buffer shared coherent volatile restrict readonly writeonly
atomic_uint layout centroid flat smooth noperspective patch sample subroutine break continue do
for while switch case default if else in out inout float double int void bool true false
invariant precise discard return struct lowp mediump highp precision uint demote terminate
mat2 mat3 mat4 dmat2 dmat3 dmat4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4
dmat2x2 dmat2x3 dmat2x4 dmat3x2 dmat3x3 dmat3x4 dmat4x2 dmat4x3 dmat4x4 vec2 vec3 vec4 ivec2
ivec3 ivec4 bvec2 bvec3 bvec4 dvec2 dvec3 dvec4 uvec2 uvec3 uvec4 i64vec2 i64vec3 i64vec4
u64vec2 u64vec3 u64vec4 f64vec2 f64vec3 f64vec4 int8_t uint8_t int16_t uint16_t int32_t uint32_t
int64_t uint64_t float16_t float32_t float64_t sampler1D sampler2D sampler3D samplerCube
sampler1DShadow sampler2DShadow samplerCubeShadow sampler1DArray sampler2DArray sampler2DRect
samplerBuffer sampler2DMS image1D image2D image3D imageCube imageBuffer image2DArray texture1D
texture2D texture3D textureCube texture2DArray textureBuffer sampler samplerShadow subpassInput
accelerationStructureEXT rayQueryEXT
common partition active asm class union enum typedef template this resource goto inline noinline
public static extern external interface long short half fixed unsigned superp input output hvec2
hvec3 hvec4 fvec2 fvec3 fvec4 filter sizeof cast namespace using sampler3DRect
length
""".split()) | frozenset(
    # Every opaque type of GLSL 4.60 (section 3.6 of the spec), in its float, int and uint
    # forms: glslang reads each as a keyword, so a member named ``isampler2D`` or ``uimage3D``
    # would not compile.
    f"{p}{base}{dims}"
    for p in ("", "i", "u")
    for base, dim_list in (
        ("sampler", ("1D", "2D", "3D", "Cube", "2DRect", "1DArray", "2DArray", "CubeArray",
                     "Buffer", "2DMS", "2DMSArray")),
        ("image", ("1D", "2D", "3D", "2DRect", "Cube", "Buffer", "1DArray", "2DArray",
                   "CubeArray", "2DMS", "2DMSArray")),
        ("texture", ("1D", "2D", "3D", "2DRect", "Cube", "Buffer", "1DArray", "2DArray",
                     "CubeArray", "2DMS", "2DMSArray")),
        ("subpassInput", ("", "MS")))
    for dims in dim_list) | frozenset("""
sampler2DRectShadow sampler1DArrayShadow sampler2DArrayShadow samplerCubeArrayShadow
i8vec2 i8vec3 i8vec4 u8vec2 u8vec3 u8vec4 i16vec2 i16vec3 i16vec4 u16vec2 u16vec3 u16vec4
i32vec2 i32vec3 i32vec4 u32vec2 u32vec3 u32vec4 f16vec2 f16vec3 f16vec4 f32vec2 f32vec3 f32vec4
""".split())
# `length` is not a keyword but `.length` after an expression is GLSL's array-length method:
# glslang refuses `v.length` on a struct whose member is named so.

#: GLSL 4.50 for Vulkan (``layout(std430)`` buffers); 64-bit integers through
#: GL_EXT_shader_explicit_arithmetic_types_int64, doubles are core (device feature
#: shaderFloat64). uint8, float16, int8, int16 and uint16 are never struct members (packed
#: 32-bit words, ``shader_views``): these are the types their accessors return and ``make_``
#: takes.
GLSL = ShaderDialect(
    name="glsl",
    scalar={"int32": "int", "int64": "int64_t", "float32": "float", "float64": "double",
            "bool": "int", "unit": "int", "uint8": "uint", "float16": "float",
            # 8- and 16-bit integers live in packed words like uint8 (read sign-extended
            # when signed); uint64 is GL_EXT_shader_explicit_arithmetic_types_int64's, as int64.
            "int8": "int", "int16": "int", "uint16": "uint", "uint32": "uint",
            "uint64": "uint64_t", "char": "uint"},
    word="uint",
    word2="uvec2",
    raw64=frozenset(),
    reserved_words=_GLSL_RESERVED,
    reserved_prefix="gl_",
)

# WGSL keywords, reserved words (WGSL spec, section 15) and predeclared type names.
_WGSL_RESERVED = frozenset("""
alias break case const const_assert continue continuing default diagnostic discard else enable
false fn for if let loop override requires return struct switch true var while
NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become
binding_array cast catch class co_await co_return co_yield coherent column_major common compile
compile_fragment concept const_cast consteval constexpr constinit crate debugger decltype delete
demote demote_to_helper do dynamic_cast enum explicit export extends extern external
fallthrough filter final finally friend from fxgroup get goto groupshared highp impl implements
import inline instanceof interface layout lowp macro macro_rules match mediump meta mod module
move mut mutable namespace new nil noexcept noinline nointerpolation noperspective null nullptr
of operator package packoffset partition pass patch pixelfragment precise precision premerge
priv protected pub public readonly ref regardless register reinterpret_cast require resource
restrict self set shared sizeof smooth snorm static static_assert static_cast std subroutine
super target template this thread_local throw trait try type typedef typeid typename typeof
union unless unorm unsafe unsized use using varying virtual volatile wgsl where with writeonly
yield
bool f16 f32 i32 u32 vec2 vec3 vec4 vec2i vec3i vec4i vec2u vec3u vec4u vec2f vec3f vec4f vec2h
vec3h vec4h mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 mat2x2f mat3x3f
mat4x4f array atomic ptr sampler sampler_comparison texture_1d texture_2d texture_2d_array
texture_3d texture_cube texture_cube_array texture_multisampled_2d texture_storage_1d
texture_storage_2d texture_storage_2d_array texture_storage_3d texture_depth_2d
texture_depth_2d_array texture_depth_cube texture_depth_cube_array texture_depth_multisampled_2d
texture_external bitcast select
""".split())

#: WGSL (WebGPU): no 64-bit scalars and no host-shareable bool: bool/unit are ``i32``; int64,
#: uint64 and float64 are kept as their raw words, ``vec2<u32>`` (8-aligned: the layout is
#: unchanged). uint8, float16, int8, int16 and uint16 live in packed 32-bit words; their
#: accessors give ``u32``, ``f32`` and ``i32`` (``f16`` would need the shader-f16 feature).
WGSL = ShaderDialect(
    name="wgsl",
    scalar={"int32": "i32", "int64": "vec2<u32>", "float32": "f32", "float64": "vec2<u32>",
            "bool": "i32", "unit": "i32", "uint8": "u32", "float16": "f32",
            # 8- and 16-bit integers live in packed words like uint8 (read sign-extended
            # when signed); uint64 is its raw words, as int64.
            "int8": "i32", "int16": "i32", "uint16": "u32", "uint32": "u32",
            "uint64": "vec2<u32>", "char": "u32"},
    word="u32",
    word2="vec2<u32>",
    raw64=frozenset({"int64", "float64", "uint64"}),
    reserved_words=_WGSL_RESERVED,
)


# --- host languages (issue #21) -------------------------------------------------------------


@dataclass(frozen=True)
class RustDialect:
    """Rust (``codegen.rust_view``): its spelling of each scalar and the words it reserves.

    ``keywords`` are emitted as raw identifiers (``r#type``); ``not_raw`` are the keywords
    Rust refuses even as raw identifiers, escaped with a trailing ``_`` (``self`` -> ``self_``);
    ``primitives`` are the primitive type names the generated code itself uses, which a type
    must not shadow (a type of module ``""`` named ``i32``)."""

    name: str
    scalar: Mapping[str, str]
    keywords: FrozenSet[str]
    not_raw: FrozenSet[str]
    primitives: FrozenSet[str]


# Every keyword of the Rust reference (strict, reserved, weak), those of the 2018 edition
# (async await dyn try) and the 2024 edition (gen): raw identifiers are valid in every edition.
_RUST_KEYWORDS = frozenset("""
as break const continue crate else enum extern false fn for if impl in let loop match mod move
mut pub ref return self Self static struct super trait true type unsafe use where while async
await dyn abstract become box do final macro override priv typeof unsized virtual yield try
gen union macro_rules raw safe
""".split())

#: bool and unit are 32-bit integers, as in every target; float16 is its IEEE binary16 bits.
RUST = RustDialect(
    name="rust",
    scalar={"int32": "i32", "int64": "i64", "float32": "f32", "float64": "f64", "bool": "i32",
            "unit": "i32", "float16": "u16", "uint8": "u8",
            # The extension scalars: Rust's own fixed-width integers.
            "int8": "i8", "int16": "i16", "uint16": "u16", "uint32": "u32", "uint64": "u64",
            "char": "u8"},
    keywords=_RUST_KEYWORDS,
    not_raw=frozenset(("self", "Self", "super", "crate", "_")),
    primitives=frozenset("i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f16 f32 f64 f128 "
                         "bool char str".split()),
)


# --- Zig (issue 21): extern structs and unions with the C header's member names ---


@dataclass(frozen=True)
class ZigDialect:
    """Zig's spelling of each scalar, and the names it escapes as ``@"name"``."""

    name: str
    scalar: Mapping[str, str]
    #: Keywords, primitive types and primitive values: a schema name equal to one is emitted
    #: as ``@"name"`` (``targets.naming.escape``), which Zig reads as that plain identifier.
    reserved_words: FrozenSet[str]
    #: Names of a family Zig reserves as a whole: every ``iN``/``uN`` is an integer type.
    reserved_pattern: Pattern[str]
    #: How an escaped name is written.
    escape_format: str = '@"{}"'


#: Zig 0.17's keywords (and the ones older releases had, async/await/suspend…: escaping them
#: costs nothing), its primitive types other than ``iN``/``uN``, and its primitive values.
_ZIG_RESERVED = frozenset("""
addrspace align allowzero and anyframe anytype asm async await break callconv catch comptime
const continue defer else enum errdefer error export extern fn for if inline linksection
noalias noinline nosuspend opaque or orelse packed pub resume return struct suspend switch
test threadlocal try union unreachable usingnamespace var volatile while
isize usize c_char c_short c_ushort c_int c_uint c_long c_ulong c_longlong c_ulonglong
c_longdouble f16 f32 f64 f80 f128 bool anyopaque void noreturn type anyerror comptime_int
comptime_float true false null undefined _
""".split())

#: Zig 0.11 or later (``extern struct``/``extern union``, ``align(8)`` on fields, ``@offsetOf``),
#: 0.14 for ``@FieldType`` and ``@splat`` of arrays. bool and unit are 32-bit integers and a
#: float16 is its IEEE 754 binary16 bits, as in the C header, so the bytes are the same.
ZIG = ZigDialect(
    name="zig",
    scalar={"int32": "i32", "int64": "i64", "float32": "f32", "float64": "f64",
            "bool": "i32", "unit": "i32", "float16": "u16", "uint8": "u8",
            # The extension scalars: Zig's own fixed-width integers.
            "int8": "i8", "int16": "i16", "uint16": "u16", "uint32": "u32", "uint64": "u64",
            "char": "u8"},
    reserved_words=_ZIG_RESERVED,
    reserved_pattern=re.compile(r"[iu][0-9]+\Z"),
)
