"""The codegen package as its readers meet it: its docstring names every target the registry
has, and each of its hand-written modules stays within the house limit of 650 lines."""

from __future__ import annotations

import pathlib

import sarek_layout.codegen as codegen
from sarek_layout.targets.registry import TARGETS

#: STYLE.md: no hand-written module over 650 lines.
MAX_LINES = 650

CODEGEN = pathlib.Path(codegen.__file__).parent


def test_the_docstring_names_every_target_and_its_suffix():
    doc = " ".join((codegen.__doc__ or "").split())
    missing = [f"{t.name} ({t.suffix})" for t in TARGETS.values()
               if f"``{t.suffix}`` ({t.name}" not in doc]
    assert not missing, f"codegen/__init__.py's docstring does not name {missing}"


def test_every_hand_written_codegen_module_is_at_most_650_lines():
    # precompiled/ holds Jinja's compiled templates, written by codegen.precompile.
    sizes = {p.name: len(p.read_text().splitlines()) for p in CODEGEN.glob("*.py")}
    assert sizes, CODEGEN
    over = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not over, f"over {MAX_LINES} lines: {over}"
