"""The rust target's member kinds (SPEC §1b: fixed arrays, vectors, matrices, enums) against the
machine's rustc.

* the kind sample (tests/helpers/kind_samples.py: every kind in records and variants under the
  c, std430, std140 and cuda rules) compiles with ``-D warnings`` and every offset, size and
  stride assertion live;
* ``to_bytes`` of every record and every constructor is the memory image rustc lays the value
  out as, and ``from_bytes`` gives the value back (values read from patterned bytes, so
  nothing here spells a layout);
* a wrong stride, or a struct without its alignment pin, does not compile, and says where;
* an enum is a newtype: a value the schema does not name reads and writes unchanged;
* a layout a Rust struct cannot hold (``scalar`` rules) is refused for rust, in one line;
* a ``float32[100000000]`` costs what a ``float32[4]`` costs: the same Python calls to render,
  the same probes.
"""

from __future__ import annotations

import json

import pytest

from helpers.bounded import python_calls
from helpers.common import TESTS, require_toolchain
from helpers.kind_samples import held_sample_file, kind_sample_files
from helpers.rust import compile_crate
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets.shape import Array, shape_of
from sarek_layout.verify.probes import probes_for

PARTICLES = str(TESTS / "golden" / "host_kinds" / "particles.toml")
CUDA_TYPES = str(TESTS / "golden" / "host_kinds" / "cuda_types.json")


def _rust_files(paths):
    return {f.filename: f.text for f in render_headers(load_schema(paths), ["rust"])}


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return kind_sample_files(tmp_path_factory.mktemp("kinds"))


def test_the_kind_sample_compiles_with_every_check_live(sample, tmp_path):
    require_toolchain("rustc")
    modules = _rust_files(sample)
    text = "".join(modules.values())
    # Every array's size and every level's stride is asserted, beside every offset.
    assert text.count(": stride is not ") > 400 and text.count(": size is not ") > 800
    built, _ = compile_crate(tmp_path, modules)
    assert built.returncode == 0, built.stderr[-4000:]


def _image_checks(schema) -> str:
    """A ``main`` body: each record and each constructor of each variant read from patterned
    bytes (a variant's tag set to the constructor's), then its ``to_bytes`` compared with the
    bytes rustc holds it in, and ``from_bytes`` of those with the value."""
    lines = ["    let pattern: Vec<u8> = (0..4096).map(|i| (i % 7 + 1) as u8).collect();",
             "    let mut checked = 0;"]
    for st in schema.types:
        if st.is_enum:
            continue
        module = st.source.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        t = f"{module}::{st.c_name}"
        tags = [arm.tag for arm in st.arms] or [None]
        for tag in tags:
            lines.append("    {")
            lines.append(f"        let {'mut ' if tag is not None else ''}b = "
                         f"pattern[..{t}::SIZE].to_vec();")
            if tag is not None:
                lines.append(f"        b[..4].copy_from_slice(&{tag}i32.to_ne_bytes());")
            lines.append(f"        let v = {t}::from_bytes(&b).unwrap();")
            lines.append("        let image = unsafe { ::core::slice::from_raw_parts("
                         f"&v as *const {t} as *const u8, {t}::SIZE) }};")
            lines.append(f'        assert!(v.to_bytes()[..] == image[..], "{st.c_name} {tag}");')
            lines.append(f'        assert!({t}::from_bytes(&v.to_bytes()).unwrap() == v, '
                         f'"{st.c_name} {tag}");')
            lines.append("        checked += 1;")
            lines.append("    }")
    lines.append('    println!("{} {}", checked, sarek_test_hex(&[]));')
    return "\n".join(lines)


def test_bytes_are_the_memory_image_rustc_lays_out(sample, tmp_path):
    """Padding is zero in a value ``from_bytes`` built (its padding members private), so the
    bytes of a value in memory are exactly what ``to_bytes`` must write: rustc's layout judges
    the generated reads and writes of every kind, at every offset, stride and wrapper."""
    require_toolchain("rustc")
    paths = sample[:2] + [PARTICLES]  # c and std430, and the golden's particles
    schema = load_schema(paths)
    body = _image_checks(schema)
    built, ran = compile_crate(tmp_path, _rust_files(paths), body, run=True, cpu_s=300)
    assert built.returncode == 0, built.stderr[-4000:]
    assert ran.returncode == 0, ran.stderr[-4000:]
    expected = sum(len(st.arms) or 1 for st in schema.types if not st.is_enum)
    assert ran.stdout.split() == [str(expected)]  # (and the empty hex of sarek_test_hex)


