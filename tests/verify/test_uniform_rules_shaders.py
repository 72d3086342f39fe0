"""The uniform rule sets in the shading languages (issue 33, item 2): a ``wgsl-uniform`` type in
WGSL's ``var<uniform>`` and in GLSL's ``layout(std140)`` block, judged by the compilers.

* WGSL: a struct of ``wgsl-uniform`` rules is as aligned as its members' types in naga (4 for
  ``{x: f32}``), below the rules' 16. naga's validator places every struct member of a
  ``var<uniform>`` at a multiple of 16 or refuses the shader (measured below; in storage it
  places it at 4), so such a struct holds the rules' bytes there when its size is theirs and
  every member is placed by explicit padding. The webgpu toolchain reads generated structs of
  these rules in a real ``var<uniform>`` on lavapipe; what the uniform space cannot take (an
  array of words) is refused, and naga confirms it would refuse the shader.
* GLSL: a ``wgsl-uniform`` type sits in a ``layout(std140)`` block, whose bytes are the same
  but for a ``matCx2``'s columns (16 bytes apart in std140, as glslang's SPIR-V says; 8 in
  WGSL's uniform space): such a member is refused, naming it.

Every verdict is the compilers' (naga, wgpu on lavapipe, glslang and spirv-cross reflection),
never numbers of the layout stage.
"""

from __future__ import annotations

import json

import pytest

from helpers.common import require_toolchain
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.verify.drivers import HeaderSet, ProbeFailed
from sarek_layout.verify.drivers.gpu_probes import SMALL_SCALARS
from sarek_layout.verify.probes import STRIDE, probes_for
from sarek_layout.verify.run import generated_headers, verify_schema
from sarek_layout.verify.toolchains import driver_for

#: The issue's case: a record of one float, inside another between two floats; arrays of it,
#: of the outer one, and a kind member whose elements are 16 bytes apart.
NESTED = {"module": "W", "rules": "wgsl-uniform", "types": [
    {"record": "p", "fields": [["x", "float32"]]},
    {"record": "q", "fields": [["a", "float32"], ["s", "p"], ["b", "float32"]]},
    {"record": "r", "fields": [["ps", "p[3]"], ["c", "float32"], ["qs", "q[2]"],
                               ["f", "float32[3]"], ["v", "vec2<float32>"], ["t", "uint8[3]"],
                               ["last", "q"]]},
]}


