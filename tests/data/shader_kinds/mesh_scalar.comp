#version 450
#extension GL_EXT_scalar_block_layout : require
// Vertices pulled from a scalar storage buffer: 32 bytes each, the normal at 12.
layout(local_size_x = 64) in;

struct Vertex {
    vec3 pos;
    vec3 normal;
    vec2 uv;
};

layout(scalar, binding = 0) readonly buffer Vertices { Vertex vertices[]; };
layout(std430, binding = 1) buffer Out { vec4 bounds; };

void main() { bounds = vec4(vertices[gl_GlobalInvocationID.x].pos, vertices[0].uv.x); }
