"""The GPU API toolchains of ``verify`` against real tools: glslang (offsets from the SPIR-V),
naga (validation), vulkan and webgpu (compute shaders on lavapipe reading the structs and
accessors), metal-proxy (clang++ for arm64 Apple) and hip (Debian's hipcc, offline).

* the examples, the goldens and hypothesis schemas agree with every GPU toolchain;
* Sarek's exhaustive conformance shapes (780 records, 30,783 variants) through glslang and
  metal-proxy, a few invocations in all (slow);
* the numbers are the tools' own: edited files (a member too many, an accessor reading the
  wrong word, a WGSL constructor writing the wrong word) make each toolchain disagree, naming
  the member; the SPIR-V reader gives what ``spirv-cross --reflect`` gives.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from helpers.common import EXAMPLES, golden_cases, require_toolchain
from helpers.shapes import (conformance_records, conformance_variants, extension_scalar_records,
                            extension_scalar_variants, nested_descriptions, to_elttype)
from sarek_layout import elttype_layout
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.errors import SchemaError
from sarek_layout.verify.drivers import HeaderSet
from sarek_layout.verify.toolchains import driver_for
from sarek_layout.verify.drivers.gpu_probes import PROBES_PER_SHADER, SMALL_SCALARS
from sarek_layout.verify.probes import STRIDE, probes_for
from sarek_layout.verify.run import generated_headers, verify_schema
from helpers.verify import schema_json

GOLDEN = EXAMPLES.parent / "tests" / "golden"
#: Toolchains that measure numbers, and naga, which only validates.
MEASURING = ["glslang", "vulkan", "webgpu", "metal-proxy", "hip"]
GPU_TOOLCHAINS = MEASURING + ["naga"]


def _measurable(probe, toolchain) -> bool:
    """What a toolchain can measure: glslang reads offsets from SPIR-V, which has none for a
    uint8 or float16 inside a 32-bit word; no shader probe resolves an alignment below 4."""
    if toolchain == "glslang" and probe.scalar in SMALL_SCALARS and probe.member:
        return False
    # An array of scalars smaller than a word is kept as whole words (the kinds goldens'
    # scalar uint16[4]): no element of its own, so no stride; an enum has constants only.
    if probe.quantity == STRIDE and probe.scalar in SMALL_SCALARS or probe.enum:
        return False
    return not (toolchain in ("glslang", "vulkan", "webgpu") and probe.quantity == "align"
                and probe.expected < 4)


def _agrees(schema, toolchain):
    require_toolchain(toolchain)
    report = verify_schema(schema, toolchains=[toolchain])
    (result,) = report.results
    assert result.status == "agrees", report.format()
    if toolchain in MEASURING:
        probes = probes_for(schema.types)
        assert result.values >= sum(_measurable(p, toolchain) for p in probes) > 0
    return result


@pytest.mark.parametrize("toolchain", GPU_TOOLCHAINS)
def test_examples_agree(toolchain):
    schema = load_schema([str(EXAMPLES / "geometry.toml"), str(EXAMPLES / "e2e" / "telemetry.toml")])
    _agrees(schema, toolchain)


@pytest.mark.parametrize("toolchain", GPU_TOOLCHAINS)
def test_golden_schemas_agree(toolchain):
    # A case using SPEC §1b's member kinds that the toolchain's target refuses keeps that
    # refusal as expected/<target>.refused (test_codegen_golden checks it).
    from sarek_layout.verify.toolchains import TOOLCHAINS

    target = TOOLCHAINS[toolchain].target
    for case, paths in golden_cases().items():
        if not (GOLDEN / case / "expected" / f"{target}.refused").is_file():
            _agrees(load_schema(paths), toolchain)


@pytest.fixture(scope="module")
def hypothesis_schema(tmp_path_factory):
    """25 hypothesis schemas of nested records and variants, as one schema of many files."""
    folder = tmp_path_factory.mktemp("gpu-hypothesis")
    paths = []

    @settings(max_examples=25, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(nested_descriptions(max_types=8))
    def write(descs):
        n = len(paths)
        path = folder / f"hyp{n}.json"
        path.write_text(json.dumps(schema_json(descs, module=f"Hyp{n}")))
        try:  # GLSL and WGSL refuse a record that is not whole 32-bit words (three uint8)
            render_headers(load_schema([str(path)]), ["glsl", "wgsl"])
        except SchemaError:
            return
        paths.append(str(path))

    write()
    assert len(paths) >= 10
    return load_schema(paths)


@pytest.mark.parametrize("toolchain", ["vulkan", "webgpu"])
def test_a_long_probe_list_is_read_by_several_shaders(toolchain, tmp_path):
    """The device compilers' time grows faster than the shader (one record of 2,048 fields
    took 55 s in one shader), so the runtime toolchains read at most PROBES_PER_SHADER probes
    per shader. The first batch ends inside the variant, so some constructor's probes fall
    in two shaders and must still find their accessors."""
    fields = ", ".join(f'["f{i}", "float32"]' for i in range(250))
    ctors = ", ".join(f'["C{i}", ["int32", "uint8", "float64"]]' for i in range(40))
    (tmp_path / "long.toml").write_text(
        f'module = "Long"\n\n[[types]]\nrecord = "wide"\nfields = [{fields}]\n\n'
        f'[[types]]\nvariant = "v"\nconstructors = [{ctors}]\n')
    schema = load_schema([str(tmp_path / "long.toml")])
    probes = probes_for(schema.types)
    result = _agrees(schema, toolchain)
    assert result.builds == -(-len(probes) // PROBES_PER_SHADER) > 1


@pytest.mark.parametrize("toolchain", GPU_TOOLCHAINS)
def test_hypothesis_schemas_agree(toolchain, hypothesis_schema):
    _agrees(hypothesis_schema, toolchain)


@pytest.fixture(scope="module")
def conformance_paths(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gpu-conformance")
    records, variants = list(conformance_records()), list(conformance_variants())
    batches = [("conf_records", records)] + [(f"conf_variants{i}", variants[i::4]) for i in range(4)]
    paths = []
    for stem, descs in batches:
        path = folder / f"{stem}.json"
        path.write_text(json.dumps(schema_json(descs, module=stem.capitalize())))
        paths.append(str(path))
    return paths


@pytest.fixture(scope="module")
def conformance_schema(conformance_paths):
    """``batch -> schema``, loaded on first use; the last one is kept, so the two toolchains'
    items of a batch (adjacent: batch is the outer parameter) load its 7,700 types once."""
    kept = {}

    def get(batch):
        if batch not in kept:
            kept.clear()
            kept[batch] = load_schema([conformance_paths[batch]])
        return kept[batch]

    return get


@pytest.mark.slow
@pytest.mark.parametrize("toolchain", ["glslang", "metal-proxy"])
@pytest.mark.parametrize("batch", range(5))
def test_conformance_shapes_agree(toolchain, batch, conformance_paths, conformance_schema):
    """All 31,563 shapes, one schema file (one compiler invocation) per test item, so that
    pytest-xdist spreads them over the workers."""
    assert len(conformance_paths) == 5
    _agrees(conformance_schema(batch), toolchain)


def _extension_descs():
    """The extension scalars' enumeration, less the records GLSL and WGSL cannot express (a
    size that is not whole 32-bit words: one int8): 733 records and 990 variants."""
    records = [d for d in extension_scalar_records()
               if elttype_layout(to_elttype(d, {})).size % 4 == 0]
    descs = records + list(extension_scalar_variants())
    assert (len(records), len(descs)) == (733, 1_723)
    return descs


@pytest.fixture(scope="module")
def extension_schemas(tmp_path_factory):
    """``(all of them, every 100th)``: the runtime toolchains build shaders on lavapipe, a
    minute for 44 of these types here (the golden case extension_scalars has them all too)."""
    folder = tmp_path_factory.mktemp("gpu-extension")
    descs = _extension_descs()
    out = []
    for stem, part in (("ext", descs), ("ext_part", descs[::100])):
        path = folder / f"{stem}.json"
        path.write_text(json.dumps(schema_json(part, module=stem.capitalize())))
        out.append(load_schema([str(path)]))
    return out


@pytest.mark.parametrize("toolchain", GPU_TOOLCHAINS)
def test_extension_scalar_enumeration_agrees(toolchain, extension_schemas):
    """int8, int16, uint16 (inside 32-bit words, read by accessors: sign-extended when
    signed), uint32 and uint64 on every GPU toolchain, the shaders' own numbers."""
    every, part = extension_schemas
    _agrees(part if toolchain in ("vulkan", "webgpu") else every, toolchain)


