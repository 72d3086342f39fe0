"""The pahole-style text report of a member walk, shared by ``layout`` and ``explain``.

``layout`` prints each type's immediate members (``expand=False``); ``explain`` opens nested
records and union arms in place (``expand=True``), as ``pahole --expand_types`` does, as long
as a type's block stays within ``EXPAND_BUDGET`` lines: a nested record that would exceed it
stays closed (its own block shows it), so records nested many levels deep cannot make the
report exponentially long. Offsets are absolute at every depth, every hole is printed with
its size, and the footer gives the size, the alignment, the bytes that hold data and the
padding.
"""

from __future__ import annotations

import weakref
from typing import List, Sequence

from ..ir.schema import Hole as ModelHole
from ..ir.schema import SchemaType
from ..targets.naming import arm_name
from .walk import HOLE, TAIL, Arm, Hole, Item, Member, TypeWalk

__all__ = ["render_walk", "footer_lines", "EXPAND_BUDGET"]

#: Most lines one type's block may take with nested records opened.
EXPAND_BUDGET = 2000

INDENT = "    "
#: Column of the ``/* offset size */`` comments (wider lines push it right).
COMMENT_COLUMN = 42


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _with_comment(text: str, comment: str) -> str:
    return f"{text:<{COMMENT_COLUMN - 1}} {comment}"


def _place(offset: int, size: int) -> str:
    return f"/* {offset:5d} {size:5d} */"


def _hole_line(hole: Hole, indent: str) -> str:
    if hole.kind == HOLE:
        what = f"{hole.size} byte hole"
    elif hole.kind == TAIL:
        what = f"{_plural(hole.size, 'byte')} of tail padding"
    else:
        what = f"{_plural(hole.size, 'byte')} unused by this arm"
    return f"{indent}/* XXX {what} */"


#: Lines each record type takes opened, for as long as the type lives. Shared by every
#: block: a per-block memo recounted the whole chain below each type, so a report of records
#: nested N deep counted N^2 / 2 types (the nesting-depth rows of docs/benchmarks.md).
_LINES: "weakref.WeakKeyDictionary[SchemaType, int]" = weakref.WeakKeyDictionary()


def opened_lines(record: SchemaType) -> int:
    """Lines ``record`` takes opened (its members, holes and its braces), counted once per
    record type, iteratively (records nest up to 100 deep)."""
    lines = _LINES
    todo = [record]
    while todo:
        st = todo[-1]
        if st in lines:
            todo.pop()
            continue
        pending = [m.record for m in st.members
                   if m.record is not None and not m.dims and m.record not in lines]
        if pending:
            todo.extend(pending)
            continue
        todo.pop()
        # An array of records stays closed: one line, and a line per kind of gap inside it.
        lines[st] = 2 + sum(
            1 if isinstance(i, ModelHole) or i.record is None
            else len(i.dims) + 2 if i.dims else lines[i.record]
            for i in st.items
        )
    return lines[record]


class _Opener:
    """Decides which nested records a block opens: each costs the lines it would print."""

    def __init__(self, budget: int) -> None:
        self.left = budget

    def cost(self, record: SchemaType) -> int:
        return opened_lines(record)

    def open(self, member: Member) -> bool:
        cost = self.cost(member.record)  # type: ignore[arg-type]
        if cost > self.left:
            return False
        self.left -= cost
        return True


def _item_lines(items: Sequence[Item], indent: str, opener) -> List[str]:
    lines: List[str] = []
    for item in items:
        if isinstance(item, Hole):
            # A compact report shows a nested record as one line, so its inner holes stay
            # inside it; the footer still counts them.
            lines.append(_hole_line(item, indent))
        elif opener is not None and item.is_record and opener.open(item):
            lines.append(f"{indent}{item.spelling} {{")
            lines.extend(_item_lines(item.items, indent + INDENT, opener))
            lines.append(_with_comment(f"{indent}}} {item.name};", _place(item.offset, item.size)))
        else:
            text = f"{indent}{item.spelling:<12} {item.name};"
            lines.append(_with_comment(text, _place(item.offset, item.size)))
            lines.extend(_inner_padding_lines(item, indent))
    return lines


