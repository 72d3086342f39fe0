"""SPEC §1b's member kinds (fixed arrays, vectors, matrices, enums) in the generated GLSL and
WGSL, under every rule set, measured by the GPU toolchains: glslang (offsets, array and
matrix strides from the SPIR-V), vulkan and webgpu (compute shaders on lavapipe reading the
structs, accessors and element strides), naga (validation).

* the conformance enumeration with kinds (``helpers.gpu_kinds``: random records of every
  kind, and variants carrying them) agrees on every toolchain, for every type each target
  accepts; the types a target refuses are refused for a reason it names;
* every stride probe is live: a file whose array is spelled with another stride disagrees,
  naming the level;
* a ``float32[100000000]`` member costs what a ``float32`` costs in the probe shaders, and
  glslang measures it (the runtime toolchains leave a type too large for a probe buffer);
* the generated GLSL and WGSL read back by ``verify --shader`` as hand-written shaders agree;
* the Metal header holds every rule set's bytes (metal-proxy: clang++ for arm64 Apple) on
  both kinds enumerations.
"""

from __future__ import annotations

import json
import re

import pytest

from helpers.common import require_toolchain
from helpers.gpu_kinds import accepted, kind_types, shape_types, write
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.ir.schema import MATRIX
from sarek_layout.ir.types import RULE_SET_NAMES
from sarek_layout.resolve import load_schema
from sarek_layout.verify.drivers import HeaderSet
from sarek_layout.verify.drivers.gpu_probes import SMALL_SCALARS
from sarek_layout.verify.probes import STRIDE, probes_for
from sarek_layout.verify.run import generated_headers, verify_schema
from sarek_layout.verify.toolchains import driver_for

#: Every rule set (SPEC §1b and issue 33's): a new row is enumerated here as it lands.
RULES = list(RULE_SET_NAMES)
TARGET = {"glslang": "glsl", "vulkan": "glsl", "naga": "wgsl", "webgpu": "wgsl"}
#: Records (and as many variants) per rule set: the static toolchains take many; the runtime
#: ones build shaders on lavapipe (a few seconds per hundred probes of a variant).
COUNT = {"glslang": 120, "naga": 120, "vulkan": 12, "webgpu": 12}


def _measurable(p, toolchain) -> bool:
    """What a toolchain measures: not an enum (GLSL and WGSL have its constants only), not a
    byte inside a word (glslang: no offset of it; the stride of an array of bytes kept as
    words), no alignment below 4 (every GLSL/WGSL struct is 4-aligned)."""
    if p.enum or (p.scalar in SMALL_SCALARS and (p.quantity == STRIDE or toolchain == "glslang")):
        return False
    return not (p.quantity == "align" and p.expected < 4)


def _two_row_matrix(st, seen=None) -> bool:
    """Whether a type holds a ``matCx2`` (through its records too): wgpu reads such a type
    of the uniform rules from storage, where its alignment is not the uniform space's."""
    seen = set() if seen is None else seen
    if id(st) in seen:
        return False
    seen.add(id(st))
    members = [*st.members, *(a for arm in st.arms for a in arm.args)]
    return any(d.kind == MATRIX and m.dims[-1].count == 2 for m in members for d in m.dims) \
        or any(m.record is not None and _two_row_matrix(m.record, seen) for m in members)


def _agrees(schema, toolchain):
    require_toolchain(toolchain)
    report = verify_schema(schema, toolchains=[toolchain])
    (result,) = report.results
    assert result.status == "agrees", report.format()
    if toolchain != "naga":
        moved = {st.c_name for st in schema.types if toolchain == "webgpu" and
                 st.rules == "wgsl-uniform" and _two_row_matrix(st)}
        wanted = sum(_measurable(p, toolchain) and not (p.quantity == "align" and
                                                        p.c_type in moved)
                     for p in probes_for(schema.types))
        assert result.values >= wanted > 0, (result.values, wanted)
    return result


