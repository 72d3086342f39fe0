#version 450
#extension GL_GOOGLE_include_directive : require
// The std140 uniform block of uniforms.toml, as a Vulkan compute shader reads it: every
// member's words copied to a storage buffer, which uniforms.py compares with the values the
// host wrote.
layout(local_size_x = 1) in;

#include "uniforms.glsl"

layout(std140, binding = 0) uniform Params { Uniforms_params params; };
layout(std430, binding = 1) buffer Out { uint words[]; };

void main() {
    for (int i = 0; i < 3; ++i) words[i] = floatBitsToUint(params.tint[i]);
    words[3] = floatBitsToUint(params.gain);
    for (int i = 0; i < 4; ++i) words[4 + i] = floatBitsToUint(params.weights[i]);
    words[8] = floatBitsToUint(params.offset.x);
    words[9] = floatBitsToUint(params.offset.y);
    words[10] = params.blend == Uniforms_mode_Add ? 1u : 0u;
    words[11] = params.frame;
}
