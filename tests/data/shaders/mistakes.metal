// One classic mistake per struct of mistakes.toml.
#include <metal_stdlib>
using namespace metal;
struct K_withvec3 { float a; float3 p; float b; };
struct K_withbool { int n; bool flag; int m; };
struct K_withf64 { int id; float value; };
struct K_ordered { float b; int a; long c; };
struct K_complete { int a; int c; };
struct K_withint64 { int a; packed_int2 b; };
