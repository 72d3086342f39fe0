// H_frame is laid out for constant buffers (hlsl-cbuffer: weights 16 bytes apart); a
// structured buffer packs it by its scalars: reported at the buffer.
struct H_frame {
    float4x4 view;
    float3 eye;
    float exposure;
    float weights[3];
    float2 tint;
};
RWStructuredBuffer<H_frame> frames : register(u0);

[numthreads(1, 1, 1)]
void CSMain() { frames[0].exposure = 1.0; }
