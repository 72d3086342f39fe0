// Every struct of mistakes.toml as it should be written in GLSL (std430 buffers).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
struct K_v3 { float x; float y; float z; };
struct K_withvec3 { float a; K_v3 p; float b; };
struct K_withbool { int n; int flag; int m; };
struct K_withf64 { int id; double value; };
struct K_ordered { int a; float b; int64_t c; };
struct K_complete { int a; int b; int c; };
struct K_item { float x; };
struct Unrelated { vec4 colour; };
layout(std430, binding = 0) buffer Items { K_item items[]; };
layout(local_size_x = 1) in;
void main() { items[0].x = 1.0; }
