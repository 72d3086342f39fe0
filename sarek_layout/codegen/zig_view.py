"""The view of the ``zig`` target: the C-family view, plus what a Zig file needs besides.

A Zig module is the C header's structs as ``extern struct``/``extern union`` with the same
member names, so the layout decisions (padding runs, pinned 8-byte members, arms, checks,
record copies) are ``views.module_view``'s, unchanged. Zig adds three things: every name is
spelt as Zig reads it (``@"type"`` for a keyword or primitive: ``targets.naming.escape``); a
type of another schema file is reached through ``@import`` of that file's module rather than
an ``#include``, one alias per type used (``imports``); and the member kinds of SPEC §1b,
which this view spells itself (``codegen.member_types``):

* an array, vector or matrix member is nested ``[N]T`` arrays, ``align(A)`` where the rule
  set aligns it beyond its element (a std430 ``vec4<f32>``: ``[4]f32 align(16)``); a level
  whose stride exceeds its element holds ``extern struct``s ``<C name>_<member>_elem`` of the
  element ``v`` and zero padding;
* an enum is a non-exhaustive ``enum(<base>)`` (every base value is a value, as in C: bytes
  holding a value the schema does not name read as that value, the ``_`` prong of a
  ``switch``), one field per distinct value, and a ``pub const <C name>_<Value>`` per name;
* ``make_`` helpers and record copies assign an array of records, or of wrapped elements,
  element by element in a loop (one loop per level), so no padding byte of an argument
  reaches the value; other arrays are assigned whole;
* the ``comptime`` block also checks each array member's size and each level's stride
  (``@sizeOf`` of the element reached through ``@FieldType`` and the array's child type,
  ``zig_type_of``, which verify's probes use too).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Tuple

from ..ir.schema import Member as ModelMember, ModuleDecl, Schema, SchemaType
from ..targets.dialects import ZIG
from ..targets.naming import ELEMENT_MEMBER, SOURCE_PARAM, escape, padding_name
from ..targets.shape import levels_of
from .member_types import (Wrapper, designator_parts, kind_checks, members_of, refusal,
                           spell_member, uses_kinds)
from .views import Assign, Ctor, Member, ModuleView, Param, TypeView, module_view

__all__ = ["ZigImport", "ZigModuleView", "ZigKinds", "ZigEnum", "ZigAssign", "zig_view",
           "zig_name", "zig_type_of"]


def zig_name(name: str) -> str:
    """``name`` as the Zig module spells it: unchanged, or ``@"name"``."""
    return escape(name, ZIG)


def zig_type_of(qualified: str, designator: str) -> str:
    """The Zig type of ``designator`` (``a``, ``data.Pair_v._0``, ``a[0].v[0]``) in the type
    spelt ``qualified``: ``@FieldType`` of each member, ``@typeInfo(…).array.child`` of each
    ``[0]``. Field names are given as written (``@FieldType`` takes the plain name)."""
    t = qualified
    for name, indices in designator_parts(designator):
        t = f'@FieldType({t}, "{name}")'
        for _ in range(indices):
            t = f"@typeInfo({t}).array.child"
    return t


@dataclass(frozen=True)
class ZigImport:
    """The types one other module's file gives this one: ``const T = @import("f.zig").T;``."""

    filename: str
    c_names: Tuple[str, ...]


@dataclass(frozen=True)
class ZigAssign:
    """An array assigned element by element in a ``make_`` helper or a record copy:
    ``for`` each of ``loops`` (counts, outermost first, indices ``_sarek_i<k>``),
    ``_sarek_v.<target> = <copy>(<source>)``; paths already spelt in Zig."""

    target: str
    source: str
    copy: str
    loops: Tuple[int, ...]


@dataclass(frozen=True)
class ZigEnum:
    """An enum: ``pub const <c_name> = enum(<base>) { <fields>, _ }``, then a constant per
    named value. ``fields`` are the distinct values (the first name of each); ``open`` adds
    ``_``, left out when the fields name every value of the base."""

    c_name: str
    base: str
    fields: Tuple[Tuple[str, int], ...]
    constants: Tuple[Tuple[str, int], ...]
    open: bool


@dataclass(frozen=True)
class ZigKinds:
    """What one type adds for SPEC §1b's kinds: the wrapper structs declared before it, the
    ``comptime`` checks of its arrays (``(what, Zig type, value, label)``: ``@sizeOf`` of the
    whole member or of a level's first element), and, for an enum type, its declaration."""

    wrappers: Tuple[Wrapper, ...] = ()
    checks: Tuple[Tuple[str, str, int, str], ...] = ()
    enum: Optional[ZigEnum] = None


