"""How each header target spells what the views decide: one dialect per target, in Python.

The shared template macros (``templates/_macros.j2``) print structs, checks and helpers
with the ``dialect`` they are handed; the entry templates differ only in their prelude. A
new C-family target is one ``Dialect`` here, one entry in ``targets.TARGETS`` and its
template (docs/extending.md). Scalar facts that are not spellings (sizes, Python formats)
live in the scalar table, ``ir.types``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Mapping, Pattern, Tuple

from .name_rules import (GLSL_RESERVED, HLSL_RESERVED, MSL_RESERVED, RUST_KEYWORDS, RUST_NOT_RAW,
                         RUST_PRIMITIVES, TS_ESCAPED, WGSL_RESERVED, ZIG_RESERVED,
                         ZIG_RESERVED_PATTERN)
from ..ir.types import SCALARS
from .naming import FLOAT16_TYPEDEF, vector_typedef

__all__ = ["Dialect", "C", "CUDA", "OPENCL", "DIALECTS", "METAL", "ShaderDialect", "GLSL", "WGSL",
           "ZigDialect", "ZIG", "RustDialect", "RUST", "HLSL", "TypeScriptDialect", "TYPESCRIPT"]


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
    #: there (``device`` -> ``device_`` in Metal), never refused (``targets.names``).
    reserved_words: FrozenSet[str] = frozenset()
    #: The suffix of a 64-bit unsigned literal (the ``<c_name>_LAYOUT_ID`` fingerprints):
    #: ``ULL`` in C and C++; ``UL`` where ``long`` is always 64-bit (OpenCL C, Metal).
    u64_suffix: str = "ULL"
    #: An alignment pin of ``n`` bytes written before / after a member's declaration, as
    #: formats of ``n`` (``align8_before`` is the one of 8, kept for the older views).
    pin_before: str = ""
    pin_after: str = ""
    #: ``(scalar, components) -> (spelling, alignment)``: the vectors the language holds
    #: natively, where a member of that alignment is spelt so (``vector_type``); any other
    #: vector is an array of its scalar.
    vectors: Mapping[Tuple[str, int], Tuple[str, int]] = field(default_factory=dict)
    #: ``vectors`` are spelt through ``naming.vector_typedef``s that the header declares
    #: (``(scalar, components) -> the language's own name``), not by their own names.
    vector_natives: Mapping[Tuple[str, int], str] = field(default_factory=dict)
    #: The suffix that makes an integer literal of a scalar's range (the enums' constants).
    int_suffix: Mapping[str, str] = field(default_factory=dict)
    #: Every vector type name of the language -> ``(scalar, components)``: what a header
    #: read back (``verify --header``) may hold a ``vecN<T>`` as.
    read_vectors: Mapping[str, Tuple[str, int]] = field(default_factory=dict)

    def pin(self, n: int) -> Tuple[str, str]:
        """What goes before and after a member declaration to align it to ``n``."""
        return self.pin_before.format(n=n), self.pin_after.format(n=n)

    def vector_type(self, scalar: str, n: int, align: int) -> str:
        """The native spelling of a ``vec<n><scalar>`` member aligned to ``align``, or ``""``
        when the language has none of that alignment (it is then ``scalar[n]``)."""
        native = self.vectors.get((scalar, n))
        return native[0] if native is not None and native[1] == align else ""


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

#: CUDA's vector types (``vector_types.h``) by component: ``float4``, ``uchar2``, ``double2``…
#: Their alignment is the ``cuda`` rule set's (a 2-vector its size, a 3-vector its component,
#: a 4-vector its size but at most 16), measured by nvcc and NVRTC (docs/verify.md). The
#: 4-vectors of 8-byte components are left out: CUDA 13 deprecates ``double4``/``longlong4``
#: and HIP aligns them to 32, so such a member is an array of its components everywhere.
_CUDA_COMPONENTS = {"int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort",
                    "int32": "int", "uint32": "uint", "int64": "longlong",
                    "uint64": "ulonglong", "float32": "float", "float64": "double"}
_CUDA_NATIVE = {(scalar, n): f"{stem}{n}" for scalar, stem in _CUDA_COMPONENTS.items()
                for n in (2, 3, 4) if not (n == 4 and SCALARS[scalar].size == 8)}
_CUDA_VECTORS = {key: (vector_typedef(name), min(SCALARS[key[0]].size * (2, 1, 4)[key[1] - 2], 16))
                 for key, name in _CUDA_NATIVE.items()}
#: Every vector type of CUDA and of OpenCL C, by name, for the readers.
_CUDA_READ = {f"{stem}{n}": (scalar, n) for scalar, stem in _CUDA_COMPONENTS.items()
              for n in (2, 3, 4)}

#: OpenCL C's vectors of 2 and 4 components (aligned to their size); its 3-component ones are
#: 16 bytes and hold no rule set's ``vec3``.
_OPENCL_COMPONENTS = {"int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort",
                      "int32": "int", "uint32": "uint", "int64": "long", "uint64": "ulong",
                      "float32": "float", "float64": "double"}
_OPENCL_VECTORS = {(scalar, n): (f"{stem}{n}", SCALARS[scalar].size * n)
                   for scalar, stem in _OPENCL_COMPONENTS.items() for n in (2, 4)}
_OPENCL_READ = {f"{stem}{n}": (scalar, n) for scalar, stem in _OPENCL_COMPONENTS.items()
                for n in (2, 3, 4)}
#: Integer literals of the enums' constants beyond ``int``'s range.
_C_INT_SUFFIX = {"uint32": "U", "int64": "LL", "uint64": "ULL"}

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
    pin_before="SAREK_LAYOUT_ALIGN{n} ",
    vectors=_CUDA_VECTORS,
    vector_natives=_CUDA_NATIVE,
    int_suffix=_C_INT_SUFFIX,
    read_vectors=_CUDA_READ,
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
    pin_before="alignas({n}) ",
    vectors=_CUDA_VECTORS,
    vector_natives=_CUDA_NATIVE,
    int_suffix=_C_INT_SUFFIX,
    read_vectors=_CUDA_READ,
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
    pin_after=" __attribute__((aligned({n})))",
    vectors=_OPENCL_VECTORS,
    int_suffix={"uint32": "U", "int64": "L", "uint64": "UL"},
    read_vectors=_OPENCL_READ,
)

DIALECTS: Dict[str, Dialect] = {d.name: d for d in (C, CUDA, OPENCL)}


# --- GPU API targets (issue #14): Metal is C-family; GLSL and WGSL have their own dialect ---


#: MSL's vectors of 2 and 4 components of its scalars up to 32 bits (aligned to their size,
#: as a rule set's ``vec2``/``vec4`` of std430 or cuda); its 3-component ones are 16 bytes
#: and hold no rule set's ``vec3`` (that one is an array, pinned).
_METAL_COMPONENTS = {"int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort",
                     "int32": "int", "uint32": "uint", "float32": "float", "float16": "half"}
_METAL_VECTORS = {(scalar, n): (f"{stem}{n}", SCALARS[scalar].size * n)
                  for scalar, stem in _METAL_COMPONENTS.items() for n in (2, 4)}
_METAL_READ = {f"{stem}{n}": (scalar, n) for scalar, stem in _METAL_COMPONENTS.items()
               for n in (2, 3, 4)}

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
    reserved_words=MSL_RESERVED,
    u64_suffix="UL",
    # MSL is C++14: alignas pins a member (a rule set's 16-aligned vec3, a std140 array).
    pin_before="alignas({n}) ",
    vectors=_METAL_VECTORS,
    int_suffix={"uint32": "U", "int64": "L", "uint64": "UL"},
    read_vectors=_METAL_READ,
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
    #: Names a schema name must not be emitted as (escaped with a trailing ``_``,
    #: ``targets.names``).
    reserved_words: FrozenSet[str]
    #: A prefix the language reserves (``gl_``): names with it are escaped with a leading
    #: ``sarek_`` (a trailing ``_`` would not help).
    reserved_prefix: str = ""
    #: How the report and refusals name the language.
    title: str = ""
    #: The member kinds of SPEC §1b (``codegen.shader_kinds``): schema scalar -> the
    #: language's vector (``{n}`` components) and matrix (``{c}`` columns of ``{r}`` rows)
    #: types, where it has them; an array of ``{n}`` ``{elem}`` (``array_suffix``: GLSL's
    #: ``elem name[n]``).
    vectors: Mapping[str, str] = field(default_factory=dict)
    matrices: Mapping[str, str] = field(default_factory=dict)
    #: A square matrix's shorter spelling (GLSL's ``mat4``), where there is one.
    square_matrices: Mapping[str, str] = field(default_factory=dict)
    array: str = "{elem}[{n}]"
    array_suffix: bool = False
    #: The rule set that lays out a struct of the language whatever its schema's rules
    #: (WGSL's storage layout: std430's); ``""``: the block that holds it says (GLSL:
    #: ``RuleSet.glsl_qualifier``, else ``blocks``).
    own_rules: str = ""
    #: GLSL: the block that lays out a rule set with no qualifier of its own where its bytes
    #: are that block's (wgsl-uniform: std140's, but for a ``matCx2``'s column stride, which
    #: the natural-layout check then refuses, naming the member); std430 for the others.
    blocks: Mapping[str, str] = field(default_factory=dict)
    #: WGSL: the rule set of its uniform address space (``var<uniform>``). A type of it is
    #: declared so that naga accepts it there: no array whose stride is not a multiple of
    #: the rule set's aggregate alignment (16), padding in single words; and its struct may
    #: be less aligned than the rule set says, since naga places every struct member of a
    #: uniform buffer at a multiple of 16 (or refuses the shader), never at another offset.
    uniform_rules: str = ""
    #: An array element can be padded to a stride (WGSL: a struct whose one member has
    #: ``@size``).
    can_wrap: bool = False
    #: Integer literal suffixes by schema scalar (an enum's constants: ``1u``, ``1i``).
    literal_suffix: Mapping[str, str] = field(default_factory=dict)

    def literal(self, scalar, value: int) -> str:
        """``value`` as a constant of ``scalar``'s type here: ``-3``, ``7u``, ``5L``; a
        64-bit one the language keeps as raw words is its two words, low first."""
        if scalar.name in self.raw64:
            bits = value & 0xFFFFFFFFFFFFFFFF
            return f"{self.word2}({bits & 0xFFFFFFFF}u, {bits >> 32}u)"
        suffix = self.literal_suffix.get(scalar.name, "")
        low = scalar.int_range[0] if scalar.int_range else 0
        if value == low and value < 0:  # -2147483648 is the negation of a literal too large
            return f"({value + 1}{suffix} - 1{suffix})"
        return f"{value}{suffix}"


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
    reserved_words=GLSL_RESERVED,
    reserved_prefix="gl_",
    title="GLSL",
    # 64-bit integer vectors through GL_EXT_shader_explicit_arithmetic_types_int64, as the
    # scalars; bool and unit (int) arrays are arrays of int.
    vectors={"float32": "vec{n}", "int32": "ivec{n}", "uint32": "uvec{n}",
             "float64": "dvec{n}", "int64": "i64vec{n}", "uint64": "u64vec{n}"},
    matrices={"float32": "mat{c}x{r}", "float64": "dmat{c}x{r}"},
    square_matrices={"float32": "mat{c}", "float64": "dmat{c}"},
    array_suffix=True,
    blocks={"wgsl-uniform": "std140"},
    literal_suffix={"uint8": "u", "uint16": "u", "uint32": "u", "int64": "L", "uint64": "UL"},
)


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
    reserved_words=WGSL_RESERVED,
    title="WGSL",
    # Vectors and matrices of its 32-bit types only (no 64-bit scalars: their raw words).
    vectors={"float32": "vec{n}<f32>", "int32": "vec{n}<i32>", "uint32": "vec{n}<u32>"},
    matrices={"float32": "mat{c}x{r}<f32>"},
    array="array<{elem}, {n}>",
    own_rules="std430",
    uniform_rules="wgsl-uniform",
    can_wrap=True,
    literal_suffix={"int8": "i", "int16": "i", "int32": "i", "uint8": "u", "uint16": "u",
                    "uint32": "u"},
)


#: HLSL (Shader Model 6.2 and later: DXC with -enable-16bit-types; Slang): 64-bit and 16-bit
#: scalars are HLSL's own (``int64_t``, ``double``, ``float16_t``: never ``half``, which is a
#: 32-bit float without -enable-16bit-types); bool and unit are ``int``. HLSL has no 8-bit type:
#: int8 and uint8 live in packed 32-bit words (``codegen.hlsl_view``), and these are the types
#: their accessors return. A variant's payload is 32-bit words, ``uint``.
HLSL = ShaderDialect(
    name="hlsl",
    scalar={"int32": "int", "int64": "int64_t", "float32": "float", "float64": "double",
            "bool": "int", "unit": "int", "uint8": "uint", "float16": "float16_t",
            "int8": "int", "int16": "int16_t", "uint16": "uint16_t", "uint32": "uint",
            "uint64": "uint64_t", "char": "uint"},
    word="uint",
    word2="uint2",
    raw64=frozenset(),
    reserved_words=HLSL_RESERVED,
)


# --- host languages (issue #21) -------------------------------------------------------------


@dataclass(frozen=True)
class RustDialect:
    """Rust (``codegen.rust_view``): its spelling of each scalar and the words it reserves.

    ``reserved_words`` are emitted as raw identifiers (``r#type``); ``not_raw`` are the
    keywords Rust refuses even as raw identifiers, escaped with a trailing ``_`` (``self`` ->
    ``self_``); ``primitives`` are the primitive type names the generated code itself uses,
    which a type must not shadow (a type of module ``""`` named ``i32``). ``targets.names``
    decides with them."""

    name: str
    scalar: Mapping[str, str]
    reserved_words: FrozenSet[str]
    not_raw: FrozenSet[str]
    primitives: FrozenSet[str]



#: bool and unit are 32-bit integers, as in every target; float16 is its IEEE binary16 bits.
RUST = RustDialect(
    name="rust",
    scalar={"int32": "i32", "int64": "i64", "float32": "f32", "float64": "f64", "bool": "i32",
            "unit": "i32", "float16": "u16", "uint8": "u8",
            # The extension scalars: Rust's own fixed-width integers.
            "int8": "i8", "int16": "i16", "uint16": "u16", "uint32": "u32", "uint64": "u64",
            "char": "u8"},
    reserved_words=RUST_KEYWORDS,
    not_raw=RUST_NOT_RAW,
    primitives=RUST_PRIMITIVES,
)


# --- Zig (issue 21): extern structs and unions with the C header's member names ---


@dataclass(frozen=True)
class ZigDialect:
    """Zig's spelling of each scalar, and the names it escapes as ``@"name"``."""

    name: str
    scalar: Mapping[str, str]
    #: Keywords, primitive types and primitive values: a schema name equal to one is emitted
    #: as ``@"name"`` (``targets.names``), which Zig reads as that plain identifier.
    reserved_words: FrozenSet[str]
    #: Names of a family Zig reserves as a whole: every ``iN``/``uN`` is an integer type.
    reserved_pattern: Pattern[str]
    #: How an escaped name is written.
    escape_format: str = '@"{}"'



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
    reserved_words=ZIG_RESERVED,
    reserved_pattern=ZIG_RESERVED_PATTERN,
)


