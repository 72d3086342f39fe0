"""Every name sarek-layout emits beside the schema's own: the one definition of each.

A generated file names a variant's payload union ``data`` and its arms ``<Ctor>_v``
(``targets.shape`` lays them out), its constructors' helpers
``make_<C name>_<Ctor>``, its explicit padding ``_sarek_pad<N>`` (and, in GLSL/WGSL, the
words holding sub-word scalars ``_sarek_bytes<N>``), and the GPU accessors
``<C name>_<Ctor>_v`` / ``<C name>_<Ctor>_<i>``. Producers (the resolver's name claims,
codegen's views, explain, the schema writers, the host dtype) build these names here, and
readers-back (the C header reader, ``verify --header``, the DWARF check, the GPU probes)
recognise them here, so a change of spelling is one edit. The literals below appear in no
other module (``tests/package/test_package_rules.py`` checks it).
"""

from __future__ import annotations

from typing import Callable, Dict, Optional

from ..ir.types import TFloat16
from .name_rules import spelling

__all__ = [
    "DATA_MEMBER",
    "ELEMENT_MEMBER",
    "ARM_SUFFIX",
    "MAKE_PREFIX",
    "PADDING_PREFIX",
    "PAD_MEMBER",
    "PACKED_PREFIX",
    "SOURCE_PARAM",
    "VALUE_PARAM",
    "OWN_PREFIX",
    "FLOAT16_TYPEDEF",
    "arm_name",
    "enum_constant",
    "vector_typedef",
    "loop_index",
    "COMPONENT_INDEX",
    "ctor_of_arm",
    "make_name",
    "make_prefix_of",
    "padding_name",
    "is_padding",
    "accessor_name",
    "field_accessor_name",
    "arm_struct_name",
    "escape",
    "memo_escape",
    "element_struct_name",
    "rust_union_name",
    "rust_view_name",
    "RUST_ERROR_TYPE",
    "RUST_BYTES_TRAIT",
    "RUST_SIZE_OF",
]

#: A variant's payload union (SPEC §4), after its ``tag`` (the member model's name for the
#: int32 at offset 0): ``targets.shape`` places it, and its arms ``<Ctor>_v`` in it.
DATA_MEMBER = "data"

#: The one member of the struct that wraps an array element whose stride is larger than its
#: size (SPEC §1b; ``targets.shape``): ``a[i].v`` is the element, the rest is padding.
ELEMENT_MEMBER = "v"

#: Suffix of a variant's union arm: constructor ``Circle`` is the member ``data.Circle_v``.
ARM_SUFFIX = "_v"

#: Prefix of the constructor helpers: ``make_Geometry_shape_Circle``.
MAKE_PREFIX = "make_"

#: Prefix of the explicit padding members the generated headers contain (and of every other
#: member or parameter name sarek-layout adds: no schema name may start with it).
PADDING_PREFIX = "_sarek_"

#: An explicit padding member, numbered per struct: ``_sarek_pad0``, ``_sarek_pad1``…
PAD_MEMBER = PADDING_PREFIX + "pad"

#: The ``uint`` words holding scalars smaller than a word in GLSL/WGSL (``_sarek_bytes0``…),
#: and the leading byte array of a C-family union (``_sarek_bytes[data_size]``).
PACKED_PREFIX = PADDING_PREFIX + "bytes"

#: The parameter of a record copy helper (``_sarek_src``) and of a GPU accessor (``_sarek_v``).
SOURCE_PARAM = PADDING_PREFIX + "src"
VALUE_PARAM = PADDING_PREFIX + "v"

#: Prefix (compared case-insensitively) of the generated headers' own names: the macros of
#: their preludes and include guards (``SAREK_LAYOUT_…``), OpenCL check typedefs
#: (``sarek_layout_check_…``).
OWN_PREFIX = "sarek_layout_"

#: The C-family typedef of a float16 member (``typedef uint16_t sarek_layout_float16;``, in
#: OpenCL C ``ushort``): the member holds the IEEE 754 binary16 bits, which every C-family
#: target can store, and the name tells a reader of the header (``import-c``,
#: ``verify --header``) that those 16 bits are a float16.
FLOAT16_TYPEDEF = OWN_PREFIX + TFloat16.name

#: The loop counter over a vector's components in the C-family helpers that copy a member of
#: SPEC §1b's kinds (``_sarek_k``); the array levels' counters are ``loop_index(k)``.
COMPONENT_INDEX = PADDING_PREFIX + "k"


def loop_index(level: int) -> str:
    """The loop counter over array level ``level`` in a C-family copy helper: ``_sarek_i0``."""
    return f"{PADDING_PREFIX}i{level}"


def enum_constant(c_name: str, value: str) -> str:
    """An enum's value as a constant of the C family (SPEC §1b): ``<c_name>_<Value>``."""
    return f"{c_name}_{value}"


