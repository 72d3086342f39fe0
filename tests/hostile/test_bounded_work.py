"""Work stays linear in the schema, however records nest.

A record made of two copies of the previous one doubles its scalar leaves at every level:
22 such types (1.5 KB of TOML) describe 2^22 leaves. Every command must still run in well
under its bound here, in bounded memory: the layout is computed per member and per record
type, views open nested records within a budget, and only the one output that must list
every leaf (``layout --json``) refuses, with the count and what to do instead.

Each case runs the real command line in a subprocess with a CPU-time limit and an
address-space limit (generous bounds that a blow-up cannot meet; speed itself is measured in
bench/). CPU time, not wall time, so that a loaded machine cannot fail them
(``tests/helpers/bounded.py``).
"""

from __future__ import annotations

import os
import sys

import pytest

from helpers.bounded import run_cpu_bounded
from helpers.common import require_toolchain

TIME_LIMIT = 30  # CPU seconds; the exponential code took hours or ran out of memory
MEMORY_LIMIT = 1 << 30  # bytes of address space


def _doubling_toml(levels: int = 22) -> str:
    lines = ['module = "Deep"', "", "[[types]]", 'record = "t0"',
             'fields = [["a", "float32"], ["b", "float64"]]']
    for k in range(1, levels):
        lines += ["", "[[types]]", f'record = "t{k}"', f'fields = [["a", "t{k - 1}"], ["b", "t{k - 1}"]]']
    lines += ["", "[[types]]", 'variant = "v"',
              f'constructors = [["A", ["t{levels - 1}"]], ["B", ["t{levels - 1}", "int32"]], ["C"]]']
    return "\n".join(lines) + "\n"


def _chain_json(levels: int = 100) -> str:
    types = ['{"record": "c0", "fields": [["x", "int32"], ["y", "float64"]]}']
    types += [f'{{"record": "c{k}", "fields": [["p", "c{k - 1}"], ["z", "int32"]]}}'
              for k in range(1, levels)]
    return '{"module": "Chain", "types": [' + ", ".join(types) + "]}"


def _run(args, cwd):
    return run_cpu_bounded([sys.executable, "-m", "sarek_layout", *args], cpu_s=TIME_LIMIT,
                           memory=MEMORY_LIMIT, what="the work is not linear in the schema",
                           cwd=cwd, text=True)


@pytest.fixture(scope="module")
def schemas(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nesting")
    (folder / "deep.toml").write_text(_doubling_toml())
    (folder / "chain.json").write_text(_chain_json())
    return folder


COMMANDS = [
    ["layout", "deep.toml"],
    ["layout", "deep.toml", "--json", "--no-leaves"],
    ["generate", "deep.toml", "-o", "out", "-t", "c", "-t", "cuda", "-t", "opencl"],
    # The shading languages keep records as 32-bit words: a word-by-word copy made these
    # files (and the time and memory to write them) grow with the bytes of the types.
    ["generate", "deep.toml", "-o", "out", "-t", "glsl"],
    ["generate", "deep.toml", "-o", "out", "-t", "wgsl"],
    ["generate", "deep.toml", "-o", "out", "-t", "metal"],
    ["generate", "deep.toml", "-o", "out", "-t", "python"],
    ["explain", "deep.toml"],
    ["explain", "deep.toml", "--svg", "deep.svg", "--html", "deep.html"],
    ["layout", "chain.json"],
    ["layout", "chain.json", "--json"],
    ["generate", "chain.json", "-o", "out", "-t", "c", "-t", "cuda", "-t", "opencl"],
    ["explain", "chain.json", "--svg", "chain.svg"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_commands_on_deep_nesting_are_bounded(schemas, args):
    proc = _run(args, schemas)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    # Bounded output too: a few megabytes at most, whatever the leaves.
    assert len(proc.stdout) < 8 << 20
    for name in ("deep.svg", "deep.html", "chain.svg"):
        path = schemas / name
        if path.exists():
            assert path.stat().st_size < 8 << 20
    if args[0] == "generate":
        # Generated files are linear in the schema's members (tens of kilobytes here), not in
        # the 64 MiB that its largest type occupies.
        written = {p.name: p.stat().st_size for p in (schemas / "out").iterdir()}
        assert written and all(size < 2 << 20 for size in written.values()), written


def test_json_that_would_list_millions_of_leaves_is_refused_with_what_to_do(schemas):
    proc = _run(["layout", "deep.toml", "--json"], schemas)
    assert proc.returncode == 2
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert "scalar leaves" in line and "--no-leaves" in line and "Deep.v alone" in line


def test_generated_headers_for_deep_nesting_compile_and_agree(schemas):
    # The compilers agree with the layout (verify probes members, never leaves), and the
    # make_ helpers copy record arguments through per-record copies, linear in the schema.
    require_toolchain("gcc")
    proc = _run(["verify", "deep.toml", "--toolchain", "gcc", "--toolchain", "g++"], schemas)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "agrees" in proc.stdout
    header = (schemas / "out" / "deep.h")
    if header.exists():  # written by the generate case above when it ran first
        assert os.path.getsize(header) < 1 << 20


def test_shader_compilers_on_deep_nesting(tmp_path):
    """What the shader compilers make of the doubling schema (docs/gpu-apis.md, "Large
    types"). naga validates the whole 22-level WGSL file. glslang's own time and memory grow
    with the scalar leaves of every struct a generated function takes or builds (1.6 GB at 20
    levels, more than 4 GB at 22), however short the file: 14 levels (2^14 leaves in one
    record) must compile, under the same limits as the commands above."""
    (tmp_path / "deep.toml").write_text(_doubling_toml())
    (tmp_path / "deep14.toml").write_text(_doubling_toml(14).replace('"Deep"', '"Deep14"'))
    proc = _run(["generate", "deep.toml", "deep14.toml", "-o", "out", "-t", "glsl", "-t", "wgsl"],
                tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"

    require_toolchain("naga")
    from sarek_layout.verify.drivers.wgsl import validate_wgsl

    validate_wgsl((out / "deep.wgsl").read_text())

    require_toolchain("glslang")
    (out / "probe.comp").write_text(
        "#version 450\n#extension GL_GOOGLE_include_directive : require\n"
        '#include "deep14.glsl"\nlayout(local_size_x = 1) in;\nvoid main() {}\n')
    glslang = run_cpu_bounded(["glslangValidator", "-V", "probe.comp", "-o", "probe.spv"],
                              cpu_s=TIME_LIMIT, memory=MEMORY_LIMIT, cwd=out, text=True,
                              what="the generated GLSL is not linear in the schema")
    assert glslang.returncode == 0, glslang.stdout + glslang.stderr
