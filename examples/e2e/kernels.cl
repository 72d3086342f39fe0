/* OpenCL kernels of the end-to-end example: one work-item per element. Built by run_e2e.py
 * with -I pointing at the generated telemetry.clh and at this folder. */
#define E2E_FN static inline
#include "telemetry.clh"
#include "transform.h"

__kernel void transform_samples(__global const Telemetry_sample *in, __global Telemetry_sample *out,
                                int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = transform_sample(in[i]);
}

__kernel void transform_readings(__global const Telemetry_reading *in,
                                 __global Telemetry_reading *out, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = transform_reading(in[i]);
}
