/* sarek-layout's fake libc: CUDA's vector types (vector_types.h: float4, int2, uchar4, ...)
   with their alignments, for reading a CUDA header (.cuh) as nvcc and NVRTC see it: they
   declare these for every translation unit. Included before a .cuh by verify --header. */
#ifndef _SAREK_FAKE_CUDA_PRELUDE_H
#define _SAREK_FAKE_CUDA_PRELUDE_H
typedef struct char1 { signed char x; } char1;
typedef struct char2 { _Alignas(2) signed char x; signed char y; } char2;
typedef struct char3 { signed char x, y, z; } char3;
typedef struct char4 { _Alignas(4) signed char x; signed char y, z, w; } char4;
typedef struct uchar1 { unsigned char x; } uchar1;
typedef struct uchar2 { _Alignas(2) unsigned char x; unsigned char y; } uchar2;
typedef struct uchar3 { unsigned char x, y, z; } uchar3;
typedef struct uchar4 { _Alignas(4) unsigned char x; unsigned char y, z, w; } uchar4;
typedef struct short1 { short x; } short1;
typedef struct short2 { _Alignas(4) short x; short y; } short2;
typedef struct short3 { short x, y, z; } short3;
typedef struct short4 { _Alignas(8) short x; short y, z, w; } short4;
typedef struct ushort1 { unsigned short x; } ushort1;
typedef struct ushort2 { _Alignas(4) unsigned short x; unsigned short y; } ushort2;
typedef struct ushort3 { unsigned short x, y, z; } ushort3;
typedef struct ushort4 { _Alignas(8) unsigned short x; unsigned short y, z, w; } ushort4;
typedef struct int1 { int x; } int1;
typedef struct int2 { _Alignas(8) int x; int y; } int2;
typedef struct int3 { int x, y, z; } int3;
typedef struct int4 { _Alignas(16) int x; int y, z, w; } int4;
typedef struct uint1 { unsigned int x; } uint1;
typedef struct uint2 { _Alignas(8) unsigned int x; unsigned int y; } uint2;
typedef struct uint3 { unsigned int x, y, z; } uint3;
typedef struct uint4 { _Alignas(16) unsigned int x; unsigned int y, z, w; } uint4;
typedef struct long1 { long x; } long1;
typedef struct long2 { _Alignas(16) long x; long y; } long2;
typedef struct long3 { long x, y, z; } long3;
typedef struct long4 { _Alignas(16) long x; long y, z, w; } long4;
typedef struct ulong1 { unsigned long x; } ulong1;
typedef struct ulong2 { _Alignas(16) unsigned long x; unsigned long y; } ulong2;
typedef struct ulong3 { unsigned long x, y, z; } ulong3;
typedef struct ulong4 { _Alignas(16) unsigned long x; unsigned long y, z, w; } ulong4;
typedef struct longlong1 { long long x; } longlong1;
typedef struct longlong2 { _Alignas(16) long long x; long long y; } longlong2;
typedef struct longlong3 { long long x, y, z; } longlong3;
typedef struct longlong4 { _Alignas(16) long long x; long long y, z, w; } longlong4;
typedef struct ulonglong1 { unsigned long long x; } ulonglong1;
typedef struct ulonglong2 { _Alignas(16) unsigned long long x; unsigned long long y; } ulonglong2;
typedef struct ulonglong3 { unsigned long long x, y, z; } ulonglong3;
typedef struct ulonglong4 { _Alignas(16) unsigned long long x; unsigned long long y, z, w; } ulonglong4;
typedef struct float1 { float x; } float1;
typedef struct float2 { _Alignas(8) float x; float y; } float2;
typedef struct float3 { float x, y, z; } float3;
typedef struct float4 { _Alignas(16) float x; float y, z, w; } float4;
typedef struct double1 { double x; } double1;
typedef struct double2 { _Alignas(16) double x; double y; } double2;
typedef struct double3 { double x, y, z; } double3;
typedef struct double4 { _Alignas(16) double x; double y, z, w; } double4;
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif
