"""The GPU API targets (glsl, wgsl, metal, hlsl): what the files say, name escaping, clashes,
and every generated file accepted by its language's compiler (glslang, naga, clang++ as the
Metal proxy, Slang). Layout numbers are measured in test_gpu_verify.py.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from helpers.common import EXAMPLES, require_toolchain
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets import TARGETS
from sarek_layout.verify.drivers import HeaderSet

#: From the registry: every GPU API target.
GPU_TARGETS = tuple(name for name, t in TARGETS.items() if t.gpu_api)


def _schema(tmp_path, types, module="M", name="m.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"module": module, "types": types}))
    return load_schema([str(path)])


def _files(schema, target):
    return {f.filename: f.text for f in render_headers(schema, [target])}


def _compiles(target, files, tmp_path):
    """Compile ``files`` (name -> text) with the target's compiler; fail with its output."""
    headers = HeaderSet(tuple(files.items()), tuple(files))
    _COMPILERS[target](files, headers, tmp_path)


def _glslang(files, headers, tmp_path):
    require_toolchain("glslang")
    from sarek_layout.verify.drivers.glsl import compile_glsl

    compile_glsl("glslang", "#version 450\n#extension GL_GOOGLE_include_directive : require\n"
                 + headers.include_lines() + "layout(local_size_x = 1) in;\nvoid main() {}\n",
                 headers)


def _naga(files, headers, tmp_path):
    require_toolchain("naga")
    from sarek_layout.verify.drivers.wgsl import validate_wgsl

    validate_wgsl("\n".join(files.values()))


