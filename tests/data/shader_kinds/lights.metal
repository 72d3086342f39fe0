// Point lights as Metal samples often write them: a float3 and a float. MSL's float3 is 16
// bytes, so radius lands at 16, where std140 (and the host's vec3 + float) put it at 12.
#include <metal_stdlib>
using namespace metal;

struct Light {
    float3 position;
    float radius;
    float3 color;
    float intensity;
};

fragment float4 shade(constant Light *lights [[buffer(0)]], float3 p [[stage_in]]) {
    float3 l = lights[0].position - p;
    return float4(lights[0].color * lights[0].intensity * saturate(1.0 - length(l) / lights[0].radius), 1.0);
}
