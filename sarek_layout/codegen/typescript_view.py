"""The typescript target's view: one ES2020 module per schema file (``templates/typescript.ts.j2``).

Read off the member model, like every host view: per record an ``interface`` (the value form)
and a companion ``const`` of the same name (``SIZE``, ``ALIGN``, ``LAYOUT_ID``, ``encode``/
``decode`` over a ``DataView``, ``toBytes``/``fromBytes``, the framed data of
docs/fingerprint.md, and ``columns``, typed arrays over a buffer of elements); per variant a
discriminated union of one interface per constructor (``{tag: "Circle", _0: …}``) and its
companion; per enum a ``const`` object of its values and the union type of them. Every offset
and stride printed is the member model's (``Member.offset``, ``Member.dims``): the module
computes no layout. A member's writer and reader are the module's own functions, one per
scalar it uses (from the scalar table and the ``TYPESCRIPT`` dialect), per enum it uses (its
values checked) and per record it declares; a record of another schema file is written by
that file's companion (``_sarek_put``/``_sarek_get``), imported from ``./<stem>.js``.

``columns`` exists where every stride allows it: the record's size, each array stride and
the size of every record it nests are multiples of the size of each scalar below them
(``_column_unit``), so that each member is a typed array of its scalar with whole strides.
That holds under every rule set but ``scalar``, whose records end at their last member.

Names: members are property names and stay as written (``p.class``); what the module
declares at file scope (types, companions, constructor interfaces, imports) is spelt as
``targets.name_rules`` decides for ``typescript`` (a reserved word or a global the module
uses gets a trailing ``_``: ``class_``), and two such names that meet are refused here.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, replace
from typing import Callable, Dict, List, Optional, Tuple

from .._version import __version__
from ..errors import SchemaError
from ..ir.schema import Member, ModuleDecl, Schema, SchemaType
from ..ir.types import ELEMENT_SCALARS, SCALARS, TBool, TChar, TUnit, Scalar
from ..layout.fingerprint import layout_id_hex
from ..targets.dialects import TYPESCRIPT
from ..targets.name_rules import FILE, judge
from .views import TOOL

__all__ = ["ts_ident", "typescript_view", "runtime_text", "TsScalar", "TsMember", "TsCtor",
           "TsType", "TsModule"]

_RUNTIME_BEGIN = "// --- sarek-layout runtime: begin"
_RUNTIME_END = "// --- sarek-layout runtime: end"


@functools.lru_cache(maxsize=None)
def runtime_text() -> str:
    """The runtime every module carries: the marked region of ``typescript_runtime.ts``,
    markers included, verbatim."""
    from importlib import resources

    text = resources.files(__package__).joinpath("typescript_runtime.ts").read_text(
        encoding="utf-8")
    begin = text.index(_RUNTIME_BEGIN)
    end = text.index("\n", text.index(_RUNTIME_END)) + 1
    return text[begin:end]


def ts_ident(c_name: str) -> str:
    """A type's C name as the module declares it: unchanged, or escaped (``class_``)."""
    return judge(TYPESCRIPT.name, c_name, FILE)[0]


@dataclass(frozen=True)
class TsScalar:
    """A scalar the module reads and writes: its writer's check (``kind``: ``int``,
    ``bigint``, ``float32``, ``float64``, ``half``, ``bool``, ``unit``), the ``DataView``
    accessor, whether it takes the little-endian flag (every accessor but the byte ones),
    the range of an integer as TypeScript literals, and its value's type."""

    name: str
    kind: str
    accessor: str
    little: bool
    lo: str
    hi: str
    value_type: str


@dataclass(frozen=True)
class TsMember:
    """A record field or constructor argument: its property ``name``, absolute ``offset``,
    element ``kind`` (``scalar``, ``enum`` or ``record``), ``ref`` (the scalar's name, or the
    enum's or record's identifier), whether that record's writer is this module's
    (``local``), its array levels ``(count, stride)`` outermost first (a vector's components
    and a matrix's columns included), the TypeScript type of its value, and the typed array
    of its element (a scalar's or an enum base's; ``""`` for a record)."""

    name: str
    offset: int
    kind: str
    ref: str
    local: bool
    dims: Tuple[Tuple[int, int], ...]
    value_type: str
    lane: str

    @property
    def counts(self) -> Tuple[int, ...]:
        return tuple(count for count, _ in self.dims)