#: What each refusal may say: the alignment a struct's member types cannot reach (GLSL has
#: no pin, naga ignores @align on a struct's alignment: WGSL 64-bit vectors are 8-aligned
#: words, std140's 16 is out of reach), or a member no spelling holds.
REASONS = ("where its members' types make it", "cannot be declared", "dependency",
           "keeps its payload at byte")


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("toolchain", ["glslang", "naga", "vulkan", "webgpu"])
def test_the_kinds_enumeration_agrees(toolchain, rules, tmp_path):
    types = kind_types(seed=32, count=COUNT[toolchain])
    ok, refused = accepted(types, rules, TARGET[toolchain], tmp_path)
    for name, why in refused.items():
        assert any(r in why for r in REASONS), f"{name}: {why}"
    # Most of the enumeration is emitted: GLSL's refusals are variants whose payload is
    # 32-aligned (a dvec4 argument) or, under scalar rules, 8-aligned; WGSL's, 64-bit vectors
    # and std140's 16-aligned structs of smaller members.
    # HLSL's constant buffers end an array at its last element and round no struct up: no
    # GLSL block or WGSL struct lays that out, and every type using them is refused.
    # wgsl-uniform: GLSL holds it in std140 blocks (a matCx2 refused), WGSL in var<uniform>
    # (structs less aligned than 16 placed by padding; arrays of words refused).
    floor = {"glsl": {"c": 1.0, "cuda": 1.0, "std430": 0.6, "std140": 0.6, "scalar": 0.45,
                      "wgsl-uniform": 0.6, "hlsl-cbuffer": 0.0},
             "wgsl": {"c": 1.0, "cuda": 0.3, "std430": 0.2, "std140": 0.02, "scalar": 0.6,
                      "wgsl-uniform": 0.2, "hlsl-cbuffer": 0.0}}
    assert len(ok) >= floor[TARGET[toolchain]].get(rules, 0.0) * len(types), (len(ok), refused)
    if not ok:
        return
    path = write(tmp_path / "all.json", rules, [types[t][0] for t in types if t in ok])
    _agrees(load_schema([path]), toolchain)


def _schema(tmp_path, rules, fields, name="k.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"module": "K", "rules": rules,
                                "types": [{"record": "r", "fields": fields}]}))
    return load_schema([str(path)])


def _disagreements(toolchain, schema, headers):
    require_toolchain(toolchain)
    probes = probes_for(schema.types)
    m = driver_for(toolchain).measure(headers, probes)
    return {f"{p.c_type}.{p.member} {p.quantity}": v
            for _, values in m.passes for p, v in zip(probes, values)
            if v is not None and v != p.expected}


def _edited(headers: HeaderSet, *edits: str) -> HeaderSet:
    """``headers`` with each ``old`` of ``edits`` (old, new, old, new…) replaced everywhere."""
    ((name, text),) = headers.files
    for old, new in zip(edits[::2], edits[1::2]):
        assert old in text, old
        text = text.replace(old, new)
    return HeaderSet(((name, text),), headers.includes)


@pytest.mark.parametrize("toolchain", ["glslang", "vulkan"])
def test_glsl_strides_are_the_compilers(toolchain, tmp_path):
    """std430 ``vec3<float32>[4]`` is ``vec3 p[4]`` (stride 16, as GLSL strides a vec3): the
    same member spelled ``float p[4][3]`` (in the functions too) has stride 12, which the
    toolchains report, and the members after it move."""
    schema = _schema(tmp_path, "std430", [["p", "vec3<float32>[4]"], ["m", "mat3"],
                                          ["t", "float32"]])
    headers = generated_headers(schema, ["glsl"])["glsl"]
    assert _disagreements(toolchain, schema, headers) == {}
    edited = _edited(headers, "vec3 p[4];", "float p[4][3];", "vec3[4]", "float[4][3]")
    wrong = _disagreements(toolchain, schema, edited)
    assert wrong["K_r.p[0] stride"] == 12 and wrong["K_r.p member size"] == 48
    assert wrong["K_r.m offset"] == 48


@pytest.mark.parametrize("toolchain", ["glslang", "vulkan"])
def test_glsl_matrix_column_strides_are_the_compilers(toolchain, tmp_path):
    """std140 ``mat2`` has 16-byte columns in GLSL's own std140 block; the c rules' ``mat2``
    is ``float m[2][2]`` (8-byte columns). Each file measured in its own block layout."""
    for rules, stride in (("std140", 16), ("c", 8)):
        schema = _schema(tmp_path, rules, [["m", "mat2"], ["t", "float32"]], f"{rules}.json")
        headers = generated_headers(schema, ["glsl"])["glsl"]
        probe = next(p for p in probes_for(schema.types) if p.quantity == STRIDE)
        assert (probe.member, probe.expected) == ("m[0]", stride)
        assert _disagreements(toolchain, schema, headers) == {}


