"""The end-to-end example on the GPU APIs (examples/e2e): Python fills buffers with the
generated module; a GLSL kernel (SPIR-V from glslang) on a Vulkan device and a WGSL kernel
through wgpu (both on Mesa's lavapipe without a GPU) read every field and every constructor
argument through the generated accessors and write new elements with the generated make_
functions; Python decodes them and compares every value and every byte. The frames of SPEC
§1b's member kinds (a vec4, a float[5] and an enum, std430) go through both kernels too.
"""

from __future__ import annotations

import pytest

import sarek_layout as sl
from helpers.common import require_toolchain
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

    # The frames (a vec4, a float[5] and an enum under std430), through numpy's sub-arrays.
    frames = sl.load(str(E2E / "frames.toml"))
    frame_dt, severity = frames.dtype("frame"), frames.enum("severity")
    f_in = np.frombuffer((tmp_path / "frames.bin").read_bytes(), frame_dt)
    f_out = np.frombuffer((tmp_path / f"outputs_frames_{step}.bin").read_bytes(), frame_dt)
    assert len(f_out) == len(f_in) == N, proc.stdout
    assert (f_out["id"] == f_in["id"] * 3 - 1).all()
    assert (f_out["color"] == f_in["color"][:, ::-1] * np.float32(0.5)).all()
    assert (f_out["hist"] == f_in["hist"][:, ::-1] + np.arange(5, dtype=np.float32)).all()
    alarm = f_in["level"] == severity.Alarm
    assert alarm.any() and (f_out["level"][alarm] == severity.Quiet).all()
    assert (f_out["level"][~alarm] == f_in["level"][~alarm] + 1).all()


@pytest.mark.parametrize("step, toolchain", [("pocl", "pocl"), ("vulkan", "vulkan"),
                                             ("webgpu", "webgpu")])
def test_kernels_refuse_a_host_of_another_layout(step, toolchain, tmp_path):
    """Each kernel checks the fingerprints the host passes with the generated <T>_LAYOUT_OK:
    a host that sends another one (as a host built from another schema would) gets the
    kernel's refusal, naming both fingerprints, and no output; its own ones pass."""
    require_toolchain(toolchain)
    schema = sl.load(str(E2E / "telemetry.toml"))
    kernel_id = schema.layout_id("sample")
    stale = kernel_id ^ 0x8000_0000_0000_0001  # both 32-bit words differ
    proc = run_example(tmp_path, "--steps", step, "--require", step, "--layout-id", f"{stale:x}")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert (f"{step}: FAILED: {step}: the kernel refused the data: it was built for "
            f"Telemetry.sample layout 0x{kernel_id:016x}, the host sent 0x{stale:016x}"
            in proc.stdout), proc.stdout
    assert not (tmp_path / f"outputs_{step}.bin").exists()
    # Only the high word wrong, then only the low word: the two-word checks see each.
    for wrong in (kernel_id ^ (1 << 63), kernel_id ^ 1):
        proc = run_example(tmp_path, "--steps", step, "--require", step, "--layout-id",
                           f"{wrong:x}")
        assert proc.returncode == 1 and "the kernel refused the data" in proc.stdout, proc.stdout


def test_metal_kernel_compiles_with_the_proxy(tmp_path):
    """The example's Metal kernel compiles (clang++ as the proxy); nothing can run it here."""
    require_toolchain("metal-proxy")
    proc = run_example(tmp_path, "--steps", "metal", "--require", "metal")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "metal: ok, kernels.metal compiled by the proxy" in proc.stdout


# --- make_ and the accessors undo each other, records in records included ---------------------

#: Records inside records inside payloads: a two-word payload (event, at 8) and a one-word
#: one (narrow, at 4), record arguments at even and odd words, a constant constructor. `cloud`
#: and `big` are longer than UNROLL_WORDS (36 words), so their words, the payloads that hold
#: them and `pair`, which holds both, are copied with loops; the others word by word.
ROUND_TRIP_TOML = """\
module = "Rt"

[[types]]
record = "vec3"
fields = [["x", "float32"], ["y", "float32"], ["z", "float32"]]

[[types]]
record = "body"
fields = [["pos", "vec3"], ["vel", "vec3"], ["mass", "float64"], ["alive", "bool"]]

[[types]]
record = "stamp"
fields = [["when", "int64"], ["where_", "vec3"]]

[[types]]
record = "cloud"
fields = [["p0", "vec3"], ["p1", "vec3"], ["p2", "vec3"], ["p3", "vec3"], ["p4", "vec3"],
          ["p5", "vec3"], ["p6", "vec3"], ["p7", "vec3"], ["p8", "vec3"], ["p9", "vec3"],
          ["p10", "vec3"], ["p11", "vec3"]]

[[types]]
record = "big"
fields = [["b0", "body"], ["b1", "body"], ["b2", "body"], ["s", "stamp"]]

[[types]]
record = "pair"
fields = [["c", "cloud"], ["g", "big"]]

[[types]]
variant = "event"
constructors = [["Spawn", ["body", "int32"]], ["Move", ["int32", "vec3", "float32"]],
                ["Stamp", ["stamp"]], ["Quit"], ["Big", ["int32", "big"]],
                ["Cloud", ["int32", "cloud"]]]

[[types]]
variant = "narrow"
constructors = [["P", ["int32", "vec3"]], ["Q", ["vec3"]], ["R"], ["C", ["int32", "cloud"]]]
"""

