// A particle system update, in the style of the WebGPU compute boids sample.
struct Particle {
    pos: vec4<f32>,
    vel: vec4<f32>,
    color: vec4<f32>,
}

struct SimParams {
    deltaT: f32,
    count: u32,
}

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read_write> particles: array<Particle>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= params.count) { return; }
    var p = particles[i];
    p.vel = p.vel + vec4<f32>(0.0, -9.81, 0.0, 0.0) * params.deltaT;
    p.pos = p.pos + p.vel * params.deltaT;
    particles[i] = p;
}