@pytest.mark.parametrize("toolchain", ["naga", "webgpu"])
def test_wgsl_element_structs_pad_to_the_stride(toolchain, tmp_path):
    """std140 ``float32[4]`` strides 16 bytes: WGSL's ``array<f32, 4>`` strides 4, so the
    element is wrapped (``@size(16)``); an edited size is measured."""
    schema = _schema(tmp_path, "std140", [["a", "float32[4]"], ["b", "vec4"]])
    headers = generated_headers(schema, ["wgsl"])["wgsl"]
    ((_, text),) = headers.files
    assert "struct K_r_a_elem { @size(16) v: f32, }" in text
    assert "a: array<K_r_a_elem, 4>" in text
    if toolchain == "naga":
        _agrees(schema, "naga")
        return
    assert _disagreements(toolchain, schema, headers) == {}
    edited = _edited(headers, "@size(16) v: f32", "@size(32) v: f32")
    wrong = _disagreements(toolchain, schema, edited)
    assert wrong["K_r.a[0] stride"] == 32 and wrong["K_r.b offset"] == 128


@pytest.mark.parametrize("toolchain", ["glslang", "vulkan", "webgpu"])
def test_a_huge_array_costs_what_one_element_costs(toolchain, tmp_path):
    """``float32[100000000]``: the generated files and the probe shaders are as long as for
    ``float32[4]``; glslang measures it from the SPIR-V; the runtime toolchains, whose probe
    buffers hold two copies of a type (128 MiB at most on lavapipe), leave it unmeasured."""
    from sarek_layout.verify.drivers.gpu_probes import GLSL_PROBE, WGSL_PROBE, probe_program

    lang = {"glslang": GLSL_PROBE, "vulkan": GLSL_PROBE, "webgpu": WGSL_PROBE}[toolchain]
    target = TARGET[toolchain]
    sizes = {}
    for n in (1000, 100_000_000):
        (tmp_path / str(n)).mkdir()
        schema = _schema(tmp_path / str(n), "c", [["n", "int32"], ["xs", f"float32[{n}]"],
                                                  ["t", "float32"]])
        headers = generated_headers(schema, [target])[target]
        program = probe_program(lang, headers, probes_for(schema.types))
        sizes[n] = (re.sub(r"0x[0-9a-f]+|\d+", "0", headers.files[0][1]), len(program.source),
                    len(program.input))
    assert sizes[100_000_000][0] == sizes[1000][0]  # the same text, but for the numbers
    assert sizes[100_000_000][1] <= sizes[1000][1]
    assert sizes[100_000_000][2] < 4096  # the probe buffer does not hold it
    require_toolchain(toolchain)
    m = driver_for(toolchain).measure(headers, probes_for(schema.types))
    ((_, values),) = m.passes
    measured = {f"{p.member} {p.quantity}": v for p, v in zip(probes_for(schema.types), values)}
    if toolchain == "glslang":
        assert measured["xs member size"] == 400_000_000 and measured["xs[0] stride"] == 4
        assert measured["t offset"] == 400_000_004
    else:
        assert set(measured.values()) == {None}


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("target", ["glsl", "wgsl"])
def test_verify_shader_takes_what_generate_writes(target, rules, tmp_path):
    """The generated file read as a hand-written shader: every struct of it (records,
    variants, GLSL's arm structs; WGSL's element structs read as their element) agrees
    with the schema under its rule set."""
    from sarek_layout.verify.shaders import verify_shaders

    require_toolchain("glslang" if target == "glsl" else "webgpu")
    types = kind_types(seed=5, count=8)
    ok, _ = accepted(types, rules, target, tmp_path)
    if not ok:
        pytest.skip(f"{target} emits none of these types under {rules}")
    path = write(tmp_path / "all.json", rules, [types[t][0] for t in types if t in ok])
    schema = load_schema([path])
    (f,) = render_headers(schema, [target])
    shader = tmp_path / f.filename
    shader.write_text(f.text)
    report = verify_shaders(schema, [str(shader)])
    assert report.ok, report.format()
    assert len(report.checked) >= len(ok)


