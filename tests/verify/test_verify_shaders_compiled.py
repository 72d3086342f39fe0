"""``verify --shader`` judges what the compiler built, never the text.

Each shader here spells a member one way and compiles it another (an ``#if 0`` branch, a
macro, a typedef, a WGSL alias): every verdict must come from glslang's SPIR-V, naga's type
checker or clang's debug information. Each block of the SPIR-V that holds a schema struct is
judged by its own rules, whatever spelled its name or head. A run that checks nothing fails.
Each case runs as a hostile input: in a child process under a CPU bound, with its exit
status, its one error line, and nothing left behind.
"""

from __future__ import annotations

import pathlib

import pytest

from helpers.common import require_toolchain
from helpers.hostile import run_bounded

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "shaders"
TOOLCHAIN = {"comp": "glslang", "wgsl": "webgpu", "metal": "metal-proxy"}

#: T{a: float32; b: int32}: each shader compiles b as a float (or a as an int) at the same
#: offsets, so that only the member types differ.
SCHEMA_T = 'module = "M"\n[[types]]\nrecord = "T"\nfields = [["a", "float32"], ["b", "int32"]]\n'
LIES = {
    "if0.comp": ("#version 450\n#if 0\nstruct M_T { float a; int b; };\n#else\n"
                 "struct M_T { float a; float b; };\n#endif\nvoid main() { }\n",
                 "b is float, 4 bytes, where the schema has int32, 4 bytes: write `int b;`"),
    "define.comp": ("#version 450\n#define int float\nstruct M_T { float a; int b; };\n"
                    "void main() { }\n",
                    "b is float (`int` is float here), 4 bytes, where the schema has int32"),
    "if0.metal": ("#if 0\nstruct M_T { float a; int b; };\n#else\n"
                  "struct M_T { float a; float b; };\n#endif\n",
                  "b is float, 4 bytes, where the schema has int32, 4 bytes: write `int b;`"),
    # No <metal_stdlib>: the shader's own int32_t.
    "typedef.metal": ("typedef float int32_t;\nstruct M_T { float a; int32_t b; };\n",
                      "b is float (`int32_t` is float here), 4 bytes, where the schema has "
                      "int32"),
    "alias.wgsl": ("alias f32 = i32;\nstruct M_T { a: f32, b: i32 }\n"
                   "@group(0) @binding(0) var<storage, read_write> buf: array<M_T>;\n"
                   "@compute @workgroup_size(1) fn main() { buf[0].b = 1; }\n",
                   "a is i32 (`f32` is i32 here), 4 bytes, where the schema has float32"),
}


def _run(tmp_path, monkeypatch, schema_text, name, text, *args):
    """``verify SCHEMA --shader NAME`` bounded, in a folder of its own; nothing may be left
    behind there or in the temporary folder."""
    work = tmp_path / "work"
    work.mkdir(parents=True)
    temp = tmp_path / "temp"
    temp.mkdir()
    (work / "s.toml").write_text(schema_text)
    (work / name).write_text(text)
    monkeypatch.setenv("TMPDIR", str(temp))
    # wgpu's device (lavapipe) maps far more address space than the default bound allows.
    memory = (16 << 30) if name.endswith(".wgsl") else (1 << 30)
    proc = run_bounded(["-m", "sarek_layout", "verify", "s.toml", "--shader", name, *args], work,
                       memory=memory)
    assert sorted(p.name for p in work.iterdir()) == sorted(["s.toml", name])
    assert list(temp.iterdir()) == []
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


@pytest.mark.parametrize("name", sorted(LIES))
def test_a_member_type_is_read_from_what_the_compiler_built(name, tmp_path, monkeypatch):
    require_toolchain(TOOLCHAIN[name.rsplit(".", 1)[1]])
    text, message = LIES[name]
    status, out, err = _run(tmp_path, monkeypatch, SCHEMA_T, name, text)
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    assert (status, err) == (1, ""), out
    assert len(errors) == 1 and message in errors[0], out
    line = text.splitlines().index(next(ln for ln in reversed(text.splitlines())
                                        if "M_T {" in ln)) + 1
    assert errors[0].startswith(f"{name}:{line}:"), errors[0]  # the live declaration's line


