"""``verify --header`` reads the header with ``-I`` and ``-D`` as ``import-c`` and schema loading
do (issue 22, item 5): the structure check's preprocessor and every compiler see the same
include folders and macros, so a header that imports with ``-I inc`` also verifies with it."""

from __future__ import annotations

import pytest

from helpers.common import require_toolchain
from helpers.verify import ALL_TOOLCHAINS, SUFFIX
from sarek_layout.cli.main import main
from sarek_layout.verify import toolchains

SCHEMA = """\
module = "Sim"
[[types]]
record = "body"
fields = [["pos", "float32"], ["count", "int32"]]
"""

#: Includes a header of another folder (found only with -I) and needs two -D macros, one with
#: a value and one without; plain `float`/`int` so that OpenCL C reads it too.
TOP = """\
#ifndef WITH_VEC
#error "build with -D WITH_VEC"
#endif
#include "vec.h"
typedef struct Sim_body { vec_t pos; COUNT_T count; } Sim_body;
"""


def _tree(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "top").mkdir()
    (tmp_path / "inc" / "vec.h").write_text("typedef float vec_t;\n")
    (tmp_path / "body.toml").write_text(SCHEMA)
    headers = []
    for target, suffix in SUFFIX.items():
        header = tmp_path / "top" / f"top{suffix}"
        header.write_text(TOP)
        headers += ["--header", str(header)]
    return headers


def test_include_folders_and_macros_reach_the_structure_check_and_every_compiler(capsys, tmp_path):
    require_toolchain("gcc")
    headers = _tree(tmp_path)
    status = main(["verify", str(tmp_path / "body.toml"), "-I", str(tmp_path / "inc"),
                   "-D", "WITH_VEC", "-D", "COUNT_T=int", *headers])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert "header structure" not in out
    ran = [name for name in ALL_TOOLCHAINS if toolchains.get(name).available]
    for name in ran:
        row = next(line for line in out.splitlines() if line.split()[:1] == [name])
        assert "agrees (" in row, out


def test_without_the_options_the_header_is_not_found(capsys, tmp_path):
    headers = _tree(tmp_path)[:2]  # the C header alone: its message is the one to read
    status = main(["verify", str(tmp_path / "body.toml"), "-D", "WITH_VEC", *headers])
    _, err = capsys.readouterr()
    assert status == 2
    assert "vec.h: No such file" in err


@pytest.mark.parametrize("define", ["1X=2", "A B", "X=1\n#include </etc/passwd>"])
def test_a_malformed_define_is_a_usage_error(capsys, tmp_path, define):
    headers = _tree(tmp_path)[:2]
    status = main(["verify", str(tmp_path / "body.toml"), "-I", str(tmp_path / "inc"),
                   "-D", define, *headers])
    _, err = capsys.readouterr()
    assert status == 2
    assert "not a macro definition" in err
