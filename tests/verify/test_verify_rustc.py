"""The rustc toolchain: the rust target's modules measured by the machine's rustc.

* the bundled example and the cross-module golden agree, one rustc run each;
* a packed Rust struct (``mass`` at 4, not 8) is caught with both numbers: proof that the
  driver reads rustc's numbers and not its own;
* the C toolchains' conformance subset (all 780 records, every 10th variant: 3,859 types)
  and random nested schemas agree;
* SPEC §1b's member kinds: the kind sample (arrays, vectors, matrices, enums in records and
  variants under c, std430, std140 and cuda) agrees, every stride probe measured by rustc (a
  wrong one is caught with both numbers), and for random structs rustc's numbers equal those
  of the compiler implementing each rule set natively (gcc, nvcc, glslang);
* the probe crate is one static item per probed type, and it and the module grow linearly
  with the schema (rustc's time follows both: bench/bench_rustc.py);
* detection: a missing rustc, or one older than 1.77 (no ``offset_of!``), is one line saying
  so, and ``SAREK_REQUIRE_TOOLCHAINS=1`` makes it required.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.common import require_toolchain
from helpers.kind_samples import (kind_sample_files, oracle_mismatches, oracle_schema_file,
                                  oracle_structs)
from helpers.shapes import conformance_records, conformance_variants, flatten, nested_descriptions
from helpers.verify import DATA, EXAMPLES, every_nth, sampled, schema_of
from sarek_layout.resolve import load_schema
from sarek_layout.verify import AGREES, DISAGREES, toolchains
from sarek_layout.verify.toolchains import driver_for
from sarek_layout.verify.drivers.rustc import probe_crate
from sarek_layout.verify.probes import probes_for
from sarek_layout.verify.run import generated_headers, measure_with, user_headers

GOLDEN = EXAMPLES.parent / "tests" / "golden"


def _agree(schema):
    tc = require_toolchain("rustc")
    probes = probes_for(schema.types)
    result = measure_with(tc, generated_headers(schema, ["rust"])["rust"], probes)
    assert result.status == AGREES, result.error or "\n".join(map(str, result.differences[:20]))
    assert result.values == len(probes) and result.builds == 1
    return result


def test_example_schema_agrees():
    _agree(load_schema([str(EXAMPLES / "geometry.toml")]))


def test_cross_module_schemas_agree():
    _agree(load_schema(sorted(str(p) for p in (GOLDEN / "cross_module").glob("*.toml"))))


def test_packed_struct_is_caught_with_both_numbers():
    tc = require_toolchain("rustc")
    schema = load_schema([str(DATA / "plain.toml")])
    result = measure_with(tc, user_headers([str(DATA / "plain_packed.rs")]),
                          probes_for(schema.types))
    assert result.status == DISAGREES
    lines = {str(d) for d in result.differences}
    assert lines == {"Plain_mixed.mass: layout says offset 8, rustc says 4",
                     "Plain_mixed: layout says size 16, rustc says 12",
                     "Plain_mixed: layout says alignment 8, rustc says 1"}


def test_a_failed_assertion_still_yields_the_numbers(tmp_path):
    """A module whose own const assertion fails: the retry without assertions measures, and
    the note carries rustc's refusal (as the C drivers do)."""
    tc = require_toolchain("rustc")
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    headers = generated_headers(schema, ["rust"])["rust"]
    name, text = headers.files[0]
    # One padding member 8 bytes longer (declared and initialised): mass moves to 16.
    wrong = text.replace("_sarek_pad0: [u8; 4],\n    pub mass", "_sarek_pad0: [u8; 12],\n    pub mass")
    wrong = wrong.replace("_sarek_pad0: [0; 4],\n            mass", "_sarek_pad0: [0; 12],\n            mass")
    assert wrong.count("[u8; 12]") == wrong.count("[0; 12]") == 1
    path = tmp_path / name
    path.write_text(wrong)
    result = measure_with(tc, user_headers([str(path)]), probes_for(schema.types))
    assert result.status == DISAGREES and result.builds == 2
    assert "Geometry_particle.mass: layout says offset 8, rustc says 16" in {
        str(d) for d in result.differences}
    assert "Geometry_particle::mass: offset is not 8" in result.note


@pytest.mark.slow
def test_conformance_subset_agrees(tmp_path):
    # The C toolchains' subset (test_verify_drivers.py): every record and every 10th variant,
    # 3,859 types in one rustc run, about 55 s of rustc CPU here (94 s with one static item
    # per probe, and 302 s of wall time on a busy machine: docs/rust.md). make test: every
    # 4th of them (helpers.verify.sampled); CI (SAREK_EXHAUSTIVE=1): all.
    descs = list(conformance_records()) + every_nth(list(conformance_variants()), 10)
    assert len(descs) == 780 + 3079
    _agree(schema_of(sampled(descs, 4), tmp_path))


def test_the_kind_sample_agrees(tmp_path):
    """The conformance run's share for the member kinds: 480 types (arrays, vectors,
    matrices and enums in records and variants, under c, std430, std140 and cuda) in one
    rustc run, about 18 s of wall time here against the subset's minutes (docs/rust.md)."""
    result = _agree(load_schema(kind_sample_files(tmp_path)))
    assert result.values > 4000


