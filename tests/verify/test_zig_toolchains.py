"""The Zig toolchains (ziglang from PyPI): ``zig`` measures the Zig module on 11 ABIs, and
``zig-cc``, ``zig-c++`` and ``zig-cuda`` the C, C++ and CUDA-host headers on 9 foreign ones
(Windows, macOS, wasm32, big-endian sparc64, mips and powerpc), each ABI one pass. The C
family's example, packed-header and conformance runs are test_verify_drivers.py's (they take
their toolchains from the registry); here: the Zig module's, an ABI whose ``double`` is not 8
bytes refused by the header's own assertion, and what a missing ziglang says.

The member kinds of SPEC §1b in the Zig module: the kind sample agrees on every ABI, every
stride probe is Zig's (a wrong one is caught with both numbers), Zig's numbers on every ABI
equal those of the compiler implementing each rule set natively, and an enum over a 64-bit
base, which Zig 4-aligns on x86 as a type of its own, is reported unmeasured there, not wrong."""

from __future__ import annotations

import importlib.util
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.common import EXAMPLES, TESTS, require_toolchain
from helpers.kind_samples import (kind_sample_files, oracle_mismatches, oracle_schema_file,
                                  oracle_structs)
from helpers.shapes import conformance_records, conformance_variants, flatten, nested_descriptions
from helpers.verify import every_nth, schema_of
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.verify import AGREES, DISAGREES, toolchains
from sarek_layout.verify.drivers import HeaderSet
from sarek_layout.verify.probes import probes_for
from sarek_layout.verify.run import generated_headers, measure_with, verify_schema
from sarek_layout.verify.toolchains import driver_for

ZIG_FAMILY = [name for name, tc in toolchains.TOOLCHAINS.items()
              if tc.driver.rpartition(".")[2].startswith("zig:")]


def test_the_zig_family_is_registered_with_its_abis():
    assert ZIG_FAMILY == ["zig", "zig-cc", "zig-c++", "zig-cuda"]
    zig = toolchains.get("zig")
    for abi in ("x86-linux", "x86_64-linux", "aarch64-linux", "arm-linux", "riscv64-linux",
                "x86_64-windows", "x86-windows", "aarch64-macos", "x86_64-macos"):
        assert abi in zig.passes
    assert any(p.startswith("wasm32-") for p in zig.passes)
    for name in ZIG_FAMILY[1:]:
        passes = toolchains.get(name).passes
        for abi in ("x86-windows", "x86_64-windows", "aarch64-macos", "x86_64-macos", "wasm32",
                    "riscv64", "sparc64", "mips", "powerpc"):
            assert any(p.startswith(abi + "-") or p == abi for p in passes), (name, abi)


def _agree(name, schema, target):
    tc = require_toolchain(name)
    headers = generated_headers(schema, [target])[target]
    probes = probes_for(schema.types)
    result = measure_with(tc, headers, probes)
    assert result.status == AGREES, result.error or "\n".join(map(str, result.differences[:20]))
    assert result.values == len(probes) * len(tc.passes)
    assert result.builds == 1
    return result


def test_the_zig_module_of_the_example_agrees_on_every_abi():
    _agree("zig", load_schema([str(EXAMPLES / "geometry.toml"),
                               str(EXAMPLES / "e2e" / "telemetry.toml")]), "zig")


def test_the_zig_module_of_the_conformance_subset_agrees(tmp_path):
    """All 780 records and every 40th variant (770): 1,550 types on 11 ABIs."""
    descs = list(conformance_records()) + every_nth(list(conformance_variants()), 40)
    _agree("zig", schema_of(descs, tmp_path, module="Conf"), "zig")


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(batch=st.lists(nested_descriptions(), min_size=12, max_size=12))
def test_hypothesis_schemas_agree_in_zig(batch, tmp_path_factory):
    require_toolchain("zig")
    schema = schema_of(flatten(batch), tmp_path_factory.mktemp("hyp"), module="Hyp")
    _agree("zig", schema, "zig")


def test_a_wrong_zig_module_is_caught_with_both_numbers():
    """``mass`` and ``pos`` swapped in the module: its comptime checks refuse it, and the
    retry without them gives Zig's own numbers on every ABI."""
    tc = require_toolchain("zig")
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    (module,) = render_headers(schema, ["zig"])
    mass, pos = "    mass: f64 align(8), // offset 8\n", "    pos: Geometry_point, // offset 16\n"
    assert mass + pos in module.text
    wrong = HeaderSet(((module.filename, module.text.replace(mass + pos, pos + mass)),),
                      (module.filename,))
    result = measure_with(tc, wrong, probes_for(schema.types))
    assert result.status == DISAGREES
    assert "Geometry_particle::mass must be at offset 8" in result.note
    lines = {str(d) for d in result.differences}
    for abi in tc.passes:
        assert f"Geometry_particle.mass: layout says offset 8, zig ({abi}) says 16" in lines
        assert f"Geometry_particle.pos: layout says offset 16, zig ({abi}) says 8" in lines
    assert len(lines) == 2 * len(tc.passes)


