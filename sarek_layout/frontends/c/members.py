"""The schema type of one struct member of a C header (``header._Reader.member_type``).

Read by spelling, never by the fake libc's sizes (``reader.CDeclarations.spell``):

* a fixed-width scalar (``reader.C_SCALARS``: ``int32_t``, ``float``, ``unsigned short``…);
* a struct typedef of the headers read (``NamedType``), or one of CUDA's vector types
  (``vectors``: ``float4`` is ``vec4<float32>``, laid out by the ``cuda`` rules);
* an enum type of the headers read (its ``NamedType``; ``enums``);
* a fixed array of any of these, of up to ``MAX_DIMENSIONS`` dimensions (``float m[4][4]``
  is ``float32[4][4]``: 4 elements, each a ``float32[4]``, as in C), its sizes integer
  constant expressions as the compiler folds them (``constants``: macros, enum constants,
  ``sizeof(float) * 4``); ``char name[32]`` is a byte string, ``char[32]`` (a char is 1 byte
  on every ABI; Python ``bytes``).

Refused at the member's place, saying why: a plain ``char`` (signed or not, by ABI),
``long``, ``bool`` and other scalars of no fixed size, pointers (arrays of them too),
unions outside the tagged-variant shape, bit-fields, ``_Atomic``, anonymous members, inline
struct or enum definitions, flexible (``a[]``) and zero-length (``a[0]``) arrays, and an
array size that is not a constant (a variable, a VLA), is negative or exceeds the largest
type (2^31 - 1 bytes).
"""

from __future__ import annotations

import re
from typing import Optional

from ...errors import SchemaError, quoted
from ...ir.schema import ArrayType, NamedType, SourceLocation, TypeExpr, VectorType
from ...ir.types import ELEMENT_SCALARS, SCALARS, TInt32, Scalar
from ...targets.dialects import C as C_DIALECT
from ...targets.naming import ARM_SUFFIX, FLOAT16_TYPEDEF
from ..jsontoml.reader import MAX_DIMENSIONS
from .constants import evaluate
from .reader import C_SCALARS, STDINT

__all__ = ["MemberTypes", "MAX_DIMENSIONS"]

#: The fixed-width names the C reader reads, for the messages (``int8_t … uint64_t``).
_FIXED_WIDTH_NAMES = ", ".join(sorted({sp for sp in C_SCALARS if sp in STDINT},
                                      key=lambda sp: (sp.startswith("u"), len(sp), sp)))

#: C spelling -> the scalar that only an array's element may be (``char name[32]``).
_ELEMENT_SPELLINGS = {C_DIALECT.scalar[s.name]: s for s in ELEMENT_SCALARS.values()}
#: Elements of at most this many bytes in all (SPEC §1b: the largest type).
_LARGEST_SIZE = 2**31 - 1

_WHY_NOT = [
    (re.compile(r"^char$"), "char has no Sarek layout (whether it is signed depends on the "
                            "ABI); use int8_t or uint8_t (a byte string is char name[N])"),
    (re.compile(r"^_Bool$|^bool$"), "C bool is 1 byte, Sarek's bool is 4: use int32_t"),
    (re.compile(r"^long double$"), "long double has no Sarek layout; use double"),
    (
        re.compile(r"^(signed |unsigned )?long( int)?$"),
        "long is 4 or 8 bytes depending on the ABI; use int32_t or int64_t (uint32_t or "
        "uint64_t when unsigned)",
    ),
    (re.compile(r"_t$"), f"the fixed-width scalars are {_FIXED_WIDTH_NAMES}"),
    (re.compile(r"^void$"), "void is not data"),
]

#: Why a member of each kind of type (as ``CDeclarations.spell`` names it) that is no scalar,
#: struct, enum nor array is refused.
_NOT_SCALAR = {
    "pointer": "is a pointer, which has no Sarek layout; pass the buffer as a separate kernel "
               "argument",
    "array": "is an array of pointers, which have no Sarek layout; pass the buffers as "
             "separate kernel arguments",
    "function": "is a function, which is not data",
    "union": f"is a union, which has no Sarek layout outside the tagged-variant shape (int32_t "
             f"tag; union {{ struct {{…}} Ctor{ARM_SUFFIX}; … }} data; with enum constants "
             f"T_Ctor)",
}


