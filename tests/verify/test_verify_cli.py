"""``sarek-layout verify`` end to end: exit statuses, the table, and planted disagreements.

Each planted mistake must be found and named so a person can act on it:
* a plain ``double`` after an ``int32_t`` passes on x86-64 but not under ``gcc -m32``;
* the same header with its own static assertions: they fire, and the numbers still come;
* a member of the wrong type, and a missing type, are caught by the structure check;
* a toolchain that is not installed is reported with its install hint, and naming it is
  exit 2.
"""

from __future__ import annotations

import dataclasses

import pytest

from helpers.common import require_toolchain
from sarek_layout.verify import toolchains
from sarek_layout.cli.main import main
from sarek_layout.verify.toolchains import driver_for
from helpers.verify import ALL_TOOLCHAINS, DATA, EXAMPLES

GEOMETRY = str(EXAMPLES / "geometry.toml")
PLAIN = str(DATA / "plain.toml")


def verify(capsys, *args):
    status = main(["verify", *args])
    out, err = capsys.readouterr()
    return status, out, err


def _row(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if line.split()[:1] == [name])


def test_examples_agree_on_every_installed_toolchain(capsys):
    status, out, err = verify(capsys, GEOMETRY)
    assert status == 0, out + err
    for name in ALL_TOOLCHAINS:
        row = _row(out, name)
        if toolchains.get(name).available:
            assert "agrees (" in row, row
        else:
            assert "skipped" in row and toolchains.get(name).install_hint in row
    # Under SAREK_REQUIRE_TOOLCHAINS every one of them must really have run.
    for name in toolchains.required_toolchains():
        require_toolchain(name)
    assert "toolchains agree with the layout of 3 types" in out


def test_committed_headers_of_every_target_agree(capsys, tmp_path):
    assert main(["generate", GEOMETRY, "-o", str(tmp_path), "-t", "c", "-t", "cuda",
                 "-t", "opencl"]) == 0
    capsys.readouterr()
    status, out, err = verify(capsys, GEOMETRY, "--header", str(tmp_path / "geometry.h"),
                              "--header", str(tmp_path / "geometry.cuh"),
                              "--header", str(tmp_path / "geometry.clh"))
    assert status == 0, out + err
    assert "header structure" not in out


def test_plain_double_passes_on_x86_64():
    require_toolchain("gcc")
    assert main(["verify", PLAIN, "--header", str(DATA / "plain_double.h"),
                 "--toolchain", "gcc", "--toolchain", "g++", "--toolchain", "clang"]) == 0


def test_plain_double_fails_under_gcc_m32_naming_the_member(capsys):
    require_toolchain("gcc-m32")
    status, out, _ = verify(capsys, PLAIN, "--header", str(DATA / "plain_double.h"),
                            "--toolchain", "gcc-m32")
    assert status == 1
    assert "DISAGREES" in _row(out, "gcc-m32")
    assert "Plain_mixed.mass: layout says offset 8, gcc -m32 says 4" in out
    assert "Plain_mixed: layout says size 16, gcc -m32 says 12" in out
    assert "Plain_mixed: layout says alignment 8, gcc -m32 says 4" in out


def test_failing_header_assertions_still_yield_the_numbers(capsys):
    require_toolchain("gcc-m32")
    status, out, _ = verify(capsys, PLAIN, "--header", str(DATA / "plain_double_asserts.h"),
                            "--toolchain", "gcc-m32")
    assert status == 1
    assert "own compile-time assertions fail" in out
    assert "Plain_mixed::mass must be at offset 8" in out
    assert "Plain_mixed.mass: layout says offset 8, gcc -m32 says 4" in out


def test_a_header_whose_own_assertion_fails_does_not_pass_even_when_every_number_agrees(capsys, tmp_path):
    """The numbers measured with the assertions switched off all agree, but the header as
    given does not compile: once this exited 0 with "agrees"."""
    require_toolchain("gcc")
    assert main(["generate", "-t", "c", "-o", str(tmp_path), GEOMETRY]) == 0
    header = tmp_path / "geometry.h"
    text = header.read_text()
    first = text.index("typedef struct")
    header.write_text(text[:first] + '_Static_assert(sizeof(int) == 3, "an unrelated user assertion");\n'
                      + text[first:])
    capsys.readouterr()
    status, out, _ = verify(capsys, GEOMETRY, "--header", str(header), "--toolchain", "gcc")
    assert status == 1, out
    assert "FAILED" in _row(out, "gcc") and "agrees (" not in _row(out, "gcc"), out
    assert "an unrelated user assertion" in out
    assert out.rstrip().splitlines()[-1].startswith("0 of 1 toolchain agree"), out


