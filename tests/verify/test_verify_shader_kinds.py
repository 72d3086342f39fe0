"""``verify --shader`` on hand-written shaders of SPEC §1b's member kinds (``data/shader_kinds``):
structs written as GPU samples write them (particles of vec4, lights of a vec3 and a float, a
camera of two mat4, a bitonic sort's buckets with a fixed array, an enum member and an
atomic; a Vulkan sample's indirect command before one more word of a uniform block; vertices
of a scalar block; WGSL's per-frame uniform globals), each checked against the schema under
its type's rule set (c, std430 storage, std140 uniform, scalar, wgsl-uniform), each block by
the rules its declaration gives it, with the right verdict for each:

* the verdict and the words that explain it, as ``verify --shader`` prints them;
* each verdict confirmed independently of verify's own readers: the GLSL ones by glslang's
  SPIR-V as ``spirv-cross --reflect`` describes the struct each block holds (and a block named
  as a schema type, member by member), the WGSL ones by
  a compute shader of the test's own run by wgpu (each member's first word read from a buffer
  of known words), the Metal ones by clang's ``offsetof`` through the proxy's stand-ins.

Before: every kind member was "an array, write <scalar>" or a refusal of the whole schema.
"""

from __future__ import annotations

import json
import pathlib
import re
import struct
import subprocess

import pytest

from helpers.common import require_toolchain
from sarek_layout.cli.main import main
from sarek_layout.resolve import load_schema

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "shader_kinds"
SCHEMA = DATA / "gpu.toml"
TOOLCHAIN = {".comp": "glslang", ".frag": "glslang", ".vert": "glslang", ".wgsl": "webgpu",
             ".metal": "metal-proxy"}

#: shader -> (the structs it checks, and for each that differs the words that say why).
CASES = {
    "particles.comp": ({"Particle"}, {}),
    "lights.frag": ({"Light"}, {}),
    "lights_reordered.frag": ({"Light"}, {"Light": ["members in another order",
                                                    "radius is at offset 28 (glslang)"]}),
    "camera.vert": ({"CameraData"}, {}),
    "camera_rowmajor.vert": ({"CameraData"}, {"CameraData": [
        "its matrices are row-major there", "the schema's column-major"]}),
    "bitonic.comp": ({"SortParams", "Bucket"}, {}),
    "bitonic_std140.comp": ({"Bucket"}, {"Bucket": [
        "an array of Bucket (buckets) has a stride of 272 bytes, where Bucket is 80 bytes"]}),
    "particles.wgsl": ({"Particle"}, {}),
    "lights.wgsl": ({"Light", "CameraData"}, {}),
    "bitonic.wgsl": ({"SortParams", "Bucket"}, {}),
    "bitonic_mat3.wgsl": ({"Bucket"}, {"Bucket": [
        "bounds is vec3<f32>, 12 bytes, where the schema has vec2<float32>, 8 bytes",
        "it is at offset 80 (wgpu), the schema's at 72"]}),
    "blur.wgsl": ({"Kernel", "Ramp"}, {}),
    "blur_storage.wgsl": ({"Weights"}, {"Weights": [
        "w is 16 bytes (wgpu), the schema's 64; it has an element stride of 4 bytes at w "
        "(wgpu), the schema's 16 (std140 rules)"]}),
    "particles.metal": ({"Particle"}, {}),
    "lights.metal": ({"Light"}, {"Light": ["radius is at offset 16 (metal-proxy), the schema's "
                                           "at 12"]}),
    "lights_packed.metal": ({"Light"}, {}),
    "camera.metal": ({"CameraData", "Bucket"}, {}),
    # Issue 33 item 4: each block judged by the rules its declaration gives it; a schema type
    # in a block of other rules is reported at that block, with both offsets and the rule.
    "extra_std140.comp": ({"IndexedIndirectCommand"}, {"IndexedIndirectCommand": [
        "Extra is a uniform block laid out std140", "the schema's c rules",
        "after is at offset 32", "after at 20 in the host's struct"]}),
    "extra_std430.comp": ({"IndexedIndirectCommand"}, {}),
    "mesh_scalar.comp": ({"Vertex"}, {}),
    "mesh_std430.comp": ({"Vertex"}, {"Vertex": [
        "Vertex.normal is at offset 16 there, at 12 by the schema's scalar rules",
        "a stride of 48 bytes, where Vertex is 32 bytes", "declare the block `layout(scalar)`"]}),
    "globals.wgsl": ({"Sun", "Globals"}, {}),
}


def test_every_shader_has_a_case():
    shaders = sorted(p.name for p in DATA.iterdir() if p.suffix != ".toml")
    assert shaders == sorted(CASES)


def _suffix(name: str) -> str:
    return pathlib.Path(name).suffix


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_verdict(name, capsys):
    require_toolchain(TOOLCHAIN[_suffix(name)])
    structs, differ = CASES[name]
    status = main(["verify", str(SCHEMA), "--shader", str(DATA / name)])
    out, err = capsys.readouterr()
    assert err == "", err
    assert status == (1 if differ else 0), out
    for s in structs:
        verdict = "agrees" if s not in differ else "difference"
        assert any(f": {s}: " in line and verdict in line for line in out.splitlines()), out
    for s, words in differ.items():
        for w in words:
            assert any(f"error: {s}: " in line and w in line for line in out.splitlines()), \
                (w, out)