def _metal_proxy(files, headers, tmp_path):
    require_toolchain("metal-proxy")
    from sarek_layout.verify.drivers.gpu_probes import lay_out
    from sarek_layout.verify.drivers.metal import METAL_PROXY_ARGS, METAL_SHIM

    lay_out(headers, str(tmp_path))
    (tmp_path / "shim").mkdir(exist_ok=True)
    (tmp_path / "shim" / "metal_stdlib").write_text(METAL_SHIM)
    src = tmp_path / "all.cpp"
    src.write_text(headers.include_lines())
    proc = subprocess.run([*METAL_PROXY_ARGS, "-Wall", "-Wextra", "-Werror", "-Wpadded",
                           "-fsyntax-only", f"-I{tmp_path / 'shim'}", f"-I{tmp_path}", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _slang(files, headers, tmp_path):
    require_toolchain("slang")
    from sarek_layout.verify.drivers.gpu_probes import lay_out
    from sarek_layout.verify.shaders.slang import run_slang

    lay_out(headers, str(tmp_path))
    (tmp_path / "all.hlsl").write_text(headers.include_lines())
    answer = run_slang(str(tmp_path), "all.hlsl", (".",))
    assert answer.ok, answer.problem or answer.log


#: How each GPU target's files are compiled (its language's compiler, with warnings as errors
#: where it has them); a GPU target of the registry without one fails at import.
_COMPILERS = {"glsl": _glslang, "wgsl": _naga, "metal": _metal_proxy, "hlsl": _slang}
assert set(_COMPILERS) == set(GPU_TARGETS), "a GPU target of the registry has no compile step"


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_examples_compile(target, tmp_path):
    schema = load_schema([str(EXAMPLES / "geometry.toml"), str(EXAMPLES / "e2e" / "telemetry.toml")])
    _compiles(target, _files(schema, target), tmp_path)


def test_file_names_and_generate_cli(tmp_path):
    from sarek_layout.cli.main import main

    out = tmp_path / "out"
    assert main(["generate", str(EXAMPLES / "geometry.toml"), "-o", str(out),
                 "-t", "glsl", "-t", "wgsl", "-t", "metal"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["geometry.glsl", "geometry.wgsl",
                                                      "geometry_metal.h"]


def test_64_bit_needs_are_stated_only_when_used(tmp_path):
    plain = _schema(tmp_path, [{"record": "p", "fields": [["x", "float32"], ["b", "bool"]]}])
    text = _files(plain, "glsl")["m.json".replace(".json", ".glsl")]
    assert "#extension" not in text and "shaderFloat64" not in text and "shaderInt64" not in text
    assert "Limitation" not in _files(plain, "wgsl")["m.wgsl"]
    wide = _schema(tmp_path, [{"record": "p", "fields": [["x", "int64"], ["d", "float64"]]}])
    text = _files(wide, "glsl")["m.glsl"]
    assert "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require" in text
    assert "shaderFloat64" in text and "shaderInt64" in text
    wgsl = _files(wide, "wgsl")["m.wgsl"]
    assert "Limitation: WGSL has no 64-bit scalars" in wgsl
    assert "x: vec2<u32>" in wgsl and "d: vec2<u32>" in wgsl
    metal = _files(wide, "metal")["m_metal.h"]
    assert "long x;" in metal and "uint2 d;" in metal and "double" not in metal.split("*/", 1)[1]


@pytest.mark.parametrize("words", [32, 33])
def test_long_word_ranges_are_loops_and_the_glsl_file_says_so(words, tmp_path):
    """A record of more than 32 words (and the payload holding it) is copied with loops,
    which GLSL marks [[unroll]] and whose extension it then enables; 32 words are spelled
    one by one. Both files compile."""
    schema = _schema(tmp_path, [
        {"record": "r", "fields": [[f"f{i}", "float32"] for i in range(words)]},
        {"variant": "v", "constructors": [["A", ["r"]], ["C", []]]}])
    glsl, wgsl = _files(schema, "glsl")["m.glsl"], _files(schema, "wgsl")["m.wgsl"]
    looped = words > 32
    assert ("#extension GL_EXT_control_flow_attributes : require" in glsl) == looped
    assert ("[[unroll]] for (uint _sarek_k = 0u;" in glsl) == looped
    assert ("for (var _sarek_k = 0u;" in wgsl) == looped
    for text in (glsl, wgsl):  # make_M_v_A copies r's last word by its index, or in the loop
        assert (f"= _sarek_t[{words - 1}];" in text) != looped
    for target in ("glsl", "wgsl"):
        _compiles(target, _files(schema, target), tmp_path)


def test_bool_and_unit_are_32_bit_integers(tmp_path):
    schema = _schema(tmp_path, [{"record": "p", "fields": [["b", "bool"], ["u", "unit"]]}])
    assert "int b;" in _files(schema, "glsl")["m.glsl"]
    assert "b: i32," in _files(schema, "wgsl")["m.wgsl"]
    assert "int b;" in _files(schema, "metal")["m_metal.h"]


def test_accessor_names_follow_the_arm_naming(tmp_path):
    schema = _schema(tmp_path, [{"variant": "v", "constructors": [
        ["One", ["float32"]], ["Two", ["int32", "float64"]], ["Zero", []]]}])
    for target in ("glsl", "wgsl"):
        text = _files(schema, target)[f"m.{target}"]
        for name in ("M_v_One_v(", "M_v_Two_0(", "M_v_Two_1(", "make_M_v_Zero(", "M_v_One"):
            assert name in text, (target, name)
        assert "M_v_One_0(" not in text


@pytest.mark.parametrize("target, word", [("glsl", "input"), ("glsl", "sample"),
                                          ("glsl", "gl_x"), ("wgsl", "filter"),
                                          ("wgsl", "output"), ("metal", "device"),
                                          ("metal", "thread")])
def test_words_reserved_in_one_target_are_escaped_there(target, word, tmp_path):
    """A field (and, with module "", a type) named like a word this language reserves is
    escaped in that target only, and the file compiles; C keeps the name."""
    types = [{"record": word, "fields": [[word, "int32"], ["y", "float64"]]},
             {"variant": "v", "constructors": [["A", [word]], ["B", []]]}]
    schema = _schema(tmp_path, types, module="")
    files = _files(schema, target)
    text = next(iter(files.values()))
    escaped = "sarek_" + word if word.startswith("gl_") else word + "_"
    assert escaped in text
    _compiles(target, files, tmp_path)
    c_header = _files(schema, "c")["m.h"]
    assert f"int32_t {word};" in c_header


def test_names_that_clash_once_escaped_are_refused(tmp_path):
    schema = _schema(tmp_path, [{"record": "p", "fields": [["input", "int32"], ["input_", "int32"]]}])
    with pytest.raises(SchemaError, match="escaped to 'input_'"):
        render_headers(schema, ["glsl"])
    render_headers(schema, ["c", "wgsl"])  # fine where nothing is escaped


def test_accessor_clashing_with_a_type_is_refused(tmp_path):
    schema = _schema(tmp_path, [
        {"record": "v_A_0", "fields": [["x", "int32"]]},
        {"variant": "v", "constructors": [["A", ["int32", "int32"]]]}])
    with pytest.raises(SchemaError, match="M_v_A_0"):
        render_headers(schema, ["wgsl"])


def test_cross_module_files(tmp_path):
    base = tmp_path / "base.json"
    base.write_text(json.dumps({"module": "Base", "types": [
        {"record": "p", "fields": [["x", "float32"], ["d", "float64"]]}]}))
    scene = tmp_path / "scene.json"
    scene.write_text(json.dumps({"module": "Scene", "types": [
        {"variant": "s", "constructors": [["P", ["Base.p"]], ["N", []]]}]}))
    schema = load_schema([str(base), str(scene)])
    glsl = _files(schema, "glsl")
    assert '#include "base.glsl"' in glsl["scene.glsl"]
    wgsl = _files(schema, "wgsl")
    assert "concatenate base.wgsl before this file" in wgsl["scene.wgsl"]
    assert '#include "base_metal.h"' in _files(schema, "metal")["scene_metal.h"]
    for target in GPU_TARGETS:
        _compiles(target, _files(schema, target), tmp_path)


def test_the_kernels_in_the_docs_compile(tmp_path):
    """docs/gpu-apis.md shows one kernel per API: each compiles against the example's files."""
    import re

    from helpers.common import ROOT

    doc = (ROOT / "docs" / "gpu-apis.md").read_text()
    blocks = dict(re.findall(r"```(glsl|wgsl|metal)\n(.*?)```", doc, re.S))
    assert set(blocks) == {"glsl", "wgsl", "metal"}
    schema = load_schema([str(EXAMPLES / "e2e" / "telemetry.toml")])
    require_toolchain("glslang")
    glsl = _files(schema, "glsl")
    from sarek_layout.verify.drivers.glsl import compile_glsl

    compile_glsl("glslang", blocks["glsl"], HeaderSet(tuple(glsl.items()), ()))
    require_toolchain("naga")
    from sarek_layout.verify.drivers.wgsl import validate_wgsl

    validate_wgsl(_files(schema, "wgsl")["telemetry.wgsl"] + blocks["wgsl"])
    require_toolchain("metal-proxy")
    from sarek_layout.verify.drivers.metal import METAL_PROXY_ARGS, METAL_SHIM

    for name, text in _files(schema, "metal").items():
        (tmp_path / name).write_text(text)
    (tmp_path / "metal_stdlib").write_text(METAL_SHIM)
    (tmp_path / "kernel.metal").write_text(blocks["metal"])
    proc = subprocess.run([*METAL_PROXY_ARGS, "-Dkernel=", "-Ddevice=", "-Wno-unknown-attributes",
                           "-fsyntax-only", f"-I{tmp_path}", str(tmp_path / "kernel.metal")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_members_named_like_glsl_opaque_types_compile_in_glsl(tmp_path):
    """glslang reads every opaque type name (``isampler2D``, ``uimage3D``, ``texture2DMS``,
    ``subpassInputMS``…) and the sized vector names as keywords: members so named are escaped
    in GLSL, so the generated file compiles (it did not before they were reserved)."""
    dims = ("1D", "2D", "3D", "2DRect", "Cube", "Buffer", "1DArray", "2DArray", "CubeArray",
            "2DMS", "2DMSArray")
    words = sorted({f"{p}{base}{d}" for p in ("", "i", "u")
                    for base in ("sampler", "image", "texture") for d in dims}
                   | {f"{p}subpassInput{ms}" for p in ("", "i", "u") for ms in ("", "MS")}
                   | {f"{k}{bits}vec{n}" for k, widths in (("i", (8, 16, 32)), ("u", (8, 16, 32)),
                                                         ("f", (16, 32))) for bits in widths
                      for n in (2, 3, 4)})
    schema = _schema(tmp_path, [{"record": "opaque", "fields": [[w, "int32"] for w in words]}])
    _compiles("glsl", _files(schema, "glsl"), tmp_path)