def test_cbuffer_bytes_are_the_memory_image_rustc_lays_out(tmp_path):
    """What Rust holds of the kind sample under hlsl-cbuffer (arrays padded to their span
    where nothing uses their last element's padding; lone arguments on a register after the
    payload's start, in a struct arm): ``to_bytes`` is rustc's memory image, ``from_bytes``
    gives the value back."""
    require_toolchain("rustc")
    path, _, held = held_sample_file(tmp_path, "hlsl-cbuffer", "rust")
    schema = load_schema([path])
    assert any(isinstance(n, Array) and n.tail_unpadded
               for st in schema.types for n in shape_of(st).nodes())
    body = _image_checks(schema)
    built, ran = compile_crate(tmp_path / "crate", _rust_files([path]), body, run=True,
                               cpu_s=300)
    assert built.returncode == 0, built.stderr[-4000:]
    assert ran.returncode == 0, ran.stderr[-4000:]
    expected = sum(len(st.arms) or 1 for st in schema.types if not st.is_enum)
    assert ran.stdout.split() == [str(expected)]


def _particles() -> str:
    return _rust_files([PARTICLES])["particles.rs"]


def test_a_wrong_stride_fails_to_compile(tmp_path):
    """A wrapper 4 bytes too long (declared and zeroed): ``trail``'s elements are 32 bytes
    apart, not 16, and the module's own assertion names the level."""
    require_toolchain("rustc")
    text = _particles()
    start = text.index("pub struct Particles_particle_trail_elem {")
    decl = text.index("_sarek_pad0: [u8; 4],", start)
    zero = text.index("_sarek_pad0: [0; 4]", start)
    tampered = (text[:decl] + "_sarek_pad0: [u8; 8]," + text[decl + 21:zero]
                + "_sarek_pad0: [0; 8]" + text[zero + 19:])
    built, _ = compile_crate(tmp_path, {"particles.rs": tampered})
    assert built.returncode != 0
    assert "Particles_particle::trail[0]: stride is not 16" in built.stderr
    assert "Particles_particle::trail: size is not 32" in built.stderr


def test_the_alignment_pin_is_what_keeps_a_float4_16_aligned(tmp_path):
    """CUDA aligns a ``float4`` to 16; ``[f32; 4]`` is 4-aligned in Rust (and ``[f64; 2]``
    8), so the struct's ``align(16)`` is what holds the layout: without it rustc's own
    layout breaks the module's checks."""
    require_toolchain("rustc")
    text = _rust_files([CUDA_TYPES])["cuda_types.rs"]
    pin = "#[repr(C, align(16))]\n#[derive(Clone, Copy, Debug)]\npub struct Cu_body {"
    assert pin in text
    tampered = text.replace(pin, pin.replace("align(16)", "align(4)"))
    built, _ = compile_crate(tmp_path, {"cuda_types.rs": tampered})
    assert built.returncode != 0
    assert "Cu_body: alignment is not 16" in built.stderr


_ENUM_BODY = """
    let p = Particles_particle::new(
        [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0], 8.0, [9.0, 10.0, 11.0], Particles_material_Glass,
        [[1.0, 0.0, 0.0, 0.0]; 4],
        [Particles_particle_trail_elem::new([1.0, 2.0, 3.0]); 2]);
    let mut b = p.to_bytes();
    let at = ::core::mem::offset_of!(Particles_particle, kind);
    println!("{:?} {:?}", p.kind.name(), Particles_material_Mirror.name());
    assert!(Particles_material_Mirror == Particles_material_Glass);
    b[at..at + 4].copy_from_slice(&42i32.to_ne_bytes());
    let odd = Particles_particle::from_bytes(&b).unwrap();
    println!("{:?} {:?} {}", odd.kind, odd.kind.name(), odd.to_bytes() == b);
    let e = Particles_emitter::Cone([Particles_emitter_Cone_0_elem::new([1.0, 2.0, 3.0]); 2],
                                    Particles_material(-7));
    let back = Particles_emitter::from_bytes(&e.to_bytes()).unwrap();
    println!("{:?}{}", back.view(), sarek_test_hex(&[]));
"""


