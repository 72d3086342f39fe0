#version 450
// A particle system update, in the style of the Vulkan compute samples.
layout(local_size_x = 256) in;

struct Particle {
    vec4 pos;
    vec4 vel;
    vec4 color;
};

layout(std430, binding = 0) buffer Particles { Particle particles[]; };
layout(push_constant) uniform Params { float deltaT; int count; } params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(params.count)) return;
    particles[i].vel.xyz += vec3(0.0, -9.81, 0.0) * params.deltaT;
    particles[i].pos.xyz += particles[i].vel.xyz * params.deltaT;
    particles[i].color.a = clamp(particles[i].pos.y, 0.0, 1.0);
}
