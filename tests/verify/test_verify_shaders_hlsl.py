"""``verify --shader`` on hand-written HLSL (tests/data/shaders_hlsl/): each block judged by
the rules its declaration gives it (cbuffer, ConstantBuffer: hlsl-cbuffer; StructuredBuffer:
HLSL's structured layout) against the schema's type under its own rules, reported at the
block with both numbers and both rule sets.

Every verdict is confirmed here without the package's layout code: the shader's numbers by
Slang's reflection of the shader itself (``slang_oracle``), the schema's by the compiler of
each rule set (glslang and spirv-cross for std430, Slang's constant buffers for hlsl-cbuffer,
gcc for Sarek's c layout: ``kinds_oracle``).
"""

from __future__ import annotations

import pytest

from helpers import kinds_oracle, slang_oracle
from helpers.common import require_toolchain
from helpers.verify import DATA, run_verify
from sarek_layout.resolve import load_schema
from sarek_layout.verify.shaders import verify_shaders

CORPUS = DATA.parent / "shaders_hlsl"
SCHEMA = CORPUS / "rules.toml"
GOLDEN = DATA.parents[1] / "golden"

#: The corpus's types, as the oracles describe them (no package code).
LIGHT = ("H_light", [("dir", ("vec", 3, "float32")), ("power", ("scalar", "float32")),
                     ("color", ("vec", 4, "float32")),
                     ("ids", ("array", ("scalar", "int32"), 2))])
FRAME = ("H_frame", [("view", ("mat", 4, 4, "float32")), ("eye", ("vec", 3, "float32")),
                     ("exposure", ("scalar", "float32")),
                     ("weights", ("array", ("scalar", "float32"), 3)),
                     ("tint", ("vec", 2, "float32"))])
CMD = ("H_cmd", [(n, ("scalar", "uint32")) for n in ("index_count", "instance_count",
                                                     "first_index")]
       + [("vertex_offset", ("scalar", "int32")), ("first_instance", ("scalar", "uint32"))])


def _report(name: str):
    require_toolchain("slang")
    return verify_shaders(load_schema([str(SCHEMA)]), [str(CORPUS / name)])


def _reflect(name: str):
    """Slang's reflection of the corpus shader ``name`` alone (every global parameter)."""
    return slang_oracle.reflect((CORPUS / name).read_text(), entry="")


@pytest.fixture(scope="module")
def std430(tmp_path_factory):
    require_toolchain("glslang")
    return kinds_oracle.measure_glsl([LIGHT], "std430", tmp_path_factory.mktemp("std430"))


def test_a_structured_buffer_of_a_std430_struct_agrees(std430):
    report = _report("storage_ok.hlsl")
    assert report.ok and [c[1] for c in report.checked] == ["H_light"], report.format()
    light = _reflect("storage_ok.hlsl").buffer("lights")
    glsl = std430["H_light"]
    assert {n: off for n, off, _ in light.fields() if not n.startswith("_")} == glsl.offsets
    assert light.stride == glsl.size
    assert light.field("ids")[1].element_stride == glsl.strides["ids"]


def test_constant_buffers_of_their_own_types_agree(tmp_path):
    report = _report("cbuffer_ok.hlsl")
    assert report.ok and sorted(c[1] for c in report.checked) == ["H_cmd", "H_frame"], \
        report.format()
    r = _reflect("cbuffer_ok.hlsl")
    frame = r.buffer("PerFrame").field("frame")[1]
    own = kinds_oracle.measure_hlsl([FRAME])["H_frame"]
    assert {n: off for n, off, _ in frame.fields()} == own.offsets
    assert {n: off for n, off, _ in r.buffer("previous").fields()} == own.offsets
    # H_cmd keeps its C bytes in a cbuffer: `after` packs into its last register, right
    # after its 20 bytes (gcc's sizeof).
    c = kinds_oracle.measure_c([CMD], tmp_path)["H_cmd"]
    extra = r.buffer("Extra")
    assert {n: off for n, off, _ in extra.field("cmd")[1].fields()} == c.offsets
    assert extra.field("after")[0] == c.size == 20


def test_a_std430_struct_in_a_cbuffer_is_reported_at_the_block(std430):
    report = _report("cbuffer_holds_std430.hlsl")
    assert not report.ok
    (problem,) = report.problems
    assert problem.where.endswith("cbuffer_holds_std430.hlsl:10:1"), problem.where
    assert problem.struct == "H_light"
    assert ("Lights is a constant buffer (hlsl-cbuffer layout), where the schema lays H_light "
            "out by its std430 rules: H_light.ids[0] has a stride of 16 bytes there, 4 in the "
            "schema") in problem.message
    # Slang: each ids element on its own register there; glslang: 4 bytes apart in std430.
    sun = _reflect("cbuffer_holds_std430.hlsl").buffer("Lights").field("sun")[1]
    assert sun.field("ids")[1].element_stride == 16
    assert std430["H_light"].strides["ids"] == 4


