"""The compilers and runtimes sarek-layout checks headers with: the registry.

Each entry carries its behaviour, not just its name: the header target it reads, its
command line, the driver class that measures layouts with it (``driver``, imported on use),
and how it detects itself here (``detect``: ``None`` when usable, else the one line that
says what is missing and how to install it). One registry shared by ``verify`` (which
measures layouts with them) and the test suite (which derives its toolchain lists from it
and compiles every generated header with them). Adding a toolchain is one entry here and,
for a new family, one driver module (docs/extending.md). Command lines are the measured ones
(docs/verify.md, the toolchain table): cross compilers run ``-ffreestanding`` so that only gcc's own
``stdint.h``/``stddef.h`` are used, and ``gcc -m32`` is probed by compiling, because the
driver exists even when the i386 libraries do not.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, Optional, Sequence, Tuple

from .drivers.nvrtc import NVRTC_ENV, nvrtc_library

if TYPE_CHECKING:
    from .drivers import Driver
    from .tools import ToolRun

__all__ = [
    "Toolchain",
    "TOOLCHAINS",
    "get",
    "required_toolchains",
    "REQUIRE_ENV",
    "nvrtc_library",
    "refresh",
    "driver_for",
    "prefetch",
]

#: CI sets this to ``1`` (or a comma-separated list of names) so that tests needing a missing
#: toolchain fail instead of skipping.
REQUIRE_ENV = "SAREK_REQUIRE_TOOLCHAINS"


@dataclass(frozen=True)
class Toolchain:
    """One way of compiling a header: which target header it reads and how it is invoked."""

    name: str
    description: str
    #: The generated header target it compiles: ``c``, ``cuda``, ``opencl``, ``zig``…
    target: str
    #: ``c``, ``c++``, ``cuda``, ``opencl`` (source language of the probe files).
    language: str
    #: Compiler command and flags, without input/output (empty for library-based ones).
    argv: Tuple[str, ...]
    install_hint: str
    #: Python module whose import proves availability (cffi, pyopencl, NVRTC bindings).
    python_module: Optional[str] = None
    #: For compilers: a tiny program that must compile (catches missing multilib headers).
    smoke_source: Optional[str] = None
    #: How reports name it ("gcc -m32"); defaults to ``name``.
    label: str = ""
    #: The compiler passes it measures separately (nvcc's and hipcc's host and device
    #: passes); empty for one.
    passes: Tuple[str, ...] = ()
    #: Said when it alone disagrees, measuring less than the layout everywhere it differs
    #: (an ABI that aligns some members less): why, and the fix (``compare.detail_lines``).
    lone_disagreement: str = ""
    #: ``module:Class`` of the driver that measures layouts with it (``verify.drivers``).
    driver: str = "sarek_layout.verify.drivers.objfile:ObjfileDriver"
    #: How it finds out whether it is installed here: ``None``, or why not (one line).
    detect: Callable[["Toolchain"], Optional[str]] = lambda tc: _compiler_problem(tc)
    #: Whether ``detect`` only looks for files and starts programs (no library loaded into
    #: this process), so that ``prefetch`` may run it on a worker thread beside the others.
    detect_in_thread: bool = True
    #: The rest of the detection, for an installed toolchain: opening its device in this
    #: process (wgpu's adapter alone costs 0.5 s of CPU). ``verify`` runs it as part of the
    #: toolchain's own job, on the thread that then uses the device, not before every job.
    device: Callable[["Toolchain"], Optional[str]] = lambda tc: None

    @property
    def display(self) -> str:
        return self.label or self.name

    def driver_class(self) -> type:
        """The driver class (its module imported now, not at start-up)."""
        import importlib

        module, _, cls = self.driver.partition(":")
        return getattr(importlib.import_module(module), cls)

    @property
    def available(self) -> bool:
        return _availability(self.name) is None

    @property
    def installed(self) -> bool:
        """``detect`` says yes (its ``device``, if any, not tried yet)."""
        return _installed(self.name) is None

    @property
    def unavailable_reason(self) -> Optional[str]:
        """``None`` when usable, else one line: what is missing and how to install it."""
        return _availability(self.name)


#: Where the drivers live (``module:Class`` names below are relative to it).
_DRIVERS = "sarek_layout.verify.drivers."

_C_SMOKE = "#include <stdint.h>\n#include <stddef.h>\nint32_t smoke_probe;\n"

_CROSS_HINT = "apt-get install -y --no-install-recommends {pkg}"

_LIST = [
    Toolchain("gcc", "gcc, C11, host ABI (x86-64)", "c", "c", ("gcc", "-std=c11"),
              "apt-get install -y gcc", smoke_source=_C_SMOKE),
    Toolchain("g++", "g++, C++11, host ABI", "c", "c++", ("g++", "-std=c++11", "-x", "c++"),
              "apt-get install -y g++", smoke_source=_C_SMOKE),
    Toolchain("clang", "clang, C11, host ABI", "c", "c", ("clang", "-std=c11"),
              "apt-get install -y --no-install-recommends clang", smoke_source=_C_SMOKE),
    Toolchain("gcc-m32", "gcc -m32, C11, i386 ABI (8-byte scalars 4-aligned in structs)", "c",
              "c", ("gcc", "-m32", "-std=c11"),
              "apt-get install -y --no-install-recommends libc6-dev-i386 lib32gcc-12-dev",
              smoke_source=_C_SMOKE, label="gcc -m32",
              lone_disagreement="Only gcc -m32 disagrees: i386 aligns double and int64_t to 4 "
              "inside structs (8 on the other ABIs). Put _Alignas(8) on the 8-byte members "
              "(alignas(8) in C++, __attribute__((aligned(8))) for gcc, clang, nvcc and "
              "OpenCL), or use the generated header, which does."),
    Toolchain("aarch64", "aarch64-linux-gnu-gcc, C11, freestanding", "c", "c",
              ("aarch64-linux-gnu-gcc", "-std=c11", "-ffreestanding"),
              _CROSS_HINT.format(pkg="gcc-aarch64-linux-gnu"), smoke_source=_C_SMOKE),
    Toolchain("armhf", "arm-linux-gnueabihf-gcc, C11, freestanding (32-bit ARM)", "c", "c",
              ("arm-linux-gnueabihf-gcc", "-std=c11", "-ffreestanding"),
              _CROSS_HINT.format(pkg="gcc-arm-linux-gnueabihf"), smoke_source=_C_SMOKE),
    Toolchain("ppc64", "powerpc64-linux-gnu-gcc, C11, freestanding (big-endian)", "c", "c",
              ("powerpc64-linux-gnu-gcc", "-std=c11", "-ffreestanding"),
              _CROSS_HINT.format(pkg="gcc-powerpc64-linux-gnu"), smoke_source=_C_SMOKE),
    Toolchain("s390x", "s390x-linux-gnu-gcc, C11, freestanding (big-endian)", "c", "c",
              ("s390x-linux-gnu-gcc", "-std=c11", "-ffreestanding"),
              _CROSS_HINT.format(pkg="gcc-s390x-linux-gnu"), smoke_source=_C_SMOKE),
    Toolchain("cffi", "cffi API mode with the host C compiler", "c", "c", (),
              "pip install cffi", python_module="cffi",
              driver=_DRIVERS + "cffi_host:CffiDriver", detect=lambda tc: _module_problem(tc),
              detect_in_thread=False),
    Toolchain("nvcc", "nvcc -c, CUDA host and device passes", "cuda", "cuda", ("nvcc", "-c"),
              "install the CUDA toolkit (nvcc on PATH)", driver=_DRIVERS + "cuda:NvccDriver",
              passes=("host pass", "device pass")),
    Toolchain("nvrtc", "NVRTC, CUDA device code without libc headers (no GPU needed)", "cuda",
              "cuda", (), "pip install nvidia-cuda-nvrtc (or set SAREK_NVRTC_LIBRARY)",
              driver=_DRIVERS + "cuda:NvrtcDriver", detect=lambda tc: _nvrtc_problem(tc),
              detect_in_thread=False),
    Toolchain("clang-opencl", "clang -x cl -cl-std=CL1.2 -target spir64", "opencl", "opencl",
              ("clang", "-x", "cl", "-cl-std=CL1.2", "-target", "spir64"),
              "apt-get install -y --no-install-recommends clang",
              driver=_DRIVERS + "opencl:ClangOpenCLDriver"),
    Toolchain("pocl", "PoCL OpenCL runtime on the CPU, through pyopencl", "opencl", "opencl", (),
              "apt-get install -y pocl-opencl-icd ocl-icd-opencl-dev && pip install pyopencl",
              python_module="pyopencl", driver=_DRIVERS + "opencl:PoclDriver",
              detect=lambda tc: _module_problem(tc) or _pocl_problem(tc),
              detect_in_thread=False),
]

# GPU API targets (issue #14, docs/gpu-apis.md): glslang and spirv-cross reflection, naga
# (inside wgpu), the Vulkan and WebGPU runtimes (lavapipe on a CPU), clang++ as a Metal proxy.
_VULKAN_HINT = "apt-get install -y mesa-vulkan-drivers libvulkan1 glslang-tools && pip install vulkan"
_LIST += [
    Toolchain("glslang", "glslangValidator to SPIR-V, offsets and strides read from the module", "glsl",
              "glsl", ("glslangValidator", "spirv-cross"),
              "apt-get install -y --no-install-recommends glslang-tools spirv-cross",
              driver=_DRIVERS + "glsl:GlslangDriver", detect=lambda tc: _missing_programs(tc)),
    Toolchain("naga", "naga (inside wgpu) validates the WGSL; no numbers of its own", "wgsl",
              "wgsl", (), "pip install wgpu", python_module="wgpu",
              driver=_DRIVERS + "wgsl:NagaDriver", detect=lambda tc: _module_problem(tc),
              detect_in_thread=False, device=lambda tc: _webgpu_problem(tc)),
    Toolchain("vulkan", "a GLSL compute shader reads the structs on a Vulkan device (lavapipe)",
              "glsl", "glsl", ("glslangValidator",), _VULKAN_HINT, python_module="vulkan",
              driver=_DRIVERS + "vulkan:VulkanDriver",
              detect=lambda tc: _module_problem(tc) or _vulkan_programs_problem(tc),
              detect_in_thread=False, device=lambda tc: _vulkan_problem(tc)),
    Toolchain("webgpu", "a WGSL compute shader reads the structs through wgpu (lavapipe)",
              "wgsl", "wgsl", (), "pip install wgpu && apt-get install -y mesa-vulkan-drivers",
              python_module="wgpu", driver=_DRIVERS + "wgsl:WebGPUDriver",
              detect=lambda tc: _module_problem(tc), detect_in_thread=False,
              device=lambda tc: _webgpu_problem(tc)),
    Toolchain("metal-proxy", "clang++ -std=c++14 for arm64 Apple with an MSL shim (a proxy: "
              "not Apple's Metal compiler)", "metal", "c++",
              ("clang++", "-std=c++14", "--target=arm64-apple-macos11"),
              "apt-get install -y --no-install-recommends clang", label="metal-proxy",
              driver=_DRIVERS + "metal:MetalProxyDriver"),
    Toolchain("hip", "hipcc (clang HIP mode, gfx90a), host and device passes, offline: Sarek's "
              "HIP backend reuses the CUDA emitter", "cuda", "cuda", ("hipcc",),
              "apt-get install -y --no-install-recommends hipcc libamdhip64-dev",
              driver=_DRIVERS + "hip:HipDriver", passes=("host pass", "device pass")),
]

# HLSL (issue 33, docs/hlsl.md): Slang from PyPI (slangpy) measures the generated HLSL with its
# reflection, in a child process; glslang's HLSL front end compiles it as a second check.
_LIST += [
    Toolchain("slang", "Slang (PyPI slangpy) compiles the HLSL for the HLSL target, column-major; "
              "every offset, size and stride read from its reflection", "hlsl", "hlsl", (),
              "pip install slangpy", python_module="slangpy",
              driver=_DRIVERS + "hlsl:SlangDriver", detect=lambda tc: _slang_problem(tc)),
    Toolchain("glslang-hlsl", "glslangValidator -D (glslang's HLSL front end) compiles the HLSL; "
              "no numbers of its own (it lays cbuffers out by std140)", "hlsl", "hlsl",
              ("glslangValidator",), "apt-get install -y --no-install-recommends glslang-tools",
              driver=_DRIVERS + "hlsl:GlslangHlslDriver",
              detect=lambda tc: _missing_programs(tc)),
]

# Zig from PyPI (issue 21, verify/drivers/zig.py): one package cross-compiles offline for
# every ABI below; each ABI is a pass of its toolchain (one zig invocation each). Measured
# with ziglang 0.17.1 (docs/verify.md). zig cc's Windows targets are MinGW's (-gnu: the
# -msvc ones have no libc here); the CUDA header is compiled as its host pass sees it.
ZIG_TARGETS = ("x86-linux", "x86_64-linux", "aarch64-linux", "arm-linux", "riscv64-linux",
               "x86_64-windows", "x86-windows", "aarch64-macos", "x86_64-macos",
               "wasm32-freestanding", "sparc64-linux")
ZIG_CC_TARGETS = ("x86-windows-gnu", "x86_64-windows-gnu", "aarch64-macos", "x86_64-macos",
                  "wasm32-wasi", "riscv64-linux-gnu", "sparc64-linux-gnu", "mips-linux-gnueabi",
                  "powerpc-linux-musleabi")
_ZIG_HINT = "pip install ziglang"
_LIST += [
    Toolchain("zig", "zig build-obj of the Zig module, comptime checks live, per ABI", "zig",
              "zig", ("zig", "build-obj", "-O", "ReleaseSmall"), _ZIG_HINT,
              driver=_DRIVERS + "zig:ZigDriver", passes=ZIG_TARGETS,
              detect=lambda tc: _zig_problem(tc),
              detect_in_thread=False),
    Toolchain("zig-cc", "zig cc, C11, foreign ABIs (Windows, macOS, wasm32, big-endian...)",
              "c", "c", ("zig", "cc", "-std=c11"), _ZIG_HINT, label="zig cc",
              driver=_DRIVERS + "zig:ZigCcDriver", passes=ZIG_CC_TARGETS,
              detect=lambda tc: _zig_problem(tc),
              detect_in_thread=False),
    Toolchain("zig-c++", "zig c++, C++11, foreign ABIs", "c", "c++",
              ("zig", "c++", "-std=c++11", "-x", "c++"), _ZIG_HINT, label="zig c++",
              driver=_DRIVERS + "zig:ZigCcDriver", passes=ZIG_CC_TARGETS,
              detect=lambda tc: _zig_problem(tc),
              detect_in_thread=False),
    Toolchain("zig-cuda", "zig c++ of the CUDA header as its host pass sees it "
              "(__host__/__device__ empty), foreign ABIs", "cuda", "c++",
              ("zig", "c++", "-std=c++11", "-x", "c++", "-D__host__=", "-D__device__="),
              _ZIG_HINT, label="zig c++ (CUDA host)", driver=_DRIVERS + "zig:ZigCcDriver",
              passes=ZIG_CC_TARGETS, detect=lambda tc: _zig_problem(tc),
              detect_in_thread=False),
]

# Host languages (issue #21, docs/rust.md): the machine's rustc compiles the rust target's
# modules with their const assertions live and a probe crate read back like gcc's objects.
_RUSTC_HINT = ("install Rust 1.77 or later with rustup (https://rustup.rs; Debian's rustc "
               "1.63 is too old for core::mem::offset_of!)")
_LIST += [
    Toolchain("rustc", "rustc 1.77+, host target: the rust modules' const assertions and "
              "offset_of! probes in one object file", "rust", "rust", ("rustc",), _RUSTC_HINT,
              driver=_DRIVERS + "rustc:RustcDriver", detect=lambda tc: _rustc_problem(tc)),
]

# Host languages (issue 34, docs/typescript.md): tsc type-checks the typescript target's modules
# and Node runs them, encoding a value of every type; where each value's bytes land is measured.
_LIST += [
    Toolchain("typescript", "tsc --strict on the typescript modules, then Node encodes a value "
              "of each type: where each member's bytes land", "typescript", "typescript",
              ("tsc", "node"), "npm install typescript (and Node.js 18+)",
              driver=_DRIVERS + "typescript:TypeScriptDriver",
              detect=lambda tc: _typescript_problem(tc)),
]

TOOLCHAINS: Dict[str, Toolchain] = {t.name: t for t in _LIST}


def get(name: str) -> Toolchain:
    """The toolchain called ``name``; ``KeyError`` lists the known names."""
    try:
        return TOOLCHAINS[name]
    except KeyError:
        raise KeyError(f"unknown toolchain {name!r}; known: {', '.join(TOOLCHAINS)}") from None


def refresh() -> None:
    """Forget the cached availability answers (after installing something, or in tests)."""
    _availability.cache_clear()
    _installed.cache_clear()
    nvrtc_library.cache_clear()
    from .drivers.typescript import typescript_programs
    from .drivers.zig import zig_program

    zig_program.cache_clear()
    typescript_programs.cache_clear()


@functools.lru_cache(maxsize=None)
def _installed(name: str) -> Optional[str]:
    tc = TOOLCHAINS[name]
    return tc.detect(tc)


@functools.lru_cache(maxsize=None)
def _availability(name: str) -> Optional[str]:
    tc = TOOLCHAINS[name]
    return _installed(name) or tc.device(tc)


def prefetch(toolchains: Sequence[Toolchain], workers: int) -> None:
    """Run the ``detect`` of every toolchain now, those that only start programs (the smoke
    compiles, ``rustc --version``) up to ``workers`` at once on threads, the others here:
    one after another they were 0.4 s of a verify of the example before anything ran."""
    threaded = [tc for tc in toolchains if tc.detect_in_thread]
    here = [tc for tc in toolchains if not tc.detect_in_thread]
    if workers <= 1 or len(threaded) < 2:
        here += threaded
        threaded = []
    if not threaded:
        for tc in here:
            _installed(tc.name)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sarek-detect") as pool:
        futures = [pool.submit(_installed, tc.name) for tc in threaded]
        for tc in here:
            _installed(tc.name)
    for future in futures:
        future.result()  # a detection's error is raised here, as it would have been later


# --- detection, shared by the entries ------------------------------------------------------


def _compiler_problem(tc: Toolchain) -> Optional[str]:
    """A command-line compiler: its program is on PATH and, when it has a smoke source, that
    compiles (the driver exists even when, say, the i386 libraries do not)."""
    if tc.argv and shutil.which(tc.argv[0]) is None:
        return f"{tc.name}: {tc.argv[0]} not found; {tc.install_hint}"
    if tc.smoke_source is None:
        return None
    with tempfile.TemporaryDirectory(prefix="sarek-smoke-") as tmp:
        with open(os.path.join(tmp, "smoke.c"), "w") as f:
            f.write(tc.smoke_source)
        command = [*tc.argv, "-c", "smoke.c", "-o", "smoke.o"]
        run = _bounded(tc, command, tmp)
        if run.returncode != 0 and run.problem is None and os.environ.get("TMPDIR"):
            from .tools import check_room

            # A full $TMPDIR is not a missing compiler (run_tool checked the folder `tmp`,
            # which Python may have made elsewhere when $TMPDIR had no room).
            check_room(os.environ["TMPDIR"])
    return _smoke_problem(tc, command, run)


def _bounded(tc: Toolchain, argv: Sequence[str], cwd: str) -> "ToolRun":
    """``argv`` run in ``cwd`` by ``tools.run_tool``, under the bounds of every compile
    (``$SAREK_VERIFY_TIMEOUT``, ``$SAREK_VERIFY_MEMORY_MB``, the whole process group killed
    when stopped): a compiler that hangs on the smoke test must not hang ``verify``, nor
    leave its own children running."""
    from .tools import run_tool

    return run_tool(argv, cwd=cwd, label=tc.argv[0] if tc.argv else tc.name)


def _smoke_problem(tc: Toolchain, command: Sequence[str], run: "ToolRun",
                   on: str = " on a 3-line test program") -> Optional[str]:
    """Why the detection run ``run`` of ``command`` says ``tc`` cannot be used (``None``
    when it succeeded). A time-out or a crash is said as such, not as a missing install."""
    from .tools import TIMEOUT_ENV, timeout_seconds

    shown = " ".join(command)
    if run.timed_out:
        return (f"{tc.name}: `{shown}`{on} was stopped after {timeout_seconds():g} s "
                f"(${TIMEOUT_ENV}), with the programs it started: it hangs here, or this "
                f"machine is too busy for ${TIMEOUT_ENV}")
    if run.problem is not None:
        return f"{tc.name}: `{shown}`{on}: {run.problem}"
    if run.returncode != 0:
        first = (run.stderr.strip().splitlines() or ["failed"])[0]
        return f"{tc.name}: cannot compile a test program ({first}); {tc.install_hint}"
    return None


def _zig_problem(tc: Toolchain) -> Optional[str]:
    """Zig is the binary inside the ``ziglang`` Python package (not imported)."""
    from .drivers.zig import zig_program

    if zig_program() is None:
        return f"{tc.name}: Zig (the Python package ziglang) not found; {tc.install_hint}"
    return None


#: The first rustc with ``core::mem::offset_of!`` (nested fields came in 1.82; the rust
#: target's checks name one member each, and its probes are nested only through unions).
RUSTC_MINIMUM = (1, 77)


def _rustc_problem(tc: Toolchain) -> Optional[str]:
    """rustc is on PATH, says its version, and that version has ``offset_of!``."""
    import re

    program = shutil.which(tc.argv[0])
    if program is None:
        return f"{tc.name}: rustc not found; {tc.install_hint}"
    if shutil.which("readelf") is None:
        return f"{tc.name}: readelf not found; apt-get install -y binutils"
    with tempfile.TemporaryDirectory(prefix="sarek-smoke-") as tmp:
        run = _bounded(tc, [program, "--version"], tmp)
    if run.problem is not None:
        return _smoke_problem(tc, ["rustc", "--version"], run, on="")
    found = re.match(r"rustc (\d+)\.(\d+)", run.stdout)
    if run.returncode != 0 or not found:
        return f"{tc.name}: `rustc --version` said nothing usable; {tc.install_hint}"
    version = (int(found.group(1)), int(found.group(2)))
    if version < RUSTC_MINIMUM:
        return (f"{tc.name}: rustc {version[0]}.{version[1]} is older than "
                f"{RUSTC_MINIMUM[0]}.{RUSTC_MINIMUM[1]}; {tc.install_hint}")
    return None


def _typescript_problem(tc: Toolchain) -> Optional[str]:
    """tsc (on PATH or in ./node_modules/.bin, as npx finds it) and node."""
    from .drivers.typescript import typescript_programs

    tsc, node = typescript_programs()
    if node is None:
        return f"{tc.name}: node not found; install Node.js 18 or later, then {tc.install_hint}"
    if tsc is None:
        return (f"{tc.name}: tsc not found (on PATH or in ./node_modules/.bin); "
                f"{tc.install_hint}")
    return None


def _module_problem(tc: Toolchain) -> Optional[str]:
    """A Python package is importable (without importing it)."""
    import importlib.util

    try:
        found = importlib.util.find_spec(tc.python_module or "") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        return f"{tc.name}: Python module {tc.python_module} not found; {tc.install_hint}"
    return None


def _slang_problem(tc: Toolchain) -> Optional[str]:
    """Slang is the library inside the slangpy wheel (found, not imported)."""
    from .shaders.slang import slang_problem

    return slang_problem(tc.name)


def _nvrtc_problem(tc: Toolchain) -> Optional[str]:
    if nvrtc_library() is not None:
        return None
    explicit = os.environ.get(NVRTC_ENV)
    if explicit:
        from ..errors import quoted

        return (f"{tc.name}: ${NVRTC_ENV} names {quoted(explicit, 200)}, which does not load "
                f"as a libnvrtc that answers nvrtcVersion; {tc.install_hint}")
    return (f"{tc.name}: libnvrtc not found (looked in the nvidia pip wheels, the loader path "
            f"and $CUDA_HOME); {tc.install_hint}")


def _missing_programs(tc: Toolchain) -> Optional[str]:
    for program in tc.argv:
        if shutil.which(program) is None:
            return f"{tc.name}: {program} not found; {tc.install_hint}"
    return None


def _vulkan_programs_problem(tc: Toolchain) -> Optional[str]:
    problem = _missing_programs(tc)
    return None if problem is None else f"{tc.name}: {problem.split(': ', 1)[-1]}"


def _vulkan_problem(tc: Toolchain) -> Optional[str]:
    from .drivers.vulkan import vulkan_problem

    problem = vulkan_problem()
    return None if problem is None else f"{tc.name}: {problem.split(': ', 1)[-1]}"


def _webgpu_problem(tc: Toolchain) -> Optional[str]:
    from .drivers.wgsl import webgpu_problem

    problem = webgpu_problem(need_adapter=True)
    return None if problem is None else f"{tc.name}: {problem}"


def _pocl_problem(tc: Toolchain) -> Optional[str]:
    try:
        import pyopencl as cl  # type: ignore[import-not-found]

        platforms = cl.get_platforms()
    except Exception as e:  # pyopencl raises its own errors when no ICD is installed
        return f"{tc.name}: no OpenCL platform ({e}); {tc.install_hint}"
    if not any("portable computing language" in p.name.lower() or "pocl" in p.name.lower()
               for p in platforms):
        return f"{tc.name}: no PoCL platform among {[p.name for p in platforms]}; {tc.install_hint}"
    return None


def required_toolchains() -> Tuple[str, ...]:
    """Names that must be present (from ``$SAREK_REQUIRE_TOOLCHAINS``): all for ``1``/``all``."""
    value = os.environ.get(REQUIRE_ENV, "").strip()
    if not value or value == "0":
        return ()
    if value.lower() in ("1", "all", "yes", "true"):
        return tuple(TOOLCHAINS)
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    unknown = [n for n in names if n not in TOOLCHAINS]
    if unknown:
        # A misspelt name would otherwise require nothing, silently.
        from ..errors import UsageError, quoted

        raise UsageError(f"${REQUIRE_ENV} names unknown toolchain {quoted(unknown[0], 60)}; "
                         f"known: {', '.join(TOOLCHAINS)} (or 1 for all)")
    return names


def driver_for(name: str) -> "Driver":
    """The driver of toolchain ``name``, as its registry entry names it (``KeyError`` for an
    unknown name)."""
    tc = get(name)
    return tc.driver_class()(tc)