def test_alignment_specifier_fixes_i386(capsys):
    require_toolchain("gcc-m32")
    status, out, _ = verify(capsys, PLAIN, "--header", str(DATA / "plain_fixed.h"))
    assert status == 0, out
    assert "agrees" in _row(out, "gcc-m32")


def test_wrong_member_type_is_caught_by_the_structure_check(capsys):
    require_toolchain("gcc")
    status, out, _ = verify(capsys, GEOMETRY, "--header", str(DATA / "geometry_wrong_type.h"),
                            "--toolchain", "gcc")
    assert status == 1
    assert ("geometry_wrong_type.h:18:9: Geometry_point.y: header says int, schema says float32"
            in out)


def test_missing_type_is_caught(capsys):
    require_toolchain("gcc")
    status, out, _ = verify(capsys, GEOMETRY, "--header", str(DATA / "geometry_missing.h"),
                            "--toolchain", "gcc")
    assert status == 1
    assert "Geometry_shape: not declared in the header" in out
    # The types that are there are still compiled and agree.
    assert "agrees" in _row(out, "gcc")


def test_hand_written_header_in_the_spec_shape_agrees(capsys):
    status, out, err = verify(capsys, GEOMETRY, "--header", str(DATA / "geometry_hand.h"))
    assert status == 0, out + err
    assert "header structure" not in out


def test_opencl_long_long_is_caught_by_structure_and_compilers(capsys):
    require_toolchain("clang-opencl")
    status, out, _ = verify(capsys, str(DATA / "wide.toml"), "--header",
                            str(DATA / "plain_longlong.clh"), "--toolchain", "clang-opencl")
    assert status == 1
    assert "Plain_wide.count: header says long long, schema says int64" in out
    assert "Plain_wide.count: layout says member size 8, clang-opencl says 16" in out


def test_toolchain_list(capsys):
    status, out, _ = verify(capsys, "--toolchain", "list")
    assert status == 0
    for name in ALL_TOOLCHAINS:
        row = _row(out, name)
        assert ("installed" in row) == toolchains.get(name).available


@pytest.fixture
def absent_aarch64(monkeypatch):
    """aarch64 as if its cross gcc were not installed."""
    tc = toolchains.get("aarch64")
    ghost = dataclasses.replace(tc, argv=("sarek-no-such-aarch64-gcc",) + tc.argv[1:])
    monkeypatch.setitem(toolchains.TOOLCHAINS, "aarch64", ghost)
    toolchains.refresh()
    yield ghost
    toolchains.refresh()


def test_absent_toolchain_is_unavailable_with_its_install_hint(absent_aarch64):
    driver = driver_for("aarch64")
    assert not driver.available
    assert "sarek-no-such-aarch64-gcc not found" in driver.unavailable_reason
    assert "apt-get install -y --no-install-recommends gcc-aarch64-linux-gnu" in \
        driver.unavailable_reason


def test_absent_toolchain_asked_for_by_name_exits_2(capsys, absent_aarch64):
    status, out, err = verify(capsys, GEOMETRY, "--toolchain", "aarch64")
    assert status == 2
    assert "gcc-aarch64-linux-gnu" in err


def test_absent_toolchain_not_asked_for_is_skipped(capsys, absent_aarch64):
    require_toolchain("gcc")
    status, out, _ = verify(capsys, PLAIN, "--header", str(DATA / "plain_fixed.h"))
    assert status == 0
    assert "skipped: aarch64: sarek-no-such-aarch64-gcc not found" in _row(out, "aarch64")


