/* The computation every consumer of the example applies: the OpenCL kernels (kernels.cl),
 * the CUDA kernels (kernels.cu) and the C host check (host_check.c) include this file after
 * the generated header of their language, and define E2E_FN first (their function
 * qualifiers). Each function reads every member of its input and builds a new element from
 * them; data.py computes the same in Python, so any disagreement on the layout shows up.
 */
#ifndef E2E_TRANSFORM_H
#define E2E_TRANSFORM_H

E2E_FN Telemetry_sample transform_sample(Telemetry_sample s)
{
    Telemetry_sample o = s; /* padding members are copied too: zero, as Python wrote them */
    o.id = s.id * 2 + 1;
    o.stamp = s.stamp - s.id;
    o.value = s.value * 0.5 + s.pos.x;
    o.pos.x = s.pos.y * 2.0f;
    o.pos.y = s.pos.x + 1.0f;
    o.valid = !s.valid;
    return o;
}

E2E_FN Telemetry_reading transform_reading(Telemetry_reading r)
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
        return make_Telemetry_reading_Located(p, r.data.Located_v._1 + (double)r.data.Located_v._0.x);
    case Telemetry_reading_Flag:
        return make_Telemetry_reading_Flag(!r.data.Flag_v);
    case Telemetry_reading_Missing:
        return make_Telemetry_reading_Flag(1);
    default: /* an unknown tag: a value the checks will never expect */
        return make_Telemetry_reading_Temp(-1.0f);
    }
}

#endif /* E2E_TRANSFORM_H */
