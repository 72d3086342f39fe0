#version 450
// The scalar schema's vertices read from a std430 buffer: std430 aligns each vec3 to 16, so
// the normal moves to 16 and a vertex strides 48 bytes.
layout(local_size_x = 64) in;

struct Vertex {
    vec3 pos;
    vec3 normal;
    vec2 uv;
};

layout(std430, binding = 0) readonly buffer Vertices { Vertex vertices[]; };
layout(std430, binding = 1) buffer Out { vec4 bounds; };

void main() { bounds = vec4(vertices[gl_GlobalInvocationID.x].pos, vertices[0].uv.x); }
