"""The host tests' own helpers are right: the conformance counts Sarek pins, and values
distinct per scalar (the helpers are tests/helpers/host.py)."""

from __future__ import annotations

from helpers.host import (ALL_SCALARS, _arg_lists, conformance_records, conformance_variants,
                          scalar_value, stored)
from sarek_layout.ir.types import TBool, TUnit


# --- the counts the issue pins --------------------------------------------------------------


def test_conformance_shape_counts():
    assert sum(1 for _ in conformance_records()) == 780
    assert len(_arg_lists()) == 31
    assert sum(1 for _ in conformance_variants()) == 30_783


def test_distinct_values_are_distinct_per_type():
    for t in (s for s in ALL_SCALARS if s is not TUnit):
        seen = [scalar_value(t, k) for k in range(8)]
        if t is not TBool:
            assert len(set(seen)) == 8, t
        assert all(stored(t, v) == v for v in seen), t
