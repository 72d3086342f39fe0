#version 450
// A Vulkan sample's indirect command in a uniform block, one word after it (issue 33): the
// host writes the C struct (after at 20); std140 rounds the struct up to 32 bytes.
layout(local_size_x = 1) in;

struct IndexedIndirectCommand {
    uint indexCount;
    uint instanceCount;
    uint firstIndex;
    int vertexOffset;
    uint firstInstance;
};

layout(std140, binding = 0) uniform Extra { IndexedIndirectCommand cmd; uint after; };
layout(std430, binding = 1) buffer Out { uint sum; };

void main() { sum = cmd.indexCount + after; }