ROUND_TRIP_GLSL = """\
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "rt.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer B0 { Rt_event e_in[]; };
layout(std430, binding = 1) writeonly buffer B1 { Rt_event e_out[]; };
layout(std430, binding = 2) readonly buffer B2 { Rt_narrow n_in[]; };
layout(std430, binding = 3) writeonly buffer B3 { Rt_narrow n_out[]; };
layout(std430, binding = 4) readonly buffer B4 { Rt_body b_in[]; };
layout(std430, binding = 5) writeonly buffer B5 { Rt_body b_out[]; };
layout(std430, binding = 6) readonly buffer B6 { Rt_pair g_in[]; };
layout(std430, binding = 7) writeonly buffer B7 { Rt_pair g_out[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    Rt_event e = e_in[i];
    if (e.tag == Rt_event_Spawn) e_out[i] = make_Rt_event_Spawn(Rt_event_Spawn_0(e), Rt_event_Spawn_1(e));
    else if (e.tag == Rt_event_Move) e_out[i] = make_Rt_event_Move(Rt_event_Move_0(e), Rt_event_Move_1(e), Rt_event_Move_2(e));
    else if (e.tag == Rt_event_Stamp) e_out[i] = make_Rt_event_Stamp(Rt_event_Stamp_v(e));
    else if (e.tag == Rt_event_Big) e_out[i] = make_Rt_event_Big(Rt_event_Big_0(e), Rt_event_Big_1(e));
    else if (e.tag == Rt_event_Cloud) e_out[i] = make_Rt_event_Cloud(Rt_event_Cloud_0(e), Rt_event_Cloud_1(e));
    else e_out[i] = make_Rt_event_Quit();
    Rt_narrow n = n_in[i];
    if (n.tag == Rt_narrow_P) n_out[i] = make_Rt_narrow_P(Rt_narrow_P_0(n), Rt_narrow_P_1(n));
    else if (n.tag == Rt_narrow_Q) n_out[i] = make_Rt_narrow_Q(Rt_narrow_Q_v(n));
    else if (n.tag == Rt_narrow_C) n_out[i] = make_Rt_narrow_C(Rt_narrow_C_0(n), Rt_narrow_C_1(n));
    else n_out[i] = make_Rt_narrow_R();
    b_out[i] = sarek_layout_Rt_body_from_words(sarek_layout_Rt_body_to_words(b_in[i]));
    g_out[i] = sarek_layout_Rt_pair_from_words(sarek_layout_Rt_pair_to_words(g_in[i]));
}
"""

ROUND_TRIP_WGSL = """\
@group(0) @binding(0) var<storage, read> e_in: array<Rt_event>;
@group(0) @binding(1) var<storage, read_write> e_out: array<Rt_event>;
@group(0) @binding(2) var<storage, read> n_in: array<Rt_narrow>;
@group(0) @binding(3) var<storage, read_write> n_out: array<Rt_narrow>;
@group(0) @binding(4) var<storage, read> b_in: array<Rt_body>;
@group(0) @binding(5) var<storage, read_write> b_out: array<Rt_body>;
@group(0) @binding(6) var<storage, read> g_in: array<Rt_pair>;
@group(0) @binding(7) var<storage, read_write> g_out: array<Rt_pair>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    let e = e_in[i];
    if (e.tag == Rt_event_Spawn) { e_out[i] = make_Rt_event_Spawn(Rt_event_Spawn_0(e), Rt_event_Spawn_1(e)); }
    else if (e.tag == Rt_event_Move) { e_out[i] = make_Rt_event_Move(Rt_event_Move_0(e), Rt_event_Move_1(e), Rt_event_Move_2(e)); }
    else if (e.tag == Rt_event_Stamp) { e_out[i] = make_Rt_event_Stamp(Rt_event_Stamp_v(e)); }
    else if (e.tag == Rt_event_Big) { e_out[i] = make_Rt_event_Big(Rt_event_Big_0(e), Rt_event_Big_1(e)); }
    else if (e.tag == Rt_event_Cloud) { e_out[i] = make_Rt_event_Cloud(Rt_event_Cloud_0(e), Rt_event_Cloud_1(e)); }
    else { e_out[i] = make_Rt_event_Quit(); }
    let n = n_in[i];
    if (n.tag == Rt_narrow_P) { n_out[i] = make_Rt_narrow_P(Rt_narrow_P_0(n), Rt_narrow_P_1(n)); }
    else if (n.tag == Rt_narrow_Q) { n_out[i] = make_Rt_narrow_Q(Rt_narrow_Q_v(n)); }
    else if (n.tag == Rt_narrow_C) { n_out[i] = make_Rt_narrow_C(Rt_narrow_C_0(n), Rt_narrow_C_1(n)); }
    else { n_out[i] = make_Rt_narrow_R(); }
    b_out[i] = sarek_layout_Rt_body_from_words(sarek_layout_Rt_body_to_words(b_in[i]));
    g_out[i] = sarek_layout_Rt_pair_from_words(sarek_layout_Rt_pair_to_words(g_in[i]));
}
"""


