"""The ``python`` target: view data for ``templates/python.py.j2``, a standalone module per
schema file (``<stem>_layout.py``) that needs only the standard library.

What the module holds: the shared runtime (``host._runtime``, pasted verbatim: the error
classes, value checks, buffer and span helpers), then per type a frozen dataclass for a
record (one per constructor for a variant, plus a ``Union`` alias),
``SIZEOF_``/``ALIGNOF_``/``OFFSETS_`` constants, tags as ``TAG`` class attributes and a
``TAGS_`` table, the layout fingerprint ``LAYOUT_ID_`` with ``header_``/``check_header_``/
``pack_framed_``/``unpack_framed_`` (docs/fingerprint.md), and
``encode_``/``decode_``/``pack_``/``unpack_`` functions built on one
precompiled ``struct.Struct`` per record and constructor: the same plans (``host.plan``)
as the API codecs, so the bytes are the same and the module is linear in the schema (a
nested record beyond the plan's bound is packed by its own ``encode_`` function and read
back by its ``decode_``). ``OFFSETS_T`` lists the plan's slots: every scalar leaf, except
that a nested record packed whole is one entry (its own ``OFFSETS_`` lists the rest).

Members of SPEC §1b: a fixed array, vector or matrix is one slot with a runtime
``_sarek_Repeat`` object (``_sarek_R_<C name>_<slot>``, its arguments read from the plan's
``Repeat``), its dataclass field a (nested) ``Tuple[T, ...]``, and ``DIMS_T`` gives its
``(count, stride)`` levels; an enum type is an ``IntEnum`` class with its values (and
``_sarek_E_<C name>``, what the codecs check values against), and a member of it is
annotated with that class.

Names: classes are the C names, so ``Geometry_shape_Circle`` is both the C enum constant
and the Python class. A name that is a Python keyword (a field ``from``, a type ``None`` of
module ``""``) is emitted with a trailing ``_`` (``from_``), as flatc does; a clash that this
creates (fields ``from`` and ``from_``) is a ``SchemaError`` naming both. Messages and
``OFFSETS_`` keys keep the schema's names. Nested records are named from the member model
(``Member.record.c_name``), never from the structural elttype, because two modules may
declare equal records under one name.

This module gathers names and numbers; the template spells them. It never imports codegen:
codegen reaches it through a lazy hook (``codegen.target_views``), which also hands it
the file name of each module's output, so the two stages have no import cycle.
"""

from __future__ import annotations

import builtins
import functools
import keyword
import os
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from .._version import __version__
from ..errors import SchemaError, quoted
from ..ir.schema import ModuleDecl, Schema, SchemaType, SourceLocation
from ..ir.types import ELEMENT_SCALARS, SCALARS, TEnum, TInt32
from ..layout.fingerprint import layout_id_hex
from ..targets.names import spelling
from ._runtime import _sarek_GC_PAUSE_MIN
from .plan import PlanMember, RecordPlan, VariantPlan, plan_of

__all__ = [
    "PyRepeat",
    "PyEnum",
    "PyField",
    "PySlot",
    "PyRecordRef",
    "PyNode",
    "PyCtor",
    "PyType",
    "PyModuleView",
    "python_view",
    "python_name",
    "enum_value_name",
    "python_module_name",
    "runtime_text",
]

TOOL = "sarek-layout"

#: Names every generated module defines besides the per-type ones (the runtime's classes).
_FIXED_NAMES = ("EncodeError", "DecodeError")

_RUNTIME_BEGIN = "# --- runtime: begin "
_RUNTIME_END = "# --- runtime: end "


@functools.lru_cache(maxsize=None)
def runtime_text() -> str:
    """The shared runtime as every generated module carries it: the marked regions of
    ``host/_runtime.py`` and ``host/_runtime_kinds.py`` (which uses the first's names),
    markers included, verbatim, in that order."""
    from importlib import resources

    regions = []
    for name in ("_runtime.py", "_runtime_kinds.py"):
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
        begin = text.index(_RUNTIME_BEGIN)
        end = text.index("\n", text.index(_RUNTIME_END)) + 1
        regions.append(text[begin:end])
    return "\n\n".join(regions)


def python_name(name: str) -> str:
    """How the python target spells a schema name: a Python keyword, or a name every class
    already has (``mro``), gets a trailing ``_`` (``from`` → ``from_``, ``None`` → ``None_``,
    ``mro`` → ``mro_``); every other name is kept (``targets.names`` decides)."""
    return spelling("python", name)


