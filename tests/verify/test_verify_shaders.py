"""``verify --shader``: hand-written GLSL, WGSL and Metal structs laid out by glslang, by
wgpu (naga, lavapipe) and by the clang++ Metal proxy, compared with the schema.

One shader per language declares every type of ``data/shaders/mistakes.toml`` correctly
(``good.*``), one makes a classic mistake in each (``mistakes.*``): a vec3 where the schema
has three floats, a bool, a float where it has float64, members in another order, a member
missing, (GLSL) a std140 uniform block and (Metal) a packed_ vector where it has an int64. Each must be reported at its line and column
with its own explanation; the end-to-end example's shaders must verify clean.
"""

from __future__ import annotations

import os
import pathlib

import pytest

from helpers.common import EXAMPLES, require_toolchain
from sarek_layout.cli.main import main

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "shaders"
SCHEMA = DATA / "mistakes.toml"
TOOLCHAIN = {"comp": "glslang", "wgsl": "webgpu", "metal": "metal-proxy"}

#: suffix -> (line:col, fragments) of every difference ``mistakes.<suffix>`` must show.
MISTAKES = {
    "comp": [
        ("4:35", ["K_withvec3: p is at offset 16 (glslang), the schema's at 4",
                  "vec3 is aligned to 16 bytes", "write `K_v3 p;`"]),
        ("4:44", ["K_withvec3: b is at offset 28", "after the vec3 p"]),
        ("4:8", ["K_withvec3 is 32 bytes in an array", "the schema's 20"]),
        ("5:33", ["K_withbool: flag is bool: GLSL bool has no memory layout of its own",
                  "write `int flag;`"]),
        ("6:34", ["K_withf64: value is float, 4 bytes, where the schema has float64, 8 bytes",
                  "write `double value;`", "shaderFloat64"]),
        ("7:8", ["K_ordered: members in another order than the schema's (shader: b, a, c; "
                 "schema: a, b, c)"]),
        ("7:26", ["K_ordered: b is at offset 0 (glslang), the schema's at 4"]),
        ("8:8", ["K_complete: no member b (int32, offset 4", "add `int b;` after a"]),
        ("10:37", ["K_item: Params is a uniform block laid out std140, where the schema's c "
                   "rules lay K_item out as std430 does", "stride of 16 bytes, where K_item is 4 bytes",
                   "`layout(std430) buffer`"]),
    ],
    "wgsl": [
        ("2:29", ["K_withvec3: p is at offset 16 (wgpu), the schema's at 4",
                  "vec3<f32> is aligned to 16 bytes", "write `p: K_v3,`"]),
        ("2:8", ["K_withvec3 is 32 bytes in an array (wgpu"]),
        ("3:29", ["K_withbool: flag is bool: bool is not host-shareable in WGSL",
                  "write `flag: i32,`"]),
        ("4:29", ["K_withf64: value is f32, 4 bytes, where the schema has float64",
                  "write `value: vec2<u32>,`", "WGSL has no 64-bit float"]),
        ("5:8", ["K_ordered: members in another order"]),
        ("6:8", ["K_complete: no member b", "add `b: i32,` after a"]),
    ],
    "metal": [
        ("4:37", ["K_withvec3: p is at offset 16 (metal-proxy), the schema's at 4",
                  "float3 is aligned to 16 bytes", "write `K_v3 p;`"]),
        ("5:33", ["K_withbool: flag is bool: MSL bool is 1 byte", "write `int flag;`"]),
        ("6:34", ["K_withf64: value is float", "write `uint2 value;`",
                  "MSL has no 64-bit float"]),
        ("7:8", ["K_ordered: members in another order"]),
        ("8:8", ["K_complete: no member b", "add `int b;` after a"]),
        ("9:41", ["K_withint64: b is packed_int2", "write `long b;`", "at offset 4",
                  "packed_int2 is aligned to its scalar (4 bytes), unlike int2"]),
    ],
}


