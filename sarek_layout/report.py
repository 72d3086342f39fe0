"""Views of a laid-out schema for people and programs: the pahole-style text report and the
SPEC §5 JSON document. Both only print numbers the layout core computed; the text report
is the member walk of ``explain.walk``, shared with ``explain`` and its picture.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Sequence

from .explain.walk import type_spelling
from .ir.schema import RecordDecl, SchemaType
from .ir.types import TRecord
from .layout.core import Leaf, RecordLayout, VariantLayout

__all__ = ["schema_json", "text_report", "type_spelling"]


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


def text_report(
    types: Sequence[SchemaType], expand: bool = False, context: Sequence[SchemaType] = ()
) -> str:
    """The human report: one pahole-style block per type (``explain`` passes ``expand=True``).

    Both commands print the one member walk of ``explain.walk``; ``context`` (the whole
    schema) lets nested members be spelled as written.
    """
    from .explain.text import render_walk
    from .explain.walk import walk_types

    blocks = ["\n".join(render_walk(w, expand)) for w in walk_types(types, context)]
    return "\n\n".join(blocks) + ("\n" if blocks else "")
