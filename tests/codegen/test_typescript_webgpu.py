"""The typescript target's bytes against WGSL's own storage layout, judged by Dawn (Tint, the
WGSL compiler of Chrome's WebGPU, independent of naga), run in Node through npm ``webgpu``.

For random std430 structs of every member kind WGSL holds (i32, u32, f32 scalars, vectors,
matrices, arrays of them and of structs, arrays of arrays), a WGSL kernel writes each scalar's
value into a zeroed storage buffer through the struct WGSL lays out, and the module's
``toBytes`` of the same value must be those bytes, padding included. WGSL's storage rules are
std430's, which is what docs/typescript.md tells a WebGPU host to declare. Skipped, naming
``npm install webgpu``, where Dawn is not installed (.ci/run installs it).
"""

from __future__ import annotations

import json
import subprocess

from helpers import kinds_bytes, kinds_oracle, kinds_shapes, typescript
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema

#: Room of each storage buffer: the struct at its start, the rest must stay zero.
ROOM = 1 << 14


def _module(structs, folder):
    path = folder / "kinds.json"
    path.write_text(json.dumps({"module": "K", "rules": "std430", "types": [
        {"record": name, "fields": [[f, kinds_shapes.spelling(k)] for f, k in members]}
        for name, members in structs]}))
    [module] = render_headers(load_schema([str(path)]), ["typescript"])
    (folder / "kinds.ts").write_text(module.text)
    typescript.assert_compiles([folder / "kinds.ts"], folder, out_dir="js")
    return folder / "js" / "kinds.js"


def _dawn_bytes(structs, folder, edit=None):
    """Per struct: (the module's bytes, padded to ROOM; the kernel's bytes)."""
    dawn, env = typescript.dawn()
    module = _module(structs, folder)
    if edit is not None:
        module.write_text(edit(module.read_text()))
    kernels = kinds_bytes.wgsl_kernels(structs)
    cases = [[name, kernels[name], kinds_bytes.js_value(structs, name), ROOM]
             for name, _ in structs]
    (folder / "cases.json").write_text(json.dumps(cases))
    (folder / "dawn.mjs").write_text(kinds_bytes.DAWN_PROGRAM)
    _, node = typescript.programs()
    run = subprocess.run([node, "dawn.mjs", dawn, str(module), "cases.json"], cwd=folder,
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    return {name: (bytes.fromhex(ours) + bytes(ROOM - len(ours) // 2), bytes.fromhex(theirs))
            for name, (ours, theirs) in out.items()}


def _mismatches(found):
    return [f"{name}: typescript {ours.hex()}, dawn {theirs.hex()}"
            for name, (ours, theirs) in found.items() if ours != theirs]


def test_std430_bytes_are_what_a_wgsl_kernel_writes_through_dawn(tmp_path):
    typescript.programs()
    structs = kinds_oracle.random_structs(seed=341, count=40, scalars=kinds_bytes.WGSL_SCALARS,
                                          glsl=True)
    assert _mismatches(_dawn_bytes(structs, tmp_path)) == []


def test_the_dawn_comparison_is_live(tmp_path):
    """A member that should use a vec3's tail written elsewhere (in the next vec3's tail) is
    caught: WGSL reads it in the tail, at 12."""
    typescript.programs()
    structs = [("S0", [("a", ("vec", 3, "float32")), ("b", ("scalar", "float32")),
                       ("c", ("vec", 3, "float32"))])]
    found = _dawn_bytes(structs, tmp_path,
                        edit=lambda text: text.replace("_sarek_w_float32(view, at + 12, v.b)",
                                                       "_sarek_w_float32(view, at + 28, v.b)"))
    ours, theirs = found["S0"]
    assert _mismatches(found) and ours[12:16] == bytes(4) and theirs[12:16] != bytes(4)
