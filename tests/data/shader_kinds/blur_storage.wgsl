// The weights as a plain array<f32, 4> in a storage buffer: WGSL packs them 4 bytes apart,
// where the schema's std140 rules space them 16 bytes apart.
struct Weights {
    w: array<f32, 4>,
    count: u32,
    scale: vec4<f32>,
}

@group(0) @binding(0) var<storage, read> weights: Weights;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() { out[0] = weights.w[0] * weights.scale.x + f32(weights.count); }