def vector_typedef(native: str) -> str:
    """The C and CUDA headers' name of a vector that CUDA holds natively (``float4`` ->
    ``sarek_layout_float4``): CUDA's own type where a CUDA compiler reads the header, its
    components (``float[4]``) elsewhere, so that the ``.h`` and the ``.cuh`` declare one type
    alike in any translation unit (``templates/_macros.j2``, ``vector_typedefs``)."""
    return OWN_PREFIX + native


def arm_name(ctor: str) -> str:
    """The union member of constructor ``ctor``: ``Circle_v``."""
    return ctor + ARM_SUFFIX


def ctor_of_arm(member: str) -> Optional[str]:
    """The constructor a union member ``<Ctor>_v`` is the arm of, or ``None``."""
    return member[: -len(ARM_SUFFIX)] if member.endswith(ARM_SUFFIX) else None


def make_name(c_name: str, ctor: Optional[str] = None) -> str:
    """``make_<c_name>_<ctor>`` (a constructor's helper), or ``make_<c_name>`` (a record's,
    in GLSL/WGSL)."""
    return f"{MAKE_PREFIX}{c_name}" if ctor is None else f"{MAKE_PREFIX}{c_name}_{ctor}"


def make_prefix_of(c_name: str) -> str:
    """What every helper of the type ``c_name`` starts with (``make_<c_name>_``)."""
    return f"{MAKE_PREFIX}{c_name}_"


def padding_name(index: int) -> str:
    """The ``index``-th explicit padding member of a struct: ``_sarek_pad<index>``."""
    return f"{PAD_MEMBER}{index}"


def is_padding(member: Optional[str]) -> bool:
    """Whether a member name is one sarek-layout added (padding, packed words)."""
    return (member or "").startswith(PADDING_PREFIX)


def accessor_name(c_name: str, ctor: str, index: int, arity: int) -> str:
    """``<c_name>_<Ctor>_v`` (one argument) or ``<c_name>_<Ctor>_<index>`` (several)."""
    return f"{c_name}_{arm_name(ctor)}" if arity == 1 else f"{c_name}_{ctor}_{index}"


def field_accessor_name(c_name: str, field: str) -> str:
    """``<c_name>_<field>``: the accessor of a record field kept inside a 32-bit word."""
    return f"{c_name}_{field}"


def arm_struct_name(c_name: str, ctor: str) -> str:
    """GLSL's overlay struct of one constructor (the whole element, typed as that arm)."""
    return f"{c_name}_{ctor}_arm"


def element_struct_name(owner: str, level: int = 0) -> str:
    """The struct wrapping the elements of an array level whose stride is larger than its
    element (SPEC §1b), in the targets that name it (Rust, Zig): ``<owner>_elem`` for the
    outermost level, ``<owner>_elem<level>`` below it; ``owner`` is ``<C name>_<member>``
    (``<C name>_<Ctor>_<i>`` for an argument)."""
    return f"{owner}_elem{level or ''}"


def escape(name: str, dialect) -> str:
    """``name`` as the target of ``dialect`` emits it: unchanged, or escaped where its language
    reserves it (``device_`` in Metal, ``sarek_gl_…`` for GLSL's ``gl_`` prefix, ``@"type"`` in
    Zig, ``r#type`` in Rust). ``targets.name_rules`` decides, per target."""
    return spelling(dialect.name, name)


def memo_escape(dialect) -> Callable[[str], str]:
    """``escape`` for ``dialect``, computing each distinct name once: a view of a large
    schema escapes the same member and type names over and over (``f0``, ``tag``, a record
    used by thousands of types). One memo per use (a view, a file), so none outlives it."""
    memo: Dict[str, str] = {}

    def esc(name: str) -> str:
        out = memo.get(name)
        if out is None:
            out = memo[name] = escape(name, dialect)
        return out

    return esc


# --- the rust target's own names (codegen.rust_view) -----------------------------------------

#: The error ``from_bytes`` returns, one per generated module (``sarek_layout_`` prefixed: no
#: schema name can be spelt so).
RUST_ERROR_TYPE = OWN_PREFIX + "FromBytesError"

#: The private trait reading and writing the member kinds of SPEC §1b (arrays, enums), one
#: implementation per element type and one generic for ``[T; N]``, in a module that has them.
RUST_BYTES_TRAIT = OWN_PREFIX + "Bytes"

#: The private ``const fn`` giving the size of what a closure reads (``|t: &T| t.a[0]``): the
#: compile-time checks of an array member's size and of each level's stride.
RUST_SIZE_OF = OWN_PREFIX + "size_of"


def rust_union_name(c_name: str) -> str:
    """The union holding a variant's payload in Rust (C's anonymous ``data`` union)."""
    return f"{c_name}_data"


def rust_view_name(c_name: str) -> str:
    """The Rust ``enum`` a variant is matched through: ``Geometry_shape_View``."""
    return f"{c_name}_View"
