// One classic mistake per struct of mistakes.toml.
struct K_withvec3 { a: f32, p: vec3<f32>, b: f32 }
struct K_withbool { n: i32, flag: bool, m: i32 }
struct K_withf64 { id: i32, value: f32 }
struct K_ordered { b: f32, a: i32, c: vec2<u32> }
struct K_complete { a: i32, c: i32 }
