// A compute shader in the style of the WebGPU samples: particles and an atomic counter.
struct S_Particle { x: f32, y: f32, vx: f32, vy: f32, life: f32, alive: i32 }
struct S_Counter { count: atomic<u32>, total: atomic<i32> }
struct Params { delta: f32, n: u32 }

@group(0) @binding(0) var<storage, read_write> particles: array<S_Particle>;
@group(0) @binding(1) var<storage, read_write> counter: S_Counter;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= params.n) { return; }
    var p = particles[i];
    p.x += p.vx * params.delta;
    p.y += p.vy * params.delta;
    p.life -= params.delta;
    if (p.life > 0.0) { p.alive = 1; atomicAdd(&counter.count, 1u); } else { p.alive = 0; }
    particles[i] = p;
}
