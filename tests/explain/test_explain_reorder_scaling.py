"""``explain --suggest`` on large mixed records is linear, and the faster search gives the
suggestions the old one gave (issue 24).

The banded search of records with 1- and 2-byte members used to start over from the first
field each time its band was widened where it had emptied: hundreds of times for a record of
thousands of fields, quadratic in all (40,000 fields: 56 s, 670 MB), and its state budget ran
out before any band reached the end, so such a record got the fallback order (members by
decreasing alignment, millions of swaps). ``_old_banded_best`` below is that search, kept as
it was, the reference: wherever it proved its answer, the new search must give the very same
order; where it did not, the new one may only do better by the documented key (smallest size,
then fewest swaps, then earliest-declared first). The bound on 40,000 fields is CPU time, not
wall time (``helpers/bounded.py``).
"""

from __future__ import annotations

import random
import sys
import textwrap

import pytest

from helpers.bounded import run_cpu_bounded
from sarek_layout.explain import reorder
from sarek_layout.explain.reorder import inversions, order_size, smallest_size, suggested_order

from typing import Dict, List, Optional, Sequence, Tuple

_INF = float("inf")
_WIDEN = reorder._WIDEN
_WIDER_COSTS = reorder._WIDER_COSTS


# --- the search as it was before issue 24 (restarting from the first field each time) --------

