#!/usr/bin/env python3
"""End-to-end example: Python fills buffers with the generated module only, an OpenCL kernel
(PoCL, through pyopencl) and a CUDA kernel transform them, C and Rust host programs check them.

    python examples/e2e/run_e2e.py [--out DIR] [-n N] [--steps pocl,c,cuda] [--require ...]

1. ``sarek-layout generate`` writes telemetry.h / .clh / .cuh and telemetry_layout.py to DIR,
   and frames.h / .clh / .cuh and frames_layout.py (frames.toml: SPEC §1b's member kinds, a
   vec4, a float[5] and an enum, under the std430 rules);
2. Python builds N samples (a record) and N readings (a variant), with telemetry_layout only
   (data.py), and writes their bytes to DIR/inputs.bin; and N frames, with frames_layout, to
   DIR/frames.bin;
3. ``pocl``: kernels.cl (including telemetry.clh and frames.clh) runs on PoCL; Python decodes
   the results and checks every field, and that the bytes equal its own encoding of the
   expected values (the frames too);
4. ``c``: host_check.c (including telemetry.h and frames.h) reads inputs.bin and frames.bin,
   and the PoCL outputs when there are some, and checks every member and byte against values
   it builds in C;
5. ``cuda``: kernels.cu (including telemetry.cuh and frames.cuh, where a frame's colour is
   CUDA's own float4) is compiled with nvcc, and run and checked like PoCL's where a CUDA
   device exists;
6. ``vulkan``: kernels.comp (including telemetry.glsl) is compiled to SPIR-V by glslangValidator
   and run on a Vulkan device (Mesa's lavapipe on a CPU) through the ``vulkan`` package;
7. ``webgpu``: kernels.wgsl (after telemetry.wgsl) runs through ``wgpu`` (lavapipe too); WGSL
   has no float64, so those values are copied, not computed (data.py's ``*_wgsl``).
   Both are checked like PoCL's: every field decoded, and the bytes equal Python's encoding;
   each transforms the frames too (kernels_frames.comp over frames.glsl, kernels_frames.wgsl
   after frames.wgsl), checked as PoCL's frames and by the C host; and each reads a uniform
   buffer (uniforms.py: a std140 block on Vulkan, a wgsl-uniform
   ``var<uniform>`` on wgpu) that Python and the C host wrote alike;
8. ``metal``: kernels.metal (including telemetry_metal.h) is compiled by clang++ as a proxy
   for Metal (C++14 for arm64 Apple, MSL keywords defined away): no Metal compiler or device
   exists on Linux, so it is compiled, not run;
9. ``zig``: host.zig (importing telemetry.zig) fills the same N samples and N readings in Zig
   (zig from the ziglang package, built as a shared library and called through ctypes); its
   bytes must equal Python's, and host_check.c checks them against the values it builds in C.
10. ``rust``: host_check.rs (including telemetry.rs) builds the same samples and readings in
    Rust with the generated constructors, checks that their ``to_bytes`` are exactly the bytes
    Python wrote (which the C host checks too), and that ``from_bytes`` reads each back.
11. ``typescript``: host.ts (importing telemetry.ts and frames.ts, compiled by tsc --strict)
    reads Python's bytes in Node (the frames too), checks every value against its own, and
    writes them again byte for byte;
    the WGSL kernel reads what Node wrote, and where npm ``webgpu`` is installed the
    TypeScript host runs that kernel itself (e2e_typescript.py).

Every kernel is handed the layout fingerprints the host's data was written under (the
generated module's ``LAYOUT_ID_Telemetry_sample`` and ``_reading``) and checks them with the
generated ``<T>_LAYOUT_OK`` before reading anything: a kernel built from another version of
the schema refuses the data. ``--layout-id HEX`` makes the host send that fingerprint
instead, as a host built from another schema would: the PoCL, Vulkan and WebGPU steps then
fail with the kernel's refusal, naming both fingerprints (and so does the CUDA step where a
CUDA device runs it).

A step whose toolchain is missing is skipped with the reason, unless ``--require`` names it.
Exit status: 0 when every step that ran passed (and every required one ran), else 1.
"""

from __future__ import annotations

import argparse
import os
import struct
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCHEMA = HERE / "telemetry.toml"
#: SPEC §1b's member kinds (a vec4, a float[5], an enum): the C family's steps carry them.
FRAMES = HERE / "frames.toml"
STEPS = ("pocl", "c", "cuda", "vulkan", "webgpu", "metal", "zig", "rust", "typescript")


