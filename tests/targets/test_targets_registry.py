"""The target registry is complete: every toolchain compiles a registered target, every
dialect spells every scalar, and every reader-back spelling names a scalar of the table."""

from __future__ import annotations

import pytest

from sarek_layout.ir.types import ELEMENT_SCALARS, SCALARS
from sarek_layout.targets import TARGETS
from sarek_layout.targets.registry import HEADER_SUFFIXES, PROBE_DIALECTS, READ_TARGETS
from sarek_layout.verify.toolchains import TOOLCHAINS


@pytest.mark.parametrize("name", sorted(TOOLCHAINS))
def test_every_toolchain_names_a_registered_target(name):
    assert TOOLCHAINS[name].target in TARGETS


@pytest.mark.parametrize("target", [t for t in TARGETS.values() if t.dialect is not None],
                         ids=lambda t: t.name)
def test_every_dialect_spells_every_scalar(target):
    assert set(target.dialect.scalar) == set(SCALARS) | set(ELEMENT_SCALARS), target.name


@pytest.mark.parametrize("name", READ_TARGETS)
def test_every_read_target_reads_every_scalar(name):
    target = TARGETS[name]
    assert set(target.read_spellings) == set(SCALARS)
    assert all(target.read_spellings[s] for s in SCALARS)
    assert target.header_suffixes and all(HEADER_SUFFIXES[s] == name
                                          for s in target.header_suffixes)


def test_every_probe_dialect_is_defined():
    for target in TARGETS.values():
        assert set(target.probe_dialects) <= set(PROBE_DIALECTS), target.name


def test_every_target_has_a_view_and_a_template():
    import os

    from sarek_layout.codegen.target_views import VIEWS

    templates = os.path.join(os.path.dirname(__file__), "..", "..", "templates")
    for target in TARGETS.values():
        assert target.view in VIEWS, target.name
        assert os.path.exists(os.path.join(templates, target.template)), target.template
