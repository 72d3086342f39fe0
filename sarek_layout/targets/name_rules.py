"""Per target, which names its language and compilers break on, and which it escapes: the one
place that decides whether a name is kept, escaped or refused.

``judge(target, name, place)`` gives how the target emits the identifier ``name`` at ``place``
(``FIELD``: a record field, bare in a struct; ``ARM``: a variant's union arm ``<Ctor>_v``;
``FILE``: a C name at file scope: a type, an enum constant, a ``make_…`` helper): kept, or
escaped where its language has a way (``device_`` in Metal, ``r#type`` in Rust, ``@"type"`` in
Zig, ``from_`` in Python), and why the target cannot emit it, if it cannot: a keyword of its
language, a macro one of its compilers predefines (``predefined``), a name they declare at file
scope (``declared``). A name is refused only for the targets it breaks: ``blockDim`` (a CUDA
built-in variable) is a fine member name everywhere, ``kernel`` is refused in OpenCL C only and
escaped in Metal. Every target consults it: ``targets.names.check_names`` (``generate``,
``verify``), ``naming.escape`` (the views), the dialects' reserved words (listed in ``words``).

What breaks where is measured with the real compilers: ``tests/targets/test_name_rules.py``
compiles the words each target keeps and refuses. This module imports nothing of the package
at load time (the dialects, ``naming`` and ``names`` import it).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Pattern, Sequence, Tuple

__all__ = ["FIELD", "ARM", "FILE", "NAME_TARGETS", "judge", "language_problem", "spelling",
           "problem", "refusals",
           "explain", "shadowing_suffixes", "emits_ctor_names", "C_FAMILY_WORDS", "GLSL_RESERVED", "WGSL_RESERVED",
           "MSL_RESERVED", "HLSL_RESERVED", "HLSL_INTRINSICS", "RUST_KEYWORDS", "RUST_NOT_RAW", "RUST_PRIMITIVES", "ZIG_RESERVED",
           "ZIG_RESERVED_PATTERN", "TS_RESERVED", "TS_GLOBALS", "TS_LOCALS", "TS_ESCAPED",
           "emits_bare_enum_values"]

# The words of each language (a table per language, in words.py); the dialects read the
# public ones from here, where the rules that use them live.
from .words import (  # noqa: F401
    C_FAMILY_WORDS, GLSL_RESERVED, HLSL_INTRINSICS, HLSL_RESERVED, MSL_RESERVED, RUST_KEYWORDS,
    RUST_NOT_RAW, RUST_PRIMITIVES, TS_ESCAPED, TS_GLOBALS, TS_LOCALS, TS_RESERVED, WGSL_RESERVED,
    ZIG_RESERVED, ZIG_RESERVED_PATTERN, _C11, _C23, _C99, _CPP, _CUDA_VECTOR, _C_ONLY,
    _DEVICE_FUNCTIONS, _OPENCL, _OPENCL_TYPES, _OPENCL_VECTOR, _PYTHON_ESCAPED, _STDINT)

#: Where a name is emitted: a record field (bare in a struct), a variant's union arm
#: (``<Ctor>_v``), a C name at file scope (a type, an enum constant, a ``make_`` helper).
FIELD, ARM, FILE = "field", "arm", "file"

# --- the rules of each target ---------------------------------------------------------------


@dataclass(frozen=True)
class _Rules:
    """What one target refuses and escapes (built once, on first use)."""

    #: word -> why the target cannot emit it, wherever it is emitted.
    words: Mapping[str, str]
    #: word -> why the target cannot emit it at file scope (beyond ``words`` and what its
    #: compilers declare there, measured: ``declared``).
    file_words: Mapping[str, str]
    #: (pattern, why, places): names refused by their form.
    patterns: Tuple[Tuple[Pattern[str], str, FrozenSet[str]], ...] = ()
    #: The name as the target emits it (``None``: the target never escapes).
    escape: Optional[Callable[[str], str]] = None
    #: (suffix, why): what a generated macro or constant spells as ``<C name><suffix>`` for
    #: every type, so that a member or parameter of that name would be rewritten or matched.
    shadowing: Tuple[Tuple[str, str], ...] = ()
    #: Whether the enum constants ``<C name>_<Ctor>`` and ``make_`` helpers are file-scope
    #: names of the target (C family, GLSL, WGSL, Zig).
    ctor_names: bool = True
    #: Where ``escape`` applies (a target whose members are property names escapes only
    #: what it declares at file scope).
    escape_places: FrozenSet[str] = frozenset((FIELD, ARM, FILE))
    #: Whether an enum's values are emitted bare, as members (judged as ``FIELD`` names):
    #: TypeScript's ``const`` object of them.
    bare_enum_values: bool = False


def _table(*groups: Tuple[Iterable[str], str]) -> Dict[str, str]:
    """word -> why, from (words, why) groups: the first group that names a word says why."""
    out: Dict[str, str] = {}
    for words, why in groups:
        for w in (words.split() if isinstance(words, str) else words):
            out.setdefault(w, why)
    return out


_C_RESERVED = (re.compile(r"(?:__|_[A-Z])"), "is reserved for the implementation in C and C++ "
               "(leading '__' or '_' + capital)", frozenset((FIELD, FILE)))
_CPP_DUNDER = (re.compile(r".*__"), "contains '__', which C++ reserves for the implementation "
               "anywhere in a name", frozenset((FIELD, FILE)))
_MACRO_SHADOWING = (("_LAYOUT_ID", "macro"), ("_LAYOUT_OK", "macro"))

_KW_C = "is a keyword of C"
_KW_CPP = "is a keyword of C++"
_KW_C11 = "is a keyword of C23 and C++, and a macro of C11's standard headers"
_KW_C23 = "is a keyword of C23 and of gcc's and clang's GNU modes"
_STD_NAMES = ("is a fixed-width type name the header's structs use, whose meaning a member "
              "of that name would change in C++")


@functools.lru_cache(maxsize=None)
def _declared_names(target: str) -> FrozenSet[str]:
    """What ``target``'s compilers declare at file scope (``declared``), read on first use."""
    from .declared import declared_by

    return frozenset().union(*declared_by(target).values())


