"""``verify.tools.run_tool``: the bounds every compiler run gets, tried on small programs.

The hostile-header tests (test_verify_hostile.py) show them end to end; these pin each bound
down on its own: time (and the whole process group with it), memory, output size.
"""

from __future__ import annotations

import os
import sys
import time

import pytest

from sarek_layout.verify import tools


def test_a_run_past_the_timeout_is_stopped_with_its_children(tmp_path, monkeypatch):
    monkeypatch.setenv(tools.TIMEOUT_ENV, "1")
    pid_file = tmp_path / "grandchild.pid"
    run = tools.run_tool(["/bin/sh", "-c", f"sleep 300 & echo $! > {pid_file}; wait"],
                         cwd=str(tmp_path))
    assert run.problem is not None and run.problem.startswith("stopped after 1 s")
    assert not run.ok
    grandchild = int(pid_file.read_text())
    for _ in range(100):  # SIGKILL is delivered at once; reaping by init may take a moment
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        if open(f"/proc/{grandchild}/stat").read().split()[2] == "Z":
            break
        time.sleep(0.05)
    else:
        pytest.fail("the compiler's own child outlived the timeout")


def test_the_address_space_is_capped(tmp_path):
    run = tools.run_tool([sys.executable, "-c", "bytearray(1 << 30)"], cwd=str(tmp_path),
                         memory_mb=256)
    assert run.returncode != 0
    assert "MemoryError" in run.stderr


def test_endless_diagnostics_are_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(tools, "MAX_STDERR", 1 << 20)
    run = tools.run_tool(["/bin/sh", "-c", "yes error 1>&2"], cwd=str(tmp_path))
    assert run.problem == "stopped: its diagnostics grew past 1 MiB"
    assert len(run.stderr) <= tools.STDERR_KEEP


def test_output_past_max_stdout_is_stopped(tmp_path):
    run = tools.run_tool(["yes"], cwd=str(tmp_path), max_stdout=1 << 20)
    assert run.problem == "stopped: its output grew past 1 MiB"


def test_temporary_files_of_the_program_stay_in_its_folder(tmp_path):
    run = tools.run_tool(["/bin/sh", "-c", 'echo "$TMPDIR"'], cwd=str(tmp_path))
    assert run.ok and run.stdout.strip() == str(tmp_path)
