// A closest-hit shader in the style of the Vulkan ray tracing samples: the hit triangle's
// vertices and material read from storage buffers.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_nonuniform_qualifier : enable

struct S_Vertex { float px; float py; float pz; float u; float v; };
struct S_Material { uint albedo; float roughness; int texture; uint flags; };

layout(location = 0) rayPayloadInEXT vec3 hitValue;
hitAttributeEXT vec2 attribs;

layout(set = 0, binding = 2, std430) readonly buffer Vertices { S_Vertex vertices[]; };
layout(set = 0, binding = 3, std430) readonly buffer Indices { uint indices[]; };
layout(set = 0, binding = 4, std430) readonly buffer Materials { S_Material materials[]; };

vec3 position(uint i) { S_Vertex v = vertices[indices[i]]; return vec3(v.px, v.py, v.pz); }

void main()
{
    const vec3 bary = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
    uint base = 3 * gl_PrimitiveID;
    vec3 p = position(base) * bary.x + position(base + 1) * bary.y + position(base + 2) * bary.z;
    S_Material m = materials[gl_InstanceCustomIndexEXT];
    hitValue = unpackUnorm4x8(m.albedo).rgb * (1.0 - m.roughness) + 0.0 * p;
}