def _declared_problem(target: str, name: str) -> Optional[str]:
    if name not in _declared_names(target):
        return None
    if name == "main":
        return "is the program's entry point: no program that includes the header could define main"
    from .declared import declared_by

    where = ", ".join(t for t, names in declared_by(target).items() if name in names)
    return f"is already declared at file scope where the header is compiled ({where})"


def _c_family_macros(*families: str) -> List[Tuple[FrozenSet[str], str]]:
    from . import predefined

    tables = {
        "gnu": (predefined.GNU_MACROS, "is a macro gcc and clang predefine in their default "
                "(GNU) modes, which would rewrite it"),
        "libc": (predefined.LIBC_MACROS, "is a macro of the C library's headers, which C, C++ "
                 "and CUDA programs include, and which would rewrite it"),
        "libc_c": (predefined.LIBC_C_MACROS, "is a macro of the C library's C headers, which C "
                   "programs include, and which would rewrite it"),
        "cuda": (predefined.CUDA_MACROS, "is a macro of the CUDA runtime, which nvcc includes "
                 "in every translation unit, and which would rewrite it"),
        "opencl": (predefined.OPENCL_MACROS, "is a macro that OpenCL C predefines (clang, "
                   "PoCL), which would rewrite it"),
    }
    return [tables[f] for f in families]


def _device_functions(pocl: bool) -> Dict[str, str]:
    why = "is a function that CUDA or OpenCL C declares implicitly (nvcc refuses the clash)"
    groups = [(_DEVICE_FUNCTIONS, why)]
    if pocl:
        from .predefined import RENAMED_BUILTINS

        groups.append((RENAMED_BUILTINS, why))
    return _table(*groups)


def _suffix_escape(reserved: FrozenSet[str], prefix: str = "") -> Callable[[str], str]:
    def escape(name: str) -> str:
        if prefix and name.startswith(prefix):
            return "sarek_" + name
        return name + "_" if name in reserved else name

    return escape


def _c_rules() -> _Rules:
    # One header for C11 and C++11 (gcc, g++, clang on every ABI, in strict and GNU modes).
    return _Rules(
        words=_table((_C99, _KW_C), (_C_ONLY, _KW_C), (_C11, _KW_C11), (_C23, _KW_C23),
                     (_CPP, _KW_CPP),
                     (_STDINT, _STD_NAMES), *_c_family_macros("gnu", "libc", "libc_c")),
        file_words={},
        patterns=(_C_RESERVED, _CPP_DUNDER),
        shadowing=_MACRO_SHADOWING,
    )


def _cuda_rules() -> _Rules:
    # CUDA C++ (nvcc's host pass is gcc's C++, its device pass EDG; NVRTC; hipcc).
    vector = (_CUDA_VECTOR, "is a built-in vector type of CUDA", frozenset((FILE,)))
    return _Rules(
        words=_table((_C99, _KW_C), (_C11, _KW_C11), (_C23, _KW_C23), (_CPP, _KW_CPP),
                     (_STDINT, _STD_NAMES), *_c_family_macros("gnu", "libc", "cuda")),
        file_words=_device_functions(pocl=False),
        patterns=(_C_RESERVED, _CPP_DUNDER, vector),
        shadowing=_MACRO_SHADOWING,
    )