# --- each verdict confirmed by another reader of what the compiler built ------------------------


def _schema_struct(name: str):
    return next(t for t in load_schema([str(SCHEMA)]).types if t.c_name == name)


def _expected(name: str) -> dict:
    """The schema's numbers of a struct: each member's offset and first stride, its size."""
    t = _schema_struct(name)
    out = {m.name: (m.offset, m.dims[0].stride if m.dims and m.dims[0].kind != "vector"
                    else None) for m in t.members}
    return {"members": out, "size": t.size}


GLSL_STAGES = {".comp": "comp", ".frag": "frag", ".vert": "vert"}


def _spirv_cross(name: str, tmp_path) -> dict:
    """struct -> what spirv-cross reflects of the copy a block of the shader holds: each
    member's (offset, array or matrix stride), whether a matrix is row-major, and the array
    stride the block gives the struct (its size there)."""
    require_toolchain("glslang")
    spv = tmp_path / "s.spv"
    subprocess.run(["glslangValidator", "-V", "-S", GLSL_STAGES[_suffix(name)],
                    str(DATA / name), "-o", str(spv)], check=True, capture_output=True)
    reflected = json.loads(subprocess.run(["spirv-cross", str(spv), "--reflect"], check=True,
                                          capture_output=True, text=True).stdout)
    types = reflected["types"]
    out: dict = {}
    for tid, t in types.items():
        for m in t.get("members", []):
            held = types.get(m["type"])
            if held is None or "offset" not in (held.get("members") or [{}])[0]:
                continue
            out[held["name"]] = {
                "members": {x["name"]: (x["offset"], x.get("array_stride") or x.get("matrix_stride"))
                            for x in held["members"]},
                "row_major": any(x.get("row_major") for x in held["members"]),
                "size": m.get("array_stride"),
                # The blocks that hold it, with each one's member offsets: a block named as a
                # schema type is that type (a uniform block ``Extra { cmd; after; }``).
                "holders": {**out.get(held["name"], {}).get("holders", {}), t["name"]: {
                    x["name"]: (x["offset"], x.get("array_stride") or x.get("matrix_stride"))
                    for x in t["members"]}}}
    return out


@pytest.mark.parametrize("name", sorted(n for n in CASES if _suffix(n) in GLSL_STAGES))
def test_glsl_verdicts_are_spirv_crosss(name, tmp_path):
    structs, differ = CASES[name]
    got = _spirv_cross(name, tmp_path)
    for s in structs:
        want = _expected(s)
        mine = got[s]
        agrees = (mine["members"] == want["members"] and not mine["row_major"]
                  and mine["size"] in (None, want["size"]))
        names = {t.c_name for t in load_schema([str(SCHEMA)]).types}
        for block, members in mine["holders"].items():
            if block in names:  # the block is a schema type: its members where it says
                agrees = agrees and members == _expected(block)["members"]
        assert agrees == (s not in differ), (s, mine, want)


#: WGSL: each member's first 32-bit word, as the test's own shader reads it (``{e}``: the
#: struct value in the buffer).
WGSL_FIRST = {
    "Particle": {"pos": "{e}.pos.x", "vel": "{e}.vel.x", "color": "{e}.color.x"},
    "Light": {"position": "{e}.position.x", "radius": "{e}.radius", "color": "{e}.color.x",
              "intensity": "{e}.intensity"},
    "CameraData": {"view": "{e}.view[0].x", "proj": "{e}.proj[0].x", "eye": "{e}.eye.x",
                   "time": "{e}.time"},
    "SortParams": {"k": "{e}.k", "j": "{e}.j", "count": "atomicLoad(&{e}.count)", "pad": "{e}.pad"},
    "Bucket": {"keys": "{e}.keys[0]", "count": "{e}.count", "material": "{e}.material",
               "bounds": "{e}.bounds.x"},
    "Kernel": {"weights": "{e}.weights[0].x", "count": "{e}.count"},
    "Ramp": {"stops": "{e}.stops[0].v", "tint": "{e}.tint.x"},
    "Weights": {"w": "{e}.w[0]", "count": "{e}.count", "scale": "{e}.scale.x"},
    "Sun": {"dir": "{e}.dir.x", "power": "{e}.power"},
    "Globals": {"mvp": "{e}.mvp[0].x", "sun": "{e}.sun.dir.x", "count": "{e}.count",
                "weights": "{e}.weights[0].x"},
}
#: And the first word of an array member's second element (its stride).
WGSL_SECOND = {("Bucket", "keys"): "{e}.keys[1]", ("Kernel", "weights"): "{e}.weights[1].x",
               ("Ramp", "stops"): "{e}.stops[1].v", ("Weights", "w"): "{e}.w[1]",
               ("CameraData", "view"): "{e}.view[1].x", ("CameraData", "proj"): "{e}.proj[1].x",
               ("Globals", "mvp"): "{e}.mvp[1].x", ("Globals", "weights"): "{e}.weights[1].x"}


