"""HIP: Sarek's HIP backend reuses the CUDA emitter, so the generated ``.cuh`` is compiled by
Debian's ``hipcc`` (clang's HIP mode, for an AMD GPU architecture, offline: no GPU needed), the
``hip`` toolchain.

Two passes, like nvcc: the host pass (``--offload-host-only``) and the device pass for
``gfx90a`` (``--offload-device-only``), each compiling every probe as a ``__device__ char
sarek_probe_N[(expr) + 1]`` global and emitting LLVM IR, where each appears as ``[K x i8]``
(value K - 1). The headers' static assertions run in both passes.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from typing import List, Sequence, Tuple

from ..probes import Probe
from . import Driver, HeaderSet, Measurement, NO_ASSERTS, ProbeFailed, error_excerpt, expression
from . import with_assertion_fallback
from .gpu_probes import lay_out

__all__ = ["HipDriver", "HIP_ARCH"]

#: The device architecture of the device pass (any AMD one with the usual 8-byte alignments).
HIP_ARCH = "gfx90a"

_IR = re.compile(r"^@sarek_probe_(\d+)\s*=.*?\[(\d+) x i8\]", re.M)


class HipDriver(Driver):
    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            passes = []
            with tempfile.TemporaryDirectory(prefix="sarek-hip-") as tmp:
                flags = lay_out(headers, tmp)
                src = os.path.join(tmp, "sarek_probe.hip")
                with open(src, "w") as f:
                    f.write("#include <hip/hip_runtime.h>\n")
                    if disable_asserts:
                        f.write(NO_ASSERTS)
                    f.write(headers.include_lines())
                    f.writelines(f"__device__ char sarek_probe_{i}[({expression(p, 'c++')}) + 1];\n"
                                 for i, p in enumerate(probes))
                for name, flag in (("host", "--offload-host-only"), ("device", "--offload-device-only")):
                    out = os.path.join(tmp, f"sarek_probe_{name}.ll")
                    proc = subprocess.run(
                        [*tc.argv, f"--offload-arch={HIP_ARCH}", flag, "-S", "-emit-llvm",
                         *flags, src, "-o", out],
                        capture_output=True, text=True, cwd=tmp)
                    if proc.returncode != 0:
                        raise ProbeFailed(tc.display, error_excerpt(proc.stderr.replace(tmp + "/", "")))
                    with open(out) as f:
                        sizes = {int(n): int(k) for n, k in _IR.findall(f.read())}
                    missing = [i for i in range(len(probes)) if i not in sizes]
                    if missing:
                        raise ProbeFailed(tc.display, f"{name} pass: {len(missing)} probes missing "
                                                      f"from the LLVM IR")
                    passes.append((f"{name} pass", tuple(sizes[i] - 1 for i in range(len(probes)))))
            return passes

        return with_assertion_fallback(tc, attempt)
