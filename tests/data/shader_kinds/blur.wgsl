// A blur kernel and a colour ramp in uniform buffers. The ramp's stops are written as
// `generate -t wgsl` writes std140's float array: each element a struct padded to 16
// bytes, which is also what a uniform buffer requires of an array's stride.
struct Kernel {
    weights: array<vec4<f32>, 2>,
    count: u32,
}

struct Ramp_stops_elem { @size(16) v: f32, }

struct Ramp {
    stops: array<Ramp_stops_elem, 4>,
    tint: vec4<f32>,
}

@group(0) @binding(0) var<uniform> kernel: Kernel;
@group(0) @binding(1) var<uniform> ramp: Ramp;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    var sum = 0.0;
    for (var i = 0u; i < kernel.count; i++) { sum += kernel.weights[i / 4u][i % 4u] * ramp.stops[i % 4u].v; }
    out[0] = sum * ramp.tint.a;
}