def _wgpu_offsets(name: str, s: str) -> dict:
    """The struct ``s`` of WGSL shader ``name`` as a compute shader of this test reads it on
    the device: a buffer of known words (word i holds i + 1) holds ``array<s, 2>``."""
    require_toolchain("webgpu")
    from sarek_layout.verify.drivers.wgsl import run_wgsl

    reads = []
    for member, expr in WGSL_FIRST[s].items():
        reads.append(("offset", member, expr))
        if (s, member) in WGSL_SECOND:
            reads.append(("stride", member, WGSL_SECOND[(s, member)]))
    first = next(iter(WGSL_FIRST[s].values()))  # the element after: its size
    reads.append(("size", "", first.replace("{e}", "{e1}")))
    lines = [f"    oracle_out[{k}] = bitcast<u32>({e.format(e='oracle_in[0]', e1='oracle_in[1]')});"
             for k, (_, _, e) in enumerate(reads)]
    source = ((DATA / name).read_text()
              + f"\n@group(1) @binding(0) var<storage, read_write> oracle_in: array<{s}, 2>;\n"
              "@group(1) @binding(1) var<storage, read_write> oracle_out: array<u32>;\n"
              "@compute @workgroup_size(1)\nfn sarek_oracle() {\n" + "\n".join(lines) + "\n}\n")
    return _run_oracle(source, reads, 4096)


def _run_oracle(source: str, reads, words: int) -> dict:
    import wgpu

    from sarek_layout.verify.drivers.wgsl import device

    dev = device()
    module = dev.create_shader_module(code=source)
    usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
    inp = dev.create_buffer_with_data(data=struct.pack(f"<{words}I", *range(1, words + 1)),
                                      usage=usage)
    out = dev.create_buffer(size=4 * len(reads), usage=usage)
    pipeline = dev.create_compute_pipeline(layout="auto", compute={
        "module": module, "entry_point": "sarek_oracle"})
    group = dev.create_bind_group(layout=pipeline.get_bind_group_layout(1), entries=[
        {"binding": 0, "resource": {"buffer": inp}}, {"binding": 1, "resource": {"buffer": out}}])
    encoder = dev.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(1, group)
    compute.dispatch_workgroups(1)
    compute.end()
    dev.queue.submit([encoder.finish()])
    values = struct.unpack(f"<{len(reads)}I", bytes(dev.queue.read_buffer(out)))
    first = values[0]
    got: dict = {"members": {}, "size": None}
    for (what, member, _), v in zip(reads, values):
        if what == "offset":
            got["members"][member] = [4 * (v - first), None]
        elif what == "stride":
            got["members"][member][1] = 4 * (v - got["members"][member][0] // 4 - first)
        else:
            got["size"] = 4 * (v - first)
    got["members"] = {k: tuple(v) for k, v in got["members"].items()}
    return got


@pytest.mark.parametrize("name", sorted(n for n in CASES if _suffix(n) == ".wgsl"))
def test_wgsl_verdicts_are_the_devices(name):
    structs, differ = CASES[name]
    for s in structs:
        want = _expected(s)
        got = _wgpu_offsets(name, s)
        agrees = got["members"] == want["members"] and got["size"] in (None, want["size"])
        assert agrees == (s not in differ), (s, got, want)


@pytest.mark.parametrize("name", sorted(n for n in CASES if _suffix(n) == ".metal"))
def test_metal_verdicts_are_clangs(name, tmp_path):
    """clang's own offsetof and sizeof of each struct, through the Metal proxy's stand-ins."""
    require_toolchain("metal-proxy")
    from sarek_layout.verify.shaders.metal_stdlib import KEYWORDS, METAL_PROXY_ARGS, STAND_INS

    shim = tmp_path / "shim"
    for n, text in STAND_INS:
        (shim / n).parent.mkdir(parents=True, exist_ok=True)
        (shim / n).write_text(text)
    structs, differ = CASES[name]
    for s in structs:
        want = _expected(s)
        probe = [f'#include "{DATA / name}"']
        probe += [f"char sarek_off_{m}[__builtin_offsetof({s}, {m}) + 1];" for m in want["members"]]
        probe.append(f"char sarek_size[sizeof({s}) + 1];")
        src = tmp_path / f"{s}.cpp"
        src.write_text("\n".join(probe) + "\n")
        ll = tmp_path / f"{s}.ll"
        subprocess.run([*METAL_PROXY_ARGS, *KEYWORDS, "-S", "-emit-llvm", "-I", str(shim),
                        str(src), "-o", str(ll)], check=True, capture_output=True)
        sizes = {m: int(k) - 1 for m, k in re.findall(r"@sarek_(\w+) = .*?\[(\d+) x i8\]",
                                                      ll.read_text())}
        offsets = {m: sizes[f"off_{m}"] for m in want["members"]}
        agrees = (offsets == {m: o for m, (o, _) in want["members"].items()}
                  and sizes["size"] == want["size"])
        assert agrees == (s not in differ), (s, offsets, sizes["size"], want)