def _escaped_because(name: str) -> str:
    """Why ``python_name`` or ``enum_value_name`` escaped ``name``, for a message."""
    if keyword.iskeyword(name):
        return "a Python keyword"
    if name in _ENUM_MEMBER_ATTRIBUTES:
        return "a name every IntEnum member has"
    return "a name every Python class has"


#: Names every IntEnum member has (``name``, ``value``, and int's own), fixed here rather
#: than read from ``dir(int)``, so that the generated code is the same on every Python.
_ENUM_MEMBER_ATTRIBUTES = frozenset((
    "name", "value", "as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator",
    "from_bytes", "imag", "is_integer", "numerator", "real", "to_bytes"))


def enum_value_name(name: str) -> str:
    """How the python target (and the API's IntEnum classes) spell a value name of an enum:
    as ``python_name``, and a name every IntEnum member has (``name``, ``real``) also gets a
    trailing ``_``; the schema's name is accepted when encoding."""
    return name + "_" if name in _ENUM_MEMBER_ATTRIBUTES else python_name(name)


@dataclass(frozen=True)
class PyField:
    """A dataclass field: ``name: annotation`` (a scalar's Python type or a class name)."""

    name: str
    annotation: str


@dataclass(frozen=True)
class PyRepeat:
    """The runtime object of one repeated member (``_sarek_Repeat``), as the module builds
    it: ``var = _sarek_Repeat(path, shape, row, enum, row_format, per_row, rows, size)``;
    ``scalar`` is the element's scalar name (``""``: records), ``enum`` the variable of its
    enum's checks (or ``""``)."""

    var: str
    path: str
    shape: str
    scalar: str
    enum: str
    row_format: str
    per_row: int
    rows: int
    size: int


@dataclass(frozen=True)
class PyEnum:
    """An enum type: an ``IntEnum`` class ``cls`` with ``members`` (Python name, value),
    and its checks ``spec`` built from the schema's ``pairs`` (value name, value)."""

    cls: str
    spec: str
    base: str
    members: Tuple[Tuple[str, int], ...]
    pairs: Tuple[Tuple[str, int], ...]


@dataclass(frozen=True)
class PySlot:
    """One value the ``struct`` format packs, in format order.

    ``attr`` is the dotted attribute path from the value (``pos.x``, ``_0.x``, keywords
    escaped); ``path`` the layout's path, for messages; ``scalar`` the schema scalar name, or
    ``""`` for a nested record packed by its own ``encoder`` (``encode_<C name>``);
    ``source`` the expression the encoder reads it with (from ``value`` or from the
    temporary holding its nested record, ``_sarek_r1.x``).
    """

    attr: str
    path: str
    scalar: str
    source: str
    encoder: str = ""
    #: A repeated member: its ``_sarek_Repeat`` variable; ``inline`` when its values are
    #: splatted into the ``pack`` call (else its bytes are one ``Ns`` item).
    repeat: str = ""
    inline: bool = False
    #: An enum member: the variable of its enum's checks.
    enum: str = ""


@dataclass(frozen=True)
class PyRecordRef:
    """A nested record the encoder fetches once into the temporary ``var`` (from ``source``)
    and checks there: a mapping is not a record value in the generated module."""

    var: str
    source: str
    #: The dotted attribute path from the value (``pos``, ``_0``).
    attr: str
    #: The layout's path, for messages (``pos``, ``Circle._0``).
    path: str


@dataclass(frozen=True)
class PyNode:
    """How a decoded value is rebuilt from the unpacked tuple.

    ``kind`` ``scalar``: item ``index`` of the tuple (``scalar`` says how to read it);
    ``record``: ``cls(*children)``; ``opaque``: ``decoder(item index)``, a nested record's
    bytes read by its own ``decode_`` function; ``repeat``: ``repeat.unflat`` of items
    ``index`` to ``end`` (``inline``), else ``repeat.unpack`` of item ``index`` (with the
    element's ``decoder`` for records); ``enum``: the member of ``enum`` that item ``index``
    is (``path`` names it in a message).
    """

    kind: str
    cls: str = ""
    index: int = 0
    scalar: str = ""
    decoder: str = ""
    children: Tuple["PyNode", ...] = ()
    end: int = 0
    repeat: str = ""
    inline: bool = False
    enum: str = ""
    path: str = ""


