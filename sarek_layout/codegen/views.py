"""From a laid-out schema to the view data the header templates print.

Everything a template needs is decided here, as plain frozen records of names and numbers,
read off the schema's member model (``SchemaType.items``/``arms``) and, for the member paths
and arm names, the emitted shape (``targets.shape``): each struct's members
with the explicit padding runs that leave no implicit padding (one run per stretch of holes,
named ``_sarek_pad<N>``, numbered per struct), which members carry the 8-byte alignment
specifier, the ``make_`` helpers and the record copies they call, and the compile-time
checks. No C text is assembled here: spelling is the templates' job (with the target's
dialect), arithmetic the layout stage's.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from .._version import __version__
from ..targets.naming import SOURCE_PARAM, enum_constant, make_name, padding_name
from ..targets.shape import Array, Slot, Struct, emitted_items, shape_of
from ..ir.schema import Arm, Hole, Item, Member as ModelMember, ModuleDecl, Schema, SchemaType
from ..ir.types import TFloat16, TFloat64
from ..layout.fingerprint import layout_id_hex
from .declarations import (PINNED_ALIGN, Assign, Decl, Param, declaration, kinds_assign,
                           kinds_used, param, pin_of, refuse_unheld, struct_pin)

__all__ = [
    "TOOL",
    "Member",
    "Decl",
    "Param",
    "Assign",
    "Check",
    "Copy",
    "Ctor",
    "TypeView",
    "ModuleView",
    "TypeViews",
    "type_view",
    "module_view",
    "module_dependencies",
    "copy_function_name",
    "type_guard",
]

TOOL = "sarek-layout"

#: Builds a named tuple without the generated ``__new__``'s Python frame: the views build
#: one per member and per check of every type (``_new(Check, (kind, ...))``).
_new = tuple.__new__


class Member(NamedTuple):
    """One member of a generated struct: a field, a constructor argument, the tag, or padding.

    ``kind`` is ``scalar`` (``type`` is the scalar's schema name), ``record`` or ``enum``
    (``type`` is the record's or the enum's C name), ``decl`` (a member of SPEC §1b's kinds:
    ``type`` is its ``declarations.Decl``) or ``padding`` (``type`` is empty; ``size``
    bytes). ``offset`` is from the start of the enclosing top-level element; ``pin`` is the
    alignment its specifier asks for (0: none; ``declarations.pin_of``).
    A named tuple, not a frozen dataclass: a 10,000-type header has 80,000 of them, and a
    tuple is built in half the time; the templates unpack it (``_macros.j2``), one call per
    member instead of an attribute lookup per field. Copies with changes: ``_replace``.
    """

    name: str
    kind: str
    type: Union[str, Decl]
    offset: int
    size: int
    pin: int = 0

    @property
    def align8(self) -> bool:
        """Whether it carries an alignment specifier (the views of the targets that pin
        only 8-byte members read this)."""
        return bool(self.pin)

    def _replace_name(self, name: str) -> "Member":
        return self._replace(name=name)


@dataclass(frozen=True)
class Copy:
    """A record copy with every padding byte zero: ``<c_name> <function>(<c_name> src)``.

    ``make_`` helpers call it for record arguments; it calls the copies of nested records,
    so the generated code stays linear in the schema however deep records nest. Guarded by
    ``guard`` so that the headers of several schemas may each define it.
    """

    c_name: str
    function: str
    guard: str
    assigns: Tuple[Assign, ...]


class Check(NamedTuple):
    """One compile-time assertion: ``kind`` is ``size``, ``align`` or ``offset``.

    ``member`` is the member designator for ``offsetof`` (``data.Circle_v._0``), empty for
    size and alignment; ``label`` names it for people (``Geometry_shape::data.Circle_v._0``);
    ``ident`` is an identifier unique within the header, for targets whose assertions are
    typedefs (OpenCL C), built from the type and member so that the error names both.
    A named tuple like ``Member`` (100,000 of them in a 10,000-type header), unpacked by the
    templates in this field order.
    """

    kind: str
    member: str
    value: int
    label: str
    ident: str


@dataclass(frozen=True)
class Ctor:
    """One constructor of a variant: its enum constant, ``make_`` helper and union arm.

    As in Sarek's own emitters, a constructor with one argument stores it directly as the
    union member ``<Ctor>_v`` (``single``, read ``v.data.Value_v``); several arguments make
    a struct ``<Ctor>_v`` of ``_0``, ``_1``… (``members``, with the padding up to the end of
    the payload region).
    """

    name: str
    tag: int
    enum_name: str
    make_name: str
    #: Name of the union arm (``<Ctor>_v``), empty for a constant constructor.
    arm: str
    #: A struct arm's members, arguments and padding, up to the end of the payload region.
    members: Tuple[Member, ...]
    params: Tuple[Param, ...]
    assigns: Tuple[Assign, ...]
    payload_size: int
    #: The one argument, declared as the union member ``<Ctor>_v`` itself.
    single: Optional[Member] = None


@dataclass(frozen=True)
class TypeView:
    """One ``typedef struct``: a record, or a variant (tag, padding, ``data`` union)."""

    kind: str  # "record" | "variant"
    name: str
    qualified_name: str
    c_name: str
    size: int
    align: int
    #: Record: fields and padding. Variant: ``tag`` and the padding before ``data``.
    members: Tuple[Member, ...]
    checks: Tuple[Check, ...]
    payload_offset: int = 0
    #: Size of the ``data`` union (0 when every constructor is constant: no union).
    data_size: int = 0
    #: The union starts with ``unsigned char _sarek_bytes[data_size]``: when its first arm
    #: is a single argument smaller than the union, so that zero-initialising a value
    #: (``= {0}`` initialises the first member) reaches every payload byte, and the union
    #: needs no implicit tail padding.
    data_bytes: bool = False
    ctors: Tuple[Ctor, ...] = ()
    #: Record copies the ``make_`` helpers need, defined just before them (inner first).
    copies: Tuple[Copy, ...] = ()
    #: The layout fingerprint, ``0x`` + 16 hex digits (``layout.fingerprint``).
    layout_id: str = ""
    #: An enum (kind ``enum``): its base scalar's schema name, and its constants
    #: ``(<c_name>_<Value>, value, whether it is its base's minimum)``: C spells the most
    #: negative value of a type as an expression (``-2147483647 - 1``).
    base: str = ""
    constants: Tuple[Tuple[str, int, bool], ...] = ()

    @property
    def guard(self) -> str:
        """The macro guarding this type's definition in the C and CUDA headers
        (``type_guard``)."""
        return type_guard(self.c_name, self.layout_id)


@dataclass(frozen=True)
class ModuleView:
    """Everything one header of one schema file shows, before target-specific names."""

    tool: str
    version: str
    module: str
    #: Base name of the schema file (stable across machines, unlike the path given).
    source: str
    #: A tuple, or (``module_view``) a ``TypeViews`` that builds each view as it is read.
    types: Sequence[TypeView]
    #: The OpenCL header then needs fp64 (cl_khr_fp64).
    uses_float64: bool
    #: The C-family preludes then declare the float16 typedef (``dialects.FLOAT16_TYPEDEF``).
    uses_float16: bool = False
    #: The alignment pins other than 8 its members carry (the C header then defines their
    #: ``SAREK_LAYOUT_ALIGN<n>`` macros), and the vectors they hold, as
    #: ``(scalar, components, alignment)`` (the C and CUDA headers then declare those CUDA
    #: holds natively, ``naming.vector_typedef``).
    pins: Tuple[int, ...] = ()
    vectors: Tuple[Tuple[str, int, int], ...] = ()

    def held(self) -> "ModuleView":
        """This view with its types built once and kept, for a reader that goes through
        them more than once (several targets, or a view derived from this one)."""
        if isinstance(self.types, tuple):
            return self
        return dataclasses.replace(self, types=tuple(self.types))


class TypeViews(Sequence[TypeView]):
    """The views of a header's types, built one by one as they are read and not kept.

    A template prints each type once: holding the views of 10,000 types at once (30 MB,
    twice the text they print) only raised the peak memory of ``generate``. Each pass
    builds them afresh, with the same check identifiers and record copies (header-wide
    state starts empty at each pass); indexing builds them all once and keeps them.
    """

    def __init__(self, types: Sequence[SchemaType]) -> None:
        self._types = types
        self._kept: Optional[Tuple[TypeView, ...]] = None

    def __iter__(self) -> Iterator[TypeView]:
        if self._kept is not None:
            return iter(self._kept)
        return _type_views(self._types)

    def __len__(self) -> int:
        return len(self._types)

    def __getitem__(self, index):  # type: ignore[override]
        if self._kept is None:
            self._kept = tuple(_type_views(self._types))
        return self._kept[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (TypeViews, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"TypeViews({len(self)} types)"


def _type_views(types: Sequence[SchemaType]) -> Iterator[TypeView]:
    # Check identifiers are ``sarek_layout_check_<c_name>__<member>``: two types' can only
    # be spelt alike when one C name is another's followed by "__" (the type's own prefix
    # differs otherwise). Without such a pair each type keeps its own set of identifiers,
    # let go with its view, instead of one set of every identifier of the header (100,000
    # strings for 10,000 types).
    shared: Optional[set] = set() if _prefix_pairs(types) else None
    copies: Set[str] = set()
    for st in types:
        yield type_view(st, set() if shared is None else shared, copies)


def _prefix_pairs(types: Sequence[SchemaType]) -> bool:
    """Whether a C name among ``types`` is another's followed by ``__`` (and anything), or
    by one ``_``: ``A``'s check of a member ``_x`` is ``…_A___x_offset``, as ``A_``'s of
    ``x``. Those are the only ways two types' check identifiers can be spelt alike."""
    names = {st.c_name for st in types}
    for name in names:
        if name.endswith("_") and name[:-1] in names:
            return True
        at = name.find("__", 1)
        while at > 0:
            if name[:at] in names:
                return True
            at = name.find("__", at + 1)
    return False


# --- members and padding -----------------------------------------------------------------


def _struct_members(items: Sequence[Item], rules: str) -> Tuple[Member, ...]:
    """The model's members and holes as struct members: each run of holes is one padding
    member (``_sarek_pad0``, ``_sarek_pad1``… in this struct); the members of a type laid
    out by ``rules``."""
    # One pass with the member conversion inlined: this runs once per member of every type.
    out: List[Member] = []
    append = out.append
    pad_start = -1
    pad_end = 0
    count = 0
    # An array emitted padded to its span covers the hole after it (targets.shape).
    for item in emitted_items(items):
        if type(item) is Hole:
            if pad_start < 0:
                pad_start = item[0]
            pad_end = item[0] + item[1]
            continue
        if pad_start >= 0:
            append(_new(Member, (padding_name(count), "padding", "", pad_start,
                                 pad_end - pad_start, False)))
            count += 1
            pad_start = -1
        append(_member(item, rules))
    if pad_start >= 0:
        append(_new(Member, (padding_name(count), "padding", "", pad_start,
                             pad_end - pad_start, False)))
    return tuple(out)


def _member(m: ModelMember, rules: str) -> Member:
    scalar = m.scalar
    if m.dims:
        return _new(Member, (m.name, "decl", declaration(m, rules), m.offset, m.size,
                             pin_of(m)))
    if m.enum is not None:
        return _new(Member, (m.name, "enum", m.enum.c_name, m.offset, m.size, pin_of(m)))
    if scalar is not None:
        return _new(Member, (m.name, "scalar", scalar.name, m.offset, m.size,
                             m.align if m.align >= PINNED_ALIGN else 0))
    return _new(Member, (m.name, "record", m.record.c_name, m.offset,  # type: ignore[union-attr]
                         m.size, m.align if m.align >= PINNED_ALIGN else 0))


def _pinned_first(members: Tuple[Member, ...], st: SchemaType) -> Tuple[Member, ...]:
    """``members`` with the first one pinned as ``declarations.struct_pin`` says."""
    pin = struct_pin(st)
    if not pin or not members:
        return members
    return (members[0]._replace(pin=pin),) + members[1:]


def type_guard(c_name: str, layout_id: str) -> str:
    """``SAREK_LAYOUT_TYPE_<c_name>_<layout_id's 16 hex digits>``: the C and CUDA headers of
    one schema may meet in one translation unit (a host header includes the ``.h``, a ``.cu``
    the ``.cuh``), so each type is defined under this guard, and only once. The fingerprint
    covers every name, offset and type of the definition: two types of one C name but
    another layout keep their own guards, and the compiler reports the clash."""
    return f"SAREK_LAYOUT_TYPE_{c_name}_{layout_id[2:].upper()}"


def copy_function_name(c_name: str) -> str:
    """The record copy of ``c_name``: ``sarek_layout_copy_<c_name>`` (a prefix no schema name
    may use, so it cannot clash)."""
    return f"sarek_layout_copy_{c_name}"


def _assign(target: str, source: str, m: ModelMember, rules: str, flat: bool = False) -> Assign:
    """``target = source`` for member ``m``: a record through its copy; a member of SPEC
    §1b's kinds element by element, from a pointer to its values (``flat``, a ``make_``
    argument) or from the same member of another value."""
    copy = copy_function_name(m.record.c_name) if m.record is not None else ""
    if m.dims:
        return kinds_assign(target, source, m, rules, copy, flat)
    return Assign(target, source, copy)


def _copy(st: SchemaType) -> Copy:
    return Copy(
        c_name=st.c_name,
        function=copy_function_name(st.c_name),
        guard=f"SAREK_LAYOUT_COPY_{st.c_name}",
        assigns=tuple(_assign(m.name, f"{SOURCE_PARAM}.{m.name}", m, st.rules)
                      for m in st.members),
    )


# --- checks ------------------------------------------------------------------------------

_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]")


