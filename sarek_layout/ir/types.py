"""Sarek element types ("elttypes"): the immutable type model everything else is built on.

Mirrors ``Sarek_ir_types.elttype`` so that Python and OCaml read side by side: eight scalar
values (upstream's newer ``TFloat16`` and ``TUint8`` included), records and variants by value (a nested record is the whole ``TRecord``), and
arrays/vectors, which exist in the IR but have no element layout. Five *extension* scalars
(``int8``, ``int16``, ``uint16``, ``uint32``, ``uint64``) are laid out by the same rules for the
C headers and GPU structs that use them; they are not Sarek element types (``Scalar.extension``),
so a schema using them has no Sarek ``.ml`` spelling.

All nodes are frozen and hashable. Aggregates cache their hash, because the layout core
memoises on them and a deep structural hash at every lookup would make nesting quadratic.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Iterable, Optional, Tuple, Union

__all__ = [
    "ElementType",
    "Scalar",
    "TInt32",
    "TInt64",
    "TFloat32",
    "TFloat64",
    "TBool",
    "TUnit",
    "TFloat16",
    "TUint8",
    "TInt8",
    "TInt16",
    "TUint16",
    "TUint32",
    "TUint64",
    "SCALARS",
    "TChar",
    "ELEMENT_SCALARS",
    "ALIASES",
    "scalar_named",
    "scalars_where",
    "TRecord",
    "TVariant",
    "TArray",
    "TVec",
    "TFixedArray",
    "TVector",
    "TMatrix",
    "TEnum",
    "EXTENSION_KINDS",
    "RULE_SET_NAMES",
    "type_name_of",
]


class ElementType:
    """Base class of every elttype node."""

    __slots__ = ()


@dataclass(frozen=True)
class Scalar(ElementType):
    """One scalar elttype and every fact about it that is not a target's spelling.

    This is the one scalar table of the package: the layout core reads ``size``/``align``,
    the Python host reads ``struct_format`` (``=`` mode), ``numpy`` and ``annotation``, and
    the codecs the integer range. How each target spells a scalar is the target's dialect
    (``targets.dialects``). Compare with ``is`` or ``==`` against ``TInt32``…
    """

    name: str
    size: int
    align: int
    #: ``int``, ``float``, ``bool`` or ``unit``: how a Python value of it is checked.
    kind: str
    #: ``struct`` format character in ``=`` mode (standard sizes, native byte order).
    struct_format: str
    #: numpy dtype string, native byte order.
    numpy: str
    #: The Python annotation of a value of it.
    annotation: str
    #: Inclusive range of an integer scalar (``None`` for the others).
    int_range: Optional[Tuple[int, int]] = None
    #: Not a Sarek element type (no ``Sarek_ir_types.elttype`` constructor holds it): laid out
    #: by the same rules, but a schema using it cannot be written as a Sarek ``.ml``.
    extension: bool = False

    def __repr__(self) -> str:
        return f"T{self.name.capitalize()}"

    def __hash__(self) -> int:
        # The name alone: no two scalars share one, and records hash their fields' scalars
        # at every build (the generated hash of all nine fields was a tenth of resolving).
        return hash(self.name)

    # The predicates every stage asks, derived from the facts above (no module keeps its own
    # list of scalar names: tests/package/test_package_rules.py).

    @property
    def is_float(self) -> bool:
        """A floating-point scalar (float16, float32, float64)."""
        return self.kind == "float"

    @property
    def is_unsigned(self) -> bool:
        """An integer that is stored unsigned (uint8, uint16, uint32, uint64); bool and unit
        are int32s."""
        return self.int_range is not None and self.int_range[0] == 0

    @property
    def is_signed_int(self) -> bool:
        """Stored as a signed two's-complement integer: int8, int16, int32, int64, bool and
        unit (which every target stores as an int32)."""
        return not self.is_float and not self.is_unsigned and not self.is_char

    @property
    def is_char(self) -> bool:
        """A byte string's element (``char``): text, not a number."""
        return self.kind == "bytes"

    @property
    def sub_word(self) -> bool:
        """Smaller than a 32-bit word: GLSL and WGSL keep it inside one (int8, uint8, int16,
        uint16, float16)."""
        return self.size < 4

    @property
    def half_float(self) -> bool:
        """IEEE 754 binary16: C-family headers hold its bits in 16 unsigned bits."""
        return self.is_float and self.size == 2

    @property
    def wide(self) -> bool:
        """An 8-byte scalar (int64, uint64, float64): 8-aligned, 4-aligned inside i386
        structs."""
        return self.size == 8


