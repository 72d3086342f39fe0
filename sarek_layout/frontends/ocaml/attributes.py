"""The attributes that make an OCaml type declaration a Sarek type, and their misspellings.

Sarek's PPX acts on ``[@@sarek.type]`` and ``[@@sarek.type_private]`` on a type declaration of
a structure (``Context_free.Rule.attr_str_type_decl`` in ``sarek/ppx/Sarek_ppx.ml``) and, like
every ppxlib rewriter, leaves any other attribute alone: a declaration marked
``[@@sarek.typ]`` compiles and is silently no Sarek type. So a near miss is refused here, at
its place: a case difference (``[@@Sarek.Type]``) or one or two edits (``[@@sarek_type]``,
``[@@sarek.types]``, ``[@@sarek.tpye]``), whatever its number of ``@``. No attribute that
Sarek or OCaml defines is that close (``sarek.module``, ``sarek.inline``, ``ocaml.…``).

The messages for a right name in a wrong place (``[@sarek.type]``, ``[@@@sarek.type]``, on
something that is not a type declaration) are here too, so all of them read alike.
"""

from __future__ import annotations

from typing import Dict, Optional

__all__ = [
    "SAREK_ATTRIBUTES",
    "NearMisses",
    "edit_distance",
    "misplaced_message",
    "ITEM_LEVEL",
    "IN_TYPE",
    "ELSEWHERE",
    "near_miss_message",
]

#: Item attributes that make a type declaration part of the schema.
SAREK_ATTRIBUTES = frozenset({"sarek.type", "sarek.type_private"})

#: Most edits between a near miss and the attribute it misspells.
MAX_EDITS = 2

_TARGETS = ("sarek.type", "sarek.type_private")


def edit_distance(a: str, b: str, limit: int) -> int:
    """Edits (insert, delete, substitute, swap two neighbours) from ``a`` to ``b``, or
    ``limit + 1`` once it is certain to exceed ``limit``. Rows are cut to the band of width
    ``2 * limit + 1`` around the diagonal: O(len * limit), never O(len²)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    big = limit + 1
    before: Optional[list] = None  # the row two back, for swaps
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [big] * (len(b) + 1)
        current[0] = i
        low, high = max(1, i - limit), min(len(b), i + limit)
        for j in range(low, high + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if (before is not None and j > 1 and a[i - 1] == b[j - 2]
                    and a[i - 2] == b[j - 1]):
                best = min(best, before[j - 2] + 1)
            current[j] = min(best, big)
        if min(current[max(0, low - 1): high + 1]) > limit:
            return big
        before, previous = previous, current
    return min(previous[len(b)], big)


#: Lengths a near miss can have (an id of another length is none, without a look).
_LENGTHS = frozenset(n for t in _TARGETS for n in range(len(t) - MAX_EDITS, len(t) + MAX_EDITS + 1))

#: Distinct names remembered (a file may hold the same attribute thousands of times; one of
#: distinct names is judged name by name, in bounded memory).
_REMEMBERED = 4096


class NearMisses:
    """Which Sarek attribute an attribute name misspells, if any."""

    def __init__(self) -> None:
        self._seen: Dict[str, Optional[str]] = {}

    def target(self, attr_id: str) -> Optional[str]:
        if attr_id in SAREK_ATTRIBUTES or len(attr_id) not in _LENGTHS:
            return None
        if attr_id in self._seen:
            return self._seen[attr_id]
        target = _misspelt(attr_id)
        if len(self._seen) < _REMEMBERED:
            self._seen[attr_id] = target
        return target


def _misspelt(attr_id: str) -> Optional[str]:
    lower = attr_id.lower()
    for target in _TARGETS:
        if lower == target:
            return target
    for target in _TARGETS:
        if edit_distance(lower, target, MAX_EDITS) <= MAX_EDITS:
            return target
    return None


def near_miss_message(ats: str, attr_id: str, target: str) -> str:
    return (
        f"[{ats}{attr_id}] is not [@@{target}]: Sarek ignores an attribute it does not know, "
        f"so this would be no Sarek type; write [@@{target}] after the type declaration"
    )


#: Where a misplaced ``[@@sarek.type]`` is, for ``misplaced_message``.
ITEM_LEVEL, IN_TYPE, ELSEWHERE = "item", "type", "elsewhere"


def misplaced_message(ats: str, attr_id: str, where: str) -> str:
    """``[@@sarek.type]`` (or ``[@…]``, ``[@@@…]``) where Sarek does not read it: ``where``
    is ``ITEM_LEVEL`` (on another item), ``IN_TYPE`` (inside a type's definition) or
    ``ELSEWHERE`` (in an expression, a class or an extension)."""
    if ats == "@":
        return (
            f"[@{attr_id}] has one '@', so it attaches to a field, constructor or type "
            f"expression; write [@@{attr_id}] after the type declaration"
        )
    if ats == "@@@":
        return (
            f"floating attribute [@@@{attr_id}] marks no declaration; write [@@{attr_id}] "
            f"after a type declaration"
        )
    read_on = (f"[@@{attr_id}] is read only on type declarations (of the file or of a "
               f"module's struct … end)")
    if where == ITEM_LEVEL:
        return f"{read_on}, and it is not on a type declaration"
    if where == IN_TYPE:
        return (f"{read_on}, and this one is inside a type's definition; write it after the "
                f"whole declaration")
    return (
        f"{read_on}, and this one is inside an expression, a class or an extension; move the "
        f"type to the top level of the file or into a module"
    )
