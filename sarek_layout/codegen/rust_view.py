"""The rust target's view: one plain-Rust module per schema file (``templates/rust.rs.j2``).

Read off the member model like the C-family view: every record a ``#[repr(C, align(N))]``
struct with its fields (public) and explicit padding members (private, always zero); every
variant a struct of its private ``tag``, padding and ``data`` union (one arm per constructor
with arguments, a struct ``<C name>_<Ctor>_arm`` for several), which safe code builds with
``T::Ctor(args…)`` and matches through ``T::view()``, a Rust ``enum``. Alignment is pinned on
every struct, union and arm, so i686's 4-aligned ``f64``/``i64`` give the same bytes. The
compile-time checks are the C-family headers', with each member path spelled in Rust.

The member kinds of SPEC §1b (``codegen.member_types``): an array, vector or matrix is nested
``[T; N]`` (a level whose stride exceeds its element wraps it in a ``#[repr(C, align(A))]``
struct ``<C name>_<member>_elem`` of the element ``v`` and private zero padding); an enum is a
``#[repr(transparent)]`` newtype over its base integer with a ``pub const <C name>_<Value>``
per value, so any bytes are a valid value (a Rust ``enum`` read from bytes holding an unnamed
value would be undefined behaviour). Members of these kinds are read and written through a
private trait (``RUST_BYTES_TRAIT``), one implementation per element type and one generic for
``[T; N]``: the code is linear in members, never in elements. Each array member's size and
each level's stride are checked at compile time, through a closure reading the element. A
layout a Rust struct cannot hold (``member_types.refusal``) refuses the rust target.

Names: a Rust keyword is a raw identifier (``r#type``); the few keywords Rust refuses even so
(``self``, ``Self``, ``super``, ``crate``, ``_``) get a trailing ``_``; a type may not shadow a
primitive type the module uses (``i32``), and two emitted names that clash are refused with
one line naming the target.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .._version import __version__
from ..errors import SchemaError, quoted
from ..ir.schema import Hole, Item, Member as ModelMember, ModuleDecl, Schema, SchemaType
from ..layout.fingerprint import layout_id_hex
from ..targets.dialects import RUST
from ..targets.names import spelling
from ..targets.naming import (DATA_MEMBER, RUST_BYTES_TRAIT, RUST_ERROR_TYPE, RUST_SIZE_OF,
                              arm_name, arm_struct_name, padding_name, rust_union_name,
                              rust_view_name)
from ..targets.shape import argument_is_arm, emitted_items, shape_of, span_of
from .member_types import (Wrapper, designator_parts, kind_checks, members_of, refusal,
                           spell_member, uses_kinds)
from .views import TOOL

__all__ = ["rust_ident", "rust_path", "rust_view", "RField", "RStruct", "RCtor", "RType",
           "REnumValue", "RModule"]

#: Associated items every generated type has: a constructor of that name is escaped.
_ASSOCIATED = frozenset(("new", "to_bytes", "from_bytes", "write_bytes", "read_bytes", "view",
                         "from_view", "read_framed", "tag", "SIZE", "ALIGN", "LAYOUT_ID"))

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def rust_ident(name: str) -> str:
    """``name`` as the rust target emits it: ``r#type`` for a keyword, ``self_`` for a keyword
    that cannot be raw, else unchanged (``targets.names`` decides)."""
    return spelling("rust", name)


@dataclass(frozen=True)
class RField:
    """One member of a struct, union or arm: a field or argument (``kind`` ``scalar``,
    ``record`` or ``kinds``, a member of SPEC §1b's kinds read through ``RUST_BYTES_TRAIT``;
    ``type`` its Rust type) or padding (``kind`` ``padding``, ``size`` bytes). ``offset`` is
    from the start of the struct the member belongs to."""

    name: str
    kind: str
    type: str
    offset: int
    size: int


@dataclass(frozen=True)
class RStruct:
    """A ``#[repr(C, align(align))]`` struct (an arm of several arguments)."""

    name: str
    align: int
    size: int
    fields: Tuple[RField, ...]


@dataclass(frozen=True)
class RCtor:
    """A constructor: its function and ``View`` variant name, tag, arguments (``_0``… with
    their Rust types and absolute offsets), and how its arm is stored (``arm`` the union
    member; ``arm_struct`` when it has several arguments)."""

    name: str
    schema_name: str
    tag: int
    arm: str
    args: Tuple[RField, ...]
    arm_struct: Optional[RStruct] = None


