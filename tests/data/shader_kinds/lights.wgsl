// Point lights and the camera in uniform buffers, as the WebGPU samples declare them: WGSL's
// own layout of a vec3 followed by an f32 is std140's and std430's.
struct Light {
    position: vec3<f32>,
    radius: f32,
    color: vec3<f32>,
    intensity: f32,
}

struct Lights {
    lights: array<Light, 8>,
    count: u32,
}

struct CameraData {
    view: mat4x4<f32>,
    proj: mat4x4<f32>,
    eye: vec3<f32>,
    time: f32,
}

@group(0) @binding(0) var<uniform> camera: CameraData;
@group(0) @binding(1) var<uniform> lights: Lights;

@fragment
fn fs_main(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>) -> @location(0) vec4<f32> {
    var color = vec3<f32>(0.0);
    for (var i = 0u; i < lights.count; i++) {
        let l = lights.lights[i].position - pos;
        let d = length(l);
        let att = clamp(1.0 - d / lights.lights[i].radius, 0.0, 1.0);
        color += lights.lights[i].color * lights.lights[i].intensity * att * max(dot(normalize(normal), l / d), 0.0);
    }
    return vec4<f32>(color + 0.0 * camera.eye * camera.time, 1.0);
}