SCHEMA_COMMAND = ('module = ""\n[[types]]\nrecord = "IndexedIndirectCommand"\nfields = ['
                  '["indexCount", "uint32"], ["instanceCount", "uint32"], ["firstIndex", '
                  '"uint32"], ["vertexOffset", "int32"], ["firstInstance", "uint32"]]\n')
#: A real sample's std140 block: the host struct has `after` at 20.
EXTRA = """#version 450
struct IndexedIndirectCommand { uint indexCount; uint instanceCount; uint firstIndex;
                                int vertexOffset; uint firstInstance; };
layout(binding = 0) uniform Extra { IndexedIndirectCommand cmd; uint after; } extra;
layout(std430, binding = 1) buffer Out { uint v; } o;
layout(local_size_x = 1) in;
void main() { o.v = extra.cmd.indexCount + extra.after; }
"""


def test_a_std140_block_that_pads_a_schema_struct_is_reported_at_the_block(tmp_path,
                                                                            monkeypatch):
    require_toolchain("glslang")
    status, out, err = _run(tmp_path, monkeypatch, SCHEMA_COMMAND, "extra.comp", EXTRA)
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    assert (status, err) == (1, ""), out
    assert len(errors) == 1 and errors[0].startswith("extra.comp:4:29: error: "), out
    assert ("Extra is a uniform block laid out std140, where the schema's c rules lay "
            "IndexedIndirectCommand out as std430 does: cmd takes 32 bytes there (after is at offset 32), where "
            "IndexedIndirectCommand is 20 bytes (after at 20 in the host's struct)") in errors[0]


MACRO_BLOCKS = """#version 450
#define Params RealParams
#define UBO(n) layout(binding = 1) uniform n
struct K_item { float x; };
layout(std140, binding = 0) uniform Params { K_item items[4]; } p;
UBO(Other) { K_item more[4]; } q;
layout(local_size_x = 1) in;
void main() { }
"""


def test_a_block_named_or_headed_by_a_macro_is_judged_too(tmp_path, monkeypatch):
    require_toolchain("glslang")
    schema = (DATA / "mistakes.toml").read_text()
    status, out, err = _run(tmp_path, monkeypatch, schema, "macro.comp", MACRO_BLOCKS)
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    assert (status, err) == (1, ""), out
    assert len(errors) == 2, out
    assert errors[0].startswith("macro.comp:5:37: error: K_item: RealParams is a uniform block "
                                "laid out std140"), errors[0]
    assert "an array of K_item (items) has a stride of 16 bytes" in errors[0]
    assert errors[1].startswith("macro.comp: error: K_item: Other is a uniform block laid out "
                                "std140"), errors[1]
    assert "an array of K_item (more) has a stride of 16 bytes" in errors[1]


#: Shaders with nothing to check: the run must fail, saying what it looked for.
NOTHING = {
    "junk.comp": ("this is not glsl at all\n", ()),
    "other.comp": ("#version 450\nstruct Unrelated { float x; };\nvoid main() { }\n", ()),
    "narrowed.comp": ("#version 450\nstruct K_item { float x; };\nvoid main() { }\n",
                      ("--type", "withbool")),
    "empty.wgsl": ("// nothing here\n", ()),
    "empty.metal": ("int x;\n", ()),
}


@pytest.mark.parametrize("name", sorted(NOTHING))
def test_nothing_checked_is_no_agreement(name, tmp_path, monkeypatch):
    text, args = NOTHING[name]
    schema = (DATA / "mistakes.toml").read_text()
    status, out, err = _run(tmp_path, monkeypatch, schema, name, text, *args)
    assert (status, err) == (1, ""), out
    assert "agree" not in out, out
    errors = [ln for ln in out.splitlines() if "error" in ln]
    which = "the --type types (K_withbool)" if args else "the schema's types (K_complete, "
    assert len(errors) == 1 and errors[0].startswith(
        f"error: no struct checked: no struct of the shaders has the C name of one of {which}"), out


