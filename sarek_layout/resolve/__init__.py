"""Resolve stage: between the readers and everything downstream.

The readers (``frontends``) only parse; ``resolve`` applies every rule that does not depend on
the input syntax (name policy, references, recursion, C-name collisions), builds the elttypes,
lays them out (``layout``) and fills in the member model each type carries
(``layout.members``). ``load_schema`` is reading and resolving in one call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional

from ..ir.schema import Schema
from .resolver import MAX_NESTING, resolve

if TYPE_CHECKING:
    from ..frontends.c import CHeaderOptions

__all__ = ["resolve", "load_schema", "MAX_NESTING"]


def load_schema(paths: Iterable[str], c_headers: Optional["CHeaderOptions"] = None,
                rules: Optional[str] = None) -> Schema:
    """Read and resolve ``paths`` together into one laid-out ``Schema``; the C headers among
    them are read together, with ``c_headers`` (include folders, macros, modules).
    ``rules`` lays every type out by that rule set instead of the one its schema names
    (``layout --rules``: a type seen under a buffer's rules without editing the schema)."""
    import dataclasses

    from ..frontends import read_modules

    modules = read_modules(paths, c_headers)
    if rules is not None:
        modules = [dataclasses.replace(m, rules=rules, decls=tuple(
            dataclasses.replace(d, rules=None) for d in m.decls)) for m in modules]
    return resolve(modules)
