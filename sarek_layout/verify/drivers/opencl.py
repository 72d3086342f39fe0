"""OpenCL C: clang's front end (spir64) and the real PoCL runtime through pyopencl.

clang: ``-x cl -cl-std=CL1.2 -target spir64`` has no object-file backend, so the probes are
``__constant char sarek_probe_N[(expr) + 1]`` read back from the emitted LLVM IR, where each
appears as ``[K x i8]`` (value = K - 1).

PoCL: one program holds every probe value in ``__constant uint`` tables (split in chunks so
no single table exceeds the constant-buffer size a device advertises) and one kernel that
copies them into a buffer; the program is built once and run once, and the buffer read back.
So the numbers are those of the device compiler PoCL really uses, checked by a kernel run.
"""

from __future__ import annotations

import re
import warnings
from typing import List, Sequence, Tuple

from ..headers import PLAIN_PATH, CompileFolder
from ..probes import Probe
from ..tools import run_tool
from . import Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt, expression
from . import tool_failure, with_assertion_fallback

__all__ = ["ClangOpenCLDriver", "PoclDriver", "pocl_source", "CHUNK"]

_PREAMBLE = (
    "#ifdef cl_khr_fp64\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n"
)

PREFIX = "sarek_probe_"
_IR_GLOBAL = re.compile(r"^@" + PREFIX + r"(\d+)\s*=.*?\[(\d+) x i8\]", re.M)

#: Values per ``__constant`` table (64 KiB of uint, the OpenCL minimum constant buffer size).
CHUNK = 16384


class ClangOpenCLDriver(Driver):
    """clang's OpenCL C front end; values from the LLVM IR."""

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(_disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with CompileFolder(headers, "sarek-verify-cl-") as folder:
                with open(folder.absolute("sarek_probe.cl"), "w") as f:
                    f.write(_PREAMBLE + headers.include_lines())
                    f.writelines(
                        f"__constant char {PREFIX}{i}[({expression(p, 'opencl')}) + 1] = {{0}};\n"
                        for i, p in enumerate(probes)
                    )
                run = run_tool([*tc.argv, "-S", "-emit-llvm", "-O0", *folder.include_flags(),
                                "sarek_probe.cl", "-o", "sarek_probe.ll"], cwd=folder.path)
                if not run.ok:
                    raise tool_failure(tc.display, folder, run)
                with open(folder.absolute("sarek_probe.ll")) as f:
                    ir = f.read()
            sizes = {int(n): int(k) for n, k in _IR_GLOBAL.findall(ir)}
            missing = [i for i in range(len(probes)) if i not in sizes]
            if missing:
                raise ProbeFailed(tc.display, f"{len(missing)} probes missing from the LLVM IR "
                                              f"(first: {PREFIX}{missing[0]})")
            return [("", tuple(sizes[i] - 1 for i in range(len(probes))))]

        # OpenCL C has no static_assert to switch off (headers use the typedef fallback).
        return with_assertion_fallback(tc, attempt, can_disable_asserts=False)


def pocl_source(headers: HeaderSet, probes: Sequence[Probe]) -> str:
    """The one program: headers, the probe tables, and the kernel that copies them out."""
    parts = [_PREAMBLE, headers.include_lines()]
    chunks = [probes[i:i + CHUNK] for i in range(0, len(probes), CHUNK)] or [[]]
    for c, chunk in enumerate(chunks):
        values = ",\n".join(expression(p, "opencl") for p in chunk) or "0"
        parts.append(f"__constant uint sarek_probe_t{c}[{max(len(chunk), 1)}] = {{\n{values}\n}};\n")
    parts.append("__kernel void sarek_probe_read(__global uint *out, uint n) {\n"
                 "  uint i = (uint)get_global_id(0);\n  if (i >= n) return;\n")
    for c in range(len(chunks)):
        test = "" if c == len(chunks) - 1 else f"if (i < {(c + 1) * CHUNK}u) "
        prefix = "  " if c == 0 else "  else "
        parts.append(f"{prefix}{test}out[i] = sarek_probe_t{c}[i - {c * CHUNK}u];\n")
    parts.append("}\n")
    return "".join(parts)


def pocl_device():
    """The first PoCL device (``None`` when PoCL is not installed)."""
    import pyopencl as cl  # type: ignore[import-not-found]

    for platform in cl.get_platforms():
        name = platform.name.lower()
        if "portable computing language" in name or "pocl" in name:
            devices = platform.get_devices()
            if devices:
                return devices[0]
    return None


class PoclDriver(Driver):
    """PoCL through pyopencl: one program build, one kernel run, one buffer read."""

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(_disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            import numpy as np
            import pyopencl as cl  # type: ignore[import-not-found]

            device = pocl_device()
            if device is None:
                raise ProbeFailed(tc.display, tc.unavailable_reason or "no PoCL device")
            ctx = cl.Context([device])
            queue = cl.CommandQueue(ctx)
            n = len(probes)
            with CompileFolder(headers, "sarek-verify-pocl-") as folder:
                # PoCL splits its build options at spaces and knows no quoting.
                if not PLAIN_PATH.match(folder.path):
                    raise ProbeFailed(tc.display, f"the temporary folder {folder.path} cannot be "
                                                  f"named in PoCL's build options (they are split "
                                                  f"at spaces); set TMPDIR to a plainer folder")
                options = ["-cl-std=CL1.2",
                           *(f"-I{folder.absolute(d)}" for d in folder.include_dirs)]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # pyopencl's "non-empty compiler output"
                    try:
                        program = cl.Program(ctx, pocl_source(headers, probes)).build(
                            options=options)
                    except cl.Error as e:
                        raise ProbeFailed(tc.display,
                                          error_excerpt(folder.readable(str(e)))) from None
            out = np.zeros(max(n, 1), dtype=np.uint32)
            buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
            program.sarek_probe_read(queue, (max(n, 1),), None, buf, np.uint32(n))
            cl.enqueue_copy(queue, out, buf)
            queue.finish()
            return [("", tuple(int(v) for v in out[:n]))]

        return with_assertion_fallback(tc, attempt, can_disable_asserts=False)
