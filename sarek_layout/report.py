"""Views of a laid-out schema for people and programs: the pahole-style text report and the
SPEC §5 JSON document (with each type's ``layout_id``, ``layout.fingerprint``). Both print the member model and the layout core's numbers; the text
report is the member walk of ``explain.walk``, shared with ``explain`` and its picture.

The JSON document lists every scalar leaf, and leaves multiply with nesting (a record of two
copies of a record of two copies… has 2^depth of them): the document is refused, with the
count and what to do, beyond ``MAX_JSON_LEAVES``, and ``leaves=False`` leaves them out
(members only: each constructor then lists its ``args``).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Sequence

from .errors import UsageError
from .ir.schema import Member, SchemaType
from .layout.core import Leaf, RecordLayout, VariantLayout
from .layout.fingerprint import layout_id_hex

__all__ = ["schema_json", "text_report", "leaf_count", "MAX_JSON_LEAVES"]

#: Most leaves one ``layout --json`` document lists (tens of megabytes of JSON).
MAX_JSON_LEAVES = 1_000_000


def _leaf_json(leaf: Leaf) -> Dict[str, Any]:
    out: Dict[str, Any] = {
        "path": leaf.path,
        "type": leaf.type.name,
        "offset": leaf.offset,
        "size": leaf.size,
        "align": leaf.align,
    }
    if leaf.count:  # inside fixed arrays, vectors or matrices: once, with its repetitions
        out["count"] = list(leaf.count)
        out["stride"] = list(leaf.stride)
    return out


def _member_json(m: Member) -> Dict[str, Any]:
    return {"name": m.name, "type": m.spelling, "offset": m.offset}


def leaf_count(st: SchemaType) -> int:
    """How many leaves ``st``'s JSON lists (computed without building them)."""
    layout = st.layout
    if isinstance(layout, RecordLayout):
        return layout.leaf_count
    if isinstance(layout, VariantLayout):
        return sum(c.leaf_count for c in layout.ctors)
    return 0  # an enum


def _type_json(st: SchemaType, leaves: bool) -> Dict[str, Any]:
    layout = st.layout
    head: Dict[str, Any] = {
        "name": st.name,
        "module": st.module,
        "c_name": st.c_name,
        "kind": st.kind,
        "size": st.size,
        "align": st.align,
        "layout_id": layout_id_hex(st),
    }
    if st.is_enum:
        head["base"] = st.elttype.base.name  # type: ignore[union-attr]
        head["values"] = [{"name": n, "value": v} for n, v in st.elttype.values]  # type: ignore[union-attr]
        return head
    head["rules"] = st.rules
    if isinstance(layout, RecordLayout):
        head["fields"] = [_member_json(m) for m in st.members]
        if leaves:
            head["leaves"] = [_leaf_json(leaf) for leaf in layout.leaves]
        return head
    assert isinstance(layout, VariantLayout)
    head["tag_offset"] = layout.tag_offset
    head["payload_offset"] = layout.payload_offset
    constructors: List[Dict[str, Any]] = []
    for arm, ctor in zip(st.arms, layout.ctors):
        entry: Dict[str, Any] = {"name": arm.name, "tag": arm.tag, "payload_size": arm.payload_size}
        if leaves:
            entry["leaves"] = [_leaf_json(leaf) for leaf in ctor.leaves]
        else:
            entry["args"] = [_member_json(a) for a in arm.args]
        constructors.append(entry)
    head["constructors"] = constructors
    return head


def schema_json(types: Iterable[SchemaType], leaves: bool = True) -> Dict[str, Any]:
    """The ``layout --json`` document (SPEC §5) for ``types``; ``UsageError`` when it would
    list more than ``MAX_JSON_LEAVES`` leaves."""
    types = list(types)
    if leaves:
        counts = [(leaf_count(st), st) for st in types]
        total = sum(n for n, _ in counts)
        if total > MAX_JSON_LEAVES:
            n, biggest = max(counts, key=lambda c: c[0])
            raise UsageError(
                f"the JSON document would list {total:,} scalar leaves ({biggest.qualified_name} "
                f"alone has {n:,}; nested records multiply them), more than the "
                f"{MAX_JSON_LEAVES:,} `layout --json` prints; pass --no-leaves for the members "
                f"only, or --type for one smaller type"
            )
    return {"types": [_type_json(t, leaves) for t in types]}


# --- text ------------------------------------------------------------------------------------


def text_report(
    types: Sequence[SchemaType], expand: bool = False, context: Sequence[SchemaType] = ()
) -> str:
    """The human report: one pahole-style block per type (``explain`` passes ``expand=True``).

    Both commands print the one member walk of ``explain.walk``.
    """
    from .explain.text import render_walk
    from .explain.walk import walk_types

    blocks = ["\n".join(render_walk(w, expand)) for w in walk_types(types, context)]
    return "\n\n".join(blocks) + ("\n" if blocks else "")
