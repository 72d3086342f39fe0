"""How ``make bench`` judges a row of section 9 linear (``bench_dimensions.scaling``).

The benchmark itself is not run by the suite (it times things); its judgement is a pure
function of the numbers it measured, so it is checked here on made-up measurements: a
command that does quadratic work must be called superlinear whichever measure shows it.
"""

from __future__ import annotations

import sys

import pytest

from helpers.common import ROOT

sys.path.insert(0, str(ROOT / "bench"))  # bench/ is scripts, not a package
try:
    import bench_dimensions  # noqa: E402
finally:
    sys.path.remove(str(ROOT / "bench"))

N = 1_000
UNITS = {N: N - 1, 5 * N: 5 * N - 1}
MACHINE = 7.5  # what linear code measured on a machine whose caches the 5N heap outgrows


def _judged(cpu_per_unit, calls_per_unit, bytes_per_unit):
    def measured(per_unit, size):
        return per_unit(size) * UNITS[size] if size > 1 else 0

    cpu = {1: 0.0, N: measured(cpu_per_unit, N), 5 * N: measured(cpu_per_unit, 5 * N)}
    counted = {size: (100 + (measured(calls_per_unit, size) if size > 1 else 0),
                      50 + (measured(bytes_per_unit, size) if size > 1 else 0))
               for size in (1, N, 5 * N)}
    cpu_growth, work_growth, _ = bench_dimensions.scaling(cpu, counted, N, UNITS, MACHINE)
    return cpu_growth.linear and work_growth.linear


def _flat(value):
    return lambda size: value


def _growing(value):  # per unit cost proportional to the input: quadratic in all
    return lambda size: value * size


def test_linear_work_on_a_machine_whose_caches_slow_linear_code_is_linear():
    # CPU per unit grows as the machine's does (7.5 / 5 over the fivefold heap).
    assert _judged(lambda size: 1.5 if size > N else 1.0, _flat(40), _flat(30))


def test_quadratic_calls_are_superlinear():
    assert not _judged(_flat(1.0), _growing(0.04), _flat(30))


def test_work_inside_one_builtin_shows_in_cpu_time():
    # The calls are linear; CPU per unit grows twice as fast as linear code's.
    assert not _judged(lambda size: 3.0 if size > N else 1.0, _flat(40), _flat(30))


def test_more_output_per_unit_allows_as_much_more_work():
    # explain at nesting depth: 5.7 times the lines for 5 times the records.
    grows = lambda size: 1.14 if size > N else 1.0  # noqa: E731
    assert _judged(_flat(1.0), lambda size: 40 * grows(size), lambda size: 30 * grows(size))
    assert not _judged(_flat(1.0), lambda size: 40 * grows(size), _flat(30))


@pytest.mark.parametrize("writes", [0, 30])
def test_no_allowance_for_output_that_does_not_grow(writes):
    assert not _judged(_flat(1.0), lambda size: 46 if size > N else 40, _flat(writes))
