// Every struct of mistakes.toml as it should be written in WGSL: an int64 or a float64
// is kept as its two 32-bit words (vec2<u32>), a bool as an i32 (0 or 1), three floats as
// three members (a vec3<f32> would be aligned to 16).
struct K_v3 { x: f32, y: f32, z: f32 }
struct K_withvec3 { a: f32, p: K_v3, b: f32 }
struct K_withbool { n: i32, flag: i32, m: i32 }
struct K_withf64 { id: i32, value: vec2<u32> }
struct K_ordered { a: i32, b: f32, c: vec2<u32> }
struct K_complete { a: i32, b: i32, c: i32 }
struct K_item { x: f32 }
struct Unrelated { colour: vec4<f32> }
@group(0) @binding(0) var<storage, read_write> items: array<K_item>;
@compute @workgroup_size(1) fn main() { items[0].x = 1.0; }
