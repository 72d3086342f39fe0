"""The rust target against the machine's rustc: goldens compiled with their assertions live,
tampered layouts refused, every Rust keyword escaped, and the bytes Rust builds equal to the
Python encoder's (the example and random schemas).

The generated modules are compiled as a user's crate holds them (``mod <stem> { include!(…) }``)
with ``-D warnings``, in the 2018, 2021 and 2024 editions (raw identifiers need 2018).
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sarek_layout as sl
from helpers.common import EXAMPLES, require_toolchain
from helpers.host import SchemaDocument, element_types, values_of
from helpers.rust import RustBuilder, compile_crate, program_lines
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets.dialects import RUST
from sarek_layout.targets.names import FILE, identifier_problem, problem

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())
GEOMETRY = str(EXAMPLES / "geometry.toml")
EDITIONS = ("2018", "2021", "2024")


def _rust_files(schemas):
    return {f.filename: f.text for f in render_headers(load_schema(schemas), ["rust"])}


def _refused(built) -> str:
    assert built.returncode != 0, "rustc accepted a module it should refuse"
    return built.stderr


@pytest.mark.parametrize("edition", EDITIONS)
def test_goldens_compile_with_rustc(edition, tmp_path):
    require_toolchain("rustc")
    for case in CASES:
        modules = {p.name: p.read_text() for p in sorted((GOLDEN / case / "expected").glob("*.rs"))}
        assert modules, f"golden case {case} has no .rs file"
        built, _ = compile_crate(tmp_path / case, modules, edition=edition)
        assert built.returncode == 0, f"{case}:\n{built.stderr}"


def test_wrong_offset_assertion_fails_to_compile(tmp_path):
    require_toolchain("rustc")
    text = _rust_files([GEOMETRY])["geometry.rs"]
    line = "offset_of!(Geometry_particle, mass) == 8"
    assert line in text
    built, _ = compile_crate(tmp_path, {"geometry.rs": text.replace(line, line[:-1] + "4")})
    # The message is the schema's, unchanged: it names the type, the member and the value.
    assert "evaluation panicked: Geometry_particle::mass: offset is not 8" in _refused(built)


def test_wrong_padding_member_fails_to_compile(tmp_path):
    """One padding member too long moves ``mass``: the module's own assertion refuses it."""
    require_toolchain("rustc")
    text = _rust_files([GEOMETRY])["geometry.rs"]
    start = text.index("pub struct Geometry_particle {")
    pad = text.index("_sarek_pad0: [u8; 4],", start)
    tampered = text[:pad] + "_sarek_pad0: [u8; 12]," + text[pad + len("_sarek_pad0: [u8; 4],"):]
    built, _ = compile_crate(tmp_path, {"geometry.rs": tampered})
    assert "Geometry_particle::mass: offset is not 8" in _refused(built)


def _python_bytes(schema_path, name, value) -> bytes:
    return sl.load(schema_path).encode(name, value)


def test_example_bytes_from_rust_equal_python(tmp_path):
    """Rust builds the example's records and every constructor of its variant; its
    ``to_bytes`` equal the Python encoder's bytes, and ``from_bytes`` round-trips and
    refuses a short slice and an unknown tag (checked in the Rust program)."""
    require_toolchain("rustc")
    point = {"x": 1.5, "y": -2.25}
    cases = [
        ("point", [point]),
        ("particle", [{"id": 7, "mass": 3.0e100, "pos": point, "alive": True}]),
        ("shape", [("Circle", (point, 0.5)), ("Rect", (point, {"x": 9.0, "y": 1e-30})),
                   ("Weighted", (-1.0 / 3.0, -5)), ("Empty", ())]),
    ]
    schema = load_schema([GEOMETRY])
    elt = {st.name: st.elttype for st in schema.types}
    c_names = {st.elttype: st.c_name for st in schema.types}
    body = program_lines(RustBuilder(c_names), [(elt[n], vs) for n, vs in cases])
    # The layout fingerprints (docs/fingerprint.md), as `layout --json` prints them.
    body += "".join(f'\n    assert!({c}_LAYOUT_OK({c}::LAYOUT_ID));'
                    f'\n    println!("0x{{:016x}}", {c}_LAYOUT_ID);' for c in c_names.values())
    built, ran = compile_crate(tmp_path, _rust_files([GEOMETRY]), body, run=True)
    assert built.returncode == 0, built.stderr
    assert ran.returncode == 0, ran.stderr
    expected = [_python_bytes(GEOMETRY, n, v).hex() for n, vs in cases for v in vs]
    schema_api = sl.load(GEOMETRY)
    expected += [f"0x{schema_api.layout_id(st.name):016x}" for st in schema.types]
    assert ran.stdout.split() == expected


# --- names ----------------------------------------------------------------------------------

_KEYWORDS = sorted(RUST.reserved_words)


