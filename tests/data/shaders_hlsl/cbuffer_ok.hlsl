// H_frame (hlsl-cbuffer) in a cbuffer and a ConstantBuffer, and H_cmd (c) in a cbuffer where
// the registers keep its bytes (its 20 bytes, then `after` packed into its last register):
// all agree.
struct H_frame {
    float4x4 view;
    float3 eye;
    float exposure;
    float weights[3];
    float2 tint;
};
struct H_cmd {
    uint index_count;
    uint instance_count;
    uint first_index;
    int vertex_offset;
    uint first_instance;
};
cbuffer PerFrame : register(b0) { H_frame frame; };
ConstantBuffer<H_frame> previous : register(b1);
cbuffer Extra : register(b2) { H_cmd cmd; uint after; };
RWStructuredBuffer<float> result : register(u0);

[numthreads(1, 1, 1)]
void CSMain() { result[0] = frame.exposure + previous.tint.x + cmd.index_count + after; }
