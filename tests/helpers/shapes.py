"""Shapes for the layout tests: the exhaustive conformance enumeration, hypothesis strategies,
and the comparison of a computed layout with what the C compiler measured.

Descriptions use the plain-tuple format of ``c_oracle`` so that the oracle never sees the
package's own types; ``to_elttype`` builds the package's elttypes from the same description.
"""

from __future__ import annotations

import itertools
from typing import Dict, Iterator, List, Sequence

from hypothesis import strategies as st

from helpers.c_oracle import Measured
from sarek_layout import (
    TRecord,
    TVariant,
    RecordLayout,
    VariantLayout,
)
from sarek_layout.ir.types import SCALARS

#: Every scalar of the table, by name: the hypothesis strategies draw from all of them, so a
#: new row is compared with every compiler at once (the oracle needs its C spelling).
SCALAR = dict(SCALARS)

#: The scalar set of Sarek's own exhaustive conformance enumeration.
CONFORMANCE_SCALARS = ("int32", "float32", "bool", "int64", "float64")

#: Sarek's newer scalars, with one of each older alignment, for their own (smaller)
#: enumeration: every record and variant where a 1- or 2-byte member can leave a hole of
#: 1 to 3 bytes before a 4- or 8-aligned one.
NEW_SCALARS_ENUMERATION = ("uint8", "float16", "int32", "float64")


def new_scalar_records() -> Iterator[tuple]:
    """Every record of 1–4 fields over ``NEW_SCALARS_ENUMERATION``: 4 + 16 + 64 + 256 = 340."""
    n = 0
    for count in range(1, 5):
        for combo in itertools.product(NEW_SCALARS_ENUMERATION, repeat=count):
            yield ("record", f"n{n}", [(f"f{i}", t) for i, t in enumerate(combo)])
            n += 1


def new_scalar_variants() -> Iterator[tuple]:
    """Every variant of 1–2 constructors with 0–3 arguments over ``NEW_SCALARS_ENUMERATION``
    whose arguments include a uint8 or a float16: 1 + 4 + 16 + 64 = 85 argument lists,
    70 of them with a new scalar; variants of one constructor of those, and of two
    constructors where one of them has one: 70 + (85² − 15²) = 7,070."""
    arg_lists = [args for count in range(4)
                 for args in itertools.product(NEW_SCALARS_ENUMERATION, repeat=count)]

    def new(args) -> bool:
        return any(t in ("uint8", "float16") for t in args)

    n = 0
    for count in range(1, 3):
        for combo in itertools.product(arg_lists, repeat=count):
            if not any(new(args) for args in combo):
                continue
            yield ("variant", f"w{n}", [(f"C{i}", list(args)) for i, args in enumerate(combo)])
            n += 1


#: The extension scalars (int8, int16, uint16, uint32, uint64: not Sarek element types), from
#: the table, for an enumeration of their own: sizes 1, 2, 4 and 8 (uint64 wide like int64), so
#: every hole of 1 to 7 bytes before a wider member and every tail padding occurs.
EXTENSION_SCALARS = tuple(s.name for s in SCALARS.values() if s.extension)


def extension_scalar_records() -> Iterator[tuple]:
    """Every record of 1–4 fields over ``EXTENSION_SCALARS``: 5 + 25 + 125 + 625 = 780."""
    n = 0
    for count in range(1, 5):
        for combo in itertools.product(EXTENSION_SCALARS, repeat=count):
            yield ("record", f"x{n}", [(f"f{i}", t) for i, t in enumerate(combo)])
            n += 1


def extension_scalar_variants() -> Iterator[tuple]:
    """Every variant of 1–2 constructors with 0–2 arguments over ``EXTENSION_SCALARS`` that
    holds one: 1 + 5 + 25 = 31 argument lists, 30 + (31² − 1) = 990 variants."""
    arg_lists = [args for count in range(3)
                 for args in itertools.product(EXTENSION_SCALARS, repeat=count)]
    n = 0
    for count in range(1, 3):
        for combo in itertools.product(arg_lists, repeat=count):
            if not any(combo):
                continue
            yield ("variant", f"y{n}", [(f"C{i}", list(args)) for i, args in enumerate(combo)])
            n += 1


def conformance_records() -> Iterator[tuple]:
    """Every record of 1–4 fields over the five scalars: 5 + 25 + 125 + 625 = 780."""
    n = 0
    for count in range(1, 5):
        for combo in itertools.product(CONFORMANCE_SCALARS, repeat=count):
            yield ("record", f"r{n}", [(f"f{i}", t) for i, t in enumerate(combo)])
            n += 1