def _schema(tmp_path, doc) -> str:
    path = tmp_path / "names.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_every_rust_keyword_is_escaped_and_compiles(tmp_path):
    """Every Rust keyword, as a field, a constructor and (module "") a type name: raw
    identifiers (``r#type``), ``self_`` for those Rust refuses even so; the module compiles in
    every edition and rustc measures the layout it states. A keyword of C (``const``,
    ``union``) refuses only the C-family targets, not rust."""
    tc = require_toolchain("rustc")
    fields = [k for k in _KEYWORDS if identifier_problem(k) is None]
    types = [k for k in fields if identifier_problem(k, file_scope=True) is None
             and problem("rust", k, FILE) is None]
    assert set(_KEYWORDS) - set(fields) == set()
    assert "const" in types and "union" in types and "Self" in types
    doc = {"module": "", "types": [
        {"record": "kw_fields", "fields": [[k, "int32"] for k in fields]},
        {"variant": "kw_ctors", "constructors": [[k, ["int32"]] for k in fields]},
    ] + [{"record": k, "fields": [["x", "float64"]]} for k in types]}
    path = _schema(tmp_path, doc)
    text = _rust_files([path])["names.rs"]
    for k in fields:
        spelt = k + "_" if k in RUST.not_raw else "r#" + k
        assert f"    pub {spelt}: i32," in text, k
        assert f"pub const fn {spelt}(_0: i32)" in text, k
    for k in types:
        spelt = k + "_" if k in RUST.not_raw else "r#" + k
        assert f"pub struct {spelt} {{" in text, k
    for edition in EDITIONS:
        built, _ = compile_crate(tmp_path / edition, {"names.rs": text}, edition=edition)
        assert built.returncode == 0, f"edition {edition}:\n{built.stderr[-3000:]}"
    from sarek_layout.verify import AGREES
    from sarek_layout.verify.probes import probes_for
    from sarek_layout.verify.run import generated_headers, measure_with

    schema = load_schema([path])
    result = measure_with(tc, generated_headers(schema, ["rust"])["rust"], probes_for(schema.types))
    assert result.status == AGREES, result.error or result.differences[:5]


@pytest.mark.parametrize("doc, words", [
    ({"module": "", "types": [{"record": "i32", "fields": [["x", "int32"]]}]},
     ["(target rust)", "'i32'", "primitive type"]),
    ({"module": "M", "types": [{"record": "r", "fields": [["self", "int32"], ["self_", "int32"]]}]},
     ["rust output", "'self'", "'self_'"]),
    ({"module": "M", "types": [{"variant": "v", "constructors": [["new"], ["new_"]]}]},
     ["rust output", "'new'", "'new_'"]),
    ({"module": "", "types": [{"variant": "v", "constructors": [["A"]]},
                              {"record": "v_View", "fields": [["x", "int32"]]}]},
     ["rust output", "v_View"]),
])
def test_names_rust_cannot_take_are_refused_in_one_line_naming_the_target(tmp_path, doc, words):
    path = _schema(tmp_path, doc)
    render_headers(load_schema([path]), ["c"])  # the C header is fine: refused per target
    with pytest.raises(SchemaError) as e:
        render_headers(load_schema([path]), ["rust"])
    message = str(e.value)
    assert "\n" not in message
    for w in words:
        assert w in message, message


def test_cross_module_use_of_a_file_whose_stem_is_no_rust_identifier_is_refused(tmp_path):
    (tmp_path / "my-base.toml").write_text('module = "Base"\n[[types]]\nrecord = "p"\n'
                                           'fields = [["x", "int32"]]\n')
    (tmp_path / "scene.toml").write_text('module = "Scene"\n[[types]]\nrecord = "q"\n'
                                         'fields = [["p", "Base.p"]]\n')
    schema = load_schema([str(tmp_path / "my-base.toml"), str(tmp_path / "scene.toml")])
    render_headers(schema, ["c"])
    with pytest.raises(SchemaError, match="rust output .* 'my-base' is not a Rust identifier"):
        render_headers(schema, ["rust"])


def test_cli_reports_a_rust_refusal_as_one_line(tmp_path, capsys):
    from sarek_layout.cli.main import main

    path = _schema(tmp_path, {"module": "", "types": [{"record": "u8", "fields": [["x", "int32"]]}]})
    assert main(["generate", path, "-o", str(tmp_path / "out"), "-t", "rust"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "(target rust)" in err[0] and re.match(r".*names\.json:\d+:\d+: error:", err[0])


# --- random schemas -------------------------------------------------------------------------

_built = [0]


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(st.data())
def test_hypothesis_rust_bytes_equal_python_encoder(tmp_path_factory, data):
    """Random schemas (records nested in records and payloads, every scalar) and random
    values: one Rust program per example builds every value with the generated constructors;
    its ``to_bytes`` equal the Python encoder's bytes, and ``from_bytes`` round-trips,
    refuses a short slice and an unknown tag (asserted in Rust)."""
    require_toolchain("rustc")
    types = data.draw(st.lists(element_types(big=False), min_size=1, max_size=4))
    doc = SchemaDocument("Hyp")
    for t in types:
        doc.add(t)
    cases = [(t, data.draw(st.lists(values_of(t), min_size=1, max_size=4))) for t in types]
    _built[0] += 1
    tmp = tmp_path_factory.mktemp("rust-hyp")
    path = doc.write(tmp / "hyp.json")
    schema = sl.load(path)
    body = program_lines(RustBuilder(doc.c_names), cases)
    built, ran = compile_crate(tmp / "crate", _rust_files([path]), body, run=True, cpu_s=90)
    assert built.returncode == 0, built.stderr[-3000:]
    assert ran.returncode == 0, ran.stderr[-3000:]
    expected = [schema.encode(doc.c_names[t][len("Hyp_"):], v).hex()
                for t, values in cases for v in values]
    assert ran.stdout.split() == expected
