"""Every target's layout fingerprint is ``layout --json``'s, compiled and read back: the value a
compiler or runtime computes from the generated constant, never the text of the file.

C and C++ run a program that prints each ``<c_name>_LAYOUT_ID``; CUDA's host pass runs the same
and its device pass (``nvcc -ptx``) initialises a ``__device__`` array from them, read back from
the PTX; OpenCL C is compiled by clang to LLVM IR (an initialised ``__constant`` array) and runs
on PoCL; GLSL (glslang to SPIR-V) and WGSL (naga) run on lavapipe and write the two words of
each fingerprint, and what ``<c_name>_LAYOUT_OK`` says of it and of a wrong one, into a buffer;
Metal goes through the proxy (clang++ for arm64 Apple) to LLVM IR; Python imports the module;
the TypeScript companions are compiled by tsc and read by Node.
Each part skips when its toolchain is missing (and fails in CI, like the other toolchains).
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from helpers.common import EXAMPLES, require_toolchain
from sarek_layout.cli.main import main
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema

#: Records, variants, int64 members (GLSL then has the 64-bit constant too), two modules.
SCHEMAS = [EXAMPLES / "geometry.toml", EXAMPLES / "e2e" / "telemetry.toml"]


@pytest.fixture(scope="module")
def expected() -> Dict[str, int]:
    """``layout --json``'s fingerprints, by C name, as the command prints them."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["layout", "--json", *map(str, SCHEMAS)]) == 0
    types = json.loads(out.getvalue())["types"]
    return {t["c_name"]: int(t["layout_id"], 16) for t in types}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    schema = load_schema([str(p) for p in SCHEMAS])
    targets = ["c", "cuda", "opencl", "python", "glsl", "wgsl", "metal"]
    for f in render_headers(schema, targets):
        (out / f.filename).write_text(f.text)
    return out


def _run(argv: List[str], cwd: Path) -> str:
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{' '.join(argv)}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _printed(output: str) -> Dict[str, int]:
    return {name: int(value) for name, value in (line.split() for line in output.splitlines())}


def _print_program(names, header_of, include: str, printf: str) -> str:
    lines = [include] + [f'#include "{h}"' for h in header_of] + ["int main(void) {"]
    lines += [f'    {printf}("{n} %llu\\n", (unsigned long long){n}_LAYOUT_ID);' for n in names]
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def _ir_array(ir: str, name: str) -> List[int]:
    """The ``i64`` initialiser of LLVM IR global ``name``."""
    match = re.search(rf"^@{name}\s*=.*?\[\d+ x i64\]\s*\[(.*?)\]", ir, re.M)
    assert match, ir[-3000:]
    return [int(v.split()[1]) % 2 ** 64 for v in match.group(1).split(",")]


# --- the C family ------------------------------------------------------------------------------


@pytest.mark.parametrize("toolchain, compiler, flags, suffix", [
    ("gcc", "gcc", ["-std=c11", "-Wall", "-Werror"], ".c"),
    ("g++", "g++", ["-std=c++11", "-Wall", "-Werror", "-x", "c++"], ".c"),
    ("gcc-m32", "gcc", ["-m32", "-std=c11", "-Wall", "-Werror"], ".c"),
])
def test_c_and_cpp_programs_print_the_json_values(toolchain, compiler, flags, suffix, expected,
                                                  generated, tmp_path):
    require_toolchain(toolchain)
    source = tmp_path / f"ids{suffix}"
    source.write_text(_print_program(expected, ["geometry.h", "telemetry.h"],
                                     "#include <stdio.h>", "printf"))
    _run([compiler, *flags, f"-I{generated}", str(source), "-o", str(tmp_path / "ids")], tmp_path)
    assert _printed(_run([str(tmp_path / "ids")], tmp_path)) == expected


def test_layout_ok_of_the_c_header(expected, generated, tmp_path):
    """The check a host or kernel runs: true for its own fingerprint, false for any other."""
    require_toolchain("gcc")
    names = list(expected)
    body = "\n".join(f'    printf("%d %d\\n", {n}_LAYOUT_OK({n}_LAYOUT_ID), '
                     f'{n}_LAYOUT_OK({n}_LAYOUT_ID ^ 1));' for n in names)
    (tmp_path / "ok.c").write_text('#include <stdio.h>\n#include "geometry.h"\n'
                                   '#include "telemetry.h"\nint main(void) {\n' + body +
                                   "\n    return 0;\n}\n")
    _run(["gcc", "-std=c11", "-Wall", "-Werror", f"-I{generated}", "ok.c", "-o", "ok"], tmp_path)
    assert _run(["./ok"], tmp_path).split() == ["1", "0"] * len(names)


