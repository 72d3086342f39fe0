"""The pytest plugin: a user's own test suite verifies its schema in one line."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import textwrap

from helpers.common import require_toolchain
from helpers.verify import DATA, EXAMPLES

ROOT = EXAMPLES.parent


def test_fixture_passes_on_agreement_and_fails_with_the_report(tmp_path):
    require_toolchain("gcc")
    require_toolchain("gcc-m32")
    (tmp_path / "test_user.py").write_text(textwrap.dedent(f"""
        def test_geometry(sarek_verify):
            sarek_verify({str(EXAMPLES / 'geometry.toml')!r}, toolchains=["gcc", "gcc-m32"])

        def test_plain_double_on_i386(sarek_verify):
            sarek_verify({str(DATA / 'plain.toml')!r},
                         headers=[{str(DATA / 'plain_double.h')!r}], toolchains=["gcc-m32"])

        def test_missing_toolchain_skips(sarek_verify, monkeypatch):
            from sarek_layout.verify import toolchains
            import dataclasses
            tc = toolchains.get("s390x")
            monkeypatch.setitem(toolchains.TOOLCHAINS, "s390x",
                                dataclasses.replace(tc, argv=("sarek-no-such-gcc",)))
            toolchains.refresh()
            try:
                sarek_verify({str(EXAMPLES / 'geometry.toml')!r}, toolchains=["s390x"])
            finally:
                toolchains.refresh()
    """))
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("SAREK_REQUIRE_TOOLCHAINS", None)
    # Once installed with its pytest11 entry point the plugin loads by itself; naming it
    # again with -p would register it twice.
    installed = any(ep.value == "sarek_layout.pytest_plugin"
                    for ep in importlib.metadata.entry_points(group="pytest11"))
    enable = [] if installed else ["-p", "sarek_layout.pytest_plugin"]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *enable, "-q", "-rs", "-p", "no:cacheprovider",
         "test_user.py"],
        cwd=tmp_path, capture_output=True, text=True, env=env,
    )
    out = proc.stdout + proc.stderr
    assert "1 failed, 1 passed, 1 skipped" in out, out
    assert "Plain_mixed.mass: layout says offset 8, gcc -m32 says 4" in out
    assert "sarek-no-such-gcc not found" in out