def conformance_variants() -> Iterator[tuple]:
    """Every variant of 1–3 constructors with 0–2 scalar arguments: 31 + 31² + 31³ = 30,783."""
    arg_lists = [()] + [(t,) for t in CONFORMANCE_SCALARS] + list(
        itertools.product(CONFORMANCE_SCALARS, repeat=2)
    )
    n = 0
    for count in range(1, 4):
        for combo in itertools.product(arg_lists, repeat=count):
            yield ("variant", f"v{n}", [(f"C{i}", list(args)) for i, args in enumerate(combo)])
            n += 1


def to_elttype(desc: tuple, by_name: Dict[str, tuple], cache: Dict[str, object] | None = None):
    """The package's elttype for a description (nested records shared, as a schema would)."""
    cache = {} if cache is None else cache
    kind, name, members = desc
    if name in cache:
        return cache[name]

    def ref(t: str):
        return SCALAR[t] if t in SCALAR else to_elttype(by_name[t], by_name, cache)

    if kind == "record":
        result = TRecord(name, [(f, ref(t)) for f, t in members])
    else:
        result = TVariant(name, [(c, [ref(t) for t in args]) for c, args in members])
    cache[name] = result
    return result


def mismatches(name: str, layout, measured: Measured) -> List[str]:
    """Every value where ``layout`` differs from the compiler, as readable lines."""
    out: List[str] = []

    def check(what: str, ours: int, theirs: int) -> None:
        if ours != theirs:
            out.append(f"{name}.{what}: layout says {ours}, C compiler says {theirs}")

    check("size", layout.size, measured.size)
    check("align", layout.align, measured.align)
    if isinstance(layout, RecordLayout):
        ours_fields = dict(layout.fields)
        if set(ours_fields) != set(measured.fields):
            out.append(f"{name}: fields {sorted(ours_fields)} vs {sorted(measured.fields)}")
        for f, off in measured.fields.items():
            check(f, ours_fields.get(f, -1), off)
        leaves = {leaf.path: leaf.offset for leaf in layout.leaves}
    else:
        assert isinstance(layout, VariantLayout)
        check("tag", layout.tag_offset, 0)
        if measured.payload_offset >= 0:
            check("data", layout.payload_offset, measured.payload_offset)
        ctors = {c.name: c for c in layout.ctors}
        for c, size in measured.payload_sizes.items():
            check(f"{c}.payload_size", ctors[c].payload_size if c in ctors else -1, size)
        for c in ctors.values():
            if c.name not in measured.payload_sizes:
                check(f"{c.name}.payload_size", c.payload_size, 0)
        leaves = {leaf.path: leaf.offset for c in layout.ctors for leaf in c.leaves}
    if set(leaves) != set(measured.leaves):
        out.append(f"{name}: leaves {sorted(leaves)} vs {sorted(measured.leaves)}")
    for path, off in measured.leaves.items():
        check(path, leaves.get(path, -1), off)
    return out


# --- hypothesis: random nested records and variants ------------------------------------------

scalar_names = st.sampled_from(sorted(SCALAR))


@st.composite
def nested_descriptions(draw, max_types: int = 12) -> List[tuple]:
    """A list of records and variants where records nest inside records and payloads.

    Types may refer only to earlier *records* (no recursion, no nested variants), but the
    list is shuffled afterwards so definitions come in any order.
    """
    count = draw(st.integers(1, max_types))
    descs: List[tuple] = []
    records: List[str] = []
    for i in range(count):
        member_type = scalar_names if not records else st.one_of(
            scalar_names, st.sampled_from(records)
        )
        if draw(st.booleans()) or not descs:
            fields = draw(st.lists(member_type, min_size=1, max_size=6))
            name = f"rec{i}"
            descs.append(("record", name, [(f"m{j}", t) for j, t in enumerate(fields)]))
            records.append(name)
        else:
            ctors = draw(
                st.lists(st.lists(member_type, max_size=3), min_size=1, max_size=4)
            )
            descs.append(
                ("variant", f"var{i}", [(f"K{j}", args) for j, args in enumerate(ctors)])
            )
    return draw(st.permutations(descs))


def flatten(batches: Sequence[Sequence[tuple]]) -> List[tuple]:
    """Several independent description lists as one, renamed apart for a single compile."""
    out: List[tuple] = []
    for b, descs in enumerate(batches):
        rename = {d[1]: f"b{b}_{d[1]}" for d in descs}

        def r(t: str) -> str:
            return rename.get(t, t)

        for kind, name, members in descs:
            if kind == "record":
                out.append((kind, rename[name], [(f, r(t)) for f, t in members]))
            else:
                out.append((kind, rename[name], [(c, [r(t) for t in args]) for c, args in members]))
    return out


def json_schema_of(descs) -> dict:
    """A JSON schema document (module ``H``) of descriptions ``(kind, name, members)``."""
    types = []
    for kind, name, members in descs:
        if kind == "record":
            types.append({"record": name, "fields": [[f, t] for f, t in members]})
        else:
            types.append({"variant": name, "constructors": [[c, list(a)] for c, a in members]})
    return {"module": "H", "types": types}