@dataclass(frozen=True)
class PyCtor:
    name: str
    tag: int
    #: The class of this constructor: ``<c_name>_<Ctor>``, the C enum constant's name.
    cls: str
    fields: Tuple[PyField, ...]
    format: str
    slots: Tuple[PySlot, ...]
    #: One node per argument; the tuple's item 0 is the tag.
    args: Tuple[PyNode, ...]
    #: The record arguments and their nested records read in place, in fetch order.
    records: Tuple[PyRecordRef, ...] = ()
    #: The runtime objects of its repeated arguments.
    repeats: Tuple[PyRepeat, ...] = ()


@dataclass(frozen=True)
class PyType:
    kind: str  # "record" | "variant" | "enum"
    name: str
    qualified_name: str
    c_name: str
    #: The Python class (the C name, escaped if it is a keyword); for a variant, the alias.
    cls: str
    size: int
    align: int
    #: ``(dotted path, offset)`` of every slot of the plan (variants: ``tag`` first).
    offsets: Tuple[Tuple[str, int], ...]
    #: Scalars in one element (its largest constructor's): decoding many pauses the GC.
    leaves: int
    #: Whether decoding one element already builds enough objects to pause the GC.
    pause_gc: bool
    # records
    fields: Tuple[PyField, ...] = ()
    format: str = ""
    slots: Tuple[PySlot, ...] = ()
    build: PyNode = PyNode("record")
    #: The nested records read in place, in fetch order (the value itself is checked too).
    records: Tuple[PyRecordRef, ...] = ()
    # variants
    payload_offset: int = 0
    ctors: Tuple[PyCtor, ...] = ()
    #: The layout fingerprint, ``0x`` + 16 hex digits (``layout.fingerprint``).
    layout_id: str = ""
    #: The runtime objects of its repeated members (a record's; a variant's are its ctors').
    repeats: Tuple[PyRepeat, ...] = ()
    #: ``(dotted path, ((count, stride), …))`` of each repeated slot, outermost first.
    dims: Tuple[Tuple[str, Tuple[Tuple[int, int], ...]], ...] = ()
    # enums
    enum: Optional[PyEnum] = None


@dataclass(frozen=True)
class PyModuleView:
    tool: str
    version: str
    module: str
    source: str
    #: The Python module's own name (``geometry_layout``).
    module_name: str
    #: The shared runtime's text (``runtime_text()``), pasted as it is.
    runtime: str
    #: ``(name, kind, struct format, int range or None)`` of every scalar, from the table.
    scalars: Tuple[Tuple[str, str, str, str], ...]
    #: The ``struct`` character of a variant's tag (an int32).
    tag_format: str
    types: Tuple[PyType, ...]
    #: ``(module name, (names…))`` of other generated modules this one uses.
    imports: Tuple[Tuple[str, Tuple[str, ...]], ...]
    #: Every public name the module defines, for ``__all__``.
    exports: Tuple[str, ...]


def python_module_name(module: ModuleDecl, filename: str) -> str:
    """The importable name of ``module``'s generated file ``filename`` (without ``.py``).

    ``SchemaError`` when that is not a Python identifier (``my-schema.toml`` would give
    ``my-schema_layout``): the file name is what ``import`` sees, so it is refused rather
    than silently renamed.
    """
    name = filename[: -len(".py")] if filename.endswith(".py") else filename
    if not (name.isascii() and name.isidentifier()) or keyword.iskeyword(name):
        raise SchemaError(
            f"the python target names its module after the schema file: "
            f"{quoted(os.path.basename(module.path))} would give {quoted(name)}, which is not a "
            f"Python identifier; rename the file using letters, digits and '_' (not starting "
            f"with a digit)",
            SourceLocation(module.path),
        )
    return name


def _annotation(m: PlanMember) -> str:
    if m.enum is not None:
        element = python_name(m.enum.c_name)
    elif m.scalar is not None:
        element = m.scalar.annotation
    else:
        element = python_name(m.record.key.c_name)  # type: ignore[union-attr]
    # A repeated member decodes to nested tuples: one ``Tuple[…, ...]`` per level, however
    # many elements (the encoders take lists and numpy arrays too); a char array's last
    # level is its text, ``bytes``.
    levels = m.dims[1:] if m.scalar is not None and m.scalar.is_char else m.dims
    for _ in levels:
        element = f"_sarek_Tuple[{element}, ...]"
    return element


