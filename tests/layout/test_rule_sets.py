"""The member kinds of SPEC §1b (fixed arrays, vectors, matrices) under each rule set: SPEC's
worked values as a table, then hundreds of random structs against the compiler that
implements each rule set natively: gcc for ``c``, glslang (with spirv-cross's reflection of
its SPIR-V) for ``std430``, ``std140`` and ``scalar``.
"""

from __future__ import annotations

import pytest

from helpers import kinds_oracle
from helpers.common import require_toolchain
from sarek_layout.errors import LayoutError, MixedRules, NestedVariant, TooLarge
from sarek_layout.ir.types import (SCALARS, TFixedArray, TFloat32, TFloat64, TInt32, TMatrix,
                                   TRecord, TVariant, TVector)
from sarek_layout.layout import rules as rules_module
from sarek_layout.layout.core import member_shape, record_layout, variant_layout
from sarek_layout.layout.rules import RULE_SETS

V3, V4 = TVector(TFloat32, 3), TVector(TFloat32, 4)


def shape(t, rules):
    return member_shape(t, RULE_SETS[rules])


# SPEC §1b's worked values, and the first numbers glslang gave for std140 and scalar.
RECORDS = [
    ("std430", [("a", V3), ("b", TFloat32)], [0, 12], 16, 16),
    ("c", [("c", V4), ("d", TFloat32)], [0, 16], 20, 4),
    ("c", [("n", TInt32), ("v", TFixedArray(TFloat64, 3))], [0, 8], 32, 8),
    ("std140", [("a", TFixedArray(TFloat32, 2)), ("b", TFloat32)], [0, 32], 48, 16),
    ("scalar", [("a", V3), ("b", TFloat32)], [0, 12], 16, 4),
    # Microsoft's packing examples, as Slang's HLSL reflection gives them: a float3 and a
    # float share a register; an array's elements start registers, its last is not padded.
    ("hlsl-cbuffer", [("a", V3), ("b", TFloat32)], [0, 12], 16, 16),
    ("hlsl-cbuffer", [("a", TFixedArray(TFloat32, 3)), ("b", TFloat32)], [0, 36], 40, 16),
    ("hlsl-cbuffer", [("a", TFloat32), ("b", TFloat32), ("c", V3)], [0, 4, 16], 28, 16),
    ("wgsl-uniform", [("a", TFloat32), ("b", TFixedArray(TFloat32, 2))], [0, 16], 48, 16),
]
SHAPES = [
    ("std430", TFixedArray(V3, 2), 32, 16, 16),
    ("std430", TMatrix(TFloat32, 3, 3), 48, 16, 16),
    ("std430", TMatrix(TFloat32, 2, 2), 16, 8, 8),
    ("c", TFixedArray(TFixedArray(TFloat32, 4), 4), 64, 4, 16),
    ("std140", TMatrix(TFloat32, 2, 2), 32, 16, 16),
    ("scalar", TMatrix(TFloat32, 3, 3), 36, 4, 12),
    ("c", TMatrix(TFloat32, 4, 4), 64, 4, 16),
    ("cuda", TVector(TFloat32, 4), 16, 16, 0),
    ("wgsl-uniform", TMatrix(TFloat32, 2, 2), 16, 8, 8),  # std140 would say 32, 16, 16
    ("hlsl-cbuffer", TMatrix(TFloat32, 3, 3), 44, 16, 16),
    ("cuda", TVector(TFloat32, 3), 12, 4, 0),
    ("cuda", TVector(TFloat32, 2), 8, 8, 0),
    ("cuda", TVector(TFloat64, 2), 16, 16, 0),
    ("cuda", TVector(TFloat64, 4), 32, 16, 0),
]


@pytest.mark.parametrize("rules, fields, offsets, size, align", RECORDS)
def test_worked_records(rules, fields, offsets, size, align):
    layout = record_layout("t", fields, rules)
    assert (list(layout.offsets), layout.size, layout.align) == (offsets, size, align)


@pytest.mark.parametrize("rules, t, size, align, stride", SHAPES)
def test_worked_shapes(rules, t, size, align, stride):
    s = shape(t, rules)
    assert (s.size, s.align, s.stride) == (size, align, stride)