@dataclass(frozen=True)
class TsCtor:
    name: str
    tag: int
    #: The interface of this constructor's values: ``<C name>_<Ctor>``, escaped.
    iface: str
    args: Tuple[TsMember, ...]


@dataclass(frozen=True)
class TsType:
    kind: str  # "record" | "variant" | "enum"
    ident: str
    qualified_name: str
    size: int
    align: int
    #: ``0x`` and 16 hex digits (``layout.fingerprint``); the module writes it as a bigint.
    layout_id: str
    members: Tuple[TsMember, ...] = ()
    #: A variant's tag: its offset and scalar (an int32).
    tag_offset: int = 0
    tag_scalar: str = ""
    ctors: Tuple[TsCtor, ...] = ()
    #: Whether the record has ``columns`` (every stride a multiple of its scalars' sizes).
    columns: bool = False
    #: An enum: its base scalar and ``(name, TypeScript literal)`` of each value.
    base: str = ""
    values: Tuple[Tuple[str, str], ...] = ()
    #: An enum some member of this module uses: its checked writer and reader follow it.
    used: bool = False


@dataclass(frozen=True)
class TsModule:
    tool: str
    version: str
    module: str
    source: str
    runtime: str
    scalars: Tuple[TsScalar, ...]
    #: ``(file to import, identifiers)`` of the other schema files' types this one uses.
    imports: Tuple[Tuple[str, Tuple[str, ...]], ...]
    #: Enums of other schema files used here: ``(identifier, qualified name, base)``.
    foreign_enums: Tuple[Tuple[str, str, str], ...]
    types: Tuple[TsType, ...]


def _scalar_row(s: Scalar) -> TsScalar:
    if s is TBool or s is TUnit:  # stored as an int32, read as a boolean or null
        kind = s.name
    elif s.is_float:
        kind = "half" if s.half_float else f"float{s.size * 8}"
    else:
        kind = "bigint" if s.wide else "int"
    suffix = "n" if kind == "bigint" else ""
    # A byte string's char is a byte, 0 to 255, as Python's ``bytes`` (its C signedness
    # differs between ABIs, so it has no range of its own).
    rng = (0, 255) if s is TChar else s.int_range
    lo, hi = rng if rng is not None and kind in ("int", "bigint") else (0, 0)
    return TsScalar(s.name, kind, TYPESCRIPT.accessor[s.name], s.size > 1, f"{lo}{suffix}",
                    f"{hi}{suffix}", TYPESCRIPT.scalar[s.name])


class _Names:
    """The file-scope names of one module, each claimed once: two schema names escaped to
    one (``class`` and ``class_``, of module ``""``) are refused, naming both."""

    def __init__(self) -> None:
        self.taken: Dict[str, str] = {}

    def claim(self, name: str, owner: str, location) -> str:
        other = self.taken.get(name)
        if other is not None and other != owner:
            raise SchemaError(f"in the typescript output, {owner} is declared as {name!r}, "
                              f"which is also {other}; rename one of them", location)
        self.taken[name] = owner
        return name