def _inner_padding_lines(member: Member, indent: str) -> List[str]:
    """The padding inside an array, vector or matrix, once per kind of gap with how many
    times it occurs (never one line per element)."""
    lines = []
    for size, times, where in member.inner_padding():
        if where == "stride":
            what = f"{_plural(size, 'byte')} of stride padding"
        else:
            what = f"{_plural(size, 'byte')} of padding inside each {member.record.qualified_name}"  # type: ignore[union-attr]
        lines.append(f"{indent}/* XXX {what}{f' × {times}' if times > 1 else ''} */")
    return lines


def _arm_summary(arm: Arm) -> str:
    head = f"{arm.name} (tag {arm.tag}): "
    head += f"payload {_plural(arm.payload_size, 'byte')}" if arm.payload_size else "no payload"
    return head + (", the largest" if arm.waste == 0 else f", wastes {arm.waste} against the largest")


def _arm_lines(walk: TypeWalk, arm: Arm, indent: str, opener) -> List[str]:
    members = [i for i in arm.items if isinstance(i, Member)]
    if not members:
        return [f"{indent}/* {_arm_summary(arm)} */"]
    if len(members) == 1:
        # One argument is the arm itself (the walk names it <Ctor>_v), as the generated
        # headers declare it, not a struct of one `_0`.
        return [f"{indent}/* {_arm_summary(arm)} */"] + _item_lines(arm.items, indent, opener)
    lines = [_with_comment(f"{indent}struct {{", f"/* {_arm_summary(arm)} */")]
    lines.extend(_item_lines(arm.items, indent + INDENT, opener))
    place = _place(walk.payload_offset or 0, arm.payload_size)
    lines.append(_with_comment(f"{indent}}} {arm_name(arm.name)};", place))
    return lines


def footer_lines(walk: TypeWalk, indent: str = INDENT) -> List[str]:
    totals = (
        f"data: {_plural(walk.data_bytes, 'byte')}, padding: {_plural(walk.padding_bytes, 'byte')} "
        f"({walk.padding_percent:.1f}%)"
    )
    if walk.kind == "record":
        return [f"{indent}/* size: {walk.size}, align: {walk.align}, {totals} */"]
    return [
        f"{indent}/* size: {walk.size}, align: {walk.align}, payload at {walk.payload_offset}, "
        f"largest payload: {walk.largest_payload} */",
        f"{indent}/* {totals} */",
    ]


def _enum_lines(walk: TypeWalk, extra: Sequence[str]) -> List[str]:
    st = walk.type
    base = st.elttype.base.name  # type: ignore[union-attr]
    lines = [f"enum {st.qualified_name} : {base} {{  /* C: {st.c_name} */"]
    lines += [f"{INDENT}{name} = {value}," for name, value in st.elttype.values]  # type: ignore[union-attr]
    lines.append(f"{INDENT}/* size: {walk.size}, align: {walk.align} */")
    lines.extend(f"{INDENT}{line}" for line in extra)
    lines.append("};")
    return lines


def _rules_note(st: SchemaType) -> str:
    """Which rule set lays the type out, when it is not Sarek's own (SPEC §1b)."""
    return "" if st.rules == "c" else f", {st.rules} rules"


def render_walk(walk: TypeWalk, expand: bool, extra: Sequence[str] = (),
                budget: int = EXPAND_BUDGET) -> List[str]:
    """The lines of one type's block; ``extra`` lines go just before the closing brace.
    With ``expand``, nested records are opened while the block stays within ``budget``."""
    st = walk.type
    if walk.kind == "enum":
        return _enum_lines(walk, extra)
    opener = _Opener(budget) if expand else None
    lines = [f"{walk.kind} {st.qualified_name} {{  /* C: {st.c_name}{_rules_note(st)} */"]
    lines.extend(_item_lines(walk.items, INDENT, opener))
    if walk.kind == "variant":
        region = walk.size - (walk.payload_offset or 0)
        lines.append(_with_comment(f"{INDENT}union {{", _place(walk.payload_offset or 0, region)))
        for arm in walk.arms:
            lines.extend(_arm_lines(walk, arm, INDENT * 2, opener))
        lines.append(f"{INDENT}}} data;")
    lines.extend(footer_lines(walk))
    lines.extend(f"{INDENT}{line}" for line in extra)
    lines.append("};")
    return lines
