"""WGSL through the ``wgpu`` Python package (wgpu-native, naga inside): the ``naga`` toolchain
validates every generated ``.wgsl``, and the ``webgpu`` toolchain runs the runtime probe
shader (``gpu_probes``) on the adapter wgpu finds (Mesa's lavapipe on a CPU-only machine).

naga validates but reports no offsets: the ``naga`` result is "agrees (0 values)" when the
files validate, and the numbers come from ``webgpu``, which reads the generated structs and
accessors in a compute shader. WGSL has no ``#include``: the files are concatenated in the
order ``generate`` lists them (a module's dependencies first).
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import List, Optional, Sequence, Union

from ..probes import Probe
from . import Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt

__all__ = ["webgpu_problem", "device", "validate_wgsl", "run_wgsl", "uniform_globals", "NagaDriver",
           "WebGPUDriver"]

INSTALL = "pip install wgpu (and apt-get install -y mesa-vulkan-drivers for a CPU adapter)"


def _runtime_dir() -> None:
    if not os.environ.get("XDG_RUNTIME_DIR"):  # wgpu-native warns on every start without it
        path = os.path.join(tempfile.gettempdir(), f"sarek-xdg-{os.getuid()}")
        os.makedirs(path, mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = path


_DEVICE = None


def device():
    """One wgpu device per process (adapters are slow to request)."""
    global _DEVICE
    if _DEVICE is None:
        _runtime_dir()
        import wgpu  # type: ignore[import-not-found]

        adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
        if adapter is None:
            raise RuntimeError(f"wgpu found no adapter; {INSTALL}")
        _DEVICE = adapter.request_device_sync()
    return _DEVICE


def webgpu_problem(need_adapter: bool) -> Optional[str]:
    import importlib.util

    try:
        if importlib.util.find_spec("wgpu") is None:
            return f"Python module wgpu not found; {INSTALL}"
    except (ImportError, ValueError):
        return f"Python module wgpu not found; {INSTALL}"
    try:
        device()
    except Exception as e:  # wgpu raises plain RuntimeErrors when no backend works
        return f"wgpu cannot open a device ({str(e).splitlines()[0] if str(e) else e}); {INSTALL}"
    return None


def validate_wgsl(source: str):
    """naga's validation of ``source``: the shader module, or ``ProbeFailed`` with naga's words."""
    try:
        return device().create_shader_module(code=source)
    except Exception as e:  # GPUValidationError carries naga's diagnostic
        raise ProbeFailed("naga", error_excerpt(str(e), limit=25)) from None


Buffer = Union[bytes, int]


def run_wgsl(source: str, buffers: Sequence[Buffer], groups: int = 1) -> List[bytes]:
    """Run the compute entry point ``main`` of ``source``; ``buffers[i]`` is binding ``i`` of
    group 0, ``var<storage>`` or ``var<uniform>`` as the shader declares it (initial bytes,
    or a size). Returns every buffer's bytes afterwards."""
    import wgpu  # type: ignore[import-not-found]

    dev = device()
    module = validate_wgsl(source)
    usage = (wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_SRC
             | wgpu.BufferUsage.COPY_DST)
    gpu_buffers = []
    for b in buffers:
        size = b if isinstance(b, int) else len(b)
        size = max((size + 3) // 4 * 4, 4)
        buf = dev.create_buffer(size=size, usage=usage)
        if not isinstance(b, int) and b:
            dev.queue.write_buffer(buf, 0, bytes(b) + bytes(size - len(b)))
        gpu_buffers.append(buf)
    pipeline = dev.create_compute_pipeline(layout="auto", compute={"module": module,
                                                                    "entry_point": "main"})
    group = dev.create_bind_group(
        layout=pipeline.get_bind_group_layout(0),
        entries=[{"binding": i, "resource": {"buffer": b}} for i, b in enumerate(gpu_buffers)])
    encoder = dev.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, group)
    compute.dispatch_workgroups(max(groups, 1))
    compute.end()
    dev.queue.submit([encoder.finish()])
    out = []
    for b, buf in zip(buffers, gpu_buffers):
        want = b if isinstance(b, int) else len(b)
        out.append(bytes(dev.queue.read_buffer(buf))[:want])
    return out


class NagaDriver(Driver):
    """naga validates every file (concatenated with its dependencies); no numbers."""

    estimate_s = 0.5  # wgpu's device is opened in this job (Toolchain.device)

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        start = time.perf_counter()
        validate_wgsl("\n".join(text for _, text in headers.files) + uniform_globals(probes))
        return Measurement((), time.perf_counter() - start)


def uniform_globals(probes: Sequence[Probe]) -> str:
    """A ``var<uniform>`` of each type of WGSL's uniform rules among ``probes``: naga checks
    the uniform address space's constraints (array strides and struct members at multiples
    of 16, the room after a struct) on the type of every such global, used or not."""
    from ...codegen.shader_kinds import block_of
    from ...targets.dialects import WGSL
    from ...targets.naming import escape

    names = dict.fromkeys(escape(p.c_type, WGSL) for p in probes
                          if not p.enum and block_of(WGSL, p.rules) == "uniform")
    return "".join(f"@group(0) @binding({i}) var<uniform> sarek_uniform{i}: {n};\n"
                   for i, n in enumerate(names))


class WebGPUDriver(Driver):
    """The generated WGSL read by compute shaders through wgpu (one build and run per
    ``gpu_probes.PROBES_PER_SHADER`` probes)."""

    estimate_s = 0.25

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        from .gpu_probes import WGSL_PROBE, measure_in_batches

        def run(program) -> bytes:
            return run_wgsl(program.source, program.buffers())[1]

        start = time.perf_counter()
        values, shaders = measure_in_batches(WGSL_PROBE, headers, probes, run)
        return Measurement((("", values),), time.perf_counter() - start, builds=shaders)
