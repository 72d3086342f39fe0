"""The ``python`` target: view data for ``templates/python.py.j2``, a standalone module per
schema file (``<stem>_layout.py``) that needs only the standard library.

What the module holds, per type: a frozen dataclass for a record (one per constructor for a
variant, plus a ``Union`` alias), ``SIZEOF_``/``ALIGNOF_``/``OFFSETS_`` constants, tags as
``TAG`` class attributes and a ``TAGS_`` table, and ``encode_``/``decode_``/``pack_``/
``unpack_`` functions built on one precompiled ``struct.Struct`` per record and constructor
(the same ``host.plan`` formats as the host codec). Class names are the C names, so
``Geometry_shape_Circle`` is both the C enum constant and the Python class.

This module only gathers names and numbers; the template spells them. Nested record classes
are named from the declarations (``Module.name`` references), never from the structural
elttype, because two modules may declare equal records under one name.
"""

from __future__ import annotations

import builtins
import keyword
from dataclasses import dataclass
from typing import Dict, List, Tuple

from .._version import __version__
from ..errors import SchemaError, quoted
from ..ir.schema import (
    ModuleDecl,
    NamedType,
    Schema,
    SchemaType,
    SourceLocation,
    TypeExpr,
    c_name_of,
)
from ..ir.types import Scalar, TRecord
from .plan import SCALAR_FORMAT, RecordPlan, Slot, VariantPlan, plan_of

__all__ = [
    "PyField",
    "PySlot",
    "PyRecordRef",
    "PyNode",
    "PyCtor",
    "PyType",
    "PyModuleView",
    "python_view",
    "python_module_name",
]

TOOL = "sarek-layout"

#: Python annotation of each scalar.
_ANNOTATION = {"int32": "int", "int64": "int", "float32": "float", "float64": "float",
               "bool": "bool", "unit": "None"}

#: Names every generated module defines besides the per-type ones.
_FIXED_NAMES = ("EncodeError", "DecodeError")


@dataclass(frozen=True)
class PyField:
    """A dataclass field: ``name: annotation`` (a scalar's Python type or a class name)."""

    name: str
    annotation: str


