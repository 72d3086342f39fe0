"""The schema IR: what every front end produces and every later stage consumes.

Two levels, both immutable:

* *declarations* (``ModuleDecl`` → ``RecordDecl``/``VariantDecl`` → ``FieldDecl``/``CtorDecl``
  → ``TypeExpr``), exactly as written, each carrying its ``SourceLocation``; front ends
  (JSON/TOML, OCaml, C) build these and nothing else;
* the *resolved* ``Schema`` (built by ``resolve``): every type as a ``SchemaType``
  with its module, C name, elttype, layout and *member model* (``Member``/``Hole``/``Arm``:
  every member's offset, size, type and place, and every hole), in declaration and in
  dependency order.

This module imports nothing outside the standard library and the IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, NamedTuple, Optional, Protocol, Tuple, Union

from .types import Scalar, TEnum, TRecord, TVariant

__all__ = [
    "LaidOut",
    "SourceLocation",
    "NamedType",
    "ContainerType",
    "ArrayType",
    "VectorType",
    "MatrixType",
    "TypeExpr",
    "FieldDecl",
    "CtorDecl",
    "RecordDecl",
    "VariantDecl",
    "EnumValue",
    "EnumDecl",
    "TypeDecl",
    "ModuleDecl",
    "HOLE",
    "TAIL",
    "UNUSED",
    "Hole",
    "Dim",
    "Member",
    "Item",
    "Arm",
    "SchemaType",
    "Schema",
    "c_name_of",
]


class LaidOut(Protocol):
    """What the IR reads of a type's layout: its size and alignment (and, of a variant's,
    ``payload_offset``). The layout stage's ``RecordLayout``, ``VariantLayout`` and
    ``ScalarLayout`` are such results; the IR, which comes before that stage, names none."""

    @property
    def size(self) -> int: ...

    @property
    def align(self) -> int: ...


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
        # Never resolves a lazy position: a repr (say, of a big schema in a test failure) must
        # not scan the source once per location.
        if self._locator is not None:
            return f"SourceLocation({self.file!r}, path={self.path!r})"
        return f"SourceLocation({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourceLocation):
            return NotImplemented
        return (self.file, self.line, self.col) == (other.file, other.line, other.col)

    def __hash__(self) -> int:
        return hash(self.file)


# --- declarations (as written) ----------------------------------------------------------------
#
# The classes made once per member (type expressions, fields, constructors) have slots: a
# schema of 10,000 records holds 80,000 of each, and a slotted one is 40 bytes smaller.


@dataclass(frozen=True, slots=True)
class NamedType:
    """A scalar or a declared type, by name; ``module`` is set for ``Module.name``."""

    name: str
    module: Optional[str]
    location: SourceLocation = field(compare=False)

    def __str__(self) -> str:
        return f"{self.module}.{self.name}" if self.module is not None else self.name


@dataclass(frozen=True, slots=True)
class ContainerType:
    """``T array`` or ``T vector``: accepted as syntax, refused by the layout rules."""

    elem: "TypeExpr"
    kind: str  # "array" | "vector"
    location: SourceLocation = field(compare=False)

    def __str__(self) -> str:
        return f"{self.elem} {self.kind}"


@dataclass(frozen=True, slots=True)
class ArrayType:
    """``T[N]``, a fixed array (SPEC §1b); ``T[N][M]`` is ``ArrayType(ArrayType(T, M), N)``,
    N elements each a ``T[M]``, as in C."""

    elem: "TypeExpr"
    count: int
    location: SourceLocation = field(compare=False)

    def __str__(self) -> str:
        dims = []
        expr: TypeExpr = self
        while isinstance(expr, ArrayType):
            dims.append(expr.count)
            expr = expr.elem
        return f"{expr}{''.join(f'[{n}]' for n in dims)}"


@dataclass(frozen=True, slots=True)
class VectorType:
    """``vecN<T>`` (N in 2..4) of a numeric scalar named ``elem`` (SPEC §1b)."""

    n: int
    elem: str
    location: SourceLocation = field(compare=False)

    def __str__(self) -> str:
        return f"vec{self.n}<{self.elem}>"


@dataclass(frozen=True, slots=True)
class MatrixType:
    """``matCxR<T>``: ``cols`` column vectors of ``rows`` components of the float scalar
    named ``elem``, column-major (SPEC §1b)."""

    cols: int
    rows: int
    elem: str
    location: SourceLocation = field(compare=False)

    def __str__(self) -> str:
        return f"mat{self.cols}x{self.rows}<{self.elem}>"


TypeExpr = Union[NamedType, ContainerType, ArrayType, VectorType, MatrixType]


@dataclass(frozen=True, slots=True)
class FieldDecl:
    name: str
    type: TypeExpr
    location: SourceLocation = field(compare=False)


@dataclass(frozen=True, slots=True)
class CtorDecl:
    name: str
    args: Tuple[TypeExpr, ...]
    location: SourceLocation = field(compare=False)


@dataclass(frozen=True)
class RecordDecl:
    name: str
    fields: Tuple[FieldDecl, ...]
    location: SourceLocation = field(compare=False)
    #: The rule set this type alone names (SPEC §1b); ``None``: its module's.
    rules: Optional[str] = None
    kind = "record"


@dataclass(frozen=True)
class VariantDecl:
    name: str
    ctors: Tuple[CtorDecl, ...]
    location: SourceLocation = field(compare=False)
    rules: Optional[str] = None
    kind = "variant"


@dataclass(frozen=True, slots=True)
class EnumValue:
    name: str
    value: int
    location: SourceLocation = field(compare=False)


@dataclass(frozen=True)
class EnumDecl:
    """An enum (SPEC §1b): named values of an integer ``base`` scalar, laid out as it."""

    name: str
    base: str
    values: Tuple[EnumValue, ...]
    location: SourceLocation = field(compare=False)
    rules: Optional[str] = None
    kind = "enum"


TypeDecl = Union[RecordDecl, VariantDecl, EnumDecl]


@dataclass(frozen=True)
class ModuleDecl:
    """One schema file: its module name (``""`` = no C prefix), path, format and types."""

    name: str
    path: str
    format: str  # "json" | "toml" | "ocaml" | "c"
    decls: Tuple[TypeDecl, ...] = field(repr=False)
    location: SourceLocation = field(compare=False)
    #: The rule set of its types (SPEC §1b): ``"c"``, Sarek's aligned layout, by default.
    rules: str = "c"


# --- resolved schema -------------------------------------------------------------------------


def c_name_of(module: str, name: str) -> str:
    """Sarek's mangling of ``Module.name``: ``Module_name`` (just ``name`` without a module)."""
    return f"{module}_{name}" if module else name


