"""The ``typescript`` step of run_e2e.py: Python's bytes through a TypeScript host and back
to a WGSL kernel (issue 34, docs/typescript.md).

1. ``sarek-layout generate -t typescript`` writes telemetry.ts and frames.ts; tsc
   (``--strict``, the flags the typescript toolchain of ``verify`` uses) compiles them with
   host.ts;
2. Node runs host.ts: it reads inputs.bin (Python's samples and readings) and frames.bin
   (frames.toml's member kinds under std430) with the generated modules, checks every value
   against those it builds itself, and writes its own encoding of them (inputs_ts.bin,
   frames_ts.bin), which must be Python's bytes, byte for byte;
3. the WGSL kernel (kernels.wgsl after telemetry.wgsl, through ``wgpu`` on lavapipe, as the
   ``webgpu`` step runs it) reads what Node wrote; its results are checked like every
   device's;
4. where a WebGPU runtime for Node is installed (npm ``webgpu``, Dawn, found in a
   node_modules folder as tsc is), the TypeScript host runs the same kernel itself, and its
   results are checked too. Dawn needs ``shaderUniform*ArrayDynamicIndexing``, which Debian
   12's lavapipe does not offer (``requestAdapter()`` is null there): where ``VK_ICD_FILENAMES``
   is unset and Chromium's SwiftShader Vulkan driver is installed, Dawn is pointed at it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent


def webgpu_module() -> Optional[Path]:
    """The entry file of npm ``webgpu`` (Dawn for Node) in a node_modules folder of the working
    folder or the repository (or a parent's), or None."""
    from sarek_layout.verify.drivers.typescript import node_modules_path

    for start in (None, str(HERE)):
        found = node_modules_path("webgpu", "index.js", start=start)
        if found is not None:
            return Path(found)
    return None


def run_step(e2e, out: Path, n: int, inputs: bytes) -> str:
    """The step, with run_e2e.py's module ``e2e`` (its checks, Skip and Failed)."""
    from sarek_layout.verify.drivers.typescript import (INSTALL, SWIFTSHADER_ICD, TSC_FLAGS,
                                                        typescript_programs)

    tsc, node = typescript_programs()
    if tsc is None or node is None:
        raise e2e.Skip(f"{'tsc' if tsc is None else 'node'} not found; {INSTALL}")
    for schema in (e2e.SCHEMA, e2e.FRAMES):
        proc = e2e._generate(out, schema, ["typescript"])
        if proc.returncode != 0:
            raise e2e.Failed(f"generate -t typescript failed:\n{proc.stderr}")
    shutil.copy(HERE / "host.ts", out / "host.ts")
    build = subprocess.run([tsc, *TSC_FLAGS, "--outDir", str(out / "js"),
                            str(out / "telemetry.ts"), str(out / "frames.ts"),
                            str(out / "host.ts")],
                           capture_output=True, text=True, timeout=600)
    if build.returncode != 0:  # tsc reports on stdout
        raise e2e.Failed(f"tsc refused host.ts or telemetry.ts:\n{build.stdout}{build.stderr}")
    argv = [node, str(out / "js" / "host.js"), str(n), str(out / "inputs.bin"),
            str(out / "inputs_ts.bin"), str(out / "frames.bin"), str(out / "frames_ts.bin")]
    env = dict(os.environ)
    dawn = webgpu_module()
    if dawn is not None:
        source = (out / "telemetry.wgsl").read_text() + "\n" + (HERE / "kernels.wgsl").read_text()
        (out / "kernel_ts.wgsl").write_text(source)
        argv += [str(dawn), str(out / "kernel_ts.wgsl"), *map(str, e2e.host_layout_ids(out))]
        if "VK_ICD_FILENAMES" not in env and os.path.exists(SWIFTSHADER_ICD):
            env["VK_ICD_FILENAMES"] = SWIFTSHADER_ICD
    run = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    if run.returncode != 0:
        raise e2e.Failed(run.stderr.strip() or f"node host.js exited {run.returncode}")
    said = [run.stdout.strip().splitlines()[-1]]
    written = (out / "inputs_ts.bin").read_bytes()
    if written != inputs:
        at = next((i for i, (a, b) in enumerate(zip(written, inputs)) if a != b),
                  min(len(written), len(inputs)))
        raise e2e.Failed(f"typescript: byte {at} of the TypeScript host's bytes differs from "
                         "Python's")
    if (out / "frames_ts.bin").read_bytes() != e2e.frames_input(out):
        raise e2e.Failed("typescript: the TypeScript host's frames differ from Python's bytes")
    said.append("bytes identical to Python's (the frames too)")
    said.append(_wgsl_on_what_node_wrote(e2e, out, n, written))
    if dawn is None:
        said.append("the TypeScript host's own WebGPU run skipped: npm install webgpu "
                    "(Dawn for Node) to run it")
    else:
        said.append("the TypeScript host's own run of it: " + e2e.check_outputs(
            "webgpu (typescript host)", out, (out / "outputs_webgpu_ts.bin").read_bytes(), n,
            wgsl=True))
    return "; ".join(said)


def _wgsl_on_what_node_wrote(e2e, out: Path, n: int, written: bytes) -> str:
    """kernels.wgsl through wgpu (Python) on the bytes Node wrote, checked like the webgpu
    step's results; said skipped where wgpu finds no adapter."""
    try:
        from sarek_layout.verify.drivers.wgsl import run_wgsl, webgpu_problem
    except ImportError as e:
        return f"WGSL kernel skipped ({e})"
    problem = webgpu_problem(need_adapter=True)
    if problem is not None:
        return f"WGSL kernel skipped ({problem})"
    source = (out / "telemetry.wgsl").read_text() + "\n" + (HERE / "kernels.wgsl").read_text()
    results = run_wgsl(source, e2e._gpu_buffers(out, n, written), groups=(n + 63) // 64)
    e2e.check_refusal("webgpu (typescript bytes)", out, results[4])
    result = results[1] + results[3]
    (out / "outputs_webgpu_from_ts.bin").write_bytes(result)
    return "kernels.wgsl (wgpu) on them: " + e2e.check_outputs(
        "webgpu (typescript bytes)", out, result, n, wgsl=True)
