"""What a no-op ``generate`` (outputs already fresh) does not pay for.

Build tools run ``generate`` on every build, so its start-up is the tool's cost when nothing
changed (docs/benchmarks.md, section 5). Without a C header among the inputs and without
``--c-module``, the C reader (its preprocessor driver, pycparser) is never imported, nor the
other sub-commands' modules (the parser is built for the one command given).
"""

from __future__ import annotations

import json
import subprocess
import sys

from helpers.common import ROOT

SCHEMA = ROOT / "examples" / "geometry.toml"

_PROBE = """
import json, sys
from sarek_layout.cli.main import main
status = main(sys.argv[1:])
print(json.dumps([status, sorted(m for m in sys.modules if m.startswith("sarek_layout."))]))
"""


def _modules_of(tmp_path, *args):
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    status, modules = json.loads(proc.stdout.splitlines()[-1])
    return status, set(modules)


def test_noop_generate_without_c_headers_does_not_import_the_c_reader(tmp_path):
    args = ["generate", str(SCHEMA), "-o", str(tmp_path / "out"), "-I", "inc", "-D", "X=1"]
    assert _modules_of(tmp_path, *args)[0] == 0
    status, modules = _modules_of(tmp_path, *args)  # the no-op run
    assert status == 0
    c_reader = sorted(m for m in modules if m.startswith("sarek_layout.frontends.c."))
    assert c_reader == [], f"a schema without C headers imported {c_reader}"
    commands = sorted(m for m in modules if m.startswith("sarek_layout.cli.cmd_"))
    assert commands == ["sarek_layout.cli.cmd_generate"]


def test_c_module_without_its_header_is_still_refused(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "generate", str(SCHEMA), "-o",
                           str(tmp_path / "out"), "--c-module", "vec.h=V"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 2
    assert "not among the C headers given" in proc.stderr
    assert not (tmp_path / "out").exists()
