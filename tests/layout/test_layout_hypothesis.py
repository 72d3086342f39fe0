"""Random nested records and variants (records inside records and inside payloads, defined in
any order), laid out by the core and by the C compiler, value for value.

Each hypothesis example draws many independent type families and compiles them all in one
cffi build, so a few examples cover thousands of types at a handful of compiler runs.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import c_oracle
from helpers.common import require_toolchain
from helpers.shapes import flatten, mismatches, nested_descriptions, to_elttype
from sarek_layout import elttype_layout


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(nested_descriptions(), min_size=1, max_size=40))
def test_nested_types_agree_with_the_c_compiler(families):
    require_toolchain("cffi")
    descs = flatten(families)
    by_name = {d[1]: d for d in descs}
    measured = c_oracle.measure(descs)
    cache: dict = {}
    problems = []
    for d in descs:
        problems += mismatches(d[1], elttype_layout(to_elttype(d, by_name, cache)), measured[d[1]])
    assert not problems, "\n".join(problems[:40])
