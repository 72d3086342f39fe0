"""Reorder advice: the field order of a record with the smallest size, found exactly.

*Which* order is suggested, precisely: among all orders of the fields,

1. the smallest record size; then
2. the fewest pairs of fields whose relative order differs from the declaration (the
   Kendall tau distance: how many swaps of neighbours turn the declaration into it); then
3. the lexicographically smallest sequence of declaration indices (earliest-declared first).

So a record whose declared order is already minimal is left alone, and otherwise as few
fields as possible move. Only order changes: names and types are the declared ones.

Why it is exact. The size of an order is ``align_up(sum + holes, A)`` with ``A`` the
largest alignment, so it depends only on the holes before members; a hole depends only on
the offset modulo ``A`` and the member's alignment; and the offset modulo ``A`` after a set
of members depends only on how many of each *kind* (size mod ``A``, alignment) were placed
and on the holes so far. The search therefore runs over states *(members placed per kind,
holes so far)* and covers every order. Within a kind, members are interchangeable for the
size and keeping them in declaration order never adds an inversion, so the state also fixes
which member comes next of each kind, and the inversions it adds. The search starts from
the smallest conceivable size and only widens it for inputs where it cannot be met.

Why it is fast for Sarek's records. Their members are 4- or 8-aligned and their sizes are
multiples of their alignment, so (with ``A = 8``) there are at most three kinds: *E*
(8-aligned), *F* (4-aligned, size 4 mod 8) and *Q* (4-aligned, size 0 mod 8); ``A = 4`` is
one kind, and the declared order is already the smallest. The offset is 8-aligned exactly
when an even number of F members precede, so an E member needs an even count of F before it
(or the one 4-byte hole the size allows when the count of F is odd: ``align_up(sum, 8)``
is always reached, by placing the E members first). The full state space is cubic in the
field count; but every optimal order stays in a narrow band around the declaration:

* each E member has within one F of its declared F-count before it. Were it two or more
  away, moving it back over the last two F members it passed (or, symmetrically, the two
  F members over it) keeps every parity, saves its two E–F inversions, and moves every Q
  member between them to a place no worse: a strictly better order. (The one hole, if it
  is used, moves along and the same exchange applies, checked case by case.)
* each Q member, free of any constraint, sits at the place nearest its declared position
  relative to the E and F members, which with E in that band is at most one move away (Q
  costs form a Monge array, so these nearest places are consistent with the Q order).

The search is therefore restricted to the states within that band: O(n) states for n
fields, and the same answer. ``tests/explain/test_explain_reorder.py`` checks it against a brute
force over all permutations and against an unrestricted search written in the test.

Records with 1- and 2-byte members (uint8, float16, records of them). Every member's size is
still a multiple of its alignment, so the smallest size is still ``align_up(sum, A)`` (the
members by decreasing alignment leave no hole), but there are up to fifteen kinds, and the
band argument above does not carry over: a single uint8 may have to travel past hundreds of
8-aligned members (``u8, f64 × 479, u8 × 7``: the best order moves the first uint8 to the
end). What does stay small is how many members are out of place at once: after any ``t``
members, ``d(t)`` of the first ``t`` declared are not yet placed (as many later ones are).
So the search runs over the states with ``d(t) <= W`` for a growing width ``W``, exactly
within that band, and stops when the answer is proved best overall: every member pair
(an early one not yet placed, a later one already placed) is a swapped pair, so an order that
ever leaves the band has at least ``(W + 1) ** 2`` of them, and a band answer with fewer swaps
than that is the exact one (ties included). Small records are proved at ``W`` of 1 to 3.
A record so large and mixed that its band answer cannot be proved within a fixed budget of
states gets the best order within the widest band searched (still of the smallest size, its
swaps the fewest within that band, ``Advice.exact`` false); and if no band within the budget
holds an order of the smallest size, the members by decreasing alignment (stable), which
always does. The budget counts states, not seconds, so the answer does not depend on the
machine; past 2,000 fields it grows by fewer states a field, so that the search stays
linear with a small slope. Widening keeps the layers of states before the widened stretch and
goes on from there (``_Band``), so the widenings cost only what they change. Members whose
sizes are not multiples of their alignments (the API accepts any) use the unrestricted search.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..ir.schema import RecordDecl, SchemaType
from ..ir.types import TRecord
from ..layout.core import RecordLayout, align_up, member_size_align
from ..layout.rules import DEFAULT_RULES, RuleSet, rules_named, struct_shape

__all__ = ["Advice", "best_order", "unadvised", "suggested_order", "smallest_size", "smallest_size_of", "order_size", "inversions", "advise"]

_INF = float("inf")

#: A search state: (members placed per kind, bytes of holes so far).
State = Tuple[Tuple[int, ...], int]


def order_size(members: Sequence[Tuple[int, int]], order: Sequence[int],
               rules: RuleSet = DEFAULT_RULES) -> int:
    """Size of a record whose ``(size, align)`` members are placed in ``order``, by the
    rule set ``rules`` (C struct rules by default: each member at its offset rounded up to
    its alignment, the end rounded up to the record's alignment, or not under ``scalar``)."""
    offset = 0
    max_align = 1
    for i in order:
        size, align = members[i]
        offset = align_up(offset, align) + size
        max_align = max(max_align, align)
    return struct_shape(rules, offset, max_align).size


def _lower_bound(members: Sequence[Tuple[int, int]], rules: RuleSet) -> int:
    """The size of a record of ``members`` with no hole between them: no order is smaller,
    and when every size is a multiple of its alignment, the members by decreasing
    alignment take exactly that."""
    big = max(align for _, align in members)
    return struct_shape(rules, sum(size for size, _ in members), big).size


def inversions(order: Sequence[int]) -> int:
    """Pairs of members whose relative order differs from declaration order (O(n log n))."""
    rank = {v: r for r, v in enumerate(sorted(order))}
    tree = [0] * (len(order) + 1)  # Fenwick tree over the ranks seen so far
    count = 0
    for seen, value in enumerate(order):
        i = rank[value] + 1
        not_greater = 0
        j = i
        while j > 0:
            not_greater += tree[j]
            j -= j & -j
        count += seen - not_greater
        while i <= len(order):
            tree[i] += 1
            i += i & -i
    return count


def _validate(members: Sequence[Tuple[int, int]], rules: RuleSet = DEFAULT_RULES) -> None:
    if rules.register:  # a vector moves to the next register: (size, align) cannot say so
        raise ValueError(f"the {rules.name} rules pack members into {rules.register}-byte "
                         f"registers: no reorder advice")
    for size, align in members:
        if align <= 0 or align & (align - 1):
            raise ValueError(f"alignment {align} is not a power of two")
        if size < 0:
            raise ValueError(f"size {size} is negative")


def _parity_kinds(members: Sequence[Tuple[int, int]], big: int) -> bool:
    """Whether every member is ``big``- or ``big/2``-aligned with a size that is a multiple
    of its alignment: Sarek's records of 4- and 8-byte members always are (module docstring)."""
    return all(align in (big, big // 2) and size % align == 0 for size, align in members)


def _whole_kinds(members: Sequence[Tuple[int, int]]) -> bool:
    """Whether every member's size is a multiple of its alignment, as every C type's is."""
    return all(size % align == 0 for size, align in members)


#: Records whose unrestricted search has at most this many states are searched that way.
_SMALL_SEARCH = 20_000
#: States the banded search may visit for one record, all bands together: a fixed part, a
#: part per field for the first ``_BAND_FIELDS`` fields (a record of 480 fields: about a
#: quarter of a second), and a smaller part per field beyond, so that the search stays linear
#: with a slope that keeps 40,000 fields within a few seconds (one band of such a record
#: needs about 10 states a field).
_BAND_STATES = 60_000
_BAND_STATES_PER_FIELD = 100
_BAND_FIELDS = 2_000
_BAND_STATES_PER_FIELD_BEYOND = 12


def _band_budget(n: int) -> int:
    """States the banded search may visit for a record of ``n`` fields (see above)."""
    return (_BAND_STATES + _BAND_STATES_PER_FIELD * min(n, _BAND_FIELDS)
            + _BAND_STATES_PER_FIELD_BEYOND * max(0, n - _BAND_FIELDS))


def smallest_size(members: Sequence[Tuple[int, int]], rules: RuleSet = DEFAULT_RULES) -> int:
    """The smallest size of any order of the ``(size, align)`` members under ``rules``.

    Arithmetic whenever sizes are multiples of alignments (largest alignment first leaves no
    hole), so the plain report can say whether a reorder would help without searching;
    otherwise (a std430 ``vec3``: 12 bytes, 16-aligned) the size of the suggested order.
    """
    _validate(members, rules)
    if not members:
        return 0
    if _whole_kinds(members):
        return _lower_bound(members, rules)
    return order_size(members, best_order(members, rules), rules)


def best_order(members: Sequence[Tuple[int, int]],
               rules: RuleSet = DEFAULT_RULES) -> Tuple[int, ...]:
    """The suggested order (declaration indices) of ``(size, align)`` members; see the module doc."""
    return suggested_order(members, rules)[0]


def suggested_order(members: Sequence[Tuple[int, int]],
                    rules: RuleSet = DEFAULT_RULES) -> Tuple[Tuple[int, ...], bool]:
    """``(order, exact)``: the suggested order, and whether it is proved the best by the
    documented key (always, but for very large records with 1- or 2-byte members, or with
    members whose sizes are not multiples of their alignments)."""
    order, exact, _ = _suggest(members, rules)
    return order, exact


def _suggest(members: Sequence[Tuple[int, int]], rules: RuleSet
             ) -> Tuple[Tuple[int, ...], bool, bool]:
    """``(order, exact, smallest)``: ``smallest`` says the order's size is proved the
    smallest of any order (``exact`` implies it)."""
    _validate(members, rules)
    n = len(members)
    if n == 0:
        return (), True, True
    big = max(align for _, align in members)
    total = sum(size for size, _ in members)
    by_kind: Dict[Tuple[int, int], List[int]] = {}
    for i, (size, align) in enumerate(members):
        by_kind.setdefault((size % big, align), []).append(i)
    kinds = list(by_kind)
    queues = [by_kind[k] for k in kinds]
    # The holes an order of the smallest conceivable size may leave: the rounding slack
    # (none where the rules do not round a record's size up).
    budget = _lower_bound(members, rules) - total
    if _parity_kinds(members, big):
        order = _search(kinds, queues, n, big, budget, _band(kinds, queues, big))
        if order is not None:  # the band argument says it always is
            return order, True, True
    states = budget + 1
    for queue in queues:
        states *= len(queue) + 1
    if _whole_kinds(members):
        if states > _SMALL_SEARCH:
            order, exact = _banded_best(members, kinds, queues, big, budget)
            return order, exact, True
        return _search(kinds, queues, n, big, budget, None), True, True  # type: ignore[return-value]
    return _uneven(members, kinds, queues, big, budget, rules)


#: Work (states times widenings) the exact search may do for a record whose member sizes
#: are not multiples of their alignments, beyond which a greedy order is suggested instead.
_UNEVEN_WORK = 400_000


def _uneven(members: Sequence[Tuple[int, int]], kinds: List[Tuple[int, int]],
            queues: List[List[int]], big: int, budget: int, rules: RuleSet
            ) -> Tuple[Tuple[int, ...], bool, bool]:
    """The best order of members some of whose sizes are not multiples of their alignments
    (a std430 ``vec3<float32>``: 12 bytes, 16-aligned, so the next member may use its last
    4 bytes). No arithmetic gives the smallest size here, so the exact search widens the
    holes it allows, one possible size at a time, from the smallest conceivable one: at most
    up to the declared order's holes, which bounds the loop. When that could be more than
    ``_UNEVEN_WORK`` states in all, the greedy order is suggested (not proved)."""
    n = len(members)
    declared = order_size(members, range(n), rules)
    total = sum(size for size, _ in members)
    lower = total + budget
    # Each possible size is one step further: the record's alignment where it is rounded
    # up to it, a byte where it ends at its last member (``scalar``).
    step = struct_shape(rules, 1, big).size if rules.struct_size_rounded else 1
    states = declared - total + 1
    for queue in queues:
        states *= len(queue) + 1
    if states * ((declared - lower) // step + 1) <= _UNEVEN_WORK:
        while True:
            order = _search(kinds, queues, n, big, budget, None)
            if order is not None:
                return order, True, True
            budget += step
    candidates = [_greedy(members), tuple(range(n)),
                  tuple(sorted(range(n), key=lambda i: -members[i][1]))]
    best = min(candidates, key=lambda o: (order_size(members, o, rules), inversions(o), o))
    return best, False, order_size(members, best, rules) == lower


def _greedy(members: Sequence[Tuple[int, int]]) -> Tuple[int, ...]:
    """An order that places, each time, the member (the first not placed of its kind) that
    leaves the smallest hole before it, the most aligned first among equals: the tail of a
    ``vec3`` gets the 4-byte member that fits it. Linear in members times kinds."""
    by_kind: Dict[Tuple[int, int], List[int]] = {}
    for i, (size, align) in enumerate(members):
        by_kind.setdefault((size, align), []).append(i)
    queues = list(by_kind.values())
    heads = [0] * len(queues)
    order: List[int] = []
    offset = 0
    for _ in members:
        best = None
        for j, queue in enumerate(queues):
            if heads[j] < len(queue):
                i = queue[heads[j]]
                size, align = members[i]
                key = (-offset % align, -align, i)
                if best is None or key < best[0]:
                    best = (key, j)
        assert best is not None
        (hole, _, i), j = best
        heads[j] += 1
        order.append(i)
        offset += hole + members[i][0]
    return tuple(order)


def _banded_best(members: Sequence[Tuple[int, int]], kinds: List[Tuple[int, int]],
                 queues: List[List[int]], big: int, budget: int) -> Tuple[Tuple[int, ...], bool]:
    """The best order within a band around the declaration (module docstring), widened
    where it holds no order and then everywhere, until the answer is proved best overall or
    the state budget would be spent; failing any order, the members by decreasing alignment.

    Widening the band over a stretch before the layer where it emptied leaves every layer
    before that stretch as it was, so the search goes on from there (``_Band``) instead of
    starting over: before, each of the hundreds of widenings of a record of thousands of
    fields recomputed every layer up to where it emptied, which made the search quadratic
    and spent the budget before any band reached the end. Only states computed are counted,
    so where the old search found its answer this one finds the same (the same widths give
    the same layers), and where the old one ran out of budget this one goes further: its
    answer is never worse by the documented key."""
    n = len(members)
    widths = [1] * (n + 1)  # widths[t]: how many members may be out of place after t
    found: Optional[Tuple[int, ...]] = None
    left = _band_budget(n)
    stretch: Dict[int, int] = {}  # layer where the band emptied -> stretch widened before it
    band = _Band(kinds, queues, n, big, budget)
    valid = 1  # layers[:valid] hold for the current widths
    while left > 0:
        emptied, used = band.forward(widths, valid, left)
        left -= used
        if emptied is None:
            break  # the budget ran out inside this band
        if emptied:
            # No order stays in the band: widen it over a stretch before the layer where it
            # emptied (a longer stretch each time the same layer empties again).
            stretch[emptied] = 2 * stretch.get(emptied, _WIDEN // 2)
            low = max(0, emptied - stretch[emptied])
            for t in range(low, emptied + 1):
                widths[t] += 1
            valid = max(1, low)  # layer t depends on widths[t] and on the layer before
            continue
        order, cost = band.best(widths)
        found = order
        narrowest = min(widths)
        # Leaving the band costs at least (narrowest + 1)² swaps; a band of width n // 2
        # holds every order.
        if cost < (narrowest + 1) ** 2 or narrowest >= n // 2:
            return order, True
        if band.states * _WIDER_COSTS > left:
            break  # a band one wider would not fit in what is left
        widths = [w + 1 for w in widths]
        valid = 1
    if found is not None:
        return found, False
    return tuple(sorted(range(n), key=lambda i: -members[i][1])), False


#: Stretch (in placements) over which a band that emptied is first widened.
_WIDEN = 16
#: States a band one wider needs, over the states of the band before it (measured: 5 to 8).
_WIDER_COSTS = 10


class _Band:
    """The orders with at most ``budget`` bytes of holes that never have more than
    ``widths[t]`` of the first ``t`` declared members unplaced after ``t`` placements, as
    layers of states (layer ``t``: the states after ``t`` placements). A state is (members
    placed per kind, holes, offset modulo ``big``). Layer ``t`` depends only on layer
    ``t - 1`` and ``widths[t]``, so after a widening from layer ``t`` on, the layers before
    it are kept."""

    def __init__(self, kinds: List[Tuple[int, int]], queues: List[List[int]], n: int,
                 big: int, budget: int) -> None:
        k = len(kinds)
        self.n, self.big, self.budget, self.queues = n, big, budget, queues
        self.sizes = [size for size, _ in kinds]
        self.aligns = [align for _, align in kinds]
        self.lengths = [len(queue) for queue in queues]
        kind_of = [0] * n
        for j, queue in enumerate(queues):
            for i in queue:
                kind_of[i] = j
        # before[i]: members of each kind declared before member i; declared[t]: of the first t.
        self.before: List[Tuple[int, ...]] = []
        counts = [0] * k
        self.declared = [tuple(counts)]
        for i in range(n):
            self.before.append(tuple(counts))
            counts[kind_of[i]] += 1
            self.declared.append(tuple(counts))
        self.start = ((0,) * k, 0, 0)
        self.layers: List[list] = [[self.start]]

    @property
    def states(self) -> int:
        return sum(len(layer) for layer in self.layers)

    def _placements(self, layer: Sequence[tuple], t: int, width: int):
        """``(state, kind, members of the kind placed, next state)`` for each placement
        after a state of ``layer`` (layer ``t``) that stays within ``width``, state by
        state. One generator per layer, not per state: this runs for every state of every
        layer (a generator per state was two thirds of ``explain --suggest`` on 40,000
        fields)."""
        sizes, aligns, lengths, big, budget = self.sizes, self.aligns, self.lengths, self.big, self.budget
        ahead = self.declared[t + 1]
        kinds = range(len(ahead))
        for state in layer:
            placed, holes, offset = state
            out_of_place = 0
            for a, p in zip(ahead, placed):
                if a > p:
                    out_of_place += a - p
            for j in kinds:
                count = placed[j]
                if count == lengths[j]:
                    continue
                hole = -offset % aligns[j]
                if holes + hole > budget or out_of_place - (ahead[j] > count) > width:
                    continue
                yield state, j, count, (placed[:j] + (count + 1,) + placed[j + 1:], holes + hole,
                                        (offset + hole + sizes[j]) % big)

    def forward(self, widths: Sequence[int], valid: int, max_states: int
                ) -> Tuple[Optional[int], int]:
        """Recompute the layers from ``valid`` on: ``(0, states)`` when every layer holds
        a state, ``(t, states)`` when layer ``t`` is the first empty one, ``(None, states)``
        when more than ``max_states`` new states would be needed."""
        del self.layers[valid:]
        used = 0
        for t in range(valid - 1, self.n):
            layer = list(dict.fromkeys(
                nxt for _, _, _, nxt in self._placements(self.layers[t], t, widths[t + 1])))
            if not layer:
                return t + 1, used
            used += len(layer)
            if used > max_states:
                return None, used
            self.layers.append(layer)
        return 0, used

    def _steps(self, state, t: int, width: int, onto: Dict[tuple, int]):
        """The placements after ``state`` into the states of ``onto``, with the member
        placed and the swaps it adds: the members declared before it and not yet placed end
        up after it."""
        placed = state[0]
        queues, before = self.queues, self.before
        for _, j, count, nxt in self._placements((state,), t, width):
            if nxt in onto:
                member = queues[j][count]
                earlier = before[member]
                yield member, member - sum(p if p < e else e for p, e in zip(placed, earlier)), nxt

    def best(self, widths: Sequence[int]) -> Tuple[Tuple[int, ...], int]:
        """The best complete order through the layers and its swaps (``forward`` reached
        the end)."""
        n, queues, before = self.n, self.queues, self.before
        # Costs to go, layer by layer backwards; only the layer after is needed to compute
        # one, and the walk forward below recomputes the few it looks at along the way.
        after: Dict[tuple, int] = {state: 0 for state in self.layers[n]}
        kept: List[Dict[tuple, int]] = [after]
        for t in range(n - 1, -1, -1):
            here: Dict[tuple, int] = {}
            for state, j, count, nxt in self._placements(self.layers[t], t, widths[t + 1]):
                rest = after.get(nxt)
                if rest is None:
                    continue  # no complete order through it
                member = queues[j][count]
                cost = rest + member
                for p, e in zip(state[0], before[member]):
                    cost -= p if p < e else e
                known = here.get(state)
                if known is None or cost < known:
                    here[state] = cost
            after = here
            kept.append(here)
        kept.reverse()  # kept[t]: costs to go of layer t
        order = []
        state = self.start
        for t in range(n):
            goal = kept[t][state]
            following = kept[t + 1]
            # The lowest-numbered member whose placement keeps to the best cost (members of
            # different kinds differ: a tie on the member never happens).
            chosen = None
            for member, swaps, nxt in self._steps(state, t, widths[t + 1], following):
                if following[nxt] + swaps == goal and (chosen is None or member < chosen[0]):
                    chosen = member, nxt
            member, state = chosen
            order.append(member)
        return tuple(order), kept[0][self.start]


def _band(kinds: List[Tuple[int, int]], queues: List[List[int]], big: int) -> Callable[[State], bool]:
    """Whether a state lies in the band every optimal order stays in (module docstring)."""
    half = big // 2

    def queue(kind: Tuple[int, int]) -> Tuple[int, List[int]]:
        if kind in kinds:
            j = kinds.index(kind)
            return j, queues[j]
        return -1, []

    e_at, e_members = queue((0, big))
    f_at, f_members = queue((half, half))
    q_at, q_members = queue((0, half))
    n_f = len(f_members)
    # t[e]: F members declared before the e-th E member (1-based; t[0] = 0, t[E+1] = n_f).
    t = [0] + [bisect_left(f_members, m) for m in e_members] + [n_f]
    low = [max(0, t[e] - 1) if e else 0 for e in range(len(e_members) + 1)]
    high = [min(n_f, t[e + 1] + 1) if e < len(e_members) else n_f for e in range(len(e_members) + 1)]
    # Declared position of each Q member among the E and F members (1-based).
    q_e = [0] + [bisect_left(e_members, m) for m in q_members]
    q_f = [0] + [bisect_left(f_members, m) for m in q_members]
    n_q = len(q_members)

    def inside(state: State) -> bool:
        placed = state[0]
        e = placed[e_at] if e_at >= 0 else 0
        f = placed[f_at] if f_at >= 0 else 0
        q = placed[q_at] if q_at >= 0 else 0
        if not low[e] <= f <= high[e]:
            return False
        # The last Q placed is at most one step past (e, f), the next at most one before.
        if q and max(0, q_e[q] - e) + max(0, q_f[q] - f) > 1:
            return False
        if q < n_q and max(0, e - q_e[q + 1]) + max(0, f - q_f[q + 1]) > 1:
            return False
        return True

    return inside


def _search(
    kinds: List[Tuple[int, int]], queues: List[List[int]], n: int, big: int, budget: int,
    allowed: Optional[Callable[[State], bool]],
) -> Optional[Tuple[int, ...]]:
    """The best order with at most ``budget`` bytes of holes through the ``allowed`` states
    (all of them when None), or None if there is none."""
    k = len(kinds)
    # before[j][i]: members of kind j declared before member i.
    before = [[bisect_left(queue, i) for i in range(n)] for queue in queues]

    def moves(state: State):
        placed, holes = state
        offset = (sum(c * kinds[j][0] for j, c in enumerate(placed)) + holes) % big
        for j in range(k):
            if placed[j] < len(queues[j]):
                member = queues[j][placed[j]]
                hole = -offset % kinds[j][1]
                if holes + hole <= budget:
                    nxt = (placed[:j] + (placed[j] + 1,) + placed[j + 1:], holes + hole)
                    if allowed is None or allowed(nxt):
                        # Members declared before this one and not yet placed end up after it.
                        cost = sum(max(0, before[l][member] - placed[l]) for l in range(k))
                        yield member, cost, nxt

    # Reachable states, layer by layer (a layer = members placed), then costs to go backwards:
    # iterative, so records with thousands of fields need no deep recursion.
    start: State = ((0,) * k, 0)
    layers = [[start]]
    for _ in range(n):
        layers.append(list(dict.fromkeys(s for state in layers[-1] for _, _, s in moves(state))))
    cost_to_go: Dict[State, float] = {state: 0 for state in layers[n]}
    for layer in reversed(layers[:n]):
        for state in layer:
            cost_to_go[state] = min(
                (cost + cost_to_go[s] for _, cost, s in moves(state)), default=_INF
            )
    if cost_to_go[start] == _INF:
        return None
    order = []
    state = start
    for _ in range(n):
        goal = cost_to_go[state]
        member, _, state = min(
            (m, c, s) for m, c, s in moves(state) if c + cost_to_go[s] == goal
        )
        order.append(member)
    return tuple(order)


# --- advice for a schema record --------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """The suggested order of one record and what it saves."""

    type: SchemaType
    #: Declaration indices in the suggested order.
    order: Tuple[int, ...]
    size: int
    new_size: int
    #: Whether the order is proved the best by the documented key (module docstring).
    exact: bool = True
    #: Whether ``new_size`` is proved the smallest of any order (always, but for very large
    #: records whose member sizes are not multiples of their alignments).
    smallest: bool = True

    @property
    def saved(self) -> int:
        return self.size - self.new_size

    @property
    def changed(self) -> bool:
        return self.order != tuple(range(len(self.order)))

    @property
    def field_names(self) -> Tuple[str, ...]:
        fields = self.type.elttype.fields  # type: ignore[union-attr]
        return tuple(fields[i][0] for i in self.order)


def _members(st: SchemaType) -> Optional[List[Tuple[int, int]]]:
    """The ``(size, align)`` of a record's fields under its own rule set (``None`` for a
    variant: its arguments' order is its meaning; and under rules of registers, whose
    placement those pairs do not describe: ``_validate``)."""
    if not isinstance(st.layout, RecordLayout) or not isinstance(st.decl, RecordDecl):
        return None
    if _rules_of(st).register:
        return None
    assert isinstance(st.elttype, TRecord)
    return [member_size_align(t, st.rules) for _, t in st.elttype.fields]


def _rules_of(st: SchemaType) -> RuleSet:
    return rules_named(st.rules) or DEFAULT_RULES


def unadvised(st: SchemaType) -> Optional[str]:
    """Why a record gets no reorder advice (its rules pack registers), or ``None``."""
    rules = _rules_of(st)
    if rules.register and isinstance(st.decl, RecordDecl):
        return (f"no reorder advice under the {rules.name} rules: a member's place depends "
                f"on the {rules.register}-byte registers, not on its size and alignment alone")
    return None


def smallest_size_of(st: SchemaType) -> Optional[Tuple[int, bool]]:
    """``(size, proved)``: the smallest size of any field order of a record that is known
    without suggesting an order (arithmetic, when every member's size is a multiple of its
    alignment), or else the size of the suggested order and whether it is proved the
    smallest; ``None`` for a variant."""
    members = _members(st)
    if members is None:
        return None
    if not members or _whole_kinds(members):
        return smallest_size(members, _rules_of(st)), True
    advice = advise(st)
    assert advice is not None
    return advice.new_size, advice.smallest


def advise(st: SchemaType) -> Optional[Advice]:
    """The advice for a record (``None`` for a variant)."""
    members = _members(st)
    if members is None:
        return None
    rules = _rules_of(st)
    order, exact, smallest = _suggest(members, rules)
    return Advice(st, order, st.layout.size, order_size(members, order, rules), exact, smallest)
