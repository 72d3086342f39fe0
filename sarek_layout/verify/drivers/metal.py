"""Metal, by proxy: the generated ``<stem>_metal.h`` compiled as C++14 by clang for an arm64
Apple target (the ``metal-proxy`` toolchain).

No Metal compiler exists on Linux. The Metal Shading Language is a C++14 dialect, and Apple's
compiler is clang, so the nearest check available is clang++ ``-std=c++14
--target=arm64-apple-macos11`` with ``__METAL_VERSION__`` defined and a stand-in
``<metal_stdlib>`` (``METAL_SHIM``) that declares the MSL built-in types the header uses
(``uint``, ``uint2`` as a two-lane clang vector: 8 bytes, 8-aligned, like MSL's; ``uchar``,
``ushort``, ``ulong`` (8 bytes on arm64, as in MSL);
``half`` as clang's 2-byte, 2-aligned ``__fp16``, which MSL's ``half`` is; both from
``shaders.metal_stdlib``, the Metal language's stand-ins). This is a
proxy: it proves the header's layout under clang's arm64 Apple ABI and that its static
assertions hold there, not that Apple's Metal compiler accepts it.

Probes are ``char sarek_probe_N[(expr) + 1]`` globals read back from the LLVM IR (``[K x i8]``,
value K - 1), one clang invocation for all of them.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from typing import List, Sequence, Tuple

from ..probes import Probe
from ..tools import run_tool
from . import (Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt, expression,
               with_assertion_fallback)
from ..shaders.metal_stdlib import METAL_PROXY_ARGS, METAL_SHIM
from .gpu_probes import lay_out

__all__ = ["METAL_SHIM", "METAL_PROXY_ARGS", "MetalProxyDriver", "metal_expression"]

_IR = re.compile(r"^@sarek_probe_(\d+)\s*=.*?\[(\d+) x i8\]", re.M)


def metal_expression(p: Probe) -> str:
    """``p`` in the Metal probe dialect (``targets.registry.PROBE_DIALECTS``), its names
    escaped as the Metal header emits them."""
    from ...targets.dialects import METAL
    from ...targets.naming import escape

    t = escape(p.c_type, METAL)
    m = ".".join(escape(part, METAL) for part in p.member.split(".")) if p.member else ""
    return expression(dataclasses.replace(p, c_type=t, member=m), "metal")


class MetalProxyDriver(Driver):
    subprocess_only = True  # run_tool only (Driver.subprocess_only)
    estimate_s = 0.03

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with tempfile.TemporaryDirectory(prefix="sarek-metal-") as tmp:
                flags = lay_out(headers, tmp)
                shim = os.path.join(tmp, "sarek_metal_shim")
                os.makedirs(shim)
                with open(os.path.join(shim, "metal_stdlib"), "w") as f:
                    f.write(METAL_SHIM)
                src = os.path.join(tmp, "sarek_probe.cpp")
                out = os.path.join(tmp, "sarek_probe.ll")
                with open(src, "w") as f:
                    if disable_asserts:
                        f.write("#define static_assert(...)\n")
                    f.write(headers.include_lines())
                    f.writelines(f"char sarek_probe_{i}[({metal_expression(p)}) + 1];\n"
                                 for i, p in enumerate(probes))
                # run_tool: the compilers' time and memory bounds, killed when interrupted.
                run = run_tool([*METAL_PROXY_ARGS, "-S", "-emit-llvm", "-O0", "-I", shim,
                                *flags, src, "-o", out], cwd=tmp)
                if not run.ok:
                    text = "\n".join(p for p in (run.problem, run.stderr) if p)
                    raise ProbeFailed(tc.display, error_excerpt(text.replace(tmp + "/", "")))
                with open(out) as f:
                    sizes = {int(n): int(k) for n, k in _IR.findall(f.read())}
            missing = [i for i in range(len(probes)) if i not in sizes]
            if missing:
                raise ProbeFailed(tc.display, f"{len(missing)} probes missing from the LLVM IR")
            return [("", tuple(sizes[i] - 1 for i in range(len(probes))))]

        return with_assertion_fallback(tc, attempt)
