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


def load_schema(paths: Iterable[str], c_headers: Optional["CHeaderOptions"] = None) -> Schema:
    """Read and resolve ``paths`` together into one laid-out ``Schema``; the C headers among
    them are read together, with ``c_headers`` (include folders, macros, modules)."""
    from ..frontends import read_modules

    return resolve(read_modules(paths, c_headers))