@functools.lru_cache(maxsize=4096)  # member names repeat across types (f0, x, data.A_v…)
def _ident_part(what: str) -> str:
    """``what`` (a member designator) as part of an identifier: ``.`` → ``__``, others ``_``."""
    return _NOT_IDENT.sub("_", what.replace(".", "__"))


class _Checks:
    """Collects one type's checks, giving each a header-unique identifier."""

    def __init__(self, c_name: str, used_idents: set) -> None:
        self.c_name = c_name
        self.used = used_idents
        self.items: List[Check] = []
        self._prefix = f"sarek_layout_check_{c_name}__"

    def _ident(self, what: str) -> str:
        ident = self._prefix + _ident_part(what)
        if ident in self.used:
            ident = _next_free(ident, self.used)
        self.used.add(ident)
        return ident

    def size(self, value: int) -> None:
        self.items.append(Check("size", "", value, self.c_name, self._ident("size")))

    def align(self, value: int) -> None:
        self.items.append(Check("align", "", value, self.c_name, self._ident("align")))

    def offset(self, member: str, value: int) -> None:
        label = f"{self.c_name}::{member}"
        self.items.append(Check("offset", member, value, label, self._ident(member + "_offset")))

    def offsets(self, nodes: Iterable) -> None:
        """``offset`` of each member of the shape (``targets.shape`` nodes, by path), and
        the stride of each array level of an ``Array`` (``sizeof`` its first element,
        ``Array.designator``): the loop of every type, with the lookups hoisted."""
        label = self.c_name + "::"
        prefix, used, append = self._prefix, self.used, self.items.append
        for node in nodes:
            path = node.path
            ident = prefix + _ident_part(path + "_offset")
            if ident in used:
                ident = _next_free(ident, used)
            used.add(ident)
            append(_new(Check, ("offset", path, node.offset, label + path, ident)))
            if type(node) is Array:
                for k, level in enumerate(node.levels):
                    element = node.designator(k)
                    ident = prefix + _ident_part(f"{element}_stride")
                    if ident in used:
                        ident = _next_free(ident, used)
                    used.add(ident)
                    append(_new(Check, ("stride", element, level.stride, label + element,
                                        ident)))


