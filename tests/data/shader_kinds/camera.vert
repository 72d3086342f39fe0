#version 450
// A camera uniform (std140) with two matrices, as every vertex shader sample has one.
struct CameraData {
    mat4 view;
    mat4 proj;
    vec3 eye;
    float time;
};

layout(std140, binding = 0) uniform Camera { CameraData cam; };
layout(location = 0) in vec3 inPos;

void main() {
    gl_Position = cam.proj * cam.view * vec4(inPos + 0.01 * sin(cam.time) * cam.eye, 1.0);
}
