"""The target guides (docs/rust.md, docs/zig.md, docs/fingerprint.md) tell users only what
works: sarek-layout is not on PyPI (the README says `pip install sarek-layout` finds
nothing), so no guide's snippet installs it by that name."""

from __future__ import annotations

import re

import pytest

from helpers.common import ROOT

GUIDES = ("rust.md", "zig.md", "fingerprint.md")

#: ``pip install sarek-layout`` (or ``sarek_layout``) by name, not from a path or a wheel.
_FROM_PYPI = re.compile(r"pip install (?:-U |--upgrade )?['\"]?sarek[-_]layout\b(?![/.\w])")


@pytest.mark.parametrize("guide", GUIDES)
def test_no_guide_installs_sarek_layout_from_pypi(guide):
    text = (ROOT / "docs" / guide).read_text()
    found = [m.group(0) for m in _FROM_PYPI.finditer(text)]
    assert not found, f"docs/{guide} says {found}: the package is not on PyPI (README)"