def _verify(capsys, *args):
    status = main(["verify", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("suffix", sorted(TOOLCHAIN))
def test_a_shader_that_agrees_exits_0_and_lists_the_structs_it_skips(suffix, capsys):
    require_toolchain(TOOLCHAIN[suffix])
    shader = DATA / f"good.{suffix}"
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader)
    assert (status, err) == (0, ""), out
    assert "7 structs checked against the schema: all agree" in out
    assert f"{shader}:11:8: note: struct Unrelated is not a schema type" in out


@pytest.mark.parametrize("suffix", sorted(TOOLCHAIN))
def test_each_classic_mistake_is_reported_at_its_line_with_its_explanation(suffix, capsys):
    require_toolchain(TOOLCHAIN[suffix])
    shader = DATA / f"mistakes.{suffix}"
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader)
    assert (status, err) == (1, ""), out
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    for where, fragments in MISTAKES[suffix]:
        at = [ln for ln in errors if ln.startswith(f"{shader}:{where}: error: ")]
        assert any(all(f in ln for f in fragments) for ln in at), (where, fragments, out)


def test_type_narrows_the_check_and_names_what_it_left_out(capsys):
    require_toolchain("glslang")
    shader = DATA / "mistakes.comp"
    status, out, _ = _verify(capsys, SCHEMA, "--shader", shader, "--type", "withbool")
    assert status == 1
    assert "1 struct checked against the schema: 1 difference" in out
    assert f"{shader}:6:8: note: struct K_withf64 is not among the --type types: skipped" in out
    status, out, _ = _verify(capsys, SCHEMA, "--shader", shader, "--type", "K.complete",
                             "--type", "withf64")
    assert status == 1 and "2 structs checked" in out


def test_a_shader_that_does_not_compile_is_a_difference_naming_its_line(tmp_path, capsys):
    require_toolchain("glslang")
    shader = tmp_path / "broken.comp"
    shader.write_text("#version 450\nstruct K_item { float x; };\nvoid main() { nope(); }\n")
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader)
    assert (status, err) == (1, ""), out
    assert f"error: {shader}: glslang: " in out and f"{shader}:3:" in out
    assert "sarek_shader" not in out and str(tmp_path / "sarek") not in out
    # Nothing is judged from the text: the struct the compiler did not build is not checked.
    assert f"{shader}:2:8: K_item: not checked (glslang: the shader did not compile)" in out


def test_includes_are_read_from_the_shaders_given_and_the_I_folders_only(tmp_path, capsys):
    require_toolchain("glslang")
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "item.glsl").write_text("struct K_item { float x; };\n")
    shader = tmp_path / "uses.comp"
    shader.write_text('#version 450\n#extension GL_GOOGLE_include_directive : require\n'
                      '#include "item.glsl"\nvoid main() { }\n')
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader)
    assert (status, out) == (2, "")
    assert err == (f"{shader}:3:1: error: #include \"item.glsl\" is neither a --shader given "
                   f"nor in an -I folder; verify reads no other file (add -I DIR)\n")
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader, "-I", lib)
    assert (status, err) == (0, ""), out
    assert f"{lib / 'item.glsl'}:1:8: K_item: agrees (glslang)" in out
    # The included file given as a shader of its own is found too.
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader, "--shader", lib / "item.glsl")
    assert (status, err) == (0, ""), out


def test_the_e2e_shaders_verify_clean(tmp_path, capsys):
    """examples/e2e's kernels, with the headers ``generate`` writes for them."""
    gen = tmp_path / "gen"
    schema = EXAMPLES / "e2e" / "telemetry.toml"
    assert main(["generate", str(schema), "-o", str(gen), "-t", "glsl", "-t", "wgsl",
                 "-t", "metal"]) == 0
    capsys.readouterr()
    e2e = EXAMPLES / "e2e"
    runs = [("glslang", ["--shader", e2e / "kernels.comp", "-I", gen], 7),
            ("metal-proxy", ["--shader", e2e / "kernels.metal", "-I", gen], 3),
            ("webgpu", ["--shader", gen / "telemetry.wgsl", "--shader", e2e / "kernels.wgsl"], 3)]
    ran = 0
    for toolchain, args, structs in runs:
        if require_available(toolchain):
            status, out, err = _verify(capsys, schema, *args)
            assert (status, err) == (0, ""), out
            assert f"{structs} structs checked against the schema: all agree" in out, out
            ran += 1
    if not ran:
        pytest.skip("no shader compiler installed (glslang, wgpu, clang++)")


def require_available(name: str) -> bool:
    """Whether toolchain ``name`` is here; fails when ``$SAREK_REQUIRE_TOOLCHAINS`` needs it."""
    from sarek_layout.verify import toolchains

    if toolchains.get(name).unavailable_reason is None:
        return True
    if name in toolchains.required_toolchains():
        pytest.fail(f"required toolchain missing: {toolchains.get(name).unavailable_reason}")
    return False