def _round_trip_values(count: int):
    """``count`` elements of each buffer, constructors in turn, every field distinct (floats
    exact in float32, no denormals or NaNs, whose bits a device may change)."""
    import itertools
    import random

    rnd = random.Random(12)
    i32 = lambda: rnd.randint(-(1 << 31), (1 << 31) - 1)  # noqa: E731
    f32 = lambda: rnd.randint(-(1 << 20), 1 << 20) / 8.0  # noqa: E731
    vec3 = lambda: {"x": f32(), "y": f32(), "z": f32()}  # noqa: E731
    body = lambda: {"pos": vec3(), "vel": vec3(), "mass": rnd.random() * 1e300,  # noqa: E731
                    "alive": rnd.random() < 0.5}
    stamp = lambda: {"when": rnd.randint(-(1 << 63), (1 << 63) - 1), "where_": vec3()}  # noqa: E731
    cloud = lambda: {f"p{k}": vec3() for k in range(12)}  # noqa: E731
    big = lambda: {"b0": body(), "b1": body(), "b2": body(), "s": stamp()}  # noqa: E731
    event = {"Spawn": lambda: (body(), i32()), "Move": lambda: (i32(), vec3(), f32()),
             "Stamp": lambda: (stamp(),), "Quit": lambda: (), "Big": lambda: (i32(), big()),
             "Cloud": lambda: (i32(), cloud())}
    narrow = {"P": lambda: (i32(), vec3()), "Q": lambda: (vec3(),), "R": lambda: (),
              "C": lambda: (i32(), cloud())}

    def each(ctors):
        return [(c, ctors[c]()) for c in itertools.islice(itertools.cycle(ctors), count)]

    return {"event": each(event), "narrow": each(narrow),
            "body": [body() for _ in range(count)],
            "pair": [{"c": cloud(), "g": big()} for _ in range(count)]}


@pytest.mark.parametrize("toolchain", ["vulkan", "webgpu"])
def test_make_and_accessors_round_trip_nested_records(toolchain, tmp_path):
    """``make_<T>_<C>(accessors of v)`` gives back v's bytes, padding zero, for every
    constructor; a record's ``to_words`` then ``from_words`` give back the record. The word
    loops that copy records into and out of payloads run on the device: a wrong first word,
    a wrong count or a wrong half of a two-word element changes bytes."""
    require_toolchain(toolchain)
    from sarek_layout.codegen import render_headers
    from sarek_layout.resolve import load_schema

    (tmp_path / "rt.toml").write_text(ROUND_TRIP_TOML)
    count = 24
    schema = sl.load(str(tmp_path / "rt.toml"))
    values = _round_trip_values(count)
    inputs = [schema.pack(name, values[name]) for name in ("event", "narrow", "body", "pair")]
    target = "glsl" if toolchain == "vulkan" else "wgsl"
    (generated,) = render_headers(load_schema([str(tmp_path / "rt.toml")]), [target])
    if toolchain == "vulkan":
        from sarek_layout.verify.drivers import HeaderSet
        from sarek_layout.verify.drivers.glsl import compile_glsl
        from sarek_layout.verify.drivers.vulkan import run_spirv

        headers = HeaderSet(((generated.filename, generated.text),), (generated.filename,))
        spirv = compile_glsl("glslang", ROUND_TRIP_GLSL, headers)
        buffers = [b for data in inputs for b in (data, len(data))]
        out = run_spirv(spirv, buffers, groups=count)
    else:
        from sarek_layout.verify.drivers.wgsl import run_wgsl

        buffers = [b for data in inputs for b in (data, len(data))]
        out = run_wgsl(generated.text + "\n" + ROUND_TRIP_WGSL, buffers, groups=count)
    for name, data, back in zip(("event", "narrow", "body", "pair"), inputs, out[1::2]):
        assert back == data, (name, schema.unpack(name, back)[:4], schema.unpack(name, data)[:4])