def test_cuda_host_and_device_passes(expected, generated, tmp_path):
    require_toolchain("nvcc")
    names = list(expected)
    source = _print_program(names, ["geometry.cuh", "telemetry.cuh"], "#include <cstdio>",
                            "std::printf")
    source += ("__device__ const unsigned long long sarek_ids[] = {"
               + ", ".join(f"{n}_LAYOUT_ID" for n in names) + "};\n"
               "__global__ void sarek_touch(unsigned long long *out, int i) { out[0] = sarek_ids[i]; }\n")
    (tmp_path / "ids.cu").write_text(source)
    _run(["nvcc", f"-I{generated}", "ids.cu", "-o", "ids"], tmp_path)
    assert _printed(_run(["./ids"], tmp_path)) == expected  # the host pass
    _run(["nvcc", f"-I{generated}", "-ptx", "ids.cu", "-o", "ids.ptx"], tmp_path)
    ptx = (tmp_path / "ids.ptx").read_text()
    # ptxas spells the initialiser as 64-bit words or as its bytes (little-endian).
    match = re.search(r"\.(u64|b8) \w*sarek_ids\w*\[\d+\] = \{([^}]*)\}", ptx)
    assert match, ptx[:3000]
    values = [int(v) for v in match.group(2).split(",")]
    if match.group(1) == "b8":
        values = list(struct.unpack(f"<{len(values) // 8}Q", bytes(values)))
    assert values == [expected[n] for n in names]


_CL_KERNEL = "__kernel void sarek_ids_out(__global ulong *out) { out[get_global_id(0)] = sarek_ids[get_global_id(0)]; }\n"


def _opencl_source(names) -> str:
    return ('#include "geometry.clh"\n#include "telemetry.clh"\n'
            "__constant ulong sarek_ids[] = {" + ", ".join(f"{n}_LAYOUT_ID" for n in names)
            + "};\n" + _CL_KERNEL)


def test_opencl_c_by_clang(expected, generated, tmp_path):
    require_toolchain("clang-opencl")
    names = list(expected)
    (tmp_path / "ids.cl").write_text(_opencl_source(names))
    ir = _run(["clang", "-x", "cl", "-cl-std=CL1.2", "-S", "-emit-llvm", "-o", "-",
               f"-I{generated}", "ids.cl"], tmp_path)
    assert _ir_array(ir, "sarek_ids") == [expected[n] for n in names]


