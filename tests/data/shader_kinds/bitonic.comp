#version 450
// A bitonic sort step over buckets of keys, in the style of the GPU sorting samples.
layout(local_size_x = 64) in;

struct SortParams {
    uint k;
    uint j;
    uint count;
    uint pad;
};

struct Bucket {
    uint keys[16];
    uint count;
    int material;
    vec2 bounds;
};

layout(std430, binding = 0) buffer Buckets { Bucket buckets[]; };
layout(std430, binding = 1) readonly buffer Params { SortParams params; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint b = i / 16u, e = i % 16u, partner = e ^ params.j;
    if (partner > e && b < params.count) {
        uint a = buckets[b].keys[e], c = buckets[b].keys[partner];
        bool up = (e & params.k) == 0u;
        if ((a > c) == up) { buckets[b].keys[e] = c; buckets[b].keys[partner] = a; }
    }
}
