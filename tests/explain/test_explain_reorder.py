"""Reorder advice is exact: no order is smaller than the suggested one (brute force over all
permutations), the tie-break "fewest swapped pairs, then earliest-declared first" is the one
documented, and only the order changes — the pasted declaration reads back to the same
fields, in every schema syntax."""

from __future__ import annotations

import functools
import itertools
import json
import random

import pytest

from helpers.common import EXAMPLES
from sarek_layout import TFloat16, TFloat32, TFloat64, TInt32, TRecord, TUint8, record_layout
from sarek_layout.cli.main import main
from sarek_layout.explain import reorder
from sarek_layout.explain.reorder import advise, best_order, inversions, smallest_size, suggested_order
from sarek_layout.ir.types import SCALARS as SCALAR_TABLE
from sarek_layout.resolve import load_schema
from helpers.shapes import SCALAR, CONFORMANCE_SCALARS

# The oracle: plain C struct arithmetic and a brute force over every permutation, written
# here independently of sarek_layout.explain.reorder.


def _size(members, order) -> int:
    offset, big = 0, 1
    for i in order:
        size, align = members[i]
        offset = -(-offset // align) * align + size
        big = max(big, align)
    return -(-offset // big) * big


def _inversions(order) -> int:
    return sum(order[a] > order[b] for a, b in itertools.combinations(range(len(order)), 2))


def _brute_force(members):
    """The best order by the documented key: (size, swapped pairs, declaration indices)."""
    return min((_size(members, p), _inversions(p), p) for p in itertools.permutations(range(len(members))))


_SIZE = {"int32": 4, "float32": 4, "bool": 4, "int64": 8, "float64": 8, "float16": 2, "uint8": 1}

# Nested records of several shapes: sizes 8, 12, 16 and 24 at alignment 4 or 8.
NESTED = {
    "pair4": TRecord("pair4", [("a", TFloat32), ("b", TFloat32)]),                   # 8, align 4
    "trio4": TRecord("trio4", [("a", TFloat32), ("b", TFloat32), ("c", TInt32)]),    # 12, align 4
    "mixed": TRecord("mixed", [("d", TFloat64), ("i", TInt32)]),                     # 16, align 8
    "wide": TRecord("wide", [("a", TInt32), ("d", TFloat64), ("b", TInt32)]),        # 24, align 8
}


def _check_records(type_names, max_fields, elttype_of):
    """Every record of up to ``max_fields`` fields over ``type_names``: optimal and exact."""
    by_signature = {}
    checked = 0
    for n in range(1, max_fields + 1):
        for names in itertools.product(type_names, repeat=n):
            fields = [(f"f{i}", elttype_of(t)) for i, t in enumerate(names)]
            layout = record_layout("r", fields)
            members = []
            for _, t in fields:
                inner = record_layout("x", t.fields) if isinstance(t, TRecord) else None
                members.append((inner.size, inner.align) if inner else (_SIZE[t.name],) * 2)
            signature = tuple(members)
            if signature not in by_signature:  # records differing only in scalar names share it
                by_signature[signature] = _brute_force(members)
            best_size, best_swaps, best = by_signature[signature]
            order = best_order(members)
            assert order == best, (names, order, best)
            # The meaning: same fields, only the order changed, and the size promised.
            reordered = [fields[i] for i in order]
            new = record_layout("r", reordered)
            assert sorted(reordered, key=lambda f: f[0]) == fields
            assert new.size == best_size <= layout.size
            assert {(leaf.path, leaf.type) for leaf in new.leaves} == {(leaf.path, leaf.type) for leaf in layout.leaves}
            assert (order == tuple(range(n))) == (best_size == layout.size)
            checked += 1
    return checked, len(by_signature)


def test_optimal_on_every_record_of_up_to_6_scalar_fields():
    """All 19,530 records of 1–6 fields over Sarek's scalars (Sarek's own conformance set)."""
    checked, signatures = _check_records(CONFORMANCE_SCALARS, 6, SCALAR.__getitem__)
    assert checked == sum(5 ** n for n in range(1, 7))
    assert signatures == 2 ** 7 - 2


def test_optimal_with_nested_records():
    """Up to 5 fields over int32, float64 and nested records of sizes 8, 12, 16, 24."""
    names = ("int32", "float64", *NESTED)
    checked, _ = _check_records(names, 5, lambda t: NESTED.get(t) or SCALAR[t])
    assert checked == sum(6 ** n for n in range(1, 6))


# Records of Sarek's newer scalars: 3 bytes at alignment 1, 4 at alignment 2.
SMALL_NESTED = {
    "bytes3": TRecord("bytes3", [("a", TUint8), ("b", TUint8), ("c", TUint8)]),
    "halfbyte": TRecord("halfbyte", [("h", TFloat16), ("b", TUint8)]),
}


def test_optimal_with_uint8_and_float16_fields():
    """Up to 5 fields over uint8, float16, int32, float64 and records of 1- and 2-byte
    members, against the brute force."""
    names = ("uint8", "float16", "int32", "float64", *SMALL_NESTED)
    checked, _ = _check_records(names, 5, lambda t: SMALL_NESTED.get(t) or SCALAR[t])
    assert checked == sum(6 ** n for n in range(1, 6))


def test_exact_beyond_sarek_alignments():
    """The search is not tied to 4/8: any power-of-two alignments and sizes (seeded sample)."""
    rnd = random.Random(7)
    for _ in range(400):
        members = [(rnd.randint(1, 24), rnd.choice((1, 2, 4, 8, 16))) for _ in range(rnd.randint(1, 6))]
        assert best_order(members) == _brute_force(members)[2], members


@pytest.mark.parametrize("members, expected", [
    # already minimal: left alone
    ([(4, 4), (4, 4), (8, 8)], (0, 1, 2)),
    ([(8, 8), (4, 4)], (0, 1)),
    # {i32; f64; i32; f64}: one move (c before b), not "8-aligned first"
    ([(4, 4), (8, 8), (4, 4), (8, 8)], (0, 2, 1, 3)),
    # the example's particle {id:i32; mass:f64; pos:point(8,4); alive:bool}
    ([(4, 4), (8, 8), (8, 4), (4, 4)], (1, 0, 2, 3)),
    # a 12-byte record at offset 4 repairs the parity for the f64 after it
    ([(4, 4), (12, 4), (8, 8)], (0, 1, 2)),
    ([(4, 4), (8, 8), (12, 4)], (0, 2, 1)),
])
def test_closest_to_declaration_order(members, expected):
    assert best_order(members) == expected


def test_large_records_are_fast_and_never_worse():
    rnd = random.Random(3)
    members = [rnd.choice(((4, 4), (8, 8), (12, 4), (24, 8))) for _ in range(300)]
    order = best_order(members)
    assert sorted(order) == list(range(300))
    assert _size(members, order) == -(-sum(s for s, _ in members) // 8) * 8


def _subset_search(members):
    """The best order by the documented key, by dynamic programming over (set of members
    placed, offset reached): exact for any members, exponential, written independently of
    the package (no kinds, no band) to check it on records too large for permutations."""
    n = len(members)
    big = max(align for _, align in members)
    full = (1 << n) - 1

    def step(mask, offset, m):
        size, align = members[m]
        # Members declared before m and not placed yet end up after it: inverted pairs.
        return -(-offset // align) * align + size, bin(~mask & ((1 << m) - 1)).count("1")

    @functools.lru_cache(maxsize=None)
    def best(mask, offset):
        """(final size, inversions) of the best completion from this state."""
        if mask == full:
            return (-(-offset // big) * big, 0)
        options = []
        for m in range(n):
            if not mask >> m & 1:
                nxt, inv = step(mask, offset, m)
                size, later = best(mask | 1 << m, nxt)
                options.append((size, later + inv))
        return min(options)

    order, mask, offset = [], 0, 0
    for _ in range(n):
        goal = best(mask, offset)
        for m in range(n):  # the earliest-declared member that keeps the best completion
            if not mask >> m & 1:
                nxt, inv = step(mask, offset, m)
                size, later = best(mask | 1 << m, nxt)
                if (size, later + inv) == goal:
                    order.append(m)
                    mask, offset = mask | 1 << m, nxt
                    break
    return tuple(order)


# Sarek's kinds of member: scalars and nested records of sizes 8–24 at alignment 4 or 8.
_SAREK_MEMBERS = ((4, 4), (8, 8), (8, 4), (12, 4), (16, 8), (24, 8), (16, 4), (20, 4))


def test_exact_against_an_unrestricted_search_on_larger_records():
    """7–12 fields (random mixes and the patterns the band argument is about), against an
    exponential search over sets: the restricted search must give the very same order."""
    rnd = random.Random(12)
    cases = []
    for _ in range(40):
        cases.append([rnd.choice(_SAREK_MEMBERS) for _ in range(rnd.randint(7, 11))])
    for _ in range(20):  # few kinds, long runs: 4-byte fields among 8-aligned ones, Q runs
        pool = rnd.sample(((4, 4), (8, 8), (8, 4)), rnd.randint(2, 3))
        cases.append([rnd.choice(pool) for _ in range(rnd.randint(8, 12))])
    cases.append([(4, 4), (8, 8)] * 6)                     # every 8-aligned field misplaced
    cases.append([(4, 4)] + [(8, 4)] * 4 + [(8, 8)] * 3 + [(4, 4)])  # Q run before the E's
    cases.append([(8, 8), (4, 4), (8, 4), (8, 8), (4, 4), (8, 4), (4, 4), (8, 8), (4, 4), (8, 8)])
    for members in cases:
        assert best_order(members) == _subset_search(members), members


# 1- and 2-byte members (uint8, float16, records of them: sizes 1, 2, 3, 4, 6 at alignments 1
# and 2) among Sarek's 4- and 8-aligned ones.
_SMALL_MEMBERS = ((1, 1), (2, 2), (3, 1), (4, 2), (6, 2), (4, 4), (8, 8), (12, 4), (2, 1))


def test_band_search_with_1_and_2_byte_members_is_proved_and_exact(monkeypatch):
    """Every record through the banded search (not only the large ones): it must prove its
    answer and give the very order of the independent exponential search."""
    monkeypatch.setattr(reorder, "_SMALL_SEARCH", 0)
    rnd = random.Random(15)
    for _ in range(120):
        pool = rnd.sample(_SMALL_MEMBERS, rnd.randint(2, 5))
        members = [rnd.choice(pool) for _ in range(rnd.randint(5, 12))]
        order, exact = suggested_order(members)
        assert exact and order == _subset_search(members), members


@pytest.mark.parametrize("through_band", [False, True])
def test_a_uint8_travels_past_every_8_byte_field(monkeypatch, through_band):
    """Why the 4/8 band does not carry over: the best order moves one uint8 past 40 doubles
    (40 swaps; moving the seven others to the front would cost 280)."""
    if through_band:
        monkeypatch.setattr(reorder, "_SMALL_SEARCH", 0)
    members = [(1, 1)] + [(8, 8)] * 40 + [(1, 1)] * 7
    order, exact = suggested_order(members)
    assert exact and order == tuple(range(1, 41)) + (0,) + tuple(range(41, 48))
    assert _size(members, order) == 328 and inversions(order) == 40
    # Four and four: both ways cost 160 swaps; the earliest-declared first wins.
    members = [(1, 1)] * 4 + [(8, 8)] * 40 + [(1, 1)] * 4
    order, exact = suggested_order(members)
    assert exact and order == (0, 1, 2, 3, 44, 45, 46, 47) + tuple(range(4, 44))


def test_large_records_with_1_and_2_byte_members_get_a_smallest_size_order():
    """Beyond what the budget proves, the order still has the smallest size, and the search
    says it is not proved."""
    rnd = random.Random(4)
    scalars = ((4, 4), (8, 8), (4, 4), (8, 8), (4, 4), (4, 4), (2, 2), (1, 1))
    members = [rnd.choice(scalars) for _ in range(480)]
    order, exact = suggested_order(members)
    assert sorted(order) == list(range(480))
    assert _size(members, order) == -(-sum(s for s, _ in members) // 8) * 8
    assert not exact  # about 300 swaps: more than this budget can prove


def test_inversions_and_smallest_size():
    rnd = random.Random(5)
    for n in range(0, 40):
        order = list(range(n))
        rnd.shuffle(order)
        assert inversions(order) == _inversions(order)
    for _ in range(200):
        members = [rnd.choice(_SAREK_MEMBERS) for _ in range(rnd.randint(1, 7))]
        assert smallest_size(members) == _brute_force(members)[0], members
    for _ in range(200):
        members = [rnd.choice(_SMALL_MEMBERS) for _ in range(rnd.randint(1, 7))]
        assert smallest_size(members) == _brute_force(members)[0], members


# --- records of hundreds and thousands of fields: the command finishes, and the order it
# --- prints is as small as any order can be (checked by the C compiler) ------------------------

_NESTED_JSON = [
    {"record": "pair", "fields": [["a", "float32"], ["b", "float32"]]},               # 8, align 4
    {"record": "trio", "fields": [["a", "float32"], ["b", "float32"], ["c", "int32"]]},  # 12, align 4
    {"record": "mixed", "fields": [["d", "float64"], ["i", "int32"]]},                # 16, align 8
]
_FIELD_TYPES = ("int32", "float32", "bool", "int64", "float64", "pair", "trio", "mixed")
# Every scalar of the table, Sarek's newer 1- and 2-byte ones included.
_ALL_SCALARS = tuple(SCALAR_TABLE)


def _limited(memory_bytes):
    def apply():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    return apply


def _explain_subprocess(args):
    import subprocess
    import sys

    # A generous timeout and address-space limit: the search used to be cubic in time and
    # memory (480 fields: 53 s and 820 MB; 2,000 would take an hour).
    return subprocess.run([sys.executable, "-m", "sarek_layout", "explain", *args],
                          capture_output=True, text=True, timeout=300,
                          preexec_fn=_limited(2 * 1024 ** 3))


@pytest.mark.parametrize("n, types", [(480, _FIELD_TYPES), (2000, _FIELD_TYPES),
                                      (480, _ALL_SCALARS), (2000, _ALL_SCALARS)])
def test_large_records_finish_with_a_size_optimal_order(tmp_path, n, types):
    from helpers.c_oracle import measure

    rnd = random.Random(n)
    fields = [[f"f{i}", rnd.choice(types)] for i in range(n)]
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"module": "Big", "types": [
        *_NESTED_JSON, {"record": "wide", "fields": fields}]}))

    plain = _explain_subprocess([str(path), "--type", "wide"])
    assert plain.returncode == 0, plain.stderr
    assert "reordered" not in plain.stdout

    proc = _explain_subprocess([str(path), "--type", "wide", "--suggest"])
    assert proc.returncode == 0, proc.stderr
    head, pasted = proc.stdout.split("\n", 1)
    new_fields = json.loads(pasted)["fields"]
    assert sorted(map(tuple, new_fields)) == sorted(map(tuple, fields))  # only the order changed

    # The compiler measures both orders; no order can be smaller than the sum of the field
    # sizes (as the compiler measures them) rounded up to the largest alignment.
    nested = [("record", d["record"], [tuple(f) for f in d["fields"]]) for d in _NESTED_JSON]
    scalars = [("record", f"one_{t}", [("v", t)]) for t in _ALL_SCALARS]
    measured = measure(nested + scalars + [("record", "declared", [tuple(f) for f in fields]),
                                           ("record", "suggested", [tuple(f) for f in new_fields])])
    size_of = {t: (measured[t] if t in measured else measured[f"one_{t}"]).size for t in types}
    align_of = {t: (measured[t] if t in measured else measured[f"one_{t}"]).align for t in types}
    big = max(align_of[t] for _, t in fields)
    bound = -(-sum(size_of[t] for _, t in fields) // big) * big
    assert measured["suggested"].size == bound < measured["declared"].size
    assert f"in {bound} bytes instead of {measured['declared'].size}" in head
    assert f"a field order of {bound} bytes exists" in plain.stdout


def _roundtrip(tmp_path, capsys, filename, text):
    path = tmp_path / filename
    path.write_text(text)
    before = load_schema([str(path)])
    assert main(["explain", str(path), "--suggest"]) == 0
    out = capsys.readouterr().out
    head, pasted = out.split("\n", 1)
    assert "in 24 bytes instead of 32 (saves 8)" in head
    return before, pasted


def _same_but_order(before, after, name):
    old = next(t for t in before.types if t.name == name)
    new = next(t for t in after.types if t.name == name)
    assert [f for f, _ in new.elttype.fields] == ["mass", "id", "pos", "alive"]
    assert sorted(new.elttype.fields, key=lambda f: f[0]) == sorted(old.elttype.fields, key=lambda f: f[0])
    assert (new.layout.size, old.layout.size) == (24, 32)
    assert new.c_name == old.c_name


def test_pasted_toml_and_json_read_back_with_only_the_order_changed(tmp_path, capsys):
    text = (EXAMPLES / "geometry.toml").read_text()
    before, pasted = _roundtrip(tmp_path, capsys, "geometry.toml", text)
    start = text.index('[[types]]\nrecord = "particle"')
    end = text.index("[[types]]", start + 1)
    (tmp_path / "after.toml").write_text(text[:start] + pasted.strip() + "\n\n" + text[end:])
    _same_but_order(before, load_schema([str(tmp_path / "after.toml")]), "particle")

    doc = {"module": "Geometry", "types": [
        {"record": "point", "fields": [["x", "float32"], ["y", "float32"]]},
        {"record": "particle", "fields": [["id", "int32"], ["mass", "float64"], ["pos", "point"], ["alive", "bool"]]},
    ]}
    before, pasted = _roundtrip(tmp_path, capsys, "geometry.json", json.dumps(doc))
    doc["types"][1] = json.loads(pasted)
    (tmp_path / "after.json").write_text(json.dumps(doc))
    _same_but_order(before, load_schema([str(tmp_path / "after.json")]), "particle")


def test_pasted_ocaml_and_c_read_back_with_only_the_order_changed(tmp_path, capsys):
    ocaml = (
        "(* kernels and other code around the types *)\n"
        "type point = { x : float32; y : float32 } [@@sarek.type]\n"
        "type particle = { id : int32; mass : float64; pos : point; alive : bool } [@@sarek.type]\n"
        "let f x = x + 1\n"
    )
    before, pasted = _roundtrip(tmp_path, capsys, "geometry.ml", ocaml)
    assert pasted.startswith("type particle = {") and "[@@sarek.type]" in pasted
    lines = ocaml.splitlines()
    (tmp_path / "after" ).mkdir()
    (tmp_path / "after" / "geometry.ml").write_text("\n".join([lines[0], lines[1], pasted, lines[3]]) + "\n")
    _same_but_order(before, load_schema([str(tmp_path / "after" / "geometry.ml")]), "particle")

    header = (
        "#include <stdint.h>\n"
        "typedef struct Geometry_point { float x; float y; } Geometry_point;\n"
        "typedef struct Geometry_particle { int32_t id; double mass; Geometry_point pos; int32_t alive; }"
        " Geometry_particle;\n"
    )
    before, pasted = _roundtrip(tmp_path, capsys, "geometry.h", header)
    assert pasted.startswith("typedef struct Geometry_particle") and "double mass;" in pasted
    lines = header.splitlines()
    (tmp_path / "after" / "geometry.h").write_text("\n".join([lines[0], lines[1], pasted]) + "\n")
    _same_but_order(before, load_schema([str(tmp_path / "after" / "geometry.h")]), "particle")


def test_advice_is_only_for_records():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    by_name = {t.name: advise(t) for t in schema.types}
    assert by_name["shape"] is None
    assert by_name["point"].saved == 0 and not by_name["point"].changed
    assert by_name["particle"].field_names == ("mass", "id", "pos", "alive")
