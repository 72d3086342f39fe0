/* sarek-layout's fake libc: the scalar types OpenCL C has built in, for reading an OpenCL C
   header (.clh) with the C preprocessor and pycparser. Sizes never matter here. */
#ifndef _SAREK_FAKE_OPENCL_PRELUDE_H
#define _SAREK_FAKE_OPENCL_PRELUDE_H
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned long size_t;
typedef short half;
/* OpenCL C's vector types (float4, int2, uchar4, ...), aligned to their size (a
   3-component one to 4 components'). */
typedef struct char2 { _Alignas(2) char x; char y; } char2;
typedef struct char3 { _Alignas(4) char x; char y, z; } char3;
typedef struct char4 { _Alignas(4) char x; char y, z, w; } char4;
typedef struct uchar2 { _Alignas(2) uchar x; uchar y; } uchar2;
typedef struct uchar3 { _Alignas(4) uchar x; uchar y, z; } uchar3;
typedef struct uchar4 { _Alignas(4) uchar x; uchar y, z, w; } uchar4;
typedef struct short2 { _Alignas(4) short x; short y; } short2;
typedef struct short3 { _Alignas(8) short x; short y, z; } short3;
typedef struct short4 { _Alignas(8) short x; short y, z, w; } short4;
typedef struct ushort2 { _Alignas(4) ushort x; ushort y; } ushort2;
typedef struct ushort3 { _Alignas(8) ushort x; ushort y, z; } ushort3;
typedef struct ushort4 { _Alignas(8) ushort x; ushort y, z, w; } ushort4;
typedef struct int2 { _Alignas(8) int x; int y; } int2;
typedef struct int3 { _Alignas(16) int x; int y, z; } int3;
typedef struct int4 { _Alignas(16) int x; int y, z, w; } int4;
typedef struct uint2 { _Alignas(8) uint x; uint y; } uint2;
typedef struct uint3 { _Alignas(16) uint x; uint y, z; } uint3;
typedef struct uint4 { _Alignas(16) uint x; uint y, z, w; } uint4;
typedef struct long2 { _Alignas(16) long x; long y; } long2;
typedef struct long3 { _Alignas(32) long x; long y, z; } long3;
typedef struct long4 { _Alignas(32) long x; long y, z, w; } long4;
typedef struct ulong2 { _Alignas(16) ulong x; ulong y; } ulong2;
typedef struct ulong3 { _Alignas(32) ulong x; ulong y, z; } ulong3;
typedef struct ulong4 { _Alignas(32) ulong x; ulong y, z, w; } ulong4;
typedef struct float2 { _Alignas(8) float x; float y; } float2;
typedef struct float3 { _Alignas(16) float x; float y, z; } float3;
typedef struct float4 { _Alignas(16) float x; float y, z, w; } float4;
typedef struct double2 { _Alignas(16) double x; double y; } double2;
typedef struct double3 { _Alignas(32) double x; double y, z; } double3;
typedef struct double4 { _Alignas(32) double x; double y, z, w; } double4;
#endif
