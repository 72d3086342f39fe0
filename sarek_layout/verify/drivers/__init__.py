"""Toolchain drivers: each one compiles (or runs) headers plus a probe list once, and reports
the numbers the real compiler computed.

One interface for all of them: ``Driver.measure(headers, probes) -> Measurement``. A driver
knows its toolchain (name, availability with an install hint, from ``verify.toolchains``,
which hands it in: no driver imports the registry) and how to
spell a probe in its language: ``offsetof``/``_Alignof`` in C, ``alignof`` in C++ and nvcc,
``__INTADDR__`` under NVRTC, ``__builtin_offsetof``/``__alignof__`` in OpenCL C. Every driver
makes exactly one compiler invocation (or one program build) for the whole probe list; only
when that fails does it try once more with the header's own static assertions switched off,
so that a header whose assertions reject the ABI still yields the numbers that say why.

Families, one module each: ``objfile`` (gcc, g++, clang, gcc -m32, cross gcc: probe symbol
sizes read with ``readelf``), ``cffi_host`` (cffi API mode), ``cuda`` (nvcc host and device
passes, NVRTC, found by ``nvrtc``), ``hip`` (hipcc host and device passes), ``opencl``
(clang's OpenCL C front end, PoCL through pyopencl), ``rustc`` (the rust modules, probe
arrays read with ``elf_data``), ``zig`` (Zig's own module on many ABIs, and ``zig cc`` for C,
C++ and CUDA-host headers on foreign ones), and the shading languages: ``glsl`` (glslang's
SPIR-V), ``vulkan`` (a compute probe on a Vulkan device), ``wgsl`` (naga validation; a compute
probe through wgpu) and ``metal`` (the clang++ Metal proxy). The runtime probes of GLSL and
WGSL are written once (``gpu_probes``), in the words of each language's object of
``verify.shaders`` (the model ``verify --shader`` uses too: one SPIR-V reader, one struct
reader and one set of spellings per language). ``child`` runs the in-process libraries
(NVRTC, PoCL, cffi) in a child process.

Headers are someone else's code: every compile runs in a ``headers.CompileFolder`` (no user
path reaches a command line) and through ``tools.run_tool`` or ``tools.run_child`` (bounded
time and memory, never in sarek-layout's own process for the library toolchains), and no
driver loads or runs anything built from a header, except PoCL's generated probe kernel,
which runs in the child process.
"""

from __future__ import annotations

import re
import struct
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Sequence, Tuple

from ...errors import SarekLayoutError
from ..headers import CompileFolder, HeaderSet
from ..probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, STRIDE, Probe
from ..tools import ToolRun
from ...targets.registry import PROBE_DIALECTS

if TYPE_CHECKING:  # the registry (verify.toolchains) sits above its drivers
    from ..toolchains import Toolchain

__all__ = [
    "HeaderSet",
    "Measurement",
    "ProbeFailed",
    "ProbeSkipped",
    "Driver",
    "expression",
    "DIALECTS",
    "tool_failure",
    "child_failure",
    "saturated",
    "MARKER",
    "VALUES_SYMBOL",
    "marked_values",
    "values_from_object",
]


@dataclass(frozen=True)
class Measurement:
    """What one toolchain said: one value per probe for each compiler pass.

    ``passes`` is ``(("", values),)`` for a single pass, or e.g. ``(("host", …), ("device",
    …))`` for nvcc. ``note`` is set when the header's own assertions failed (the values then
    come from a second compile with assertions switched off).
    """

    #: ``None`` for a value the toolchain cannot measure (not compared, not counted).
    passes: Tuple[Tuple[str, Tuple[Optional[int], ...]], ...]
    seconds: float = 0.0
    note: Optional[str] = None
    builds: int = 1


