"""The registry of output targets: everything one output language is, in one entry.

A ``Target`` says where its file goes (suffix), which entry template prints it, which view
codegen builds for it (``view``, a key of ``codegen.target_views.VIEWS``), how it spells
scalars and declarations (``dialect``), and what the readers-back need: the C spellings that
mean each scalar when ``verify --header``/``import-c`` read such a header (``read_spellings``),
the macros its compiler predefines for the reader (``read_defines``), the header suffixes
that name it and the near misses worth explaining, and how ``verify`` probes it (word-based
GPU languages are probed through their accessors). Adding a target is one entry here, its
template and (for a C-family language) its dialect (docs/extending.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Mapping, Optional, Tuple, Union

from .dialects import (C, CUDA, GLSL, HLSL, METAL, OPENCL, RUST, TYPESCRIPT, WGSL, ZIG, Dialect,
                       RustDialect, ShaderDialect, TypeScriptDialect, ZigDialect)
from .spellings import C_FAMILY_READ, C_FAMILY_WHY, OPENCL_READ, OPENCL_WHY

__all__ = ["Target", "TARGETS", "DEFAULT_TARGETS", "PROBE_DIALECTS", "HEADER_SUFFIXES",
           "READ_TARGETS", "WORD_TARGETS", "target_of_suffix"]


@dataclass(frozen=True)
class Target:
    name: str
    #: Appended to the schema file's stem: ``geometry`` + ``.h``.
    suffix: str
    template: str
    description: str
    #: Which view codegen builds for it (``codegen.target_views``): ``module`` (the C-family
    #: view), ``python``, ``glsl``, ``wgsl``, ``metal``, ``zig``.
    view: str = "module"
    #: The spellings its templates use (a ``ShaderDialect`` for GLSL and WGSL, ``None`` for
    #: Python).
    dialect: Optional[Union[Dialect, ShaderDialect, ZigDialect, RustDialect,
                            TypeScriptDialect]] = None
    #: Schema scalar -> the C spellings that mean it in such a header, on every ABI (``None``:
    #: the C reader does not read this target's files).
    read_spellings: Optional[Mapping[str, Tuple[str, ...]]] = None
    #: Macros the C reader defines to read such a header as its compilers do.
    read_defines: Tuple[str, ...] = ()
    #: File suffixes of headers ``verify --header`` reads as this target's.
    header_suffixes: Tuple[str, ...] = ()
    #: Spellings a header of this target may write that are near misses, and why.
    near_misses: Mapping[str, str] = field(default_factory=dict)
    #: Probe dialects (keys of ``PROBE_DIALECTS``) its toolchains measure in.
    probe_dialects: Tuple[str, ...] = ()
    #: GLSL/WGSL: no unions, payloads in 32-bit words; verify probes them through the
    #: generated accessors, one toolchain run per target.
    word_based: bool = False
    #: A GPU API's shading language (docs/gpu-apis.md: GLSL, WGSL, Metal).
    gpu_api: bool = False
    #: It refuses some schemas the C headers express (a name Rust cannot take): ``verify``
    #: renders it alone, so that its refusal skips only its own toolchains.
    may_refuse: bool = False
    #: Its arrays always span count × stride (C, Rust, Zig): an array the rules end at its
    #: last element is emitted padded to its span where nothing uses that padding, and
    #: verify expects that span as its member size (``verify.probes.spanned``).
    arrays_span: bool = False

    @property
    def is_c_header(self) -> bool:
        """A C-family header the C reader reads back (``generate`` calls its files headers)."""
        return self.read_spellings is not None


_CUDA_DEFINES = ("__CUDACC__=1", "__global__=", "__align__(x)=_Alignas(x)", "alignas=_Alignas",
                 "alignof=_Alignof", "constexpr=const")
_OPENCL_DEFINES = ("__OPENCL_C_VERSION__=120", "__OPENCL_VERSION__=120", "cl_khr_fp64=1",
                   "__kernel=", "__global=", "__constant=const", "__local=", "__private=",
                   "kernel=", "global=", "constant=const", "__alignof__=_Alignof")

TARGETS: Dict[str, Target] = {
    t.name: t
    for t in (
        Target("c", ".h", "c.h.j2", "one header for C11 and C++11", dialect=C,
               read_spellings=C_FAMILY_READ, header_suffixes=(".h", ".hh", ".hpp", ".hxx"),
               near_misses=C_FAMILY_WHY["c"], probe_dialects=("c", "c++"), arrays_span=True),
        Target("cuda", ".cuh", "cuda.cuh.j2", "CUDA C++ for nvcc and NVRTC", dialect=CUDA,
               read_spellings=C_FAMILY_READ, read_defines=_CUDA_DEFINES,
               header_suffixes=(".cuh", ".cu"), near_misses=C_FAMILY_WHY["cuda"],
               probe_dialects=("c++", "nvrtc"), arrays_span=True),
        Target("opencl", ".clh", "opencl.clh.j2", "OpenCL C 1.2 and later", dialect=OPENCL,
               read_spellings=OPENCL_READ, read_defines=_OPENCL_DEFINES,
               header_suffixes=(".clh", ".cl"), near_misses=OPENCL_WHY,
               probe_dialects=("opencl",), arrays_span=True),
        Target("python", "_layout.py", "python.py.j2",
               "standalone Python module: dataclasses and struct codecs", view="python"),
        # GPU API targets (issue #14, docs/gpu-apis.md)
        Target("glsl", ".glsl", "glsl.glsl.j2",
               "GLSL 4.50 structs for Vulkan std430 buffers, with payload accessors",
               view="glsl", dialect=GLSL, word_based=True, gpu_api=True),
        Target("wgsl", ".wgsl", "wgsl.wgsl.j2",
               "WGSL structs for WebGPU storage buffers, with payload accessors",
               view="wgsl", dialect=WGSL, word_based=True, gpu_api=True),
        Target("metal", "_metal.h", "metal.h.j2", "Metal Shading Language header",
               view="metal", dialect=METAL, probe_dialects=("metal",), gpu_api=True,
               arrays_span=True),
        # HLSL (issue 33, docs/hlsl.md): structured and constant buffers, proven by Slang.
        Target("hlsl", ".hlsl", "hlsl.hlsl.j2",
               "HLSL structs for structured buffers and constant buffers (hlsl-cbuffer), with "
               "payload accessors", view="hlsl", dialect=HLSL, gpu_api=True, may_refuse=True),
        # Host languages (issue 21): Zig's extern structs, proven by zig build-obj per ABI.
        Target("zig", ".zig", "zig.zig.j2",
               "Zig 0.14+ module: extern structs and unions, constructors, comptime layout checks",
               view="zig", dialect=ZIG, may_refuse=True, arrays_span=True),
        # Host languages (issue #21, docs/rust.md)
        Target("rust", ".rs", "rust.rs.j2",
               "Rust 1.77+ module, no crate needed: repr(C) structs, variant views, byte codecs, "
               "const layout checks",
               view="rust", dialect=RUST, may_refuse=True, arrays_span=True),
        # Host languages (issue 34, docs/typescript.md): a WebGPU host's buffers from
        # TypeScript and JavaScript, proven by tsc and a Node run.
        Target("typescript", ".ts", "typescript.ts.j2",
               "TypeScript (ES2020, strict) module: interfaces, DataView codecs, framed data, "
               "typed-array columns", view="typescript", dialect=TYPESCRIPT, may_refuse=True),
    )
}

#: What ``generate`` writes when no ``-t`` is given.
DEFAULT_TARGETS: Tuple[str, ...] = ("c", "cuda", "opencl")

#: The targets whose headers the C reader reads back (``verify --header``, ``import-c``).
READ_TARGETS: Tuple[str, ...] = tuple(t.name for t in TARGETS.values() if t.is_c_header)

#: The word-based GPU targets (probed through their accessors).
WORD_TARGETS: Tuple[str, ...] = tuple(t.name for t in TARGETS.values() if t.word_based)

#: Header suffix -> target whose toolchains compile it.
HEADER_SUFFIXES: Dict[str, str] = {s: t.name for t in TARGETS.values() for s in t.header_suffixes}

#: Probe dialect -> (alignment operator, offsetof spelling as a format with {t} and {m}).
PROBE_DIALECTS: Dict[str, Tuple[str, str]] = {
    "c": ("_Alignof({t})", "offsetof({t}, {m})"),
    "c++": ("alignof({t})", "offsetof({t}, {m})"),
    # NVRTC has no <stddef.h>; __builtin_offsetof only exists from 13.x (measured: docs/verify.md).
    "nvrtc": ("alignof({t})", "((unsigned long long)__INTADDR__(&((({t} *)0)->{m})))"),
    "opencl": ("__alignof__({t})", "__builtin_offsetof({t}, {m})"),
    # Metal: MSL's own operators, through clang++ for arm64 Apple (verify/drivers/metal.py).
    "metal": ("alignof({t})", "__builtin_offsetof({t}, {m})"),
}


def target_of_suffix(suffix: str) -> Optional[str]:
    """The target a header suffix (``.cuh``) names, or ``None``."""
    return HEADER_SUFFIXES.get(suffix.lower())
