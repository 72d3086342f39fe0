// The camera uniform: float4x4 matrices, then the eye as packed_float3 so that time follows it
// at byte 140 (a float3 eye would push it to 144).
#include <metal_stdlib>
using namespace metal;

struct CameraData {
    float4x4 view;
    float4x4 proj;
    packed_float3 eye;
    float time;
};

struct Bucket {
    uint keys[16];
    uint count;
    int material;
    float2 bounds;
};

vertex float4 vs(constant CameraData &cam [[buffer(0)]], const device Bucket *b [[buffer(1)]],
                 uint vid [[vertex_id]]) {
    return cam.proj * cam.view * float4(float3(cam.eye) * cam.time + float(b[0].keys[vid % 16]), 1.0);
}
