"""Hostile output paths and hostile surroundings: what a command writes, and the status it says.

People run sarek-layout on every build, on files they did not write. This module holds:

* a closed stdout: the status is the command's result (``verify`` with a disagreeing header
  and ``generate --check --diff`` exit 1 even when nobody reads what they print), with no
  "Exception ignored" noise.
"""

from __future__ import annotations

import io
import os
import pathlib
import resource
import shutil
import subprocess
import sys

import pytest

from conftest import EXAMPLES, ROOT, require_toolchain
from sarek_layout.cli.main import main

GEOMETRY = EXAMPLES / "geometry.toml"
TIME_LIMIT_S = 20
MEMORY_LIMIT = 1 << 30


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_cli(args, cwd, **kwargs):
    """The real command line in a subprocess, bounded in time and memory."""
    return subprocess.run([sys.executable, "-m", "sarek_layout", *args], cwd=cwd, env=_env(),
                          capture_output=True, timeout=TIME_LIMIT_S, preexec_fn=_limit_memory,
                          **kwargs)


# --- a closed stdout -------------------------------------------------------------------------------


def run_with_stdout_closed(args, cwd):
    """The command line with a stdout whose reader has already gone: the read end of its pipe
    is closed before the command starts, so its first flush meets a broken pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "sarek_layout", *args], cwd=cwd, env=_env(),
                              stdout=write_end, stderr=subprocess.PIPE, timeout=120,
                              preexec_fn=_limit_memory)
    finally:
        os.close(write_end)


def _disagreeing_header(tmp_path) -> pathlib.Path:
    """The generated header with one member's type changed: verify must report it (exit 1)."""
    shutil.copy(GEOMETRY, tmp_path / "geometry.toml")
    assert main(["generate", str(tmp_path / "geometry.toml"), "-o", str(tmp_path / "gen"),
                 "-t", "c"]) == 0
    text = (tmp_path / "gen" / "geometry.h").read_text()
    assert "    float x;" in text
    (tmp_path / "bad.h").write_text(text.replace("    float x;", "    int32_t x;", 1))
    return tmp_path / "bad.h"


def _stale_outputs(tmp_path):
    shutil.copy(GEOMETRY, tmp_path / "geometry.toml")
    assert main(["generate", str(tmp_path / "geometry.toml"), "-o", str(tmp_path / "gen"),
                 "-t", "c"]) == 0
    header = tmp_path / "gen" / "geometry.h"
    header.write_text(header.read_text().replace("float y;", "float why;"))
    return ["generate", "geometry.toml", "-o", "gen", "-t", "c"]


def test_verify_disagreement_is_exit_1_when_nobody_reads_stdout(tmp_path):
    require_toolchain("gcc")
    _disagreeing_header(tmp_path)
    args = ["verify", "geometry.toml", "--toolchain", "gcc", "--header", "bad.h"]
    assert run_cli(args, tmp_path).returncode == 1  # the baseline: a real disagreement
    proc = run_with_stdout_closed(args, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert b"Exception ignored" not in proc.stderr and b"BrokenPipe" not in proc.stderr


@pytest.mark.parametrize("mode", [["--check", "--diff"], ["--diff"]])
def test_generate_stale_is_exit_1_when_nobody_reads_stdout(tmp_path, mode):
    args = _stale_outputs(tmp_path) + mode
    proc = run_with_stdout_closed(args, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert b"Exception ignored" not in proc.stderr and b"BrokenPipe" not in proc.stderr
    assert b"1 header would be written" in proc.stderr  # the command ran to its end


def test_pipefail_sees_the_result_through_a_pipe_into_true(tmp_path):
    """What a CI step does: ``set -o pipefail; sarek-layout … | true``."""
    require_toolchain("gcc")
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash not found")
    _disagreeing_header(tmp_path)
    _stale_outputs(tmp_path)
    python = f"{sys.executable} -m sarek_layout"
    for command in (f"{python} verify geometry.toml --toolchain gcc --header bad.h | true",
                    f"{python} generate geometry.toml -o gen -t c --check --diff | true"):
        proc = subprocess.run([bash, "-o", "pipefail", "-c", command], cwd=tmp_path, env=_env(),
                              capture_output=True, timeout=120)
        assert proc.returncode == 1, (command, proc.stderr)
        assert b"Exception ignored" not in proc.stderr


def test_output_after_the_reader_is_gone_is_dropped_in_process(tmp_path, monkeypatch):
    """The same in-process (as tests and the pytest plugin call main): once a write to stdout
    raises BrokenPipeError, nothing more is written to it and the status stays the command's."""

    class GoneReader(io.StringIO):
        writes = 0

        def write(self, text):
            GoneReader.writes += 1
            raise BrokenPipeError(32, "Broken pipe")

    args = _stale_outputs(tmp_path) + ["--diff"]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdout", GoneReader())
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(args) == 1
    assert GoneReader.writes == 1  # the first write failed; the rest were dropped
    assert "1 header would be written" in sys.stderr.getvalue()
