"""OpenCL C: clang's front end (spir64) and the real PoCL runtime through pyopencl.

clang: ``-x cl -cl-std=CL1.2 -target spir64`` has no object-file backend, so the probes are
``__constant char sarek_probe_N[(expr) + 1]`` read back from the emitted LLVM IR, where each
appears as ``[K x i8]`` (value = K - 1).

PoCL: one program holds every probe value in ``__constant unsigned int`` tables (split in
chunks so no single table exceeds the constant-buffer size a device advertises) and one kernel
that copies them into a buffer; the program is built once and run once (one work item), and
the buffer read back. So the numbers are those of the device compiler PoCL really uses,
checked by a kernel run. That run is the one place where ``verify`` executes code, so:

* it happens in a child process (``tools.run_child``): PoCL aborts the process on some
  programs (a function marked ``constructor``), and a header that includes a FIFO would
  hang the build;
* the kernel is ours: the source fails to compile if the header defines a macro named like
  any word of the kernel, and the kernel calls no function (no ``get_global_id``, which a
  header could define) and stores through a ``volatile`` pointer (so the copy loop is not
  turned into a call to a ``memcpy`` the header could define).
"""

from __future__ import annotations

import os
import re
from typing import List, Sequence, Tuple

from ..headers import PLAIN_PATH, CompileFolder
from ..probes import Probe
from ..tools import run_child, run_tool
from . import Driver, HeaderSet, Measurement, ProbeFailed, child_failure, expression, saturated
from . import tool_failure, with_assertion_fallback

__all__ = ["ClangOpenCLDriver", "PoclDriver", "pocl_source", "CHUNK", "POCL_CACHE_ENV"]

_PREAMBLE = (
    "#ifdef cl_khr_fp64\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n"
)

PREFIX = "sarek_probe_"
_IR_GLOBAL = re.compile(r"^@" + PREFIX + r"(\d+)\s*=.*?\[(\d+) x i8\]", re.M)

#: Values per ``__constant`` table (64 KiB of uint, the OpenCL minimum constant buffer size).
CHUNK = 16384

#: PoCL caches built kernels here; unset, verify gives it a folder that is removed after.
POCL_CACHE_ENV = "POCL_CACHE_DIR"


class ClangOpenCLDriver(Driver):
    """clang's OpenCL C front end; values from the LLVM IR."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 0.03

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


#: Every word of the probe kernel but the table names: a header macro named like one of them
#: would rewrite the kernel PoCL runs.
_KERNEL_WORDS = ("__kernel", "void", "sarek_probe_read", "__global", "volatile", "unsigned",
                 "int", "sarek_out", "for", "sarek_i", "__constant")


def _kernel_guards(tables: int) -> str:
    words = list(_KERNEL_WORDS) + [f"sarek_probe_t{c}" for c in range(tables)]
    return "".join(f"#ifdef {w}\n#error \"sarek-layout: the header defines a macro named {w}, "
                   f"which would rewrite verify's probe kernel\"\n#endif\n" for w in words)


def pocl_source(headers: HeaderSet, probes: Sequence[Probe]) -> str:
    """The one program: headers, the guards, the probe tables, the kernel that copies them."""
    chunks = [probes[i:i + CHUNK] for i in range(0, len(probes), CHUNK)] or [[]]
    parts = [_PREAMBLE, headers.include_lines(), _kernel_guards(len(chunks))]
    for c, chunk in enumerate(chunks):
        values = ",\n".join(saturated(expression(p, "opencl")) for p in chunk) or "0"
        parts.append(f"__constant unsigned int sarek_probe_t{c}[{max(len(chunk), 1)}] = "
                     f"{{\n{values}\n}};\n")
    parts.append("__kernel void sarek_probe_read(__global volatile unsigned int *sarek_out) {\n")
    for c, chunk in enumerate(chunks):
        parts.append(f"  for (unsigned int sarek_i = 0u; sarek_i < {len(chunk)}u; ++sarek_i)\n"
                     f"    sarek_out[{c * CHUNK}u + sarek_i] = sarek_probe_t{c}[sarek_i];\n")
    parts.append("}\n")
    return "".join(parts)


class PoclDriver(Driver):
    """PoCL through pyopencl, in a child process: one build, one kernel run, one read."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 1.0

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(_disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with CompileFolder(headers, "sarek-verify-pocl-") as folder:
                # PoCL splits its build options at spaces and knows no quoting.
                if not PLAIN_PATH.match(folder.path):
                    raise ProbeFailed(tc.display, f"the temporary folder {folder.path} cannot be "
                                                  f"named in PoCL's build options (they are split "
                                                  f"at spaces); set TMPDIR to a plainer folder")
                env = dict(os.environ)
                env.setdefault(POCL_CACHE_ENV, folder.absolute("pocl-cache"))
                options = ["-cl-std=CL1.2",
                           *(f"-I{folder.absolute(d)}" for d in folder.include_dirs)]
                child = run_child("pocl", {"source": pocl_source(headers, probes),
                                           "options": options, "count": len(probes)},
                                  cwd=folder.path, env=env)
                if not child.ok:
                    raise child_failure(tc.display, folder, child)
            return [("", tuple(child.answer["values"]))]

        return with_assertion_fallback(tc, attempt, can_disable_asserts=False)