def test_absent_nvrtc_is_unavailable_and_exits_2(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv(toolchains.NVRTC_ENV, str(tmp_path / "libnvrtc.so.none"))
    toolchains.refresh()
    try:
        reason = driver_for("nvrtc").unavailable_reason
        assert reason is not None and "pip install nvidia-cuda-nvrtc" in reason
        status, _, err = verify(capsys, GEOMETRY, "--toolchain", "nvrtc")
        assert status == 2
        assert "pip install nvidia-cuda-nvrtc" in err
    finally:
        monkeypatch.delenv(toolchains.NVRTC_ENV)
        toolchains.refresh()


@pytest.mark.parametrize("args, message", [
    (["--toolchain", "tcc"], "unknown toolchain 'tcc'"),
    (["--header", "x.txt"], "cannot tell the header's target"),
    (["--header", str(DATA / "plain_double.h"), "--toolchain", "nvcc"],
     "toolchain nvcc compiles cuda headers"),
])
def test_usage_errors_exit_2(capsys, args, message):
    status, _, err = verify(capsys, PLAIN, *args)
    assert status == 2
    assert message in err


def test_no_schema_is_a_usage_error(capsys):
    status, _, err = verify(capsys)
    assert status == 2
    assert "at least one SCHEMA" in err


def test_unparsable_header_is_bad_input_with_its_place(capsys, tmp_path):
    bad = tmp_path / "bad.h"
    bad.write_text("typedef struct Plain_mixed { int32_t id; double mass } Plain_mixed;\n")
    status, _, err = verify(capsys, PLAIN, "--header", str(bad), "--toolchain", "gcc")
    assert status == 2
    assert "bad.h:1:" in err and "error: cannot parse the header" in err


# --- issue #12: one broken record, module-qualified records, readable messages ---------------


def test_a_broken_nested_record_does_not_cost_the_other_types_their_numbers(capsys, tmp_path):
    """point lacks y and mixed.mass is a float: both are reported, and the compiler still
    measures mixed (the probes of holder.p.y used to break the whole compile)."""
    require_toolchain("gcc")
    from test_verify_structure import NESTED_HEADER, _NESTED
    from helpers.verify import schema_json
    import json

    schema = tmp_path / "conf.json"
    schema.write_text(json.dumps(schema_json(_NESTED)))
    header = tmp_path / "n.h"
    header.write_text(NESTED_HEADER)
    status, out, _ = verify(capsys, str(schema), "--header", str(header), "--toolchain", "gcc")
    assert status == 1
    assert "Conf_point.y: missing from the header" in out
    assert "Conf_mixed.mass: header says float, schema says float64 (write double)" in out
    assert "DISAGREES" in _row(out, "gcc")
    assert "Conf_mixed.mass: layout says member size 8, gcc says 4" in out


def test_records_of_the_same_shape_in_two_modules_are_told_apart(capsys, tmp_path):
    """A.point and B.point have the same fields: B.holder.p is B_point, as generated."""
    (tmp_path / "a.toml").write_text(
        'module = "A"\n[[types]]\nrecord = "point"\nfields = [["x", "float32"]]\n')
    (tmp_path / "b.toml").write_text(
        'module = "B"\n[[types]]\nrecord = "point"\nfields = [["x", "float32"]]\n'
        '[[types]]\nrecord = "holder"\nfields = [["p", "point"]]\n')
    schemas = [str(tmp_path / "a.toml"), str(tmp_path / "b.toml")]
    assert main(["generate", *schemas, "-o", str(tmp_path / "gen"), "-t", "c", "-t", "cuda",
                 "-t", "opencl"]) == 0
    capsys.readouterr()
    headers = [a for s in ("a.h", "b.h", "a.cuh", "b.cuh", "a.clh", "b.clh")
               for a in ("--header", str(tmp_path / "gen" / s))]
    status, out, err = verify(capsys, *schemas, *headers)
    assert status == 0, out + err
    assert "header structure" not in out


_REFUSES_COMPILERS = ("#if defined(__GNUC__) || defined(__clang__) || defined(__NVCC__) || "
                      "defined(__CUDACC_RTC__)\n#error this header refuses real compilers\n#endif\n")


@pytest.mark.parametrize("name", ALL_TOOLCHAINS)
def test_compile_errors_name_the_users_header_and_line(capsys, tmp_path, monkeypatch, name):
    """Errors used to point into verify's temporary copy (``err.h:2``, or a bare NVRTC
    name): they name the header as given, ``sub/err.h``, and its line."""
    tc = require_toolchain(name)
    suffix = {"c": ".h", "cuda": ".cuh", "opencl": ".clh"}[tc.target]
    assert main(["generate", PLAIN, "-o", str(tmp_path / "gen"), "-t", tc.target]) == 0
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / f"err{suffix}").write_text(
        _REFUSES_COMPILERS + (tmp_path / "gen" / f"plain{suffix}").read_text())
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    status, out, _ = verify(capsys, PLAIN, "--header", f"sub/err{suffix}", "--toolchain", name)
    assert status == 1
    assert "FAILED" in _row(out, name)
    assert (f"sub/err{suffix}:2:" in out) or (f"sub/err{suffix}(2)" in out), out
    assert "headers/" not in out and "sarek-verify" not in out


