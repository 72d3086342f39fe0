"""The hlsl target judged by Slang's reflection (the ``slang`` toolchain) and compiled by
glslang's HLSL front end (``glslang-hlsl``, a compile check only).

* every golden ``.hlsl``, as committed, compiles with its compile-time checks live (one
  build) and every number Slang reflects (each size, offset, member size, array stride, and
  a constant buffer struct's alignment) is the layout's, each type in the buffer its rule
  set is for (hlsl-cbuffer: a ``ConstantBuffer<T>``; any other: a ``StructuredBuffer<T>``);
* Sarek's conformance enumeration (780 records, every 10th of its 30,783 variants) and the
  member kinds' enumeration under every rule set agree on Slang, ``verify`` listing it;
* the numbers are Slang's: a hand-written wrong offset and a wrong stride are named with
  both numbers, and a struct whose compile-time size check fails is reported as such;
* glslang's HLSL front end compiles what it can read and says why it skips the rest.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from helpers import kinds_shapes
from helpers.common import require_toolchain
from helpers.shapes import conformance_records, conformance_variants
from helpers.verify import every_nth, sampled, schema_of
from sarek_layout.resolve import load_schema
from sarek_layout.verify import AGREES, DISAGREES, SKIPPED
from sarek_layout.verify.probes import ALIGN, STRIDE, probes_for
from sarek_layout.verify.run import generated_headers, measure_with, user_headers, verify_schema

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if list(p.glob("expected/*.hlsl")))
#: Every rule set of the layout core (SPEC §1b), for the kinds' enumeration.
ALL_RULES = ("c", "std430", "std140", "cuda", "scalar", "wgsl-uniform", "hlsl-cbuffer")


def _schemas(case: str):
    return sorted(str(p) for p in (GOLDEN / case).iterdir() if p.suffix in (".toml", ".json"))


def _slang_agrees(schema, headers):
    tc = require_toolchain("slang")
    probes = probes_for(schema.types)
    result = measure_with(tc, headers, probes)
    assert result.status == AGREES, result.error or "\n".join(map(str, result.differences[:20]))
    assert result.builds == 1, result.note  # the compile-time checks held
    return probes, result


def test_every_golden_case_has_hlsl():
    assert len(CASES) >= 9, CASES


@pytest.mark.parametrize("case", CASES)
def test_goldens_agree_on_slang(case):
    schema = load_schema(_schemas(case))
    headers = user_headers(sorted(str(p) for p in (GOLDEN / case / "expected").glob("*.hlsl")))
    probes, result = _slang_agrees(schema, headers)
    # Not measured: a structured buffer struct's alignment (HLSL has none of its own there)
    # and a scalar kept inside a packed word; everything else is.
    assert result.values >= sum(p.quantity not in (ALIGN,) and not p.scalar for p in probes)


def test_goldens_compile_with_glslang_hlsl():
    tc = require_toolchain("glslang-hlsl")
    statuses = {}
    for case in CASES:
        schema = load_schema(_schemas(case))
        files = sorted(str(p) for p in (GOLDEN / case / "expected").glob("*.hlsl"))
        result = measure_with(tc, user_headers(files), probes_for(schema.types))
        statuses[case] = result.status
        # What glslang's HLSL front end lacks: 16- and 64-bit integers, float16_t, and
        # asuint(double, out uint, out uint).
        lacks = r"\bu?int(16|64)_t\b|\bfloat16_t\b|\basuint\([^(),]*,[^(),]*,"
        if any(re.search(lacks, pathlib.Path(f).read_text()) for f in files):
            assert result.status == SKIPPED and "glslang's HLSL front end does not have" in \
                result.error, (case, result.error)
        else:
            assert result.status == AGREES, (case, result.error)
    assert SKIPPED in statuses.values(), statuses


#: 32-bit kinds under the constant buffer rules, which glslang's HLSL front end reads whole.
CBUFFER_TOML = """\
module = "Cb"
rules = "hlsl-cbuffer"

[[types]]
record = "light"
fields = [["dir", "vec3<float32>"], ["power", "float32"], ["uv", "vec2<float32>"],
          ["ids", "int32[3]"], ["model", "mat3"], ["pair", "vec2<float32>"], ["last", "uint32"]]

