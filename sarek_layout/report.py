"""Views of a laid-out schema for people and programs: the pahole-style text report and the
SPEC §5 JSON document. Both only print numbers the layout core computed.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Tuple

from .ir.schema import RecordDecl, SchemaType, TypeExpr
from .ir.types import Scalar, TRecord
from .layout.core import Leaf, RecordLayout, VariantLayout, record_layout_of

__all__ = ["schema_json", "text_report", "type_spelling"]


def type_spelling(t: object, expr: TypeExpr) -> str:
    """How a member's type is shown: the scalar's name, or the type name as written."""
    if isinstance(t, Scalar):
        return t.name
    return str(expr)


def _leaf_json(leaf: Leaf) -> Dict[str, Any]:
    return {
        "path": leaf.path,
        "type": leaf.type.name,
        "offset": leaf.offset,
        "size": leaf.size,
        "align": leaf.align,
    }


def _type_json(st: SchemaType) -> Dict[str, Any]:
    layout = st.layout
    head: Dict[str, Any] = {
        "name": st.name,
        "module": st.module,
        "c_name": st.c_name,
        "kind": st.kind,
        "size": layout.size,  # type: ignore[attr-defined]
        "align": layout.align,  # type: ignore[attr-defined]
    }
    if isinstance(layout, RecordLayout):
        decl = st.decl
        assert isinstance(decl, RecordDecl) and isinstance(st.elttype, TRecord)
        head["fields"] = [
            {"name": name, "type": type_spelling(t, f.type), "offset": offset}
            for (name, offset), (_, t), f in zip(layout.fields, st.elttype.fields, decl.fields)
        ]
        head["leaves"] = [_leaf_json(leaf) for leaf in layout.leaves]
    else:
        assert isinstance(layout, VariantLayout)
        head["tag_offset"] = layout.tag_offset
        head["payload_offset"] = layout.payload_offset
        head["constructors"] = [
            {
                "name": c.name,
                "tag": c.tag,
                "payload_size": c.payload_size,
                "leaves": [_leaf_json(leaf) for leaf in c.leaves],
            }
            for c in layout.ctors
        ]
    return head


def schema_json(types: Iterable[SchemaType]) -> Dict[str, Any]:
    """The ``layout --json`` document (SPEC §5) for ``types``."""
    return {"types": [_type_json(t) for t in types]}


# --- text ------------------------------------------------------------------------------------


def _size_align(t: object) -> Tuple[int, int]:
    if isinstance(t, TRecord):
        inner = record_layout_of(t)
        return inner.size, inner.align
    from .layout.core import scalar_size

    size = scalar_size(t)  # type: ignore[arg-type]
    return size, size


def _member_lines(
    members: List[Tuple[str, str, int, int]],
    start: int,
    end: int,
    indent: str,
    tail: str = "bytes of tail padding",
) -> Tuple[List[str], int]:
    """Lines for ``(name, type, offset, size)`` members in ``[start, end)``, holes marked."""
    lines = []
    cursor = start
    holes = 0
    for name, spelling, offset, size in members:
        if offset > cursor:
            lines.append(f"{indent}/* XXX {offset - cursor} byte hole */")
            holes += offset - cursor
        lines.append(f"{indent}{spelling:<12} {name + ';':<20} /* {offset:5d} {size:5d} */")
        cursor = offset + size
    if end > cursor:
        lines.append(f"{indent}/* XXX {end - cursor} {tail} */")
        holes += end - cursor
    return lines, holes


def _record_report(st: SchemaType, layout: RecordLayout) -> List[str]:
    decl = st.decl
    assert isinstance(decl, RecordDecl) and isinstance(st.elttype, TRecord)
    members = []
    for (name, offset), (_, t), f in zip(layout.fields, st.elttype.fields, decl.fields):
        members.append((name, type_spelling(t, f.type), offset, _size_align(t)[0]))
    lines, padding = _member_lines(members, 0, layout.size, "    ")
    footer = (
        f"    /* size: {layout.size}, align: {layout.align}, "
        f"padding: {padding} byte{'s' if padding != 1 else ''} */"
    )
    return [f"record {st.qualified_name} {{  /* C: {st.c_name} */", *lines, footer, "};"]


def _variant_report(st: SchemaType, layout: VariantLayout) -> List[str]:
    decl = st.decl
    lines = [f"variant {st.qualified_name} {{  /* C: {st.c_name} */"]
    head, padding = _member_lines(
        [("tag", "int32", layout.tag_offset, 4)], 0, layout.payload_offset, "    ", "byte hole"
    )
    lines.extend(head)
    payload = layout.size - layout.payload_offset
    lines.append(f"    union {{{'':<28} /* {layout.payload_offset:5d} {payload:5d} */")
    for ctor, ctor_decl in zip(layout.ctors, decl.ctors):  # type: ignore[union-attr]
        args = st.elttype.ctors[ctor.tag][1]  # type: ignore[union-attr]
        lines.append(f"        {ctor.name} (tag {ctor.tag}): payload {ctor.payload_size} bytes")
        members = []
        offset = layout.payload_offset
        for i, (t, expr) in enumerate(zip(args, ctor_decl.args)):
            size, align = _size_align(t)
            offset = (offset + align - 1) // align * align
            members.append((f"_{i}", type_spelling(t, expr), offset, size))
            offset += size
        arm, _ = _member_lines(
            members,
            layout.payload_offset,
            layout.payload_offset + payload,
            "            ",
            "bytes unused by this arm",
        )
        lines.extend(arm)
    lines.append("    } data;")
    longest = max((c.payload_size for c in layout.ctors), default=0)
    padding += payload - longest
    lines.append(
        f"    /* size: {layout.size}, align: {layout.align}, payload at {layout.payload_offset}, "
        f"largest payload: {longest}, padding: {padding} byte{'s' if padding != 1 else ''} */"
    )
    lines.append("};")
    return lines


def text_report(types: Iterable[SchemaType]) -> str:
    """The human ``layout`` report: one block per type, members with offset and size."""
    blocks = []
    for st in types:
        if isinstance(st.layout, RecordLayout):
            blocks.append("\n".join(_record_report(st, st.layout)))
        else:
            assert isinstance(st.layout, VariantLayout)
            blocks.append("\n".join(_variant_report(st, st.layout)))
    return "\n\n".join(blocks) + ("\n" if blocks else "")