class ProbeFailed(SarekLayoutError):
    """The toolchain could not compile the headers at all; ``output`` is its diagnostics."""

    exit_status = 1

    def __init__(self, toolchain: str, output: str, final: bool = False) -> None:
        super().__init__(f"{toolchain}: the headers do not compile:\n{output}")
        self.toolchain = toolchain
        self.output = output
        #: Not worth the retry without assertions (a timeout, a crash).
        self.final = final


class ProbeSkipped(SarekLayoutError):
    """The toolchain cannot read these headers at all, by a limit of its own that is no fault
    of theirs (glslang's HLSL front end has no 16-bit or 64-bit integer types): ``verify``
    reports it skipped, with this one-line reason, never as agreeing or failing."""

    exit_status = 0


# --- spelling probes -------------------------------------------------------------------------

#: dialect -> (alignment operator, offsetof spelling as a format with {t} and {m}): the
#: targets' probe dialects (``targets.registry.PROBE_DIALECTS``).
DIALECTS: Dict[str, Tuple[str, str]] = PROBE_DIALECTS


def expression(probe: Probe, dialect: str) -> str:
    """The constant expression measuring ``probe`` in ``dialect`` (a key of ``DIALECTS``)."""
    align, offset = DIALECTS[dialect]
    t, m = probe.c_type, probe.member
    if probe.quantity == SIZE:
        return f"sizeof({t})"
    if probe.quantity == ALIGN:
        return align.format(t=t)
    if probe.quantity == OFFSET:
        return offset.format(t=t, m=m)
    if probe.quantity in (MEMBER_SIZE, STRIDE):  # a stride: the size of its first element
        return f"sizeof((({t} *)0)->{m})"
    raise ValueError(f"unknown probe quantity {probe.quantity!r}")


def saturated(expr: str) -> str:
    """``expr`` for a 32-bit probe table: a value past 2**32 - 1 reads as 2**32 - 1 instead
    of wrapping round to something plausible (a 4 GiB + 8 byte struct must not read 8)."""
    return f"(({expr}) > 0xffffffffu ? 0xffffffffu : ({expr}))"


#: The two words before the probe count of a probe table read back from a built file's bytes
#: (``marked_values``): ``SRK1`` and a word whose byte reversal differs.
MARKER = (0x53524B31, 0xA5C3E10F)

#: The probe table's symbol.
VALUES_SYMBOL = "sarek_probe_values"


def marked_values(probes: Sequence[Probe], dialect: str, declaration: str = "const unsigned int") -> str:
    """One table of every probe's value, after ``MARKER`` and the count, for a driver that
    reads the values back from the bytes of what it built (``values_from_object``): any
    object format, either byte order, and a table of 4-byte words however large the values
    (one sized symbol per probe would need their sum in memory: ``float32[100000000]``)."""
    values = "".join(f",\n{saturated(expression(p, dialect))}" for p in probes)
    return (f"{declaration} {VALUES_SYMBOL}[] = {{0x{MARKER[0]:08x}u, 0x{MARKER[1]:08x}u, "
            f"{len(probes)}u{values}}};\n")


def values_from_object(data: bytes, count: int, who: str) -> Tuple[int, ...]:
    """The ``count`` probe values after the marker in an object file's bytes."""
    for order in "<>":
        at = data.find(struct.pack(order + "2I", *MARKER))
        if at < 0:
            continue
        start = at + 8
        if start + 4 * (count + 1) > len(data):
            break
        found, *values = struct.unpack_from(f"{order}{count + 1}I", data, start)
        if found != count:
            raise ProbeFailed(who, f"the object holds {found} probe values, not {count}")
        return tuple(values)
    raise ProbeFailed(who, f"no probe values ({VALUES_SYMBOL}) found in the object file")


#: Put before the headers to switch their static assertions off (C, C++, CUDA): the
#: generated headers assert every number, and a failing assertion stops the compile before
#: the probes can say which number is wrong. (OpenCL's typedef-array fallback cannot be
#: switched off; its error message names the member instead.)
NO_ASSERTS = (
    "#define _Static_assert(...)\n"
    "#define static_assert(...)\n"
)