def _schema(tmp_path, doc, name="w.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return load_schema([str(path)])


def _agrees(schema, toolchain):
    require_toolchain(toolchain)
    report = verify_schema(schema, toolchains=[toolchain])
    (result,) = report.results
    assert result.status == "agrees", report.format()
    return result


@pytest.mark.parametrize("toolchain", ["naga", "webgpu", "glslang", "vulkan"])
def test_a_struct_less_aligned_than_the_uniform_rules_is_held(toolchain, tmp_path):
    """On old main: WGSL refused ``W.p`` (16 bytes aligned to 16, naga's 4), GLSL put it in a
    std430 block (aligned to 4 there)."""
    schema = _schema(tmp_path, NESTED)
    result = _agrees(schema, toolchain)
    if toolchain != "naga":
        # Every offset, size, stride and alignment of the three types, read by the compiler
        # (a byte inside a word has no stride of its own, nor a glslang offset).
        wanted = [p for p in probes_for(schema.types) if p.scalar not in SMALL_SCALARS or
                  (p.quantity != STRIDE and toolchain != "glslang")]
        assert result.values >= len(wanted) > 0, (result.values, len(wanted))


def _wgsl(tmp_path, doc=NESTED) -> str:
    ((_, text),) = generated_headers(_schema(tmp_path, doc), ["wgsl"])["wgsl"].files
    return text


def test_the_webgpu_probe_reads_them_in_a_uniform_buffer(tmp_path):
    """The probes are live in the uniform space: the same bytes with the padding as one
    ``array<u32, 3>`` (a valid module, and storage would read the same offsets) are
    refused there by naga."""
    require_toolchain("webgpu")
    one = {**NESTED, "types": NESTED["types"][:1]}
    schema = _schema(tmp_path, one)
    headers = generated_headers(schema, ["wgsl"])["wgsl"]
    ((name, text),) = headers.files
    pads = "    _sarek_pad0: u32, // offset 4, padding\n" \
           "    _sarek_pad1: u32, // offset 8, padding\n" \
           "    _sarek_pad2: u32, // offset 12, padding\n"
    assert pads in text
    text = text.replace(pads, "    _sarek_pad0: array<u32, 3>,\n")
    text = text.replace("u32(), u32(), u32()", "array<u32, 3>()")
    edited = HeaderSet(((name, text),), headers.includes)
    assert _validates(text)
    probes = probes_for(schema.types)
    assert driver_for("webgpu").measure(headers, probes).passes  # the generated file reads
    with pytest.raises(ProbeFailed, match="sarek_uin. is invalid"):
        driver_for("webgpu").measure(edited, probes)
    # naga alone, on a var<uniform> of each type of these rules, as the naga toolchain runs.
    driver_for("naga").measure(headers, probes)
    with pytest.raises(ProbeFailed, match="sarek_uniform0. is invalid"):
        driver_for("naga").measure(edited, probes)


def _validates(source: str) -> bool:
    from sarek_layout.verify.drivers.wgsl import validate_wgsl

    try:
        validate_wgsl(source)
    except ProbeFailed:
        return False
    return True


def test_naga_places_a_struct_member_of_a_uniform_buffer_at_16_only(tmp_path):
    """Why the struct may be less aligned than the rules: naga's own alignment of ``W_p`` is
    4 (storage puts it at 4: accepted), and the uniform space refuses it anywhere but a
    multiple of 16 (so it is never silently elsewhere)."""
    require_toolchain("naga")
    text = _wgsl(tmp_path)
    user = "struct U {{ a: f32, {pin}s: W_p, }}\n@group(0) @binding(0) var<{space}> u: U;\n" \
           "@compute @workgroup_size(1) fn main() {{ _ = u.s.x; }}\n"
    assert _validates(text + user.format(pin="", space="storage"))
    assert not _validates(text + user.format(pin="", space="uniform"))
    assert _validates(text + user.format(pin="@align(16) ", space="uniform"))


VARIANT = {"module": "V", "rules": "wgsl-uniform", "types": [
    {"variant": "e", "constructors": [["A", ["float32", "float32"]], ["B", []]]}]}


def test_what_the_uniform_space_cannot_take_is_refused_with_the_reason(tmp_path):
    """A variant whose payload sits at byte 4 keeps it in 4-byte words: an ``array<u32, N>``,
    which naga refuses in a ``var<uniform>``. WGSL alone refuses the type, saying so."""
    require_toolchain("naga")
    with pytest.raises(SchemaError, match="uniform address space takes no array whose stride "
                                          "is not a multiple of 16"):
        render_headers(_schema(tmp_path, VARIANT), ["wgsl"])
    assert render_headers(_schema(tmp_path, VARIANT), ["c"])
    words = "struct S { a: u32, data: array<u32, 2>, }\n" \
            "@group(0) @binding(0) var<{space}> s: S;\n" \
            "@compute @workgroup_size(1) fn main() {{ _ = s.a; }}\n"
    assert _validates(words.replace("{space}", "storage").replace("{{", "{").replace("}}", "}"))
    assert not _validates(words.replace("{space}", "uniform").replace("{{", "{")
                          .replace("}}", "}"))


def test_glsl_refuses_a_mat2_of_the_wgsl_uniform_rules_naming_it(tmp_path):
    """std140 strides a ``mat2``'s columns by 16 (glslang's SPIR-V, through spirv-cross's
    reflection); WGSL's uniform space by 8: GLSL refuses that member alone, saying why."""
    require_toolchain("glslang")
    from sarek_layout.verify.drivers.glsl import compile_glsl, reflect_spirv

    spirv = compile_glsl("glslang", "#version 450\nlayout(local_size_x = 1) in;\n"
                         "layout(std140, binding = 0) uniform B { float a; mat2 m; } b;\n"
                         "void main() {}\n", HeaderSet((), ()))
    (block,) = [t for t in reflect_spirv("glslang", spirv)["types"].values()
                if any(m["name"] == "m" for m in t["members"])]
    (m,) = [m for m in block["members"] if m["name"] == "m"]
    assert m["matrix_stride"] == 16
    doc = {"module": "M", "rules": "wgsl-uniform",
           "types": [{"record": "t", "fields": [["a", "float32"], ["m", "mat2"]]}]}
    with pytest.raises(SchemaError, match=r"member 'm' \(mat2\).*strides 8.*layout\(std140\)"):
        render_headers(_schema(tmp_path, doc), ["glsl"])

