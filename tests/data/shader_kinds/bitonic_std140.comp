#version 450
// The buckets in a uniform block: std140 spaces the keys 16 bytes apart (the schema's 4).
layout(local_size_x = 64) in;

struct Bucket {
    uint keys[16];
    uint count;
    int material;
    vec2 bounds;
};

layout(std140, binding = 0) uniform Buckets { Bucket buckets[4]; };
layout(std430, binding = 1) buffer Out { uint sum; };

void main() { sum = buckets[0].keys[3] + buckets[1].count; }
