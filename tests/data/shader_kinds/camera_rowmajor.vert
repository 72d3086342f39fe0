#version 450
// The camera block declared row_major: its matrices are stored row by row, where the schema's
// (and the host's) are column-major. Same offsets, same strides, transposed values.
struct CameraData {
    mat4 view;
    mat4 proj;
    vec3 eye;
    float time;
};

layout(std140, row_major, binding = 0) uniform Camera { CameraData cam; };
layout(location = 0) in vec3 inPos;

void main() { gl_Position = cam.proj * cam.view * vec4(inPos + cam.time * cam.eye, 1.0); }
