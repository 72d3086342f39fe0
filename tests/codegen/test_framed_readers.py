"""Framed data end to end: Python's ``pack_framed`` writes the files, a compiled C program
(the ``.h``'s ``SAREK_LAYOUT_READ_FRAMED``) and a compiled Rust program (``T::read_framed``)
read them and print what they found, which the test compares with the values written.

Both refuse data without the header, data written under another layout of the type (a
``point`` of ``float64`` fields, same C name) and a file cut one byte short; an empty frame
is zero elements; C also refuses elements that are not aligned for the type (it reads them in
place). docs/fingerprint.md describes the format and both readers.

The Rust reader also reads SPEC §1b's member kinds (a ``vec4``, a ``float[5]``, an enum, a
``mat4`` and padded ``vec3`` elements) from std430 particles that Python wrote at glslang's
offsets (tests/helpers/host_kinds.py), value by value.
"""

from __future__ import annotations

import pathlib

import pytest

import sarek_layout as sl
from helpers.bounded import run_cpu_bounded
from helpers import host_kinds
from helpers.common import EXAMPLES, require_toolchain
from helpers.compile import STRICT
from helpers.rust import compile_crate
from sarek_layout.codegen import render_headers
from sarek_layout.layout.fingerprint import layout_id_hex
from sarek_layout.resolve import load_schema

GEOMETRY = str(EXAMPLES / "geometry.toml")

POINTS = [{"x": 1.5, "y": -2.25}, {"x": 1e-3, "y": 4096.0}, {"x": -0.0, "y": 3.0e38}]
SHAPES = [("Circle", (POINTS[0], 0.5)), ("Weighted", (-1.0 / 3.0, -5)), ("Empty", ()),
          ("Rect", (POINTS[1], POINTS[2]))]

#: The files the readers are given (written by the ``framed`` fixture).
FILES = ("points.bin", "shapes.bin", "empty.bin", "other.bin", "cut.bin", "bare.bin")


@pytest.fixture(scope="module")
def framed(tmp_path_factory):
    """The framed files, and the two layout ids of ``point`` (this schema's, the other's)."""
    folder = tmp_path_factory.mktemp("framed")
    schema = sl.load(GEOMETRY)
    other_toml = folder / "geometry.toml"  # point with float64 fields: same C name, new layout
    other_toml.write_text(pathlib.Path(GEOMETRY).read_text().replace(
        '["x", "float32"], ["y", "float32"]', '["x", "float64"], ["y", "float64"]'))
    other = sl.load(str(other_toml))
    assert other.layout_id("point") != schema.layout_id("point")
    points = schema.pack_framed("point", POINTS)
    (folder / "points.bin").write_bytes(points)
    (folder / "shapes.bin").write_bytes(schema.pack_framed("shape", SHAPES))
    (folder / "empty.bin").write_bytes(schema.pack_framed("point", []))
    (folder / "other.bin").write_bytes(other.pack_framed("point", POINTS))
    (folder / "cut.bin").write_bytes(points[:-1])
    (folder / "bare.bin").write_bytes(schema.pack("point", POINTS))
    return folder, schema.layout_id("point"), other.layout_id("point")


def _g(v: float) -> str:
    return repr(float(v))


def _expected_points(values) -> list:
    import struct

    # float32 fields: what a float32 holds of each value.
    f32 = [struct.unpack("<f", struct.pack("<f", v))[0] for p in values for v in (p["x"], p["y"])]
    return [f"point {_g(f32[i])} {_g(f32[i + 1])}" for i in range(0, len(f32), 2)]


def _expected_shapes() -> list:
    import struct

    def f32(v):
        return struct.unpack("<f", struct.pack("<f", v))[0]

    out = []
    for name, args in SHAPES:
        if name == "Circle":
            out.append(f"Circle {_g(f32(args[0]['x']))} {_g(f32(args[0]['y']))} {_g(f32(args[1]))}")
        elif name == "Rect":
            a, b = args
            out.append("Rect " + " ".join(_g(f32(v)) for v in (a["x"], a["y"], b["x"], b["y"])))
        elif name == "Weighted":
            out.append(f"Weighted {_g(args[0])} {args[1]}")
        else:
            out.append("Empty")
    return out


def _normalised(lines) -> list:
    """Each number printed as Python's repr of its float: C's ``%.17g`` and Rust's ``{:?}``
    spell one value differently (``-0`` and ``-0.0``), and the values are what is compared."""
    def word(w: str) -> str:
        try:
            return _g(float(w))
        except ValueError:
            return w

    return [" ".join(word(w) for w in line.split()) for line in lines]


# --- C ---------------------------------------------------------------------------------------

