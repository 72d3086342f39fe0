"""Which names may appear in a schema, judged as the generated files emit them.

A schema name must be a plain ASCII identifier (``identifier_problem``). What else it must
avoid depends on where it is emitted: a field or member name appears bare in every C-family
struct, so it must be no keyword, built-in type, library name or predefined macro of C, C++,
CUDA or OpenCL C (``emitted_name_problem``; a word reserved only in Python is no problem: the
python target escapes it, ``from`` -> ``from_``); a type appears as its C name ``Module_type``
and a constructor as ``Module_type_Ctor``, ``make_…`` and the arm ``Ctor_v``, and it is those
emitted names that are judged (``file_scope_problem`` adds the functions a device compiler
declares). A type ``float4`` of module ``NBody`` is emitted as ``NBody_float4`` and is fine;
with module ``""`` it is refused. The resolver applies these rules
(``resolve``).
"""

from __future__ import annotations

import functools
import re
from typing import Optional

from .declared import ALL_DECLARED, DECLARED
from .naming import FLOAT16_TYPEDEF, OWN_PREFIX, PADDING_PREFIX
from .predefined import OBJECT_MACROS, RENAMED_BUILTINS

__all__ = [
    "MAX_NAME_LENGTH",
    "PADDING_PREFIX",
    "OWN_PREFIX",
    "FLOAT16_TYPEDEF",
    "LAYOUT_ID_SUFFIXES",
    "RESERVED_WORDS",
    "identifier_problem",
    "emitted_name_problem",
    "c_name_problem",
    "file_scope_problem",
]

#: Longest accepted name. C guarantees only 63 significant characters in an identifier, and a
#: name is joined into longer ones (``Module_type_Ctor``, ``make_…``).
MAX_NAME_LENGTH = 63

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

_C = """auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef union
unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary
_Noreturn _Static_assert _Thread_local bool true false alignas alignof static_assert
thread_local noreturn offsetof NULL"""

_CPP = """and and_eq asm bitand bitor catch char16_t char32_t char8_t class compl concept consteval
constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit
export friend mutable namespace new noexcept not not_eq nullptr operator or or_eq private
protected public reinterpret_cast requires static_cast template this throw try typeid typename
using virtual wchar_t xor xor_eq"""

# OpenCL C: address-space and access qualifiers (with and without underscores), kernel
# keywords, and the built-in scalar type names that are not C keywords.
_OPENCL = """kernel global local constant private generic read_only write_only read_write pipe
uniform half uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t image1d_t image2d_t
image3d_t image1d_array_t image1d_buffer_t image2d_array_t sampler_t event_t quad complex
imaginary vec_step"""

# CUDA: everything with two leading underscores is already reserved; these are not.
_CUDA = """dim3 threadIdx blockIdx blockDim gridDim warpSize"""

# Python keywords are not refused: the python target escapes them (``from`` -> ``from_``,
# host/python_target.py), as a word reserved in one output language only should be; so are
# Zig's keywords and primitive types (``type`` -> ``@"type"``, targets/dialects.py ZIG).

# The fixed-width names the generated headers use (their own or <stdint.h>'s), and the other
# type names <stddef.h> and <stdint.h> declare at file scope (a type of module "" named like
# one would be a conflicting typedef).
_LIBRARY = """int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intmax_t uintmax_t
max_align_t nullptr_t"""

# Functions a device compiler declares before any user code: nvcc's implicit CUDA runtime
# headers bring the C math library, CUDA's own math (min, max, rsqrt…) and a few C library
# functions. A type or enum constant named like one is an error ("max has already been
# declared"), which only a type of module "" (no C prefix) can run into.
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

RESERVED_WORDS = frozenset(" ".join((_C, _CPP, _OPENCL, _CUDA, _LIBRARY)).split())

# OpenCL C vector types such as float4, int16, uchar3; CUDA's (nvcc includes them implicitly)
# such as float1, longlong2, ulonglong4.
_OPENCL_VECTOR = re.compile(
    r"(?:char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(?:2|3|4|8|16)\Z"
    r"|(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]\Z"
)

# Macros of <stdint.h> and <stddef.h> (INT32_MAX, SIZE_MAX…) and their other typedefs
# (int_least8_t, uintptr_t…): a member named like a macro would be rewritten by the
# preprocessor.
_LIBRARY_PATTERN = re.compile(
    r"(?:U?INT(?:8|16|32|64|_LEAST(?:8|16|32|64)|_FAST(?:8|16|32|64)|MAX|PTR)_(?:MIN|MAX|C)"
    r"|SIZE_MAX|PTRDIFF_(?:MIN|MAX)|SIG_ATOMIC_(?:MIN|MAX)|W(?:CHAR|INT)_(?:MIN|MAX)"
    r"|u?int(?:_least|_fast)(?:8|16|32|64)_t|u?int(?:ptr|max)_t)\Z"
)


