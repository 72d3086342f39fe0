"""``verify.tools.run_tool``: the bounds every compiler run gets, tried on small programs.

The hostile-header tests (test_verify_hostile.py) show them end to end; these pin each bound
down on its own: time (and the whole process group with it), memory, output size.
"""

from __future__ import annotations

import os
import pathlib
import shutil
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


# --- the toolchains' own detection runs (issue 30, item 8) -----------------------------------

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _fake_program(folder: pathlib.Path, name: str, body: str) -> pathlib.Path:
    """An executable ``folder/bin/name`` running the shell ``body``; returns the bin folder."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    program = bin_dir / name
    program.write_text("#!/bin/sh\n" + body)
    program.chmod(0o755)
    return bin_dir


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie waiting for init to reap it counts as ended)."""
    for _ in range(100):  # SIGKILL is delivered at once; reaping by init may take a moment
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            if open(f"/proc/{pid}/stat").read().split()[2] == "Z":
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_a_hanging_compiler_in_the_smoke_test_is_stopped_by_the_timeout(tmp_path):
    """Hostile: a ``gcc`` on PATH that starts a child and hangs on the 3-line smoke program.
    The smoke compile used to run with a fixed 120 s timeout of its own, ignoring
    ``$SAREK_VERIFY_TIMEOUT`` (2 s here), killed only the shell, left ``sleep`` running, and
    said "not installed". Now: exit 2 within the 2 s, one line that says it was stopped after
    2 s, nothing written, nothing left running, little CPU."""
    from helpers.bounded import run_cpu_bounded

    pid_file = tmp_path / "grandchild.pid"
    bin_dir = _fake_program(tmp_path, "gcc", f"sleep 1000 &\necho $! > {pid_file}\nwait\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "geometry.toml").write_text((ROOT / "examples" / "geometry.toml").read_text())
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", PYTHONPATH=str(ROOT),
               PYTHONDONTWRITEBYTECODE="1", TMPDIR=str(tmpdir), SAREK_LAYOUT_NO_CACHE="1")
    env[tools.TIMEOUT_ENV] = "2"
    # A hang guard of 60 s, well under the old fixed 120 s: the old code fails it.
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "verify", "geometry.toml",
                            "--toolchain", "gcc"], cpu_s=10, hang_factor=6, cwd=project,
                           env=env, text=True)
    try:
        assert proc.returncode == 2, proc.stderr[-2000:]
        assert proc.stdout == ""
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
        assert lines[0].startswith("sarek-layout: error: toolchain asked for by name cannot be "
                                   "used: gcc: `gcc -std=c11 -c smoke.c -o smoke.o`"), lines[0]
        assert "stopped after 2 s ($SAREK_VERIFY_TIMEOUT)" in lines[0], lines[0]
        assert "not installed" not in lines[0] and "apt-get" not in lines[0], lines[0]
        assert sorted(p.name for p in project.iterdir()) == ["geometry.toml"]
        assert list(tmpdir.iterdir()) == [], "the smoke test left files behind"
    finally:
        grandchild = int(pid_file.read_text())
        alive = not _gone(grandchild)
        if alive:
            os.kill(grandchild, 9)
    assert not alive, "the hanging compiler's own child outlived the smoke test"


def test_the_smoke_test_runs_under_the_memory_limit(tmp_path, monkeypatch):
    """The smoke compile gets ``$SAREK_VERIFY_MEMORY_MB`` like every other compile (the fake
    compiler reports its ``ulimit -v``, in KiB)."""
    from sarek_layout.verify import toolchains

    limit_file = tmp_path / "limit"
    bin_dir = _fake_program(tmp_path, "gcc", f"ulimit -v > {limit_file}\n")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv(tools.MEMORY_ENV, "512")
    assert toolchains._compiler_problem(toolchains.get("gcc")) is None
    assert limit_file.read_text().strip() == str(512 * 1024)


def test_a_hanging_rustc_version_is_stopped_by_the_timeout(tmp_path, monkeypatch):
    """``rustc --version`` (rustc's detection) is bounded the same way."""
    if not shutil.which("readelf"):
        pytest.skip("readelf not installed (apt-get install -y binutils)")
    from sarek_layout.verify import toolchains

    bin_dir = _fake_program(tmp_path, "rustc", "exec sleep 1000\n")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv(tools.TIMEOUT_ENV, "0.5")
    problem = toolchains._rustc_problem(toolchains.get("rustc"))
    assert problem is not None and problem.startswith(
        "rustc: `rustc --version` was stopped after 0.5 s ($SAREK_VERIFY_TIMEOUT)"), problem