def _next_free(base: str, used: set) -> str:
    """``base_1``, ``base_2``…: the first not in ``used`` (two designators spelt alike)."""
    n = 1
    while f"{base}_{n}" in used:
        n += 1
    return f"{base}_{n}"


# --- types -------------------------------------------------------------------------------


def _record_view(st: SchemaType, used: set) -> TypeView:
    nodes = shape_of(st, keep=False).members
    refuse_unheld(st, nodes)
    checks = _Checks(st.c_name, used)
    checks.size(st.size)
    checks.align(st.align)
    checks.offsets(nodes)
    return TypeView(
        kind="record",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        size=st.size,
        align=st.align,
        members=_pinned_first(_struct_members(st.items, st.rules), st),
        checks=tuple(checks.items),
        layout_id=layout_id_hex(st),
    )


def _enum_view(st: SchemaType, used: set) -> TypeView:
    """An enum: a typedef of its base scalar and its values as constants (SPEC §1b); a
    member of it is that fixed-width base, whatever size the ABI gives a C ``enum``. Its
    size is checked; its alignment is its members' (pinned where they are declared: alone,
    an 8-byte integer is 4-aligned on i386, and C cannot pin a typedef)."""
    checks = _Checks(st.c_name, used)
    checks.size(st.size)
    base = st.elttype.base  # type: ignore[union-attr]
    low = base.int_range[0] if base.int_range is not None else 0
    return TypeView(
        kind="enum",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        size=st.size,
        align=st.align,
        members=(),
        checks=tuple(checks.items),
        layout_id=layout_id_hex(st),
        base=base.name,
        constants=tuple((enum_constant(st.c_name, name), value, value == low and low < 0)
                        for name, value in st.elttype.values),  # type: ignore[union-attr]
    )


