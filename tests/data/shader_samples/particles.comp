// A compute shader in the style of the Vulkan compute samples: particles in a storage buffer.
#version 450

struct S_Particle { float x; float y; float vx; float vy; float life; int alive; };

layout(std430, binding = 0) buffer Particles { S_Particle particles[]; };
layout(binding = 1) uniform UBO { float deltaT; int count; } ubo;
layout(local_size_x = 256) in;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= ubo.count) return;
    S_Particle p = particles[i];
    p.x += p.vx * ubo.deltaT;
    p.y += p.vy * ubo.deltaT;
    p.life -= ubo.deltaT;
    p.alive = p.life > 0.0 ? 1 : 0;
    particles[i] = p;
}
