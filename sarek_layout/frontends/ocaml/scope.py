"""The inner modules of an OCaml source, and what a type name written in the file refers to.

Sarek's PPX registers a ``[@@sarek.type]`` declaration with ``tdecl_module =
module_name_of_loc loc``, the *file's* module (``sarek/ppx/Sarek_ppx.ml``), wherever in the
file it is: a type ``t`` of ``module M = struct … end`` in ``foo.ml`` is ``Foo.t``, C name
``Foo_t``. A reference ``M.t`` written in the same file to such a type is therefore that file
type; ``Other.t`` stays a reference to another schema file's module.

``InnerModules`` is the tree of the file's ``struct … end`` blocks, named by the ``module``
item that binds them (``module M = struct``, ``module M : S = struct``, ``module rec M : S =
struct``, ``module F (X : S) = struct``, ``let module M = struct``; an ``include struct`` or a
functor argument is anonymous). It is kept as parent indices, never as path strings: a file
of thousands of nested modules costs a few integers each.
"""

from __future__ import annotations

from array import array
from typing import Dict, List, Optional, Sequence

__all__ = ["InnerModules", "FILE_MODULE"]

#: The index of the file itself in ``InnerModules``.
FILE_MODULE = 0

#: Most names a module path shows in a message (deeper ones start with "…").
_SHOWN_PARTS = 6
_MAX_STEPS = 64  # anonymous structures walked through, at most, to find them


class InnerModules:
    """The file's structures: index 0 is the file, each other one has a parent and a name
    (``None`` for an anonymous structure)."""

    def __init__(self) -> None:
        self.names: List[Optional[str]] = [None]
        self.parents = array("q", [FILE_MODULE])
        self._named: Dict[str, int] = {}  # a module name -> the first structure so named

    def add(self, name: Optional[str], parent: int) -> int:
        self.names.append(name)
        self.parents.append(parent)
        index = len(self.names) - 1
        if name is not None:
            self._named.setdefault(name, index)
        return index

    def has_name(self, name: str) -> bool:
        """Whether some structure of the file is bound to the module name ``name``."""
        return name in self._named

    def ends_with(self, index: int, parts: Sequence[str]) -> bool:
        """Whether the path of structure ``index`` ends with the module path ``parts``
        (``M.N`` for a type of ``N`` inside ``M``, or ``N`` alone): the way the file spells
        it from wherever it is used. Anonymous structures are no part of a path (and a
        path through more than a few dozen of them is not looked into)."""
        skipped = 0
        for part in reversed(parts):
            while index != FILE_MODULE and self.names[index] is None:
                index = self.parents[index]
                skipped += 1
            if skipped > _MAX_STEPS or index == FILE_MODULE or self.names[index] != part:
                return False
            index = self.parents[index]
        return True

    def path(self, index: int) -> str:
        """``M.N`` for a message (the innermost few names of a deep one)."""
        parts: List[str] = []
        steps = 0
        while index != FILE_MODULE:
            name = self.names[index]
            steps += 1
            if steps > _MAX_STEPS or (name is not None and len(parts) == _SHOWN_PARTS):
                parts.append("…")
                break
            if name is not None:
                parts.append(name)
            index = self.parents[index]
        return ".".join(reversed(parts))
