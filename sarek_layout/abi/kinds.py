"""The changes ``diff`` finds in SPEC §1b's member kinds: a member's repetitions (fixed
arrays, vectors, matrices) and an enum's base and values.

A member's repetitions are its ``dims``: ``(kind, count, stride)`` per level, outermost
first. Element ``(i, j, …)`` of a member sits at ``offset + i·stride₀ + j·stride₁ + …``, so
two members read the same elements from the same bytes exactly when their counts and
strides agree; a member that only gained elements at unchanged strides, in bytes OLD left
unused, is read right by both sides (the additive convention of ``rules``). Everything here
is read from the member model: no count, stride or offset is recomputed.

An enum value is its number: a reader maps the number it finds to the names its own enum
gives that number. So a value is misread when the writer's names for a number and the
reader's share none (a renamed, renumbered, removed or reassigned value), and an OLD reader
meeting a number it has no name for sees an unknown value, never another one.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..ir.schema import ARRAY, MATRIX, VECTOR, Member, SchemaType, SourceLocation
from .change import Change

__all__ = ["dims_change", "same_dims", "enum_changes", "enum_shape"]

#: The rule a changed count is reported under, by the kind of the level it changed in.
_COUNT_RULES = {ARRAY: "array-count-changed", VECTOR: "vector-width-changed",
                MATRIX: "matrix-shape-changed"}


def same_dims(m: Member, n: Member) -> bool:
    """Whether two members repeat their elements alike (kinds, counts and strides)."""
    return m.dims == n.dims


def _level_kinds(m: Member) -> List[str]:
    """The kind of each level, a matrix's rows (its columns' components) counted as the
    matrix's."""
    kinds: List[str] = []
    for d in m.dims:
        kinds.append(MATRIX if d.kind == VECTOR and kinds and kinds[-1] == MATRIX else d.kind)
    return kinds


def dims_change(type_name: str, path: str, m: Member, n: Member, room_end: int,
                at: Optional[SourceLocation]) -> Optional[Change]:
    """The change of one member's repetitions from OLD ``m`` to NEW ``n`` (``None`` when
    they are alike); ``room_end`` ends the OLD bytes free after ``m``."""
    if m.dims == n.dims:
        return None
    if len(m.dims) != len(n.dims):
        return Change("member-dims-changed", type_name, path, "dimensions changed",
                      m.spelling, n.spelling, at)
    counts = [(d.count, e.count) for d, e in zip(m.dims, n.dims)]
    strides = [(d.stride, e.stride) for d, e in zip(m.dims, n.dims)]
    if all(old == new for old, new in strides):
        if all(old == new for old, new in counts):
            return Change("member-form-changed", type_name, path,
                          "changed between a fixed array, a vector and a matrix of the same "
                          "elements", m.spelling, n.spelling, at)
        if (all(new >= old for old, new in counts) and m.offset == n.offset
                and n.end <= room_end):
            return Change("elements-added", type_name, path,
                          "elements added in bytes OLD left unused", m.spelling, n.spelling, at)
    for kind, (old, new) in zip(_level_kinds(m), counts):
        if old != new:
            return Change(_COUNT_RULES[kind], type_name, path, f"{_WHAT[kind]} changed",
                          m.spelling, n.spelling, at)
    # Same counts, another stride somewhere: the outermost one that moved.
    old, new = next(pair for pair in strides if pair[0] != pair[1])
    return Change("stride-changed", type_name, path, f"stride of {m.spelling} changed", old,
                  new, at)


_WHAT = {ARRAY: "element count", VECTOR: "vector width", MATRIX: "matrix shape"}


# --- enums -------------------------------------------------------------------------------------


def enum_shape(st: SchemaType) -> tuple:
    """What makes two enums read alike: their base and their values."""
    return (st.elttype.base.name, st.elttype.values)  # type: ignore[union-attr]


def _renamed(old_values: Dict[str, int], new_values: Dict[str, int]) -> Dict[str, str]:
    """OLD value -> NEW value that is it renamed: OLD's name is gone, and a name only NEW has
    carries its number."""
    new_only = [v for v in new_values if v not in old_values]
    renamed: Dict[str, str] = {}
    for value, number in old_values.items():
        if value in new_values:
            continue
        twin = next((v for v in new_only if new_values[v] == number and v not in renamed.values()),
                    None)
        if twin is not None:
            renamed[value] = twin
    return renamed


def _added(name: str, value: str, number: int, old_values: Dict[str, int],
           new_values: Dict[str, int], new_base, at: Optional[SourceLocation]) -> Change:
    """The line of a value only NEW has: a number OLD did not use, another name of a number
    NEW keeps for the same value, or a number OLD gave a value NEW moved or dropped."""
    owners = sorted(v for v, x in old_values.items() if x == number)
    kept = [v for v in owners if new_values.get(v) == number]
    if not owners:
        low, high = new_base.int_range
        return Change("enum-value-added", name, value,
                      f"value added with a number OLD did not use ({new_base.name} has room "
                      f"for it: {low}..{high})", None, number, at)
    if kept:
        return Change("enum-value-added", name, value,
                      f"value added as another name of {kept[0]} (the same number)", None,
                      number, at)
    return Change("enum-value-inserted", name, value,
                  f"value added with the number OLD gave {owners[0]}", None, number, at)


def enum_changes(name: str, old: SchemaType, new: SchemaType,
                 at: Optional[SourceLocation]) -> List[Change]:
    """Every change of base and values from the enum ``old`` to ``new``; each value's line
    points at NEW's declaration of it, else OLD's."""
    out: List[Change] = []
    old_base, new_base = old.elttype.base, new.elttype.base  # type: ignore[union-attr]
    if old_base.name != new_base.name:
        rule = "enum-base-resized" if old_base.size != new_base.size else "enum-base-signedness-changed"
        out.append(Change(rule, name, "", "base changed", old_base.name, new_base.name, at))
    old_values = dict(old.elttype.values)  # type: ignore[union-attr]
    new_values = dict(new.elttype.values)  # type: ignore[union-attr]
    places = {v.name: v.location for v in getattr(old.decl, "values", ())}
    places.update((v.name, v.location) for v in getattr(new.decl, "values", ()))
    renamed = _renamed(old_values, new_values)
    for value, number in old_values.items():
        if value in renamed:
            out.append(Change("enum-value-renamed", name, value, "value renamed", value,
                              renamed[value], places.get(renamed[value], at)))
        elif value not in new_values:
            out.append(Change("enum-value-removed", name, value, "value removed", number, None,
                              places.get(value, at)))
        elif new_values[value] != number:
            out.append(Change("enum-value-renumbered", name, value, "value renumbered", number,
                              new_values[value], places.get(value, at)))
    renamed_to = set(renamed.values())
    for value, number in new_values.items():
        if value not in old_values and value not in renamed_to:
            out.append(_added(name, value, number, old_values, new_values, new_base,
                              places.get(value, at)))
    return out
