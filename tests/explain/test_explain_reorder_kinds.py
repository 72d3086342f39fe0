"""Reorder advice under every rule set and for the member kinds of SPEC §1b (issue 32).

A record's members are sized by its own rule set: a std430 ``vec3<float32>`` is 12 bytes and
16-aligned, so a 4-byte member fits in its last four bytes, and its size is not a multiple of
its alignment (no arithmetic gives the smallest size: the search does). The suggested order
is checked against a brute force over all permutations (its own struct arithmetic per rule
set, written here from SPEC §1b), laid out again by the layout core, and, for the vec3
tail, by glslang itself.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import sys

import pytest

from helpers import kinds_oracle
from helpers.bounded import run_cpu_bounded
from helpers.common import require_toolchain
from sarek_layout.cli.main import main
from sarek_layout.explain import reorder
from sarek_layout.explain.reorder import advise, best_order, smallest_size, suggested_order
from sarek_layout.ir.types import (RULE_SET_NAMES, SCALARS, TFixedArray, TMatrix, TRecord,
                                   TVector)
from sarek_layout.layout.core import member_size_align, record_layout
from sarek_layout.layout.rules import RULE_SETS
from sarek_layout.resolve import load_schema

F16, F32, F64, U8 = SCALARS["float16"], SCALARS["float32"], SCALARS["float64"], SCALARS["uint8"]


def _size(members, order, rules: str) -> int:
    """A record's size by SPEC §1b, written here: each member at its offset rounded up to its
    alignment; the end rounded up to the largest alignment (at least 16 under std140), or
    not at all under the scalar block layout."""
    offset, big = 0, 1
    for i in order:
        size, align = members[i]
        offset = -(-offset // align) * align + size
        big = max(big, align)
    if rules == "scalar":
        return offset
    # A structure's size is a multiple of 16 in std140 and in WGSL's uniform space.
    big = max(big, 16) if rules in ("std140", "wgsl-uniform") else big
    return -(-offset // big) * big


def _inversions(order) -> int:
    return sum(order[a] > order[b] for a, b in itertools.combinations(range(len(order)), 2))


def _brute_force(members, rules):
    """The best order by the documented key: (size, swapped pairs, declaration indices)."""
    return min((_size(members, p, rules), _inversions(p), p)
               for p in itertools.permutations(range(len(members))))


def _types(rules: str):
    """Member types of every kind, and two records, under ``rules``."""
    types = [F32, F64, F16, U8, SCALARS["int64"],
             TVector(F32, 2), TVector(F32, 3), TVector(F32, 4), TVector(F64, 3),
             TVector(F16, 3), TVector(U8, 3), TMatrix(F32, 3, 3), TMatrix(F32, 2, 3),
             TFixedArray(F32, 3), TFixedArray(TVector(F32, 3), 2), TFixedArray(U8, 5)]
    if rules != "std140":  # std140 has no 8- or 16-bit scalars in glslang without extensions
        types.append(TFixedArray(F16, 3))
    types.append(TRecord("d_f", [("d", F64), ("f", F32)], rules))   # 16 (scalar: 12) / 8
    types.append(TRecord("v_b", [("v", TVector(F32, 3)), ("b", U8)], rules))
    return types


ADVISED = [r for r in RULE_SET_NAMES if r != "hlsl-cbuffer"]


def test_no_reorder_is_advised_where_registers_place_members(tmp_path, capsys):
    """hlsl-cbuffer: a vector moves to the next register rather than straddle one, so a
    member's place is not a function of (size, align) pairs; explain says so instead of
    advising an order the pairs would get wrong ({float, float3, float} packs in 32 bytes
    in Slang's reflection whatever its order: no pair search sees that)."""
    path = tmp_path / "c.toml"
    path.write_text('rules = "hlsl-cbuffer"\n[[types]]\nrecord = "r"\nfields = [["a", "float32"], '
                    '["v", "vec3<float32>"], ["b", "float32"]]\n')
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "no reorder advice under the hlsl-cbuffer rules" in out
    with pytest.raises(ValueError, match="registers"):
        best_order([(4, 4), (12, 4), (4, 4)], RULE_SETS["hlsl-cbuffer"])
    st = load_schema([str(path)]).types[0]
    assert reorder.advise(st) is None and reorder.smallest_size_of(st) is None


@pytest.mark.parametrize("rules", ADVISED)
def test_suggested_orders_are_the_brute_forces_and_the_core_lays_them_out(rules):
    """200 random records of 1 to 6 members of every kind under each rule set: the order is
    the brute force's, ``smallest_size`` is its size, and the core lays the reordered record
    out at that size."""
    rnd = random.Random(RULE_SET_NAMES.index(rules) + 32)
    pool = _types(rules)
    rule_set = RULE_SETS[rules]
    for _ in range(200):
        fields = [(f"f{i}", rnd.choice(pool)) for i in range(rnd.randint(1, 6))]
        members = [member_size_align(t, rules) for _, t in fields]
        best_size, _, best = _brute_force(members, rules)
        order = best_order(members, rule_set)
        assert order == best, (rules, fields, order, best)
        assert smallest_size(members, rule_set) == best_size, (rules, fields)
        laid_out = record_layout("r", [fields[i] for i in order], rules)
        assert laid_out.size == best_size <= record_layout("r", fields, rules).size


def _subset_search(members, rules):
    """The best order by dynamic programming over (members placed, offset): exact for any
    members, exponential, independent of the package; for records too large to permute."""
    n = len(members)
    full = (1 << n) - 1

    @functools.lru_cache(maxsize=None)
    def best(mask, offset, big):
        if mask == full:
            end = offset
            if rules != "scalar":
                a = max(big, 16) if rules == "std140" else big
                end = -(-offset // a) * a
            return (end, 0)
        options = []
        for m in range(n):
            if not mask >> m & 1:
                size, align = members[m]
                nxt = -(-offset // align) * align + size
                swaps = bin(~mask & ((1 << m) - 1)).count("1")
                size_after, later = best(mask | 1 << m, nxt, max(big, align))
                options.append((size_after, later + swaps, m, nxt))
        s, c, _, _ = min(options)
        return (s, c)

    order, mask, offset, big = [], 0, 0, 1
    for _ in range(n):
        goal = best(mask, offset, big)
        for m in range(n):
            if not mask >> m & 1:
                size, align = members[m]
                nxt = -(-offset // align) * align + size
                swaps = bin(~mask & ((1 << m) - 1)).count("1")
                s, later = best(mask | 1 << m, nxt, max(big, align))
                if (s, later + swaps) == goal:
                    order.append(m)
                    mask, offset, big = mask | 1 << m, nxt, max(big, align)
                    break
    return tuple(order)


@pytest.mark.parametrize("rules", ["std430", "scalar", "std140"])
def test_larger_records_of_vec3s_match_an_unrestricted_search(rules):
    """8 to 11 members where vec3s and their tails matter, against the exponential search."""
    rnd = random.Random(430)
    pool = [member_size_align(t, rules) for t in _types(rules)]
    for _ in range(25):
        members = [rnd.choice(pool) for _ in range(rnd.randint(8, 11))]
        assert best_order(members, RULE_SETS[rules]) == _subset_search(members, rules), members


LIGHT = """\
module = "L"
rules = "std430"
[[types]]
record = "light"
fields = [["x", "float32"], ["a", "vec3<float32>"], ["y", "float32"], ["b", "vec3<float32>"]]
"""


def test_a_vec3_takes_a_4_byte_member_in_its_tail_as_glslang_lays_it_out(tmp_path, capsys):
    """std430 {float x; vec3 a; float y; vec3 b} is 48 bytes; glslang says the suggested
    order {a, x, b, y} is 32 (each float in a vec3's last 4 bytes)."""
    require_toolchain("glslang")
    path = tmp_path / "light.toml"
    path.write_text(LIGHT)
    assert main(["explain", str(path)]) == 0
    assert "/* a field order of 32 bytes exists (saves 16): explain --suggest prints it */" in \
        capsys.readouterr().out
    assert main(["explain", str(path), "--suggest"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("L.light in 32 bytes instead of 48 (saves 16)")
    text = out.split(":\n", 1)[1]
    fields = load_schema([str(path)]).types[0].elttype.fields
    advice = advise(load_schema([str(path)]).types[0])
    assert [name for name, _ in fields] == ["x", "a", "y", "b"]
    assert advice.field_names == ("a", "x", "b", "y") and '["a", "vec3<float32>"]' in text
    kinds = {"x": ("scalar", "float32"), "y": ("scalar", "float32"),
             "a": ("vec", 3, "float32"), "b": ("vec", 3, "float32")}
    structs = [("Declared", [(n, kinds[n]) for n in ("x", "a", "y", "b")]),
               ("Suggested", [(n, kinds[n]) for n in advice.field_names])]
    measured = kinds_oracle.measure_glsl(structs, "std430", tmp_path)
    assert (measured["Declared"].size, measured["Suggested"].size) == (48, 32)
    assert measured["Suggested"].offsets == {"a": 0, "x": 12, "b": 16, "y": 28}


def test_every_rule_set_sizes_the_members_by_its_own_rules(tmp_path, capsys):
    """The same fields under c and std430: c's vec3 is 4-aligned (no hole to fill), std430's
    16-aligned. The advice used to size every member by c's rules (and refused a record of a
    record of another rule set)."""
    for rules, size in (("c", 32), ("std430", 48)):
        path = tmp_path / f"{rules}.toml"
        path.write_text(LIGHT.replace('rules = "std430"', f'rules = "{rules}"'))
        advice = advise(load_schema([str(path)]).types[0])
        assert (advice.size, advice.saved) == (size, 0 if rules == "c" else 16)
    nested = tmp_path / "nested.toml"
    nested.write_text('rules = "std430"\n[[types]]\nrecord = "p"\nfields = [["v", "vec3<float32>"]]\n'
                      '[[types]]\nrecord = "q"\nfields = [["n", "float32"], ["ps", "p[2]"], '
                      '["m", "float32"]]\n')
    assert main(["explain", str(nested), "--suggest"]) == 0
    assert capsys.readouterr().out.startswith("Nested.q in 48 bytes instead of 64 (saves 16)")


def test_a_large_uneven_record_gets_a_bounded_search_and_an_order_the_core_confirms(tmp_path):
    """600 std430 members of nine kinds, vec3s among them: the exact search would have
    millions of states, so a greedy order is suggested (not proved), still laid out by the
    core at the size it claims, and at most the declared size; and bounded in CPU time."""
    rnd = random.Random(9)
    kinds = ["float32", "vec3<float32>", "vec2<float32>", "float64", "vec3<float64>",
             "uint8", "vec4<float32>", "float16", "vec3<uint8>"]
    fields = [[f"f{i}", rnd.choice(kinds)] for i in range(600)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"module": "B", "rules": "std430",
                                "types": [{"record": "r", "fields": fields}]}))
    st = load_schema([str(path)]).types[0]
    advice = advise(st)
    reordered = [st.elttype.fields[i] for i in advice.order]
    assert sorted(advice.order) == list(range(600)) and not advice.exact
    assert record_layout("r", reordered, "std430").size == advice.new_size <= advice.size
    assert advice.saved > 0
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "explain", str(path),
                            "--suggest"], cpu_s=20, text=True,
                           what="the reorder search of an uneven record is not bounded")
    assert proc.returncode == 0, proc.stderr
    assert f"in {advice.new_size} bytes instead of {advice.size}" in proc.stdout


def test_an_unproved_answer_is_not_called_the_smallest(monkeypatch, tmp_path, capsys):
    """When the bounded search gives up on proving, a record it cannot shrink is not said
    to have no smaller order."""
    monkeypatch.setattr(reorder, "_UNEVEN_WORK", 0)
    path = tmp_path / "tight.toml"
    path.write_text('module = "T"\nrules = "std430"\n[[types]]\nrecord = "t"\n'
                    'fields = [["a", "vec3<float32>"], ["b", "vec3<float32>"], ["c", "float64"]]\n')
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "not proved" in out and "no field order is smaller" not in out
    order, exact = suggested_order([(12, 16), (12, 16), (8, 8)], RULE_SETS["std430"])
    assert not exact and _size([(12, 16), (12, 16), (8, 8)], order, "std430") == 48


def test_a_declaration_its_own_syntax_cannot_write_is_given_as_json(tmp_path):
    """A record of a C header with a member kind the C writer does not write (a vector
    under the c rules: C has no vec3): the reordered declaration comes as a JSON entry,
    saying why, not as a traceback."""
    import dataclasses

    from sarek_layout.explain.declare import record_declaration
    from sarek_layout.frontends.jsontoml.reader import read_toml

    path = tmp_path / "light.toml"
    path.write_text(LIGHT.replace('rules = "std430"\n', ''))
    module = dataclasses.replace(read_toml(str(path)), format="c")
    text = record_declaration(module, module.decls[0], (1, 0, 3, 2))
    why, entry = text.split("\n")
    assert why.startswith("(C cannot be written: ") and why.endswith("; as a JSON entry)")
    assert [f[0] for f in json.loads(entry)["fields"]] == ["a", "x", "b", "y"]
