"""C headers (SPEC §3): the ``typedef struct`` declarations of a header, read into a schema.

The header is preprocessed with ``cpp -nostdinc`` against a tiny bundled libc
(``fake_libc/``: ``stdint.h``, ``stddef.h``, ``stdbool.h``, ``assert.h``, ``string.h``…)
by ``preprocess`` (which keeps cpp away from devices and FIFOs), scanned by
``extensions`` for what changes a layout (packing, alignment, packing pragmas: refused,
except an alignment of 8 where it is the natural alignment, as generated headers write;
``changes`` judges them against the declarations), and parsed and collected by ``reader``
(the reader ``verify --header`` shares);
``places`` maps positions back to the source (read only from the header and the files cpp
included), ``enums`` reads enum types and evaluates enum constants (``constants``: integer
constant expressions), ``members`` reads each member's type and ``vectors`` recognises CUDA's
vector types. This module turns the declarations into a schema, type by type: each type is
a ``TypeDecl`` or the ``SchemaError`` of its first problem (``_Reader.decls``); ``refusals``
carries a refusal to the types that use it.
Member types are mapped by *name*, never by the fake sizes: ``int32_t``, ``int``,
``signed`` → int32; ``int64_t``, ``long long`` → int64; ``float`` → float32; ``double`` →
float64; ``uint8_t``, ``unsigned char`` → uint8; ``sarek_layout_float16`` (which must be a
typedef of ``uint16_t``, as generated headers declare it) → float16; the extension scalars
``int8_t``/``signed char`` → int8, ``int16_t``/``short`` → int16, ``uint16_t``/``unsigned
short`` → uint16, ``uint32_t``/``unsigned int`` → uint32, ``uint64_t``/``unsigned long long``
→ uint64 (``targets.spellings``); a struct typedef or an enum type → that type; CUDA's
``float4``… → ``vec4<float32>``…; a fixed array of any of these → ``T[N]``, ``char
name[32]`` → ``char[32]`` (``members``). C has no 4-byte ``bool`` or
``unit``, so headers generated from a schema with ``bool``/``unit`` fields read back as
``int32``; a ``_Float16`` is refused with a word on how to write a float16.

**Which declarations form the schema.** Every ``typedef struct X {…} X;`` (or
``typedef struct {…} X;``, or ``typedef struct X X;`` with ``struct X {…}`` defined in the
header), and every plain ``struct tag {…};`` that no typedef names (a type named by its
tag), and the same for enums (``typedef enum … X;``, plain ``enum tag {…};``: ``enums``),
*in the header itself*, plus those of included headers that are not given but that its
types use. Which header holds a type, and how a member names a type of another header, is
decided for all the headers of a command together (``namespace``: one namespace of typedef
names, as in C). Other declarations (functions, static assertions, anonymous enums, unions,
scalar typedefs) are not types of the schema, and neither are CUDA's vector types.

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

Refused, with the C source position: pointers (arrays of them too), flexible and zero-length
arrays and arrays whose size is no constant, bit-fields (zero-width ones too), plain ``char``
outside an array (its signedness differs between ABIs), ``bool``, ``long`` and ``unsigned
long`` (their size differs between ABIs) and other scalar types of no fixed size, unions
outside the tagged-variant shape, inline struct and enum definitions as members, references
to structs or enums that are not defined in the headers read, enum values outside int32 and
enum constants whose values are not 64-bit integers. An
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
from ...ir.types import Scalar
from .changes import LayoutChanges
from .extensions import Extension, scan_extensions
from .enums import EnumConstants, enum_value, read_enum_type
from .members import MemberTypes
from .variants import read_variant
from .places import Places
from .preprocess import CPP_DEFINES, FAKE_LIBC, preprocess
from .modules import header_module_name
from .reader import CDeclarations, parse, without_padding
from .vectors import cuda_vector_align, cuda_vector_name
from ..source_files import check_regular_file

__all__ = ["read_unit", "FAKE_LIBC", "CPP_DEFINES", "header_module_name"]

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
        self.members = MemberTypes(self)
        #: The enum constants of the translation unit, evaluated once (``enums``).
        self.constants = EnumConstants(
            self.h, lambda node, why: SchemaError(why, self.loc(node, node.name)),
            self.members.scalar_of)
        #: How the header spells the values of each enum type imported (C name -> names).
        self.enum_spellings: Dict[str, Tuple[str, ...]] = {}
        self._vectors: Dict[str, Optional[Tuple[Scalar, int]]] = {}

    def _declarations(self, detached: FrozenSet[str] = frozenset()) -> CDeclarations:
        h = CDeclarations(file_of=self.places.file_of, plain_structs=True)
        h.add(self.ast, default_file=self.path, detached=detached)
        return h

    def _refer_alone(self, c_name: str, where: SourceLocation,
                     member_name: Optional[str] = None) -> NamedType:
        return NamedType(self.names[c_name], None, where)

    def typedef_location(self, c_name: str) -> SourceLocation:
        return self.loc(self.h.types[c_name].node, c_name)

    def defined_typedefs(self) -> List[str]:
        """The struct typedefs with members and the enum types with values in this
        translation unit, in order (CUDA's vector types are no types of a schema: members
        of them are vectors)."""
        return [c for c in self.h.order if self._body(self.h.types[c]) is not None
                and self.cuda_vector(c) is None]

    def references(self, c_name: str) -> Iterator[Tuple[str, object]]:
        """``(type name, member)`` for each struct typedef or enum type a member of
        ``c_name`` names, or holds an array of (union arms and their inline structs
        included); iterative, whatever the nesting."""
        td = self.h.types[c_name]
        if td.kind == "enum":
            return
        body = self._body(td)
        stack = list(getattr(body, "decls", None) or ())
        while stack:
            member = stack.pop()
            spelled = self.h.spell(member.type)
            if spelled.kind == "array" and spelled.element is not None:
                spelled = spelled.element
            if spelled.kind in ("struct", "union") and spelled.inline:
                stack.extend(getattr(spelled.body, "decls", None) or ())
            elif spelled.kind == "struct" and spelled.name in self.h.struct_typedefs \
                    and self.cuda_vector(spelled.name) is None:
                yield spelled.name, member
            elif spelled.kind == "enum" and spelled.name in self.h.enum_typedefs:
                yield spelled.name, member

    def _body(self, td):
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
            if n in self.h.struct_typedefs:
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

        td = self.h.types[c_name]
        body = self._body(td)
        if td.kind == "enum":
            named_at = body if td.tag and getattr(body, "coord", None) is not None else td.node
            return read_enum_type(self, c_name, self.names[c_name], td,
                                  self.loc(named_at, c_name))
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

    def member_type(self, m, owner: str, allow_enum: bool = False) -> TypeExpr:
        """The schema type of the member ``m`` of ``owner`` (``members``), or its refusal."""
        return self.members.member_type(m, owner, allow_enum)

    def cuda_vector(self, c_name: str) -> Optional[Tuple[Scalar, int]]:
        """``(component, N)`` when the struct typedef ``c_name`` is one of CUDA's vector types
        as ``vector_types.h`` declares them (``vectors``), else ``None``."""
        if c_name in self._vectors:
            return self._vectors[c_name]
        found = None
        known = cuda_vector_name(c_name)
        td = self.h.struct_typedefs.get(c_name)
        body = self._body(td) if known is not None and td is not None else None
        if body is not None:
            component, n = known  # type: ignore[misc]
            members = without_padding(body.decls or ())
            aligned = self.changes.declared_alignment(body, (c_name, td.tag))  # type: ignore[union-attr]
            if aligned is not None and len(members) == n and all(
                    m.name == axis and m.bitsize is None
                    and self.members.scalar_of(m) is component
                    for m, axis in zip(members, "xyzw")) \
                    and max(aligned, component.align) == cuda_vector_align(component, n):
                found = (component, n)
        self._vectors[c_name] = found
        return found

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