# --- the numbers are the tools' own -----------------------------------------------------------


def _example_headers(target):
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    return schema, generated_headers(schema, [target])[target]


def _edited(headers: HeaderSet, old: str, new: str) -> HeaderSet:
    ((name, text),) = headers.files
    assert old in text, old
    return HeaderSet(((name, text.replace(old, new, 1)),), headers.includes)


def _disagreements(toolchain, schema, headers):
    require_toolchain(toolchain)
    probes = probes_for(schema.types)
    m = driver_for(toolchain).measure(headers, probes)
    return {f"{p.c_type}.{p.member} {p.quantity}": v
            for _, values in m.passes for p, v in zip(probes, values)
            if v is not None and v != p.expected}


def test_glslang_reports_the_compilers_numbers(tmp_path):
    """A file that lays a record out differently: glslang's numbers, not the expected ones."""
    from helpers.verify import schema_of

    schema = schema_of([("record", "r", [("a", "int32"), ("b", "float64")])], tmp_path)
    headers = HeaderSet((("r.glsl", "struct Conf_r { int a; int64_t c; double b; };\n"),), ("r.glsl",))
    wrong = _disagreements("glslang", schema, headers)
    assert wrong == {"Conf_r.b offset": 16, "Conf_r. size": 24}


def test_glslang_measures_arguments_on_the_arm_structs():
    schema, headers = _example_headers("glsl")
    edited = _edited(headers, "struct Geometry_shape_Circle_arm {\n    int tag; // offset 0\n"
                     "    uint _sarek_pad0[1]; // offset 4, padding\n",
                     "struct Geometry_shape_Circle_arm {\n    int tag; // offset 0\n"
                     "    uint _sarek_pad0[3]; // offset 4, padding\n")
    wrong = _disagreements("glslang", schema, edited)
    assert wrong == {"Geometry_shape.data.Circle_v._0 offset": 16,
                     "Geometry_shape.data.Circle_v._1 offset": 24}


