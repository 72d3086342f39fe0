// The text says REAL; a macro makes vertex_offset a double, which is what Slang built.
#define REAL double
struct H_cmd {
    uint index_count;
    uint instance_count;
    uint first_index;
    REAL vertex_offset;
    uint first_instance;
};
StructuredBuffer<H_cmd> cmds : register(t0);