# --- padding is what occupies the bytes, never a name ---------------------------------------

#: A host struct with its own padding member, and fields whose names start like padding.
SCHEMA_PAD = ('module = "P"\n[[types]]\nrecord = "light"\nfields = [["pos", "float32"], '
              '["_pad0", "float32"], ["paddle", "int32"], ["unused_count", "uint32"]]\n'
              '[[types]]\nrecord = "small"\nfields = [["a", "uint8"], ["b", "uint8"], '
              '["h", "float16"], ["n", "int32"], ["c", "uint8"]]\n')
PADDED = {
    # Copied from the host struct: every member is the schema's, whatever its name.
    "copied.comp": ("#version 450\nstruct P_light { float pos; float _pad0; int paddle; "
                    "uint unused_count; };\nvoid main() { }\n", []),
    # paddle is a field: spelled wrong, it is reported, not skipped as padding.
    "wrong.comp": ("#version 450\nstruct P_light { float pos; float _pad0; float paddle; "
                   "uint unused_count; };\nvoid main() { }\n",
                   ["2:48: error: P_light: paddle is float, 4 bytes, where the schema has "
                    "int32, 4 bytes: write `int paddle;`"]),
    # A member named like padding where the schema has a field: reported, and the field
    # missing.
    "hidden.metal": ("struct P_light { float pos; float _pad0; unsigned _pad1; "
                     "unsigned unused_count; };\n",
                     ["1:51: error: P_light: member _pad1 (offset 8, 4 bytes: where the schema "
                      "has paddle) is not in the schema's P_light: remove it, or add it to the "
                      "schema",
                      "1:8: error: P_light: no member paddle (int32, offset 8, 4 bytes in the "
                      "schema): add `int paddle;` after _pad0"]),
}


@pytest.mark.parametrize("name", sorted(PADDED))
def test_padding_is_told_by_the_bytes_it_occupies_not_by_its_name(name, tmp_path, monkeypatch):
    require_toolchain(TOOLCHAIN[name.rsplit(".", 1)[1]])
    text, expected = PADDED[name]
    status, out, err = _run(tmp_path, monkeypatch, SCHEMA_PAD, name, text)
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    assert (status, err) == (1 if expected else 0, ""), out
    assert [e.split(f"{name}:", 1)[1] for e in errors] == expected, out


@pytest.mark.parametrize("schema", ["geometry", "padded", "vec3"])
@pytest.mark.parametrize("target", ["glsl", "wgsl", "metal"])
def test_verify_shader_accepts_what_generate_writes(schema, target, tmp_path, monkeypatch):
    """The tool accepts its own output: the example, records of scalars smaller than a word
    (kept in ``_sarek_bytes<N>`` words in GLSL and WGSL) with their padding, and a type the
    language reserves the name of (written ``vec3_``)."""
    from helpers.common import EXAMPLES
    from sarek_layout.cli.main import main

    require_toolchain({"glsl": "glslang", "wgsl": "webgpu", "metal": "metal-proxy"}[target])
    path = EXAMPLES / "geometry.toml"
    if schema != "geometry":  # sub-word fields; a type named like GLSL's and WGSL's vec3
        path = tmp_path / f"{schema}.toml"
        path.write_text(SCHEMA_PAD if schema == "padded" else SCHEMA_VEC3)
    gen = tmp_path / "gen"
    assert main(["generate", str(path), "-o", str(gen), "-t", target]) == 0
    (out,) = [p for p in gen.iterdir() if p.suffix in (".glsl", ".wgsl", ".h")]
    name, text = out.name, out.read_text()
    if target == "metal":  # a kernel that includes the generated header
        name, text = "kernel.metal", f'#include "{out.name}"\n'
    status, report, err = _run(tmp_path, monkeypatch, path.read_text(), name, text,
                               "-I", str(gen))
    assert (status, err) == (0, ""), report
    assert "all agree" in report and "error" not in report, report