def error_excerpt(output: str, limit: int = 15) -> str:
    """The diagnostic lines worth showing: errors first, at most ``limit`` lines."""
    lines = [ln for ln in output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if re.search(r"\berror\b", ln, re.I)]
    chosen = errors or lines
    more = len(chosen) - limit
    text = "\n".join(chosen[:limit])
    return text + (f"\n… ({more} more lines)" if more > 0 else "")


def tool_failure(who: str, folder: CompileFolder, run: ToolRun) -> "ProbeFailed":
    """A program that failed: why it was stopped (if it was), then its diagnostics."""
    return _failure(who, folder, run.problem, run.stderr + "\n" + run.stdout)


def child_failure(who: str, folder: CompileFolder, child) -> "ProbeFailed":
    """A ``tools.run_child`` task that failed: how it ended, its log, what it printed."""
    # With an answer, stdout is just that answer: its log is shown once, from the answer.
    printed = child.run.stdout if not child.answer else ""
    return _failure(who, folder, child.run.problem,
                    "\n".join([child.answer.get("log", ""), child.run.stderr, printed]),
                    exit_status=child.run.returncode if not child.answer else 0)


def _failure(who: str, folder: CompileFolder, problem: Optional[str], text: str,
             exit_status: int = 0) -> "ProbeFailed":
    """The diagnostics worth showing, with the user's paths instead of temporary ones."""
    excerpt = error_excerpt(folder.readable(text))
    head = [problem] if problem else []
    if not problem and exit_status:
        head.append(f"the helper process exited with status {exit_status}")
    message = "\n".join(head + ([excerpt] if excerpt else [])) or "failed without a message"
    # A program stopped for time or memory would only be stopped again by the retry.
    return ProbeFailed(who, message, final=problem is not None)


def with_assertion_fallback(
    toolchain: Toolchain,
    attempt: Callable[[bool], List[Tuple[str, Tuple[int, ...]]]],
    can_disable_asserts: bool = True,
) -> Measurement:
    """Run ``attempt(disable_asserts)``; on ``ProbeFailed`` retry once with assertions off.

    ``attempt`` returns the passes or raises ``ProbeFailed``. The retry's numbers carry the
    first failure's diagnostics as ``note``; if the retry fails too, the first error stands.
    """
    start = time.perf_counter()
    try:
        passes = attempt(False)
        return Measurement(tuple(passes), time.perf_counter() - start)
    except ProbeFailed as first:
        if not can_disable_asserts or first.final:
            raise
        try:
            passes = attempt(True)
        except ProbeFailed:
            raise first from None
        return Measurement(tuple(passes), time.perf_counter() - start, note=first.output,
                           builds=2)


class Driver:
    """Base of every driver: ``toolchain`` plus ``measure``."""

    #: Whether ``measure`` does only Python work and runs its programs through
    #: ``tools.run_tool`` / ``tools.run_child`` (bounded, killed by a batch's ``Halt``), with
    #: no change to the working folder or the environment: then ``verify`` may run it on a
    #: worker thread beside other toolchains (``verify.schedule``). In-process APIs (Vulkan,
    #: wgpu) and plain ``subprocess`` calls stay on the main thread.
    subprocess_only = False
    #: About how long ``measure`` takes on a small schema, in seconds of CPU (measured on the
    #: example, docs/benchmarks.md): ``verify`` starts the longest first (``verify.schedule``),
    #: so only the order of these numbers matters.
    estimate_s = 0.05

    def __init__(self, toolchain: Toolchain) -> None:
        self.toolchain = toolchain

    @property
    def name(self) -> str:
        return self.toolchain.name

    @property
    def available(self) -> bool:
        return self.toolchain.available

    @property
    def unavailable_reason(self) -> Optional[str]:
        return self.toolchain.unavailable_reason

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        raise NotImplementedError
