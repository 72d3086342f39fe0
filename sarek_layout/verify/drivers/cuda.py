"""CUDA: nvcc (host and device passes in one ``nvcc -c``) and NVRTC (device only, no GPU).

nvcc compiles a ``.cu`` file holding, for the host pass, one ``char sarek_probe_N[(expr) + 1]``
per probe (sizes read from the host object with ``readelf``) and, for the device pass, one
``__device__ unsigned int sarek_dprobe[] = {expr, …}`` table, read from the PTX that
``--keep`` leaves behind. One table rather than one ``__device__`` symbol per probe because
nvcc registers every device variable with the runtime in the host stub, which is slow.

NVRTC compiles the same table from a source held in memory, the headers found through its
include paths (NVRTC has no libc headers; the ``cuda`` header target supplies its own
fixed-width types under ``__CUDACC_RTC__``), and the table is read from the returned PTX.
The library is loaded with ctypes from wherever ``drivers.nvrtc.nvrtc_library`` found it, so the
package never requires it, and in a child process (``tools.run_child``): NVRTC reads
included files itself, and one that never ends (a FIFO) must not hang sarek-layout.

Every path nvcc sees is relative to the compile folder: nvcc runs its sub-steps through
``sh`` and does not escape backquotes in ``-I`` folders.
"""

from __future__ import annotations

import glob
import os
import re
from typing import List, Sequence, Tuple

from .nvrtc import nvrtc_library
from ..headers import CompileFolder
from ..probes import Probe
from ..tools import run_child, run_tool
from . import NO_ASSERTS, Driver, HeaderSet, Measurement, ProbeFailed, child_failure, expression
from . import saturated, tool_failure, with_assertion_fallback
from .objfile import probe_source, readelf, symbol_sizes, values_from_symbols

__all__ = ["NvccDriver", "NvrtcDriver", "ptx_table"]

TABLE = "sarek_dprobe"

#: Ask for one real architecture so that the PTX (and the device pass) exist; sm_75 is the
#: oldest CUDA 13 supports and the default of this nvcc.
NVCC_ARCH = "sm_75"
NVRTC_ARCH = "compute_75"


def device_table(probes: Sequence[Probe], dialect: str) -> str:
    values = ",\n".join(saturated(expression(p, dialect)) for p in probes) or "0"
    return f"__device__ unsigned int {TABLE}[{max(len(probes), 1)}] = {{\n{values}\n}};\n"


_PTX_ARRAY = re.compile(
    r"\.global\s+\.align\s+\d+\s+\.(b8|u32|b32)\s+" + TABLE + r"\[(\d+)\]\s*=\s*\{([^}]*)\}"
)


def ptx_table(ptx: str, count: int, who: str) -> Tuple[int, ...]:
    """The ``sarek_dprobe`` values from PTX (NVPTX is little-endian; bytes or words)."""
    m = _PTX_ARRAY.search(ptx)
    if m is None:
        raise ProbeFailed(who, f"the probe table {TABLE} is missing from the PTX")
    items = [int(x, 0) for x in m.group(3).replace("\n", " ").split(",") if x.strip()]
    if m.group(1) == "b8":
        words = [int.from_bytes(bytes(items[i:i + 4]), "little") for i in range(0, len(items), 4)]
    else:
        words = items
    if len(words) < count:
        raise ProbeFailed(who, f"the probe table has {len(words)} values, expected {count}")
    return tuple(words[:count])


class NvccDriver(Driver):
    """``nvcc -c``: host values from the object file, device values from the kept PTX."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 0.75

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with CompileFolder(headers, "sarek-verify-nvcc-") as folder:
                os.mkdir(folder.absolute("keep"))
                with open(folder.absolute("sarek_probe.cu"), "w") as f:
                    f.write(probe_source(headers, probes, "c++", disable_asserts=disable_asserts))
                    f.write(device_table(probes, "c++"))
                run = run_tool(
                    [*tc.argv, f"-arch={NVCC_ARCH}", "--keep", "--keep-dir", "keep",
                     "-diag-suppress", "177", *folder.include_flags(), "sarek_probe.cu",
                     "-o", "sarek_probe.o"], cwd=folder.path)
                if not run.ok:
                    raise tool_failure(tc.display, folder, run)
                host = values_from_symbols(symbol_sizes(readelf(folder, "sarek_probe.o",
                                                                tc.display)),
                                           len(probes), tc.display)
                ptx_files = glob.glob(os.path.join(folder.absolute("keep"), "*.ptx"))
                if not ptx_files:
                    raise ProbeFailed(tc.display, "nvcc --keep left no PTX file")
                with open(ptx_files[0]) as f:
                    device = ptx_table(f.read(), len(probes), tc.display)
            return [("host pass", host), ("device pass", device)]

        return with_assertion_fallback(tc, attempt)


class NvrtcDriver(Driver):
    """NVRTC on the device side only; compiles in a child process, needs no GPU."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 0.15

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain
        path = nvrtc_library()
        if path is None:
            raise ProbeFailed(tc.display, tc.unavailable_reason or "libnvrtc not found")

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            source = ((NO_ASSERTS if disable_asserts else "") + headers.include_lines()
                      + device_table(probes, "nvrtc"))
            with CompileFolder(headers, "sarek-verify-nvrtc-") as folder:
                options = [f"--gpu-architecture={NVRTC_ARCH}",
                           *(f"--include-path={folder.absolute(d)}" for d in folder.include_dirs)]
                child = run_child("nvrtc", {"library": path, "source": source,
                                            "name": "sarek_probe.cu", "options": options},
                                  cwd=folder.path)
                if not child.ok:
                    raise child_failure(tc.display, folder, child)
            return [("", ptx_table(child.answer["ptx"], len(probes), tc.display))]

        return with_assertion_fallback(tc, attempt)