@dataclass(frozen=True)
class PySlot:
    """One scalar the ``struct`` format packs, in format order.

    ``attr`` is the dotted attribute path from the value (``pos.x``, ``_0.x``); ``path`` the
    layout's leaf path, for messages; ``scalar`` the schema scalar name; ``format`` its
    ``struct`` character; ``source`` the expression the encoder reads it with (from
    ``value`` or from the temporary holding its nested record, ``_sarek_r1.x``).
    """

    attr: str
    path: str
    scalar: str
    format: str
    source: str = ""


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
    ``kind`` ``record``: ``cls(*children)``.
    """

    kind: str
    cls: str = ""
    index: int = 0
    scalar: str = ""
    children: Tuple["PyNode", ...] = ()


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
    #: The record arguments and their nested records, in the order they are fetched.
    records: Tuple[PyRecordRef, ...] = ()


@dataclass(frozen=True)
class PyType:
    kind: str  # "record" | "variant"
    name: str
    qualified_name: str
    c_name: str
    size: int
    align: int
    #: ``(dotted leaf path, offset)`` of every scalar leaf (variants: ``tag`` first).
    offsets: Tuple[Tuple[str, int], ...]
    # records
    fields: Tuple[PyField, ...] = ()
    format: str = ""
    slots: Tuple[PySlot, ...] = ()
    build: PyNode = PyNode("record")
    #: The nested records, in the order they are fetched (the value itself is checked too).
    records: Tuple[PyRecordRef, ...] = ()
    # variants
    payload_offset: int = 0
    ctors: Tuple[PyCtor, ...] = ()


@dataclass(frozen=True)
class PyModuleView:
    tool: str
    version: str
    module: str
    source: str
    #: The Python module's own name (``geometry_layout``).
    module_name: str
    types: Tuple[PyType, ...]
    #: ``(module name, (class names…))`` of other generated modules this one uses.
    imports: Tuple[Tuple[str, Tuple[str, ...]], ...]
    #: Every public name the module defines, for ``__all__``.
    exports: Tuple[str, ...]


def python_module_name(module: ModuleDecl) -> str:
    """The importable name of ``module``'s generated file (its filename without ``.py``).

    ``SchemaError`` when that is not a Python identifier (``my-schema.toml`` would give
    ``my-schema_layout``): the file name is what ``import`` sees, so it is refused rather
    than silently renamed.
    """
    import os

    from ..codegen import header_filename

    filename = header_filename(module, "python")
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


def _record_c_name(owner: SchemaType, expr: TypeExpr) -> str:
    assert isinstance(expr, NamedType)
    return c_name_of(expr.module if expr.module is not None else owner.module, expr.name)


def _annotation(owner: SchemaType, t: object, expr: TypeExpr) -> str:
    if isinstance(t, Scalar):
        return _ANNOTATION[t.name]
    return _record_c_name(owner, expr)


class _Walker:
    """Walks a value's declarations in leaf order, matching them with the plan's slots."""

    def __init__(self, schema: Schema, slots: Tuple[Slot, ...], first_index: int, path_prefix: str = "") -> None:
        self.schema = schema
        self.path_prefix = path_prefix
        self.slots = slots
        self.next = 0
        self.index = first_index
        self.used_classes: List[str] = []
        self.py_slots: List[PySlot] = []
        self.records: List[PyRecordRef] = []

    def node(self, owner: SchemaType, t: object, expr: TypeExpr, attr: str, holder: str = "value") -> PyNode:
        """The node of the member at dotted path ``attr``, read from the variable ``holder``."""
        member = attr.rsplit(".", 1)[-1]
        if isinstance(t, TRecord):
            c_name = _record_c_name(owner, expr)
            self.used_classes.append(c_name)
            var = f"_sarek_r{len(self.records) + 1}"
            self.records.append(PyRecordRef(var, f"{holder}.{member}", attr, self.path_prefix + attr))
            inner = self.schema.by_c_name(c_name)
            decls = inner.decl.fields  # type: ignore[union-attr]
            children = tuple(
                self.node(inner, ft, d.type, f"{attr}.{name}", var)
                for (name, ft), d in zip(inner.elttype.fields, decls)  # type: ignore[union-attr]
            )
            return PyNode("record", cls=c_name, children=children)
        assert isinstance(t, Scalar)
        slot = self.slots[self.next]
        self.next += 1
        # Cross-check: the plan's slot must be the leaf this walk reached.
        assert slot.type == t and ".".join(map(_step_attr, slot.steps)) == attr, (slot, attr)
        self.py_slots.append(PySlot(attr, slot.path, t.name, SCALAR_FORMAT[t], f"{holder}.{member}"))
        index = self.index
        self.index += 1
        return PyNode("scalar", index=index, scalar=t.name)


def _step_attr(step: object) -> str:
    return f"_{step}" if isinstance(step, int) else str(step)


def _record_type(schema: Schema, st: SchemaType) -> Tuple[PyType, List[str]]:
    plan = plan_of(st.elttype)
    assert isinstance(plan, RecordPlan)
    walker = _Walker(schema, plan.slots, 0)
    decls = st.decl.fields  # type: ignore[union-attr]
    children = tuple(
        walker.node(st, ft, d.type, name)
        for (name, ft), d in zip(st.elttype.fields, decls)  # type: ignore[union-attr]
    )
    assert walker.next == len(plan.slots)
    fields = tuple(
        PyField(name, _annotation(st, ft, d.type))
        for (name, ft), d in zip(st.elttype.fields, decls)  # type: ignore[union-attr]
    )
    view = PyType(
        kind="record",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        size=plan.layout.size,
        align=plan.layout.align,
        offsets=tuple((s.path, s.offset) for s in plan.slots),
        fields=fields,
        format=plan.format,
        slots=tuple(walker.py_slots),
        build=PyNode("record", cls=st.c_name, children=children),
        records=tuple(walker.records),
    )
    return view, walker.used_classes


def _variant_type(schema: Schema, st: SchemaType) -> Tuple[PyType, List[str]]:
    plan = plan_of(st.elttype)
    assert isinstance(plan, VariantPlan)
    used: List[str] = []
    ctors = []
    for ctor, decl in zip(plan.ctors, st.decl.ctors):  # type: ignore[union-attr]
        walker = _Walker(schema, ctor.slots, 1, f"{ctor.name}.")  # item 0 of the unpacked tuple is the tag
        args = tuple(
            walker.node(st, at, expr, f"_{i}") for i, (at, expr) in enumerate(zip(ctor.args, decl.args))
        )
        assert walker.next == len(ctor.slots)
        used += walker.used_classes
        ctors.append(PyCtor(
            name=ctor.name,
            tag=ctor.tag,
            cls=f"{st.c_name}_{ctor.name}",
            fields=tuple(PyField(f"_{i}", _annotation(st, at, expr))
                         for i, (at, expr) in enumerate(zip(ctor.args, decl.args))),
            format=ctor.format,
            slots=tuple(walker.py_slots),
            args=args,
            records=tuple(walker.records),
        ))
    offsets = [("tag", plan.layout.tag_offset)]
    offsets += [(s.path, s.offset) for c in plan.ctors for s in c.slots]
    view = PyType(
        kind="variant",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        size=plan.layout.size,
        align=plan.layout.align,
        offsets=tuple(offsets),
        payload_offset=plan.layout.payload_offset,
        ctors=tuple(ctors),
    )
    return view, used


def _public_names(t: PyType) -> List[str]:
    c = t.c_name
    names = [c, f"SIZEOF_{c}", f"ALIGNOF_{c}", f"OFFSETS_{c}",
             f"encode_{c}", f"decode_{c}", f"pack_{c}", f"unpack_{c}"]
    if t.kind == "variant":
        names += [ctor.cls for ctor in t.ctors] + [f"TAGS_{c}", f"PAYLOAD_OFFSET_{c}"]
    return names


def python_view(schema: Schema, module: ModuleDecl) -> PyModuleView:
    """The view of ``module``'s Python file; ``SchemaError`` if two generated names clash."""
    import os

    types = schema.dependency_order(schema.module_types(module))
    views: List[PyType] = []
    foreign: Dict[str, List[str]] = {}
    for st in types:
        view, used = (_record_type if st.kind == "record" else _variant_type)(schema, st)
        views.append(view)
        for c_name in used:
            source = schema.by_c_name(c_name).source
            if source is not module:
                names = foreign.setdefault(python_module_name(source), [])
                if c_name not in names:
                    names.append(c_name)

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
            if name in owner:
                raise SchemaError(
                    f"the python target would define {name!r} for type {st.qualified_name!r}, "
                    f"but that name is already taken by {owner[name]}; rename the type",
                    st.decl.location,
                )
            owner[name] = f"type {st.qualified_name!r}"
            exports.append(name)
    own_module_name = python_module_name(module)
    return PyModuleView(
        tool=TOOL,
        version=__version__,
        module=module.name,
        source=os.path.basename(module.path),
        module_name=own_module_name,
        types=tuple(views),
        imports=tuple((mod, tuple(names)) for mod, names in foreign.items()),
        exports=tuple(exports),
    )