def _int_range(bits: int) -> Tuple[int, int]:
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def _uint_range(bits: int) -> Tuple[int, int]:
    return 0, 2 ** bits - 1


# bool and unit are 4-byte integers in every target (SPEC §1): a C bool is 1 byte.
TInt32 = Scalar("int32", 4, 4, "int", "i", "=i4", "int", _int_range(32))
TInt64 = Scalar("int64", 8, 8, "int", "q", "=i8", "int", _int_range(64))
TFloat32 = Scalar("float32", 4, 4, "float", "f", "=f4", "float")
TFloat64 = Scalar("float64", 8, 8, "float", "d", "=f8", "float")
TBool = Scalar("bool", 4, 4, "bool", "i", "=i4", "bool")
TUnit = Scalar("unit", 4, 4, "unit", "i", "=i4", "None")
# The two newer Sarek scalars, natural alignment as in C (upstream's Sarek_ir_layout gives
# TFloat16 size 2, align 2). A float16 is IEEE 754 binary16: a Python float here, ``struct``'s
# "e" (which refuses what binary16 cannot hold), numpy's f2; each target's spelling is its
# dialect's (C-family headers hold its bits in a 16-bit unsigned integer: README, "float16").
TFloat16 = Scalar("float16", 2, 2, "float", "e", "=f2", "float")
TUint8 = Scalar("uint8", 1, 1, "int", "B", "=u1", "int", _uint_range(8))
# The extension scalars (issue 22): the fixed-width integers real C headers and GPU structs
# use (Vulkan's uint32_t counts, the kernel's __aligned_u64), natural size and alignment as in
# C. uint64 is wide like int64: 4-aligned inside i386 structs unless pinned.
TInt8 = Scalar("int8", 1, 1, "int", "b", "=i1", "int", _int_range(8), extension=True)
TInt16 = Scalar("int16", 2, 2, "int", "h", "=i2", "int", _int_range(16), extension=True)
TUint16 = Scalar("uint16", 2, 2, "int", "H", "=u2", "int", _uint_range(16), extension=True)
TUint32 = Scalar("uint32", 4, 4, "int", "I", "=u4", "int", _uint_range(32), extension=True)
TUint64 = Scalar("uint64", 8, 8, "int", "Q", "=u8", "int", _uint_range(64), extension=True)

#: The scalars by their schema spelling.
SCALARS = {s.name: s for s in (TInt32, TInt64, TFloat32, TFloat64, TBool, TUnit, TFloat16,
                               TUint8, TInt8, TInt16, TUint16, TUint32, TUint64)}

# A C ``char`` as the element of a byte string (SPEC §1b): ``char name[32]`` is 32 bytes of text
# (Python ``bytes``), since a char is 1 byte on every ABI. It is only ever an array's element
# (written ``char[32]``): a single char has no integer meaning a schema could give it (whether
# it is signed depends on the ABI), so it is not in ``SCALARS``, the scalars a member, a
# vector's component or an enum's base may be.
TChar = Scalar("char", 1, 1, "bytes", "c", "=S1", "bytes", extension=True)

#: The scalars that exist only as the element of a fixed array, by their schema spelling.
ELEMENT_SCALARS = {TChar.name: TChar}

#: Other spellings of scalars that type expressions accept. ``float`` is Sarek's GPU float:
#: its PPX marshals a ``float`` record field as 4 bytes (``"float" -> 4 (* GPU float32 *)``)
#: and upstream's ``test_ir_fields.ml`` pins ``{flt_f : float}`` at 4 bytes; C agrees.
ALIASES = {"int": TInt32, "float": TFloat32}


def scalars_where(predicate) -> "frozenset[str]":
    """The names of the scalars for which ``predicate(scalar)`` holds (``Scalar.sub_word``…)."""
    return frozenset(s.name for s in SCALARS.values() if predicate(s))


def scalar_named(name: str) -> Optional[Scalar]:
    """The scalar a type expression's name means (``int32``, ``int``…, and ``char``, which
    only an array's element may be), or ``None``."""
    return SCALARS.get(name) or ALIASES.get(name) or ELEMENT_SCALARS.get(name)

Field = Tuple[str, ElementType]
Constructor = Tuple[str, Tuple[ElementType, ...]]


#: Every live record, by its name and its fields' identities (see ``TRecord``).
_RECORDS: "weakref.WeakValueDictionary[tuple, TRecord]" = weakref.WeakValueDictionary()