def test_vulkan_reads_where_the_accessor_reads():
    """An accessor reading the wrong payload word: only the device run can see it."""
    schema, headers = _example_headers("glsl")
    edited = _edited(headers, "return uintBitsToFloat(_sarek_v.data[1].x);",
                     "return uintBitsToFloat(_sarek_v.data[1].y);")
    assert _disagreements("vulkan", schema, edited) == {"Geometry_shape.data.Circle_v._1 offset": 20}
    assert _disagreements("glslang", schema, edited) == {}


def test_webgpu_reads_where_the_accessor_reads():
    schema, headers = _example_headers("wgsl")
    edited = _edited(headers, "return vec2<u32>(_sarek_v.data[0].x, _sarek_v.data[0].y);",
                     "return vec2<u32>(_sarek_v.data[1].x, _sarek_v.data[1].y);")
    assert "Geometry_shape.data.Weighted_v._0 offset" not in _disagreements("webgpu", schema, headers)
    # float64 is raw words in WGSL: the Weighted._0 accessor now reads words 2 and 3
    wrong = _disagreements("webgpu", schema, edited)
    assert wrong == {"Geometry_shape.data.Weighted_v._0 offset": 16}


def _texels_headers(target):
    schema = load_schema([str(GOLDEN / "small_scalars" / "texels.toml")])
    return schema, generated_headers(schema, [target])[target]


#: The start of the GLSL accessor of Texels.texel's field n, a uint8 at byte 6: bits 16-23.
_N = "uint Texels_texel_n(Texels_texel _sarek_v)\n{\n    return ((_sarek_v._sarek_bytes0 >> "


def test_vulkan_and_webgpu_measure_uint8_and_float16_inside_their_words():
    """Accessors reading the wrong byte of a packed word: the device runs see the byte,
    glslang only the words (it leaves those members unmeasured)."""
    schema, headers = _texels_headers("glsl")
    edited = _edited(headers, _N + "16u) & 0xFFu);", _N + "24u) & 0xFFu);")
    assert _disagreements("vulkan", schema, headers) == {}
    assert _disagreements("vulkan", schema, edited) == {"Texels_texel.n offset": 7}
    assert _disagreements("glslang", schema, edited) == {}
    edited = _edited(headers, "unpackHalf2x16((_sarek_v.data[0].x >> 16u) & 0xFFFFu).x",
                     "unpackHalf2x16((_sarek_v.data[0].x >> 8u) & 0xFFFFu).x")
    assert _disagreements("vulkan", schema, edited) == {"Texels_value.data.Pair_v._1 offset": 9}
    # An accessor that reads a whole byte too many is caught by its size.
    edited = _edited(headers, _N + "16u) & 0xFFu);", _N + "16u) & 0xFFFFu);")
    assert _disagreements("vulkan", schema, edited) == {"Texels_texel.n member size": 2}

    schema, headers = _texels_headers("wgsl")
    assert _disagreements("webgpu", schema, headers) == {}
    edited = _edited(headers, "unpack2x16float((_sarek_v.data[0].x >> 16u) & 0xFFFFu).x",
                     "unpack2x16float(_sarek_v.data[0].x & 0xFFFFu).x")
    assert _disagreements("webgpu", schema, edited) == {"Texels_value.data.Pair_v._1 offset": 8}


