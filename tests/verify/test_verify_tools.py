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


def test_a_helper_process_does_not_import_the_package(tmp_path, monkeypatch):
    """The child runs ``drivers/child.py`` by its path: importing ``sarek_layout`` (verify's
    registry, probes and drivers) cost each of verify's helper processes about 60 ms of CPU.
    ``PYTHONVERBOSE`` makes the child name every module it imports on its stderr."""
    monkeypatch.setenv("PYTHONVERBOSE", "1")
    child = tools.run_child("nvrtc", {"library": str(tmp_path / "no-libnvrtc.so"), "source": "",
                                      "name": "p.cu", "options": []}, cwd=str(tmp_path))
    assert not child.ok
    imported = [line for line in child.run.stderr.splitlines() if line.startswith("import ")]
    assert any("'json'" in line for line in imported), child.run.stderr[-2000:]
    names = [line.split()[1].strip("'") for line in imported]
    assert not [n for n in names if n == "sarek_layout" or n.startswith("sarek_layout.")], names


def test_a_helper_process_cannot_import_from_its_working_folder(tmp_path):
    """The working folder holds the header copies: a file there named like a library the
    task imports must not be what it imports (``sys.path[0]`` is dropped)."""
    (tmp_path / "ctypes.py").write_text("raise SystemExit('imported from the working folder')\n")
    child = tools.run_child("nvrtc", {"library": str(tmp_path / "no-libnvrtc.so"), "source": "",
                                      "name": "p.cu", "options": []}, cwd=str(tmp_path))
    assert "imported from the working folder" not in child.run.stderr + child.run.stdout
    assert "no-libnvrtc.so" in child.run.stderr  # ctypes (the real one) tried to load it


def test_a_program_is_waited_for_through_its_pidfd(tmp_path, monkeypatch):
    """``run_tool`` waits on a pidfd where there is one (the wait ends when the program does;
    ``Popen.wait(timeout)`` sleeps in steps of up to 50 ms, a 25 ms compile's worth), and
    still gets the exit status, and still stops a program past its time."""
    if not hasattr(os, "pidfd_open"):
        pytest.skip("no os.pidfd_open here")
    opened = []
    real = os.pidfd_open

    def pidfd_open(pid, *args):
        fd = real(pid, *args)
        opened.append(fd)
        return fd

    monkeypatch.setattr(os, "pidfd_open", pidfd_open)
    run = tools.run_tool(["/bin/sh", "-c", "exit 3"], cwd=str(tmp_path))
    assert run.returncode == 3 and run.problem is None
    assert len(opened) == 1
    with pytest.raises(OSError):
        os.fstat(opened[0])  # closed again: one fd per program, not one leaked
    monkeypatch.setenv(tools.TIMEOUT_ENV, "0.3")
    run = tools.run_tool(["/bin/sh", "-c", "sleep 30"], cwd=str(tmp_path))
    assert run.problem is not None and run.problem.startswith("stopped after 0.3 s")


def test_without_a_pidfd_a_program_is_still_waited_for(tmp_path, monkeypatch):
    def no_pidfd(pid, *args):
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(os, "pidfd_open", no_pidfd, raising=False)
    run = tools.run_tool(["/bin/sh", "-c", "sleep 0.05; exit 4"], cwd=str(tmp_path))
    assert run.returncode == 4 and run.problem is None