def _fields(st: SchemaType, members: Tuple[PlanMember, ...]) -> Tuple[PyField, ...]:
    """The dataclass fields of a record; ``SchemaError`` when escaping a keyword makes two of
    them one name (``from`` and ``from_``)."""
    seen: Dict[str, str] = {}
    out = []
    for m, declared in zip(members, st.members):
        name = python_name(m.name)
        if name in seen:
            keyword_one, other = (m.name, seen[name]) if name != m.name else (seen[name], m.name)
            raise SchemaError(
                f"type {st.qualified_name!r} has fields {keyword_one!r} and {other!r}, which the "
                f"python target would both emit as {name!r} ({keyword_one!r} is "
                f"{_escaped_because(keyword_one)}, escaped with a trailing '_'); rename one of them",
                declared.location or st.decl.location,
            )
        seen[name] = m.name
        out.append(PyField(name, _annotation(m)))
    return tuple(out)


class _Walker:
    """Walks a plan's members in slot order: the encoder's reads, the decoder's nodes.

    ``owner`` (the type's or the constructor's C name) names the runtime objects of its
    repeated members."""

    def __init__(self, first_index: int, owner: str) -> None:
        self.index = first_index
        self.owner = owner
        self.slots: List[PySlot] = []
        self.records: List[PyRecordRef] = []
        self.repeats: List[PyRepeat] = []
        self.dims: List[Tuple[str, Tuple[Tuple[int, int], ...]]] = []
        #: Nested records and enums whose classes the code names (built in place, or
        #: annotated).
        self.classes: List[SchemaType] = []
        #: Nested records packed by their own encode_/decode_ functions.
        self.opaque: List[SchemaType] = []
        #: Enums whose checks the code uses.
        self.enums: List[SchemaType] = []

    def member(self, m: PlanMember, holder: str, attr_prefix: str, path_prefix: str) -> PyNode:
        py = python_name(m.name)
        attr, path, source = attr_prefix + py, path_prefix + m.name, f"{holder}.{py}"
        if m.repeat is not None:
            return self._repeated(m, attr, path, source)
        if m.enum is not None:
            self.enums.append(m.enum)
            spec = enum_var(m.enum)
            self.slots.append(PySlot(attr, path, m.scalar.name, source, enum=spec))  # type: ignore[union-attr]
            return PyNode("enum", index=self._next(), enum=spec, path=path)
        if m.record is not None:
            nested: SchemaType = m.record.key  # type: ignore[assignment]
            if m.inline:
                self.classes.append(nested)
                var = f"_sarek_r{len(self.records) + 1}"
                self.records.append(PyRecordRef(var, source, attr, path))
                children = tuple(self.member(inner, var, attr + ".", path + ".")
                                 for inner in m.record.members)
                return PyNode("record", cls=python_name(nested.c_name), children=children)
            self.opaque.append(nested)
            self.slots.append(PySlot(attr, path, "", source, f"encode_{nested.c_name}"))
            return PyNode("opaque", index=self._next(), decoder=f"decode_{nested.c_name}")
        scalar = m.scalar.name  # type: ignore[union-attr]
        self.slots.append(PySlot(attr, path, scalar, source))
        return PyNode("scalar", index=self._next(), scalar=scalar)

    def _repeated(self, m: PlanMember, attr: str, path: str, source: str) -> PyNode:
        r = m.repeat
        assert r is not None
        var = f"_sarek_R_{self.owner}_{len(self.slots)}"
        encoder = decoder = spec = ""
        if m.record is not None:
            self.opaque.append(m.record.key)  # type: ignore[arg-type]
            encoder, decoder = f"encode_{m.record.key.c_name}", f"decode_{m.record.key.c_name}"
        if m.enum is not None:
            self.enums.append(m.enum)
            spec = enum_var(m.enum)
        self.repeats.append(PyRepeat(var, path, repr(r.shape), m.scalar.name if m.scalar else "",
                                     spec, "=" + r.row, r.per_row, r.rows, m.size))
        self.dims.append((path, tuple((d.count, d.stride) for d in m.dims)))
        self.slots.append(PySlot(attr, path, m.scalar.name if m.scalar else "", source, encoder,
                                 repeat=var, inline=r.inline))
        index = self._next(r.count if r.inline else 1)
        return PyNode("repeat", index=index, end=self.index, repeat=var, inline=r.inline,
                      decoder=decoder)

    def _next(self, count: int = 1) -> int:
        self.index += count
        return self.index - count


