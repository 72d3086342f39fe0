// A uniform buffer of K_item: WGSL's uniform address space rounds array strides to 16.
struct K_item { x: f32 }
struct Params { items: array<K_item, 4> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() { o[0] = params.items[1].x; }
