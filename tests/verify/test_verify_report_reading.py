"""The report of ``verify`` as a new user reads it after a header mistake (issue 22, item 6):

* the header's structure problem, the line that says what to change, comes first, as a
  compiler prints a diagnostic (``include/sim.h:2:56: Sim_body.mass: header says float…``);
* toolchains that measured the same differences share one block that names them all,
  instead of one identical block per compiler;
* when gcc -m32 alone disagrees on a header with 8-byte members, the report says why
  (i386 4-aligns ``double``/``int64_t`` inside structs) and what fixes it.

Every number comes from the real compilers.
"""

from __future__ import annotations

from helpers.common import require_toolchain
from helpers.verify import DATA
from sarek_layout.cli.main import main
from sarek_layout.verify import toolchains

SCHEMA = """\
module = "Sim"
[[types]]
record = "body"
fields = [["pos", "float32"], ["id", "int32"], ["mass", "float64"]]
"""

#: The mistake: float where the schema says float64.
WRONG = """\
#include <stdint.h>
typedef struct Sim_body {
    float pos;
    int32_t id;
    float mass;
} Sim_body;
"""

HOST_C = ["gcc", "g++", "clang"]


def _verify(capsys, *args):
    status = main(["verify", *args])
    out, err = capsys.readouterr()
    return status, out, err


def _wrong_header(tmp_path):
    (tmp_path / "sim.toml").write_text(SCHEMA)
    (tmp_path / "include").mkdir()
    header = tmp_path / "include" / "sim.h"
    header.write_text(WRONG)
    return str(tmp_path / "sim.toml"), str(header)


def _installed(names):
    return [n for n in names if toolchains.get(n).available]


def test_the_structure_line_comes_first(capsys, tmp_path):
    require_toolchain("gcc")
    schema, header = _wrong_header(tmp_path)
    status, out, err = _verify(capsys, schema, "--header", header, "--toolchain", "gcc")
    assert status == 1, out + err
    first = out.splitlines()[0]
    assert first == (f"{header}:5:11: Sim_body.mass: header says float, schema says float64 "
                     f"(write double)"), out


def test_identical_blocks_are_folded_into_one_naming_every_toolchain(capsys, tmp_path):
    require_toolchain("gcc")
    require_toolchain("g++")
    names = _installed(HOST_C + ["gcc-m32", "aarch64"])
    schema, header = _wrong_header(tmp_path)
    args = [a for n in names for a in ("--toolchain", n)]
    status, out, err = _verify(capsys, schema, "--header", header, *args)
    assert status == 1, out + err
    labels = [toolchains.get(n).display for n in names]
    heading = f"{', '.join(labels)} report the same: 3 value(s) differ from the layout:"
    assert heading in out.splitlines(), out
    # Once, with the numbers every compiler measured, and no block per toolchain.
    assert "  Sim_body.mass: layout says member size 8, they say 4" in out.splitlines(), out
    assert out.count("differ from the layout") == 1, out
    for label in labels:
        assert f"\n{label}: " not in out, out
    # They all disagree: no toolchain is singled out with a hint.
    assert "Only gcc -m32 disagrees" not in out


def test_different_blocks_stay_apart(capsys, tmp_path):
    """gcc -m32 measures the 16-byte layout differently from the host (mass at 4, not 8):
    the host compilers fold, gcc -m32 keeps its own block."""
    require_toolchain("gcc")
    require_toolchain("clang")
    require_toolchain("gcc-m32")
    status, out, err = _verify(capsys, str(DATA / "plain.toml"), "--header",
                               str(DATA / "plain_double.h"), "--toolchain", "gcc",
                               "--toolchain", "gcc-m32", "--toolchain", "clang")
    assert status == 1, out + err
    assert "gcc -m32: 3 value(s) differ from the layout:" in out.splitlines(), out
    assert "  Plain_mixed.mass: layout says offset 8, gcc -m32 says 4" in out.splitlines()


def test_gcc_m32_alone_disagreeing_says_why_and_what_fixes_it(capsys, tmp_path):
    require_toolchain("gcc")
    require_toolchain("gcc-m32")
    status, out, err = _verify(capsys, str(DATA / "plain.toml"), "--header",
                               str(DATA / "plain_double.h"), "--toolchain", "gcc",
                               "--toolchain", "gcc-m32")
    assert status == 1, out + err
    assert "agrees" in next(ln for ln in out.splitlines() if ln.startswith("gcc "))
    hint = next(ln for ln in out.splitlines() if ln.startswith("Only gcc -m32 disagrees"))
    assert "i386 aligns double and int64_t to 4 inside structs" in hint
    assert "_Alignas(8)" in hint and "generated header" in hint
    # And the fix it names works: the same header with _Alignas(8) agrees everywhere.
    fixed = tmp_path / "plain_fixed.h"
    fixed.write_text((DATA / "plain_double.h").read_text()
                     .replace("double mass;", "_Alignas(8) double mass;"))
    status, out, err = _verify(capsys, str(DATA / "plain.toml"), "--header", str(fixed),
                               "--toolchain", "gcc", "--toolchain", "gcc-m32")
    assert status == 0, out + err
    assert "Only gcc -m32" not in out