def enum_var(st: SchemaType) -> str:
    """The variable holding the checks of enum ``st`` in a generated module."""
    return f"_sarek_E_{st.c_name}"


def _annotated(members: Tuple[PlanMember, ...]) -> List[SchemaType]:
    """The nested records and enums that the dataclass fields of ``members`` are annotated
    with."""
    return [m.enum if m.enum is not None else m.record.key  # type: ignore[misc]
            for m in members if m.record is not None or m.enum is not None]


def _offsets(slots, prefix: Tuple[Tuple[str, int], ...] = ()) -> Tuple[Tuple[str, int], ...]:
    return prefix + tuple((s.path, s.offset) for s in slots)


def _record_type(st: SchemaType) -> Tuple[PyType, _Walker]:
    plan = plan_of(st)
    assert isinstance(plan, RecordPlan)
    walker = _Walker(0, st.c_name)
    children = tuple(walker.member(m, "value", "", "") for m in plan.members)
    assert len(walker.slots) == len(plan.slots)
    walker.classes += _annotated(plan.members)
    view = PyType(
        kind="record",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        cls=python_name(st.c_name),
        size=plan.size,
        align=plan.align,
        offsets=_offsets(plan.slots),
        leaves=plan.leaves,
        pause_gc=plan.leaves >= _sarek_GC_PAUSE_MIN,
        layout_id=layout_id_hex(st),
        fields=_fields(st, plan.members),
        format=plan.format,
        slots=tuple(walker.slots),
        build=PyNode("record", cls=python_name(st.c_name), children=children),
        records=tuple(walker.records),
        repeats=tuple(walker.repeats),
        dims=tuple(walker.dims),
    )
    return view, walker


def _variant_type(st: SchemaType) -> Tuple[PyType, _Walker]:
    plan = plan_of(st)
    assert isinstance(plan, VariantPlan)
    used = _Walker(0, st.c_name)
    ctors = []
    for ctor in plan.ctors:
        walker = _Walker(1, f"{st.c_name}_{ctor.name}")  # item 0 of the unpacked tuple is the tag
        args = tuple(walker.member(m, "value", "", f"{ctor.name}.") for m in ctor.members)
        assert len(walker.slots) == len(ctor.slots)
        used.classes += walker.classes + _annotated(ctor.members)
        used.opaque += walker.opaque
        used.enums += walker.enums
        used.dims += walker.dims
        ctors.append(PyCtor(
            name=ctor.name,
            tag=ctor.tag,
            cls=f"{st.c_name}_{ctor.name}",
            fields=tuple(PyField(m.name, _annotation(m)) for m in ctor.members),
            format=ctor.format,
            slots=tuple(walker.slots),
            args=args,
            records=tuple(walker.records),
            repeats=tuple(walker.repeats),
        ))
    offsets = _offsets([s for c in plan.ctors for s in c.slots], (("tag", plan.tag_offset),))
    view = PyType(
        kind="variant",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        cls=python_name(st.c_name),
        size=plan.size,
        align=plan.align,
        offsets=offsets,
        leaves=plan.leaves,
        pause_gc=plan.leaves >= _sarek_GC_PAUSE_MIN,
        layout_id=layout_id_hex(st),
        payload_offset=plan.payload_offset,
        ctors=tuple(ctors),
        dims=tuple(used.dims),
    )
    return view, used


def _enum_type(st: SchemaType) -> Tuple[PyType, _Walker]:
    """An enum: its IntEnum class; ``SchemaError`` when escaping a keyword makes two value
    names one (``from`` and ``from_``)."""
    t: TEnum = st.elttype  # type: ignore[assignment]
    seen: Dict[str, str] = {}
    for name, _ in t.values:
        py = enum_value_name(name)
        if py in seen:
            keyword_one, other = (name, seen[py]) if py != name else (seen[py], name)
            raise SchemaError(
                f"enum {st.qualified_name!r} has values {keyword_one!r} and {other!r}, which the "
                f"python target would both emit as {py!r} ({keyword_one!r} is "
                f"{_escaped_because(keyword_one)}, escaped with a trailing '_'); rename one of them",
                st.decl.location)
        seen[py] = name
    view = PyType(
        kind="enum", name=st.name, qualified_name=st.qualified_name, c_name=st.c_name,
        cls=python_name(st.c_name), size=st.size, align=st.align, offsets=(), leaves=0,
        pause_gc=False,
        enum=PyEnum(python_name(st.c_name), enum_var(st), t.base.name,
                    tuple((enum_value_name(n), v) for n, v in t.values), t.values),
    )
    return view, _Walker(0, st.c_name)