def test_opencl_c_on_pocl(expected, generated, tmp_path):
    require_toolchain("pocl")
    import numpy as np
    import pyopencl as cl

    names = list(expected)
    platform = next(p for p in cl.get_platforms() if "portable" in p.name.lower()
                    or "pocl" in p.name.lower())
    ctx = cl.Context([platform.get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, _opencl_source(names)).build(options=[f"-I{generated}"])
    out = np.zeros(len(names), np.uint64)
    buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
    program.sarek_ids_out(queue, (len(names),), None, buf)
    cl.enqueue_copy(queue, out, buf)
    queue.finish()
    assert [int(v) for v in out] == [expected[n] for n in names]


def test_metal_through_the_proxy(expected, generated, tmp_path):
    require_toolchain("metal-proxy")
    from sarek_layout.verify.drivers.metal import METAL_PROXY_ARGS, METAL_SHIM

    names = list(expected)
    (tmp_path / "metal_stdlib").write_text(METAL_SHIM + "namespace metal {}\n")
    (tmp_path / "ids.metal").write_text(
        '#include <metal_stdlib>\n#include "geometry_metal.h"\n#include "telemetry_metal.h"\n'
        "extern const unsigned long sarek_ids[] = {" + ", ".join(f"{n}_LAYOUT_ID" for n in names)
        + "};\n" + "extern const int sarek_ok[] = {"
        + ", ".join(f"{n}_LAYOUT_OK({n}_LAYOUT_ID), {n}_LAYOUT_OK(0)" for n in names) + "};\n")
    ir = _run([*METAL_PROXY_ARGS, "-S", "-emit-llvm", "-o", "-", f"-I{tmp_path}",
               f"-I{generated}", "ids.metal"], tmp_path)
    assert _ir_array(ir, "sarek_ids") == [expected[n] for n in names]
    ok = re.search(r"^@sarek_ok\s*=.*?\[\d+ x i32\]\s*\[(.*?)\]", ir, re.M)
    assert ok and [int(v.split()[1]) for v in ok.group(1).split(",")] == [1, 0] * len(names)


# --- the shader languages: run on lavapipe -------------------------------------------------------


def _words(names) -> int:
    return 4 * len(names) * 4  # per type: the two words, LAYOUT_OK of it, of a wrong one


def _read_back(data: bytes, names) -> Dict[str, int]:
    got = {}
    words = struct.unpack(f"<{4 * len(names)}I", data[:_words(names)])
    for k, n in enumerate(names):
        lo, hi, ok, wrong = words[4 * k:4 * k + 4]
        assert (ok, wrong) == (1, 0), n
        got[n] = lo | hi << 32
    return got


def test_glsl_on_lavapipe(expected, generated, tmp_path):
    require_toolchain("glslang")
    require_toolchain("vulkan")
    from sarek_layout.verify.drivers.vulkan import run_spirv

    names = list(expected)
    # telemetry.glsl has int64 members, so it enables 64-bit integers and also declares its
    # types' fingerprints as uint64_t (<c_name>_LAYOUT_ID64); geometry.glsl does not.
    wide_names = [n for n in names if n.startswith("Telemetry_")]
    body = "\n".join(
        f"    out_words[{4 * k}] = {n}_LAYOUT_ID.x; out_words[{4 * k + 1}] = {n}_LAYOUT_ID.y;\n"
        f"    out_words[{4 * k + 2}] = {n}_LAYOUT_OK({n}_LAYOUT_ID) ? 1u : 0u;\n"
        f"    out_words[{4 * k + 3}] = {n}_LAYOUT_OK({n}_LAYOUT_ID ^ uvec2(0u, 1u)) ? 1u : 0u;"
        for k, n in enumerate(names))
    body += "\n" + "\n".join(f"    out64[{k}] = {n}_LAYOUT_ID64;" for k, n in enumerate(wide_names))
    (tmp_path / "ids.comp").write_text(
        "#version 450\n#extension GL_GOOGLE_include_directive : require\n"
        '#include "geometry.glsl"\n#include "telemetry.glsl"\n'
        "layout(local_size_x = 1) in;\n"
        "layout(std430, binding = 0) writeonly buffer Out { uint out_words[]; };\n"
        "layout(std430, binding = 1) writeonly buffer Out64 { uint64_t out64[]; };\n"
        "void main() {\n" + body + "\n}\n")
    _run(["glslangValidator", "-V", "--target-env", "vulkan1.1", f"-I{generated}", "ids.comp",
          "-o", "ids.spv"], tmp_path)
    results = run_spirv((tmp_path / "ids.spv").read_bytes(), [_words(names), 8 * len(wide_names)])
    assert _read_back(results[0], names) == expected
    wide = struct.unpack(f"<{len(wide_names)}Q", results[1])
    assert dict(zip(wide_names, wide)) == {n: expected[n] for n in wide_names}


def test_wgsl_on_lavapipe(expected, generated, tmp_path):
    require_toolchain("webgpu")
    from sarek_layout.verify.drivers.wgsl import run_wgsl

    names = list(expected)
    body = "\n".join(
        f"    out_words[{4 * k}] = {n}_LAYOUT_ID.x; out_words[{4 * k + 1}] = {n}_LAYOUT_ID.y;\n"
        f"    out_words[{4 * k + 2}] = select(0u, 1u, {n}_LAYOUT_OK({n}_LAYOUT_ID));\n"
        f"    out_words[{4 * k + 3}] = select(0u, 1u, {n}_LAYOUT_OK({n}_LAYOUT_ID ^ vec2<u32>(1u, 0u)));"
        for k, n in enumerate(names))
    source = ((generated / "geometry.wgsl").read_text() + "\n"
              + (generated / "telemetry.wgsl").read_text() + "\n"
              "@group(0) @binding(0) var<storage, read_write> out_words: array<u32>;\n"
              "@compute @workgroup_size(1)\nfn main() {\n" + body + "\n}\n")
    results = run_wgsl(source, [_words(names)])
    assert _read_back(results[0], names) == expected


# --- Python ------------------------------------------------------------------------------------


def test_python_module_by_import(expected, generated, tmp_path):
    names = list(expected)
    script = ("import geometry_layout, telemetry_layout\n"
              "for n in " + repr(names) + ":\n"
              "    m = geometry_layout if n.startswith('Geometry_') else telemetry_layout\n"
              "    print(n, getattr(m, 'LAYOUT_ID_' + n))\n")
    out = _run([sys.executable, "-c", script], generated)
    assert _printed(out) == expected


# --- TypeScript ----------------------------------------------------------------------------------


def test_typescript_companions_in_node(expected, tmp_path):
    """Each companion's ``LAYOUT_ID`` (a bigint), compiled by tsc and read by Node."""
    from helpers import typescript

    typescript.programs()
    schema = load_schema([str(p) for p in SCHEMAS])
    files = render_headers(schema, ["typescript"])
    for f in files:
        (tmp_path / f.filename).write_text(f.text)
    typescript.assert_compiles([tmp_path / f.filename for f in files], tmp_path, out_dir="js")
    script = "\n".join(f'import * as M{i} from "./js/{Path(f.filename).stem}.js";'
                       for i, f in enumerate(files))
    script += ("\nfor (const M of [" + ", ".join(f"M{i}" for i in range(len(files))) + "])\n"
               "  for (const [n, c] of Object.entries(M))\n"
               "    if (typeof c === 'object' && 'LAYOUT_ID' in c) console.log(n, String(c.LAYOUT_ID));\n")
    run = typescript.node(script, tmp_path)
    assert run.returncode == 0, run.stderr
    assert _printed(run.stdout) == expected