@dataclass(frozen=True, eq=True)
class TRecord(ElementType):
    """A record: ``name`` and ``(field_name, elttype)`` pairs in declaration order.

    Hash-consed: building a record equal to a live one, out of the same field objects,
    returns that one. So records built from one another are identical wherever they are
    equal, and comparing two of them never walks a deep nesting (two distinct equal copies
    of a record of two copies of a record… would compare in time exponential in the depth,
    and every cache keyed by records would pay it).
    """

    name: str
    fields: Tuple[Field, ...]
    #: The rule set that lays it out (SPEC §1b): ``"c"``, Sarek's own, unless the schema says.
    rules: str = "c"
    _hash: int = field(init=False, repr=False, compare=False)

    def __new__(cls, name: str, fields: Iterable[Field], rules: str = "c") -> "TRecord":
        fields = tuple([(n, t) for n, t in fields])  # list comprehensions: built per record
        # One flat tuple: each field's name, then its scalar (a table entry, compared by
        # identity first) or the identity of its aggregate. Pairs and an id per scalar
        # field were most of the memory a 10,000-record schema spent on these keys.
        key = (name, rules, *[x for n, t in fields for x in (n, t if type(t) is Scalar else id(t))])
        found = _RECORDS.get(key)
        if found is not None:
            return found
        self = object.__new__(cls)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "_hash", hash(("record", name, fields, rules)))
        _RECORDS[key] = self
        return self

    def __init__(self, name: str, fields: Iterable[Field], rules: str = "c") -> None:
        pass  # built by __new__

    def __reduce__(self):
        return TRecord, (self.name, self.fields, self.rules)

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, eq=True)
class TVariant(ElementType):
    """A variant: ``name`` and ``(constructor_name, [elttype, ...])`` pairs; tag = index."""

    name: str
    ctors: Tuple[Constructor, ...]
    #: The rule set that lays out its arguments (SPEC §1b), as ``TRecord.rules``.
    rules: str = "c"
    _hash: int = field(init=False, repr=False, compare=False)

    def __init__(self, name: str, ctors: Iterable[Tuple[str, Iterable[ElementType]]],
                 rules: str = "c") -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "ctors", tuple((n, tuple(args)) for n, args in ctors))
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "_hash", hash(("variant", name, self.ctors, rules)))

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


# --- the members GPU structs are made of (SPEC §1b: extensions, not Sarek element types) ---


@dataclass(frozen=True)
class TFixedArray(ElementType):
    """``elem[count]``: a fixed array member, laid out by the enclosing type's rule set.

    ``T[N][M]`` reads as in C: ``TFixedArray(TFixedArray(T, M), N)``. Not Sarek's ``TArray``
    (a device buffer, which has no element layout)."""

    elem: ElementType
    count: int


@dataclass(frozen=True)
class TVector(ElementType):
    """``vecN<T>``: ``n`` (2 to 4) components of a numeric scalar."""

    elem: Scalar
    n: int


@dataclass(frozen=True)
class TMatrix(ElementType):
    """``matCxR<T>``: ``cols`` columns of ``vecR<T>`` (column-major), C and R in 2..4."""

    elem: Scalar
    cols: int
    rows: int


@dataclass(frozen=True)
class TEnum(ElementType):
    """An enum: named values of an integer ``base`` scalar, laid out as its base."""

    name: str
    base: Scalar
    values: Tuple[Tuple[str, int], ...]


#: The member kinds beyond Sarek's: a schema holding one has no Sarek ``.ml`` spelling.
EXTENSION_KINDS = (TFixedArray, TVector, TMatrix, TEnum)

#: The rule sets a schema may name (SPEC §1b), ``c`` (Sarek's own) first: the vocabulary
#: of ``TRecord.rules``; their arithmetic is the layout stage's (``layout.rules``).
RULE_SET_NAMES = ("c", "std430", "std140", "scalar", "cuda", "wgsl-uniform", "hlsl-cbuffer")

ElementTypeLike = Union[Scalar, TRecord, TVariant, TArray, TVec, TFixedArray, TVector, TMatrix,
                        TEnum]


def type_name_of(t: ElementType) -> str:
    """The schema spelling of ``t``: ``float32``, a record/variant name, ``T array``…"""
    if isinstance(t, Scalar):
        return t.name
    if isinstance(t, (TRecord, TVariant, TEnum)):
        return t.name
    if isinstance(t, TFixedArray):
        return f"{type_name_of(t.elem)}[{t.count}]"
    if isinstance(t, TVector):
        return f"vec{t.n}<{t.elem.name}>"
    if isinstance(t, TMatrix):
        return f"mat{t.cols}x{t.rows}<{t.elem.name}>"
    if isinstance(t, TArray):
        return f"{type_name_of(t.elem)} array"
    if isinstance(t, TVec):
        return f"{type_name_of(t.elem)} vector"
    raise TypeError(f"not an elttype: {t!r}")