def test_the_pytest_fixture_takes_shaders():
    require_toolchain("glslang")
    from sarek_layout.pytest_plugin import assert_layout_agrees

    report = assert_layout_agrees(str(SCHEMA), shaders=[str(DATA / "good.comp")])
    assert report.ok and len(report.checked) == 7
    with pytest.raises(pytest.fail.Exception) as failed:
        assert_layout_agrees(str(SCHEMA), shaders=[str(DATA / "mistakes.comp")])
    assert "verify --shader found differences" in str(failed.value)
    assert "GLSL bool has no memory layout" in str(failed.value)


def test_type_without_shader_is_a_usage_error(capsys):
    status, out, err = _verify(capsys, SCHEMA, "--type", "withbool")
    assert (status, out) == (2, "")
    assert err == "sarek-layout: error: --type narrows --shader; give a --shader FILE\n"


def test_shader_reader_positions_survive_backslash_newlines_and_comments(tmp_path):
    from sarek_layout.verify.shaders.registry import LANGUAGES
    from sarek_layout.verify.shaders.source import read_shaders

    shader = tmp_path / "s.metal"
    shader.write_text('/* a "comment" */ const char *s = "/*";\n'
                      '#inc\\\nlude "/etc/passwd"\n// */\n')
    from sarek_layout.errors import SchemaError

    with pytest.raises(SchemaError) as e:
        read_shaders([str(shader)], (), list(LANGUAGES.values()))
    assert str(e.value).startswith(f"{shader}:2:1: error: #include \"/etc/passwd\": verify "
                                   f"reads only files among the shaders given")
    assert os.path.exists("/etc/passwd")  # the point: it exists, and is not read


def test_a_missing_shader_compiler_is_exit_2_with_its_install_line(capsys, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    # First as a local run (skips), whatever CI's $SAREK_REQUIRE_TOOLCHAINS says; then required.
    monkeypatch.delenv("SAREK_REQUIRE_TOOLCHAINS", raising=False)
    status, out, err = _verify(capsys, SCHEMA, "--shader", DATA / "good.comp")
    assert (status, out) == (2, "")
    assert err == (f"sarek-layout: error: verify --shader {DATA / 'good.comp'}: glslangValidator "
                   f"not found; apt-get install -y glslang-tools\n")
    from sarek_layout.pytest_plugin import assert_layout_agrees

    with pytest.raises(pytest.skip.Exception):
        assert_layout_agrees(str(SCHEMA), shaders=[str(DATA / "good.comp")])
    monkeypatch.setenv("SAREK_REQUIRE_TOOLCHAINS", "glslang")
    with pytest.raises(pytest.fail.Exception) as failed:
        assert_layout_agrees(str(SCHEMA), shaders=[str(DATA / "good.comp")])
    assert "required toolchain missing: verify --shader" in str(failed.value)


def test_a_wgsl_uniform_buffer_where_the_schema_needs_the_c_layout_is_explained(capsys):
    require_toolchain("webgpu")
    shader = DATA / "uniform.wgsl"
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader)
    assert (status, err) == (1, ""), out
    assert (f"error: {shader}: naga + wgpu: naga refuses the shader: {shader}:4:23: Global "
            f"variable [0] 'params' is invalid") in out, out
    assert "The array stride 4 is not a multiple of the required alignment 16" in out
    assert "as GLSL's std140 does, where the schema needs the C layout: declare it " \
           "var<storage, read>" in out