@dataclass(frozen=True)
class ZigModuleView:
    """``module_view``'s view (``base``) and this file's imports; ``types`` are the base's,
    with the members of SPEC §1b's kinds spelt in Zig, and ``kinds`` what those types add."""

    base: ModuleView
    imports: Tuple[ZigImport, ...]
    types: Tuple[TypeView, ...] = ()
    kinds: Mapping[str, ZigKinds] = dataclasses.field(default_factory=dict)
    wrapper_pad: str = padding_name(0)

    def __getattr__(self, name: str):
        # The template reads the module view's fields (tool, version…) through this one.
        if name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)

    @staticmethod
    def ident(name: str) -> str:
        return zig_name(name)


def _record_names(view: ModuleView) -> List[str]:
    """Every record C name the file's declarations and helpers mention, first use first."""
    names: Dict[str, None] = {}
    for t in view.types:
        members = list(t.members)
        for c in t.ctors:
            members.extend(c.members)
            if c.single is not None:
                members.append(c.single)
        names.update((m.type, None) for m in members if m.kind == "record")
        names.update((c.c_name, None) for c in t.copies)
    return list(names)


# --- the member kinds --------------------------------------------------------------------------


def _element(m: ModelMember) -> Tuple[str, str]:
    if m.enum is not None:
        return zig_name(m.enum.c_name), "enum"
    if m.record is not None:
        return zig_name(m.record.c_name), "record"
    return ZIG.scalar[m.scalar.name], "scalar"  # type: ignore[union-attr]


def _array(element: str, count: int) -> str:
    return f"[{count}]{element}"


def _natural_align(m: ModelMember) -> int:
    """The alignment Zig gives ``m``'s element by itself (a record: its own, pinned)."""
    if m.record is not None:
        return m.record.align
    return m.scalar.align  # type: ignore[union-attr]  # an enum's: its base's


class _Retyper:
    """Spells one type's kinds members in Zig and collects the wrappers they need."""

    def __init__(self, st: SchemaType) -> None:
        self.st = st
        self.wrappers: List[Wrapper] = []
        self.model: Dict[str, ModelMember] = {m.name: m for m in st.members}

    def member(self, m: Member, model: ModelMember, label: str) -> Member:
        """The view's member ``m`` (of model member ``model``), retyped when it is a kind."""
        if not uses_kinds(model):
            # A record the rules align beyond 8 (std430, std140) keeps its own alignment.
            return m._replace(pin=model.align) if model.align > 8 else m
        spelled = spell_member(model, f"{self.st.c_name}_{label}", _element, _array)
        for w in spelled.wrappers:
            if w not in self.wrappers:
                self.wrappers.append(w)
        pin = model.align if (model.align >= 8 or model.align > _natural_align(model)) else 0
        return m._replace(kind="zig", type=spelled.type, pin=pin)

    def members(self, members, by_name: Dict[str, ModelMember], labels: Dict[str, str]):
        return tuple(self.member(m, by_name[m.name], labels.get(m.name, m.name))
                     if m.kind != "padding" else m for m in members)


def _pin_first(members: Tuple[Member, ...], models: Dict[str, ModelMember], align: int,
               have: int = 1) -> Tuple[Member, ...]:
    """``members`` with the first one pinned to ``align`` when no member reaches it by itself
    (a std140 record of one float32 is 16-aligned; Zig aligns a struct to its largest member,
    and the first member, at offset 0, may carry any alignment). ``have``: the alignment
    the struct has besides (a variant's payload union)."""
    for m in members:
        if m.kind != "padding":
            have = max(have, m.pin or _natural_align(models[m.name]))
    if have >= align or not members:
        return members
    return (members[0]._replace(pin=align),) + members[1:]


def _loop_assign(target: str, source: str, model: ModelMember, copy: str) -> Optional[ZigAssign]:
    """``target = source`` element by element, when ``model`` is an array of records or of
    wrapped elements (else ``None``: assigned whole). ``target`` and ``source`` are spelt."""
    levels = levels_of(model) if model.dims else ()
    if not levels or not (model.record is not None or any(lv.wrapped for lv in levels)):
        return None
    index = ""
    for k, level in enumerate(levels):
        index += f"[_sarek_i{k}]" + (f".{ELEMENT_MEMBER}" if level.wrapped else "")
    return ZigAssign(target + index, source + index, copy if model.record is not None else "",
                     tuple(lv.count for lv in levels))


def _path(path: str) -> str:
    return ".".join(zig_name(p) for p in path.split("."))


def _whole(path: str) -> str:
    """The member a shared view's element-by-element path designates (``v[_sarek_i0].v`` →
    ``v``): Zig assigns an array whole, and decides itself where it must loop."""
    return path.split("[", 1)[0]


def _assigns(assigns, models: Dict[str, ModelMember], source_name: Callable[[str], str]):
    """The view's assignments in Zig: each member whole, or element by element where
    ``_loop_assign`` says so; paths spelt (escaped) here, once."""
    out = []
    for a in assigns:
        target = _whole(a.target)
        source = a.source if a.flat else _whole(a.source)
        model = models.get(source_name(source))
        loop = None
        if model is not None:
            loop = _loop_assign(_path(target), _path(source), model, a.copy)
        out.append(loop or ZigAssign(_path(target), _path(source), a.copy, ()))
    return tuple(out)