def test_an_enum_is_a_newtype_reading_unnamed_values_unchanged(tmp_path):
    """A Rust ``enum`` holding a value it does not declare is undefined behaviour, so the enum
    is ``#[repr(transparent)] struct T(pub i32)``: ``from_bytes`` of a value the schema does
    not name gives that value back (``name()`` is ``None``) and writes it unchanged."""
    require_toolchain("rustc")
    built, ran = compile_crate(tmp_path, {"particles.rs": _particles()}, _ENUM_BODY, run=True)
    assert built.returncode == 0, built.stderr[-4000:]
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        'Some("Glass") Some("Glass")',
        "Particles_material(42) None true",
        "Cone([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], Particles_material(-7))",
    ]


def _scalar_schemas(tmp_path):
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"module": "S", "rules": "scalar", "types": [
        {"record": "odd", "fields": [["a", "float64"], ["b", "float32"]]}]}))
    uses = tmp_path / "uses.json"  # rendered first: its array of B.odd ends mid-stride
    uses.write_text(json.dumps({"module": "A", "rules": "scalar", "types": [
        {"record": "arr", "fields": [["ps", "S.odd[2]"], ["tail", "float32"]]}]}))
    return str(odd), str(uses)


@pytest.mark.parametrize("target", ["rust", "zig"])
def test_layouts_rust_and_zig_cannot_hold_are_refused_in_one_line(target, tmp_path):
    """``scalar`` rules end a structure at its last member: ``{f64; f32}`` is 12 bytes and
    8-aligned, and an array of it ends 4 bytes before its last stride. A Rust or Zig struct's
    size is a multiple of its alignment and an array spans count × stride: refused, naming
    the type or the member and what would hold it."""
    odd, uses = _scalar_schemas(tmp_path)
    schema = load_schema([odd])
    assert (schema.types[0].size, schema.types[0].align) == (12, 8)
    with pytest.raises(SchemaError) as e:
        render_headers(schema, [target])
    message = str(e.value)
    assert "\n" not in message and f"the {target} target cannot hold S.odd:" in message
    assert "12 bytes, 8-aligned" in message and "pad it to 16 bytes" in message
    with pytest.raises(SchemaError) as e:
        render_headers(load_schema([uses, odd]), [target])
    message = str(e.value)
    assert "\n" not in message and f"the {target} target cannot hold A.arr.ps:" in message
    assert ("ends at its last element (28 bytes, its 2 elements 16 bytes apart), and what "
            f"follows it starts at offset 28, inside the 32 bytes a {target.capitalize()} "
            "array of them spans") in message


@pytest.mark.parametrize("toolchain", ["rustc", "zig"])
def test_a_one_argument_constructor_off_the_payload_start_is_held(toolchain, tmp_path):
    """hlsl-cbuffer's registers push a ``vec3`` that would straddle 16 bytes to the next
    register: ``Alone``'s one argument is at 16 where the payload starts at 8. Its arm is a
    struct of that argument after the padding (``data.Alone_v._0``, as the C headers'): the
    compiler measures it where the layout puts it."""
    from sarek_layout.verify.run import verify_schema

    require_toolchain(toolchain)
    path = tmp_path / "cb.json"
    path.write_text(json.dumps({"module": "Cb", "rules": "hlsl-cbuffer", "types": [
        {"variant": "v", "constructors": [["Alone", ["vec3<int32>"]],
                                          ["Two", ["vec3<int32>", "vec2<float64>"]]]}]}))
    schema = load_schema([str(path)])
    alone = schema.types[0].arms[0].args[0]
    assert (alone.offset, schema.types[0].payload_offset) == (16, 8)
    report = verify_schema(schema, toolchains=[toolchain])
    (result,) = report.results
    assert result.status == "agrees", report.format()
    assert result.values >= len(probes_for(schema.types))


