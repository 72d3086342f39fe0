// Metal kernel of the end-to-end example (Metal Shading Language, including the generated
// telemetry_metal.h): one thread per element reads every field and every constructor argument
// through the union arms, as the CUDA and OpenCL kernels do, and writes the transformed element
// with the generated make_ helpers. MSL has no double: float64 values (uint2 words) are copied.
// There is no Metal compiler on Linux: run_e2e.py only compiles this file with clang++ as a
// proxy (C++14, arm64 Apple target, MSL keywords defined away); Apple's compiler has not seen it.
#include <metal_stdlib>
#include "telemetry_metal.h"
using namespace metal;

static Telemetry_sample transform_sample(Telemetry_sample s)
{
    Telemetry_sample o = s;
    o.id = s.id * 2 + 1;
    o.stamp = s.stamp - s.id;
    o.pos.x = s.pos.y * 2.0f;
    o.pos.y = s.pos.x + 1.0f;
    o.valid = !s.valid;
    return o;
}

static Telemetry_reading transform_reading(Telemetry_reading r)
{
    Telemetry_vec2 p;
    switch (r.tag) {
    case Telemetry_reading_Temp:
        return make_Telemetry_reading_Temp(r.data.Temp_v * 2.0f);
    case Telemetry_reading_Count:
        return make_Telemetry_reading_Count(r.data.Count_v._0 * 2 + r.data.Count_v._1,
                                            r.data.Count_v._1 - 1);
    case Telemetry_reading_Located:
        p.x = r.data.Located_v._0.y;
        p.y = r.data.Located_v._0.x;
        return make_Telemetry_reading_Located(p, r.data.Located_v._1);
    case Telemetry_reading_Flag:
        return make_Telemetry_reading_Flag(!r.data.Flag_v);
    case Telemetry_reading_Missing:
        return make_Telemetry_reading_Flag(1);
    default:
        return make_Telemetry_reading_Temp(-1.0f);
    }
}

kernel void transform(device const Telemetry_sample *samples_in [[buffer(0)]],
                      device Telemetry_sample *samples_out [[buffer(1)]],
                      device const Telemetry_reading *readings_in [[buffer(2)]],
                      device Telemetry_reading *readings_out [[buffer(3)]],
                      constant uint &n [[buffer(4)]],
                      constant ulong *layout_ids [[buffer(5)]],  // the host's: sample, reading
                      device ulong *refused [[buffer(6)]],
                      uint i [[thread_position_in_grid]])
{
    // Data written under another layout than this kernel was built for: refused, not read.
    if (!Telemetry_sample_LAYOUT_OK(layout_ids[0]) || !Telemetry_reading_LAYOUT_OK(layout_ids[1])) {
        if (i == 0)
            refused[0] = 1;
        return;
    }
    if (i < n) {
        samples_out[i] = transform_sample(samples_in[i]);
        readings_out[i] = transform_reading(readings_in[i]);
    }
}