@dataclass(frozen=True)
class REnumValue:
    """One named value of an enum: its constant ``<C name>_<Value>``, name and value."""

    const: str
    name: str
    value: int


@dataclass(frozen=True)
class RType:
    kind: str  # "record" | "variant" | "enum"
    qualified_name: str
    c_name: str
    size: int
    align: int
    #: Record: fields and padding. Variant: ``tag`` and the padding up to ``data``.
    fields: Tuple[RField, ...]
    #: ``(kind, expression, value, label, unsafe)`` with ``kind`` ``size``/``align``/
    #: ``offset`` (``expression`` the Rust member path for ``offset_of!``) or
    #: ``member_size``/``stride`` (``expression`` what a closure reads: ``t.a[0]``; ``unsafe``
    #: when that goes through the payload union).
    checks: Tuple[Tuple[str, str, int, str, bool], ...]
    layout_id: str
    layout_id_name: str
    layout_ok_name: str
    payload_offset: int = 0
    data_size: int = 0
    union_name: str = ""
    view_name: str = ""
    ctors: Tuple[RCtor, ...] = ()
    #: Structs wrapping array elements up to their stride, declared before the type.
    wrappers: Tuple[Wrapper, ...] = ()
    #: An enum's base integer type and named values.
    base: str = ""
    values: Tuple[REnumValue, ...] = ()


@dataclass(frozen=True)
class RModule:
    tool: str
    version: str
    module: str
    source: str
    error_type: str
    #: ``use super::<module>::{names};`` lines for types of other schema files.
    imports: Tuple[Tuple[str, Tuple[str, ...]], ...]
    types: Tuple[RType, ...]
    #: The private trait's name when a member of SPEC §1b's kinds needs it (else ""), and
    #: the types it is implemented for: Rust scalars, and ``(name, kind)`` of the records and
    #: enums that are such members' elements (wrappers: each type's ``wrappers``).
    bytes_trait: str = ""
    bytes_scalars: Tuple[str, ...] = ()
    bytes_types: Tuple[Tuple[str, str], ...] = ()
    size_of: str = ""
    #: The padding member of a wrapper struct.
    wrapper_pad: str = padding_name(0)


class _Names:
    """The module-scope names of one generated file, each claimed once."""

    def __init__(self) -> None:
        self.taken: Dict[str, str] = {}

    def claim(self, name: str, owner: str, location) -> str:
        other = self.taken.get(name)
        if other is not None and other != owner:
            raise SchemaError(f"in the rust output, {owner} is emitted as {name!r}, which is "
                              f"also {other}; rename one of them", location)
        self.taken[name] = owner
        return name


def _type_name(st: SchemaType) -> str:
    return rust_ident(st.c_name)


def _element(m: ModelMember) -> Tuple[str, str]:
    """The Rust type of ``m``'s element (itself, when it has no dims), and its kind."""
    if m.enum is not None:
        return _type_name(m.enum), "enum"
    if m.record is not None:
        return _type_name(m.record), "record"
    return RUST.scalar[m.scalar.name], "scalar"  # type: ignore[union-attr]


def _array(element: str, count: int) -> str:
    return f"[{element}; {count}]"


class _Kinds:
    """The wrappers of one type's members, and what the module's bytes trait must cover."""

    def __init__(self, c_name: str, used: "_Used") -> None:
        self.c_name = c_name
        self.used = used
        self.wrappers: List[Wrapper] = []

    def member(self, m: ModelMember, label: str) -> Tuple[str, str]:
        """``(kind, Rust type)`` of ``m``, a field or argument named ``label`` in its type."""
        if not uses_kinds(m):
            return _element(m)[::-1]
        spelled = spell_member(m, f"{self.c_name}_{label}", _element, _array)
        self.wrappers.extend(spelled.wrappers)
        self.used.add(spelled.element, spelled.element_kind, m)
        return "kinds", spelled.type


class _Used:
    """The element types a module's kinds members read and write (first use first)."""

    def __init__(self) -> None:
        self.scalars: Dict[str, None] = {}
        self.types: Dict[str, str] = {}

    def add(self, name: str, kind: str, m: ModelMember) -> None:
        if kind == "scalar":
            self.scalars[name] = None
            return
        self.types.setdefault(name, kind)
        if kind == "enum":  # its base, through which it reads and writes
            self.scalars[RUST.scalar[m.scalar.name]] = None  # type: ignore[union-attr]


