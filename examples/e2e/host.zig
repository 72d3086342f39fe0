//! The Zig host of the end-to-end example: fills buffers of the example's records and
//! variants with the generated telemetry.zig only (record literals, make_ helpers), with
//! the formulas of data.py and host_check.c. run_e2e.py builds it as a shared library
//! (zig build-lib -dynamic), calls sarek_e2e_fill, and compares the bytes with Python's;
//! host_check.c then checks them against the values it builds in C.
const T = @import("telemetry.zig");

fn f32_of(x: f64) f32 {
    return @floatCast(x);
}

/// An integer as data.py's arithmetic sees it: -i is negated as an integer first, so
/// -0 * 1.5 is +0.0 there (and in host_check.c), never -0.0.
fn float(x: i64) f64 {
    return @floatFromInt(x);
}

fn sample(i: u32) T.Telemetry_sample {
    const fi: f64 = @floatFromInt(i);
    const ii: i64 = i;
    return .{
        .id = @intCast(ii * 7 - 3),
        .stamp = (1 << 40) + ii * 1000003,
        .value = fi * 0.25 - 100.0,
        .pos = .{ .x = f32_of(fi * 0.5), .y = f32_of(float(-ii) * 1.5) },
        .valid = @intFromBool(i % 3 == 0),
    };
}

fn reading(i: u32) T.Telemetry_reading {
    const fi: f64 = @floatFromInt(i);
    const ii: i64 = i;
    return switch (i % 5) {
        0 => T.make_Telemetry_reading_Temp(f32_of(fi * 0.5 - 10.0)),
        1 => T.make_Telemetry_reading_Count(-(1 << 35) - ii, @intCast(ii * 3)),
        2 => T.make_Telemetry_reading_Located(.{ .x = f32_of(fi), .y = f32_of(float(-ii) * 0.25) }, fi * 1e10),
        3 => T.make_Telemetry_reading_Flag(@intFromBool(i % 2 == 0)),
        else => T.make_Telemetry_reading_Missing(),
    };
}

/// Fills ``n`` samples and ``n`` readings; the caller owns both buffers.
export fn sarek_e2e_fill(n: u32, samples: [*]T.Telemetry_sample, readings: [*]T.Telemetry_reading) void {
    var i: u32 = 0;
    while (i < n) : (i += 1) {
        samples[i] = sample(i);
        readings[i] = reading(i);
    }
}

/// The fingerprints the Zig host writes its data under (docs/fingerprint.md).
export fn sarek_e2e_layout_id(which: u32) u64 {
    return if (which == 0) T.Telemetry_sample_LAYOUT_ID else T.Telemetry_reading_LAYOUT_ID;
}