def _opencl_rules() -> _Rules:
    # OpenCL C 1.2 and later (clang, PoCL): C99 and its own keywords; no <stdint.h>.
    vector = (_OPENCL_VECTOR, "is a built-in vector type of OpenCL C", frozenset((FILE,)))
    return _Rules(
        words=_table((_C99, _KW_C), (_C_ONLY, _KW_C), (_OPENCL, "is a keyword or built-in "
                     "type of OpenCL C"), *_c_family_macros("opencl")),
        file_words={**_device_functions(pocl=True),
                    **_table((_OPENCL_TYPES, "is a built-in type of OpenCL C"))},
        patterns=(_C_RESERVED, vector),
        shadowing=_MACRO_SHADOWING,
    )


def _metal_rules() -> _Rules:
    # The Metal Shading Language is C++14; no Metal compiler runs here (the proxy is clang++),
    # so it keeps every C-family macro, and escapes its own words (``device`` -> ``device_``).
    return _Rules(
        words=_table((_C99, _KW_C), (_C11, _KW_C11), (_C23, _KW_C23), (_CPP, _KW_CPP),
                     (_STDINT, _STD_NAMES), *_c_family_macros("gnu", "libc", "libc_c", "cuda", "opencl")),
        file_words={},
        patterns=(_C_RESERVED, _CPP_DUNDER),
        escape=_suffix_escape(MSL_RESERVED),
        shadowing=_MACRO_SHADOWING,
    )


def _glsl_rules() -> _Rules:
    # GLSL reserves the prefix ``gl_``: such a name gets ``sarek_`` before it.
    return _Rules(words={}, file_words={},
                  escape=_suffix_escape(GLSL_RESERVED, "gl_"))


def _wgsl_rules() -> _Rules:
    everywhere = frozenset((FIELD, ARM, FILE))
    return _Rules(
        words=_table(("_", "is '_', which WGSL does not accept as a name")),
        file_words={},
        patterns=((re.compile("__"), "starts with '__', which WGSL does not accept in a name",
                   everywhere),),
        escape=_suffix_escape(WGSL_RESERVED),
    )


def _hlsl_rules() -> _Rules:
    # HLSL escapes what it reserves (``float4x4`` -> ``float4x4_``); a type of module "" named
    # like an intrinsic function is refused (there is nothing to escape it into that would
    # keep its C name) and so is one named main, the usual entry point.
    return _Rules(
        words={},
        file_words=_table((HLSL_INTRINSICS - {"main"}, "is an HLSL intrinsic function, which a "
                           "type of that name would hide from every later call"),
                          (("main",), "is the usual HLSL entry point, which no shader that "
                           "includes the file could then define")),
        escape=_suffix_escape(HLSL_RESERVED),
    )


def _zig_rules() -> _Rules:
    def escape(name: str) -> str:
        # Zig quotes a reserved name (``@"type"``): the name itself is unchanged, so no two
        # names can meet once escaped.
        reserved = name in ZIG_RESERVED or ZIG_RESERVED_PATTERN.match(name) is not None
        return f'@"{name}"' if reserved else name

    return _Rules(words={}, file_words={}, escape=escape)


def _rust_rules() -> _Rules:
    def escape(name: str) -> str:
        # The keywords Rust refuses even as raw identifiers get a trailing '_' (``self_``).
        if name in RUST_NOT_RAW:
            return name + "_"
        return "r#" + name if name in RUST_KEYWORDS else name

    return _Rules(
        words={},
        file_words=_table((RUST_PRIMITIVES, "is a Rust primitive type, which the generated "
                           "module uses")),
        escape=escape,
        # ``pub const <C name>_LAYOUT_ID: u64``: a parameter ``new(p_LAYOUT_ID: i32)`` is a
        # pattern, and Rust reads a constant's name there as that constant.
        shadowing=(("_LAYOUT_ID", "constant"),),
        ctor_names=False,
    )


def _python_rules() -> _Rules:
    dunder = (re.compile("__"), "starts with '__', which Python mangles inside a class (the "
              "generated dataclass would not have that attribute)", frozenset((FIELD, ARM)))
    return _Rules(words={}, file_words={}, patterns=(dunder,),
                  escape=_suffix_escape(_PYTHON_ESCAPED), ctor_names=False)


def _typescript_rules() -> _Rules:
    # Members are property names, which may be any identifier, reserved words included
    # (``p.class``): only what the module declares at file scope (types, companion objects,
    # constructor interfaces) is escaped. ``__proto__`` as a key of an object literal sets its
    # prototype instead of making a member: refused wherever a member is emitted.
    proto = (re.compile(r"__proto__\Z"), "is __proto__, which an object literal reads as its "
             "prototype, not as a member", frozenset((FIELD, ARM)))
    return _Rules(words={}, file_words={}, patterns=(proto,),
                  escape=_suffix_escape(TS_ESCAPED),
                  escape_places=frozenset((FILE,)), bare_enum_values=True)


