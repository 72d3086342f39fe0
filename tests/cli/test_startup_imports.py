"""What each command imports at start-up: only what its own work needs.

Build tools run ``generate`` (and ``--version``) on every build, editors and scripts run
``layout``, ``explain`` and ``--help``: an import a command does not use is paid at every
start (docs/benchmarks.md, section 5). Each test runs one command in-process in a fresh
interpreter and lists the modules it imported beyond those the interpreter started with; it
counts modules, it never times anything.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers.common import ROOT

SCHEMA = ROOT / "examples" / "geometry.toml"

# The modules present when the interpreter starts (site, .pth files) are not the command's.
_PROBE = """
import json, sys
before = set(sys.modules)
from sarek_layout.cli.main import main
try:
    status = main(sys.argv[1:])
except SystemExit as e:  # --help
    status = e.code
print(json.dumps([status, sorted(set(sys.modules) - before)]))
"""

#: Sub-packages that no command below needs: the verifier, the C reader, the ABI tables,
#: the host codecs, the other targets' views.
_NEVER = ("sarek_layout.verify", "sarek_layout.frontends.c", "sarek_layout.abi",
          "sarek_layout.host", "sarek_layout.codegen.shader_views", "sarek_layout.codegen.rust_view",
          "sarek_layout.codegen.zig_view")


def _imported(tmp_path, *args) -> set:
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    status, modules = json.loads(proc.stdout.splitlines()[-1])
    assert status == 0, proc.stderr
    return set(modules)


def _under(modules: set, *packages: str) -> list:
    return sorted(m for m in modules
                  if any(m == p or m.startswith(p + ".") for p in packages))


def test_noop_generate_imports_only_what_it_uses(tmp_path):
    args = ["generate", str(SCHEMA), "-o", str(tmp_path / "out")]
    _imported(tmp_path, *args)  # writes the headers
    modules = _imported(tmp_path, *args)  # the no-op run
    assert _under(modules, *_NEVER, "sarek_layout.explain", "sarek_layout.report") == []
    assert _under(modules, "sarek_layout.cli") == [
        "sarek_layout.cli", "sarek_layout.cli.cmd_generate", "sarek_layout.cli.common",
        "sarek_layout.cli.main", "sarek_layout.cli.parser", "sarek_layout.cli.program"]
    # Source positions are computed only for a message about the schema.
    assert "sarek_layout.frontends.jsontoml.positions" not in modules
    # --diff's helper (nothing is diffed). Jinja renders the templates (issue 31: no
    # stand-ins for its runtime; it brings tempfile, shutil and pickle with its bytecode-cache
    # module, which is never used: tests/codegen/test_template_cache.py).
    assert _under(modules, "difflib") == []
    assert "jinja2" in modules


# Neither prints a target's file: no codegen, no registry of targets (nor their dialects).
_NO_TARGET = ("sarek_layout.codegen", "sarek_layout.targets.registry",
              "sarek_layout.targets.dialects", "jinja2")


def test_plain_explain_imports_no_codegen(tmp_path):
    modules = _imported(tmp_path, "explain", str(SCHEMA))
    assert _under(modules, *_NEVER, *_NO_TARGET) == []


def test_layout_imports_no_codegen(tmp_path):
    modules = _imported(tmp_path, "layout", str(SCHEMA))
    assert _under(modules, *_NEVER, *_NO_TARGET) == []


@pytest.mark.parametrize("command", ["verify", "layout", "explain", "import-c", "diff"])
def test_a_sub_command_help_imports_neither_its_work_nor_typing(tmp_path, command):
    modules = _imported(tmp_path, command, "--help")
    assert _under(modules, *_NEVER, "sarek_layout.codegen", "sarek_layout.resolve",
                  "sarek_layout.ir", "jinja2") == []
    # Nor typing or threading (the signal handling every command enters imports neither),
    # nor shutil (the help is as wide as the terminal without it).
    assert _under(modules, "typing", "threading", "shutil") == []


@pytest.mark.parametrize("columns", [None, "100", "37", "0", "-5", "wide"])
def test_the_help_is_as_wide_as_shutil_says(monkeypatch, columns):
    # argparse's own width comes from shutil.get_terminal_size(): the same number here.
    import shutil

    from sarek_layout.cli.parser import _terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _terminal_columns() == shutil.get_terminal_size().columns
