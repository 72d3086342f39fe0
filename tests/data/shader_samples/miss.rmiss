// A miss shader in the style of the Vulkan ray tracing samples.
#version 460
#extension GL_EXT_ray_tracing : require

struct S_Material { uint albedo; float roughness; int texture; uint flags; };
layout(set = 0, binding = 4, std430) readonly buffer Materials { S_Material sky; };
layout(location = 0) rayPayloadInEXT vec3 hitValue;

void main() { hitValue = unpackUnorm4x8(sky.albedo).rgb; }
