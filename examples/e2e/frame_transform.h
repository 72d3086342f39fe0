/* The computation every consumer applies to a frame (frames.toml: a vec4, a float[5] and an
 * enum): the OpenCL kernel (kernels.cl), the CUDA kernel (kernels.cu) and the C host check
 * (host_check.c) include this file after their generated frames header and define E2E_FN
 * (their function qualifiers) and E2E_COMPONENT(v, k), component k of a vector member as their
 * language reaches it: an array of floats in C, CUDA's and OpenCL C's own float4 in kernels.
 * data.py computes the same in Python. */
#ifndef E2E_FRAME_TRANSFORM_H
#define E2E_FRAME_TRANSFORM_H

E2E_FN Frames_frame transform_frame(Frames_frame f)
{
    Frames_frame o = f; /* padding copied too: zero, as Python wrote it */
    int k;
    o.id = f.id * 3 - 1;
    for (k = 0; k < 4; k++) /* the colour reversed and halved */
        E2E_COMPONENT(o.color, k) = E2E_COMPONENT(f.color, 3 - k) * 0.5f;
    for (k = 0; k < 5; k++) /* the histogram reversed, each bin plus its index */
        o.hist[k] = f.hist[4 - k] + (float)k;
    o.level = f.level == Frames_severity_Alarm ? Frames_severity_Quiet
                                               : (Frames_severity)(f.level + 1);
    return o;
}

#endif /* E2E_FRAME_TRANSFORM_H */
