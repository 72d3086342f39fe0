"""Every driver against the real compiler: agreement on generated headers, disagreement caught.

* the bundled example, generated now, agrees on every toolchain;
* a packed header (``mass`` at 4, not 8) is caught by every driver, naming the member and
  both numbers: proof that each driver reads the compiler's numbers and not its own;
* the conformance enumeration (tests/helpers/shapes.py: 780 records and 30,783 variants, 573,772
  values): in full on gcc, g++, clang, gcc -m32 and cffi (the first four with the codegen
  tests' strict flags, ``-Wall -Wextra -Werror -pedantic -Wpadded``: the same compile is the
  codegen conformance check for them, helpers/compile.py); on the slower toolchains (the four
  cross compilers, nvcc, NVRTC, clang OpenCL, PoCL) on a deterministic subset: all 780
  records and every 10th variant (3,079), 3,859 types;
* hypothesis schemas (nested records in records and payloads), a batch of 12 schemas per
  example compiled at once, on every toolchain.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.common import require_toolchain
from helpers.compile import STRICT_IN_VERIFY, measure_strictly
from sarek_layout.resolve import load_schema
from sarek_layout.verify import AGREES, DISAGREES
from sarek_layout.verify.probes import probes_for
from sarek_layout.verify.run import generated_headers, measure_with, user_headers
from helpers.shapes import (conformance_records, conformance_variants, extension_scalar_records,
                            extension_scalar_variants, flatten, nested_descriptions)
from helpers.verify import (ALL_TOOLCHAINS, DATA, EXAMPLES, FULL_CONFORMANCE, every_nth, sampled,
                            schema_of)

SLOW = [t for t in ALL_TOOLCHAINS if t not in FULL_CONFORMANCE]


def _agree(name, schema, headers=None, strict=False):
    tc = require_toolchain(name)
    header_set = (headers or generated_headers(schema, [tc.target]))[tc.target]
    probes = probes_for(schema.types)
    result = (measure_strictly if strict else measure_with)(tc, header_set, probes)
    assert result.status == AGREES, (result.error or "\n".join(map(str, result.differences[:20])))
    assert result.values == len(probes) * (len(tc.passes) or 1)
    assert result.builds == 1
    return result


@pytest.mark.parametrize("name", ALL_TOOLCHAINS)
def test_example_schema_agrees(name):
    _agree(name, load_schema([str(EXAMPLES / "geometry.toml")]))


_PACKED = {"c": "plain_packed.h", "cuda": "plain_packed.cuh", "opencl": "plain_packed.clh"}


@pytest.mark.parametrize("name", ALL_TOOLCHAINS)
def test_packed_header_is_caught_with_both_numbers(name):
    tc = require_toolchain(name)
    schema = load_schema([str(DATA / "plain.toml")])
    result = measure_with(tc, user_headers([str(DATA / _PACKED[tc.target])]),
                          probes_for(schema.types))
    assert result.status == DISAGREES
    lines = {str(d) for d in result.differences}
    who = [f"{tc.display} ({p})" for p in tc.passes] or [tc.display]
    for w in who:
        assert f"Plain_mixed.mass: layout says offset 8, {w} says 4" in lines
        assert f"Plain_mixed: layout says size 16, {w} says 12" in lines
        assert f"Plain_mixed: layout says alignment 8, {w} says 1" in lines
    assert len(lines) == 3 * len(who)


#: The full enumeration is verified in this many parts (every CONFORMANCE_PARTS-th shape):
#: one compiler run per part and toolchain, each a separate test item, so that the compiler's
#: memory stays bounded (one header of all 31,563 types took g++ past 4 GB) and
#: pytest-xdist spreads the runs over the workers.
CONFORMANCE_PARTS = 8


def _conformance_descs():
    descs = list(conformance_records()) + list(conformance_variants())
    assert len(descs) == 780 + 30_783
    return descs


@pytest.fixture(scope="module")
def conformance_part(tmp_path_factory):
    """``part -> (schema, C headers)``, built on first use; the last one is kept (the test
    items are ordered part by part)."""
    kept = {}

    def get(part):
        if part not in kept:
            kept.clear()
            descs = _conformance_descs()[part::CONFORMANCE_PARTS]
            schema = schema_of(descs, tmp_path_factory.mktemp(f"conformance{part}"))
            kept[part] = (descs, schema, generated_headers(schema, ["c"]))
        return kept[part]

    return get


@pytest.fixture(scope="module")
def conformance_subset(tmp_path_factory):
    descs = list(conformance_records()) + every_nth(list(conformance_variants()), 10)
    assert len(descs) == 780 + 3_079
    # make test: every 4th of them (helpers.verify.sampled); CI (SAREK_EXHAUSTIVE=1): all.
    schema = schema_of(sampled(descs, 4), tmp_path_factory.mktemp("conformance-subset"))
    return schema, generated_headers(schema, ["c", "cuda", "opencl"])


@pytest.fixture(scope="module")
def conformance_c_header(conformance):
    return generated_headers(conformance, ["c"])


@pytest.mark.slow
@pytest.mark.parametrize("part, name", [(part, name) for part in range(CONFORMANCE_PARTS)
                                        for name in FULL_CONFORMANCE])
def test_conformance_enumeration_agrees(part, name, conformance_part):
    require_toolchain(name)
    descs, schema, headers = conformance_part(part)
    result = _agree(name, schema, headers, strict=name in STRICT_IN_VERIFY)
    # Size and alignment of each type, offset and size of each member: fields; the tag,
    # `data` and each arm (one argument is the arm itself; several: the arm and each _N).
    expected = 0
    for kind, _, members in descs:
        expected += 2
        if kind == "record":
            expected += 2 * len(members)
            continue
        with_args = [args for _, args in members if args]
        expected += 2 + (1 if with_args else 0)
        expected += sum(2 if len(args) == 1 else 1 + 2 * len(args) for args in with_args)
    assert result.values == expected


def test_strict_flags_fail_a_header_whose_layout_agrees():
    """The strict enumeration's proof that the flags reach the compiler: a hand-written
    header with implicit padding (4 bytes before ``mass``) agrees with gcc on x86-64, and
    fails once ``-Wpadded -Werror`` are on."""
    tc = require_toolchain("gcc")
    schema = load_schema([str(DATA / "plain.toml")])
    headers = user_headers([str(DATA / "plain_double.h")])
    probes = probes_for(schema.types)
    assert measure_with(tc, headers, probes).status == AGREES
    strict = measure_strictly(tc, headers, probes)
    assert strict.status not in (AGREES, DISAGREES) and "-Werror=padded" in strict.error, \
        strict.error


def test_conformance_parts_cover_the_enumeration_once():
    descs = _conformance_descs()
    parts = [descs[part::CONFORMANCE_PARTS] for part in range(CONFORMANCE_PARTS)]
    assert sorted(d[1] for p in parts for d in p) == sorted(d[1] for d in descs)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_conformance_subset_agrees(name, conformance_subset):
    schema, headers = conformance_subset
    _agree(name, schema, headers)


@pytest.fixture(scope="module")
def extension_enumeration(tmp_path_factory):
    """The extension scalars' enumeration (780 records, 990 variants), one schema."""
    descs = list(extension_scalar_records()) + list(extension_scalar_variants())
    schema = schema_of(descs, tmp_path_factory.mktemp("extension-scalars"))
    return schema, generated_headers(schema, ["c", "cuda", "opencl"])


@pytest.mark.parametrize("name", ALL_TOOLCHAINS)
def test_extension_scalar_enumeration_agrees(name, extension_enumeration):
    """int8, int16, uint16, uint32 and uint64 in every record of 1-4 fields and every
    variant of 1-2 constructors of 0-2 arguments, on every C-family toolchain."""
    schema, headers = extension_enumeration
    _agree(name, schema, headers)


@pytest.mark.parametrize("name", ALL_TOOLCHAINS)
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(batch=st.lists(nested_descriptions(), min_size=12, max_size=12))
def test_hypothesis_schemas_agree(name, batch, tmp_path_factory):
    require_toolchain(name)
    schema = schema_of(flatten(batch), tmp_path_factory.mktemp("hyp"), module="Hyp")
    _agree(name, schema)