#: Shaders the SPIR-V reader is compared on with spirv-cross --reflect: one struct in a std140
#: and a std430 block (two copies of one name), every scalar width, matrices, arrays of
#: arrays, a push constant block, a ray-tracing stage.
SPIRV_SHADERS = {
    "copies.comp": "#version 450\nstruct P { float a; vec3 v; int b[3]; double d; };\n"
                   "layout(std140, binding = 0) uniform U { P p[2]; } u;\n"
                   "layout(std430, binding = 1) buffer B { P q[]; } b;\n"
                   "void main() { b.q[0].a = u.p[1].a; }\n",
    "widths.comp": "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
                   "struct W { int8_t a; uint16_t b; float16_t h; int64_t c; uint64_t e; "
                   "dvec2 d; i16vec3 s; u8vec4 t; bool f; };\n"
                   "layout(std430, binding = 0) buffer B { W w[]; } b;\n"
                   "void main() { b.w[0].a = int8_t(1); }\n",
    "matrices.comp": "#version 450\nstruct M { mat3 m; mat2x4 n; dmat4 d; float g[2][3]; };\n"
                     "layout(std430, binding = 0) buffer B { M x; layout(row_major) mat3 r; } b;\n"
                     "layout(push_constant) uniform C { vec2 scale; uint n; } c;\n"
                     "void main() { b.x.g[1][2] = c.scale.x; }\n",
    "hit.rchit": "#version 460\n#extension GL_EXT_ray_tracing : require\n"
                 "struct Vertex { vec3 pos; float pad; vec2 uv; };\n"
                 "layout(std430, set = 0, binding = 1) readonly buffer Vs { Vertex v[]; } vs;\n"
                 "layout(location = 0) rayPayloadInEXT vec3 payload;\n"
                 "void main() { payload = vs.v[gl_PrimitiveID].pos; }\n",
}


@pytest.mark.parametrize("name", sorted(SPIRV_SHADERS))
def test_the_spirv_reader_agrees_with_spirv_cross_reflection(name, tmp_path):
    """``shaders.spirv`` reads the module itself (linear in it); spirv-cross's reflection of
    the same module is the reference: every struct type (std140 and std430 copies of one
    included), its members' names, types, offsets, array sizes and strides."""
    import json
    import subprocess

    require_toolchain("glslang")
    from sarek_layout.verify.shaders.glsl import GLSL, target_env
    from sarek_layout.verify.shaders.spirv import read_module

    src = tmp_path / name
    src.write_text(SPIRV_SHADERS[name])
    spv = tmp_path / "out.spv"
    subprocess.run(["glslangValidator", "-V", "--target-env",
                    target_env(name.rsplit(".", 1)[1], src.read_text()), str(src), "-o",
                    str(spv)], check=True, capture_output=True)
    reflected = json.loads(subprocess.run(["spirv-cross", str(spv), "--reflect"], check=True,
                                          capture_output=True, text=True).stdout)
    mod = read_module(spv.read_bytes())
    compared = 0
    for key, t in reflected["types"].items():
        sid = int(key.lstrip("_"))
        assert mod.names.get(sid) == t["name"]
        mine = mod.members(sid)
        assert [m["name"] for m in t["members"]] == [n for n, _, _ in mine]
        for m, (_, offset, tid) in zip(t["members"], mine):
            elem = mod.element(tid)
            kind = mod.types[elem][0]
            assert m["type"] == (f"_{elem}" if kind == "struct" else
                                 GLSL.spell(mod.gpu_type(elem))), (t["name"], m)
            assert m["offset"] == offset, (t["name"], m)
            dims, inner = [], tid
            while mod.types[inner][0] == "array":
                dims.append(mod.length(inner))
                inner = mod.types[inner][1]
            assert m.get("array", []) == dims[::-1], (t["name"], m)
            if "array_stride" in m:
                assert m["array_stride"] == mod.strides[tid], (t["name"], m)
            if "matrix_stride" in m:
                k = [n for n, _, _ in mine].index(m["name"])
                assert m["matrix_stride"] == mod.matrix_strides[(sid, k)], (t["name"], m)
            compared += 1
    assert compared >= 3


def test_a_vec3_in_scalar_blocks_only_is_measured_with_the_scalar_layout(capsys):
    require_toolchain("glslang")
    status, out, err = _verify(capsys, SCHEMA, "--shader", DATA / "scalar.comp")
    assert (status, err) == (0, ""), out
    assert f"{DATA / 'scalar.comp'}:5:8: K_withvec3: agrees (glslang)" in out


@pytest.mark.parametrize("form", ["crlf", "bom"])
def test_a_shader_with_crlf_line_ends_or_a_bom_verifies_as_well(form, tmp_path, capsys):
    require_toolchain("glslang")
    shader = tmp_path / f"{form}.comp"
    text = (DATA / "good.comp").read_bytes()
    shader.write_bytes(text.replace(b"\n", b"\r\n") if form == "crlf" else b"\xef\xbb\xbf" + text)
    status, out, err = _verify(capsys, SCHEMA, "--shader", shader)
    assert (status, err) == (0, ""), out
    assert f"{shader}:5:8: K_withvec3: agrees (glslang)" in out


