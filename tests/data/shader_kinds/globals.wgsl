// Per-frame globals in a uniform buffer, as WebGPU samples declare them: WGSL's uniform
// space lays the sun (a vec3 and an f32) in 16 bytes and the count right after it.
struct Sun {
    dir: vec3<f32>,
    power: f32,
}

struct Globals {
    mvp: mat4x4<f32>,
    sun: Sun,
    count: u32,
    weights: array<vec4<f32>, 2>,
}

@group(0) @binding(0) var<uniform> globals: Globals;

@vertex
fn vs_main(@location(0) pos: vec3<f32>) -> @builtin(position) vec4<f32> {
    let w = globals.weights[globals.count % 2u].x * globals.sun.power;
    return globals.mvp * vec4<f32>(pos * w, 1.0);
}
