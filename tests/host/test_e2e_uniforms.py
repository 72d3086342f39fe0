"""The end-to-end example's uniform buffers (examples/e2e/uniforms.py, issue 33): a std140
record in a ``layout(std140) uniform`` block read by Vulkan on lavapipe, a wgsl-uniform one
in a WGSL ``var<uniform>`` read by wgpu, each written by Python (the generated module) and
by the C host (uniform_host.c with the generated headers), byte for byte alike; every
member's words come back from the device as written. A record written with another rule
set's strides is caught by the device's words."""

from __future__ import annotations

import os
import struct
import subprocess
import sys

import pytest

from helpers.common import EXAMPLES, ROOT, require_toolchain

E2E = EXAMPLES / "e2e"


def test_the_uniform_blocks_reach_vulkan_and_wgpu(tmp_path):
    for name in ("glslang", "vulkan", "webgpu", "gcc"):
        require_toolchain(name)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, str(E2E / "run_e2e.py"), "--out", str(tmp_path),
                           "-n", "4", "--steps", "vulkan,webgpu", "--require", "vulkan,webgpu"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for rules in ("std140", "wgsl-uniform"):
        assert (f"a {rules} uniform written by Python (the C host wrote the same bytes) read "
                f"back member by member") in proc.stdout, proc.stdout
    params = (tmp_path / "uniform_uniforms_python.bin").read_bytes()
    # std140: the four weights 16 bytes apart, the vec2 after them at 80.
    assert [struct.unpack_from("<f", params, 16 + 16 * i)[0] for i in range(4)] == [1, 2, 4, 8]
    assert struct.unpack_from("<2f", params, 80) == (-3.0, 0.125)


def test_a_uniform_written_with_storage_strides_is_caught(tmp_path, monkeypatch):
    """Python's std140 record packed with std430's strides (weights 4 bytes apart): the C
    host's bytes differ, and the Vulkan kernel reads other words than the values."""
    require_toolchain("glslang")
    require_toolchain("vulkan")
    # The example's module and the generated ones it imports, gone again after the test.
    monkeypatch.setattr(sys, "path", [str(E2E), *sys.path])
    names = ("uniforms", "uniforms_layout", "view_layout")
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        _caught(tmp_path, monkeypatch)
    finally:
        for name in names:
            sys.modules.pop(name, None)


def _caught(tmp_path, monkeypatch):
    import uniforms
    from sarek_layout.verify.drivers.vulkan import run_spirv

    uniforms.generate(tmp_path)
    right = uniforms.python_bytes(tmp_path, uniforms.STD140)
    wrong = bytearray(right)
    wrong[16:80] = bytes(64)
    for i in range(4):  # the weights at 16, 20, 24, 28
        wrong[16 + 4 * i:20 + 4 * i] = right[16 + 16 * i:20 + 16 * i]
    monkeypatch.setattr(uniforms, "python_bytes", lambda out, schema: bytes(wrong))
    if require_toolchain_quietly("gcc"):
        with pytest.raises(uniforms.Failed, match="C host's 96 bytes differ from Python's 96 at byte 23"):
            uniforms.vulkan(tmp_path, "glslangValidator", run_spirv)
    monkeypatch.setattr(uniforms, "c_bytes", lambda out: None)
    with pytest.raises(uniforms.Failed, match="the std140 uniform's word 5 reads 0x0"):
        uniforms.vulkan(tmp_path, "glslangValidator", run_spirv)


def require_toolchain_quietly(name: str) -> bool:
    try:
        require_toolchain(name)
    except pytest.skip.Exception:
        return False
    return True
