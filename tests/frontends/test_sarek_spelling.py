"""Code written against Sarek's own kernels compiles against the generated headers.

Sarek's CUDA, OpenCL and Metal emitters (the shared ``gen_variant_def``) store a constructor's
one argument directly in the union (``union { float Value_v; } data;``, read
``v.data.Value_v``) and several as a struct of ``_0``, ``_1`` (``v.data.Pair_v._1``); the
tag is ``v.tag``. The only difference is the tag constants: Sarek's bare ``Red`` would clash
between types sharing a header, so ours are ``<C name>_Red`` (README: "From Sarek's kernels").
Each kernel below is compiled by the real compiler of its language.
"""

from __future__ import annotations

import subprocess

import pytest

from helpers.common import require_toolchain
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema

SCHEMA = """\
type point = { x : float32; y : float32 } [@@sarek.type]
type shape =
  | Empty
  | Value of float32
  | Pair of int32 * float64
  | At of point
[@@sarek.type]
"""

# The body every language shares: Sarek's access paths, our tag constants.
BODY = """
    float acc = 0.0f;
    if (v.tag == Shapes_shape_Value) acc += v.data.Value_v;
    if (v.tag == Shapes_shape_Pair) acc += (float)v.data.Pair_v._0 + (float)v.data.Pair_v._1;
    if (v.tag == Shapes_shape_At) acc += v.data.At_v.x * v.data.At_v.y;
    if (v.tag == Shapes_shape_Empty) acc = -1.0f;
"""

SOURCES = {
    "gcc": ('#include "shapes.h"\nfloat total(Shapes_shape v)\n{' + BODY + "    return acc;\n}\n"
            "Shapes_shape one(void) { return make_Shapes_shape_Value(2.0f); }\n", ".c"),
    "g++": ('#include "shapes.h"\nfloat total(Shapes_shape v)\n{' + BODY + "    return acc;\n}\n", ".cpp"),
    "nvcc": ('#include "shapes.cuh"\n__global__ void total(const Shapes_shape *in, float *out)\n{\n'
             "    Shapes_shape v = in[threadIdx.x];" + BODY + "    out[threadIdx.x] = acc;\n}\n", ".cu"),
    "clang-opencl": ('#include "shapes.clh"\n__kernel void total(__global const Shapes_shape *in, '
                     "__global float *out)\n{\n    Shapes_shape v = in[get_global_id(0)];" + BODY
                     + "    out[get_global_id(0)] = acc;\n}\n", ".cl"),
}


@pytest.mark.parametrize("toolchain", sorted(SOURCES))
def test_a_kernel_in_sareks_spelling_compiles(tmp_path, toolchain):
    tc = require_toolchain(toolchain)
    schema_path = tmp_path / "shapes.ml"
    schema_path.write_text(SCHEMA)
    for f in render_headers(load_schema([str(schema_path)]), [tc.target]):
        (tmp_path / f.filename).write_text(f.text)
    source, suffix = SOURCES[toolchain]
    src = tmp_path / f"kernel{suffix}"
    src.write_text(source)
    if tc.language == "opencl":
        cmd = [*tc.argv, "-Werror", "-fsyntax-only", f"-I{tmp_path}", str(src)]
    elif tc.language == "cuda":
        cmd = [*tc.argv, f"-I{tmp_path}", str(src), "-o", str(tmp_path / "k.o")]
    else:
        cmd = [*tc.argv, "-Wall", "-Werror", "-c", f"-I{tmp_path}", str(src), "-o",
               str(tmp_path / "k.o")]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, f"$ {' '.join(cmd)}\n{proc.stderr}"


def test_the_old_wrapped_spelling_no_longer_compiles(tmp_path):
    """The test can fail: ``v.data.Value_v._0`` (one argument wrapped in a struct, as this
    tool used to emit) is refused by the compiler."""
    tc = require_toolchain("gcc")
    schema_path = tmp_path / "shapes.ml"
    schema_path.write_text(SCHEMA)
    for f in render_headers(load_schema([str(schema_path)]), ["c"]):
        (tmp_path / f.filename).write_text(f.text)
    src = tmp_path / "old.c"
    src.write_text('#include "shapes.h"\nfloat f(Shapes_shape v) { return v.data.Value_v._0; }\n')
    proc = subprocess.run([*tc.argv, "-c", f"-I{tmp_path}", str(src), "-o", str(tmp_path / "o.o")],
                          capture_output=True, text=True)
    assert proc.returncode != 0 and "_0" in proc.stderr
