// A compute kernel writing a texture, in the style of Apple's image-processing samples.
#include <metal_stdlib>
using namespace metal;

struct S_Material { uint albedo; float roughness; int texture; uint flags; };

kernel void shade(texture2d<float, access::read> inTexture [[texture(0)]],
                  texture2d<float, access::write> outTexture [[texture(1)]],
                  constant S_Material &material [[buffer(0)]],
                  uint2 gid [[thread_position_in_grid]])
{
    if (gid.x >= outTexture.get_width() || gid.y >= outTexture.get_height()) return;
    float4 c = inTexture.read(gid);
    float gray = dot(c.rgb, float3(0.299, 0.587, 0.114));
    outTexture.write(float4(float3(gray * (1.0 - material.roughness)), c.a), gid);
}
