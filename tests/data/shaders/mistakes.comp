// One classic mistake per struct of mistakes.toml.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
struct K_withvec3 { float a; vec3 p; float b; };
struct K_withbool { int n; bool flag; int m; };
struct K_withf64 { int id; float value; };
struct K_ordered { float b; int a; int64_t c; };
struct K_complete { int a; int c; };
struct K_item { float x; };
layout(std140, binding = 0) uniform Params { K_item items[4]; };
layout(local_size_x = 1) in;
void main() { }