def _ctor(st: SchemaType, arm: Arm, node) -> Ctor:
    """The view of constructor ``arm``, whose arm in the shape is ``node`` (``None`` for a
    constant constructor): the argument itself (a ``Slot``, or an ``Array``), or a struct
    of them."""
    c_name, rules = st.c_name, st.rules
    single: Optional[Member] = None
    members: Tuple[Member, ...] = ()
    if node is None:
        slots: Tuple = ()
    elif isinstance(node, (Slot, Array)):  # one argument (an array too) is the arm itself
        slots = (node,)
        single = _member(node.member, rules)._replace_name(node.name)
    else:
        slots = node.members
        members = _struct_members(node.items, rules)
    return Ctor(
        name=arm.name,
        tag=arm.tag,
        enum_name=f"{c_name}_{arm.name}",
        make_name=make_name(c_name, arm.name),
        arm=node.name if node is not None else "",
        members=members,
        params=tuple(param(a) for a in arm.args),
        # Each argument is assigned where the shape puts it: the arm, or the arm's ``_N``.
        assigns=tuple(_assign(slot.path, slot.member.name, slot.member, rules, flat=True)
                      for slot in slots),
        payload_size=arm.payload_size,
        single=single,
    )


def _variant_view(st: SchemaType, used: set, copies: List[Copy]) -> TypeView:
    p = st.payload_offset
    has_data = st.has_payload
    shape = shape_of(st, keep=False)
    nodes = tuple(shape.nodes())
    refuse_unheld(st, nodes)

    checks = _Checks(st.c_name, used)
    checks.size(st.size)
    checks.align(st.align)
    checks.offsets(nodes)

    ctors = [_ctor(st, arm, node) for arm, node in shape.arms()]
    first = next((c for c in ctors if c.arm), None)
    data_size = st.size - p if has_data else 0
    data_bytes = first is not None and first.single is not None and first.single.size < data_size
    return TypeView(
        kind="variant",
        name=st.name,
        qualified_name=st.qualified_name,
        c_name=st.c_name,
        size=st.size,
        align=st.align,
        members=_pinned_first(_struct_members(st.items, st.rules), st),
        checks=tuple(checks.items),
        layout_id=layout_id_hex(st),
        payload_offset=p,
        data_size=data_size,
        data_bytes=data_bytes,
        ctors=tuple(ctors),
        copies=tuple(copies),
    )


