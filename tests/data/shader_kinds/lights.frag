#version 450
// Forward shading with a uniform array of point lights (std140), as in the Vulkan samples.
struct Light {
    vec3 position;
    float radius;
    vec3 color;
    float intensity;
};

layout(std140, binding = 1) uniform Lights {
    Light lights[8];
    int lightCount;
} ubo;

layout(location = 0) in vec3 inPos;
layout(location = 1) in vec3 inNormal;
layout(location = 0) out vec4 outColor;

void main() {
    vec3 color = vec3(0.0);
    for (int i = 0; i < ubo.lightCount; i++) {
        vec3 l = ubo.lights[i].position - inPos;
        float d = length(l);
        float att = clamp(1.0 - d / ubo.lights[i].radius, 0.0, 1.0);
        color += ubo.lights[i].color * ubo.lights[i].intensity * att * max(dot(normalize(inNormal), l / d), 0.0);
    }
    outColor = vec4(color, 1.0);
}
