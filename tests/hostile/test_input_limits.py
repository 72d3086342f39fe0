"""Every input file is capped in size ($SAREK_MAX_INPUT_MB, default 64 MiB): a larger one is
refused at its name in one line, exit 2, before it is read, nothing written, in bounded time
and memory (a sparse 10 GB schema was read whole: 1 GB of input peaked at 2.1 GB, and under
an address-space limit ended in a MemoryError traceback). The cap is overridable, and a
value that is no positive number is refused in one line.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from helpers.bounded import run_cpu_bounded
from helpers.hostile import CPU_S, MEMORY_BYTES, ROOT, check_refused_bounded
MAX_INPUT_ENV, DEFAULT_MAX_INPUT_MB = "SAREK_MAX_INPUT_MB", 64  # source_files.py

needs_cpp = pytest.mark.skipif(shutil.which("cpp") is None and shutil.which("gcc") is None,
                               reason="reading C headers needs cpp (apt-get install cpp)")

#: A sparse file this long takes no disk space: the size the old readers read whole.
HUGE = 10 << 30

VALID = {
    ".json": '{"types": [{"record": "t", "fields": [["x", "int32"]]}]}\n',
    ".toml": '[[types]]\nrecord = "t"\nfields = [["x", "int32"]]\n',
    ".ml": "type t = { x : int32 } [@@deriving sarek]\n",
    ".h": "#include <stdint.h>\ntypedef struct t { int32_t x; } t;\n",
}


def _sparse(path, size=HUGE, head=""):
    with open(path, "wb") as f:
        f.write(head.encode())
        f.truncate(size)


def _run(argv, cwd, env_extra=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    env.pop(MAX_INPUT_ENV, None)
    env.update(env_extra or {})
    # A refused input is refused before it is read: CPU time bounds the work, wall time is
    # only the hang guard (tests/helpers/bounded.py), so a loaded machine cannot fail this.
    return run_cpu_bounded([sys.executable, "-m", "sarek_layout", *argv], cpu_s=CPU_S,
                           memory=MEMORY_BYTES, what="a refused input must be refused "
                           "before it is read", cwd=cwd, env=env)


@pytest.mark.parametrize("suffix", [".json", ".toml", ".ml", ".h"])
def test_a_huge_sparse_input_is_refused_before_it_is_read(suffix, tmp_path):
    if suffix == ".h" and shutil.which("cpp") is None and shutil.which("gcc") is None:
        pytest.skip("reading C headers needs cpp")
    path = tmp_path / f"huge{suffix}"
    _sparse(path, head=VALID[suffix])
    check_refused_bounded([str(path)], tmp_path, tmp_path, f"{path}: error: ",
                          ["is larger than the input size limit (10 GiB > 64 MiB",
                           MAX_INPUT_ENV], command="generate" if suffix != ".h" else "import-c")


@pytest.mark.parametrize("command", ["layout", "explain"])
def test_every_command_that_reads_schemas_refuses_a_huge_one(command, tmp_path):
    path = tmp_path / "huge.toml"
    _sparse(path, head=VALID[".toml"])
    proc = _run([command, str(path)], tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b"", err
    assert err.splitlines() == [err.rstrip("\n")] and err.startswith(f"{path}: error: "), err
    assert "Traceback" not in err and "MemoryError" not in err


@needs_cpp
def test_a_huge_included_file_is_refused_at_its_include(tmp_path):
    _sparse(tmp_path / "big.h")
    header = tmp_path / "main.h"
    header.write_text('#include <stdint.h>\n#include "big.h"\ntypedef struct T { int32_t a; } T;\n')
    check_refused_bounded([str(header)], tmp_path, tmp_path, f"{header}:2:10: error: ",
                          [f"#include names '{tmp_path / 'big.h'}', which is larger than the "
                           f"input size limit"], command="import-c")


def test_the_limit_is_overridable(tmp_path):
    # A valid schema of 2 MiB (a long comment): refused under 1 MiB, read under 3.
    path = tmp_path / "padded.toml"
    path.write_text(VALID[".toml"] + "#" + "x" * (2 << 20) + "\n")
    refused = _run(["layout", str(path)], tmp_path, {MAX_INPUT_ENV: "1"})
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.decode().startswith(f"{path}: error: is larger than the input size "
                                              f"limit (2 MiB > 1 MiB")
    read = _run(["layout", str(path)], tmp_path, {MAX_INPUT_ENV: "3"})
    assert read.returncode == 0, read.stderr
    assert b"record Padded.t" in read.stdout
    default = _run(["layout", str(path)], tmp_path, {MAX_INPUT_ENV: ""})
    assert default.returncode == 0 and DEFAULT_MAX_INPUT_MB > 2


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-1", "0", "1e30", "lots", "1 MiB",
                                   "0.0000001"])
def test_a_limit_that_is_no_positive_number_is_refused_in_one_line(value, tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(VALID[".toml"])
    proc = _run(["generate", str(path), "-o", str(tmp_path / "out")], tmp_path,
                {MAX_INPUT_ENV: value})
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sarek-layout: error: "), err
    assert f"{MAX_INPUT_ENV}=" in lines[0] and "must be a number of MiB greater than 0" in lines[0]
    assert not (tmp_path / "out").exists()
