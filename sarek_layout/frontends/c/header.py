"""C headers (SPEC §3): the ``typedef struct`` declarations of a header, read into a schema.

The header is preprocessed with ``cpp -nostdinc`` against a tiny bundled libc
(``fake_libc/``: ``stdint.h``, ``stddef.h``, ``stdbool.h``, ``assert.h``, ``string.h``…)
by ``preprocess`` (which keeps cpp away from devices and FIFOs), scanned by
``extensions`` for what changes a layout (packing, alignment, packing pragmas: refused,
except an alignment of 8 where it is the natural alignment, as generated headers write;
``changes`` judges them against the declarations), and parsed and collected by ``reader``
(the reader ``verify --header`` shares);
``places`` maps positions back to the source (read only from the header and the files cpp
included) and ``enums`` evaluates enum constants. This module turns the declarations into
a schema, type by type: each type is a ``TypeDecl`` or the ``SchemaError`` of its first
problem (``_Reader.decls``); ``refusals`` carries a refusal to the types that use it.
Member types are mapped by *name*, never by the fake sizes: ``int32_t``, ``int``,
``signed`` → int32; ``int64_t``, ``long long`` → int64; ``float`` → float32; ``double`` →
float64; ``uint8_t``, ``unsigned char`` → uint8; ``sarek_layout_float16`` (which must be a
typedef of ``uint16_t``, as generated headers declare it) → float16; the extension scalars
``int8_t``/``signed char`` → int8, ``int16_t``/``short`` → int16, ``uint16_t``/``unsigned
short`` → uint16, ``uint32_t``/``unsigned int`` → uint32, ``uint64_t``/``unsigned long long``
→ uint64 (``targets.spellings``); a struct typedef → that type. C has no 4-byte ``bool`` or
``unit``, so headers generated from a schema with ``bool``/``unit`` fields read back as
``int32``; a ``_Float16`` is refused with a word on how to write a float16.

**Which declarations form the schema.** Every ``typedef struct X {…} X;`` (or
``typedef struct {…} X;``, or ``typedef struct X X;`` with ``struct X {…}`` defined in the
header), and every plain ``struct tag {…};`` that no typedef names (a type named by its
tag), *in the header itself*, plus those of included headers that are not given but that
its types use. Which header holds a type, and how a member names a type of another header,
is decided for all the headers of a command together (``namespace``: one namespace of
typedef names, as in C). Other declarations (functions, static assertions, enums, unions,
scalar typedefs) are not types of the schema.

**Tagged variants** (the shape of SPEC §4): a struct whose members, ignoring padding, are
``int32_t tag;`` and a union ``data`` of one member ``<Ctor>_v`` per constructor with
arguments: the argument itself for one (``float Value_v;``), an inline struct of ``_0``,
``_1``, … for several, together with ``enum`` constants ``<T>_<Ctor>`` whose values are the tags
``0…n-1`` (constant constructors appear only there). A struct with just ``tag`` and such
constants is an all-constant variant. An enum belongs to the longest type name ``T`` that
prefixes all its constants.

**Padding** members, whose names start with ``_sarek_``, are skipped wherever they are.

**Module name and C names** (``modules``): ``--c-module HEADER=MODULE``, else a
``// sarek-layout: module NAME`` comment in the header, else the header's stem, capitalised,
*when* every typedef name of the header starts with ``<stem>_`` (stem compared
case-insensitively, the prefix spelled the same in all of them): the prefix is stripped and
becomes the module, so ``Geometry_point`` in ``geometry.h`` reads back as
``Geometry.point``. Otherwise the module is ``""`` (no prefix) and the type names are the
typedef names. Whatever the module, C names never change.

Refused, with the C source position: pointers, arrays (flexible array members too),
bit-fields (zero-width ones too), plain ``char`` (its
signedness differs between ABIs), ``bool``, ``long`` and ``unsigned long`` (their size differs
between ABIs) and other scalar types of no fixed size, enums, unions outside the
tagged-variant shape, inline struct definitions as members, references to structs that are
not defined in the headers read, and enum constants whose values are not 64-bit integers. An
extension (packing, alignment, ``mode``, ``vector_size``…) refuses the types whose layout it
changes: the bodies it is written in or that its declaration defines, and the members whose
typedef it is written on (``Extension.records``/``words``); elsewhere it changes nothing. An
attribute on ``typedef struct tag ATTR name;`` (the struct defined elsewhere) changes the
typedef alone: ``struct tag`` is then a type of its own, named by its tag. What the header
pins at 8 is kept (``pinned_places``…) for ``i386``, which tells where the original header's
i386 layout differs.
"""