#: What the targets append to a type's C name for its layout fingerprint and the check of
#: one (``Geometry_point_LAYOUT_ID``, ``Geometry_point_LAYOUT_OK(id)``; GLSL's 64-bit
#: ``_LAYOUT_ID64``; docs/fingerprint.md): no other emitted name may be spelt so.
LAYOUT_ID_SUFFIXES = ("_LAYOUT_ID", "_LAYOUT_OK", "_LAYOUT_ID64")


def identifier_problem(name: object, *, file_scope: bool = False) -> Optional[str]:
    """Why ``name`` cannot be a schema name at all, or ``None`` when its form is fine.

    The form only: a plain ASCII identifier of at most ``MAX_NAME_LENGTH`` characters, and
    with ``file_scope`` (the name of a type or module, which becomes part of a C name at file
    scope, where C reserves every name starting with '_'), not starting with '_'. Whether the
    names it is emitted as are free is ``emitted_name_problem``'s and ``file_scope_problem``'s
    question. The answer is a sentence fragment for an error message.
    """
    if not isinstance(name, str):
        return f"must be a string, not {type(name).__name__}"
    return _str_identifier_problem(name, file_scope)


# Cached: a schema repeats a few names (f0, x, y…) thousands of times, and this check
# was the largest single cost of resolving a 10,000-type schema (docs/benchmarks.md).
@functools.lru_cache(maxsize=1 << 16)
def _str_identifier_problem(name: str, file_scope: bool) -> Optional[str]:
    if not name:
        return "is empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"is longer than the limit of {MAX_NAME_LENGTH} characters"
    if not name.isascii():
        return "contains non-ASCII characters (identifiers must be plain ASCII in every target)"
    if not _IDENTIFIER.match(name):
        return "is not a valid identifier (letters, digits and '_', not starting with a digit)"
    if file_scope and name.startswith("_"):
        return (
            "starts with '_': C reserves such names at file scope, where type and module "
            "names end up (fields may start with '_')"
        )
    return None


def emitted_name_problem(name: str) -> Optional[str]:
    """Why the identifier ``name``, emitted as it is in a generated file (a field or member
    name, or a whole C name), is unsafe there, or ``None``."""
    return c_name_problem(name)


@functools.lru_cache(maxsize=1 << 16)
def c_name_problem(name: str) -> Optional[str]:
    """Why the identifier ``name`` (a schema name, or a C name built from several such as
    ``Module_type_Ctor``) must not appear in a generated file, or ``None``."""
    if name in RESERVED_WORDS:
        return "is a keyword or reserved name in C, C++, CUDA or OpenCL C"
    if name in OBJECT_MACROS:
        return ("is a macro that a C-family compiler predefines (gcc's GNU modes, OpenCL C, "
                "nvcc or PoCL), which would rewrite it")
    if _OPENCL_VECTOR.match(name):
        return "is a built-in vector type of OpenCL C or CUDA"
    if _LIBRARY_PATTERN.match(name):
        return "is a macro or type name of <stdint.h>/<stddef.h>"
    if name.startswith("__") or (len(name) > 1 and name[0] == "_" and name[1].isupper()):
        return "is reserved for the implementation in C and C++ (leading '__' or '_' + capital)"
    if "__" in name:
        return "contains '__', which C++ reserves for the implementation anywhere in a name"
    if name.startswith(PADDING_PREFIX):
        return f"uses the prefix {PADDING_PREFIX!r}, reserved for sarek-layout's padding members"
    if name.lower().startswith(OWN_PREFIX):
        return f"uses the prefix {OWN_PREFIX!r}, reserved for the generated headers' own names"
    return None


def file_scope_problem(c_name: str) -> Optional[str]:
    """Why a C name at file scope (a type, an enum constant, a ``make_`` helper) is unsafe,
    beyond ``c_name_problem``: it would clash with a function a device compiler declares, with
    anything a target's compiler declares at file scope before the header (``targets.declared``,
    measured with the compilers), or with the program's ``main``."""
    problem = c_name_problem(c_name)
    if problem is None and (c_name in _DEVICE_FUNCTIONS or c_name in RENAMED_BUILTINS):
        problem = "is a function that CUDA or OpenCL C declares implicitly (nvcc refuses the clash)"
    if problem is None and c_name in ALL_DECLARED:
        problem = _declared_problem(c_name)
    return problem


def _declared_problem(c_name: str) -> str:
    if c_name == "main":
        return ("is the program's entry point: no C, C++, CUDA or GLSL program that includes "
                "the header could define main")
    where = ", ".join(name for name, names in DECLARED.items() if c_name in names)
    return f"is already declared at file scope where the header is compiled ({where})"
