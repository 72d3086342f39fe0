// Every struct of mistakes.toml as it should be written in Metal.
#include <metal_stdlib>
using namespace metal;
struct K_v3 { float x; float y; float z; };
struct K_withvec3 { float a; packed_float3 p; float b; };
struct K_withbool { int n; int flag; int m; };
typedef struct { int id; alignas(8) uint2 value; } K_withf64;
struct K_ordered { int a; float b; long c; };
struct K_complete { int a; int b; int c; };
struct K_item { float x; };
struct Unrelated { float4 colour; };
kernel void touch(device K_item *items [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    items[i].x = 1.0f;
}
