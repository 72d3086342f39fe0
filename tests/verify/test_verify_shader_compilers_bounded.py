"""glslang, spirv-cross and metal-proxy's clang++ run under the same bounds as every compiler.

They used to be started with a plain ``subprocess.run``: no ``$SAREK_VERIFY_TIMEOUT``, no
memory limit, and not killed when ``verify`` was interrupted, so a compiler that never
returned hung ``verify`` for ever. Here a stand-in program that sleeps takes the real one's
place on ``PATH``; the run must end in a few seconds with the timeout's message.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers.hostile import run_bounded

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "examples" / "geometry.toml"


@pytest.mark.parametrize("toolchain, program", [("glslang", "glslangValidator"),
                                                ("metal-proxy", "clang++")])
def test_a_shader_compiler_that_never_returns_is_stopped(toolchain, program, tmp_path,
                                                          monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in (program, "spirv-cross"):
        fake = bin_dir / name
        fake.write_text("#!/bin/sh\nexec sleep 300\n")
        fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("SAREK_VERIFY_TIMEOUT", "2")
    # CPU bound 10 s, so the hang guard ends an unbounded run after 100 s of wall time.
    proc = run_bounded(["-m", "sarek_layout", "verify", str(SCHEMA), "--toolchain", toolchain],
                       tmp_path, timeout=10)
    out = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 1, out
    assert "stopped after 2 s ($SAREK_VERIFY_TIMEOUT)" in out, out
