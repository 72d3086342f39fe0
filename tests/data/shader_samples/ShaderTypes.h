// A header shared between Metal shaders and C code, in the style of Apple's samples.
#ifndef ShaderTypes_h
#define ShaderTypes_h

#ifdef __METAL_VERSION__
#define NS_ENUM(_type, _name) enum _name : _type _name; enum _name : _type
#define NSInteger metal::int32_t
#else
#import <Foundation/Foundation.h>
#endif

#include <simd/simd.h>

typedef NS_ENUM(NSInteger, BufferIndex)
{
    BufferIndexVertices = 0,
    BufferIndexMaterials = 1,
};

typedef struct
{
    uint32_t albedo;
    float roughness;
    int32_t texture;
    uint32_t flags;
} S_Material;

typedef struct
{
    vector_float2 position;
    vector_float4 color;
} ColoredVertex;

#endif