class Skip(Exception):
    """A step cannot run here (its toolchain is missing); the message says which."""


sys.path.insert(0, str(HERE))
from uniforms import Failed  # noqa: E402  (one class: the uniform buffers' steps raise it too)
import uniforms  # noqa: E402


# --- generation and the inputs ----------------------------------------------------------


def _generate(out: Path, schema: Path, targets: List[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    # Works from a source checkout as well as with sarek-layout installed.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(REPO)]))
    cmd = [sys.executable, "-m", "sarek_layout", "generate", str(schema), "-o", str(out)]
    for t in targets:
        cmd += ["-t", t]
    return subprocess.run(cmd, env=env, capture_output=True, text=True)


def generate(out: Path) -> None:
    proc = _generate(out, SCHEMA, ["c", "opencl", "cuda", "python", "glsl", "wgsl", "metal",
                                   "zig", "rust"])
    if proc.returncode != 0:
        raise SystemExit(f"generate failed:\n{proc.stderr}")
    proc = _generate(out, FRAMES, ["c", "opencl", "cuda", "python", "glsl", "wgsl"])
    if proc.returncode != 0:
        raise SystemExit(f"generate failed:\n{proc.stderr}")
    uniforms.generate(out)


def load_modules(out: Path):
    """Import the generated telemetry_layout and data.py (which uses only that module)."""
    for path in (str(out), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    import data  # noqa: E402  (found through sys.path above)
    import telemetry_layout  # noqa: E402

    return telemetry_layout, data


def write_inputs(out: Path, n: int) -> bytes:
    T, data = load_modules(out)
    inputs = T.pack_Telemetry_sample(data.samples(n)) + T.pack_Telemetry_reading(data.readings(n))
    (out / "inputs.bin").write_bytes(inputs)
    F = data.frames_module()
    (out / "frames.bin").write_bytes(F.pack_Frames_frame(data.frames(n)))
    return inputs


def frames_input(out: Path) -> bytes:
    """The frames Python wrote."""
    return (out / "frames.bin").read_bytes()


def check_frames(label: str, out: Path, result: bytes, n: int) -> str:
    """A device's frames decoded with frames_layout and compared with data.py, and byte for
    byte with Python's own encoding of the expected frames."""
    _, data = load_modules(out)
    F = data.frames_module()
    want = [data.transform_frame(f) for f in data.frames(n)]
    got = F.unpack_Frames_frame(result)
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            raise Failed(f"{label}: frame {i} is {g}, expected {w}")
    if len(got) != len(want):
        raise Failed(f"{label}: {len(got)} frames, expected {len(want)}")
    if result != F.pack_Frames_frame(want):
        at = next(i for i, (a, b) in enumerate(zip(result, F.pack_Frames_frame(want))) if a != b)
        raise Failed(f"{label}: frames match but byte {at} differs (padding written by the device?)")
    return f"{n} frames (a vec4, a float[5] and an enum) as expected"


def frame_layout_id(out: Path) -> int:
    _, data = load_modules(out)
    return SENT_LAYOUT_ID if SENT_LAYOUT_ID is not None else data.frames_module().LAYOUT_ID_Frames_frame


def check_outputs(label: str, out: Path, result: bytes, n: int, wgsl: bool = False) -> str:
    """Decode a device's results with the generated module and compare with data.py."""
    T, data = load_modules(out)
    split = n * T.SIZEOF_Telemetry_sample
    ts, tr = ((data.transform_sample_wgsl, data.transform_reading_wgsl) if wgsl
              else (data.transform_sample, data.transform_reading))
    want_samples = [ts(s) for s in data.samples(n)]
    want_readings = [tr(r) for r in data.readings(n)]
    got_samples = T.unpack_Telemetry_sample(result[:split])
    got_readings = T.unpack_Telemetry_reading(result[split:])
    for what, got, want in (("sample", got_samples, want_samples), ("reading", got_readings, want_readings)):
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w:
                raise Failed(f"{label}: {what} {i} is {g}, expected {w}")
        if len(got) != len(want):
            raise Failed(f"{label}: {len(got)} {what}s, expected {len(want)}")
    expected_bytes = T.pack_Telemetry_sample(want_samples) + T.pack_Telemetry_reading(want_readings)
    if result != expected_bytes:
        at = next(i for i, (a, b) in enumerate(zip(result, expected_bytes)) if a != b)
        raise Failed(f"{label}: fields match but byte {at} differs (padding written by the device?)")
    return f"{n} samples and {n} readings: every field as expected, bytes identical to Python's"


# --- the layout fingerprints the host sends ------------------------------------------------

#: ``--layout-id``: what the host sends instead of its own fingerprints (``None``: its own).
SENT_LAYOUT_ID: Optional[int] = None


def host_layout_ids(out: Path) -> Tuple[int, int]:
    """The fingerprints of the data the host wrote: (sample, reading)."""
    T, _ = load_modules(out)
    if SENT_LAYOUT_ID is not None:
        return SENT_LAYOUT_ID, SENT_LAYOUT_ID
    return T.LAYOUT_ID_Telemetry_sample, T.LAYOUT_ID_Telemetry_reading


def refusal(label: str, what: str, kernel_id: int, host_id: int) -> Failed:
    return Failed(f"{label}: the kernel refused the data: it was built for {what} layout "
                  f"0x{kernel_id:016x}, the host sent 0x{host_id:016x}")


#: Binding 4 of the Vulkan and WebGPU kernels (struct LayoutCheck): the host's two
#: fingerprints, the kernel's two (written when it refuses), the refusal flag; 32-bit words,
#: each fingerprint low word first (little-endian devices, as lavapipe and every GPU here).
_CHECK = struct.Struct("<QQQQI4x")


def layout_check_buffer(out: Path) -> bytes:
    sample_id, reading_id = host_layout_ids(out)
    return _CHECK.pack(sample_id, reading_id, 0, 0, 0)


def check_refusal(label: str, out: Path, check: bytes) -> None:
    sent_sample, sent_reading = host_layout_ids(out)
    _, _, kernel_sample, kernel_reading, refused = _CHECK.unpack(check)
    if refused:
        if kernel_sample != sent_sample:
            raise refusal(label, "Telemetry.sample", kernel_sample, sent_sample)
        raise refusal(label, "Telemetry.reading", kernel_reading, sent_reading)


# --- steps ------------------------------------------------------------------------------


def step_pocl(out: Path, n: int, inputs: bytes) -> str:
    try:
        import numpy as np
        import pyopencl as cl
    except ImportError as e:
        raise Skip(f"pyopencl not importable ({e}); pip install pyopencl") from None
    try:
        platforms = [p for p in cl.get_platforms()
                     if "portable computing language" in p.name.lower() or "pocl" in p.name.lower()]
    except cl.Error as e:
        platforms = []
        reason = str(e)
    else:
        reason = "no PoCL platform"
    if not platforms:
        raise Skip(f"{reason}; apt-get install pocl-opencl-icd")
    device = platforms[0].get_devices()[0]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, (HERE / "kernels.cl").read_text()).build(
        options=[f"-I{out}", f"-I{HERE}"])
    T, _ = load_modules(out)
    split = n * T.SIZEOF_Telemetry_sample
    mf = cl.mem_flags
    results = []
    sample_id, reading_id = host_layout_ids(out)
    for kernel, chunk, what, sent in (
            (program.transform_samples, inputs[:split], "Telemetry.sample", sample_id),
            (program.transform_readings, inputs[split:], "Telemetry.reading", reading_id)):
        src = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=chunk)
        dst = cl.Buffer(ctx, mf.WRITE_ONLY, len(chunk))
        refused = np.zeros(1, np.uint64)
        refused_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=refused)
        kernel(queue, (n,), None, src, dst, np.int32(n), np.uint64(sent), refused_buf)
        host = np.empty(len(chunk), np.uint8)
        cl.enqueue_copy(queue, host, dst)
        cl.enqueue_copy(queue, refused, refused_buf)
        queue.finish()
        if refused[0]:
            raise refusal("pocl", what, int(refused[0]), sent)
        results.append(host.tobytes())
    result = b"".join(results)
    (out / "outputs_pocl.bin").write_bytes(result)
    message = f"on {device.name.strip()}: " + check_outputs("pocl", out, result, n)
    frames = frames_input(out)
    src = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=frames)
    dst = cl.Buffer(ctx, mf.WRITE_ONLY, len(frames))
    refused = np.zeros(1, np.uint64)
    refused_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=refused)
    sent = frame_layout_id(out)
    program.transform_frames(queue, (n,), None, src, dst, np.int32(n), np.uint64(sent),
                             refused_buf)
    host = np.empty(len(frames), np.uint8)
    cl.enqueue_copy(queue, host, dst)
    cl.enqueue_copy(queue, refused, refused_buf)
    queue.finish()
    if refused[0]:
        raise refusal("pocl", "Frames.frame", int(refused[0]), sent)
    (out / "outputs_frames_pocl.bin").write_bytes(host.tobytes())
    return f"{message}; " + check_frames("pocl", out, host.tobytes(), n)