def _fields(items: Sequence[Item], kinds: _Kinds, base: int = 0,
            labels: Optional[Dict[str, str]] = None) -> Tuple[RField, ...]:
    """Members and holes as struct members (one padding member per run of holes), with
    offsets relative to ``base``; ``labels`` names a member's wrappers (default: its own
    name)."""
    out: List[RField] = []
    pad_start: Optional[int] = None
    pad_end = 0
    count = 0
    # An array emitted padded to its span covers the hole after it (targets.shape).
    for item in list(emitted_items(items)) + [None]:  # type: ignore[list-item]
        if isinstance(item, Hole):
            if pad_start is None:
                pad_start = item.offset
            pad_end = item.end
            continue
        if pad_start is not None:
            out.append(RField(padding_name(count), "padding", "", pad_start - base,
                              pad_end - pad_start))
            count += 1
            pad_start = None
        if item is not None:
            label = labels.get(item.name, item.name) if labels else item.name
            kind, rtype = kinds.member(item, label)
            out.append(RField(rust_ident(item.name), kind, rtype, item.offset - base,
                              span_of(item)))
    return tuple(out)


def rust_path(member: str) -> str:
    """A member path or designator (``data.Pair_v._0``, ``a[0].v[0]``) spelt in Rust."""
    return ".".join(rust_ident(name) + "[0]" * n for name, n in designator_parts(member))


def _checks(st: SchemaType) -> Tuple[Tuple[str, str, int, str, bool], ...]:
    # The C-family headers' checks: the size, the alignment and the offset of every member
    # of the shape (a variant's tag, data, arms and arguments), whose designators name the
    # same members here; then each array member's size and each of its levels' stride.
    out = [("size", "", st.size, st.c_name, False), ("align", "", st.align, st.c_name, False)]
    shape = shape_of(st)
    nodes = shape.nodes() if st.kind == "variant" else shape.members
    out.extend(("offset", rust_path(n.path), n.offset, f"{st.c_name}::{n.path}", False)
               for n in nodes)
    for quantity, designator, value in kind_checks(st):
        out.append(("member_size" if quantity == "size" else "stride", rust_path(designator),
                    value, f"{st.c_name}::{designator}",
                    designator.startswith(DATA_MEMBER + ".")))
    return tuple(out)


def _refuse_clashing_fields(st: SchemaType, fields: Sequence[RField]) -> None:
    """Two fields escaped to one Rust name (``self`` and ``self_``) are refused."""
    emitted = {}
    for m, f in zip(st.members, (f for f in fields if f.kind != "padding")):
        if f.name in emitted:
            raise SchemaError(
                f"in the rust output, fields {emitted[f.name]!r} and {m.name!r} of type "
                f"{st.qualified_name!r} are both emitted as {f.name!r} (self, Self, super, crate "
                f"and _ get a trailing '_': Rust refuses them even as raw identifiers); "
                f"rename one of them",
                m.location or st.decl.location)
        emitted[f.name] = m.name


def _ctor_name(name: str) -> str:
    return name + "_" if name in _ASSOCIATED else rust_ident(name)


def _enum(st: SchemaType, names: _Names, common: dict) -> RType:
    owner = f"type {st.qualified_name!r}"
    values = tuple(REnumValue(names.claim(f"{st.c_name}_{name}", owner, st.decl.location),
                              name, value) for name, value in st.elttype.values)
    return RType(kind="enum", fields=(), base=RUST.scalar[st.elttype.base.name],
                 values=values, **common)


