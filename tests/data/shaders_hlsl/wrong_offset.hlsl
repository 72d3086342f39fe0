// color before power: power at 28 where the schema has 12, color at 12 where it has 16.
struct H_light {
    float3 dir;
    float4 color;
    float power;
    int ids[2];
    uint _pad0, _pad1;
};
StructuredBuffer<H_light> lights : register(t0);
