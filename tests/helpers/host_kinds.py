"""Particles for the host end-to-end tests of SPEC §1b's member kinds: a Vulkan storage buffer
of std430 particles (a ``vec4``, a ``vec3`` whose tail holds the next float, a ``float[5]``, an
enum, a ``mat4`` and a ``vec3[2]`` whose elements are padded to 16 bytes), written by Python and
read back, value by value, by a compiled Rust or Zig program using the generated module.

The bytes are the test's own: Python's ``struct`` at the offsets and strides that glslang gives
the same struct (``kinds_oracle.measure_glsl``, read from its SPIR-V by spirv-cross), framed
as ``pack_framed`` frames data (docs/fingerprint.md: ``SAREKLID``, the layout id, the count,
little-endian). Nothing here comes from the package's layout: only the type's ``layout_id``,
which the readers check.
"""

from __future__ import annotations

import json
import pathlib
import struct
from typing import Dict, List, Tuple

from helpers import kinds_oracle

SCHEMA = {"module": "Host", "rules": "std430", "types": [
    {"enum": "material", "values": [["Lambert", 0], ["Metal", 1], ["Glass", 2]]},
    {"record": "particle", "fields": [
        ["pos", "vec4<float32>"], ["vel", "vec3<float32>"], ["mass", "float32"],
        ["weights", "float32[5]"], ["kind", "material"], ["xform", "mat4"],
        ["trail", "vec3<float32>[2]"]]}]}

#: The same struct as GLSL declares it (kinds_oracle's description; the enum is its int).
GLSL_STRUCT = ("particle", [
    ("pos", ("vec", 4, "float32")), ("vel", ("vec", 3, "float32")),
    ("mass", ("scalar", "float32")), ("weights", ("array", ("scalar", "float32"), 5)),
    ("kind", ("scalar", "int32")), ("xform", ("mat", 4, 4, "float32")),
    ("trail", ("array", ("vec", 3, "float32"), 2))])

#: Each value of a particle: (name in the test, the member, the indices, enum or float).
#: Floats are exact in f32 (k + i/8), so every language prints them alike.
COUNT = 3


def write_schema(folder: pathlib.Path) -> str:
    path = folder / "host.json"
    path.write_text(json.dumps(SCHEMA))
    return str(path)


def _scalars(i: int) -> List[Tuple[str, Tuple[int, ...], float]]:
    """``(member, indices, value)`` of every scalar of particle ``i``."""
    k = 10.0 * (i + 1)
    out = [("pos", (c,), k + c / 8) for c in range(4)]
    out += [("vel", (c,), -k - c / 8) for c in range(3)]
    out += [("mass", (), k / 4)]
    out += [("weights", (w,), w + i / 8) for w in range(5)]
    out += [("kind", (), [2, 0, 7][i % 3])]  # 7: a value the enum does not name
    out += [("xform", (c, r), c * 4 + r + i) for c in range(4) for r in range(4)]
    out += [("trail", (e, c), k + e + c / 4) for e in range(2) for c in range(3)]
    return out


def particles() -> List[List[Tuple[str, Tuple[int, ...], float]]]:
    return [_scalars(i) for i in range(COUNT)]


def framed_bytes(layout_id: int, workdir: pathlib.Path) -> bytes:
    """The particles as ``pack_framed`` frames them, each at glslang's std430 offsets."""
    measured = kinds_oracle.measure_glsl([GLSL_STRUCT], "std430", workdir)["particle"]
    size = measured.size
    out = bytearray(b"SAREKLID" + struct.pack("<QQ", layout_id, COUNT) + bytes(size * COUNT))
    for i, values in enumerate(particles()):
        base = 24 + i * size
        for member, indices, value in values:
            at = base + measured.offsets[member]
            if member == "weights":
                at += indices[0] * measured.strides[member]
            elif member == "xform":  # columns matrix_stride apart, then the rows' floats
                at += indices[0] * measured.strides[member] + 4 * indices[1]
            elif member == "trail":  # elements array_stride apart, then the components
                at += indices[0] * measured.strides[member] + 4 * indices[1]
            elif indices:
                at += 4 * indices[0]
            struct.pack_into("<i" if member == "kind" else "<f", out, at, value)
    return bytes(out)


def expected_lines() -> List[str]:
    """What a reader prints: one line per particle, every value in order, floats as
    ``repr`` of a float (exact: k + i/8 is a short decimal), the enum as its integer."""
    return [" ".join(str(int(v)) if m == "kind" else repr(float(v)) for m, _, v in values)
            for values in particles()]


def paths(language: str) -> List[str]:
    """Every value of one particle ``p`` as ``language`` (``rust``, ``zig``) reads it from the
    generated type: the member, its indices, ``.v`` into a padded element, the enum's integer."""
    out = []
    for member, indices, _ in particles()[0]:
        index = "".join(f"[{i}]" for i in indices)
        if member == "trail":
            index = f"[{indices[0]}].v[{indices[1]}]"
        if member == "kind":
            out.append("p.kind.0" if language == "rust" else "@intFromEnum(p.kind)")
        else:
            out.append(f"p.{member}{index}")
    return out


def counts() -> Dict[str, int]:
    return {"values": len(particles()[0]), "particles": COUNT}
