// A fragment shader in the style of the wgpu texture-arrays example: a binding_array of
// textures indexed by a material read from a storage buffer.
struct S_Material { albedo: u32, roughness: f32, texture: i32, flags: u32 }

@group(0) @binding(0) var textures: binding_array<texture_2d<f32>, 8>;
@group(0) @binding(1) var samp: sampler;
@group(0) @binding(2) var<storage, read> materials: array<S_Material>;

@fragment
fn fs(@location(0) uv: vec2<f32>, @location(1) @interpolate(flat) index: u32) -> @location(0) vec4<f32> {
    let m = materials[index];
    return textureSample(textures[m.texture], samp, uv) * unpack4x8unorm(m.albedo);
}