# --- atomics are laid out as their scalar -----------------------------------------------------

SCHEMA_COUNTER = ('module = "A"\n[[types]]\nrecord = "counter"\nfields = [["count", "uint32"], '
                  '["total", "int32"]]\n')
ATOMICS = {
    "good.wgsl": ("struct A_counter { count: atomic<u32>, total: atomic<i32> }\n"
                  "@group(0) @binding(0) var<storage, read_write> c: A_counter;\n"
                  "@compute @workgroup_size(1) fn main() { atomicAdd(&c.count, 1u); }\n", []),
    "good.metal": ("#include <metal_stdlib>\nusing namespace metal;\n"
                   "struct A_counter { atomic_uint count; atomic_int total; };\n"
                   "kernel void k(device A_counter &c [[buffer(0)]]) {\n"
                   "    atomic_fetch_add_explicit(&c.count, 1u, memory_order_relaxed); }\n", []),
    # The wrong signedness: the advice keeps the atomic (atomicAdd needs one).
    "signed.wgsl": ("struct A_counter { count: atomic<u32>, total: atomic<u32> }\n",
                    ["1:40: error: A_counter: total is atomic<u32>, 4 bytes, where the schema "
                     "has int32, 4 bytes: write `total: atomic<i32>,`"]),
    "signed.metal": ("#include <metal_stdlib>\nstruct A_counter { atomic_uint count; "
                     "atomic_uint total; };\n",
                     ["2:51: error: A_counter: total is atomic_uint, 4 bytes, where the schema "
                      "has int32, 4 bytes: write `atomic_int total;`"]),
}


@pytest.mark.parametrize("name", sorted(ATOMICS))
def test_an_atomic_is_its_scalar(name, tmp_path, monkeypatch):
    require_toolchain(TOOLCHAIN[name.rsplit(".", 1)[1]])
    text, expected = ATOMICS[name]
    status, out, err = _run(tmp_path, monkeypatch, SCHEMA_COUNTER, name, text)
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    assert (status, err) == (1 if expected else 0, ""), out
    assert [e.split(f"{name}:", 1)[1] for e in errors] == expected, out


# --- a schema type named like a GLSL type ---------------------------------------------------

SCHEMA_VEC3 = ('module = ""\n[[types]]\nrecord = "vec3"\nfields = [["x", "float32"], '
               '["y", "float32"], ["z", "float32"]]\n[[types]]\nrecord = "particle"\n'
               'fields = [["mass", "float32"], ["pos", "vec3"]]\n')


def test_a_type_glsl_reserves_is_matched_by_the_name_generate_writes(tmp_path, monkeypatch):
    """``vec3`` is GLSL's own type: the glsl target writes the schema's ``vec3`` as ``vec3_``.
    A shader that writes ``vec3 pos;`` is told to write ``vec3_ pos;``, and doing so agrees
    (the advice used to say ``vec3 pos;``, which is what it had, and ``vec3_`` was no schema
    type)."""
    require_toolchain("glslang")
    wrong = "#version 450\nstruct particle { float mass; vec3 pos; };\nvoid main() { }\n"
    status, out, err = _run(tmp_path, monkeypatch, SCHEMA_VEC3, "wrong.comp", wrong)
    errors = [ln for ln in out.splitlines() if ": error: " in ln]
    assert (status, err) == (1, ""), out
    assert errors and errors[0].startswith("wrong.comp:2:36: error: particle: pos is at offset "
                                           "16 (glslang), the schema's at 4"), out
    assert "write `vec3_ pos;` (GLSL reserves vec3 for its own type" in errors[0], out
    right = ("#version 450\nstruct vec3_ { float x; float y; float z; };\n"
             "struct particle { float mass; vec3_ pos; };\nvoid main() { }\n")
    status, out, err = _run(tmp_path / "again", monkeypatch, SCHEMA_VEC3, "right.comp", right)
    assert (status, err) == (0, ""), out
    assert "right.comp:2:8: vec3_: agrees (glslang)" in out, out
    assert "2 structs checked against the schema: all agree" in out, out
