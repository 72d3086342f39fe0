"""The member model of a bare elttype: what ``codec_of`` and ``dtype_of`` plan from when they
are handed a ``TRecord``/``TVariant`` rather than a resolved schema type.

Every host plan is built from the member model (``SchemaType.members``/``items``/``arms``,
``layout.members``). A schema loaded from files has it already; an elttype built in Python
(``TRecord("px", [("x", TFloat32)])``) gets it here, once per distinct elttype: the layout
core places it and ``layout.members.members_of`` fills the model in, exactly as the resolver
does for a schema file. The result is a ``SchemaType`` of no module (its C name and qualified
name are the elttype's name), so from here on an elttype and a schema type take the same
path. Nothing here computes an offset.

Memoised by a structural digest (``elttype_key``), never by the elttype's own ``==``.
"""

from __future__ import annotations

import hashlib
from typing import Dict, List, Tuple, Union

from ..ir.schema import (
    CtorDecl,
    EnumDecl,
    EnumValue,
    FieldDecl,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SchemaType,
    SourceLocation,
    VariantDecl,
)
from ..ir.types import Scalar, TEnum, TFixedArray, TMatrix, TRecord, TVariant, TVector, type_name_of
from ..layout.core import ScalarLayout, record_layout_of, variant_layout
from ..layout.members import MemberType, members_of
from .plan import LIMIT, memoised

__all__ = ["elttype_key", "model_of"]

#: Where an elttype's declarations "come from": no file, so messages name the Python API.
_NOWHERE = SourceLocation("<elttype>")
_SOURCE = ModuleDecl("", "<elttype>", "elttype", (), _NOWHERE)

#: Structural keys already computed, by object identity (the object is kept, so that its id
#: is not reused while the entry lives).
_KEYS: Dict[int, Tuple[object, bytes]] = {}


def elttype_key(t: object) -> bytes:
    """A digest of an elttype's structure: equal elttypes (``==``) get equal keys.

    Caches key elttypes by this rather than by the elttype itself because ``TRecord``'s
    ``==`` compares structurally, without memory: two distinct copies of shared nesting (a
    deep schema loaded twice, ``{a: r; b: r}`` twenty levels down) compare in time
    exponential in the depth, at every dictionary lookup. This is linear: each object is
    digested once, from its members' digests.
    """
    found = _KEYS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    # The rule set is part of a record's or variant's structure: the same fields lay out
    # differently under std430.
    if isinstance(t, TRecord):
        data: object = ("record", t.name, t.rules, tuple((n, elttype_key(ft)) for n, ft in t.fields))
    elif isinstance(t, TVariant):
        data = ("variant", t.name, t.rules,
                tuple((c, tuple(elttype_key(a) for a in args)) for c, args in t.ctors))
    elif isinstance(t, Scalar):
        data = ("scalar", t.name)
    elif isinstance(t, TFixedArray):
        data = ("array", t.count, elttype_key(t.elem))
    elif isinstance(t, (TVector, TMatrix, TEnum)):  # scalars and names only: small
        data = ("kind", repr(t))
    else:  # Sarek's arrays and vectors: no layout, refused where a model is built
        data = ("other", repr(t))
    key = hashlib.blake2b(repr(data).encode(), digest_size=20).digest()
    if len(_KEYS) > LIMIT:
        _KEYS.clear()
    _KEYS[id(t)] = (t, key)
    return key


_MODELS: Dict[bytes, SchemaType] = {}


def model_of(t: Union[TRecord, TVariant]) -> SchemaType:
    """The member model of a record or variant elttype, memoised (raises ``LayoutError``
    like the layout core, ``TypeError`` for anything else)."""
    if not isinstance(t, (TRecord, TVariant)):
        raise TypeError(f"only records and variants have an element layout, not {t!r}")
    return memoised(_MODELS, elttype_key(t), lambda: _build(t))


def _expr(t: object) -> NamedType:
    # The spelling of a member's type, as messages and ``Member.spelling`` show it.
    return NamedType(type_name_of(t), None, _NOWHERE)  # type: ignore[arg-type]


def _member_type(t: object) -> MemberType:
    # The layout core has already refused everything but scalars, records and the member
    # kinds of SPEC §1b here. A kind is its elttype and the schema type it repeats.
    if isinstance(t, Scalar):
        return t
    if isinstance(t, (TRecord, TVariant)):
        return model_of(t)
    inner = t
    while isinstance(inner, TFixedArray):
        inner = inner.elem
    named = model_of(inner) if isinstance(inner, TRecord) else (
        _enum_model(inner) if isinstance(inner, TEnum) else None)
    return (t, named)  # type: ignore[return-value]


def _enum_model(t: TEnum) -> SchemaType:
    """The schema type of an enum elttype: laid out as its base, no members."""
    def build() -> SchemaType:
        decl = EnumDecl(t.name, t.base.name, tuple(EnumValue(n, v, _NOWHERE) for n, v in t.values),
                        _NOWHERE)
        return SchemaType(module="", name=t.name, c_name=t.name, elttype=t,
                          layout=ScalarLayout(t.base.size, t.base.align), decl=decl,
                          source=_SOURCE)
    return memoised(_MODELS, elttype_key(t), build)


def _build(t: Union[TRecord, TVariant]) -> SchemaType:
    # The core lays the type out first: it refuses what has no layout (an array member, a
    # nested variant) before any nested model is built.
    decl: Union[RecordDecl, VariantDecl]
    member_types: List[List[MemberType]]
    if isinstance(t, TRecord):
        layout: object = record_layout_of(t)
        decl = RecordDecl(t.name, tuple(FieldDecl(n, _expr(ft), _NOWHERE) for n, ft in t.fields),
                          _NOWHERE)
        member_types = [[_member_type(ft)] for _, ft in t.fields]
    else:
        layout = variant_layout(t.name, t.ctors, t.rules)
        decl = VariantDecl(t.name, tuple(CtorDecl(c, tuple(_expr(a) for a in args), _NOWHERE)
                                         for c, args in t.ctors), _NOWHERE)
        member_types = [[_member_type(a) for a in args] for _, args in t.ctors]
    members, items, arms = members_of(decl, layout, member_types)  # type: ignore[arg-type]
    named = [m[1] if isinstance(m, tuple) else m for types in member_types for m in types]
    uses = [m.c_name for m in named if isinstance(m, SchemaType)]
    return SchemaType(module="", name=t.name, c_name=t.name, elttype=t, layout=layout,  # type: ignore[arg-type]
                      decl=decl, source=_SOURCE, depends_on=tuple(dict.fromkeys(uses)),
                      members=members, items=items, arms=arms)
