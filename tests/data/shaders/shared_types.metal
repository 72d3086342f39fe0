// The header-shared-with-the-host pattern (Apple's ShaderTypes.h): simd/simd.h's names.
// simd_float3 is 16 bytes and 16-aligned in MSL, so it moves b where the schema has 3 floats.
#include <simd/simd.h>
struct K_withvec3 { float a; simd_float3 p; float b; };