def test_a_wrong_stride_is_caught_with_both_numbers(tmp_path):
    """A module whose wrapper of ``trail``'s elements is 4 bytes too long: rustc measures the
    stride at 32 where the layout says 16 (its own assertions refuse it; the retry without
    them measures), and the member's size and the offsets after it follow."""
    tc = require_toolchain("rustc")
    schema = load_schema([str(GOLDEN / "host_kinds" / "particles.toml")])
    (name, text), = generated_headers(schema, ["rust"])["rust"].files
    start = text.index("pub struct Particles_particle_trail_elem {")
    wrapper = text[start:].replace("[u8; 4]", "[u8; 8]", 1).replace("[0; 4]", "[0; 8]", 1)
    wrong = text[:start] + wrapper
    path = tmp_path / name
    path.write_text(wrong)
    result = measure_with(tc, user_headers([str(path)]), probes_for(schema.types))
    assert result.status == DISAGREES and result.builds == 2
    lines = {str(d) for d in result.differences}
    assert "Particles_particle.trail[0]: layout says stride 16, rustc says 32" in lines
    assert "Particles_particle.trail: layout says member size 32, rustc says 64" in lines
    assert "Particles_particle::trail[0]: stride is not 16" in result.note


@pytest.mark.parametrize("rules, oracle", [("c", "gcc"), ("cuda", "nvcc"),
                                           ("std430", "glslang"), ("std140", "glslang")])
def test_rustc_measures_what_the_rules_own_compiler_measures(rules, oracle, tmp_path):
    """Random structs of every kind (kinds_oracle): the rust module's sizes, alignments,
    offsets and strides as rustc lays them out equal those of the same structs written
    natively for the rule set's compiler (C for gcc, CUDA's vector types for nvcc, GLSL
    blocks for glslang, read back with spirv-cross)."""
    tc = require_toolchain("rustc")
    require_toolchain(oracle)
    structs, measured = oracle_structs(rules, oracle, 21, tmp_path)
    schema = load_schema([oracle_schema_file(structs, rules, tmp_path)])
    probes = probes_for(schema.types)
    m = driver_for(tc.name).measure(generated_headers(schema, ["rust"])["rust"], probes)
    assert m.note is None, m.note
    assert oracle_mismatches(probes, m.passes, measured, "rustc") == []


def _crate_for(descs, folder):
    schema = schema_of(descs, folder)
    headers = generated_headers(schema, ["rust"])["rust"]
    probes = probes_for(schema.types)
    crate = probe_crate(headers, probes)
    return schema, probes, crate, sum(len(text) for _, text in headers.files)


def test_probe_crate_work_is_one_item_per_type_and_linear(tmp_path):
    """rustc's time follows the number of items and the bytes it reads: one static per probe
    cost it about 0.5 ms each (45% of the conformance compile), so the crate holds one per
    probed type, and the crate and module for 5N types are at most 5.5 times those for N
    (same mix of records and variants: every 5th of the conformance subset)."""
    everything = list(conformance_records()) + every_nth(list(conformance_variants()), 50)
    measured = {}
    for label, descs in (("N", everything[::5]), ("5N", everything)):
        schema, probes, crate, module_bytes = _crate_for(descs, tmp_path / label)
        items = crate.count("#[no_mangle]")
        assert items == len(schema.types) < len(probes) / 5
        measured[label] = (len(crate), module_bytes, len(probes))
    for small, large in zip(measured["N"], measured["5N"]):
        assert large <= 5.5 * small


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(batch=st.lists(nested_descriptions(), min_size=12, max_size=12))
def test_hypothesis_schemas_agree(batch, tmp_path_factory):
    _agree(schema_of(flatten(batch), tmp_path_factory.mktemp("hyp"), module="Hyp"))


# --- detection ------------------------------------------------------------------------------


@pytest.fixture
def fake_path(tmp_path, monkeypatch):
    """A PATH holding only a fake ``rustc`` (written by the test) and the real readelf."""
    import shutil

    folder = tmp_path / "bin"
    folder.mkdir()
    readelf = shutil.which("readelf")
    if readelf:
        os.symlink(readelf, folder / "readelf")
    monkeypatch.setenv("PATH", str(folder))
    toolchains.refresh()
    yield folder
    monkeypatch.undo()
    toolchains.refresh()


def _fake_rustc(folder, version_line: str) -> None:
    script = folder / "rustc"
    script.write_text(f"#!/bin/sh\necho '{version_line}'\n")
    script.chmod(0o755)


def test_missing_rustc_is_one_line_and_required_under_ci(fake_path, monkeypatch):
    reason = toolchains.get("rustc").unavailable_reason
    assert reason and "\n" not in reason and reason.startswith("rustc: rustc not found")
    assert "rustup" in reason
    monkeypatch.setenv(toolchains.REQUIRE_ENV, "1")
    assert "rustc" in toolchains.required_toolchains()


def test_rustc_older_than_1_77_is_refused(fake_path):
    _fake_rustc(fake_path, "rustc 1.63.0 (4b91a6ea7 2022-08-08)")
    reason = toolchains.get("rustc").unavailable_reason
    assert reason and "rustc 1.63 is older than 1.77" in reason


def test_rustc_1_77_is_accepted(fake_path):
    _fake_rustc(fake_path, "rustc 1.77.0 (aedd173a2 2024-03-17)")
    assert toolchains.get("rustc").unavailable_reason is None


def test_a_schema_rust_refuses_skips_rustc_only(tmp_path):
    """A type Rust cannot name (``u8``, module "") skips rustc with the reason; the C
    compilers still check the schema (the rust target is rendered alone)."""
    require_toolchain("rustc")
    from sarek_layout.verify.run import verify_schema

    path = tmp_path / "u8.json"
    path.write_text('{"module": "", "types": [{"record": "u8", "fields": [["x", "int32"]]}]}')
    report = verify_schema(load_schema([str(path)]), toolchains=None)
    by_name = {r.toolchain.name: r for r in report.results}
    assert by_name["rustc"].status == "skipped"
    assert "rust cannot express a type" in by_name["rustc"].error
    if toolchains.get("gcc").available:
        assert by_name["gcc"].status == AGREES
