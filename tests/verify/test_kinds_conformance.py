"""SPEC §1b's member kinds on every C-family toolchain: the generated headers of the kinds'
conformance enumeration (tests/helpers/kinds_shapes.py: 28 member kinds alone, before four
followers and as constructor arguments, under the c, std430, std140 and cuda rules: 688
types) compile with their assertions live (one build each), and every number each compiler
measures, every array level's stride included, is the layout's. gcc, g++, clang and
gcc -m32 compile them with the strict flags too (-Wpadded: no implicit padding anywhere).

The enumeration's layout itself is judged by the natural compilers of each rule set in
tests/layout/test_conformance.py; a header with a wrong stride is caught here by every
driver, naming the array level and both numbers.
"""

from __future__ import annotations

import pytest

from helpers import kinds_shapes
from helpers.common import require_toolchain
from helpers.compile import STRICT_IN_VERIFY, measure_strictly
from helpers.verify import ALL_TOOLCHAINS, DATA
from sarek_layout.resolve import load_schema
from sarek_layout.verify import AGREES, DISAGREES
from sarek_layout.verify.probes import STRIDE, probes_for
from sarek_layout.verify.run import generated_headers, measure_with, user_headers


@pytest.fixture(scope="module")
def enumeration(tmp_path_factory):
    schema = load_schema(kinds_shapes.schema_files(tmp_path_factory.mktemp("kinds")))
    return schema, generated_headers(schema, ["c", "cuda", "opencl"])


def _levels(kind) -> int:
    """Array levels of a member (each has a stride probe): its dimensions, and a matrix's
    columns."""
    n = 0
    while kind[0] == "array":
        n, kind = n + 1, kind[1]
    return n + (1 if kind[0] == "mat" else 0)


def _expected_values() -> int:
    """The probes of the enumeration, counted from its description: per type its size and
    alignment (an enum its size alone), per member its offset and size and a stride per array
    level; a variant's tag, ``data``, and each arm (the one argument itself, or a struct of
    them at its offset)."""
    def member(kind) -> int:
        return 2 + _levels(kind)

    per_rules = len(kinds_shapes.ENUMS) + 2 + sum(member(k) for _, k in kinds_shapes.POINT[1])
    for _, members in kinds_shapes.records():
        per_rules += 2 + sum(member(k) for _, k in members)
    for _, ctors in kinds_shapes.variants():
        per_rules += 2 + 2 + 1
        for _, args in ctors:
            if len(args) == 1:
                per_rules += member(args[0])
            elif args:
                per_rules += 1 + sum(member(k) for k in args)
    return per_rules * len(kinds_shapes.RULES)


@pytest.mark.parametrize("name", ALL_TOOLCHAINS)
def test_the_kinds_enumeration_agrees_on_every_toolchain(name, enumeration):
    tc = require_toolchain(name)
    schema, headers = enumeration
    probes = probes_for(schema.types)
    measure = measure_strictly if name in STRICT_IN_VERIFY else measure_with
    result = measure(tc, headers[tc.target], probes)
    assert result.status == AGREES, result.error or "\n".join(map(str, result.differences[:20]))
    assert result.builds == 1, result.note  # the headers' own assertions held
    assert len(probes) == _expected_values()
    assert result.values == len(probes) * (len(tc.passes) or 1)
    assert sum(p.quantity == STRIDE for p in probes) > 500


_STRIDE12 = {"c": "kinds_stride12.h", "cuda": "kinds_stride12.cuh", "opencl": "kinds_stride12.clh"}


@pytest.mark.parametrize("name", ALL_TOOLCHAINS)
def test_a_wrong_stride_is_caught_with_both_numbers(name):
    """std430's vec3<float32>[2] written as C's ``float dirs[2][3]``: the offset of ``dirs``
    agrees, its stride (16 against 12) is what every driver must report."""
    tc = require_toolchain(name)
    schema = load_schema([str(DATA / "kinds.toml")])
    result = measure_with(tc, user_headers([str(DATA / _STRIDE12[tc.target])]),
                          probes_for(schema.types))
    assert result.status == DISAGREES
    lines = {str(d) for d in result.differences}
    who = [f"{tc.display} ({p})" for p in tc.passes] or [tc.display]
    for w in who:
        assert f"Kinds_lights.dirs[0]: layout says stride 16, {w} says 12" in lines, lines
        assert f"Kinds_lights.dirs: layout says member size 32, {w} says 24" in lines
        assert f"Kinds_lights.level: layout says offset 48, {w} says 40" in lines
    assert not any(".count:" in line or "dirs: layout says offset" in line for line in lines)