def _copies_needed(st: SchemaType, defined: Set[str]) -> List[Copy]:
    """The record copies ``st``'s ``make_`` helpers call and ``defined`` lacks, inner first.

    Iterative (a chain of nested records may be long); each record is visited once per
    header, so the copies of a header are linear in its types.
    """
    out: List[Copy] = []
    for arm in st.arms:
        for a in arm.args:
            if a.record is None or a.record.c_name in defined:
                continue
            defined.add(a.record.c_name)
            stack = [(a.record, iter(_nested_records(a.record)))]
            while stack:
                record, pending = stack[-1]
                for inner in pending:
                    if inner.c_name not in defined:
                        defined.add(inner.c_name)
                        stack.append((inner, iter(_nested_records(inner))))
                        break
                else:
                    stack.pop()
                    out.append(_copy(record))
    return out


def _nested_records(st: SchemaType) -> Iterable[SchemaType]:
    return (m.record for m in st.members if m.record is not None)


def type_view(st: SchemaType, used_idents: Optional[set] = None,
              copies_defined: Optional[Set[str]] = None) -> TypeView:
    """The view of one resolved type (``used_idents`` keeps check identifiers unique,
    ``copies_defined`` the record copies already defined in the header)."""
    used = set() if used_idents is None else used_idents
    if st.kind == "record":
        return _record_view(st, used)
    if st.kind == "enum":
        return _enum_view(st, used)
    defined = set() if copies_defined is None else copies_defined
    return _variant_view(st, used, _copies_needed(st, defined))