# --- the member model: every laid-out struct, filled in once -----------------------------------

#: Kinds of ``Hole``: a gap before a member, the padding that rounds a struct (or a
#: constructor's payload) up to its alignment, and the part of a variant's payload region a
#: constructor does not use (up to the variant's size).
HOLE, TAIL, UNUSED = "hole", "tail", "unused"


class Hole(NamedTuple):
    """Bytes no member occupies: ``[offset, offset + size)``, from the element start."""

    offset: int
    size: int
    kind: str  # HOLE | TAIL | UNUSED

    @property
    def end(self) -> int:
        return self.offset + self.size


#: Kinds of ``Dim``: a fixed array's elements, a vector's components, a matrix's columns.
ARRAY, VECTOR, MATRIX = "array", "vector", "matrix"


class Dim(NamedTuple):
    """One level of repetition of a member (SPEC §1b): ``count`` copies ``stride`` bytes
    apart. A ``float32[4]`` has ``(Dim(ARRAY, 4, 4),)``; a ``vec3<float32>``
    ``(Dim(VECTOR, 3, 4),)``; a std430 ``mat3`` ``(Dim(MATRIX, 3, 16), Dim(VECTOR, 3, 4))``
    (columns, then each column's components); a ``vec3<float32>[2]`` under std430
    ``(Dim(ARRAY, 2, 16), Dim(VECTOR, 3, 4))``. Outermost first."""

    kind: str  # ARRAY | VECTOR | MATRIX
    count: int
    stride: int