_C_PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "geometry.h"

static unsigned char *load(const char *path, size_t *size, size_t shift)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        exit(2);
    buf = (unsigned char *)malloc((size_t)n + shift + 1);
    if (!buf || fread(buf + shift, 1, (size_t)n, f) != (size_t)n)
        exit(2);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static void points(const char *path, size_t shift)
{
    size_t size, n, i;
    int status;
    unsigned char *buf = load(path, &size, shift);
    const Geometry_point *p = SAREK_LAYOUT_READ_FRAMED(Geometry_point, buf + shift, size, &n, &status);
    if (!p) {
        printf("refused %d %s\n", status, sarek_layout_framed_problem(status));
    } else {
        printf("count %lu\n", (unsigned long)n);
        for (i = 0; i < n; i++)
            printf("point %.17g %.17g\n", (double)p[i].x, (double)p[i].y);
    }
    free(buf);
}

static void shapes(const char *path)
{
    size_t size, n, i;
    int status;
    unsigned char *buf = load(path, &size, 0);
    const Geometry_shape *s = SAREK_LAYOUT_READ_FRAMED(Geometry_shape, buf, size, &n, &status);
    if (!s) {
        printf("refused %d %s\n", status, sarek_layout_framed_problem(status));
        exit(1);
    }
    printf("count %lu\n", (unsigned long)n);
    for (i = 0; i < n; i++) {
        const Geometry_shape *v = &s[i];
        switch (v->tag) {
        case Geometry_shape_Circle:
            printf("Circle %.17g %.17g %.17g\n", (double)v->data.Circle_v._0.x,
                   (double)v->data.Circle_v._0.y, (double)v->data.Circle_v._1);
            break;
        case Geometry_shape_Rect:
            printf("Rect %.17g %.17g %.17g %.17g\n", (double)v->data.Rect_v._0.x,
                   (double)v->data.Rect_v._0.y, (double)v->data.Rect_v._1.x,
                   (double)v->data.Rect_v._1.y);
            break;
        case Geometry_shape_Weighted:
            printf("Weighted %.17g %d\n", v->data.Weighted_v._0, (int)v->data.Weighted_v._1);
            break;
        default:
            printf("Empty\n");
        }
    }
    free(buf);
}

int main(void)
{
    points("points.bin", 0);
    shapes("shapes.bin");
    points("empty.bin", 0);
    points("other.bin", 0);
    points("cut.bin", 0);
    points("bare.bin", 0);
    points("points.bin", 1);
    return 0;
}
"""


def _c_expected():
    return (["count 3", *_expected_points(POINTS), "count 4", *_expected_shapes(), "count 0",
             "refused 2", "refused 3", "refused 1", "refused 4"])


@pytest.mark.parametrize("toolchain", ["gcc", "g++", "gcc-m32", "clang"])
def test_a_c_program_reads_what_python_framed(toolchain, framed, tmp_path):
    tc = require_toolchain(toolchain)
    folder, _, _ = framed
    for name in FILES:
        (tmp_path / name).write_bytes((folder / name).read_bytes())
    headers = render_headers(load_schema([GEOMETRY]), ["c"])
    (tmp_path / "geometry.h").write_text(headers[0].text)
    source = tmp_path / ("reader.cpp" if tc.language == "c++" else "reader.c")
    source.write_text(_C_PROGRAM)
    built = run_cpu_bounded([*tc.argv, *STRICT, str(source), "-o", str(tmp_path / "reader")],
                            cpu_s=60, cwd=tmp_path, text=True)
    assert built.returncode == 0, built.stderr
    ran = run_cpu_bounded([str(tmp_path / "reader")], cpu_s=10, cwd=tmp_path, text=True)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    # A refusal's status, then its words (checked apart: the words are for people).
    statuses = [" ".join(ln.split()[:2]) if ln.startswith("refused") else ln for ln in lines]
    assert _normalised(statuses) == _normalised(_c_expected())
    words = [ln.split(" ", 2)[2] for ln in lines if ln.startswith("refused")]
    assert words[0].startswith("the data was written under another layout")
    assert "fewer elements" in words[1] and "SAREKLID" in words[2] and "aligned" in words[3]


# --- Rust ------------------------------------------------------------------------------------

_RUST_BODY = r"""
    fn points(bytes: &[u8]) {
        match Geometry_point::read_framed(bytes) {
            Ok(elements) => {
                let all: Vec<Geometry_point> = elements.collect::<Result<_, _>>().unwrap();
                println!("count {}", all.len());
                for p in all { println!("point {:?} {:?}", p.x as f64, p.y as f64); }
            }
            Err(e) => println!("refused {:?}", e),
        }
    }
    points(include_bytes!("points.bin"));
    let shapes: Vec<Geometry_shape> = Geometry_shape::read_framed(include_bytes!("shapes.bin"))
        .unwrap().collect::<Result<_, _>>().unwrap();
    println!("count {}", shapes.len());
    for s in shapes {
        match s.view() {
            Geometry_shape_View::Circle(c, r) =>
                println!("Circle {:?} {:?} {:?}", c.x as f64, c.y as f64, r as f64),
            Geometry_shape_View::Rect(a, b) => println!("Rect {:?} {:?} {:?} {:?}",
                a.x as f64, a.y as f64, b.x as f64, b.y as f64),
            Geometry_shape_View::Weighted(w, n) => println!("Weighted {:?} {}", w, n),
            Geometry_shape_View::Empty => println!("Empty"),
        }
    }
    points(include_bytes!("empty.bin"));
    println!("{}", sarek_test_hex(&include_bytes!("empty.bin")[..8]));
    points(include_bytes!("other.bin"));
    points(include_bytes!("cut.bin"));
    points(include_bytes!("bare.bin"));
    // A tag no constructor has, in framed data: refused when that element is read.
    let mut bad = include_bytes!("shapes.bin").to_vec();
    bad[24..28].copy_from_slice(&9i32.to_ne_bytes());
    let read: Vec<_> = Geometry_shape::read_framed(&bad).unwrap().collect();
    println!("refused {:?}", read[0].unwrap_err());
    println!("{}", Geometry_point::read_framed(include_bytes!("other.bin")).err().unwrap());
