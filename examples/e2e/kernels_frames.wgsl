// The frames (frames.toml: a vec4, a float[5] and an enum under std430) on wgpu, after the
// generated frames.wgsl: each frame transformed as frame_transform.h does it (kernels.cl,
// kernels.cu and host_check.c); run_e2e.py compares the result with Python's encoding of
// data.transform_frame, byte for byte.
@group(0) @binding(0) var<storage, read> src: array<Frames_frame>;
@group(0) @binding(1) var<storage, read_write> dst: array<Frames_frame>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= arrayLength(&src)) {
        return;
    }
    let f = src[i];
    var o = f; // padding copied too: zero, as Python wrote it
    o.id = f.id * 3 - 1;
    for (var k = 0; k < 4; k++) { // the colour reversed and halved
        o.color[k] = f.color[3 - k] * 0.5;
    }
    for (var k = 0; k < 5; k++) { // the histogram reversed, each bin plus its index
        o.hist[k] = f.hist[4 - k] + f32(k);
    }
    o.level = select(f.level + 1, Frames_severity_Quiet, f.level == Frames_severity_Alarm);
    dst[i] = o;
}
