"""The example's data, with nothing but the generated module: what Python writes, and what
every kernel must compute from it (the Python mirror of transform.h).

``host_check.c`` builds the same inputs in C; keep the formulas of the two in step.
"""

from __future__ import annotations

from typing import List

import telemetry_layout as T

Sample = T.Telemetry_sample
Reading = T.Telemetry_reading
Vec2 = T.Telemetry_vec2


def f32(x: float) -> float:
    """``x`` rounded to float32, as a device stores it."""
    import struct

    return float(struct.unpack("=f", struct.pack("=f", x))[0])


def sample(i: int) -> Sample:
    return Sample(id=i * 7 - 3, stamp=(1 << 40) + i * 1000003, value=i * 0.25 - 100.0,
                  pos=Vec2(f32(i * 0.5), f32(-i * 1.5)), valid=i % 3 == 0)


def reading(i: int) -> Reading:
    k = i % 5
    if k == 0:
        return T.Telemetry_reading_Temp(f32(i * 0.5 - 10.0))
    if k == 1:
        return T.Telemetry_reading_Count(-(1 << 35) - i, i * 3)
    if k == 2:
        return T.Telemetry_reading_Located(Vec2(float(i), f32(-i * 0.25)), i * 1e10)
    if k == 3:
        return T.Telemetry_reading_Flag(i % 2 == 0)
    return T.Telemetry_reading_Missing()


def samples(n: int) -> List[Sample]:
    return [sample(i) for i in range(n)]


def readings(n: int) -> List[Reading]:
    return [reading(i) for i in range(n)]


def transform_sample(s: Sample) -> Sample:
    return Sample(id=s.id * 2 + 1, stamp=s.stamp - s.id, value=s.value * 0.5 + s.pos.x,
                  pos=Vec2(f32(s.pos.y * 2.0), f32(s.pos.x + 1.0)), valid=not s.valid)


def transform_reading(r: Reading) -> Reading:
    if isinstance(r, T.Telemetry_reading_Temp):
        return T.Telemetry_reading_Temp(f32(r._0 * 2.0))
    if isinstance(r, T.Telemetry_reading_Count):
        return T.Telemetry_reading_Count(r._0 * 2 + r._1, r._1 - 1)
    if isinstance(r, T.Telemetry_reading_Located):
        return T.Telemetry_reading_Located(Vec2(r._0.y, r._0.x), r._1 + r._0.x)
    if isinstance(r, T.Telemetry_reading_Flag):
        return T.Telemetry_reading_Flag(not r._0)
    return T.Telemetry_reading_Flag(True)


# --- WebGPU (kernels.wgsl): WGSL has no 64-bit float, so float64 values are copied as words ---


def transform_sample_wgsl(s: Sample) -> Sample:
    t = transform_sample(s)
    return Sample(id=t.id, stamp=t.stamp, value=s.value, pos=t.pos, valid=t.valid)


def transform_reading_wgsl(r: Reading) -> Reading:
    if isinstance(r, T.Telemetry_reading_Located):
        return T.Telemetry_reading_Located(Vec2(r._0.y, r._0.x), r._1)
    return transform_reading(r)


# --- frames (frames.toml): a vec4, a float[5] and an enum, under the std430 rules ---------------


def frames_module():
    """The generated frames_layout module (imported when the frames are used)."""
    import frames_layout

    return frames_layout


def frame(i: int):
    F = frames_module()
    return F.Frames_frame(id=i * 5 - 7,
                          color=(f32(i * 0.25), f32(-i * 0.5), f32(1.0 + i), f32(i * 0.125)),
                          hist=tuple(f32(i + k * 0.5) for k in range(5)),
                          level=F.Frames_severity(i % 3))


def frames(n: int) -> list:
    return [frame(i) for i in range(n)]


def transform_frame(f):
    """frame_transform.h in Python: the colour reversed and halved, the histogram reversed
    with each bin plus its index, the severity one step up (Alarm back to Quiet)."""
    F = frames_module()
    level = (F.Frames_severity.Quiet if f.level == F.Frames_severity.Alarm
             else F.Frames_severity(f.level + 1))
    return F.Frames_frame(id=f.id * 3 - 1, color=tuple(f32(f.color[3 - k] * 0.5) for k in range(4)),
                          hist=tuple(f32(f.hist[4 - k] + k) for k in range(5)), level=level)
