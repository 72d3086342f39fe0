"""Helpers shared by the sub-commands: loading schemas and picking types by name."""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

from ..errors import UsageError
from ..ir.schema import Schema, SchemaType


def load(paths: Sequence[str]) -> Schema:
    from ..frontends import load_schema

    return load_schema(paths)


def select_types(schema: Schema, name: Optional[str]) -> Tuple[SchemaType, ...]:
    """All types, or the one ``name`` designates (bare, ``Module.name`` or C name)."""
    if name is None:
        return schema.types
    found = schema.find(name)
    if not found:
        import difflib

        names = [n for t in schema.types for n in (t.name, t.qualified_name, t.c_name)]
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        known = ", ".join(t.qualified_name for t in schema.types[:20]) or "none"
        if len(schema.types) > 20:
            known += f", … ({len(schema.types)} in all)"
        raise UsageError(f"no type named {name!r} in the given schemas{hint} (types: {known})")
    if len(found) > 1:
        options = ", ".join(t.qualified_name for t in found)
        raise UsageError(f"type name {name!r} is ambiguous; write one of: {options}")
    return found