def test_a_shader_given_and_included_by_another_is_compiled_where_it_is_included(tmp_path,
                                                                                 capsys):
    """A file of structs that relies on its includer (here: the int64 extension) does not
    compile alone; given with its includer, it is measured through it."""
    require_toolchain("glslang")
    lib = tmp_path / "ordered.glsl"
    lib.write_text("struct K_ordered { int a; float b; int64_t c; };\n")
    main_shader = tmp_path / "main.comp"
    main_shader.write_text("#version 450\n#extension GL_GOOGLE_include_directive : require\n"
                           "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
                           '#include "ordered.glsl"\nvoid main() { }\n')
    status, out, err = _verify(capsys, SCHEMA, "--shader", lib, "--shader", main_shader)
    assert (status, err) == (0, ""), out
    assert f"{lib}:1:8: K_ordered: agrees (glslang)" in out


def test_a_metal_header_shared_with_the_host_through_simd_h(capsys):
    require_toolchain("metal-proxy")
    shader = DATA / "shared_types.metal"
    status, out, _ = _verify(capsys, SCHEMA, "--shader", shader)
    assert status == 1
    # simd_float3 is a float3, which may stand for a record of three floats; its alignment
    # is what moves it.
    assert (f"{shader}:4:42: error: K_withvec3: p is at offset 16 (metal-proxy), the schema's "
            f"at 4; it is 16 bytes (metal-proxy), the schema's 12; simd_float3 is aligned to 16 "
            f"bytes") in out, out


# --- the extension scalars in hand-written shaders (targets.spellings.SHADER_READ) ----------

_EXT_SCHEMA = ('module = "H"\n[[types]]\nrecord = "counts"\nfields = [["n", "uint32"], '
               '["big", "uint64"], ["s", "int16"], ["b", "int8"], ["u", "uint16"]]\n')
_EXT_GOOD_GLSL = """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
struct H_counts { uint n; uint64_t big; int16_t s; int8_t b; uint16_t u; };
layout(std430, binding = 0) buffer Items { H_counts items[]; };
layout(local_size_x = 1) in;
void main() { items[0].n = 1u; }
"""


def test_extension_scalars_in_a_glsl_shader(tmp_path, capsys):
    """uint32 is uint, uint64 uint64_t, and the 8- and 16-bit ones GLSL's explicit
    arithmetic types (8/16-bit storage); int in their place is a difference naming both."""
    require_toolchain("glslang")
    schema = tmp_path / "h.toml"
    schema.write_text(_EXT_SCHEMA)
    good = tmp_path / "good.comp"
    good.write_text(_EXT_GOOD_GLSL)
    status, out, err = _verify(capsys, schema, "--shader", good)
    assert (status, err) == (0, ""), out
    bad = tmp_path / "bad.comp"
    bad.write_text(_EXT_GOOD_GLSL.replace("uint n; uint64_t big; int16_t s;", "int n; uint64_t big; int s;")
                   .replace("= 1u;", "= 1;"))
    status, out, _ = _verify(capsys, schema, "--shader", bad)
    assert status == 1
    assert f"{bad}:7:20: error: H_counts: n is int, 4 bytes, where the schema has uint32, 4 bytes: write `uint n;`" in out
    assert f"{bad}:7:44: error: H_counts: s is int, 4 bytes, where the schema has int16, 2 bytes: write `int16_t s;`" in out


def test_wgsl_has_no_member_type_for_an_int16(tmp_path, capsys):
    require_toolchain("webgpu")
    schema = tmp_path / "h.toml"
    schema.write_text(_EXT_SCHEMA)
    shader = tmp_path / "h.wgsl"
    shader.write_text("struct H_counts { n: u32, big: vec2<u32>, s: i32, b: i32, u: u32 }\n"
                      "@group(0) @binding(0) var<storage, read_write> items: array<H_counts>;\n"
                      "@compute @workgroup_size(1) fn main() { items[0].n = 1u; }\n")
    status, out, _ = _verify(capsys, schema, "--shader", shader)
    assert status == 1
    assert (f"{shader}:1:43: error: H_counts: s is i32, 4 bytes, where the schema has int16, 2 "
            f"bytes: WGSL has no 2-byte member type; keep it in a 32-bit word with its "
            f"neighbours (_sarek_bytes<N>), as `generate -t wgsl` does") in out
    assert "n is" not in out and "big is" not in out  # u32 and vec2<u32> are right