@pytest.mark.parametrize("rules", ["wgsl-uniform", "hlsl-cbuffer"])
def test_the_uniform_rules_are_held_or_refused_type_by_type(rules, tmp_path):
    """The kind sample under WGSL's uniform rules is held whole; under HLSL's constant
    buffers most structures end mid-alignment (their size is not rounded up) and are refused,
    each by name; what is held compiles with every check live."""
    require_toolchain("rustc")
    path, total, held = held_sample_file(tmp_path, rules, "rust")
    if rules == "wgsl-uniform":
        assert len(held) == total
    else:
        # Most structures end mid-alignment; an array whose last element's padding nothing
        # uses is held, padded to its span (p1, v0…).
        assert {"e8", "e16", "e32", "e64", "p1", "v0"} <= held and len(held) < total / 2
    built, _ = compile_crate(tmp_path / "crate", _rust_files([path]))
    assert built.returncode == 0, built.stderr[-4000:]


def _big_schema(tmp_path, n: int) -> str:
    path = tmp_path / f"big{n}.json"
    path.write_text(json.dumps({"module": "Big", "rules": "std430", "types": [
        {"enum": "e", "values": [["A", 0]]},
        {"record": "big", "fields": [["n", "int32"], ["xs", f"float32[{n}]"],
                                     ["vs", f"vec3<float32>[{n // 2}]"], ["es", f"e[{n}]"]]},
        {"variant": "bv", "constructors": [["A", [f"float32[{n}]"]], ["B", []]]}]}))
    return str(path)


@pytest.mark.parametrize("target", ["rust", "zig"])
def test_a_large_array_costs_what_a_small_one_does(target, tmp_path):
    """Linear in members, not elements: a ``float32[100000000]`` (and 50,000,000 wrapped
    vec3) renders with the same Python calls as a ``float32[4]`` and the same text but for
    the digits, and has as many probes."""
    small = load_schema([_big_schema(tmp_path, 4)])
    large = load_schema([_big_schema(tmp_path, 100_000_000)])
    for schema in (small, large):  # templates compiled, shapes and names memoised: uncounted
        render_headers(schema, [target])
    texts = {}

    def render(schema, key):
        texts[key] = render_headers(schema, [target])[0].text

    assert python_calls(lambda: render(large, "large")) == python_calls(lambda: render(small, "small"))
    assert len(texts["large"].splitlines()) == len(texts["small"].splitlines())
    assert len(probes_for(large.types)) == len(probes_for(small.types))


def test_the_kinds_example_in_docs_rust_runs(tmp_path):
    require_toolchain("rustc")
    import re

    from helpers.common import ROOT

    blocks = re.findall(r"```rust\n(.*?)```", (ROOT / "docs" / "rust.md").read_text(), re.S)
    (block,) = [b for b in blocks if "Particles_particle::new" in b]
    body = block + "    let _ = sarek_test_hex(&[]);\n"
    built, ran = compile_crate(tmp_path, {"particles.rs": _particles()}, body, run=True)
    assert built.returncode == 0, built.stderr[-4000:]
    assert ran.returncode == 0, ran.stderr


def test_enum_constants_are_judged_per_target(tmp_path):
    """An enum's value is emitted as ``<C name>_<Value>``: with module "" an enum ``size`` of
    value ``t`` is ``size_t``, which a C header cannot declare, while Rust and Zig can (the
    names check read an enum's declaration as a variant's, and raised AttributeError)."""
    from sarek_layout.targets.names import check_names

    path = tmp_path / "m.json"
    path.write_text(json.dumps({"module": "", "types": [
        {"enum": "size", "values": [["t", 0], ["u", 1]]}]}))
    schema = load_schema([str(path)])
    check_names(schema, ["rust", "zig"])
    assert "pub const size_t: size = size(0);" in render_headers(schema, ["rust"])[0].text
    with pytest.raises(SchemaError) as e:
        check_names(schema, ["rust", "c"])
    assert str(e.value).count("error:") == 1
    assert "C name 'size_t' of enum value size.t" in str(e.value) and "(target c)" in str(e.value)
