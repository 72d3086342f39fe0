// The frames (frames.toml: a vec4, a float[5] and an enum under std430) on Vulkan: each frame
// transformed as frame_transform.h does it (kernels.cl, kernels.cu and host_check.c), in GLSL
// over the generated frames.glsl; run_e2e.py compares the result with Python's encoding of
// data.transform_frame, byte for byte.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "frames.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { Frames_frame src[]; };
layout(std430, binding = 1) writeonly buffer Dst { Frames_frame dst[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(src.length()))
        return;
    Frames_frame f = src[i];
    Frames_frame o = f; // padding copied too: zero, as Python wrote it
    o.id = f.id * 3 - 1;
    for (int k = 0; k < 4; k++) // the colour reversed and halved
        o.color[k] = f.color[3 - k] * 0.5;
    for (int k = 0; k < 5; k++) // the histogram reversed, each bin plus its index
        o.hist[k] = f.hist[4 - k] + float(k);
    o.level = f.level == Frames_severity_Alarm ? Frames_severity_Quiet : f.level + 1;
    dst[i] = o;
}