_VIEWS: Dict[str, Callable[[SchemaType], Tuple[PyType, _Walker]]] = {
    "record": _record_type, "variant": _variant_type, "enum": _enum_type}


def _public_names(t: PyType) -> List[str]:
    c = t.c_name
    if t.kind == "enum":
        return [t.cls]
    names = [t.cls, f"DIMS_{c}", f"SIZEOF_{c}", f"ALIGNOF_{c}", f"OFFSETS_{c}", f"LAYOUT_ID_{c}",
             f"encode_{c}", f"decode_{c}", f"pack_{c}", f"unpack_{c}",
             f"header_{c}", f"check_header_{c}", f"pack_framed_{c}", f"unpack_framed_{c}"]
    if t.kind == "variant":
        names += [ctor.cls for ctor in t.ctors] + [f"TAGS_{c}", f"PAYLOAD_OFFSET_{c}"]
    return names


def _scalar_rows() -> Tuple[Tuple[str, str, str, str], ...]:
    # char too: a char array's repeated-member object names its row.
    return tuple((s.name, s.kind, s.struct_format, repr(s.int_range))
                 for s in (*SCALARS.values(), *ELEMENT_SCALARS.values()))


def python_view(schema: Schema, module: ModuleDecl, filename_of: Callable[[ModuleDecl], str]) -> PyModuleView:
    """The view of ``module``'s Python file; ``filename_of`` names each module's generated
    file. ``SchemaError`` if two generated names clash."""
    types = schema.dependency_order(schema.module_types(module))
    views: List[PyType] = []
    foreign: Dict[str, List[str]] = {}

    def use(st: SchemaType, name: str) -> None:
        if st.source is not module:
            names = foreign.setdefault(python_module_name(st.source, filename_of(st.source)), [])
            if name not in names:
                names.append(name)

    for st in types:
        view, walker = _VIEWS[st.kind](st)
        views.append(view)
        for nested in walker.classes:
            use(nested, python_name(nested.c_name))
        for nested in walker.opaque:
            use(nested, f"encode_{nested.c_name}")
            use(nested, f"decode_{nested.c_name}")
        for used in walker.enums:
            use(used, python_name(used.c_name))
            use(used, enum_var(used))

    owner: Dict[str, str] = {name: "the generated module itself" for name in _FIXED_NAMES}
    # Only a schema without a module prefix can name a type after a builtin (``list``…); the
    # generated code relies on the builtins, so shadowing one would break it.
    owner.update((name, "a Python builtin") for name in dir(builtins) if not name.startswith("_"))
    # The decoders' parameter ``t`` (the unpacked tuple) would hide a class of that name.
    owner["t"] = "a parameter of the generated decoders"
    for mod, names in foreign.items():
        owner.update((n, f"the import from {mod}") for n in names)
    exports: List[str] = list(_FIXED_NAMES)
    for view, st in zip(views, types):
        for name in _public_names(view):
            what = f"type {st.qualified_name!r}"
            if name == view.cls != st.c_name:
                what += (f" (its C name {st.c_name!r} is {_escaped_because(st.c_name)}, "
                         f"escaped with a trailing '_')")
            if name in owner:
                raise SchemaError(
                    f"the python target would define {name!r} for {what}, but that name is "
                    f"already taken by {owner[name]}; rename the type",
                    st.decl.location,
                )
            owner[name] = what
            exports.append(name)
    return PyModuleView(
        tool=TOOL,
        version=__version__,
        module=module.name,
        source=os.path.basename(module.path),
        module_name=python_module_name(module, filename_of(module)),
        runtime=runtime_text(),
        scalars=_scalar_rows(),
        tag_format=TInt32.struct_format,
        types=tuple(views),
        imports=tuple((mod, tuple(names)) for mod, names in foreign.items()),
        exports=tuple(exports),
    )