def test_the_kind_sample_agrees_on_every_abi(tmp_path):
    """480 types of every kind under c, std430, std140 and cuda, on 11 ABIs, every probe
    measured (an enum type is probed by its size alone: as a type of its own it is aligned as
    the ABI aligns its base, an int64 to 4 on x86 Linux, and its members are pinned)."""
    tc = require_toolchain("zig")
    schema = load_schema(kind_sample_files(tmp_path))
    probes = probes_for(schema.types)
    result = measure_with(tc, generated_headers(schema, ["zig"])["zig"], probes)
    assert result.status == AGREES, result.error or "\n".join(map(str, result.differences[:20]))
    assert result.values == len(probes) * len(tc.passes)


def test_a_wrong_stride_in_the_zig_module_is_caught_with_both_numbers():
    """``trail``'s wrapper 4 bytes too long: every ABI measures its stride at 32 where the
    layout says 16 (the comptime check names it; the retry without checks measures)."""
    tc = require_toolchain("zig")
    schema = load_schema([str(TESTS / "golden" / "host_kinds" / "particles.toml")])
    (module,) = render_headers(schema, ["zig"])
    wrapper = ("pub const Particles_particle_trail_elem = extern struct {\n"
               "    v: [3]f32 align(16),\n    _sarek_pad0: [4]u8 = @splat(0),\n")
    assert wrapper in module.text
    wrong = HeaderSet(((module.filename, module.text.replace(
        wrapper, wrapper.replace("[4]u8", "[8]u8"))),), (module.filename,))
    result = measure_with(tc, wrong, probes_for(schema.types))
    assert result.status == DISAGREES
    assert "the stride of Particles_particle::trail[0] must be 16" in result.note
    lines = {str(d) for d in result.differences}
    for abi in tc.passes:
        assert f"Particles_particle.trail[0]: layout says stride 16, zig ({abi}) says 32" in lines


@pytest.mark.parametrize("rules, oracle", [("c", "gcc"), ("cuda", "nvcc"),
                                           ("std430", "glslang"), ("std140", "glslang")])
def test_zig_measures_what_the_rules_own_compiler_measures(rules, oracle, tmp_path):
    """Random structs of every kind (kinds_oracle): on every ABI, the Zig module's sizes,
    alignments, offsets and strides equal those of the same structs written natively for the
    rule set's compiler (C for gcc, CUDA's vector types for nvcc, GLSL blocks for glslang)."""
    tc = require_toolchain("zig")
    require_toolchain(oracle)
    structs, measured = oracle_structs(rules, oracle, 22, tmp_path)
    schema = load_schema([oracle_schema_file(structs, rules, tmp_path)])
    probes = probes_for(schema.types)
    m = driver_for(tc.name).measure(generated_headers(schema, ["zig"])["zig"], probes)
    assert m.note is None, m.note
    assert oracle_mismatches(probes, m.passes, measured, "zig") == []


def test_verify_command_lists_the_zig_family(capsys):
    from sarek_layout.cli.main import main

    for name in ZIG_FAMILY:
        require_toolchain(name)
    args = ["verify", str(EXAMPLES / "geometry.toml")]
    for name in ZIG_FAMILY:
        args += ["--toolchain", name]
    assert main(args) == 0
    out = capsys.readouterr().out
    for name in ZIG_FAMILY:
        row = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert "agrees" in row, out
    assert "4 of 4 toolchains agree" in out


def test_an_abi_whose_double_is_4_bytes_is_refused_by_the_header(tmp_path):
    """AVR (``zig cc -target avr-freestanding``, double is 4 bytes): the C header's own
    assertion refuses it, first and by name, before any layout check."""
    tc = require_toolchain("zig-cc")
    from sarek_layout.verify.drivers.zig import zig_env, zig_program

    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    for f in render_headers(schema, ["c"]):
        (tmp_path / f.filename).write_text(f.text)
    (tmp_path / "avr.c").write_text('#include "geometry.h"\n')
    proc = subprocess.run([zig_program(), *tc.argv[1:], "-target", "avr-freestanding",
                           "-mmcu=atmega328p", "-c", "avr.c", "-o", "avr.o"], cwd=tmp_path,
                          env=zig_env(str(tmp_path)), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode != 0
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert errors and "sarek-layout: float64 members need an 8-byte double" in errors[0], \
        proc.stderr


@pytest.fixture
def no_ziglang(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ziglang" else real(name, *a))
    toolchains.refresh()
    yield
    monkeypatch.undo()
    toolchains.refresh()


def test_a_missing_ziglang_is_one_line_with_the_install_hint(no_ziglang, monkeypatch):
    for name in ZIG_FAMILY:
        reason = toolchains.get(name).unavailable_reason
        assert reason is not None and "\n" not in reason
        assert reason.startswith(name + ": ") and reason.endswith("pip install ziglang")
    monkeypatch.delenv(toolchains.REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="pip install ziglang"):
        require_toolchain("zig")
    monkeypatch.setenv(toolchains.REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="required toolchain missing: zig: .*ziglang"):
        require_toolchain("zig")


def test_a_missing_ziglang_skips_in_verify(no_ziglang, capsys):
    from sarek_layout.cli.main import main

    assert main(["verify", str(EXAMPLES / "geometry.toml"), "--toolchain", "zig"]) == 2
    assert "pip install ziglang" in capsys.readouterr().err