def _uses_scalar(types: Sequence[SchemaType], scalar: str) -> bool:
    """Whether a ``scalar`` (a schema name: ``float64``) is stored anywhere in ``types``,
    nested records included (each record visited once)."""
    seen: Set[int] = set()
    todo = list(types)
    while todo:
        st = todo.pop()
        if id(st) in seen:
            continue
        seen.add(id(st))
        members = [*st.members, *(a for arm in st.arms for a in arm.args)]
        for m in members:
            if m.scalar is not None and m.scalar.name == scalar:
                return True
            if m.record is not None:
                todo.append(m.record)
    return False


def module_dependencies(schema: Schema, module: ModuleDecl) -> Tuple[ModuleDecl, ...]:
    """The other modules whose types ``module``'s types use directly, in first-use order.

    First use in ``module``'s own declarations, never the command-line order of the schema
    files: the ``#include`` lines must not change when the files are given in another order.
    """
    used: Dict[int, ModuleDecl] = {}
    for st in schema.module_types(module):
        for dep in st.depends_on:
            source = schema.by_c_name(dep).source
            if source is not module:
                used.setdefault(id(source), source)
    return tuple(used.values())


def module_view(schema: Schema, module: ModuleDecl) -> ModuleView:
    """The target-independent view of ``module``'s header: its types in dependency order."""
    types = schema.dependency_order(schema.module_types(module))
    pins, vectors = kinds_used(types)
    return ModuleView(
        tool=TOOL,
        version=__version__,
        module=module.name,
        source=os.path.basename(module.path),
        types=TypeViews(types),
        uses_float64=_uses_scalar(types, TFloat64.name),
        uses_float16=_uses_scalar(types, TFloat16.name),
        pins=pins,
        vectors=vectors,
    )