# --- TypeScript (issue 34): a host language over DataView, little-endian -----------------------


@dataclass(frozen=True)
class TypeScriptDialect:
    """TypeScript (``codegen.typescript_view``): per scalar, the type of its value (``scalar``), the
    ``DataView`` accessor it is stored with (``setInt32``/``getInt32``; a float16's bits are a
    ``Uint16``, a bool and a unit an ``Int32``), and the typed array a column of it is (a
    buffer of records seen as one array per member). ``reserved_words`` are escaped with a
    trailing ``_`` where the module declares them (``targets.name_rules``)."""

    name: str
    scalar: Mapping[str, str]
    accessor: Mapping[str, str]
    typed_array: Mapping[str, str]
    reserved_words: FrozenSet[str]


#: ES2020: ``bigint`` for the 64-bit integers (``DataView.getBigInt64``), a float16 converted
#: from and to its binary16 bits by the module itself (no ``getFloat16`` before ES2025).
TYPESCRIPT = TypeScriptDialect(
    name="typescript",
    scalar={"int32": "number", "int64": "bigint", "float32": "number", "float64": "number",
                "bool": "boolean", "unit": "null", "float16": "number", "uint8": "number",
                "int8": "number", "int16": "number", "uint16": "number", "uint32": "number",
                "uint64": "bigint",
                # A byte string's element (``ir.types.ELEMENT_SCALARS``): each byte a number,
                # 0 to 255, as Python's ``bytes`` holds it.
                "char": "number"},
    accessor={"int32": "Int32", "int64": "BigInt64", "float32": "Float32", "float64": "Float64",
              "bool": "Int32", "unit": "Int32", "float16": "Uint16", "uint8": "Uint8",
              "int8": "Int8", "int16": "Int16", "uint16": "Uint16", "uint32": "Uint32",
              "uint64": "BigUint64", "char": "Uint8"},
    typed_array={"int32": "Int32Array", "int64": "BigInt64Array", "float32": "Float32Array",
                 "float64": "Float64Array", "bool": "Int32Array", "unit": "Int32Array",
                 "float16": "Uint16Array", "uint8": "Uint8Array", "int8": "Int8Array",
                 "int16": "Int16Array", "uint16": "Uint16Array", "uint32": "Uint32Array",
                 "uint64": "BigUint64Array", "char": "Uint8Array"},
    reserved_words=TS_ESCAPED,
)
