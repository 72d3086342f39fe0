"""The rust target's view: one plain-Rust module per schema file (``templates/rust.rs.j2``).

Read off the member model like the C-family view: every record a ``#[repr(C, align(N))]``
struct with its fields (public) and explicit padding members (private, always zero); every
variant a struct of its private ``tag``, padding and ``data`` union (one arm per constructor
with arguments, a struct ``<C name>_<Ctor>_arm`` for several), which safe code builds with
``T::Ctor(args…)`` and matches through ``T::view()``, a Rust ``enum``. Alignment is pinned on
every struct, union and arm, so i686's 4-aligned ``f64``/``i64`` give the same bytes. The
compile-time checks are the C-family view's, with each member path spelled in Rust.

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
from ..targets.naming import (RUST_ERROR_TYPE, arm_name, arm_struct_name, padding_name,
                              rust_union_name, rust_view_name)
from .views import TOOL, type_view

__all__ = ["rust_ident", "rust_view", "RField", "RStruct", "RCtor", "RType", "RModule"]

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
    """One member of a struct, union or arm: a field or argument (``kind`` ``scalar`` or
    ``record``, ``type`` its Rust type) or padding (``kind`` ``padding``, ``size`` bytes).
    ``offset`` is from the start of the struct the member belongs to."""

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
class RType:
    kind: str  # "record" | "variant"
    qualified_name: str
    c_name: str
    size: int
    align: int
    #: Record: fields and padding. Variant: ``tag`` and the padding up to ``data``.
    fields: Tuple[RField, ...]
    #: ``(kind, expression, value, label)`` with ``kind`` ``size``/``align``/``offset`` and
    #: ``expression`` the Rust member path for ``offset_of!``.
    checks: Tuple[Tuple[str, str, int, str], ...]
    layout_id: str
    layout_id_name: str
    layout_ok_name: str
    payload_offset: int = 0
    data_size: int = 0
    union_name: str = ""
    view_name: str = ""
    ctors: Tuple[RCtor, ...] = ()


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


def _rust_type(m: ModelMember) -> Tuple[str, str]:
    if m.scalar is not None:
        return "scalar", RUST.scalar[m.scalar.name]
    return "record", _type_name(m.record)  # type: ignore[arg-type]


def _fields(items: Sequence[Item], base: int = 0) -> Tuple[RField, ...]:
    """Members and holes as struct members (one padding member per run of holes), with
    offsets relative to ``base``."""
    out: List[RField] = []
    pad_start: Optional[int] = None
    pad_end = 0
    count = 0
    for item in list(items) + [None]:  # type: ignore[list-item]
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
            kind, rtype = _rust_type(item)
            out.append(RField(rust_ident(item.name), kind, rtype, item.offset - base, item.size))
    return tuple(out)


def _rust_path(member: str) -> str:
    return ".".join(rust_ident(part) for part in member.split("."))


def _checks(st: SchemaType) -> Tuple[Tuple[str, str, int, str], ...]:
    # The C-family view's checks, whose member designators name the same members here.
    out = []
    for kind, member, value, label, _ident in type_view(st).checks:
        out.append((kind, _rust_path(member) if member else "", value, label))
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


def _type(st: SchemaType, names: _Names) -> RType:
    where = st.decl.location
    owner = f"type {st.qualified_name!r}"
    c_name = st.c_name
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
    if st.kind == "record":
        fields = _fields(st.items)
        _refuse_clashing_fields(st, fields)
        return RType(kind="record", fields=fields, **common)
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
        args = tuple(RField(a.name, *_rust_type(a), a.offset, a.size) for a in arm.args)
        arm_struct = None
        if len(arm.args) > 1:
            struct_name = names.claim(arm_struct_name(c_name, arm.name), owner, where)
            arm_struct = RStruct(struct_name, max(a.align for a in arm.args), st.size - p,
                                 _fields(arm.items, base=p))
        ctors.append(RCtor(name, arm.name, arm.tag, arm_name(arm.name) if arm.args else "",
                           args, arm_struct))
    return RType(kind="variant", fields=_fields(st.items), payload_offset=p,
                 data_size=st.size - p if st.has_payload else 0, union_name=union,
                 view_name=view, ctors=tuple(ctors), **common)


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
        for record in st.records_used():
            if record.source is not module:
                used = imports.setdefault(
                    _module_ident(record.source, filename_of(record.source)), [])
                name = _type_name(record)
                if name not in used:
                    names.claim(name, f"the type {record.qualified_name!r} it uses",
                                st.decl.location)
                    used.append(name)
    views = tuple(_type(st, names) for st in types)
    return RModule(
        tool=TOOL,
        version=__version__,
        module=module.name,
        source=os.path.basename(module.path),
        error_type=RUST_ERROR_TYPE,
        imports=tuple((mod, tuple(ns)) for mod, ns in imports.items()),
        types=views,
    )
