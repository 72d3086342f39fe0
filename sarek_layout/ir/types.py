"""Sarek element types ("elttypes"): the immutable type model everything else is built on.

Mirrors ``Sarek_ir_types.elttype`` so that Python and OCaml read side by side: six scalar
values, records and variants by value (a nested record is the whole ``TRecord``), and
arrays/vectors, which exist in the IR but have no element layout.

All nodes are frozen and hashable. Aggregates cache their hash, because the layout core
memoises on them and a deep structural hash at every lookup would make nesting quadratic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Tuple, Union

__all__ = [
    "ElementType",
    "Scalar",
    "TInt32",
    "TInt64",
    "TFloat32",
    "TFloat64",
    "TBool",
    "TUnit",
    "SCALARS",
    "TRecord",
    "TVariant",
    "TArray",
    "TVec",
    "type_name_of",
]


class ElementType:
    """Base class of every elttype node."""

    __slots__ = ()


@dataclass(frozen=True)
class Scalar(ElementType):
    """One of the six scalar elttypes; compare with ``is`` or ``==`` against ``TInt32``…"""

    name: str

    def __repr__(self) -> str:
        return f"T{self.name.capitalize()}"


TInt32 = Scalar("int32")
TInt64 = Scalar("int64")
TFloat32 = Scalar("float32")
TFloat64 = Scalar("float64")
TBool = Scalar("bool")
TUnit = Scalar("unit")

#: The scalars by their schema spelling.
SCALARS = {s.name: s for s in (TInt32, TInt64, TFloat32, TFloat64, TBool, TUnit)}

Field = Tuple[str, ElementType]
Constructor = Tuple[str, Tuple[ElementType, ...]]


@dataclass(frozen=True, eq=True)
class TRecord(ElementType):
    """A record: ``name`` and ``(field_name, elttype)`` pairs in declaration order."""

    name: str
    fields: Tuple[Field, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __init__(self, name: str, fields: Iterable[Field]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "fields", tuple((n, t) for n, t in fields))
        object.__setattr__(self, "_hash", hash(("record", name, self.fields)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, eq=True)
class TVariant(ElementType):
    """A variant: ``name`` and ``(constructor_name, [elttype, ...])`` pairs; tag = index."""

    name: str
    ctors: Tuple[Constructor, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __init__(self, name: str, ctors: Iterable[Tuple[str, Iterable[ElementType]]]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "ctors", tuple((n, tuple(args)) for n, args in ctors))
        object.__setattr__(self, "_hash", hash(("variant", name, self.ctors)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True)
class TArray(ElementType):
    """A device array of ``elem`` in ``memspace`` (e.g. ``"global"``): no element layout."""

    elem: ElementType
    memspace: str = "global"


@dataclass(frozen=True)
class TVec(ElementType):
    """A Sarek vector of ``elem``: no element layout."""

    elem: ElementType


ElementTypeLike = Union[Scalar, TRecord, TVariant, TArray, TVec]


def type_name_of(t: ElementType) -> str:
    """The schema spelling of ``t``: ``float32``, a record/variant name, ``T array``…"""
    if isinstance(t, Scalar):
        return t.name
    if isinstance(t, (TRecord, TVariant)):
        return t.name
    if isinstance(t, TArray):
        return f"{type_name_of(t.elem)} array"
    if isinstance(t, TVec):
        return f"{type_name_of(t.elem)} vector"
    raise TypeError(f"not an elttype: {t!r}")
