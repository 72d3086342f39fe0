"""C headers (SPEC §3): the ``typedef struct`` declarations of a header, read into a schema.

The header is preprocessed with ``cpp -nostdinc`` against a tiny bundled libc
(``fake_libc/``: ``stdint.h``, ``stddef.h``, ``stdbool.h``, ``assert.h``, ``string.h``…)
by ``preprocess`` (which keeps cpp away from devices and FIFOs), scanned by
``extensions`` for what changes a layout (packing, alignment, ``#pragma pack``: refused,
except an alignment of 8 on a member whose natural alignment is 8, as generated headers
write), and parsed and collected by ``reader`` (the reader ``verify --header`` shares);
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

Refused, with the C source position: pointers, arrays, bit-fields, plain ``char`` (its
signedness differs between ABIs), ``bool``, ``long`` and ``unsigned long`` (their size differs
between ABIs) and other scalar types of no fixed size, enums, unions outside the
tagged-variant shape, inline struct definitions as members, references to structs that are
not defined in the headers read, and enum constants whose values are not 64-bit integers. An
extension (packing, alignment, ``mode``, ``vector_size``…) refuses the types whose layout it
changes: the bodies it is written in or that its declaration defines, and the members whose
typedef it is written on (``Extension.records``/``words``); elsewhere it changes nothing.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from ...errors import SchemaError, quoted
from ...ir.schema import (
    CtorDecl,
    FieldDecl,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    TypeDecl,
    TypeExpr,
    VariantDecl,
)
from ...ir.types import TInt32
from ...targets.naming import ARM_SUFFIX, FLOAT16_TYPEDEF, ctor_of_arm, is_padding
from .extensions import (
    MEMBER_TYPES_ACCEPTED,
    Extension,
    extensions_by_member,
    scan_extensions,
)
from .enums import enum_value
from .places import Places
from .preprocess import CPP_DEFINES, FAKE_LIBC, preprocess
from .modules import header_module_name
from .reader import (
    SCALAR_SPELLINGS,
    STDINT,
    CDeclarations,
    StructTypedef,
    canonical,
    parse,
)
from ..source_files import check_regular_file

__all__ = ["read_unit", "FAKE_LIBC", "CPP_DEFINES", "header_module_name"]

#: C spelling -> the schema scalar it reads as (the C target's spellings, first scalar
#: first: int32_t is read as int32, never as bool or unit, which C cannot tell apart).
_SCALARS: Dict[str, str] = {}
for _scalar, _spellings in SCALAR_SPELLINGS["c"].items():
    for _spelling in _spellings:
        _SCALARS.setdefault(_spelling, _scalar)

#: The fixed-width names the C reader reads, for the messages (``int8_t … uint64_t``).
_FIXED_WIDTH_NAMES = ", ".join(sorted({sp for sp in _SCALARS if sp in STDINT},
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

def _without_padding(members):
    """Struct members less the explicit padding ``_sarek_…`` that generated headers contain."""
    return [m for m in members if not is_padding(m.name)]


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
        self.h = CDeclarations(file_of=places.file_of, plain_structs=True)
        self.h.add(ast, default_file=path)
        self.main_file = path
        #: The schema's module, and the schema name of each C typedef name in it: the
        #: header's own typedef structs and those copied from headers not given.
        self.module_name = ""
        self.names: Dict[str, str] = {}
        #: ``refer(c_name, where)``: how a member names the typedef struct ``c_name``.
        self.refer: Callable[..., NamedType] = self._refer_alone
        #: What the extensions change (``_note_extensions``): struct and union bodies by the
        #: position of their node, and typedef or tag names, each with its refusal.
        self.changed_bodies: Dict[Tuple[str, int, int], SchemaError] = {}
        self.changed_names: Dict[str, SchemaError] = {}
        self._walked: Dict[int, object] = {}
        #: id(struct body) -> whether it holds an 8-byte scalar (``_natural_alignment_is_8``).
        self._aligns_8: Dict[int, bool] = {}
        self._note_extensions(extensions)
        self._check_alignments(extensions)

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

    # -- extensions: what they change -------------------------------------------------

    def _note_extensions(self, extensions: Sequence[Extension]) -> None:
        """Each extension that changes a layout refuses what it changes, not the header:
        the bodies it is written in or defines, and the names its declaration declares (a
        ``mode`` or ``vector_size`` typedef that no imported type uses changes nothing)."""
        for ext in extensions:
            if ext.verdict is None:
                continue  # an alignment of 8: checked against its members' types below
            self._changes(ext, ext.verdict)

    def _changes(self, ext: Extension, why: str) -> None:
        error = self.places.extension_error(ext, why)
        # The extensions of one declaration share its tuples: each is walked once (the
        # first extension's refusal is the one said), so many attributes stay linear.
        for group, into in ((ext.records, self.changed_bodies), (ext.words, self.changed_names)):
            if group and id(group) not in self._walked:
                self._walked[id(group)] = group  # kept alive: ids stay unique
                for key in group:
                    into.setdefault(key, error)

    def changed(self, body) -> Optional[SchemaError]:
        """The refusal of a struct or union body whose layout an extension changes."""
        coord = getattr(body, "coord", None)
        if coord is None or not self.changed_bodies:
            return None
        return self.changed_bodies.get((coord.file, coord.line, coord.column))

    def changed_typedef(self, t) -> Optional[Tuple[str, SchemaError]]:
        """The first typedef name on the chain of ``t`` (a member's type) whose declaration
        an extension changes (``register_t __attribute__((mode(word)))``), with its refusal."""
        from pycparser import c_ast

        if not self.changed_names:
            return None
        seen: Set[str] = set()
        while True:
            if isinstance(t, c_ast.TypeDecl):
                t = t.type
            if not (isinstance(t, c_ast.IdentifierType) and len(t.names) == 1):
                return None
            name = t.names[0]
            if name in self.changed_names:
                return name, self.changed_names[name]
            if name in seen or name not in self.h.aliases:
                return None
            seen.add(name)
            t = self.h.aliases[name]

    # -- alignments of 8 (extensions) ---------------------------------------------------

    def _check_alignments(self, extensions: Sequence[Extension]) -> None:
        """An alignment of 8 is accepted where it is the natural alignment of the member it
        is written on (int64_t, double); elsewhere it refuses the bodies it is written in."""
        from pycparser import c_ast

        pending = extensions_by_member(list(extensions))
        if not pending:
            return
        # Every member of every struct and union, found without recursion (depth is input).
        stack = list(self.ast.ext)
        while stack and pending:
            node = stack.pop()
            if isinstance(node, (c_ast.Struct, c_ast.Union)) and node.decls:
                for member in node.decls:
                    coord = member.coord
                    key = (coord.file, coord.line, coord.column) if coord is not None else None
                    ext = pending.pop(key, None) if key is not None else None
                    if ext is not None:
                        self._check_aligned_member(ext, member, node.name or "?")
            stack.extend(child for _, child in node.children())
        for ext in pending.values():
            self._changes(
                ext,
                "aligns something that is not a struct member, so the C layout would differ "
                "from Sarek's (an alignment of 8 is accepted only on a member whose natural "
                "alignment is 8, as generated headers write)",
            )

    def _check_aligned_member(self, ext: Extension, member, owner: str) -> None:
        if self._natural_alignment_is_8(member):
            return
        spelled = self.h.spell(member.type)
        if spelled.kind != "struct" and spelled.text not in _SCALARS:
            # The member's own type has no Sarek layout (``__aligned_u64``: uint64_t where
            # it is no scalar): that is the reason its struct is refused, said at the member.
            return
        self._changes(
            ext,
            f"aligns member {quoted(member.name)} of {quoted(owner)} at 8, but its natural "
            f"alignment in Sarek's layout is 4, so the C layout would differ from Sarek's (an "
            f"alignment of 8 is accepted only on a member whose natural alignment is 8: an "
            f"int64_t, a uint64_t, a double, or a struct holding one)",
        )

    def _natural_alignment_is_8(self, member) -> bool:
        """Whether Sarek aligns ``member`` at 8: an int64/float64 scalar, or a struct
        (record or tagged variant) with one somewhere inside. Generated headers align
        exactly those members at 8. Iterative: the nesting depth is the input's.

        The answer for each struct body met is kept (``_aligns_8``): a header of records
        each nesting the one before writes the alignment on every ``inner`` member, and
        walking each down to the bottom was quadratic in the depth (issue 24). A body's
        answer is kept where it is proved: true for the bodies on the way from this member
        to the 8-byte scalar found, false for every body met when none is found (all that
        they reach was walked)."""
        from pycparser import c_ast

        known = self._aligns_8
        seen = set()
        #: id(body) -> the body it was reached from (None: the member itself), to mark the
        #: way to an 8-byte scalar.
        via: Dict[int, Tuple[Any, Any]] = {}
        stack: List[Tuple[Any, Any]] = [(member.type, None)]
        while stack:
            t, owner = stack.pop()
            if not isinstance(t, c_ast.TypeDecl):
                continue  # pointers, arrays, functions: refused elsewhere
            inner = t.type
            body: Any = None
            if isinstance(inner, (c_ast.Struct, c_ast.Union)):
                body = inner if inner.decls is not None else self.h.bodies.get(inner.name)
            elif isinstance(inner, c_ast.IdentifierType):
                if _SCALARS.get(canonical(inner.names)) in MEMBER_TYPES_ACCEPTED:
                    return self._aligned_way(owner, via)
                name = inner.names[0] if len(inner.names) == 1 else None
                if name is not None and self.h.struct_typedef(name) is not None:
                    body = self._body(self.h.struct_typedefs[name])
                elif name in self.h.aliases and name not in STDINT and name not in seen:
                    seen.add(name)
                    stack.append((self.h.aliases[name], owner))
            if body is None or id(body) in seen:
                continue
            answer = known.get(id(body))
            if answer is True:
                return self._aligned_way(owner, via)
            seen.add(id(body))
            if answer is False:
                continue  # nothing it reaches is 8-aligned
            via[id(body)] = (body, owner)
            stack.extend((m.type, body) for m in _without_padding(body.decls or ()))
        for body, _ in via.values():
            known[id(body)] = False
        return False

    def _aligned_way(self, body: Any, via: Dict[int, Tuple[Any, Any]]) -> bool:
        """Mark ``body`` and the bodies it was reached through as holding an 8-byte scalar."""
        while body is not None:
            self._aligns_8[id(body)] = True
            body = via[id(body)][1]
        return True

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
        changed = self.changed(body) or self.changed_names.get(c_name) or (
            self.changed_names.get(td.tag) if td.tag else None)
        if changed is not None:
            raise changed
        name = self.names[c_name]
        # The name as first written: ``struct T {`` (or the typedef line for an anonymous struct).
        named_at = body if td.tag and getattr(body, "coord", None) is not None else td.node
        location = self.loc(named_at, c_name)
        members = _without_padding(body.decls)  # type: ignore[union-attr]
        is_tag = bool(members) and members[0].name == "tag"
        rest = members[1:]
        has_union = (
            len(rest) == 1
            and rest[0].name == "data"
            and isinstance(getattr(rest[0].type, "type", None), c_ast.Union)
        )
        if is_tag and (has_union or (not rest and enumerators)):
            return self._variant(c_name, name, location, members, enumerators)
        fields = tuple(
            FieldDecl(m.name, self._member_type(m, c_name), self.loc(m, m.name)) for m in members
        )
        return RecordDecl(name, fields, location)

    def _variant(self, c_name, name, location, members, enumerators) -> VariantDecl:
        from pycparser import c_ast

        tag = members[0]
        tag_type = self._member_type(tag, c_name, allow_enum=True)
        if tag_type is not None and not (
            isinstance(tag_type, NamedType) and tag_type.name == TInt32.name
        ):
            raise SchemaError(
                f"the tag of tagged variant {quoted(c_name)} must be int32_t, not {tag_type}",
                self.loc(tag, "tag"),
            )
        union_member = members[1] if len(members) > 1 else None
        if not enumerators:
            raise SchemaError(
                f"tagged variant {quoted(c_name)} has no enum constants '{c_name}_<Ctor>' giving its "
                f"constructors and tags; declare them (enum {{ {c_name}_A = 0, … }})",
                location,
            )
        values: Dict[str, int] = {}
        tags: List[Tuple[int, str, object]] = []
        previous: Optional[int] = None
        for enum_name, node in enumerators:
            # C: an enumerator without a value is one more than the one before it in its enum.
            first = node is self.h.first_enumerators.get(id(node))
            previous = self._enum_value(node, None if first else previous, values)
            values[enum_name] = previous
            tags.append((previous, enum_name[len(c_name) + 1 :], node))
        tags.sort(key=lambda t: t[0])
        if [t[0] for t in tags] != list(range(len(tags))):
            found = ", ".join(f"{c_name}_{n} = {v}" for v, n, _ in tags[:8])
            if len(tags) > 8:
                found += f", … ({len(tags)} constants)"
            raise SchemaError(
                f"the tags of tagged variant {quoted(c_name)} must be 0, 1, …, {len(tags) - 1}, one "
                f"per "
                f"constructor; found {found}",
                self.loc(tags[0][2], f"{c_name}_{tags[0][1]}"),
            )
        ctor_names = [n for _, n, _ in tags]
        ctor_set = set(ctor_names)
        arms: Dict[str, object] = {}
        if union_member is not None:
            union = union_member.type.type
            for arm in union.decls or ():
                if is_padding(arm.name):
                    continue
                arm_struct = getattr(arm.type, "type", None)
                ctor = ctor_of_arm(arm.name or "")
                if ctor not in ctor_set:
                    raise SchemaError(
                        f"union member {quoted(arm.name)} of tagged variant {quoted(c_name)} names no "
                        f"constructor: arms are '<Ctor>{ARM_SUFFIX}' for the enum constants "
                        f"{', '.join(f'{c_name}_{n}' for n in ctor_names[:8])}"
                        f"{', …' if len(ctor_names) > 8 else ''}",
                        self.loc(arm, arm.name),
                    )
                if isinstance(arm_struct, c_ast.Struct) and arm_struct.decls is None \
                        and self.h.typedef_of_tag(arm_struct.name) is None:
                    raise SchemaError(
                        f"union member {quoted(arm.name)} of tagged variant {quoted(c_name)} must be "
                        f"the constructor's one argument, or an inline struct of its arguments "
                        f"_0, _1, …",
                        self.loc(arm, arm.name),
                    )
                arms[ctor] = arm
        ctors = []
        for value, ctor, node in tags:
            args: List[TypeExpr] = []
            if ctor in arms:
                arm = arms[ctor]
                arm_struct = getattr(arm.type, "type", None)  # type: ignore[attr-defined]
                if not (isinstance(arm_struct, c_ast.Struct) and arm_struct.decls is not None):
                    # One argument: the arm is the argument itself (SPEC §4, as Sarek emits).
                    args.append(self._member_type(arm, c_name))
                else:
                    params = _without_padding(arm_struct.decls)
                    for i, m in enumerate(params):
                        if m.name != f"_{i}":
                            raise SchemaError(
                                f"member {quoted(m.name)} of {quoted(arm.name)} in tagged "  # type: ignore[attr-defined]
                                f"variant {quoted(c_name)}: "
                                f"constructor arguments are named _0, _1, … in order (expected _{i})",
                                self.loc(m, m.name),
                            )
                        args.append(self._member_type(m, c_name))
            ctors.append(CtorDecl(ctor, tuple(args), self.loc(node, f"{c_name}_{ctor}")))
        return VariantDecl(name, tuple(ctors), location)

    def _enum_value(self, node, previous: Optional[int], known: Dict[str, int]) -> int:
        def refuse(why: str) -> SchemaError:
            return SchemaError(
                f"cannot evaluate the value of enum constant {quoted(node.name)}: {why}",
                self.loc(node, node.name),
            )

        return enum_value(node, previous, known, refuse)

    # -- member types ---------------------------------------------------------------------

    def _member_type(self, m, owner: str, allow_enum: bool = False) -> Optional[TypeExpr]:
        name = m.name
        where = self.loc(m, name)
        what = (
            f"member {quoted(name)} of {quoted(owner)}"
            if name
            else f"an unnamed member of {quoted(owner)}"
        )
        if name is None:
            raise SchemaError(
                f"{what}: anonymous structs and unions have no Sarek layout outside the "
                f"tagged-variant shape; give it a typedef and a member name",
                where,
            )
        if m.bitsize is not None:
            raise SchemaError(
                f"{what} is a bit-field, which has no Sarek layout: C packs bit-fields into "
                f"shared storage units, Sarek gives every field its own; use a whole int32_t",
                where,
            )
        changed = self.changed_typedef(m.type)
        if changed is not None:
            raise SchemaError(
                f"{what} has type {quoted(changed[0])} ({changed[1].location}: "
                f"{changed[1].message})", where)
        if "_Atomic" in (m.quals or []) or "_Atomic" in (getattr(m.type, "quals", None) or []):
            raise SchemaError(
                f"{what} is _Atomic, whose size and alignment C leaves to the implementation",
                where,
            )
        spelled = self.h.spell(m.type)
        if spelled.kind == "pointer":
            raise SchemaError(
                f"{what} is a pointer, which has no Sarek layout; pass the buffer as a "
                f"separate kernel argument",
                where,
            )
        if spelled.kind == "array":
            raise SchemaError(
                f"{what} is an array, which has no Sarek layout; use separate fields or a "
                f"record type",
                where,
            )
        if spelled.kind == "function":
            raise SchemaError(f"{what} is a function, which is not data", where)
        if spelled.kind == "struct":
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
        if spelled.kind == "union":
            raise SchemaError(
                f"{what} is a union, which has no Sarek layout outside the tagged-variant "
                f"shape (int32_t tag; union {{ struct {{…}} Ctor{ARM_SUFFIX}; … }} data; with enum "
                f"constants T_Ctor)",
                where,
            )
        if spelled.kind == "enum":
            if allow_enum:
                return NamedType(TInt32.name, None, where)
            raise SchemaError(
                f"{what} is an enum, whose size C leaves to the compiler; use int32_t (a "
                f"variant used as a field would be refused as a nested variant anyway)",
                where,
            )
        if spelled.kind != "scalar":
            raise SchemaError(f"{what} has a type sarek-layout cannot read", where)
        if spelled.text == FLOAT16_TYPEDEF:
            self._check_float16_typedef(what, where)
        if spelled.text in _SCALARS:
            return NamedType(_SCALARS[spelled.text], None, where)
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