class Member(NamedTuple):
    """One member of a laid-out struct: a record field, a constructor argument ``_N``, or a
    variant's ``tag``.

    ``offset`` is from the start of the element the member belongs to (a record, or the
    whole variant for arguments: SPEC §1's absolute offsets). Its element type is exactly
    one of ``scalar`` (an entry of the scalar table) and ``record`` (the laid-out nested
    record, which knows its own C name, module and members); ``enum`` is set (with
    ``scalar`` its base) for an enum. ``dims`` lists the repetitions of a fixed array,
    vector or matrix member, outermost first (empty for one element); ``size`` and ``align``
    are the whole member's. ``spelling`` is the type as written in the schema (``float32``,
    ``point``, ``Geometry.point``, ``vec3<float32>[2]``). A tuple: schemas have hundreds of
    thousands of them, and creating one must be cheap.
    """

    name: str
    offset: int
    size: int
    align: int
    scalar: Optional[Scalar]
    record: Optional["SchemaType"]
    spelling: str
    location: Optional[SourceLocation] = None
    dims: Tuple[Dim, ...] = ()
    enum: Optional["SchemaType"] = None

    @property
    def end(self) -> int:
        return self.offset + self.size

    def __repr__(self) -> str:
        return f"Member({self.name!r}, {self.type_name}, offset={self.offset}, size={self.size})"

    @property
    def type_name(self) -> str:
        """The scalar's schema name or the record's C name (of the element, for an array)."""
        if self.enum is not None:
            return self.enum.c_name
        return self.scalar.name if self.scalar is not None else self.record.c_name  # type: ignore[union-attr]

    @property
    def elements(self) -> int:
        """How many elements (scalars or records) the member holds: 1 without ``dims``."""
        n = 1
        for d in self.dims:
            n *= d.count
        return n


Item = Union[Member, Hole]


@dataclass(frozen=True, eq=False)
class Arm:
    """One constructor of a variant over the payload region ``[payload_offset, size)``.

    ``items`` covers that whole region: the arguments, the holes between them, the tail up
    to ``payload_size`` and the bytes beyond it that only larger constructors use.
    """

    name: str
    tag: int
    payload_size: int
    args: Tuple[Member, ...]
    items: Tuple[Item, ...]
    location: Optional[SourceLocation] = None


@dataclass(frozen=True, eq=False)
class SchemaType:
    """A resolved type: names, elttype, layout, its members, and its declaration.

    The member model (``members``, ``items``, ``arms``) is filled in once, when the schema
    is resolved (``layout.members``); every consumer reads it and none recomputes an
    offset, a hole or a C name. ``layout`` is the layout core's result for the SPEC §2 API
    (a ``RecordLayout`` or a ``VariantLayout``, whose ``leaves`` are derived on demand; an
    enum's ``ScalarLayout``); the IR reads only its size, alignment and payload offset
    (``LaidOut``).
    """

    module: str
    name: str
    c_name: str
    #: A record, a variant, or an enum (SPEC §1b: laid out as its base scalar, no members).
    elttype: Union[TRecord, TVariant, TEnum]
    layout: LaidOut
    decl: TypeDecl = field(compare=False)
    source: ModuleDecl = field(compare=False)
    #: C names of the schema types this one uses directly, in first-use order.
    depends_on: Tuple[str, ...] = ()
    #: Record: its fields. Variant: its ``tag``.
    members: Tuple[Member, ...] = ()
    #: ``members`` with every hole between and after them: a record's ``[0, size)``; a
    #: variant's ``[0, payload_offset)`` (``[0, size)`` when no constructor has arguments).
    items: Tuple[Item, ...] = ()
    #: Variant: one arm per constructor, in tag order.
    arms: Tuple[Arm, ...] = ()

    def __repr__(self) -> str:
        return f"<SchemaType {self.c_name}: {self.kind}, size {self.size}, align {self.align}>"

    @property
    def kind(self) -> str:
        return self.decl.kind

    @property
    def qualified_name(self) -> str:
        return f"{self.module}.{self.name}" if self.module else self.name

    @property
    def rules(self) -> str:
        """The rule set it is laid out by (SPEC §1b); an enum's is its base's, in any."""
        return getattr(self.elttype, "rules", "c")

    @property
    def is_enum(self) -> bool:
        return isinstance(self.elttype, TEnum)

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def align(self) -> int:
        return self.layout.align

    @property
    def payload_offset(self) -> int:
        """Where a variant's payload starts (0 for a record)."""
        return getattr(self.layout, "payload_offset", 0)

    @property
    def has_payload(self) -> bool:
        """A variant with at least one constructor taking arguments (it has a ``data`` union)."""
        return any(arm.args for arm in self.arms)

    def records_used(self) -> Iterator["SchemaType"]:
        """The laid-out records its members and arguments use directly (with repeats)."""
        for m in self.members:
            if m.record is not None:
                yield m.record
        for arm in self.arms:
            for a in arm.args:
                if a.record is not None:
                    yield a.record


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