[[types]]
variant = "shape"
constructors = [["Ball", ["float32", "vec3<float32>"]], ["Box", ["mat2x3<float32>"]], ["Empty"]]
"""


def test_a_constant_buffer_schema_agrees_and_compiles_with_glslang_hlsl(tmp_path):
    (tmp_path / "cb.toml").write_text(CBUFFER_TOML)
    schema = load_schema([str(tmp_path / "cb.toml")])
    headers = generated_headers(schema, ["hlsl"])["hlsl"]
    (text,) = [t for _, t in headers.files]
    assert "for constant buffers" in text and "packoffset" in text
    probes, result = _slang_agrees(schema, headers)
    # Every number is measured (a constant buffer struct's alignment too) but the columns'
    # stride of the two matrices (mat3, mat2x3), which Slang's reflection does not give.
    assert result.values == len(probes) - 2
    tc = require_toolchain("glslang-hlsl")
    assert measure_with(tc, headers, probes).status == AGREES


@pytest.mark.slow
def test_conformance_enumeration_agrees_on_slang(tmp_path):
    # make test: every 4th of the enumeration's share (helpers.verify.sampled); CI: all.
    descs = sampled(list(conformance_records()) + every_nth(list(conformance_variants()), 10), 4)
    schema = schema_of(descs, tmp_path)
    report = verify_schema(schema, toolchains=["slang"])
    (result,) = report.results
    assert result.status == AGREES, report.format()[:3000]
    assert result.values > 5 * len(descs)
    assert "slang" in report.format() and "agrees" in report.format()


def _hlsl_documents(folder: pathlib.Path):
    """The kinds' schema of every rule set, less the types the hlsl target refuses (and the
    types that use them): (paths, refusals). A refusal is asked of the target, one at a
    time, never predicted here."""
    from sarek_layout.errors import SchemaError

    paths, refusals = [], []
    for rules in ALL_RULES:
        doc = kinds_shapes.schema_document(rules)
        path = folder / f"kinds_{rules}.json"
        while True:
            path.write_text(json.dumps(doc))
            try:
                generated_headers(load_schema([str(path)]), ["hlsl"])
                break
            except SchemaError as e:
                refusals.append(str(e))
                gone = re.search(r"(?:type '|constructor )\w+\.(\w+)", str(e)).group(1)
                doc["types"] = [d for d in doc["types"] if _name(d) != gone and not re.search(
                    rf"\b{gone}\b", json.dumps(d.get("fields", d.get("constructors", []))))]
        paths.append(str(path))
    return paths, refusals


def _name(desc: dict) -> str:
    return desc.get("record") or desc.get("variant") or desc.get("enum") or ""


@pytest.mark.slow
def test_the_kinds_enumeration_agrees_on_slang_under_every_rule_set(tmp_path):
    """The member kinds (28 kinds alone, before four followers, as arguments) under every rule
    set. A type HLSL cannot hold (8-bit scalars that do not fill whole 32-bit words) is
    refused for hlsl alone, saying so; everything else agrees, every array level's stride
    measured, the constant buffer types' alignments too."""
    paths, refusals = _hlsl_documents(tmp_path)
    assert refusals and all("8-bit" in r for r in refusals), refusals[:3]
    schema = load_schema(paths)
    total = sum(len(kinds_shapes.schema_document(r)["types"]) for r in ALL_RULES)
    assert len(schema.types) > 0.8 * total, (len(schema.types), total)
    probes, result = _slang_agrees(schema, generated_headers(schema, ["hlsl"])["hlsl"])
    assert sum(p.quantity == STRIDE for p in probes) > 700
    assert sum(t.rules == "hlsl-cbuffer" for t in schema.types) > 80


_WRONG = """\
// A hand-written Kinds_lights (std430): the vec3 array written as float3 dirs[2], whose stride
// is 12 in a structured buffer where std430's is 16: level comes 8 bytes early.
struct Kinds_lights {
    int count;
    uint _pad0, _pad1, _pad2;
    float3 dirs[2];
    float level;
};
"""


def test_a_hand_written_wrong_stride_and_offset_are_caught_with_both_numbers(tmp_path):
    tc = require_toolchain("slang")
    from helpers.verify import DATA

    schema = load_schema([str(DATA / "kinds.toml")])
    (tmp_path / "lights.hlsl").write_text(_WRONG)
    result = measure_with(tc, user_headers([str(tmp_path / "lights.hlsl")]),
                          probes_for(schema.types))
    assert result.status == DISAGREES
    lines = {str(d) for d in result.differences}
    assert "Kinds_lights.dirs[0]: layout says stride 16, slang says 12" in lines, lines
    assert "Kinds_lights.level: layout says offset 48, slang says 40" in lines, lines


def test_a_wrong_offset_in_a_generated_file_is_caught(tmp_path):
    """The golden nested.hlsl with the padding after ``Nest_body.alive`` moved before it:
    Slang places ``alive`` 4 bytes late, and the file's own size check still holds."""
    tc = require_toolchain("slang")
    text = (GOLDEN / "nested" / "expected" / "nested.hlsl").read_text()
    good = "    int alive; // offset 32, bool\n    uint _sarek_pad0; // padding\n"
    assert good in text
    bad = "    uint _sarek_pad0; // padding\n    int alive; // offset 32, bool\n"
    (tmp_path / "nested.hlsl").write_text(text.replace(good, bad))
    schema = load_schema(_schemas("nested"))
    result = measure_with(tc, user_headers([str(tmp_path / "nested.hlsl")]),
                          probes_for(schema.types))
    assert result.status == DISAGREES
    lines = {str(d) for d in result.differences}
    assert "Nest_body.alive: layout says offset 32, slang says 36" in lines, lines


def test_a_failing_size_check_is_reported(tmp_path):
    """A member too many: the file's compile-time size check stops Slang's compile; the
    numbers of a second compile without the checks say which."""
    tc = require_toolchain("slang")
    text = (GOLDEN / "nested" / "expected" / "nested.hlsl").read_text()
    good = "    uint _sarek_pad0; // padding\n};"
    assert good in text
    (tmp_path / "nested.hlsl").write_text(
        text.replace(good, "    uint _sarek_pad0; // padding\n    uint extra;\n};", 1))
    schema = load_schema(_schemas("nested"))
    result = measure_with(tc, user_headers([str(tmp_path / "nested.hlsl")]),
                          probes_for(schema.types))
    assert result.status == DISAGREES
    assert result.note and "sizeof(Nest_body) must be 40" in result.note, result.note
    assert "Nest_body: layout says size 40, slang says 44" in {str(d) for d in result.differences}
