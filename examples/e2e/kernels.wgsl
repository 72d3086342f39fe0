// WebGPU kernel of the end-to-end example (WGSL, run through wgpu; run_e2e.py puts
// telemetry.wgsl before it, since WGSL has no #include): one invocation per element reads every
// field of a sample and every argument of a reading through the generated structs and
// accessors, and writes the transformed element with the generated make_ functions.
// WGSL has no 64-bit scalars: int64 values are raw words (vec2<u32>) and are computed on with
// the two helpers below; float64 values are copied unchanged (data.py's *_wgsl functions).
// Binding 4 holds the layout fingerprints the host's data was written under: a kernel built
// from another version of the schema refuses the data (and says which fingerprints it was
// built for) instead of reading garbage.

@group(0) @binding(0) var<storage, read> samples_in: array<Telemetry_sample>;
@group(0) @binding(1) var<storage, read_write> samples_out: array<Telemetry_sample>;
@group(0) @binding(2) var<storage, read> readings_in: array<Telemetry_reading>;
@group(0) @binding(3) var<storage, read_write> readings_out: array<Telemetry_reading>;

struct LayoutCheck {
    host_sample_id: vec2<u32>,     // set by the host: LAYOUT_ID_Telemetry_sample, low word first
    host_reading_id: vec2<u32>,
    kernel_sample_id: vec2<u32>,   // written by a kernel that refuses the host's data
    kernel_reading_id: vec2<u32>,
    refused: u32,
}
@group(0) @binding(4) var<storage, read_write> layout_check: LayoutCheck;

// a + b for a 64-bit integer a (low word first) and a 32-bit b.
fn i64_add_i32(a: vec2<u32>, b: i32) -> vec2<u32> {
    let lo = a.x + bitcast<u32>(b);
    let carry = select(0u, 1u, lo < a.x);
    return vec2<u32>(lo, a.y + carry + select(0u, 0xffffffffu, b < 0));
}

fn i64_times2(a: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x << 1u, (a.y << 1u) | (a.x >> 31u));
}

fn transform_sample(s: Telemetry_sample) -> Telemetry_sample {
    return make_Telemetry_sample(s.id * 2 + 1, i64_add_i32(s.stamp, -s.id), s.value,
                                 make_Telemetry_vec2(s.pos.y * 2.0, s.pos.x + 1.0),
                                 select(1, 0, s.valid != 0));
}

fn transform_reading(r: Telemetry_reading) -> Telemetry_reading {
    switch r.tag {
        case Telemetry_reading_Temp: {
            return make_Telemetry_reading_Temp(Telemetry_reading_Temp_v(r) * 2.0);
        }
        case Telemetry_reading_Count: {
            return make_Telemetry_reading_Count(
                i64_add_i32(i64_times2(Telemetry_reading_Count_0(r)), Telemetry_reading_Count_1(r)),
                Telemetry_reading_Count_1(r) - 1);
        }
        case Telemetry_reading_Located: {
            let p = Telemetry_reading_Located_0(r);
            return make_Telemetry_reading_Located(make_Telemetry_vec2(p.y, p.x),
                                                  Telemetry_reading_Located_1(r));
        }
        case Telemetry_reading_Flag: {
            return make_Telemetry_reading_Flag(select(1, 0, Telemetry_reading_Flag_v(r) != 0));
        }
        case Telemetry_reading_Missing: {
            return make_Telemetry_reading_Flag(1);
        }
        default: {
            return make_Telemetry_reading_Temp(-1.0);
        }
    }
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (!Telemetry_sample_LAYOUT_OK(layout_check.host_sample_id)
        || !Telemetry_reading_LAYOUT_OK(layout_check.host_reading_id)) {
        layout_check.kernel_sample_id = Telemetry_sample_LAYOUT_ID;  // every invocation writes the same
        layout_check.kernel_reading_id = Telemetry_reading_LAYOUT_ID;
        layout_check.refused = 1u;
        return;
    }
    let i = id.x;
    if (i < arrayLength(&samples_in)) {
        samples_out[i] = transform_sample(samples_in[i]);
    }
    if (i < arrayLength(&readings_in)) {
        readings_out[i] = transform_reading(readings_in[i]);
    }
}