def test_a_cbuffer_struct_in_a_structured_buffer_is_reported_at_the_block():
    report = _report("structured_holds_cbuffer.hlsl")
    (problem,) = report.problems
    assert problem.where.endswith("structured_holds_cbuffer.hlsl:10:27"), problem.where
    assert ("frames is a structured buffer (HLSL structured buffer layout), where the schema "
            "lays H_frame out by its hlsl-cbuffer rules: H_frame.weights[0] has a stride of 4 "
            "bytes there, 16 in the schema") in problem.message
    frames = _reflect("structured_holds_cbuffer.hlsl").buffer("frames")
    assert frames.field("weights")[1].element_stride == 4
    assert kinds_oracle.measure_hlsl([FRAME])["H_frame"].strides["weights"] == 16


def test_a_wrong_offset_is_named_with_both_offsets(std430):
    report = _report("wrong_offset.hlsl")
    lines = report.format()
    assert "wrong_offset.hlsl:5:11: error: H_light: power is at offset 28 (slang), the " \
           "schema's at 12" in lines, lines
    assert "color is at offset 12 (slang), the schema's at 16" in lines
    light = _reflect("wrong_offset.hlsl").buffer("lights")
    assert light.field("power")[0] == 28 and light.field("color")[0] == 12
    assert std430["H_light"].offsets["power"] == 12 and std430["H_light"].offsets["color"] == 16


def test_a_type_changed_by_a_macro_is_what_slang_built(tmp_path):
    report = _report("macro_double.hlsl")
    lines = report.format()
    assert "vertex_offset is double (`REAL` is double here), 8 bytes, where the schema has " \
           "int32, 4 bytes" in lines, lines
    member = _reflect("macro_double.hlsl").buffer("cmds").field("vertex_offset")[1]
    assert (member.scalar, member.size) == ("f64", 8)  # Slang's kind and bits
    assert kinds_oracle.measure_c([CMD], tmp_path)["H_cmd"].offsets["vertex_offset"] == 12


@pytest.mark.parametrize("case", sorted(p.name for p in GOLDEN.iterdir()
                                        if list(p.glob("expected/*.hlsl"))))
def test_the_generated_hlsl_agrees_as_a_hand_written_shader(case):
    """The goldens' .hlsl (wrapped array elements, padded matrix columns, 8-bit members in
    words, variants and their arm structs) read as hand-written shaders."""
    require_toolchain("slang")
    folder = GOLDEN / case
    schema = load_schema(sorted(str(p) for p in folder.iterdir()
                                if p.suffix in (".toml", ".json")))
    report = verify_shaders(schema, sorted(str(p) for p in folder.glob("expected/*.hlsl")))
    assert report.ok, report.format()
    assert len(report.checked) >= 2


def test_the_command_line_reports_the_block_and_exits_1(tmp_path):
    require_toolchain("slang")
    run = run_verify([str(SCHEMA), "--shader", str(CORPUS / "cbuffer_holds_std430.hlsl")],
                     tmp_path)
    assert run.status == 1, run
    assert "error: H_light: Lights is a constant buffer (hlsl-cbuffer layout)" in run.out
    assert "1 shader, 1 struct checked against the schema: 1 difference" in run.out
    assert not run.tmp_left


def test_the_other_languages_take_the_kinds_too(tmp_path):
    """GLSL's check reads SPEC §1b's kinds as HLSL's does: a schema with them is checked
    against a .comp shader (which holds none of its structs: exit 1), not refused (exit 2)."""
    require_toolchain("glslang")
    comp = tmp_path / "x.comp"
    comp.write_text("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n")
    run = run_verify([str(SCHEMA), "--shader", str(comp)], tmp_path)
    assert run.status == 1, run


def test_a_shader_slang_refuses_is_a_failure_naming_the_line(tmp_path):
    """Hostile: a shader that does not compile exits 1 with Slang's diagnostic at its line;
    one that includes a file outside what was given exits 2 with one line, nothing read."""
    require_toolchain("slang")
    bad = tmp_path / "bad.hlsl"
    bad.write_text("struct H_cmd {\n    uint index_count\n};\n")
    run = run_verify([str(SCHEMA), "--shader", str(bad)], tmp_path)
    assert run.status == 1, run
    assert f"error: {bad}: Slang: {bad}:3:1: error[E" in run.out, run.out
    assert "Traceback" not in run.err and not run.tmp_left
    outside = tmp_path / "outside.hlsl"
    outside.write_text('#include "/etc/passwd"\nstruct H_cmd { uint index_count; };\n')
    run = run_verify([str(SCHEMA), "--shader", str(outside)], tmp_path)
    assert run.status == 2 and "/etc/passwd" in run.one_line_error(), run
