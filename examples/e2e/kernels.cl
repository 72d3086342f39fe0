/* OpenCL kernels of the end-to-end example: one work-item per element. Built by run_e2e.py
 * with -I pointing at the generated telemetry.clh and frames.clh and at this folder.
 *
 * The host passes the layout fingerprint its data was written under (layout_id). A kernel
 * built from another version of the schema refuses it, one line, instead of reading garbage:
 * work-item 0 writes the fingerprint the kernel was built for to refused[0]. */
#define E2E_FN static inline
/* A frame's colour is OpenCL C's own float4 (std430's vec4 is its 16 bytes, 16-aligned). */
#define E2E_COMPONENT(v, k) (((float *)&(v))[k])
#include "telemetry.clh"
#include "frames.clh"
#include "transform.h"
#include "frame_transform.h"

__kernel void transform_samples(__global const Telemetry_sample *in, __global Telemetry_sample *out,
                                int n, ulong layout_id, __global ulong *refused)
{
    int i = get_global_id(0);
    if (!Telemetry_sample_LAYOUT_OK(layout_id)) {
        if (i == 0)
            refused[0] = Telemetry_sample_LAYOUT_ID;
        return;
    }
    if (i < n)
        out[i] = transform_sample(in[i]);
}

__kernel void transform_readings(__global const Telemetry_reading *in,
                                 __global Telemetry_reading *out, int n, ulong layout_id,
                                 __global ulong *refused)
{
    int i = get_global_id(0);
    if (!Telemetry_reading_LAYOUT_OK(layout_id)) {
        if (i == 0)
            refused[0] = Telemetry_reading_LAYOUT_ID;
        return;
    }
    if (i < n)
        out[i] = transform_reading(in[i]);
}

__kernel void transform_frames(__global const Frames_frame *in, __global Frames_frame *out, int n,
                               ulong layout_id, __global ulong *refused)
{
    int i = get_global_id(0);
    if (!Frames_frame_LAYOUT_OK(layout_id)) {
        if (i == 0)
            refused[0] = Frames_frame_LAYOUT_ID;
        return;
    }
    if (i < n)
        out[i] = transform_frame(in[i]);
}
