"""CUDA: nvcc (host and device passes in one ``nvcc -c``) and NVRTC (device only, no GPU).

nvcc compiles a ``.cu`` file holding, for the host pass, one ``char sarek_probe_N[(expr) + 1]``
per probe (sizes read from the host object with ``readelf``) and, for the device pass, one
``__device__ unsigned int sarek_dprobe[] = {expr, …}`` table, read from the PTX that
``--keep`` leaves behind. One table rather than one ``__device__`` symbol per probe because
nvcc registers every device variable with the runtime in the host stub, which is slow.

NVRTC compiles the same table with the headers passed in memory (NVRTC has no libc headers;
the ``cuda`` header target supplies its own fixed-width types under ``__CUDACC_RTC__``), and
the table is read from the returned PTX. The library is loaded with ctypes from wherever
``toolchains.nvrtc_library`` found it, so the package never requires it.
"""

from __future__ import annotations

import ctypes
import glob
import os
import re
import subprocess
import tempfile
from typing import List, Sequence, Tuple

from ...toolchains import nvrtc_library
from ..probes import Probe
from . import NO_ASSERTS, Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt, expression
from . import with_assertion_fallback
from .objfile import probe_source, readelf, symbol_sizes, values_from_symbols

__all__ = ["NvccDriver", "NvrtcDriver", "ptx_table"]

TABLE = "sarek_dprobe"

#: Ask for one real architecture so that the PTX (and the device pass) exist; sm_75 is the
#: oldest CUDA 13 supports and the default of this nvcc.
NVCC_ARCH = "sm_75"
NVRTC_ARCH = "compute_75"


def device_table(probes: Sequence[Probe], dialect: str) -> str:
    values = ",\n".join(expression(p, dialect) for p in probes) or "0"
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

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with tempfile.TemporaryDirectory(prefix="sarek-verify-nvcc-") as tmp:
                headers.write(tmp)
                keep = os.path.join(tmp, "keep")
                os.mkdir(keep)
                src = os.path.join(tmp, "sarek_probe.cu")
                obj = os.path.join(tmp, "sarek_probe.o")
                with open(src, "w") as f:
                    f.write(probe_source(headers, probes, "c++", disable_asserts=disable_asserts))
                    f.write(device_table(probes, "c++"))
                proc = subprocess.run(
                    [*tc.argv, f"-arch={NVCC_ARCH}", "--keep", "--keep-dir", keep,
                     "-diag-suppress", "177", *headers.include_flags(tmp), src, "-o", obj],
                    capture_output=True, text=True, cwd=tmp,
                )
                if proc.returncode != 0:
                    output = (proc.stderr + proc.stdout).replace(tmp + "/", "")
                    raise ProbeFailed(tc.display, error_excerpt(output))
                host = values_from_symbols(symbol_sizes(readelf(obj, tc.display)), len(probes),
                                           tc.display)
                ptx_files = glob.glob(os.path.join(keep, "*.ptx"))
                if not ptx_files:
                    raise ProbeFailed(tc.display, "nvcc --keep left no PTX file")
                with open(ptx_files[0]) as f:
                    device = ptx_table(f.read(), len(probes), tc.display)
            return [("host pass", host), ("device pass", device)]

        return with_assertion_fallback(tc, attempt)


class _Nvrtc:
    """The few NVRTC entry points needed, through ctypes."""

    def __init__(self, path: str) -> None:
        self.lib = ctypes.CDLL(path)
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def version(self) -> Tuple[int, int]:
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        return major.value, minor.value

    def compile(self, source: str, headers: HeaderSet, options: Sequence[str]) -> Tuple[bool, str, str]:
        """``(ok, log, ptx)``."""
        lib = self.lib
        prog = ctypes.c_void_p()
        names = [n.encode() for n, _ in headers.files]
        texts = [t.encode() for _, t in headers.files]
        n = len(names)
        header_texts = (ctypes.c_char_p * max(n, 1))(*texts)
        header_names = (ctypes.c_char_p * max(n, 1))(*names)
        rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"sarek_probe.cu", n,
                                    header_texts, header_names)
        if rc != 0:
            raise ProbeFailed("nvrtc", f"nvrtcCreateProgram: {lib.nvrtcGetErrorString(rc).decode()}")
        try:
            opts = [o.encode() for o in options]
            rc = lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value + 1)
            lib.nvrtcGetProgramLog(prog, buf)
            log = buf.value.decode(errors="replace")
            if rc != 0:
                return False, log, ""
            lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value + 1)
            lib.nvrtcGetPTX(prog, buf)
            return True, log, buf.value.decode(errors="replace")
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(prog))


class NvrtcDriver(Driver):
    """NVRTC on the device side only; compiles in memory, needs no GPU."""

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain
        path = nvrtc_library()
        if path is None:
            raise ProbeFailed(tc.display, tc.unavailable_reason or "libnvrtc not found")
        nvrtc = _Nvrtc(path)

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            source = ((NO_ASSERTS if disable_asserts else "") + headers.include_lines()
                      + device_table(probes, "nvrtc"))
            options = [f"--gpu-architecture={NVRTC_ARCH}",
                       *(f"--include-path={d}" for d in headers.search_dirs)]
            ok, log, ptx = nvrtc.compile(source, headers, options)
            if not ok:
                raise ProbeFailed(tc.display, error_excerpt(log))
            return [("", ptx_table(ptx, len(probes), tc.display))]

        return with_assertion_fallback(tc, attempt)
