// A fragment shader including a header shared with the host (Apple's ShaderTypes.h pattern).
#include <metal_stdlib>
using namespace metal;
#include "ShaderTypes.h"

struct RasterizerData { float4 position [[position]]; float4 color; };

vertex RasterizerData vertexShader(uint vertexID [[vertex_id]],
                                   constant ColoredVertex *vertices [[buffer(BufferIndexVertices)]])
{
    RasterizerData out;
    out.position = float4(vertices[vertexID].position, 0.0, 1.0);
    out.color = vertices[vertexID].color;
    return out;
}

fragment float4 fragmentShader(RasterizerData in [[stage_in]],
                               constant S_Material *materials [[buffer(BufferIndexMaterials)]])
{
    S_Material m = materials[0];
    return in.color * (1.0 - m.roughness);
}
