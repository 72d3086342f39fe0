#version 450
// The same lights with the float moved after the second vec3: each vec3 is 16-aligned, so
// radius moves from 12 to 28 and the struct grows to 48 bytes in std140.
struct Light {
    vec3 position;
    vec3 color;
    float radius;
    float intensity;
};

layout(std140, binding = 1) uniform Lights { Light lights[8]; int lightCount; } ubo;
layout(location = 0) out vec4 outColor;

void main() { outColor = vec4(ubo.lights[0].color * ubo.lights[0].intensity, ubo.lights[0].radius); }
