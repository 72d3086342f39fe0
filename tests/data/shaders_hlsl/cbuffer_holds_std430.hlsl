// H_light is laid out for a structured buffer (std430); a cbuffer puts each element of its
// ids array on a 16-byte register: reported at the cbuffer.
struct H_light {
    float3 dir;
    float power;
    float4 color;
    int ids[2];
    uint _pad0, _pad1;
};
cbuffer Lights : register(b0) { H_light sun; };
RWStructuredBuffer<int> result : register(u0);

[numthreads(1, 1, 1)]
void CSMain() { result[0] = sun.ids[1]; }