def _ctor(c: Ctor, arm, retyper: _Retyper) -> Ctor:
    args = {a.name: a for a in arm.args}
    labels = {a.name: f"{arm.name}{a.name}" for a in arm.args}  # Pair_0: argument _0 of Pair
    single = c.single
    if single is not None:
        single = retyper.member(single, arm.args[0], labels[arm.args[0].name])
    params = tuple(Param(p.name, "zig", retyper.member(Member(p.name, p.kind, p.type, 0, 0),
                                                        args[p.name], labels[p.name]).type)
                   if uses_kinds(args[p.name]) else p for p in c.params)
    return dataclasses.replace(
        c, single=single, members=retyper.members(c.members, args, labels), params=params,
        assigns=_assigns(c.assigns, args, lambda source: source))


def _spelt_assigns(t: TypeView, schema: Schema) -> TypeView:
    """``t`` with every assignment of its helpers in Zig (``_assigns``): the record copies
    copy arrays element by element where a copied record has arrays of records or of padded
    elements (whatever ``t``'s own members: a variant of ``c`` rules may take a record that
    holds them); the ``make_`` helpers not already spelt by ``_with_kinds`` are spelt as
    they are."""
    copies = []
    for c in t.copies:
        models = {m.name: m for m in schema.by_c_name(c.c_name).members}
        copies.append(dataclasses.replace(c, assigns=_assigns(
            c.assigns, models, lambda source: source[len(SOURCE_PARAM) + 1:])))
    ctors = tuple(c if all(isinstance(a, ZigAssign) for a in c.assigns)
                  else dataclasses.replace(c, assigns=_assigns(c.assigns, {}, lambda s: s))
                  for c in t.ctors)
    return dataclasses.replace(t, copies=tuple(copies), ctors=ctors)


def _enum(st: SchemaType) -> ZigEnum:
    fields: Dict[int, str] = {}
    for name, value in st.elttype.values:
        fields.setdefault(value, name)
    base = st.elttype.base
    return ZigEnum(zig_name(st.c_name), ZIG.scalar[base.name],
                   tuple((zig_name(n), v) for v, n in fields.items()),
                   tuple((zig_name(f"{st.c_name}_{n}"), v) for n, v in st.elttype.values),
                   len(fields) < 2 ** (8 * base.size))


def _with_kinds(t: TypeView, st: SchemaType, schema: Schema) -> Tuple[TypeView, ZigKinds]:
    if st.is_enum:
        return t, ZigKinds(enum=_enum(st))
    retyper = _Retyper(st)
    checks = tuple(("member size" if q == "size" else "stride",
                    zig_type_of(zig_name(st.c_name), d), v, f"{st.c_name}::{d}")
                   for q, d, v in kind_checks(st))
    members = _pin_first(retyper.members(t.members, retyper.model, {}), retyper.model,
                         st.align, t.payload_offset if t.data_size else 1)
    arms = {arm.name: arm for arm in st.arms}
    ctors = tuple(_ctor(c, arms[c.name], retyper) for c in t.ctors)
    t = dataclasses.replace(t, members=members, ctors=ctors)
    return t, ZigKinds(tuple(retyper.wrappers), checks)


def _types_used(st: SchemaType):
    for m in members_of(st):
        if m.record is not None:
            yield m.record.c_name
        if m.enum is not None:
            yield m.enum.c_name


def zig_view(schema: Schema, module: ModuleDecl,
             filename_of: Callable[[ModuleDecl], str]) -> ZigModuleView:
    """The Zig module of ``module``: its types, and aliases of the other modules' types."""
    sts = schema.dependency_order(schema.module_types(module))  # module_view's order
    for st in sts:  # before the shared view refuses the same layouts in the C family's words
        why = refusal(st, "zig")
        if why is not None:
            raise why
    view = module_view(schema, module).held()  # read here and by the template
    types: List[TypeView] = []
    kinds: Dict[str, ZigKinds] = {}
    used: Dict[str, None] = dict.fromkeys(_record_names(view))
    for t, st in zip(view.types, sts):
        if st.is_enum or any(uses_kinds(m) for m in members_of(st)) or st.rules != "c":
            t, kinds[t.c_name] = _with_kinds(t, st, schema)
            used.update(dict.fromkeys(_types_used(st)))
        types.append(_spelt_assigns(t, schema))
    own = {t.c_name for t in view.types}
    by_file: Dict[str, List[str]] = {}
    for c_name in used:
        if c_name not in own:
            source = schema.by_c_name(c_name).source
            by_file.setdefault(filename_of(source), []).append(c_name)
    imports = tuple(ZigImport(f, tuple(names)) for f, names in by_file.items())
    return ZigModuleView(view, imports, tuple(types), kinds)
