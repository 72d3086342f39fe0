"""The words of each language the targets emit: keywords, reserved words, built-in type and
function names, as plain tables. ``name_rules`` decides from them, per target and place,
whether a name is kept, escaped or refused; this module only lists them. It imports nothing
of the package.
"""

from __future__ import annotations

import keyword
import re
from typing import Dict, FrozenSet

# --- the words of each language ------------------------------------------------------------

# C99's keywords, which C++ and OpenCL C share (restrict is C's alone), and the names every C
# and C++ program has: bool/true/false (C23 and C++ keywords, <stdbool.h> macros before), NULL.
_C99 = """auto break case char const continue default do double else enum extern float for goto
if inline int long register return short signed sizeof static struct switch typedef union
unsigned void volatile while bool true false NULL"""
_C_ONLY = "restrict"
# C11's <stdalign.h> and <assert.h> macros, which C23 and C++ make keywords (C11's <stdnoreturn.h>
# and <complex.h> macros are the C library's: ``predefined``).
_C11 = "alignas alignof static_assert thread_local"
# C23's typeof operators (gcc's and clang's GNU modes, C and C++, already have typeof).
_C23 = "typeof typeof_unqual"

_CPP = """and and_eq asm bitand bitor catch char16_t char32_t char8_t class compl concept consteval
constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit
export friend mutable namespace new noexcept not not_eq nullptr operator or or_eq private
protected public reinterpret_cast requires static_cast template this throw try typeid typename
using virtual wchar_t xor xor_eq"""

# OpenCL C: address-space and access qualifiers, kernel keywords, the image types (keywords in
# clang) and the words OpenCL C 1.2 reserves (6.1.4: quad, complex, imaginary; 6.1.9: uniform).
_OPENCL = """kernel global local constant private generic read_only write_only read_write pipe
uniform half image1d_t image2d_t image3d_t image1d_array_t image1d_buffer_t image2d_array_t
quad complex imaginary vec_step"""
# ... and its built-in type names that are typedefs, not keywords: fine as members, declared at
# file scope.
_OPENCL_TYPES = """uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t sampler_t
event_t"""

# The fixed-width type names the generated C and CUDA headers' structs use: a member spelt like
# a type its struct uses changes what that name means there, which C++ forbids
# ([basic.scope.class]; g++ rejects it).
_STDINT = "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t"

# Built-in vector types, declared at file scope: OpenCL C's (float4, uchar16…) and CUDA's,
# which nvcc includes implicitly (float1, longlong2, ulonglong4…).
_OPENCL_VECTOR = re.compile(
    r"(?:char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(?:2|3|4|8|16)\Z")
_CUDA_VECTOR = re.compile(r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]\Z")

# Functions a device compiler declares before any user code: nvcc's implicit CUDA runtime
# headers bring the C math library, CUDA's own math (min, max, rsqrt…) and a few C library
# functions, OpenCL C its builtins. A type or enum constant named like one is an error ("max
# has already been declared"), which only a type of module "" (no C prefix) can run into.
_MATH = """acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh erf erfc exp exp2
expm1 fabs fdim floor fma fmax fmin fmod frexp hypot ilogb ldexp lgamma llrint llround log
log10 log1p log2 logb lrint lround modf nan nearbyint nextafter pow remainder remquo rint round
scalbln scalbn sin sinh sqrt tan tanh tgamma trunc"""
_DEVICE_FUNCTIONS = frozenset(
    [f + suffix for f in _MATH.split() for suffix in ("", "f", "l")]
    + """min max umin umax llmin llmax ullmin ullmax rsqrt rsqrtf rcbrt rcbrtf sincos sincosf
    sincospi sincospif sinpi sinpif cospi cospif exp10 exp10f erfinv erfinvf erfcinv erfcinvf
    normcdf normcdff normcdfinv normcdfinvf saturate j0 j1 jn y0 y1 yn j0f j1f jnf y0f y1f ynf
    norm normf norm3d norm3df norm4d norm4df rnorm rnormf rhypot rhypotf isfinite isinf isnan
    signbit abs labs llabs div ldiv lldiv malloc free memcpy memset printf clock clock64 assert
    clamp dot cross mad mix step smoothstep sign degrees radians select""".split()
)

# Python: a keyword, or a name every class has through its metaclass (``mro``: a dataclass
# field spelt like one would take the method as its default), gets a trailing '_'.
_PYTHON_ESCAPED = frozenset(keyword.kwlist) | frozenset(n for n in dir(type) if not n.startswith("__"))

#: The hand-kept word lists of the C family, by the language that reserves them (the macro
#: tables are ``predefined``'s; the shading and host languages' words follow).
C_FAMILY_WORDS: Dict[str, FrozenSet[str]] = {
    "C99": frozenset(_C99.split()), "C": frozenset(_C_ONLY.split()),
    "C11": frozenset(_C11.split()), "C23": frozenset(_C23.split()), "C++": frozenset(_CPP.split()),
    "OpenCL C": frozenset(_OPENCL.split()), "OpenCL C types": frozenset(_OPENCL_TYPES.split()),
    "stdint": frozenset(_STDINT.split()),
}

