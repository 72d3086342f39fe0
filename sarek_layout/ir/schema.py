"""The schema IR: what every front end produces and every later stage consumes.

Two levels, both immutable:

* *declarations* (``ModuleDecl`` → ``RecordDecl``/``VariantDecl`` → ``FieldDecl``/``CtorDecl``
  → ``TypeExpr``), exactly as written, each carrying its ``SourceLocation``; front ends
  (JSON/TOML, OCaml, C) build these and nothing else;
* the *resolved* ``Schema`` (built by ``frontends.resolve``): every type as a ``SchemaType``
  with its module, C name, elttype and layout, in declaration and in dependency order.

This module imports nothing outside the standard library and the IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, Optional, Tuple, Union

from .types import TRecord, TVariant

__all__ = [
    "SourceLocation",
    "NamedType",
    "ContainerType",
    "TypeExpr",
    "FieldDecl",
    "CtorDecl",
    "RecordDecl",
    "VariantDecl",
    "TypeDecl",
    "ModuleDecl",
    "SchemaType",
    "Schema",
    "c_name_of",
]


class SourceLocation:
    """A place in a source file, printed ``FILE:LINE:COL`` (1-based line and column).

    Front ends that parse with the standard library (JSON, TOML) know only a *path* to a
    value (``("types", 3, "fields", 1)``) until an error needs the line: they pass a
    ``locator`` that maps the path to ``(line, col)`` on first use, so the fast path never
    pays for positions.
    """

    __slots__ = ("file", "_line", "_col", "path", "_locator")

    def __init__(
        self,
        file: str,
        line: int = 0,
        col: int = 0,
        *,
        path: Optional[Tuple[Union[str, int], ...]] = None,
        locator: Optional[Callable[[Tuple[Union[str, int], ...]], Tuple[int, int]]] = None,
    ) -> None:
        self.file = file
        self._line = line
        self._col = col
        self.path = path
        self._locator = locator

    def _resolve(self) -> None:
        if self._locator is not None and self.path is not None:
            self._line, self._col = self._locator(self.path)
            self._locator = None

    @property
    def line(self) -> int:
        self._resolve()
        return self._line

    @property
    def col(self) -> int:
        self._resolve()
        return self._col

    def __str__(self) -> str:
        # A file name with a newline or other control character must not split a diagnostic.
        file = self.file if self.file.isprintable() else ascii(self.file)[1:-1]
        if self.line <= 0:
            return file
        return f"{file}:{self.line}:{max(self.col, 1)}"

    def __repr__(self) -> str:
        return f"SourceLocation({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourceLocation):
            return NotImplemented
        return (self.file, self.line, self.col) == (other.file, other.line, other.col)

    def __hash__(self) -> int:
        return hash(self.file)


# --- declarations (as written) ----------------------------------------------------------------


@dataclass(frozen=True)
class NamedType:
    """A scalar or a declared type, by name; ``module`` is set for ``Module.name``."""

    name: str
    module: Optional[str]
    location: SourceLocation = field(compare=False)

    def __str__(self) -> str:
        return f"{self.module}.{self.name}" if self.module is not None else self.name


@dataclass(frozen=True)
class ContainerType:
    """``T array`` or ``T vector``: accepted as syntax, refused by the layout rules."""

    elem: "TypeExpr"
    kind: str  # "array" | "vector"
    location: SourceLocation = field(compare=False)

    def __str__(self) -> str:
        return f"{self.elem} {self.kind}"


TypeExpr = Union[NamedType, ContainerType]


@dataclass(frozen=True)
class FieldDecl:
    name: str
    type: TypeExpr
    location: SourceLocation = field(compare=False)


@dataclass(frozen=True)
class CtorDecl:
    name: str
    args: Tuple[TypeExpr, ...]
    location: SourceLocation = field(compare=False)


@dataclass(frozen=True)
class RecordDecl:
    name: str
    fields: Tuple[FieldDecl, ...]
    location: SourceLocation = field(compare=False)
    kind = "record"


@dataclass(frozen=True)
class VariantDecl:
    name: str
    ctors: Tuple[CtorDecl, ...]
    location: SourceLocation = field(compare=False)
    kind = "variant"


TypeDecl = Union[RecordDecl, VariantDecl]


@dataclass(frozen=True)
class ModuleDecl:
    """One schema file: its module name (``""`` = no C prefix), path, format and types."""

    name: str
    path: str
    format: str  # "json" | "toml" | "ocaml" | "c"
    decls: Tuple[TypeDecl, ...]
    location: SourceLocation = field(compare=False)


# --- resolved schema -------------------------------------------------------------------------


def c_name_of(module: str, name: str) -> str:
    """Sarek's mangling of ``Module.name``: ``Module_name`` (just ``name`` without a module)."""
    return f"{module}_{name}" if module else name