#: Metal's header is the C family's (alignas pins, MSL's float2/float4…): it holds the bytes
#: of every rule set (a struct a rule set does not round up refused, naming the member).
METAL_REASONS = ("rounds", "cannot", "dependency")


@pytest.mark.parametrize("rules", RULES)
def test_metal_holds_every_rule_set(rules, tmp_path):
    """The kinds' conformance enumeration (``helpers.kinds_shapes``: every kind alone, before
    followers, as constructor arguments; its enums) and the random one (``helpers.gpu_kinds``)
    under each rule set, in the generated Metal header: metal-proxy (clang++ for arm64 Apple,
    the header's assertions live) measures every offset, size and stride as the layout."""
    from helpers import kinds_shapes

    require_toolchain("metal-proxy")
    types = kind_types(seed=33, count=60)
    ok, refused = accepted(types, rules, "metal", tmp_path)
    for name, why in refused.items():
        assert any(r in why for r in METAL_REASONS), f"{name}: {why}"
    files = [write(tmp_path / "all.json", rules, [types[t][0] for t in types if t in ok])]
    shapes = kinds_shapes.schema_files(tmp_path / "shapes", [rules])
    try:
        render_headers(load_schema(shapes), ["metal"])
        files += shapes
    except SchemaError as e:  # the shapes refused under these rules, saying why
        assert any(r in str(e) for r in METAL_REASONS), str(e)
    schema = load_schema(files)
    report = verify_schema(schema, toolchains=["metal-proxy"])
    (result,) = report.results
    assert result.status == "agrees", report.format()
    assert result.values == len(probes_for(schema.types)) > 100
    assert not refused or rules in ("scalar", "hlsl-cbuffer"), refused


@pytest.mark.parametrize("toolchain,rules", [(t, r) for t in ("glslang", "naga") for r in RULES]
                         + [("webgpu", "wgsl-uniform"), ("vulkan", "wgsl-uniform")])
def test_the_conformance_enumeration_agrees_on_the_shader_toolchains(toolchain, rules, tmp_path):
    """The kinds' conformance enumeration (``helpers.kinds_shapes``, as the C family's
    toolchains take it) under each rule set: every type GLSL or WGSL emits agrees with
    glslang's SPIR-V or passes naga; every other one is refused for a reason it names.
    Under wgsl-uniform the runtime toolchains read them too: wgpu from a ``var<uniform>``,
    Vulkan from a std140 block (about half a minute each on lavapipe)."""
    types = shape_types(rules)
    ok, refused = accepted(types, rules, TARGET[toolchain], tmp_path)
    # Besides REASONS: the enumeration's uint8 members make types of a size no struct of
    # 32-bit words has.
    for name, why in refused.items():
        assert any(r in why for r in REASONS + ("whole 32-bit words",)), f"{name}: {why}"
    assert ok, refused
    path = write(tmp_path / "all.json", rules, [types[t][0] for t in types if t in ok])
    _agrees(load_schema([path]), toolchain)


@pytest.mark.parametrize("toolchain", ["vulkan"])
def test_packed_small_scalar_arrays_are_read_through_their_accessor(toolchain, tmp_path):
    """The scalar rules' ``uint16[4]`` argument is two words (``uint[2]``, the accessor's
    return type): the probe reads where its first byte is and how many bytes its words hold;
    an accessor that starts a word late is caught at that argument."""
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"module": "K", "rules": "scalar", "types": [
        {"variant": "v", "constructors": [["Blend", ["uint16[4]", "float32"]], ["Off", []]]}]}))
    schema = load_schema([str(path)])
    headers = generated_headers(schema, ["glsl"])["glsl"]
    assert _disagreements(toolchain, schema, headers) == {}
    edited = _edited(headers, "_sarek_r[0] = _sarek_v.data[0]; _sarek_r[1] = _sarek_v.data[1];",
                     "_sarek_r[0] = _sarek_v.data[1]; _sarek_r[1] = _sarek_v.data[2];")
    assert _disagreements(toolchain, schema, edited) == {"K_v.data.Blend_v._0 offset": 8}
