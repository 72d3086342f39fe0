// H_light (std430) in a structured buffer, its padding explicit: agrees.
struct H_light {
    float3 dir;
    float power;
    float4 color;
    int ids[2];
    uint _pad0, _pad1;
};
StructuredBuffer<H_light> lights : register(t0);
RWStructuredBuffer<uint> result : register(u0);

[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) { result[id.x] = asuint(lights[id.x].power); }
