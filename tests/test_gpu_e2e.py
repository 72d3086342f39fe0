"""The end-to-end example on the GPU APIs (examples/e2e): Python fills buffers with the
generated module; a GLSL kernel (SPIR-V from glslang) on a Vulkan device and a WGSL kernel
through wgpu (both on Mesa's lavapipe without a GPU) read every field and every constructor
argument through the generated accessors and write new elements with the generated make_
functions; Python decodes them and compares every value and every byte.
"""

from __future__ import annotations

import pytest

import sarek_layout as sl
from conftest import require_toolchain
from test_host_e2e import E2E, N, run_example


@pytest.mark.parametrize("step, toolchain", [("vulkan", "vulkan"), ("webgpu", "webgpu")])
def test_gpu_end_to_end(step, toolchain, tmp_path):
    require_toolchain(toolchain)
    proc = run_example(tmp_path, "--steps", step, "--require", step)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{step}: ok" in proc.stdout and "bytes identical" in proc.stdout, proc.stdout

    # An independent reading of the same bytes: numpy views through the package's dtypes.
    np = pytest.importorskip("numpy")
    schema = sl.load(str(E2E / "telemetry.toml"))
    sample_dt, reading_dt = schema.dtype("sample"), schema.dtype("reading")
    inputs = (tmp_path / "inputs.bin").read_bytes()
    outputs = (tmp_path / f"outputs_{step}.bin").read_bytes()
    split = N * sample_dt.itemsize
    s_in, s_out = np.frombuffer(inputs[:split], sample_dt), np.frombuffer(outputs[:split], sample_dt)
    assert (s_out["id"] == s_in["id"] * 2 + 1).all()
    assert (s_out["stamp"] == s_in["stamp"] - s_in["id"]).all()
    if step == "vulkan":
        assert (s_out["value"] == s_in["value"] * 0.5 + s_in["pos"]["x"]).all()
    else:  # WGSL has no float64: the words are copied
        assert (s_out["value"] == s_in["value"]).all()
    assert (s_out["pos"]["x"] == s_in["pos"]["y"] * np.float32(2)).all()
    assert (s_out["valid"] == 1 - s_in["valid"]).all()
    r_in, r_out = np.frombuffer(inputs[split:], reading_dt), np.frombuffer(outputs[split:], reading_dt)
    count = r_in["tag"] == 1
    assert count.any()
    assert (r_out["data"]["Count_v"]["_0"][count]
            == r_in["data"]["Count_v"]["_0"][count] * 2 + r_in["data"]["Count_v"]["_1"][count]).all()
    assert (r_out["data"]["Count_v"]["_1"][count] == r_in["data"]["Count_v"]["_1"][count] - 1).all()
    located = r_in["tag"] == 2
    assert (r_out["data"]["Located_v"]["_0"]["x"][located]
            == r_in["data"]["Located_v"]["_0"]["y"][located]).all()
    missing = r_in["tag"] == 4
    assert (r_out["tag"][missing] == 3).all()  # Missing becomes Flag(true)


def test_metal_kernel_compiles_with_the_proxy(tmp_path):
    """The example's Metal kernel compiles (clang++ as the proxy); nothing can run it here."""
    require_toolchain("metal-proxy")
    proc = run_example(tmp_path, "--steps", "metal", "--require", "metal")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "metal: ok, kernels.metal compiled by the proxy" in proc.stdout