"""


def test_a_rust_program_reads_what_python_framed(framed, tmp_path):
    require_toolchain("rustc")
    folder, ours, theirs = framed
    for name in FILES:
        (tmp_path / name).write_bytes((folder / name).read_bytes())
    modules = {f.filename: f.text for f in render_headers(load_schema([GEOMETRY]), ["rust"])}
    built, ran = compile_crate(tmp_path, modules, _RUST_BODY, run=True)
    assert built.returncode == 0, built.stderr
    assert ran.returncode == 0, ran.stderr
    size = len(POINTS) * 8
    expected = [
        "count 3", *_expected_points(POINTS), "count 4", *_expected_shapes(), "count 0",
        b"SAREKLID".hex(),
        f'refused Layout {{ type_name: "Geometry_point", expected: {ours}, found: {theirs} }}',
        f'refused Count {{ type_name: "Geometry_point", count: 3, found: {size - 1} }}',
        'refused Header { type_name: "Geometry_point" }',
        'refused Tag { type_name: "Geometry_shape", tag: 9 }',
        f"Geometry_point: the data was written under layout 0x{theirs:016x}, but this "
        f"program's Geometry_point has layout 0x{ours:016x}: the schema changed since it was "
        f"written",
    ]
    assert _normalised(ran.stdout.splitlines()) == _normalised(expected)


def test_a_rust_program_reads_python_framed_member_kinds_value_by_value(tmp_path):
    """std430 particles that Python wrote at glslang's offsets and strides: ``read_framed``
    checks the header and reads each; every value (vector components, array elements, the
    matrix's columns, the padded vec3 elements' components, the enum's integer, one of them a
    value the enum does not name) is the one written, and ``to_bytes`` gives back each
    element's bytes exactly."""
    require_toolchain("rustc")
    require_toolchain("glslang")
    schema = load_schema([host_kinds.write_schema(tmp_path)])
    (particle,) = schema.find("particle")
    data = host_kinds.framed_bytes(int(layout_id_hex(particle), 16), tmp_path)
    (tmp_path / "particles.bin").write_bytes(data)
    values = ", ".join(f'format!("{{}}", {p})' if p == "p.kind.0"
                       else f'format!("{{:?}}", {p} as f64)' for p in host_kinds.paths("rust"))
    body = f"""
    let data = include_bytes!("particles.bin");
    let size = Host_particle::SIZE;
    for (i, p) in Host_particle::read_framed(data).unwrap().enumerate() {{
        let p = p.unwrap();
        let values: Vec<String> = vec![{values}];
        println!("{{}}", values.join(" "));
        let element = &data[24 + i * size..24 + (i + 1) * size];
        assert!(p.to_bytes()[..] == element[..], "{{}}", sarek_test_hex(&[]));
    }}
"""
    modules = {f.filename: f.text for f in render_headers(schema, ["rust"])}
    built, ran = compile_crate(tmp_path, modules, body, run=True)
    assert built.returncode == 0, built.stderr[-4000:]
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == host_kinds.expected_lines()
