// A particle system update, in the style of Apple's Metal compute samples.
#include <metal_stdlib>
using namespace metal;

struct Particle {
    float4 pos;
    float4 vel;
    float4 color;
};

kernel void update(device Particle *particles [[buffer(0)]],
                   constant float &deltaT [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    particles[i].vel.y -= 9.81 * deltaT;
    particles[i].pos += particles[i].vel * deltaT;
}