# nan used to pass `value <= 0` and disable the time bound; nan and inf for the memory were
# a traceback, and 1e30 wrapped round in the shell's `ulimit -v` (gcc crashed: a false
# "0 of 1 agree"). Every value outside the documented ranges is one line, exit 2.
_BAD_LIMITS = [("SAREK_VERIFY_TIMEOUT", v) for v in
               ("soon", "nan", "NaN", "inf", "-inf", "-1", "0", "-0", "1e30", "86401", "0x10",
                "10 s", "9" * 5000)] + \
              [("SAREK_VERIFY_MEMORY_MB", v) for v in
               ("-1", "0", "nan", "inf", "1e30", "1.5", "1073741825", "lots", "\udcff")]


@pytest.mark.parametrize("variable, value", _BAD_LIMITS)
def test_bad_limit_in_the_environment_is_a_usage_error(capsys, monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    status, out, err = verify(capsys, PLAIN, "--toolchain", "gcc")
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and len(lines[0]) < 300, err[:500]
    assert lines[0].startswith(f"sarek-layout: error: ${variable} must be "), lines[0]


@pytest.mark.parametrize("variable, value", [("SAREK_VERIFY_TIMEOUT", "86400"),
                                             ("SAREK_VERIFY_TIMEOUT", "0.5e3"),
                                             ("SAREK_VERIFY_TIMEOUT", " "),
                                             ("SAREK_VERIFY_MEMORY_MB", "1073741824"),
                                             ("SAREK_VERIFY_MEMORY_MB", "4096.0")])
def test_limits_at_the_ends_of_their_ranges_are_honoured(capsys, monkeypatch, variable, value):
    """The largest memory cap is passed to `ulimit -v` without wrapping: gcc runs."""
    require_toolchain("gcc")
    monkeypatch.setenv(variable, value)
    status, out, err = verify(capsys, PLAIN, "--toolchain", "gcc")
    assert status == 0, out + err


def test_a_library_that_is_not_nvrtc_in_the_environment_is_one_line(tmp_path):
    """$SAREK_NVRTC_LIBRARY naming a library without nvrtcVersion was an AttributeError
    traceback; now the toolchain is missing, and the message names the variable."""
    import ctypes.util
    import os
    import subprocess
    import sys

    libc = ctypes.util.find_library("c")
    if libc is None:
        pytest.skip("no libc to name")
    env = dict(os.environ, SAREK_NVRTC_LIBRARY=libc)
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "verify", str(PLAIN),
                           "--toolchain", "nvrtc"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)  # a hang guard only
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"$SAREK_NVRTC_LIBRARY names '{libc}', which does not load as a libnvrtc" in lines[0]


def test_an_unknown_name_in_sarek_require_toolchains_is_a_usage_error(monkeypatch):
    from sarek_layout.errors import UsageError

    monkeypatch.setenv(toolchains.REQUIRE_ENV, "gcc,gcc-m23")
    with pytest.raises(UsageError, match=r"names unknown toolchain 'gcc-m23'; known: gcc, "):
        toolchains.required_toolchains()
    monkeypatch.setenv(toolchains.REQUIRE_ENV, "gcc, clang")
    assert toolchains.required_toolchains() == ("gcc", "clang")


def test_a_compile_check_is_no_agreement(capsys):
    """naga validates the WGSL and measures nothing: its row and the summary say it compiled,
    and only toolchains that compared values are counted as agreeing."""
    require_toolchain("naga")
    require_toolchain("gcc")
    status, out, err = verify(capsys, GEOMETRY, "--toolchain", "naga", "--toolchain", "gcc")
    assert status == 0, out + err
    assert _row(out, "naga").endswith("compiles (measures no values)"), out
    assert "agrees (" in _row(out, "gcc"), out
    assert out.rstrip().splitlines()[-1] == (
        "1 of 1 toolchain agree with the layout of 3 types; 1 more compiles it, measuring nothing")
    status, out, err = verify(capsys, GEOMETRY, "--toolchain", "naga")
    assert status == 0, out + err
    assert "agree" not in out, out
    assert out.rstrip().splitlines()[-1] == (
        "no toolchain measured the layout of 3 types; 1 compiles it, measuring nothing")
