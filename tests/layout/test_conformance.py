"""Sarek's exhaustive conformance enumeration, against the C compiler.

Every record of 1–4 fields over {int32, float32, bool, int64, float64} (780 shapes) and every
variant of 1–3 constructors with 0–2 scalar arguments (30,783 shapes) is written as a natural
C struct, compiled in a handful of cffi builds, and every size, alignment, payload offset,
payload size and leaf offset is compared with the layout core. This is the oracle: any
arithmetic slip in ``layout/core.py`` makes it fail.

Sarek's newer scalars (uint8, float16) have an enumeration of their own, kept apart so that
the one above stays Sarek's: every record of 1–4 fields over {uint8, float16, int32, float64}
(340) and every variant of 1–2 constructors with 0–3 such arguments that holds a new scalar
(7,070), where 1- and 2-byte members leave holes of 1 to 3 bytes before wider ones.

The extension scalars (int8, int16, uint16, uint32, uint64: not Sarek element types) have
theirs: every record of 1–4 of them (780) and every variant of 1–2 constructors with 0–2 of
them as arguments (990), read from the scalar table.
"""

from __future__ import annotations

import itertools

import pytest

from helpers import c_oracle
from helpers.common import require_toolchain
from helpers.shapes import (
    conformance_records,
    conformance_variants,
    extension_scalar_records,
    extension_scalar_variants,
    mismatches,
    new_scalar_records,
    new_scalar_variants,
    to_elttype,
)
from sarek_layout import elttype_layout

RECORDS = list(conformance_records())
VARIANTS = list(conformance_variants())
VARIANT_BATCHES = 4
NEW_RECORDS = list(new_scalar_records())
NEW_VARIANTS = list(new_scalar_variants())
EXTENSION_RECORDS = list(extension_scalar_records())
EXTENSION_VARIANTS = list(extension_scalar_variants())


def test_enumeration_sizes_match_sarek():
    assert (len(RECORDS), len(VARIANTS)) == (780, 30_783)
    assert (len(NEW_RECORDS), len(NEW_VARIANTS)) == (340, 7_070)
    assert (len(EXTENSION_RECORDS), len(EXTENSION_VARIANTS)) == (780, 990)


def _check(descs):
    require_toolchain("cffi")
    measured = c_oracle.measure(descs)
    problems = list(
        itertools.chain.from_iterable(
            mismatches(d[1], elttype_layout(to_elttype(d, {})), measured[d[1]]) for d in descs
        )
    )
    assert not problems, "\n".join(problems[:40])
    return sum(len(m.leaves) + len(m.fields) + 2 for m in measured.values())


@pytest.mark.slow
def test_all_records_agree_with_the_c_compiler():
    assert _check(RECORDS) > 780 * 3


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(VARIANT_BATCHES))
def test_all_variants_agree_with_the_c_compiler(batch):
    chunk = VARIANTS[batch::VARIANT_BATCHES]
    assert _check(chunk) > len(chunk) * 2


def test_records_of_the_new_scalars_agree_with_the_c_compiler():
    assert _check(NEW_RECORDS) > 340 * 3


def test_variants_of_the_new_scalars_agree_with_the_c_compiler():
    assert _check(NEW_VARIANTS) > len(NEW_VARIANTS) * 2


def test_records_of_the_extension_scalars_agree_with_the_c_compiler():
    assert _check(EXTENSION_RECORDS) > 780 * 3


def test_variants_of_the_extension_scalars_agree_with_the_c_compiler():
    assert _check(EXTENSION_VARIANTS) > len(EXTENSION_VARIANTS) * 2


# --- SPEC §1b's member kinds -------------------------------------------------------------------
#
# The kinds' own enumeration (tests/helpers/kinds_shapes.py: 28 member kinds alone and before
# four followers, per rule set), laid out by the resolver and measured by the compiler that
# implements each rule set natively: gcc for ``c`` (vectors and matrices as arrays), nvcc for
# ``cuda`` (vector_types.h's types), glslang with spirv-cross's reflection for std430 and
# std140. Every generated header of it is then measured by every C-family toolchain
# (tests/verify/test_kinds_conformance.py).

from helpers import kinds_oracle, kinds_shapes  # noqa: E402
from sarek_layout.resolve import load_schema  # noqa: E402

_ORACLES = {
    "c": ("gcc", lambda structs, folder: kinds_oracle.measure_c(structs, folder)),
    "cuda": ("nvcc", lambda structs, folder: kinds_oracle.measure_cuda(structs, folder)),
    "std430": ("glslang", lambda structs, folder: kinds_oracle.measure_glsl(structs, "std430",
                                                                           folder)),
    "std140": ("glslang", lambda structs, folder: kinds_oracle.measure_glsl(structs, "std140",
                                                                           folder)),
}


def test_the_kinds_enumeration_covers_every_kind_in_every_position():
    assert kinds_shapes.counts() == {"members": 28, "records": 141, "variants": 28, "enums": 3}
    kinds = {m[0] for m in kinds_shapes.MEMBERS} | {m[1][0] for m in kinds_shapes.MEMBERS
                                                    if m[0] == "array"}
    assert kinds == {"scalar", "vec", "mat", "array", "struct", "enum"}


@pytest.mark.parametrize("rules", kinds_shapes.RULES)
def test_the_kinds_enumeration_agrees_with_the_native_compiler(rules, tmp_path):
    toolchain, measure = _ORACLES[rules]
    require_toolchain(toolchain)
    schema = load_schema(kinds_shapes.schema_files(tmp_path / "schema", [rules]))
    measured = measure(kinds_shapes.oracle_structs(), tmp_path)
    problems = []
    values = 0
    for name, members in kinds_shapes.oracle_structs():
        st = schema.by_c_name(f"{kinds_shapes.module_of(rules)}_{name}")
        m = measured[name]
        want = {"size": st.size, "align": st.align}
        got = {"size": m.size, "align": m.align}
        for member in st.members:
            want[member.name] = member.offset
            got[member.name] = m.offsets[member.name]
            if member.name in m.strides:  # an array's stride, a GLSL matrix's column stride
                want[member.name + "/"] = member.dims[0].stride
                got[member.name + "/"] = m.strides[member.name]
        values += len(want)
        problems += [f"{rules} {name}.{k}: layout says {want[k]}, {toolchain} says {got[k]}"
                     for k in want if want[k] != got[k]]
    assert not problems, "\n".join(problems[:40])
    assert values > 141 * 4
