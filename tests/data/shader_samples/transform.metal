// A vertex and compute kernel in the style of Apple's Metal samples: matrices, dot, floor,
// fract, vector constructors.
#include <metal_stdlib>
using namespace metal;

struct S_Vertex { float px; float py; float pz; float u; float v; };

struct Uniforms { float4x4 modelViewProjection; float3x3 normalMatrix; float time; };

struct VertexOut { float4 position [[position]]; float2 uv; float shade; };

vertex VertexOut vertex_main(const device S_Vertex *vertices [[buffer(0)]],
                             constant Uniforms &u [[buffer(1)]], uint vid [[vertex_id]])
{
    S_Vertex v = vertices[vid];
    float3 p = float3(v.px, v.py, v.pz);
    VertexOut out;
    out.position = u.modelViewProjection * float4(p, 1.0);
    float3 n = normalize(u.normalMatrix * p);
    out.shade = max(dot(n, float3(0.0, 0.0, 1.0)), 0.0);
    out.uv = fract(float2(v.u, v.v) + floor(u.time));
    return out;
}

kernel void scroll(device S_Vertex *vertices [[buffer(0)]], constant Uniforms &u [[buffer(1)]],
                   uint gid [[thread_position_in_grid]])
{
    float2 uv = float2(vertices[gid].u, vertices[gid].v);
    uv = fract(uv + float2(u.time * 0.1));
    vertices[gid].u = clamp(uv.x, 0.0f, 1.0f);
    vertices[gid].v = mix(uv.y, 1.0f - uv.y, step(0.5f, u.time));
}