def _column_units(types, memo: Dict[int, Optional[int]]) -> None:
    """For each record reached from ``types``: the size of its largest scalar when every
    stride in it is a multiple of the size of each scalar below it (columns are possible),
    else ``None``; computed once per record, nested records first, without recursion (records
    nest thousands deep)."""
    stack = [st for st in types if st.kind == "record"]
    while stack:
        st = stack[-1]
        if id(st) in memo:
            stack.pop()
            continue
        pending = [m.record for m in st.members
                   if m.record is not None and id(m.record) not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[id(st)] = _column_unit(st, memo)


def _column_unit(st: SchemaType, memo: Dict[int, Optional[int]]) -> Optional[int]:
    unit = 1
    for m in st.members:
        if m.record is not None:
            inner = memo[id(m.record)]
            if inner is None:
                return None
        else:
            inner = m.scalar.size  # type: ignore[union-attr]
        if any(d.stride % inner for d in m.dims):
            return None
        unit = max(unit, inner)
    # Scalar sizes are powers of two: a multiple of the largest is one of every other.
    return unit if st.size % unit == 0 else None


class _ModuleWalk:
    """Builds one module's view: its members, the scalars and enums they use, its imports."""

    def __init__(self, schema: Schema, module: ModuleDecl,
                 filename_of: Callable[[ModuleDecl], str]) -> None:
        self.module = module
        self.filename_of = filename_of
        self.names = _Names()
        self.scalars: Dict[str, None] = {}
        self.enums: Dict[str, SchemaType] = {}
        self.imports: Dict[str, Dict[str, None]] = {}
        self.units: Dict[int, Optional[int]] = {}

    def ident(self, st: SchemaType) -> str:
        """``st``'s identifier here; a type of another file is imported (and claimed)."""
        name = ts_ident(st.c_name)
        if st.source is not self.module:
            self.names.claim(name, f"the type {st.qualified_name!r} it imports",
                             st.decl.location)
            stem = os.path.splitext(self.filename_of(st.source))[0]
            self.imports.setdefault(f"./{stem}.js", {})[name] = None
        return name

    def member(self, m: Member) -> TsMember:
        dims = tuple((d.count, d.stride) for d in m.dims)
        if m.enum is not None:
            ref = self.ident(m.enum)
            self.enums.setdefault(ref, m.enum)
            self.scalars[m.scalar.name] = None  # type: ignore[union-attr]
            kind, element, lane = "enum", ref, TYPESCRIPT.typed_array[m.scalar.name]  # type: ignore[union-attr]
        elif m.scalar is not None:
            self.scalars[m.scalar.name] = None
            kind, ref = "scalar", m.scalar.name
            element, lane = TYPESCRIPT.scalar[ref], TYPESCRIPT.typed_array[ref]
        else:
            ref = self.ident(m.record)  # type: ignore[arg-type]
            kind, element, lane = "record", ref, ""
        local = kind != "record" or m.record.source is self.module  # type: ignore[union-attr]
        return TsMember(m.name, m.offset, kind, ref, local, dims, element + "[]" * len(dims),
                        lane)

    def record(self, st: SchemaType, common: dict) -> TsType:
        members = tuple(self.member(m) for m in st.members)
        _column_units((st,), self.units)
        return TsType(kind="record", members=members, columns=self.units[id(st)] is not None,
                      **common)

    def variant(self, st: SchemaType, common: dict) -> TsType:
        tag = st.members[0]
        self.scalars[tag.scalar.name] = None  # type: ignore[union-attr]
        ctors = []
        for arm in st.arms:
            iface = self.names.claim(ts_ident(f"{st.c_name}_{arm.name}"),
                                     f"constructor {st.qualified_name}.{arm.name}",
                                     arm.location or st.decl.location)
            ctors.append(TsCtor(arm.name, arm.tag, iface, tuple(self.member(a) for a in arm.args)))
        return TsType(kind="variant", tag_offset=tag.offset,
                      tag_scalar=tag.scalar.name,  # type: ignore[union-attr]
                      ctors=tuple(ctors), **common)

    def enum(self, st: SchemaType, common: dict) -> TsType:
        base = st.elttype.base  # type: ignore[union-attr]
        suffix = "n" if base.wide else ""
        values = tuple((n, f"{v}{suffix}") for n, v in st.elttype.values)  # type: ignore[union-attr]
        return TsType(kind="enum", base=base.name, values=values, **common)


def typescript_view(schema: Schema, module: ModuleDecl,
                    filename_of: Callable[[ModuleDecl], str]) -> TsModule:
    """The view of ``module``'s ``.ts`` file; ``SchemaError`` for two names that meet."""
    walk = _ModuleWalk(schema, module, filename_of)
    views: List[TsType] = []
    for st in schema.dependency_order(schema.module_types(module)):
        ident = walk.names.claim(ts_ident(st.c_name), f"type {st.qualified_name!r}",
                                 st.decl.location)
        common = dict(ident=ident, qualified_name=st.qualified_name, size=st.size,
                      align=st.align, layout_id=layout_id_hex(st))
        build = {"record": walk.record, "variant": walk.variant, "enum": walk.enum}[st.kind]
        views.append(build(st, common))
    used = set(walk.enums)
    types = tuple(replace(v, used=True) if v.kind == "enum" and v.ident in used else v
                  for v in views)
    foreign = tuple((ident, st.qualified_name, st.elttype.base.name)  # type: ignore[union-attr]
                    for ident, st in walk.enums.items() if st.source is not module)
    scalars = tuple(_scalar_row(s) for name, s in {**SCALARS, **ELEMENT_SCALARS}.items()
                    if name in walk.scalars)
    return TsModule(
        tool=TOOL,
        version=__version__,
        module=module.name,
        source=os.path.basename(module.path),
        runtime=runtime_text(),
        scalars=scalars,
        imports=tuple((f, tuple(names)) for f, names in walk.imports.items()),
        foreign_enums=foreign,
        types=types,
    )
