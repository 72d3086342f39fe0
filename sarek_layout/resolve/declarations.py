"""Resolve stage: the checks of one declaration alone (a type's own name, its emptiness, an
enum's base and values' range), and the scalar a language's spelling means (a refusal's
hint). The resolver (``resolver.py``) runs them before anything that needs other types."""

from __future__ import annotations

from typing import Dict

from ..errors import SchemaError, quoted
from ..ir.schema import EnumDecl, RecordDecl, TypeDecl
from ..ir.types import ALIASES as _ALIASES
from ..ir.types import SCALARS

__all__ = ["check_shape", "scalar_spelt"]


def _check_enum(decl: EnumDecl) -> None:
    base = SCALARS.get(decl.base) or _ALIASES.get(decl.base)
    if base is None or base.kind != "int":
        raise SchemaError(
            f"enum {decl.name!r} has base {quoted(decl.base)}; an enum's base is an integer "
            f"scalar ({', '.join(n for n, s in SCALARS.items() if s.kind == 'int')}), int32 by "
            f"default", decl.location)
    if not decl.values:
        raise SchemaError(f"enum {decl.name!r} has no values; it needs at least one",
                          decl.location)
    low, high = base.int_range  # type: ignore[misc]
    for v in decl.values:
        if not low <= v.value <= high:
            raise SchemaError(
                f"enum value {decl.name}.{v.name} = {quoted(v.value)} is out of the range of "
                f"its base {base.name} ({low} to {high})", v.location)


def check_shape(decl: TypeDecl, seen_types: Dict[str, TypeDecl]) -> None:
    if decl.name in SCALARS or decl.name in _ALIASES:
        raise SchemaError(
            f"type name {decl.name!r} is a built-in scalar name; choose another name",
            decl.location,
        )

    if decl.name in seen_types:
        raise SchemaError(
            f"duplicate type {decl.name!r} (first defined at {seen_types[decl.name].location})",
            decl.location,
        )
    if isinstance(decl, RecordDecl):
        if not decl.fields:
            raise SchemaError(
                f"record {decl.name!r} has no fields; an element type needs at least one",
                decl.location,
            )
    elif isinstance(decl, EnumDecl):
        _check_enum(decl)
    elif not decl.ctors:
        raise SchemaError(
            f"variant {decl.name!r} has no constructors; it needs at least one",
            decl.location,
        )


def scalar_spelt(name: str) -> "str | None":
    """The schema scalar that the targets' languages spell ``name`` (``double`` -> float64,
    ``u32`` -> uint32, ``uint`` -> uint32), read from their dialect tables: each language's
    vote is shared among the scalars it spells so (WGSL's ``u32`` holds uint8, uint16 and
    uint32), bool and unit get none (not numbers: every language keeps them in a 4-byte
    integer), and ``None`` unless one scalar leads. Only for a refusal's hint."""
    from ..targets import TARGETS

    votes: Dict[str, float] = {}
    for target in TARGETS.values():
        table = getattr(target.dialect, "scalar", None) or {}
        spelt = [s for s, spelling in table.items() if spelling == name]
        for s in spelt:
            scalar = SCALARS.get(s)  # (a byte string's char is no number, nor in SCALARS)
            if scalar is not None and (scalar.is_float or scalar.int_range is not None):
                votes[s] = votes.get(s, 0.0) + 1 / len(spelt)
    ranked = sorted(votes.items(), key=lambda kv: -kv[1])
    if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
        return ranked[0][0]
    return None