def test_glslang_measures_the_records_beside_uint8_and_float16():
    """The arm struct of Rgba of rgba * uint8 * float16: glslang measures the record
    argument (its words), and leaves the two inside the next word unmeasured."""
    schema, headers = _texels_headers("glsl")
    edited = _edited(headers, "struct Texels_small_Rgba_arm {\n    int tag; // offset 0\n",
                     "struct Texels_small_Rgba_arm {\n    int tag; // offset 0\n    uint sneaky;\n")
    assert _disagreements("glslang", schema, edited) == {"Texels_small.data.Rgba_v._0 offset": 8}


def test_naga_refuses_invalid_wgsl():
    require_toolchain("naga")
    from sarek_layout.verify.drivers import ProbeFailed

    schema, headers = _example_headers("wgsl")
    edited = _edited(headers, "x: f32,", "x: f33,")
    with pytest.raises(ProbeFailed, match="f33"):
        driver_for("naga").measure(edited, probes_for(schema.types))


def test_metal_proxy_assertions_and_numbers():
    schema, headers = _example_headers("metal")
    edited = _edited(headers, "    float x; /* offset 0 */\n", "    float x; /* offset 0 */\n    int sneaky;\n")
    tc = require_toolchain("metal-proxy")
    probes = probes_for(schema.types)
    m = driver_for("metal-proxy").measure(edited, probes)
    assert m.note and "Geometry_point::y must be at offset 4" in m.note
    ((_, values),) = m.passes
    measured = {f"{p.c_type}.{p.member} {p.quantity}": v for p, v in zip(probes, values)}
    assert measured["Geometry_point.y offset"] == 8
    assert tc.name == "metal-proxy"


def test_hip_measures_both_passes():
    schema, headers = _example_headers("cuda")
    require_toolchain("hip")
    m = driver_for("hip").measure(headers, probes_for(schema.types))
    assert [name for name, _ in m.passes] == ["host pass", "device pass"]
    edited = _edited(headers, "alignas(8) double mass;", "double mass; int sneaky;")
    wrong = _disagreements("hip", schema, edited)
    assert wrong["Geometry_particle.pos offset"] == 20  # sneaky at 16, then pos


def test_spirv_reader_matches_spirv_cross(tmp_path):
    """The SPIR-V reader the glslang toolchain uses gives what spirv-cross --reflect gives."""
    require_toolchain("glslang")
    from sarek_layout.verify.drivers.glsl import (compile_glsl, reflect_spirv, reflection_source,
                                                  struct_layouts)

    schema = load_schema([str(EXAMPLES / "geometry.toml"), str(EXAMPLES / "e2e" / "telemetry.toml")])
    headers = generated_headers(schema, ["glsl"])["glsl"]
    names = [t.c_name for t in schema.types] + ["Geometry_shape_Circle_arm"]
    spirv = compile_glsl("glslang", reflection_source(headers, names), headers)
    ours = struct_layouts(spirv)
    theirs = {}
    reflected = reflect_spirv("spirv-cross", spirv)
    for info in reflected["types"].values():
        members = info.get("members", [])
        if members and "offset" in members[0]:
            theirs[info["name"]] = {m["name"]: (m["offset"], m.get("array_stride", -1))
                                    for m in members}
    assert {n: {m: (o, s) for m, (o, _, s) in ms.items()} for n, ms in ours.items()} == theirs
    assert ours["Telemetry_sample"]["stamp"][:2] == (8, "int64_t")


@pytest.mark.parametrize("toolchain", ["webgpu", "vulkan"])
def test_a_packed_field_named_like_a_reserved_word_is_measured(toolchain, tmp_path):
    """The templates escape a sub-word field's name (WGSL reserves ``f16``: ``f16_``) before
    they build its accessor's name; the probe built the name from the raw field and then
    escaped that, so it looked for ``W_rec_f16``, which no file declares, and the run failed."""
    path = tmp_path / "w.toml"
    path.write_text('module = "W"\n[[types]]\nrecord = "rec"\n'
                    'fields = [["f16", "uint8"], ["x", "int32"], ["u8", "float16"]]\n')
    _agrees(load_schema([str(path)]), toolchain)