from __future__ import annotations

import os
import re
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from ...errors import SchemaError, quoted
from ...ir.schema import (
    FieldDecl,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    TypeDecl,
    TypeExpr,
)
from ...ir.types import TInt32
from ...targets.naming import ARM_SUFFIX, FLOAT16_TYPEDEF
from .changes import LayoutChanges
from .extensions import Extension, scan_extensions
from .enums import enum_value
from .variants import read_variant
from .places import Places
from .preprocess import CPP_DEFINES, FAKE_LIBC, preprocess
from .modules import header_module_name
from .reader import C_SCALARS, STDINT, CDeclarations, StructTypedef, parse, without_padding
from ..source_files import check_regular_file

__all__ = ["read_unit", "FAKE_LIBC", "CPP_DEFINES", "header_module_name"]

#: The fixed-width names the C reader reads, for the messages (``int8_t … uint64_t``).
_FIXED_WIDTH_NAMES = ", ".join(sorted({sp for sp in C_SCALARS if sp in STDINT},
                                      key=lambda sp: (sp.startswith("u"), len(sp), sp)))

_WHY_NOT = [
    (re.compile(r"^char$"), "char has no Sarek layout (whether it is signed depends on the "
                            "ABI); use int8_t or uint8_t"),
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

#: Why a member of each kind of type (as ``CDeclarations.spell`` names it) that is no scalar
#: nor struct is refused.
_NOT_SCALAR = {
    "pointer": "is a pointer, which has no Sarek layout; pass the buffer as a separate kernel "
               "argument",
    "array": "is an array, which has no Sarek layout; use separate fields or a record type",
    "function": "is a function, which is not data",
    "union": f"is a union, which has no Sarek layout outside the tagged-variant shape (int32_t "
             f"tag; union {{ struct {{…}} Ctor{ARM_SUFFIX}; … }} data; with enum constants "
             f"T_Ctor)",
    "enum": "is an enum, whose size C leaves to the compiler; use int32_t (a variant used as a "
            "field would be refused as a nested variant anyway)",
}


# --- reading the declarations ----------------------------------------------------------------


class _Reader:
    """One header given as a schema: its translation unit (the header and what it includes,
    preprocessed and parsed) and the schema declarations built from it.

    Which typedefs belong to its schema, under which module and names, and how a member
    names a type of another header, is decided for all headers together
    (``namespace``): it fills in ``module``, ``names`` and ``refer`` before ``module``
    is called.
    """

    def __init__(self, path: str, ast, places: Places, extensions: Sequence[Extension] = ()) -> None:
        self.path = path
        self.ast = ast
        self.places = places
        self.loc = places.loc
        self.file_of = places.file_of
        self.h = self._declarations()
        self.main_file = path
        #: The schema's module, and the schema name of each C typedef name in it: the
        #: header's own typedef structs and those copied from headers not given.
        self.module_name = ""
        self.names: Dict[str, str] = {}
        #: ``refer(c_name, where)``: how a member names the typedef struct ``c_name``.
        self.refer: Callable[..., NamedType] = self._refer_alone
        #: What the extensions change, and the refusals they make.
        self.changes = LayoutChanges(places, ast, self.h, extensions)
        #: What an alignment of 8 pins on every ABI, i386 included (``i386``): members (and
        #: a variant's arguments) by their place, types and variant payloads by C name.
        self.pinned_places: Set[Tuple[str, int, int]] = set()
        self.pinned_types: Set[str] = set()
        self.pinned_payloads: Set[str] = set()
        # ``typedef struct tag __attribute__((aligned(16))) name;`` changes the typedef,
        # not ``struct tag`` (defined elsewhere): that struct is a type of its own.
        detached = frozenset(
            name for name in self.changes.changed_names
            if (td := self.h.struct_typedef(name)) is not None and td.body is None
            and td.tag in self.h.bodies)
        if detached:
            self.h = self.changes.h = self._declarations(detached)

    def _declarations(self, detached: FrozenSet[str] = frozenset()) -> CDeclarations:
        h = CDeclarations(file_of=self.places.file_of, plain_structs=True)
        h.add(self.ast, default_file=self.path, detached=detached)
        return h

    def _refer_alone(self, c_name: str, where: SourceLocation,
                     member_name: Optional[str] = None) -> NamedType:
        return NamedType(self.names[c_name], None, where)

    def typedef_location(self, c_name: str) -> SourceLocation:
        return self.loc(self.h.struct_typedefs[c_name].node, c_name)

    def defined_typedefs(self) -> List[str]:
        """The typedef structs with members in this translation unit, in order."""
        return [c for c in self.h.order if self._body(self.h.struct_typedefs[c]) is not None]

    def references(self, c_name: str) -> Iterator[Tuple[str, object]]:
        """``(typedef name, member)`` for each typedef struct a member of ``c_name`` names
        (union arms and their inline structs included); iterative, whatever the nesting."""
        body = self._body(self.h.struct_typedefs[c_name])
        stack = list(getattr(body, "decls", None) or ())
        while stack:
            member = stack.pop()
            spelled = self.h.spell(member.type)
            if spelled.kind in ("struct", "union") and spelled.inline:
                stack.extend(getattr(spelled.body, "decls", None) or ())
            elif spelled.kind == "struct" and spelled.name in self.h.struct_typedefs:
                yield spelled.name, member

    def _body(self, td: StructTypedef):
        return self.h.body_of(td)

    # -- the module -----------------------------------------------------------------------

    def schema_types(self) -> List[str]:
        """The C names of this schema's types, in the order C declares them."""
        return [c for c in self.h.order if c in self.names]

    def decls(self) -> Dict[str, object]:
        """Each type of this schema as a ``TypeDecl``, or the ``SchemaError`` that refuses
        it (its first problem, at its place): one refused type does not stop the others."""
        names = self.schema_types()
        owners = self._enum_owners(names)
        out: Dict[str, object] = {}
        for c in names:
            try:
                out[c] = self._decl(c, owners.get(c, []))
            except SchemaError as e:
                out[c] = e
        return out

    def module(self, decls: Sequence[TypeDecl]) -> ModuleDecl:
        """The schema of this header holding ``decls``."""
        return ModuleDecl(self.module_name, self.path, "c", tuple(decls),
                          SourceLocation(self.path, 1, 1))

    def _enum_owners(self, names: List[str]) -> Dict[str, List[Tuple[str, object]]]:
        """Enum constants grouped under the type whose C name prefixes them (the longest such
        name declared in the enum's own file): in time linear in the enums' size, whatever
        their number."""
        owners: Dict[str, List[Tuple[str, object]]] = {}
        by_file: Dict[str, Set[str]] = {}
        for n in names:
            by_file.setdefault(self.h.struct_typedefs[n].file, set()).add(n)
        # Names longer than any identifier a target accepts are refused anyway (resolve).
        lengths = {
            file: sorted({len(n) for n in known if len(n) <= _MAX_OWNER_NAME}, reverse=True)
            for file, known in by_file.items()
        }
        for file, enumerators in self.h.enums:
            known = by_file.get(file)
            if not known or not enumerators:
                continue
            # T owns the enum when every constant starts with "T_": T_ prefixes their
            # common prefix.
            common = os.path.commonprefix([n for n, _ in enumerators])[: _MAX_OWNER_NAME + 1]
            for k in lengths[file]:
                if k < len(common) and common[k] == "_" and common[:k] in known:
                    owners.setdefault(common[:k], []).extend(enumerators)
                    break
        return owners

    def _decl(self, c_name: str, enumerators: List[Tuple[str, object]]) -> TypeDecl:
        from pycparser import c_ast

        td = self.h.struct_typedefs[c_name]
        body = self._body(td)
        changes = self.changes
        changed = changes.changed(body) or changes.changed_names.get(c_name) or (
            changes.changed_names.get(td.tag) if td.tag else None)
        if changed is not None:
            raise changed
        if id(body) in changes.pinned_bodies or c_name in changes.pinned_names:
            self.pinned_types.add(c_name)
        name = self.names[c_name]
        # The name as first written: ``struct T {`` (or the typedef line for an anonymous struct).
        named_at = body if td.tag and getattr(body, "coord", None) is not None else td.node
        location = self.loc(named_at, c_name)
        members = without_padding(body.decls)  # type: ignore[union-attr]
        is_tag = bool(members) and members[0].name == "tag"
        rest = members[1:]
        has_union = (
            len(rest) == 1
            and rest[0].name == "data"
            and isinstance(getattr(rest[0].type, "type", None), c_ast.Union)
        )
        if is_tag and (has_union or (not rest and enumerators)):
            if rest and changes.pinned(rest[0]):
                self.pinned_payloads.add(c_name)
            return read_variant(self, c_name, name, location, members, enumerators)
        fields = tuple(
            FieldDecl(m.name, self.member_type(m, c_name), self.loc(m, m.name)) for m in members
        )
        return RecordDecl(name, fields, location)

    def enum_constant(self, node, previous: Optional[int], known: Dict[str, int]) -> int:
        def refuse(why: str) -> SchemaError:
            return SchemaError(
                f"cannot evaluate the value of enum constant {quoted(node.name)}: {why}",
                self.loc(node, node.name),
            )

        return enum_value(node, previous, known, refuse)

    # -- member types ---------------------------------------------------------------------

    def member_type(self, m, owner: str, allow_enum: bool = False) -> Optional[TypeExpr]:
        """The schema type of the member ``m`` of ``owner``, or its refusal at its place
        (``allow_enum``: an enum reads as int32, as a variant's tag may be written)."""
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
        if self.changes.pinned(m):
            self.pinned_places.add((where.file, where.line, where.col))
        if spelled.kind == "struct":
            return self._struct_member(spelled, what, where, name)
        if spelled.kind == "array" and getattr(m.type, "dim", True) is None:
            raise SchemaError(f"{what} is a flexible array member (an array of no fixed size), "
                              f"which has no Sarek layout; pass its elements as a separate "
                              f"buffer", where)
        if spelled.kind != "scalar":
            why = _NOT_SCALAR.get(spelled.kind, "has a type sarek-layout cannot read")
            raise SchemaError(f"{what} {why}", where)
        return self._scalar_member(spelled, what, where)

    def _member_place(self, m) -> SourceLocation:
        """Where the member ``m`` is: its name, or for an unnamed one (``int32_t : 0;``, an
        anonymous union), which pycparser gives no place, where its type is written."""
        if m.name is not None or getattr(m, "coord", None) is not None:
            return self.loc(m, m.name)
        node = m.type
        while node is not None and getattr(node, "coord", None) is None:
            node = getattr(node, "type", None)
        return self.loc(node if node is not None else m)

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
        changed = self.changes.changed_typedef(m.type)
        if changed is not None:
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
        """A member whose type is a struct: a typedef struct defined in the headers read."""
        if spelled.inline:
            raise SchemaError(
                f"{what} defines a struct inline; declare it as its own typedef struct "
                f"and use its name",
                where,
            )
        td = self.h.struct_typedefs.get(spelled.name) if spelled.name else None
        if td is None or self._body(td) is None:
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
        return self.refer(spelled.name, where, name)

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


#: Longest type name that can own enum constants (names above 63 characters are refused).
_MAX_OWNER_NAME = 255


def read_unit(
    path: str, include_dirs: Iterable[str] = (), defines: Iterable[str] = ()
) -> _Reader:
    """Preprocess and parse the header ``path`` (with what it includes). Bad C is refused
    here; an extension refuses only what it changes (``_Reader.decls``)."""
    # A FIFO or device given as the header: refused before anything opens it for good.
    check_regular_file(path)
    cpp = preprocess(path, include_dirs, defines)
    text, extensions = scan_extensions(cpp.text)
    places = Places(path, cpp.included)
    for ext in extensions:  # an attribute left open: the text after it cannot be read
        if ext.fatal:
            raise places.extension_error(ext, ext.verdict or "cannot be read")
    return _Reader(path, parse(text, path, places), places, extensions)
