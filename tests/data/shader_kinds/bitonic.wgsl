// A bitonic sort step over buckets of keys, with an atomic count of the swaps.
struct SortParams {
    k: u32,
    j: u32,
    count: atomic<u32>,
    pad: u32,
}

struct Bucket {
    keys: array<u32, 16>,
    count: u32,
    material: i32,
    bounds: vec2<f32>,
}

@group(0) @binding(0) var<storage, read_write> buckets: array<Bucket>;
@group(0) @binding(1) var<storage, read_write> params: SortParams;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let b = id.x / 16u;
    let e = id.x % 16u;
    let partner = e ^ params.j;
    if (partner > e && b < arrayLength(&buckets)) {
        let a = buckets[b].keys[e];
        let c = buckets[b].keys[partner];
        if ((a > c) == ((e & params.k) == 0u)) {
            buckets[b].keys[e] = c;
            buckets[b].keys[partner] = a;
            atomicAdd(&params.count, 1u);
        }
    }
}