def test_a_scalar_struct_is_not_rounded_up_and_its_array_tail_is_unpadded():
    # glslang, scalar block layout: {double d; float f} is 12 bytes (not C's 16); an array of
    # two has a 16-byte stride and the next member starts 12 bytes after the second element.
    inner = TRecord("s", [("d", TFloat64), ("f", TFloat32)], "scalar")
    layout = record_layout("t", [("a", TFixedArray(inner, 2)), ("b", TFloat32)], "scalar")
    assert record_layout("s", inner.fields, "scalar").size == 12
    assert list(layout.offsets) == [0, 28]


def test_leaves_describe_an_array_once_with_its_count_and_stride():
    point = TRecord("point", [("x", TFloat32), ("y", TFloat32), ("z", TFloat32)])
    layout = record_layout("t", [("n", TInt32), ("pts", TFixedArray(point, 16)),
                                 ("m", TMatrix(TFloat32, 3, 3))])
    pts_x = layout.leaves[1]
    assert (pts_x.path, pts_x.offset, pts_x.count, pts_x.stride) == ("pts[].x", 4, (16,), (12,))
    m = layout.leaves[-1]
    assert (m.path, m.count, m.stride) == ("m", (3, 3), (12, 4))
    assert len(layout.leaves) == 5


def test_a_huge_array_costs_what_one_element_costs():
    layout = record_layout("t", [("a", TFixedArray(TFloat32, 100_000_000))])
    assert layout.size == 400_000_000 and len(layout.leaves) == 1


def test_a_type_over_2_gib_is_refused_naming_the_member():
    with pytest.raises(LayoutError) as info:
        record_layout("t", [("n", TInt32), ("a", TFixedArray(TFloat64, 2**28))])
    assert isinstance(info.value.error, TooLarge) and info.value.error.field == "a"
    assert "2147483647" in str(info.value)


def test_a_record_of_other_rules_is_refused_naming_both():
    inner = TRecord("inner", [("v", V3)], "std430")
    with pytest.raises(LayoutError) as info:
        record_layout("outer", [("i", inner)], "c")
    assert info.value.error == MixedRules("outer", "i", "inner", "std430", "c")
    assert "std430" in str(info.value) and "'i'" in str(info.value)


def test_a_variant_in_an_array_is_a_nested_variant():
    v = TVariant("v", [("A", [TInt32])])
    with pytest.raises(LayoutError) as info:
        record_layout("t", [("vs", TFixedArray(v, 2))])
    assert info.value.error == NestedVariant("t", "vs[]")


def test_a_variant_lays_its_arguments_out_by_its_rules():
    # §1's formula with std430 sizes: a vec3 argument is 16-aligned, so the payload is at 16.
    layout = variant_layout("v", [("None_", []), ("Some_", [V3, TFloat32])], "std430")
    assert (layout.payload_offset, layout.size) == (16, 32)
    assert [a.offset for a in layout.ctors[1].args] == [16, 28]


# --- against the compilers -------------------------------------------------------------------

C_SCALARS = ["int32", "uint32", "float32", "float64", "int64", "uint64", "int16", "uint16",
             "int8", "uint8", "float16", "bool"]
GLSL_SCALARS = C_SCALARS


def _elttypes(structs, rules):
    """The package's elttypes for the oracle's descriptions."""
    made = {}

    def convert(kind):
        tag = kind[0]
        if tag == "scalar":
            return SCALARS[kind[1]]
        if tag == "vec":
            return TVector(SCALARS[kind[2]], kind[1])
        if tag == "mat":
            return TMatrix(SCALARS[kind[3]], kind[1], kind[2])
        if tag == "array":
            return TFixedArray(convert(kind[1]), kind[2])
        return made[kind[1]]

    for name, members in structs:
        made[name] = TRecord(name, [(f, convert(k)) for f, k in members], rules)
    return made


