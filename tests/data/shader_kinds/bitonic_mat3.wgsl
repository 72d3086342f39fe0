// A bucket whose bounds are written as a vec3: WGSL aligns it to 16, so the struct grows.
struct Bucket {
    keys: array<u32, 16>,
    count: u32,
    material: i32,
    bounds: vec3<f32>,
}

@group(0) @binding(0) var<storage, read_write> buckets: array<Bucket>;

@compute @workgroup_size(1)
fn main() { buckets[0].count = buckets[1].count; }
