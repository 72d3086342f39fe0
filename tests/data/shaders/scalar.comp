// K_withvec3 with a vec3, in a layout(scalar) buffer only: there a vec3 is aligned to 4, as
// the schema's three floats are (GL_EXT_scalar_block_layout), so it agrees.
#version 450
#extension GL_EXT_scalar_block_layout : require
struct K_withvec3 { float a; vec3 p; float b; };
layout(scalar, binding = 0) buffer Items { K_withvec3 items[]; };
layout(local_size_x = 1) in;
void main() { items[0].a = 1.0; }