def _mismatches(structs, rules, measured):
    problems = []
    for name, t in _elttypes(structs, rules).items():
        layout = record_layout(name, t.fields, rules)
        m = measured[name]
        want = {"size": layout.size, "align": layout.align}
        got = {"size": m.size, "align": m.align}
        for (field, ft), offset in zip(t.fields, layout.offsets):
            want[f"{field}@"] = offset
            got[f"{field}@"] = m.offsets[field]
            if field in m.strides:
                want[f"{field}/"] = member_shape(ft, RULE_SETS[rules]).stride
                got[f"{field}/"] = m.strides[field]
        problems += [f"{rules} {name}.{k}: layout {want[k]}, compiler {got[k]}"
                     for k in want if want[k] != got[k]]
    return problems


def test_c_rules_agree_with_gcc(tmp_path):
    structs = kinds_oracle.random_structs(seed=430, count=300, scalars=C_SCALARS, glsl=False)
    measured = kinds_oracle.measure_c(structs, tmp_path)
    assert _mismatches(structs, "c", measured) == []


@pytest.mark.toolchain("glslang")
@pytest.mark.parametrize("rules", ["std430", "std140", "scalar"])
def test_glsl_rules_agree_with_glslang(rules, tmp_path):
    require_toolchain("glslang")
    structs = kinds_oracle.random_structs(seed=140, count=300, scalars=GLSL_SCALARS, glsl=True)
    measured = kinds_oracle.measure_glsl(structs, rules, tmp_path)
    assert _mismatches(structs, rules, measured) == []


@pytest.mark.toolchain("glslang")
def test_the_comparison_catches_a_wrong_rule(tmp_path, monkeypatch):
    # The check above is live: std430 with vectors aligned like C's (a plausible slip) is
    # caught by glslang on the same structs.
    require_toolchain("glslang")
    structs = kinds_oracle.random_structs(seed=140, count=60, scalars=GLSL_SCALARS, glsl=True)
    measured = kinds_oracle.measure_glsl(structs, "std430", tmp_path)
    wrong = rules_module.RuleSet("std430", "wrong", vector_align=(1, 1, 1), aggregate_align=1,
                                 struct_size_rounded=True, array_tail_unpadded=False)
    monkeypatch.setitem(RULE_SETS, "std430", wrong)
    from sarek_layout.layout import core

    core._nested_record_layout.cache_clear()
    try:
        assert _mismatches(structs, "std430", measured)
    finally:
        monkeypatch.undo()
        core._nested_record_layout.cache_clear()


CUDA_SCALARS = [s for s in C_SCALARS if s != "float16"]  # vector_types.h has no half3/half4


@pytest.mark.toolchain("nvcc")
def test_cuda_rules_agree_with_nvcc(tmp_path):
    require_toolchain("nvcc")
    structs = kinds_oracle.random_structs(seed=13, count=300, scalars=CUDA_SCALARS, glsl=False)
    measured = kinds_oracle.measure_cuda(structs, tmp_path)
    assert _mismatches(structs, "cuda", measured) == []


@pytest.mark.toolchain("slang")
def test_hlsl_cbuffer_rules_agree_with_slang(tmp_path):
    from helpers import slang_oracle

    slang_oracle.require_slang()
    structs = kinds_oracle.random_structs(seed=16, count=300, scalars=kinds_oracle.HLSL_SCALARS,
                                          glsl=False)
    measured = kinds_oracle.measure_hlsl(structs)
    problems = _mismatches(structs, "hlsl-cbuffer", measured)
    for name, t in _elttypes(structs, "hlsl-cbuffer").items():  # every member's size too
        layout = record_layout(name, t.fields, "hlsl-cbuffer")
        problems += [f"{name}.{m.name} size: layout {m.size}, Slang {measured[name].sizes[m.name]}"
                     for m in layout.members if measured[name].sizes[m.name] != m.size]
    assert problems == []


def test_the_json_schema_and_the_docs_name_every_rule_set():
    import json
    from pathlib import Path

    from sarek_layout.ir.types import RULE_SET_NAMES

    root = Path(__file__).resolve().parents[2]
    schema = json.loads((root / "sarek_layout" / "sarek-layout.schema.json").read_text())
    assert tuple(schema["definitions"]["ruleSet"]["enum"]) == RULE_SET_NAMES == tuple(RULE_SETS)
    doc = (root / "docs" / "member-kinds.md").read_text()
    assert all(f"| `{name}` |" in doc for name in RULE_SET_NAMES)