class MemberTypes:
    """The member types of one header's structs, read by ``reader`` (``header._Reader``:
    its declarations, places, extensions, enum constants, CUDA vectors and references)."""

    def __init__(self, reader) -> None:
        self.reader = reader

    @property
    def h(self):
        return self.reader.h  # the reader may read its declarations again (``detached``)

    def member_type(self, m, owner: str, allow_enum: bool = False) -> TypeExpr:
        """The schema type of the member ``m`` of ``owner``, or its refusal at its place
        (``allow_enum``: an enum reads as int32, as a variant's tag may be written)."""
        reader = self.reader
        name = m.name
        where = self._member_place(m)
        what = (
            f"member {quoted(name)} of {quoted(owner)}"
            if name
            else f"an unnamed member of {quoted(owner)}"
        )
        self._refuse_declaration(m, what, where)
        spelled = self.h.spell(m.type)
        if spelled.kind == "enum" and allow_enum:
            return NamedType(TInt32.name, None, where)
        if reader.changes.pinned(m):
            reader.pinned_places.add((where.file, where.line, where.col))
        if spelled.kind == "array" and spelled.element is not None:
            return self._array(spelled, what, where, name)
        return self._of(spelled, what, where, name)

    def _of(self, spelled, what: str, where: SourceLocation, name: Optional[str]) -> TypeExpr:
        """A member (or an array's element) of the type ``spelled``, no array."""
        if spelled.kind == "struct":
            return self._struct_member(spelled, what, where, name)
        if spelled.kind == "enum":
            return self._enum_member(spelled, what, where, name)
        if spelled.kind != "scalar":
            why = _NOT_SCALAR.get(spelled.kind, "has a type sarek-layout cannot read")
            raise SchemaError(f"{what} {why}", where)
        return self._scalar_member(spelled, what, where)

    # -- arrays ---------------------------------------------------------------------------

    def _array(self, spelled, what: str, where: SourceLocation, name: Optional[str]) -> TypeExpr:
        """``T m[N][M]…``: ``T[N][M]``, T read as a member of T's type is (or ``char``)."""
        if len(spelled.dims) > MAX_DIMENSIONS:
            raise SchemaError(f"{what} is an array of {len(spelled.dims)} dimensions; a struct "
                              f"member has at most {MAX_DIMENSIONS}", where)
        counts = [self._count(d, what, where) for d in spelled.dims]
        element = spelled.element
        if element.kind == "scalar" and element.text in _ELEMENT_SPELLINGS:
            expr: TypeExpr = NamedType(_ELEMENT_SPELLINGS[element.text].name, None, where)
        else:
            expr = self._of(element, f"each element of {what}", where, name)
        total = 1
        for count in reversed(counts):
            total *= count
            if total > _LARGEST_SIZE:
                raise SchemaError(
                    f"{what} is an array of more than {_LARGEST_SIZE} elements; the largest type "
                    f"is {_LARGEST_SIZE} bytes (so that it compiles on every 32-bit ABI)", where)
            expr = ArrayType(expr, count, where)
        return expr

    def _count(self, dim, what: str, where: SourceLocation) -> int:
        """One dimension's number of elements, as the compiler folds it."""
        if dim is None:
            raise SchemaError(f"{what} is a flexible array member (an array of no fixed size), "
                              f"which has no Sarek layout; pass its elements as a separate "
                              f"buffer", where)

        def refuse(why: str) -> SchemaError:
            return SchemaError(f"{what} is an array whose size cannot be evaluated: {why}", where)

        count = evaluate(dim, self.reader.constants.known, refuse, self.scalar_of)
        if count == 0:
            raise SchemaError(f"{what} is an array of zero elements (a GNU extension), which "
                              f"has no Sarek layout: it holds nothing; leave it out", where)
        if count < 0:
            raise SchemaError(f"{what} is an array of {count} elements, which C refuses", where)
        return count

    def scalar_of(self, typename) -> Optional[Scalar]:
        """The scalar a ``sizeof`` or a cast names when its size is the same on every ABI
        (``sizeof(float)``, ``sizeof(char)``), else ``None``."""
        from pycparser import c_ast

        t = getattr(typename, "type", None)
        if not isinstance(t, c_ast.TypeDecl):
            return None  # a pointer, an array, a function: not a scalar
        spelled = self.h.spell(t)
        if spelled.kind != "scalar":
            return None
        if spelled.text in _ELEMENT_SPELLINGS:
            return _ELEMENT_SPELLINGS[spelled.text]
        scalar = C_SCALARS.get(spelled.text)
        return SCALARS[scalar] if scalar is not None else None

    # -- named types ----------------------------------------------------------------------

    def _member_place(self, m) -> SourceLocation:
        """Where the member ``m`` is: its name, or for an unnamed one (``int32_t : 0;``, an
        anonymous union), which pycparser gives no place, where its type is written."""
        loc = self.reader.loc
        if m.name is not None or getattr(m, "coord", None) is not None:
            return loc(m, m.name)
        node = m.type
        while node is not None and getattr(node, "coord", None) is None:
            node = getattr(node, "type", None)
        return loc(node if node is not None else m)

    def _refuse_declaration(self, m, what: str, where: SourceLocation) -> None:
        """What the member's declaration alone refuses: no name, a bit-field, a typedef an
        extension changes, ``_Atomic``."""
        if m.bitsize is not None:  # ``int32_t : 0;`` too: it moves what follows
            raise SchemaError(
                f"{what} is a bit-field, which has no Sarek layout: C packs bit-fields into "
                f"shared storage units, Sarek gives every field its own; use a whole int32_t",
                where,
            )
        if m.name is None:
            raise SchemaError(
                f"{what}: anonymous structs and unions have no Sarek layout outside the "
                f"tagged-variant shape; give it a typedef and a member name",
                where,
            )
        changed = self.reader.changes.changed_typedef(m.type)
        if changed is not None and self.reader.cuda_vector(changed[0]) is None:
            # (CUDA's vector types are declared with their alignment: ``vectors``)
            raise SchemaError(
                f"{what} has type {quoted(changed[0])} ({changed[1].location}: "
                f"{changed[1].message})", where)
        if "_Atomic" in (m.quals or []) or "_Atomic" in (getattr(m.type, "quals", None) or []):
            raise SchemaError(
                f"{what} is _Atomic, whose size and alignment C leaves to the implementation",
                where,
            )

    def _struct_member(self, spelled, what: str, where: SourceLocation,
                       name: Optional[str]) -> TypeExpr:
        """A member whose type is a struct: one of CUDA's vector types, or a typedef struct
        defined in the headers read."""
        if spelled.inline:
            raise SchemaError(
                f"{what} defines a struct inline; declare it as its own typedef struct "
                f"and use its name",
                where,
            )
        vector = self.reader.cuda_vector(spelled.name) if spelled.name else None
        if vector is not None:
            return VectorType(vector[1], vector[0].name, where)
        td = self.h.struct_typedefs.get(spelled.name) if spelled.name else None
        if td is None or self.h.body_of(td) is None:
            if spelled.name:
                raise SchemaError(
                    f"{what} has type {quoted(spelled.name)}, a struct declared but not "
                    f"defined in the headers read",
                    where,
                )
            raise SchemaError(
                f"{what} has type {quoted(spelled.text)}, which is not a typedef struct "
                f"of the headers read",
                where,
            )
        return self.reader.refer(spelled.name, where, name)

    def _enum_member(self, spelled, what: str, where: SourceLocation,
                     name: Optional[str]) -> TypeExpr:
        """A member whose type is an enum type of the headers read (``enums``)."""
        if spelled.inline or not spelled.name:
            raise SchemaError(
                f"{what} is an enum defined in the member's own declaration, which names no "
                f"type; declare it as its own typedef enum (typedef enum {{…}} name;) and use "
                f"its name",
                where,
            )
        td = self.h.enum_typedefs.get(spelled.name)
        if td is None or self.h.body_of(td) is None:
            raise SchemaError(
                f"{what} has type {quoted(spelled.name)}, an enum declared but not defined in "
                f"the headers read", where)
        return self.reader.refer(spelled.name, where, name)

    def _scalar_member(self, spelled, what: str, where: SourceLocation) -> TypeExpr:
        """A member whose type is a scalar, read by its spelling (never by its size)."""
        if spelled.text == FLOAT16_TYPEDEF:
            self._check_float16_typedef(what, where)
        if spelled.text in C_SCALARS:
            return NamedType(C_SCALARS[spelled.text], None, where)
        for pattern, why in _WHY_NOT:
            if pattern.search(spelled.text):
                raise SchemaError(f"{what} has type {quoted(spelled.text)}: {why}", where)
        raise SchemaError(
            f"{what} has type {quoted(spelled.text)}, which has no Sarek layout; use "
            f"{_FIXED_WIDTH_NAMES}, float, double, {FLOAT16_TYPEDEF} or a typedef struct",
            where,
        )

    def _check_float16_typedef(self, what: str, where: SourceLocation) -> None:
        """The float16 typedef is read by its name: it must name the 16 unsigned bits
        generated headers give it, or the C layout would not be a float16's."""
        target = self.h.aliases.get(FLOAT16_TYPEDEF)
        spelled = self.h.spell(target) if target is not None else None
        if spelled is None or spelled.kind != "scalar" \
                or spelled.text not in ("uint16_t", "unsigned short"):
            found = "" if spelled is None else f", not {quoted(spelled.text)}"
            raise SchemaError(
                f"{what} has type {FLOAT16_TYPEDEF}, which must be a typedef of uint16_t"
                f"{found} (typedef uint16_t {FLOAT16_TYPEDEF};: the float16's IEEE 754 "
                f"binary16 bits)",
                where,
            )
