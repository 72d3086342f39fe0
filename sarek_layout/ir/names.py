"""Which names may appear in a schema: identifiers that are safe in every target language.

A schema name becomes a C/C++/CUDA/OpenCL identifier (and a Python one for host code), so it
must be a plain ASCII identifier that is a keyword or reserved name in none of them. Checking
here, once, means no later stage ever has to quote or escape a name.
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["MAX_NAME_LENGTH", "PADDING_PREFIX", "RESERVED_WORDS", "identifier_problem"]

#: Longest accepted name. C guarantees only 63 significant characters in an identifier, and a
#: name is joined into longer ones (``Module_type_Ctor``, ``make_…``).
MAX_NAME_LENGTH = 63

#: Prefix of the explicit padding members the generated headers contain.
PADDING_PREFIX = "_sarek_"

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

_PYTHON = """False None True and as assert async await break class continue def del elif else
except finally for from global if import in is lambda nonlocal not or pass raise return try
while with yield"""

# The fixed-width names the generated headers use (their own or <stdint.h>'s).
_LIBRARY = """int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t"""

RESERVED_WORDS = frozenset(" ".join((_C, _CPP, _OPENCL, _CUDA, _PYTHON, _LIBRARY)).split())

# OpenCL C vector types such as float4, int16, uchar3.
_OPENCL_VECTOR = re.compile(
    r"(?:char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(?:2|3|4|8|16)\Z"
)


def identifier_problem(name: object) -> Optional[str]:
    """Why ``name`` cannot be used as a schema name, or ``None`` when it can.

    The answer is a sentence fragment for an error message ("is a keyword in C++"…).
    """
    if not isinstance(name, str):
        return f"must be a string, not {type(name).__name__}"
    if not name:
        return "is empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"is {len(name)} characters long; the limit is {MAX_NAME_LENGTH}"
    if not name.isascii():
        return "contains non-ASCII characters (identifiers must be plain ASCII in every target)"
    if not _IDENTIFIER.match(name):
        return "is not a valid identifier (letters, digits and '_', not starting with a digit)"
    if name in RESERVED_WORDS:
        return "is a keyword or reserved name in C, C++, CUDA, OpenCL C or Python"
    if _OPENCL_VECTOR.match(name):
        return "is an OpenCL C built-in vector type"
    if name.startswith("__") or (len(name) > 1 and name[0] == "_" and name[1].isupper()):
        return "is reserved for the implementation in C and C++ (leading '__' or '_' + capital)"
    if name.startswith(PADDING_PREFIX):
        return f"uses the prefix {PADDING_PREFIX!r}, reserved for sarek-layout's padding members"
    return None