_BUILDERS: Dict[str, Callable[[], _Rules]] = {
    "c": _c_rules, "cuda": _cuda_rules, "opencl": _opencl_rules, "metal": _metal_rules,
    "glsl": _glsl_rules, "wgsl": _wgsl_rules, "zig": _zig_rules, "rust": _rust_rules,
    "python": _python_rules, "hlsl": _hlsl_rules, "typescript": _typescript_rules,
}

#: The targets whose names are judged here (every target of the registry).
NAME_TARGETS: Tuple[str, ...] = tuple(_BUILDERS)


@functools.lru_cache(maxsize=None)
def _rules(target: str) -> _Rules:
    try:
        return _BUILDERS[target]()
    except KeyError:
        raise ValueError(f"no name rules for target {target!r}") from None


# --- the decision ----------------------------------------------------------------------------

# Cached: a schema repeats a few names (x, y, f0…) thousands of times, and a name is judged by
# its text alone, so each distinct (target, name, place) is judged once per process.
@functools.lru_cache(maxsize=1 << 16)
def judge(target: str, name: str, place: str) -> Tuple[str, Optional[str]]:
    """``(spelling, problem)``: how ``target`` emits the identifier ``name`` at ``place``
    (``FIELD``, ``ARM`` or ``FILE``; kept, or escaped), and why it cannot, or ``None``.

    A name the target escapes is judged as escaped. Not judged here: a name's form and the
    tool's own prefixes (``names.identifier_problem``, every target), a member named like a
    layout fingerprint macro (``names.check_names``, which knows the schema), and collisions
    between names (the resolver and the views)."""
    return _judge(target, name, place, True)


def language_problem(target: str, name: str, place: str) -> Optional[str]:
    """``judge``'s problem without the measured file-scope declarations: what the language
    and the macro tables refuse (``tests/helpers/declared_names.py`` measures the rest)."""
    return _judge(target, name, place, False)[1]


def _judge(target: str, name: str, place: str, measured: bool) -> Tuple[str, Optional[str]]:
    rules = _rules(target)
    escaped = rules.escape is not None and place in rules.escape_places
    spelt = rules.escape(name) if escaped else name  # type: ignore[misc]
    why = rules.words.get(spelt)
    if why is None and place == FILE:
        why = rules.file_words.get(spelt)
        if why is None and measured:
            why = _declared_problem(target, spelt)
    if why is None:
        for pattern, reason, places in rules.patterns:
            if place in places and pattern.match(spelt):
                why = reason
                break
    return spelt, why


def spelling(target: str, name: str) -> str:
    """``name`` as ``target`` emits it: unchanged, or escaped where its language reserves it."""
    return judge(target, name, FIELD)[0]


def problem(target: str, name: str, place: str) -> Optional[str]:
    """Why ``target`` cannot emit ``name`` at ``place``, or ``None`` (``judge``)."""
    return judge(target, name, place)[1]


def shadowing_suffixes(target: str) -> Tuple[Tuple[str, str], ...]:
    """(suffix, kind) of the macros or constants ``target`` defines for every type's C name
    that a member of that name would meet (``refusals``)."""
    return _rules(target).shadowing


def emits_ctor_names(target: str) -> bool:
    """Whether ``target`` declares ``<C name>_<Ctor>`` and ``make_…`` at file scope."""
    return _rules(target).ctor_names


def emits_bare_enum_values(target: str) -> bool:
    """Whether ``target`` emits an enum's values as bare member names (judged as ``FIELD``)."""
    return _rules(target).bare_enum_values


def refusals(targets: Sequence[str], name: str, place: str) -> List[Tuple[str, str]]:
    """``[(target, why)]`` of the ``targets`` that cannot emit ``name`` at ``place``."""
    out = []
    for target in targets:
        why = judge(target, name, place)[1]
        if why is not None:
            out.append((target, why))
    return out


def explain(refused: Sequence[Tuple[str, str]]) -> str:
    """``[(target, why)]`` as one fragment, each reason followed by the targets it holds in:
    ``is a keyword of C++ (targets c and cuda)``."""
    by_reason: Dict[str, List[str]] = {}
    for target, why in refused:
        by_reason.setdefault(why, []).append(target)
    parts = []
    for why, targets in by_reason.items():
        listed = targets[0] if len(targets) == 1 else (", ".join(targets[:-1]) + " and "
                                                       + targets[-1])
        parts.append(f"{why} ({'target' if len(targets) == 1 else 'targets'} {listed})")
    return "; it ".join(parts)