def _compile(argv: List[str], what: str) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failed(f"{what} failed to compile:\n{' '.join(argv)}\n{proc.stderr}")


def step_c(out: Path, n: int, inputs: bytes) -> str:
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        raise Skip(f"{cc} not found; apt-get install gcc")
    exe = out / "host_check"
    _compile([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{out}", f"-I{HERE}",
              str(HERE / "host_check.c"), "-o", str(exe)], "host_check.c")
    argv = [str(exe), str(n), str(out / "inputs.bin")]
    if (out / "outputs_pocl.bin").exists():
        argv.append(str(out / "outputs_pocl.bin"))
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failed(proc.stderr.strip() or f"host_check exited {proc.returncode}")
    message = proc.stdout.strip()
    outputs = [str(p) for p in sorted(out.glob("outputs_frames_*.bin"))]
    proc = subprocess.run([str(exe), "--frames", str(n), str(out / "frames.bin"), *outputs],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failed(proc.stderr.strip() or f"host_check --frames exited {proc.returncode}")
    return f"{message}; {proc.stdout.strip()}"


def step_cuda(out: Path, n: int, inputs: bytes) -> str:
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise Skip("nvcc not found; install the CUDA toolkit")
    exe = out / "kernels_cuda"
    _compile([nvcc, f"-I{out}", f"-I{HERE}", str(HERE / "kernels.cu"), "-o", str(exe)], "kernels.cu")
    result_path = out / "outputs_cuda.bin"
    sample_id, reading_id = host_layout_ids(out)
    argv = [str(exe), str(n), str(out / "inputs.bin"), str(result_path), f"{sample_id:x}",
            f"{reading_id:x}"]
    argv += [str(out / "frames.bin"), str(out / "outputs_frames_cuda.bin"),
             f"{frame_layout_id(out):x}"]
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode == 3:
        return ("kernels.cu (with the frames' float4) compiled with nvcc (host and device "
                "passes); not run: no CUDA device")
    if proc.returncode != 0:
        raise Failed(proc.stderr.strip() or f"kernels_cuda exited {proc.returncode}")
    message = "ran on the GPU: " + check_outputs("cuda", out, result_path.read_bytes(), n)
    return f"{message}; " + check_frames("cuda", out, (out / "outputs_frames_cuda.bin")
                                         .read_bytes(), n)


def _gpu_buffers(out: Path, n: int, inputs: bytes) -> List[object]:
    """Bindings 0-4 of both GPU kernels: samples in, samples out, readings in, readings out,
    and the layout check (the host's fingerprints)."""
    T, _ = load_modules(out)
    split = n * T.SIZEOF_Telemetry_sample
    return [inputs[:split], split, inputs[split:], len(inputs) - split, layout_check_buffer(out)]


def step_vulkan(out: Path, n: int, inputs: bytes) -> str:
    glslang = shutil.which("glslangValidator")
    if glslang is None:
        raise Skip("glslangValidator not found; apt-get install glslang-tools")
    try:
        from sarek_layout.verify.drivers.vulkan import device_name, run_spirv, vulkan_problem
    except ImportError as e:
        raise Skip(f"sarek_layout not importable ({e})") from None
    problem = vulkan_problem()
    if problem is not None:
        raise Skip(problem)
    spv = out / "kernels.spv"
    _compile([glslang, "-V", "--target-env", "vulkan1.1", f"-I{out}", str(HERE / "kernels.comp"),
              "-o", str(spv)], "kernels.comp")
    results = run_spirv(spv.read_bytes(), _gpu_buffers(out, n, inputs), groups=(n + 63) // 64)
    check_refusal("vulkan", out, results[4])
    result = results[1] + results[3]
    (out / "outputs_vulkan.bin").write_bytes(result)
    frames_spv = out / "kernels_frames.spv"
    _compile([glslang, "-V", "--target-env", "vulkan1.1", f"-I{out}",
              str(HERE / "kernels_frames.comp"), "-o", str(frames_spv)], "kernels_frames.comp")
    frames = frames_input(out)
    frames_out = run_spirv(frames_spv.read_bytes(), [frames, len(frames)],
                           groups=(n + 63) // 64)[1]
    (out / "outputs_frames_vulkan.bin").write_bytes(frames_out)
    return (f"on {device_name()}: " + check_outputs("vulkan", out, result, n) + "; "
            + check_frames("vulkan", out, frames_out, n) + "; "
            + uniforms.vulkan(out, glslang, run_spirv))


def step_webgpu(out: Path, n: int, inputs: bytes) -> str:
    try:
        from sarek_layout.verify.drivers.wgsl import device, run_wgsl, webgpu_problem
    except ImportError as e:
        raise Skip(f"sarek_layout not importable ({e})") from None
    problem = webgpu_problem(need_adapter=True)
    if problem is not None:
        raise Skip(problem)
    source = (out / "telemetry.wgsl").read_text() + "\n" + (HERE / "kernels.wgsl").read_text()
    results = run_wgsl(source, _gpu_buffers(out, n, inputs), groups=(n + 63) // 64)
    check_refusal("webgpu", out, results[4])
    result = results[1] + results[3]
    (out / "outputs_webgpu.bin").write_bytes(result)
    frames = frames_input(out)
    frames_source = (out / "frames.wgsl").read_text() + "\n" + (HERE / "kernels_frames.wgsl").read_text()
    frames_out = run_wgsl(frames_source, [frames, len(frames)], groups=(n + 63) // 64)[1]
    (out / "outputs_frames_webgpu.bin").write_bytes(frames_out)
    info = device().adapter.info
    return (f"on {info.get('device', '?')} ({info.get('backend_type', '?')}): "
            + check_outputs("webgpu", out, result, n, wgsl=True) + "; "
            + check_frames("webgpu", out, frames_out, n) + "; "
            + uniforms.webgpu(out, run_wgsl))


def step_metal(out: Path, n: int, inputs: bytes) -> str:
    if shutil.which("clang++") is None:
        raise Skip("clang++ not found; apt-get install clang")
    from sarek_layout.verify.drivers.metal import METAL_PROXY_ARGS, METAL_SHIM

    shim = out / "metal_shim"
    shim.mkdir(exist_ok=True)
    # The kernel's fingerprint arguments are MSL's ulong (64-bit there, as on arm64 here).
    (shim / "metal_stdlib").write_text(METAL_SHIM + "typedef unsigned long ulong;\n"
                                       "namespace metal {}\n")
    # MSL's address-space and function qualifiers have no C++ meaning: defined away; its
    # [[buffer(N)]] attributes are unknown to clang and ignored.
    keywords = ["-Dkernel=", "-Ddevice=", "-Dconstant=const", "-Wno-unknown-attributes"]
    _compile([*METAL_PROXY_ARGS, *keywords, "-fsyntax-only", "-Wall", "-Werror", f"-I{shim}",
              f"-I{out}", str(HERE / "kernels.metal")], "kernels.metal")
    return ("kernels.metal compiled by the proxy (clang++ -std=c++14, arm64 Apple); not run: "
            "no Metal compiler or device on this system")


def step_zig(out: Path, n: int, inputs: bytes) -> str:
    try:
        from sarek_layout.verify.drivers.zig import zig_env, zig_program
    except ImportError as e:
        raise Skip(f"sarek_layout not importable ({e})") from None
    zig = zig_program()
    if zig is None:
        raise Skip("Zig (the Python package ziglang) not found; pip install ziglang")
    import ctypes

    shutil.copy(HERE / "host.zig", out / "host.zig")
    lib = out / "libsarek_e2e_zig.so"
    proc = subprocess.run([zig, "build-lib", "-dynamic", "-O", "ReleaseSafe", "host.zig",
                           f"-femit-bin={lib.name}"], cwd=out, env=zig_env(str(out)),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failed(f"host.zig failed to compile:\n{proc.stderr}")
    T, _ = load_modules(out)
    split = n * T.SIZEOF_Telemetry_sample
    samples = ctypes.create_string_buffer(split)
    readings = ctypes.create_string_buffer(len(inputs) - split)
    host = ctypes.CDLL(str(lib))
    host.sarek_e2e_fill.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p]
    host.sarek_e2e_layout_id.restype = ctypes.c_uint64
    host.sarek_e2e_fill(n, samples, readings)
    ids = (host.sarek_e2e_layout_id(0), host.sarek_e2e_layout_id(1))
    if ids != (T.LAYOUT_ID_Telemetry_sample, T.LAYOUT_ID_Telemetry_reading):
        raise Failed(f"zig: fingerprints {ids[0]:016x} {ids[1]:016x} differ from Python's")
    result = samples.raw + readings.raw
    (out / "inputs_zig.bin").write_bytes(result)
    if result != inputs:
        at = next(i for i, (a, b) in enumerate(zip(result, inputs)) if a != b)
        raise Failed(f"zig: byte {at} of the Zig host's buffers differs from Python's")
    message = f"zig host: {n} samples and {n} readings, bytes identical to Python's"
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is not None:
        exe = out / "host_check"
        if not exe.exists():
            _compile([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{out}", f"-I{HERE}",
                      str(HERE / "host_check.c"), "-o", str(exe)], "host_check.c")
        check = subprocess.run([str(exe), str(n), str(out / "inputs_zig.bin")],
                               capture_output=True, text=True)
        if check.returncode != 0:
            raise Failed("zig: host_check.c on the Zig host's bytes: "
                         + (check.stderr.strip() or f"exited {check.returncode}"))
        message += " and to C's (host_check.c)"
    return message


def step_rust(out: Path, n: int, inputs: bytes) -> str:
    try:
        from sarek_layout.verify.toolchains import get
    except ImportError as e:
        raise Skip(f"sarek_layout not importable ({e})") from None
    reason = get("rustc").unavailable_reason
    if reason is not None:
        raise Skip(reason)
    exe = out / "host_check_rs"
    env = dict(os.environ, SAREK_E2E_OUT=str(out.resolve()))
    proc = subprocess.run(["rustc", "--edition", "2021", "-D", "warnings", "-C", "opt-level=1",
                           str(HERE / "host_check.rs"), "-o", str(exe)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise Failed(f"host_check.rs does not compile:\n{proc.stderr.strip()}")
    proc = subprocess.run([str(exe), str(n), str(out / "inputs.bin")], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise Failed(proc.stderr.strip() or f"host_check_rs exited {proc.returncode}")
    return proc.stdout.strip()


def step_typescript(out: Path, n: int, inputs: bytes) -> str:
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import e2e_typescript  # noqa: E402  (beside this file)

    return e2e_typescript.run_step(sys.modules[__name__], out, n, inputs)


STEP_FUNCTIONS: Dict[str, Callable[[Path, int, bytes], str]] = {
    "pocl": step_pocl, "c": step_c, "cuda": step_cuda, "vulkan": step_vulkan,
    "webgpu": step_webgpu, "metal": step_metal, "zig": step_zig, "rust": step_rust,
    "typescript": step_typescript}


def run(out: Path, n: int, steps: Tuple[str, ...], required: Tuple[str, ...]) -> int:
    out.mkdir(parents=True, exist_ok=True)
    generate(out)
    inputs = write_inputs(out, n)
    print(f"python: {n} samples and {n} readings packed with telemetry_layout "
          f"({len(inputs)} bytes) -> {out / 'inputs.bin'}")
    status = 0
    for name in steps:
        try:
            message = STEP_FUNCTIONS[name](out, n, inputs)
        except Skip as e:
            if name in required:
                print(f"{name}: FAILED (required, but: {e})")
                status = 1
            else:
                print(f"{name}: skipped ({e})")
            continue
        except Failed as e:
            print(f"{name}: FAILED: {e}")
            status = 1
            continue
        print(f"{name}: ok, {message}")
    return status


def _names(text: Optional[str]) -> Tuple[str, ...]:
    names = tuple(s for s in (text or "").split(",") if s)
    unknown = [s for s in names if s not in STEPS]
    if unknown:
        raise SystemExit(f"unknown step(s) {', '.join(unknown)}; known: {', '.join(STEPS)}")
    return names


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="output folder (default: a temporary one)")
    parser.add_argument("-n", type=int, default=1000, help="elements per array (default 1000)")
    parser.add_argument("--steps", default=",".join(STEPS), help="steps to run (default: all)")
    parser.add_argument("--require", default="", help="steps that must run (fail instead of skip)")
    parser.add_argument("--layout-id", type=lambda text: int(text, 16), metavar="HEX",
                        help="send the kernels this layout fingerprint instead of the host's "
                        "own (a host of another schema): they refuse the data")
    args = parser.parse_args(argv)
    global SENT_LAYOUT_ID
    SENT_LAYOUT_ID = args.layout_id
    steps, required = _names(args.steps), _names(args.require)
    if args.out:
        return run(Path(args.out), args.n, steps, required)
    with tempfile.TemporaryDirectory(prefix="sarek-e2e-") as tmp:
        return run(Path(tmp), args.n, steps, required)


if __name__ == "__main__":
    sys.exit(main())