def _type(st: SchemaType, names: _Names, used: _Used) -> RType:
    where = st.decl.location
    owner = f"type {st.qualified_name!r}"
    c_name = st.c_name
    why = refusal(st, "rust")
    if why is not None:
        raise why
    kinds = _Kinds(c_name, used)
    common = dict(
        qualified_name=st.qualified_name,
        c_name=names.claim(_type_name(st), owner, where),
        size=st.size,
        align=st.align,
        checks=_checks(st),
        layout_id=layout_id_hex(st),
        layout_id_name=names.claim(f"{c_name}_LAYOUT_ID", owner, where),
        layout_ok_name=names.claim(f"{c_name}_LAYOUT_OK", owner, where),
    )
    if st.is_enum:
        return _enum(st, names, common)
    if st.kind == "record":
        fields = _fields(st.items, kinds)
        _refuse_clashing_fields(st, fields)
        return RType(kind="record", fields=fields, wrappers=_claimed(kinds, names, owner, where),
                     **common)
    p = st.payload_offset
    union = names.claim(rust_union_name(c_name), owner, where) if st.has_payload else ""
    view = names.claim(rust_view_name(c_name), owner, where)
    ctors = []
    seen: Dict[str, str] = {}
    for arm in st.arms:
        name = _ctor_name(arm.name)
        if name in seen:
            raise SchemaError(f"in the rust output, constructors {seen[name]!r} and "
                              f"{arm.name!r} of {owner} are both emitted as {name!r}; rename "
                              f"one of them", arm.location or where)
        seen[name] = arm.name
        labels = {a.name: f"{arm.name}{a.name}" for a in arm.args}  # Pair_0: arg _0 of Pair
        args = tuple(RField(a.name, *kinds.member(a, labels[a.name]), a.offset, span_of(a))
                     for a in arm.args)
        arm_struct = None
        if arm.args and not argument_is_arm(arm, p):  # the shape's struct arm
            struct_name = names.claim(arm_struct_name(c_name, arm.name), owner, where)
            arm_struct = RStruct(struct_name, max(a.align for a in arm.args), st.size - p,
                                 # its wrappers are the arguments', named alike
                                 _fields(arm.items, _Kinds(c_name, used), p, labels))
        ctors.append(RCtor(name, arm.name, arm.tag, arm_name(arm.name) if arm.args else "",
                           args, arm_struct))
    return RType(kind="variant", fields=_fields(st.items, kinds), payload_offset=p,
                 data_size=st.size - p if st.has_payload else 0, union_name=union,
                 view_name=view, ctors=tuple(ctors),
                 wrappers=_claimed(kinds, names, owner, where), **common)


def _claimed(kinds: _Kinds, names: _Names, owner: str, where) -> Tuple[Wrapper, ...]:
    """The type's wrapper structs, their names claimed in the module."""
    for w in kinds.wrappers:
        names.claim(w.name, owner, where)
    return tuple(kinds.wrappers)


def _module_ident(module: ModuleDecl, filename: str) -> str:
    stem = os.path.splitext(os.path.basename(filename))[0]
    if not _IDENT.match(stem) or stem in RUST.not_raw:
        raise SchemaError(
            f"the rust output of another schema file uses the types of {filename}, and reaches "
            f"them as the sibling module `super::<file stem>`: the stem {quoted(stem)} is not "
            f"a Rust identifier; rename the file (letters, digits and '_')", module.location)
    return rust_ident(stem)


def rust_view(schema: Schema, module: ModuleDecl, filename_of: Callable[[ModuleDecl], str]
              ) -> RModule:
    """The view of ``module``'s ``.rs`` file; ``SchemaError`` for a name Rust cannot take."""
    types = schema.dependency_order(schema.module_types(module))
    names = _Names()
    names.claim(RUST_ERROR_TYPE, "the generated module's error type", None)
    imports: Dict[str, List[str]] = {}
    for st in types:
        for other in _types_used(st):
            if other.source is not module:
                used = imports.setdefault(
                    _module_ident(other.source, filename_of(other.source)), [])
                name = _type_name(other)
                if name not in used:
                    names.claim(name, f"the type {other.qualified_name!r} it uses",
                                st.decl.location)
                    used.append(name)
    kinds = _Used()
    views = tuple(_type(st, names, kinds) for st in types)
    with_kinds = bool(kinds.scalars or kinds.types)
    return RModule(
        tool=TOOL,
        version=__version__,
        module=module.name,
        source=os.path.basename(module.path),
        error_type=RUST_ERROR_TYPE,
        imports=tuple((mod, tuple(ns)) for mod, ns in imports.items()),
        types=views,
        bytes_trait=RUST_BYTES_TRAIT if with_kinds else "",
        bytes_scalars=tuple(kinds.scalars),
        bytes_types=tuple(kinds.types.items()),
        size_of=RUST_SIZE_OF if any(c[0] == "stride" for t in views for c in t.checks) else "",
    )


def _types_used(st: SchemaType):
    """The records and enums ``st``'s members and arguments use (elements of arrays too)."""
    for m in members_of(st):
        if m.record is not None:
            yield m.record
        if m.enum is not None:
            yield m.enum