# --- the words of the languages that escape them -------------------------------------------

#: Metal Shading Language words that are not C or C++ keywords (those are refused for metal,
#: ``targets.names``): address spaces, function and attribute qualifiers, built-in types.
MSL_RESERVED = frozenset("""
device thread threadgroup threadgroup_imageblock constant ray_data object_data kernel vertex
fragment visible stage_in patch metal uint ushort uchar ulong half bool2 bool3 bool4 half2 half3
half4 short2 short3 short4 ushort2 ushort3 ushort4 packed_float2 packed_float3 packed_float4
float2x2 float3x3 float4x4 half2x2 half3x3 half4x4 texture1d texture2d texture3d texturecube
texture2d_array texturecube_array depth2d depth2d_array depthcube texture_buffer sampler array
array_ref packed_int2 packed_int3 packed_int4 as_type access imageblock sample_mask
""".split())

GLSL_RESERVED = frozenset("""
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

# WGSL keywords, reserved words (WGSL spec, section 15) and predeclared type names.
WGSL_RESERVED = frozenset("""
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

# HLSL (DXC, FXC, Slang): Microsoft's "Keywords" and "Reserved Words" pages, the scalar, vector
# and matrix type names of every scalar (``float4x4``, ``min16float2``, ``uint64_t3``), the
# resource and object types, and the words glslang's HLSL front end refuses as a member name
# (measured: ``tests/targets/test_name_rules.py``). Slang itself refuses only ``int``.
_HLSL_KEYWORDS = """
AppendStructuredBuffer asm asm_fragment BlendState bool break Buffer ByteAddressBuffer case cbuffer
centroid class column_major compile compile_fragment CompileShader const continue ComputeShader
ConsumeStructuredBuffer default DepthStencilState DepthStencilView discard do double DomainShader
dword else export extern false float for fxgroup GeometryShader groupshared half Hullshader
HullShader if in inline inout InputPatch int interface line lineadj linear LineStream matrix
min16float min10float min16int min12int min16uint namespace nointerpolation noperspective NULL out
OutputPatch packoffset pass pixelfragment PixelShader point PointStream precise RasterizerState
RenderTargetView return register row_major RWBuffer RWByteAddressBuffer RWStructuredBuffer
RWTexture1D RWTexture1DArray RWTexture2D RWTexture2DArray RWTexture3D sample sampler SamplerState
SamplerComparisonState shared snorm stateblock stateblock_state static string struct switch
StructuredBuffer tbuffer technique technique10 technique11 texture Texture1D Texture1DArray
Texture2D Texture2DArray Texture2DMS Texture2DMSArray Texture3D TextureCube TextureCubeArray true
typedef triangle triangleadj TriangleStream uint uniform unorm unsigned vector vertexfragment
VertexShader void volatile while
auto catch char const_cast delete dynamic_cast enum explicit friend goto long mutable new operator
private protected public reinterpret_cast short signed sizeof static_cast template this throw try
typename union using virtual
ConstantBuffer TextureBuffer RaytracingAccelerationStructure RasterizerOrderedBuffer
RasterizerOrderedByteAddressBuffer RasterizerOrderedStructuredBuffer RasterizerOrderedTexture1D
RasterizerOrderedTexture1DArray RasterizerOrderedTexture2D RasterizerOrderedTexture2DArray
RasterizerOrderedTexture3D FeedbackTexture2D FeedbackTexture2DArray RWTexture2DMS
RWTexture2DMSArray globallycoherent nullptr
"""
_HLSL_SCALARS = """bool int uint dword half float double min16float min10float min16int min12int
min16uint int16_t uint16_t int32_t uint32_t int64_t uint64_t float16_t float32_t float64_t"""
HLSL_RESERVED = frozenset(_HLSL_KEYWORDS.split()) | frozenset(
    f"{base}{shape}" for base in _HLSL_SCALARS.split()
    for shape in ("", *(str(n) for n in range(1, 5)),
                  *(f"{r}x{c}" for r in range(1, 5) for c in range(1, 5))))

#: HLSL's intrinsic functions (Microsoft's "Intrinsic Functions" page, Shader Model 6's
#: additions the generated files call): a type named like one (module "", at file scope) hides
#: it from every later call (Slang: ``struct max`` makes ``max(1, 2)`` "too many arguments").
HLSL_INTRINSICS = frozenset("""
abort abs acos all AllMemoryBarrier AllMemoryBarrierWithGroupSync any asdouble asfloat asfloat16
asin asint asint16 asuint asuint16 atan atan2 ceil CheckAccessFullyMapped clamp clip cos cosh
countbits cross D3DCOLORtoUBYTE4 ddx ddx_coarse ddx_fine ddy ddy_coarse ddy_fine degrees
determinant DeviceMemoryBarrier DeviceMemoryBarrierWithGroupSync distance dot dst errorf
EvaluateAttributeAtSample EvaluateAttributeCentroid EvaluateAttributeSnapped exp exp2 f16tof32
f32tof16 faceforward firstbithigh firstbitlow floor fma fmod frac frexp fwidth
GetRenderTargetSampleCount GetRenderTargetSamplePosition GroupMemoryBarrier
GroupMemoryBarrierWithGroupSync InterlockedAdd InterlockedAnd InterlockedCompareExchange
InterlockedCompareStore InterlockedExchange InterlockedMax InterlockedMin InterlockedOr
InterlockedXor isfinite isinf isnan ldexp length lerp lit log log10 log2 mad max min modf msad4
mul noise normalize pow printf radians rcp reflect refract reversebits round rsqrt saturate sign
sin sincos sinh smoothstep sqrt step tan tanh transpose trunc WaveActiveAllEqual
WaveActiveAllTrue WaveActiveAnyTrue WaveActiveBallot WaveActiveBitAnd WaveActiveBitOr
WaveActiveBitXor WaveActiveCountBits WaveActiveMax WaveActiveMin WaveActiveProduct WaveActiveSum
WaveGetLaneCount WaveGetLaneIndex WaveIsFirstLane WavePrefixCountBits WavePrefixProduct
WavePrefixSum WaveReadLaneAt WaveReadLaneFirst main
""".split())

# Every keyword of the Rust reference (strict, reserved, weak), those of the 2018 edition
# (async await dyn try) and the 2024 edition (gen): raw identifiers are valid in every edition.
RUST_KEYWORDS = frozenset("""
as break const continue crate else enum extern false fn for if impl in let loop match mod move
mut pub ref return self Self static struct super trait true type unsafe use where while async
await dyn abstract become box do final macro override priv typeof unsized virtual yield try
gen union macro_rules raw safe
""".split())

#: The keywords Rust refuses even as raw identifiers (escaped ``self_``), and the primitive type
#: names the generated module uses, which a type must not shadow.
RUST_NOT_RAW = frozenset(("self", "Self", "super", "crate", "_"))
RUST_PRIMITIVES = frozenset("i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f16 f32 f64 f128 "
                            "bool char str".split())

#: Zig 0.17's keywords (and the ones older releases had, async/await/suspend…: escaping them
#: costs nothing), its primitive types other than ``iN``/``uN``, and its primitive values.
ZIG_RESERVED = frozenset("""
addrspace align allowzero and anyframe anytype asm async await break callconv catch comptime
const continue defer else enum errdefer error export extern fn for if inline linksection
noalias noinline nosuspend opaque or orelse packed pub resume return struct suspend switch
test threadlocal try union unreachable usingnamespace var volatile while
isize usize c_char c_short c_ushort c_int c_uint c_long c_ulong c_longlong c_ulonglong
c_longdouble f16 f32 f64 f80 f128 bool anyopaque void noreturn type anyerror comptime_int
comptime_float true false null undefined _
""".split())
#: Every ``iN``/``uN`` is a Zig integer type.
ZIG_RESERVED_PATTERN = re.compile(r"[iu][0-9]+\Z")

#: The words a TypeScript module cannot declare at file scope, measured with tsc 5 (``tests/
#: targets/test_typescript_names.py``): ECMAScript's reserved words, those of strict mode (every
#: module is strict) and of module code (``await``), the two names strict mode forbids to bind
#: (``arguments``, ``eval``), and the predefined type names and type operators TypeScript refuses
#: as an interface or type name, or reads otherwise where a member's type is written
#: (``number``, ``keyof``…).
TS_RESERVED = frozenset("""
break case catch class const continue debugger default delete do else enum export extends false
finally for function if import in instanceof new null return super switch this throw true try
typeof var void while with implements interface let package private protected public static
yield await arguments eval
any unknown never number bigint boolean string symbol object undefined infer keyof readonly
unique
""".split())

#: The global objects and types the generated TypeScript module uses (``templates/typescript.ts.j2``
#: and ``codegen/typescript_runtime.ts``): a type of module ``""`` named like one would hide it
#: from the module's own code, so it is escaped too.
TS_GLOBALS = frozenset("""
Array ArrayBuffer ArrayBufferLike ArrayLike BigInt BigInt64Array BigUint64Array DataView Error
Float32Array Float64Array Int8Array Int16Array Int32Array Infinity JSON Map Math NaN Number
Object RangeError Set String TypeError Uint8Array Uint16Array Uint32Array
""".split())

#: The parameters and locals of the module's generated functions (``templates/typescript.ts.j2``:
#: ``_sarek_w_<T>(view, at, x)``, ``const v``, ``let f``, ``catch (e)``, a variant's ``tag``,
#: ``_sarek_c_<T>(lanes, at, stride, dims)``), where a record of another schema file is
#: reached through its companion by name: a type of module ``""`` named like one would be
#: hidden there by the local, so it is escaped too.
TS_LOCALS = frozenset("view at x v f e tag lanes stride dims".split())

#: Every word the typescript target escapes where the module declares it.
TS_ESCAPED = TS_RESERVED | TS_GLOBALS | TS_LOCALS
