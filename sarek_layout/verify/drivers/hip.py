"""HIP: Sarek's HIP backend reuses the CUDA emitter, so the generated ``.cuh`` is compiled by
Debian's ``hipcc`` (clang's HIP mode, for an AMD GPU architecture, offline: no GPU needed), the
``hip`` toolchain.

Two passes, like nvcc: the host pass (``--offload-host-only``) and the device pass for
``gfx90a`` (``--offload-device-only``), each compiling every probe as a ``__device__ char
sarek_probe_N[(expr) + 1]`` global and emitting LLVM IR, where each appears as ``[K x i8]``
(value K - 1). The headers' static assertions run in both passes.
"""

from __future__ import annotations

import re
from typing import List, Sequence, Tuple

from ..headers import CompileFolder
from ..probes import Probe
from ..tools import run_tool
from . import Driver, HeaderSet, Measurement, NO_ASSERTS, ProbeFailed, expression, tool_failure
from . import with_assertion_fallback

__all__ = ["HipDriver", "HIP_ARCH"]

#: The device architecture of the device pass (any AMD one with the usual 8-byte alignments).
HIP_ARCH = "gfx90a"

_IR = re.compile(r"^@sarek_probe_(\d+)\s*=.*?\[(\d+) x i8\]", re.M)


class HipDriver(Driver):
    """``hipcc`` to LLVM IR, host then device pass, in a ``CompileFolder`` (no header path
    reaches the command line) through ``run_tool`` (bounded time and memory)."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 0.9

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            passes = []
            with CompileFolder(headers, "sarek-verify-hip-") as folder:
                with open(folder.absolute("sarek_probe.hip"), "w") as f:
                    f.write("#include <hip/hip_runtime.h>\n")
                    if disable_asserts:
                        f.write(NO_ASSERTS)
                    f.write(headers.include_lines())
                    f.writelines(f"__device__ char sarek_probe_{i}[({expression(p, 'c++')}) + 1];\n"
                                 for i, p in enumerate(probes))
                for name, flag in (("host", "--offload-host-only"), ("device", "--offload-device-only")):
                    out = f"sarek_probe_{name}.ll"
                    run = run_tool([*tc.argv, f"--offload-arch={HIP_ARCH}", flag, "-S", "-emit-llvm",
                                    *folder.include_flags(), "sarek_probe.hip", "-o", out],
                                   cwd=folder.path)
                    if not run.ok:
                        raise tool_failure(tc.display, folder, run)
                    with open(folder.absolute(out)) as f:
                        sizes = {int(n): int(k) for n, k in _IR.findall(f.read())}
                    missing = [i for i in range(len(probes)) if i not in sizes]
                    if missing:
                        raise ProbeFailed(tc.display, f"{name} pass: {len(missing)} probes missing "
                                                      f"from the LLVM IR")
                    passes.append((f"{name} pass", tuple(sizes[i] - 1 for i in range(len(probes)))))
            return passes

        return with_assertion_fallback(tc, attempt)
