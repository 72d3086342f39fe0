"""Shaders in the style of public Vulkan, WebGPU and Metal samples (``data/shader_samples``)
compile under ``verify --shader`` and their schema structs agree.

Before: only the compute shader did (glslang ran every stage for SPIR-V 1.3, which the
ray-tracing and mesh stages refuse; WGSL's atomics and MSL's ``atomic_uint`` were type
differences; the Metal proxy's stand-in ``<metal_stdlib>`` had no matrices, no ``dot`` or
``floor``, no vector constructors, no atomics or textures, and a header shared with the host
was refused for its ``#import``). ``textures.wgsl`` uses a ``binding_array``, which naga
validates only on a device with wgpu's texture-binding-array feature: lavapipe has none, and
the run says so.
"""

from __future__ import annotations

import pathlib

import pytest

from helpers.common import require_toolchain
from sarek_layout.cli.main import main

SAMPLES = pathlib.Path(__file__).resolve().parents[1] / "data" / "shader_samples"
SCHEMA = SAMPLES / "samples.toml"
TOOLCHAIN = {"rchit": "glslang", "rgen": "glslang", "rmiss": "glslang", "comp": "glslang",
             "mesh": "glslang", "wgsl": "webgpu", "metal": "metal-proxy"}
#: sample -> the structs it checks.
AGREE = {"closest_hit.rchit": 2, "raygen.rgen": 1, "miss.rmiss": 1, "particles.comp": 1,
         "meshlet.mesh": 1, "particles.wgsl": 2, "transform.metal": 1, "renderer.metal": 1,
         "atomics.metal": 2, "texture.metal": 1}


def test_every_sample_has_a_case():
    shaders = sorted(p.name for p in SAMPLES.iterdir() if p.suffix not in (".toml", ".h"))
    assert shaders == sorted([*AGREE, "textures.wgsl"])


@pytest.mark.parametrize("name", sorted(AGREE))
def test_a_sample_shader_compiles_and_agrees(name, capsys):
    require_toolchain(TOOLCHAIN[name.rsplit(".", 1)[1]])
    status = main(["verify", str(SCHEMA), "--shader", str(SAMPLES / name), "-I", str(SAMPLES)])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), out
    n = AGREE[name]
    assert f"{n} struct{'s' * (n != 1)} checked against the schema: all agree" in out, out


def test_a_binding_array_says_what_the_device_lacks(capsys):
    require_toolchain("webgpu")
    status = main(["verify", str(SCHEMA), "--shader", str(SAMPLES / "textures.wgsl")])
    out, _ = capsys.readouterr()
    if status == 0:  # an adapter with texture-binding-array: naga validates it
        return
    assert status == 1
    assert ("naga validates a binding_array only on a device with wgpu's "
            "texture-binding-array feature, which this adapter does not have") in out, out
