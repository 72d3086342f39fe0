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
        known = ", ".join(t.qualified_name for t in schema.types) or "none"
        raise UsageError(f"no type named {name!r} in the given schemas (types: {known})")
    if len(found) > 1:
        options = ", ".join(t.qualified_name for t in found)
        raise UsageError(f"type name {name!r} is ambiguous; write one of: {options}")
    return found