@dataclass(frozen=True)
class SchemaType:
    """A resolved type: names, elttype, layout, and the declaration it came from."""

    module: str
    name: str
    c_name: str
    elttype: Union[TRecord, TVariant]
    layout: object  # RecordLayout | VariantLayout (kept untyped: the IR does not import layout)
    decl: TypeDecl = field(compare=False)
    source: ModuleDecl = field(compare=False)
    #: C names of the schema types this one uses directly, in first-use order.
    depends_on: Tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.decl.kind

    @property
    def qualified_name(self) -> str:
        return f"{self.module}.{self.name}" if self.module else self.name


@dataclass(frozen=True)
class Schema:
    """All the types of the schema files given together, resolved and laid out.

    ``types`` is in declaration order (file by file); ``modules`` in command-line order.
    """

    modules: Tuple[ModuleDecl, ...]
    types: Tuple[SchemaType, ...]
    _by_c_name: Dict[str, SchemaType] = field(compare=False, repr=False, default_factory=dict)
    #: Types by the identity of their source module, built once: codegen asks per module, and
    #: filtering all types each time would be quadratic in the number of schema files.
    _by_module: Dict[int, Tuple[SchemaType, ...]] = field(
        compare=False, repr=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self._by_c_name.update((t.c_name, t) for t in self.types)
        grouped: Dict[int, list] = {}
        for t in self.types:
            grouped.setdefault(id(t.source), []).append(t)
        self._by_module.update((k, tuple(v)) for k, v in grouped.items())

    def __iter__(self) -> Iterator[SchemaType]:
        return iter(self.types)

    def __len__(self) -> int:
        return len(self.types)

    def by_c_name(self, c_name: str) -> SchemaType:
        return self._by_c_name[c_name]

    def find(self, name: str) -> Tuple[SchemaType, ...]:
        """Types matching ``name``: a C name, ``Module.name``, or a bare name (maybe several)."""
        if name in self._by_c_name:
            return (self._by_c_name[name],)
        return tuple(t for t in self.types if name in (t.qualified_name, t.name))

    def module_types(self, module: ModuleDecl) -> Tuple[SchemaType, ...]:
        """The types declared by ``module``, in declaration order."""
        return self._by_module.get(id(module), ())

    def dependency_order(self, types: Optional[Tuple[SchemaType, ...]] = None) -> Tuple[SchemaType, ...]:
        """``types`` (default: all) ordered so that every type follows the types it uses.

        Stable: among independent types, declaration order is kept. Iterative, so thousands
        of nesting levels need no deep Python recursion.
        """
        selected = self.types if types is None else types
        wanted = {t.c_name for t in selected}
        done: set = set()
        ordered = []
        for root in selected:
            if root.c_name in done:
                continue
            stack = [(root, iter(root.depends_on))]
            while stack:
                node, deps = stack[-1]
                for dep in deps:
                    if dep not in done and dep in wanted and dep in self._by_c_name:
                        stack.append((self._by_c_name[dep], iter(self._by_c_name[dep].depends_on)))
                        break
                else:
                    stack.pop()
                    if node.c_name not in done:
                        done.add(node.c_name)
                        ordered.append(node)
        return tuple(ordered)
