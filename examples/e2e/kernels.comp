// Vulkan kernel of the end-to-end example (GLSL 4.50, compiled to SPIR-V by glslangValidator):
// one invocation per element reads every field of a sample and every argument of a reading
// through telemetry.glsl's structs and accessors, and writes the transformed element with the
// generated make_ functions. The same computation as transform.h (and data.py).
// Binding 4 holds the layout fingerprints the host's data was written under: a kernel built
// from another version of the schema refuses the data (and says which fingerprints it was
// built for) instead of reading garbage.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "telemetry.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer SamplesIn { Telemetry_sample samples_in[]; };
layout(std430, binding = 1) writeonly buffer SamplesOut { Telemetry_sample samples_out[]; };
layout(std430, binding = 2) readonly buffer ReadingsIn { Telemetry_reading readings_in[]; };
layout(std430, binding = 3) writeonly buffer ReadingsOut { Telemetry_reading readings_out[]; };
layout(std430, binding = 4) buffer LayoutCheck {
    uvec2 host_sample_id;     // set by the host: LAYOUT_ID_Telemetry_sample, low word first
    uvec2 host_reading_id;
    uvec2 kernel_sample_id;   // written by a kernel that refuses the host's data
    uvec2 kernel_reading_id;
    uint refused;
};

Telemetry_sample transform_sample(Telemetry_sample s)
{
    return make_Telemetry_sample(s.id * 2 + 1, s.stamp - int64_t(s.id),
                                 s.value * 0.5 + double(s.pos.x),
                                 make_Telemetry_vec2(s.pos.y * 2.0, s.pos.x + 1.0),
                                 s.valid != 0 ? 0 : 1);
}

Telemetry_reading transform_reading(Telemetry_reading r)
{
    switch (r.tag) {
    case Telemetry_reading_Temp:
        return make_Telemetry_reading_Temp(Telemetry_reading_Temp_v(r) * 2.0);
    case Telemetry_reading_Count:
        return make_Telemetry_reading_Count(Telemetry_reading_Count_0(r) * 2 + int64_t(Telemetry_reading_Count_1(r)),
                                            Telemetry_reading_Count_1(r) - 1);
    case Telemetry_reading_Located: {
        Telemetry_vec2 p = Telemetry_reading_Located_0(r);
        return make_Telemetry_reading_Located(make_Telemetry_vec2(p.y, p.x),
                                              Telemetry_reading_Located_1(r) + double(p.x));
    }
    case Telemetry_reading_Flag:
        return make_Telemetry_reading_Flag(Telemetry_reading_Flag_v(r) != 0 ? 0 : 1);
    case Telemetry_reading_Missing:
        return make_Telemetry_reading_Flag(1);
    default: // an unknown tag: a value the checks will never expect
        return make_Telemetry_reading_Temp(-1.0);
    }
}

void main()
{
    if (!Telemetry_sample_LAYOUT_OK(host_sample_id) || !Telemetry_reading_LAYOUT_OK(host_reading_id)) {
        kernel_sample_id = Telemetry_sample_LAYOUT_ID;  // every invocation writes the same
        kernel_reading_id = Telemetry_reading_LAYOUT_ID;
        refused = 1u;
        return;
    }
    uint i = gl_GlobalInvocationID.x;
    if (i < samples_in.length())
        samples_out[i] = transform_sample(samples_in[i]);
    if (i < readings_in.length())
        readings_out[i] = transform_reading(readings_in[i]);
}
