"""Per-type import of C headers: which types import, which are refused, and why.

A header's types are judged one by one (``header._Reader.decls``): a type with a member
that has no Sarek layout, or whose layout an extension changes, is *refused* with its first
problem at its place, and the others import. A type that uses a refused one (a member of
its type, at any depth) is refused too, naming the chain down to the root cause
(``'outer' uses 'mid' → 'inner', which is not imported (inc.h:3:9: …)``). That walk goes
over the reverse references once: linear in the types and members, whatever the depth.

``Imported`` is the outcome for the headers of one command: the schemas of the types that
import (``modules``), the refusals in declaration order (``refusals``), and two ways to
narrow it: ``select`` (``import-c --type``: the named types and the types they use, which
must all import) and ``without`` (types the resolver then refused, by the places of its
errors, and the types using them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ...errors import SchemaError, SchemaErrors, UsageError, quoted
from ...ir.schema import ModuleDecl, NamedType, SourceLocation

__all__ = ["Refusal", "Imported", "Key"]

#: A type of the command: (index of the header whose schema holds it, C name).
Key = Tuple[int, str]

#: Names of a knock-on chain printed before the rest is elided (a chain is the input's).
_CHAIN_SHOWN = 4


@dataclass(frozen=True)
class Refusal:
    """A type that is not imported: its C name, the header it belongs to, and the error
    (its place and reason; a knock-on names the chain to the root cause)."""

    c_name: str
    header: str
    error: SchemaError

    @property
    def message(self) -> str:
        """The reason, naming the type (most reasons do: ``member 'a' of 'T' …``; the
        others, an extension's, get ``'T' not imported:`` before them)."""
        message = self.error.message
        return message if quoted(self.c_name) in message else \
            f"{quoted(self.c_name)} not imported: {message}"

    def __str__(self) -> str:
        return f"{self.error.location}: error: {self.message}"


class Imported:
    """The types of one command's headers, each imported or refused (module docs).

    ``units`` are the headers' readers (``header._Reader``), ``outcome`` each type's
    ``TypeDecl`` or root ``SchemaError``, ``uses`` each type's ``(used type, member,
    unit)`` references. Built once by ``namespace``; narrowed copies share them.
    """

    def __init__(self, units: Sequence[object], outcome: Dict[Key, object],
                 uses: Dict[Key, List[Tuple[Key, object]]],
                 keep: Optional[Set[Key]] = None) -> None:
        self._units = list(units)
        self._outcome = outcome
        self._uses = uses
        self._keep = keep
        self._refused: Dict[Key, Tuple[SchemaError, Optional[Key], Key]] = {}
        self._propagate()

    @property
    def units(self) -> List[object]:
        """The headers' readers (``header._Reader``), in command-line order."""
        return list(self._units)

    # -- what imports ---------------------------------------------------------------------

    def _candidates(self) -> List[Key]:
        return [k for k in self._outcome if self._keep is None or k in self._keep]

    def _propagate(self) -> None:
        """Refuse the types using a refused one, breadth first from the root causes."""
        users: Dict[Key, List[Tuple[Key, object]]] = {}
        for user, used in self._uses.items():
            for key, member in used:
                users.setdefault(key, []).append((user, member))
        from collections import deque

        todo: "deque[Key]" = deque()
        for key in self._candidates():
            value = self._outcome[key]
            if isinstance(value, SchemaError):
                self._refused[key] = (value, None, key)
                todo.append(key)
        while todo:  # breadth first: each type is refused by its shortest chain
            current = todo.popleft()
            for user, member in users.get(current, ()):
                if user in self._refused or (self._keep is not None and user not in self._keep):
                    continue
                self._refused[user] = (self._knock_on(user, current, member), current,
                                       self._refused[current][2])
                todo.append(user)

    def _knock_on(self, user: Key, used: Key, member) -> SchemaError:
        names = [used[1]]
        hop = self._refused[used]
        while hop[1] is not None and len(names) < _CHAIN_SHOWN:
            names.append(hop[1][1])
            hop = self._refused[hop[1]]
        root_key = self._refused[used][2]
        if hop[1] is not None:  # the chain goes on: elided, its root named
            names += ["…", root_key[1]]
        root = self._refused[root_key][0]
        chain = " → ".join(quoted(n) if n != "…" else n for n in names)
        unit = self._units[user[0]]
        name = getattr(member, "name", None)
        return SchemaError(
            f"member {quoted(name)} of {quoted(user[1])} has type {chain}, which is not "
            f"imported ({root.location}: {root.message})",
            unit.loc(member, name),  # type: ignore[attr-defined]
        )

    def imported(self, index: int) -> List[str]:
        """The C names of header ``index``'s types that import, in declaration order."""
        return [k[1] for k in self._candidates() if k[0] == index and k not in self._refused]

    @property
    def modules(self) -> List[ModuleDecl]:
        """One schema per header: the types that import."""
        decls: List[List[object]] = [[] for _ in self._units]
        for key in self._candidates():
            if key not in self._refused:
                decls[key[0]].append(self._outcome[key])
        return [unit.module(tuple(d)) for unit, d in zip(self._units, decls)]  # type: ignore[attr-defined]

    @property
    def refusals(self) -> List[Refusal]:
        """Every type refused, in declaration order."""
        return [Refusal(k[1], self._units[k[0]].path, self._refused[k][0])  # type: ignore[attr-defined]
                for k in self._candidates() if k in self._refused]

    def root_errors(self) -> List[SchemaError]:
        """The root causes only (what a schema command reports: knock-ons are not repeated)."""
        return [self._refused[k][0] for k in self._candidates()
                if k in self._refused and self._refused[k][1] is None]

    # -- narrowing ------------------------------------------------------------------------

    def select(self, names: Iterable[str]) -> "Imported":
        """The types named (a C name, or a schema name) and those they use; ``UsageError``
        for a name no header declares, ``SchemaErrors`` when one of them is refused."""
        by_name: Dict[str, List[Key]] = {}
        for key in self._outcome:
            by_name.setdefault(key[1], []).append(key)
            schema_name = self._units[key[0]].names.get(key[1])  # type: ignore[attr-defined]
            if schema_name is not None and schema_name != key[1]:
                by_name.setdefault(schema_name, []).append(key)
        keep: Set[Key] = set()
        todo: List[Key] = []
        for name in names:
            if name not in by_name:
                known = ", ".join(sorted(by_name)[:12])
                raise UsageError(f"--type {name}: no header given declares a struct of that "
                                 f"name (declared: {known}{', …' if len(by_name) > 12 else ''})")
            todo.extend(by_name[name])
        while todo:
            key = todo.pop()
            if key in keep:
                continue
            keep.add(key)
            todo.extend(k for k, _ in self._uses.get(key, ()))
        narrowed = Imported(self._units, self._outcome, self._uses, keep)
        narrowed.check_none_refused()
        return narrowed

    def check_none_refused(self) -> None:
        refusals = self.refusals
        if refusals:
            raise SchemaErrors([SchemaError(r.message, r.error.location) for r in refusals])

    def without(self, errors: Sequence[SchemaError]) -> "Imported":
        """These types less the ones the resolver refused (``errors``, placed in them) and
        those using them; an error placed in no type is raised as it is."""
        places: Dict[Tuple[str, int, int], Key] = {}
        for key in self._candidates():
            value = self._outcome[key]
            if key not in self._refused:
                for loc in _locations(value):
                    places.setdefault(_place(loc), key)
        outcome = dict(self._outcome)
        for error in errors:
            key = places.get(_place(error.location)) if error.location is not None else None
            if key is None:
                raise SchemaErrors(list(errors))
            if not isinstance(outcome[key], SchemaError):
                outcome[key] = error
        return Imported(self._units, outcome, self._uses, self._keep)


def _place(loc: SourceLocation) -> Tuple[str, int, int]:
    return (loc.file, loc.line, loc.col)


def _locations(decl) -> List[SourceLocation]:
    """Every place in a type declaration a resolver error can name."""
    out = [decl.location]
    for member in getattr(decl, "fields", ()):
        out.append(member.location)
        if isinstance(member.type, NamedType):
            out.append(member.type.location)
    for ctor in getattr(decl, "ctors", ()):
        out.append(ctor.location)
        out.extend(a.location for a in ctor.args if isinstance(a, NamedType))
    out.extend(v.location for v in getattr(decl, "values", ()))  # an enum's
    return out
