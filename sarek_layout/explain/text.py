"""The pahole-style text report of a member walk, shared by ``layout`` and ``explain``.

``layout`` prints each type's immediate members (``expand=False``); ``explain`` opens nested
records and union arms in place (``expand=True``), as ``pahole --expand_types`` does. Offsets
are absolute at every depth, every hole is printed with its size, and the footer gives the
size, the alignment, the bytes that hold data and the padding.
"""

from __future__ import annotations

from typing import List, Sequence

from .walk import HOLE, TAIL, Arm, Hole, Item, Member, TypeWalk

__all__ = ["render_walk", "footer_lines"]

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


def _item_lines(items: Sequence[Item], indent: str, expand: bool) -> List[str]:
    lines: List[str] = []
    for item in items:
        if isinstance(item, Hole):
            # A compact report shows a nested record as one line, so its inner holes stay
            # inside it; the footer still counts them.
            lines.append(_hole_line(item, indent))
        elif expand and item.is_record:
            lines.append(f"{indent}{item.spelling} {{")
            lines.extend(_item_lines(item.items, indent + INDENT, expand))
            lines.append(_with_comment(f"{indent}}} {item.name};", _place(item.offset, item.size)))
        else:
            text = f"{indent}{item.spelling:<12} {item.name};"
            lines.append(_with_comment(text, _place(item.offset, item.size)))
    return lines


def _arm_summary(arm: Arm) -> str:
    head = f"{arm.name} (tag {arm.tag}): "
    head += f"payload {_plural(arm.payload_size, 'byte')}" if arm.payload_size else "no payload"
    return head + (", the largest" if arm.waste == 0 else f", wastes {arm.waste} against the largest")


def _arm_lines(walk: TypeWalk, arm: Arm, indent: str, expand: bool) -> List[str]:
    members = [i for i in arm.items if isinstance(i, Member)]
    if not members:
        return [f"{indent}/* {_arm_summary(arm)} */"]
    lines = [_with_comment(f"{indent}struct {{", f"/* {_arm_summary(arm)} */")]
    lines.extend(_item_lines(arm.items, indent + INDENT, expand))
    place = _place(walk.payload_offset or 0, arm.payload_size)
    lines.append(_with_comment(f"{indent}}} {arm.name}_v;", place))
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


def render_walk(walk: TypeWalk, expand: bool, extra: Sequence[str] = ()) -> List[str]:
    """The lines of one type's block; ``extra`` lines go just before the closing brace."""
    st = walk.type
    lines = [f"{walk.kind} {st.qualified_name} {{  /* C: {st.c_name} */"]
    lines.extend(_item_lines(walk.items, INDENT, expand))
    if walk.kind == "variant":
        region = walk.size - (walk.payload_offset or 0)
        lines.append(_with_comment(f"{INDENT}union {{", _place(walk.payload_offset or 0, region)))
        for arm in walk.arms:
            lines.extend(_arm_lines(walk, arm, INDENT * 2, expand))
        lines.append(f"{INDENT}}} data;")
    lines.extend(footer_lines(walk))
    lines.extend(f"{INDENT}{line}" for line in extra)
    lines.append("};")
    return lines
