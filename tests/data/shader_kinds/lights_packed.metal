// The lights with packed_float3 (12 bytes, 4-aligned) and the struct pinned to 16 bytes,
// as std140 aligns it: the host's layout.
#include <metal_stdlib>
using namespace metal;

struct Light {
    alignas(16) packed_float3 position;
    float radius;
    packed_float3 color;
    float intensity;
};

kernel void dim(device Light *lights [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    lights[i].intensity *= 0.5;
}
