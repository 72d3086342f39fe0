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
holes so far)* — a handful of kinds, whatever the sizes — and covers every order. Within a
kind, members are interchangeable for the size and keeping them in declaration order never
adds an inversion, so the state also fixes which member comes next of each kind, and the
inversions it adds.

For Sarek's types the minimum is always ``align_up(sum of sizes, A)`` (every size is a
multiple of its alignment, so decreasing alignment leaves no hole); the search starts from
that bound and only widens it for inputs where it cannot be met.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..ir.schema import RecordDecl, SchemaType
from ..ir.types import TRecord
from ..layout.core import RecordLayout, align_up, member_size_align

__all__ = ["Advice", "best_order", "order_size", "inversions", "advise"]

_INF = float("inf")


def order_size(members: Sequence[Tuple[int, int]], order: Sequence[int]) -> int:
    """Size of a record whose ``(size, align)`` members are placed in ``order`` (C rules)."""
    offset = 0
    max_align = 1
    for i in order:
        size, align = members[i]
        offset = align_up(offset, align) + size
        max_align = max(max_align, align)
    return align_up(offset, max_align)


def inversions(order: Sequence[int]) -> int:
    """Pairs of members whose relative order differs from declaration order."""
    return sum(1 for a in range(len(order)) for b in range(a + 1, len(order)) if order[a] > order[b])


def best_order(members: Sequence[Tuple[int, int]]) -> Tuple[int, ...]:
    """The suggested order (declaration indices) of ``(size, align)`` members; see the module doc."""
    n = len(members)
    if n == 0:
        return ()
    for size, align in members:
        if align <= 0 or align & (align - 1):
            raise ValueError(f"alignment {align} is not a power of two")
    big = max(align for _, align in members)
    total = sum(size for size, _ in members)
    by_kind: Dict[Tuple[int, int], List[int]] = {}
    for i, (size, align) in enumerate(members):
        by_kind.setdefault((size % big, align), []).append(i)
    kinds = list(by_kind)
    budget = align_up(total, big) - total
    while True:
        order = _search(kinds, [by_kind[k] for k in kinds], n, big, budget)
        if order is not None:
            return order
        budget += big  # the next possible size; declaration order bounds the loop


def _search(
    kinds: List[Tuple[int, int]], queues: List[List[int]], n: int, big: int, budget: int
) -> Optional[Tuple[int, ...]]:
    """The best order with at most ``budget`` bytes of holes, or None if there is none."""
    k = len(kinds)
    # before[j][i]: members of kind j declared before member i.
    before = [[bisect_left(queue, i) for i in range(n)] for queue in queues]

    def moves(state):
        placed, holes = state
        offset = (sum(c * kinds[j][0] for j, c in enumerate(placed)) + holes) % big
        for j in range(k):
            if placed[j] < len(queues[j]):
                member = queues[j][placed[j]]
                hole = -offset % kinds[j][1]
                if holes + hole <= budget:
                    # Members declared before this one and not yet placed end up after it.
                    cost = sum(max(0, before[l][member] - placed[l]) for l in range(k))
                    nxt = placed[:j] + (placed[j] + 1,) + placed[j + 1:]
                    yield member, cost, (nxt, holes + hole)

    # Reachable states, layer by layer (a layer = members placed), then costs to go backwards:
    # iterative, so records with thousands of fields need no deep recursion.
    start = ((0,) * k, 0)
    layers = [[start]]
    for _ in range(n):
        layers.append(list(dict.fromkeys(s for state in layers[-1] for _, _, s in moves(state))))
    cost_to_go: Dict[tuple, float] = {state: 0 for state in layers[n]}
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


def advise(st: SchemaType) -> Optional[Advice]:
    """The advice for a record (``None`` for a variant: its arguments' order is its meaning)."""
    if not isinstance(st.layout, RecordLayout) or not isinstance(st.decl, RecordDecl):
        return None
    assert isinstance(st.elttype, TRecord)
    members = [member_size_align(t) for _, t in st.elttype.fields]
    order = best_order(members)
    return Advice(st, order, st.layout.size, order_size(members, order))