def _old_banded_best(members: Sequence[Tuple[int, int]], kinds: List[Tuple[int, int]],
                 queues: List[List[int]], big: int, budget: int) -> Tuple[Tuple[int, ...], bool]:
    """The best order within a band around the declaration (module docstring), widened
    where it holds no order and then everywhere, until the answer is proved best overall or
    the state budget would be spent; failing any order, the members by decreasing alignment."""
    n = len(members)
    widths = [1] * (n + 1)  # widths[t]: how many members may be out of place after t
    found: Optional[Tuple[int, ...]] = None
    left = reorder._BAND_STATES + reorder._BAND_STATES_PER_FIELD * n
    stretch: Dict[int, int] = {}  # layer where the band emptied -> stretch widened before it
    while left > 0:
        result = _old_band_search(kinds, queues, n, big, budget, widths, left)
        if result is None:
            break  # the budget ran out inside this band
        order, cost, used, emptied = result
        left -= used
        if order is None:
            # No order stays in the band: widen it over a stretch before the layer where it
            # emptied (a longer stretch each time the same layer empties again).
            stretch[emptied] = 2 * stretch.get(emptied, _WIDEN // 2)
            for t in range(max(0, emptied - stretch[emptied]), emptied + 1):
                widths[t] += 1
            continue
        found = order
        narrowest = min(widths)
        # Leaving the band costs at least (narrowest + 1)² swaps; a band of width n // 2
        # holds every order.
        if cost < (narrowest + 1) ** 2 or narrowest >= n // 2:
            return order, True
        if used * _WIDER_COSTS > left:
            break  # a band one wider would not fit in what is left
        widths = [w + 1 for w in widths]
    if found is not None:
        return found, False
    return tuple(sorted(range(n), key=lambda i: -members[i][1])), False


#: Stretch (in placements) over which a band that emptied is first widened.
_WIDEN = 16
#: States a band one wider needs, over the states of the band before it (measured: 5 to 8).
_WIDER_COSTS = 10


def _old_band_search(
    kinds: List[Tuple[int, int]], queues: List[List[int]], n: int, big: int, budget: int,
    widths: Sequence[int], max_states: int,
) -> Optional[Tuple[Optional[Tuple[int, ...]], int, int, int]]:
    """The best order (and its swaps) among those with at most ``budget`` bytes of holes
    that never have more than ``widths[t]`` of the first ``t`` declared members unplaced
    after ``t`` placements, with the states visited: ``(order, swaps, states, 0)``, or
    ``(None, 0, states, t)`` when no such order gets past ``t`` placements, or ``None``
    when more than ``max_states`` states would be needed. A state is (members placed per
    kind, holes, offset modulo ``big``)."""
    k = len(kinds)
    sizes = [size for size, _ in kinds]
    aligns = [align for _, align in kinds]
    lengths = [len(queue) for queue in queues]
    kind_of = [0] * n
    for j, queue in enumerate(queues):
        for i in queue:
            kind_of[i] = j
    # before[i][l]: members of kind l declared before member i; declared[t][l]: of the first t.
    before: List[Tuple[int, ...]] = []
    counts = [0] * k
    declared = [tuple(counts)]
    for i in range(n):
        before.append(tuple(counts))
        counts[kind_of[i]] += 1
        declared.append(tuple(counts))
    kinds_range = range(k)

    def moves(state, t: int):
        placed, holes, offset = state
        ahead = declared[t + 1]
        width = widths[t + 1]
        lacking = [ahead[l] - placed[l] for l in kinds_range]
        out_of_place = sum(x for x in lacking if x > 0)
        for j in kinds_range:
            count = placed[j]
            if count == lengths[j]:
                continue
            hole = -offset % aligns[j]
            if holes + hole > budget:
                continue
            if out_of_place - (lacking[j] > 0) > width:
                continue
            member = queues[j][count]
            earlier = before[member]
            # Members declared before this one and not yet placed end up after it.
            cost = member - sum(p if p < e else e for p, e in zip(placed, earlier))
            yield member, cost, (placed[:j] + (count + 1,) + placed[j + 1:], holes + hole,
                                 (offset + hole + sizes[j]) % big)

    start = ((0,) * k, 0, 0)
    layers = [[start]]
    used = 1
    for t in range(n):
        layer = list(dict.fromkeys(s for state in layers[-1] for _, _, s in moves(state, t)))
        if not layer:
            return None, 0, used, t + 1
        used += len(layer)
        if used > max_states:
            return None
        layers.append(layer)
    cost_to_go: Dict[tuple, float] = {state: 0 for state in layers[n]}
    for t in range(n - 1, -1, -1):
        for state in layers[t]:
            cost_to_go[state] = min(
                (cost + cost_to_go[s] for _, cost, s in moves(state, t)), default=_INF)
    order = []
    state = start
    for t in range(n):
        goal = cost_to_go[state]
        member, _, state = min((m, c, s) for m, c, s in moves(state, t) if c + cost_to_go[s] == goal)
        order.append(member)
    return tuple(order), int(cost_to_go[start]), used, 0




def _old_suggested_order(members, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(reorder, "_banded_best", _old_banded_best)
        return suggested_order(members)


_MEMBERS = ((1, 1), (2, 2), (3, 1), (4, 2), (6, 2), (4, 4), (8, 8), (12, 4), (2, 1), (16, 8))


def test_the_same_suggestions_as_the_old_search(monkeypatch):
    """Random records of 5 to 80 fields through the banded search: the old search's proved
    answers are given again, proved; its unproved ones are matched or beaten."""
    monkeypatch.setattr(reorder, "_SMALL_SEARCH", 0)
    rnd = random.Random(24)
    proved = 0
    for _ in range(40):
        pool = rnd.sample(_MEMBERS, rnd.randint(2, 6))
        members = [rnd.choice(pool) for _ in range(rnd.choice((5, 10, 20, 40, 80)))]
        old_order, old_exact = _old_suggested_order(members, monkeypatch)
        order, exact = suggested_order(members)
        if old_exact:
            proved += 1
            assert (order, exact) == (old_order, True), members
        else:
            old_key = (order_size(members, old_order), inversions(old_order), old_order)
            assert (order_size(members, order), inversions(order), order) <= old_key, members
    assert proved >= 20  # most of them: the comparison is not vacuous


def test_a_large_mixed_record_gets_a_band_answer_not_the_fallback(monkeypatch):
    """3,000 fields of 1-, 2-, 4- and 8-byte members: the old search spent its budget starting
    over and fell back to sorting by alignment; the new one finishes a band, far fewer swaps,
    and the smallest size either way."""
    rnd = random.Random(6)
    members = [rnd.choice(((1, 1), (2, 2), (4, 4), (8, 8), (4, 4), (8, 8))) for _ in range(3000)]
    old_order, _ = _old_suggested_order(members, monkeypatch)
    order, _ = suggested_order(members)
    assert order_size(members, order) == order_size(members, old_order) == smallest_size(members)
    assert inversions(order) * 100 < inversions(old_order)


_FORTY_THOUSAND = textwrap.dedent("""
    import random, sys
    sys.path.insert(0, sys.argv[1])
    from sarek_layout.explain.reorder import order_size, smallest_size, suggested_order
    rnd = random.Random(6)
    kinds = ((1, 1), (2, 2), (4, 4), (8, 8), (4, 4), (4, 4), (4, 4), (8, 8))
    members = [rnd.choice(kinds) for _ in range(40_000)]
    order, exact = suggested_order(members)
    assert sorted(order) == list(range(40_000))
    assert order_size(members, order) == smallest_size(members)
    print("ok")
""")


def test_forty_thousand_mixed_fields_are_searched_in_bounded_cpu_time():
    """The issue's measure: one record of 40,000 mixed 1/2/4/8-byte members (56 s of CPU
    before; about 2 s now on a 2-core machine: the bound leaves room for a slow one)."""
    import sarek_layout

    parent = str(__import__("pathlib").Path(sarek_layout.__file__).resolve().parent.parent)
    proc = run_cpu_bounded([sys.executable, "-c", _FORTY_THOUSAND, parent], cpu_s=12,
                           what="the reorder search is not linear in the fields")
    assert proc.returncode == 0 and proc.stdout.strip() == b"ok", proc.stderr
