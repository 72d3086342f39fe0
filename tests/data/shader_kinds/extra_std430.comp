#version 450
// The same command and word in a storage buffer: std430 keeps the C layout (after at 20).
layout(local_size_x = 1) in;

struct IndexedIndirectCommand {
    uint indexCount;
    uint instanceCount;
    uint firstIndex;
    int vertexOffset;
    uint firstInstance;
};

layout(std430, binding = 0) buffer Extra { IndexedIndirectCommand cmd; uint after; };

void main() { after = cmd.indexCount; }
