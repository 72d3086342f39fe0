"""View data of the union-less GPU API targets: ``glsl`` (Vulkan) and ``wgsl`` (WebGPU).

GLSL and WGSL have no unions, so a variant is a struct of its ``tag``, explicit padding and its
payload kept as 32-bit *words* (``uint data[N]`` when the payload is at offset 4, ``uvec2
data[N]`` when it is at 8: an array whose alignment is the payload offset, so the struct has
the C header's size, offsets, alignment and array stride under std430 and WGSL's rules alike).
Each constructor argument is read by a generated accessor and written by a ``make_`` function
that move its bits in and out of those words; a record argument goes through the record's own
``sarek_layout_<R>_from_words``/``_to_words``, so the code stays linear in the schema however
deep records nest. Everything is decided here from the member model (offsets, holes), as
names and numbers; the templates only spell them.

Linear in the schema, not in its bytes: a record made of two copies of the previous one
doubles its words at every level, so a file may not list every word of a type. A range of
words (a record's words, a payload) is *unrolled*, spelled word by word with constant
indices, only when it has at most ``UNROLL_WORDS`` words; a longer one is zeroed and copied
with a loop, one line whatever its length. Short ranges stay unrolled because device
compilers turn constant indices into registers, while a loop over a local array keeps it in
memory: on Mesa's lavapipe, a kernel using a 528-byte variant builds in 0.8 s word by word and
in 54 s with WGSL's loops (GLSL marks its loops ``[[unroll]]``, and they build as fast as
words; docs/gpu-apis.md, "Large types").

Metal is a C++ dialect with unions: its view is the C-family one with the names MSL reserves
escaped (``metal_view``), which shares this module's per-schema name claims (``FileNames``,
``per_schema``).

Names: a schema name that one of these languages reserves (``input`` in GLSL, ``filter`` in
WGSL, ``device`` in Metal) is escaped in that target only, with a trailing ``_``; a GLSL name
starting with ``gl_`` (a reserved prefix) gets the prefix ``sarek_``. Accessors are named
``<c_name>_<Ctor>_v`` for a one-argument constructor and ``<c_name>_<Ctor>_<i>`` for argument
``i`` of several (SPEC §4's arm naming). File-scope names that would collide once escaped or
joined are refused with the schema location.

Words and bytes: without 8- and 16-bit storage (extensions and device features), a GLSL or
WGSL struct member is at least 32 bits. A scalar smaller than a word (``uint8``, ``float16``,
and the extension scalars ``int8``, ``int16``, ``uint16``) is therefore kept, with whatever
else shares its 32-bit word (other such scalars, padding bytes), in a ``uint`` member
``_sarek_bytes<N>``: the C header's offsets, size and stride are unchanged, and the scalar is
read by an accessor (``<T>_<field>(v)`` for a record field, the constructor accessors for an
argument) that shifts and masks its word (``unpackHalf2x16`` / ``unpack2x16float`` for a
float16; a signed one is sign-extended), and written by the ``make_`` functions. A record
whose size is not a multiple of 4 bytes (three ``uint8``), or that sits at an offset that is
not, has no struct with the C layout in these languages, and is refused in these targets only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from .._version import __version__
from ..errors import SchemaError
from ..targets.naming import (MAKE_PREFIX, PACKED_PREFIX, accessor_name, arm_struct_name,
                              element_struct_name, escape, field_accessor_name, make_name,
                              memo_escape, padding_name, VALUE_PARAM)
from ..ir.types import TFloat64, scalars_where
from ..ir.schema import Hole, Item, Member as ModelMember, ModuleDecl, Schema, SchemaType
from ..layout.fingerprint import layout_id_hex, layout_id_words
from ..layout.rules import array_shape, scalar_shape, vector_shape
from .shader_kinds import (Spelled, block_of, natural_struct, own_rules, spell_kind,
                           uniform_stride, walk_of)
from ..targets.dialects import ShaderDialect
from .shader_records import SArg, SCtor, SEnum, SField, SMember, SModuleView, SType, Slot
from .views import TOOL

__all__ = [
    "WORD",
    "escape",
    "SMember",
    "Slot",
    "SArg",
    "SField",
    "SCtor",
    "SType",
    "SModuleView",
    "shader_view",
    "glsl_view",
    "wgsl_view",
    "FileNames",
    "per_schema",
    "accessor_name",
    "field_accessor_name",
    "arm_struct_name",
    "PACKED_PREFIX",
]

#: Bytes in one payload word.
WORD = 4

#: The longest range of words spelled word by word (see the module docstring): 32 words
#: (128 bytes) keep every record and payload of the examples and goldens unrolled.
UNROLL_WORDS = 32


# --- building ----------------------------------------------------------------------------


class FileNames:
    """File-scope names of one target across the whole schema: each claimed once."""

    def __init__(self, dialect_name: str, dialect=None) -> None:
        self.target = dialect_name
        self.taken: Dict[str, str] = {}
        #: ``escape`` for the target, each distinct name computed once for the whole schema.
        self.esc = memo_escape(dialect) if dialect is not None else None

    def claim(self, name: str, owner: str, location) -> str:
        other = self.taken.get(name)
        if other is not None and other != owner:
            raise SchemaError(
                f"in the {self.target} output, {owner} is emitted as {name!r}, which is also "
                f"{other}; rename one of them", location)
        self.taken[name] = owner
        return name


def _words_of(size: int, what: str, target: str, location) -> int:
    if size % WORD:
        raise SchemaError(
            f"{what} is {size} bytes; the {target} target keeps every type in whole 32-bit "
            f"words (GLSL and WGSL have no 8- or 16-bit storage without extensions), so no "
            f"struct there has this size: make it a multiple of 4 bytes (a uint8 field), or "
            f"leave {target} out of the targets", location)
    return size // WORD


def _member_type(m: ModelMember, esc) -> Tuple[str, str]:
    if m.scalar is not None:
        return "scalar", m.scalar.name
    return "record", esc(m.record.c_name)  # type: ignore[union-attr]


def _sub_word(m: ModelMember) -> bool:
    """A scalar smaller than a 32-bit word (uint8, float16): kept inside a packed word."""
    return m.scalar is not None and m.size < WORD and not m.dims


class Kinds:
    """The members of SPEC §1b's kinds of one type in one language (``shader_kinds``): each
    spelled once, its element structs (WGSL) named after the type and claimed."""

    def __init__(self, st: SchemaType, c_name: str, dialect: ShaderDialect,
                 names: FileNames) -> None:
        self.st, self.c_name, self.dialect, self.names = st, c_name, dialect, names
        self.own = own_rules(dialect, st.rules)
        self.spelled: Dict[Tuple[str, str], Spelled] = {}
        self.wrappers: List[Tuple[str, str, int]] = []

    def spell(self, m: ModelMember, owner: str, prefix: str = "") -> Spelled:
        key = (prefix, m.name)
        found = self.spelled.get(key)
        if found is None:
            esc = self.names.esc

            def wrapper(i: int) -> str:
                return self.names.claim(
                    esc(element_struct_name(f"{self.c_name}_{prefix}{m.name}", i)),
                    f"an element struct of {owner}", m.location)

            record = esc(m.record.c_name) if m.record is not None else ""
            found = self.spelled[key] = spell_kind(m, self.st.rules, self.dialect, owner,
                                                   record, wrapper)
            self.wrappers.extend(found.wrappers)
        return found

    @property
    def single_words(self) -> bool:
        """Padding one word per member: an array of words is 16 bytes a word in std140, and
        WGSL's uniform address space takes no array of words at all."""
        stride = array_shape(self.own, scalar_shape(WORD), 2).stride
        return stride != WORD or stride % uniform_stride(self.dialect, self.st.rules) != 0


def _kind_slot(source: str, m: ModelMember, base: int, dialect, esc, owner: str,
               kinds: "Kinds", prefix: str = "") -> Slot:
    """A kind member's slot: its words, its value type and the loops over its elements."""
    sp = kinds.spell(m, owner, prefix)
    at = m.offset - base
    if at % WORD:
        raise SchemaError(
            f"{owner} member {m.name!r} ({m.spelling}) is at byte {m.offset}, inside a 32-bit "
            f"word; the {dialect.name} target keeps it in whole words: leave {dialect.name} "
            f"out of the targets for this type", m.location)
    s = sp.scalar
    if sp.record:
        words = sp.record_words
        leaf = Slot("", "record", sp.record, 0, words, from_words_name(sp.record),
                    to_words_name(sp.record), unrolled=words <= UNROLL_WORDS)
    else:
        assert s is not None
        leaf = Slot("", "scalar", s.name, 0, s.size // WORD, unsigned=_int_kind(s)[1])
    return Slot(source, "kind", sp.value, at // WORD, -(-m.size // WORD),
                walk=walk_of(sp, leaf, UNROLL_WORDS))


def _struct_members(items: Sequence[Item], dialect, esc, owner: str, location,
                    base: int = 0, kinds: Optional[Kinds] = None,
                    prefix: str = "") -> Tuple[SMember, ...]:
    """Members and holes as struct members, word by word: a member of whole words as itself;
    each run of whole padding words one ``_sarek_pad<N>`` array (one word each where the
    block layout spaces an array's words out: std140); each word holding scalars
    smaller than a word (with the padding bytes beside them) one ``uint _sarek_bytes<N>``
    (its scalars in ``parts``, bit offsets from ``base``); a member of SPEC §1b's kinds as
    its spelling (``kinds``: ``shader_kinds``). Member names are escaped and checked for
    clashes within the struct. Linear in the items: whole words are counted, never visited
    one by one."""
    single = kinds is not None and kinds.single_words
    out: List[SMember] = []
    seen: Dict[str, str] = {}
    pad_start: Optional[int] = None
    pad_end = 0
    pads = packs = 0
    packed_word: Optional[int] = None  # offset of the word being filled with small scalars
    parts: List[Slot] = []

    def flush_pad() -> None:
        nonlocal pad_start, pads
        if pad_start is not None:
            size = pad_end - pad_start
            for at in range(pad_start, pad_end, WORD) if single else (pad_start,):
                out.append(SMember(padding_name(pads), "padding", "", at,
                                   WORD if single else size, 1 if single else size // WORD,
                                   single=single))
                pads += 1
            pad_start = None

    def flush_packed() -> None:
        nonlocal packed_word, packs, parts
        if packed_word is not None:
            name = f"{PACKED_PREFIX}{packs}"
            slot = Slot(name, "packed", "", (packed_word - base) // WORD, 1)
            out.append(SMember(name, "packed", "", packed_word, WORD, 1,
                               parts=tuple(parts), slot=slot))
            packs += 1
            packed_word, parts = None, []

    def pad(start: int, end: int) -> None:
        """Whole padding words ``[start, end)``."""
        nonlocal pad_start, pad_end
        if start >= end:
            return
        flush_packed()
        if pad_start is None:
            pad_start = start
        pad_end = end

    def into_word(offset: int) -> None:
        """Bytes at ``offset`` go into a packed word (starting one if needed)."""
        nonlocal packed_word
        word = offset - offset % WORD
        if packed_word != word:
            flush_packed()
            flush_pad()
            packed_word = word

    for item in items:
        if isinstance(item, Hole):
            # Bytes of a word that holds small scalars stay in that packed word; whole words
            # of padding are padding members.
            first_whole = -(-item.offset // WORD) * WORD
            last_whole = item.end - item.end % WORD
            if item.offset % WORD:
                into_word(item.offset)
            if first_whole < last_whole:
                pad(first_whole, last_whole)
            if item.end % WORD and item.end > first_whole:
                into_word(item.end - 1)
            continue
        name = esc(item.name)
        if name in seen:
            raise SchemaError(
                f"in the {dialect.name} output, member {item.name!r} of {owner} is escaped to "
                f"{name!r}, which {owner} already has; rename one of them",
                item.location or location)
        seen[name] = item.name
        if _sub_word(item):
            into_word(item.offset)
            parts.append(_slot(name, item, base, dialect, esc, owner))
            continue
        flush_packed()
        flush_pad()
        if item.dims:
            assert kinds is not None, "a kind member outside a type's view"
            sp = kinds.spell(item, owner, prefix)
            out.append(SMember(name, "kind", sp.elem, item.offset, item.size,
                               slot=_kind_slot(name, item, base, dialect, esc, owner, kinds,
                                               prefix),
                               suffix=sp.suffix, spelling=item.spelling, natural=sp.align))
            continue
        kind, type_ = _member_type(item, esc)
        out.append(SMember(name, kind, type_, item.offset, item.size,
                           slot=_slot(name, item, base, dialect, esc, owner),
                           natural=max(item.align, WORD)))
    flush_packed()
    flush_pad()
    return tuple(out)


#: Scalar name -> (is_signed_int, is_unsigned): properties computed on every access (from
#: the scalar's integer range), asked for every member and argument of every type.
_INT_KINDS: Dict[str, Tuple[bool, bool]] = {}


def _int_kind(scalar) -> Tuple[bool, bool]:
    kind = _INT_KINDS.get(scalar.name)
    if kind is None:
        kind = _INT_KINDS[scalar.name] = (scalar.is_signed_int, scalar.is_unsigned)
    return kind


def _slot(source: str, m: ModelMember, base: int, dialect, esc, owner: str) -> Slot:
    kind, type_ = _member_type(m, esc)
    at = m.offset - base
    signed, unsigned = _int_kind(m.scalar) if m.scalar is not None else (False, False)
    if _sub_word(m):
        return Slot(source, kind, type_, at // WORD, 1, shift=8 * (at % WORD), bits=8 * m.size,
                    signed=signed, unsigned=unsigned)
    if at % WORD:
        what = f"record {type_!r}" if kind == "record" else f"a {type_}"
        raise SchemaError(
            f"{owner} member {m.name!r} ({what}) is at byte {m.offset}, inside a 32-bit word; "
            f"the {dialect.name} target keeps records and wide scalars in whole words (GLSL "
            f"and WGSL have no 8- or 16-bit storage without extensions): give the record a "
            f"size that is a multiple of 4 bytes, or leave {dialect.name} out of the targets",
            m.location)
    words = _words_of(m.size, f"{owner} member {m.name!r}", dialect.name, m.location)
    if kind == "record":
        return Slot(source, kind, type_, at // WORD, words,
                    from_words_name(type_), to_words_name(type_), unrolled=words <= UNROLL_WORDS)
    return Slot(source, kind, type_, at // WORD, words, unsigned=unsigned)


def from_words_name(c_name: str) -> str:
    """The function that builds record ``c_name`` from its 32-bit words (the prefix is one no
    schema name may use, so it cannot clash)."""
    return f"sarek_layout_{c_name}_from_words"


def to_words_name(c_name: str) -> str:
    return f"sarek_layout_{c_name}_to_words"


def _fingerprint(st: SchemaType, c_name: str, names: FileNames) -> Dict[str, object]:
    """The ``SType`` fields of ``st``'s layout fingerprint (docs/fingerprint.md)."""
    owner = f"the layout fingerprint of type {st.qualified_name!r}"
    lo, hi = layout_id_words(st)
    return dict(
        layout_id=layout_id_hex(st),
        layout_words=(f"0x{lo:08x}", f"0x{hi:08x}"),
        layout_id_name=names.claim(f"{c_name}_LAYOUT_ID", owner, st.decl.location),
        layout_ok_name=names.claim(f"{c_name}_LAYOUT_OK", owner, st.decl.location),
        layout_id64_name=names.claim(f"{c_name}_LAYOUT_ID64", owner, st.decl.location),
    )


def _record(st: SchemaType, dialect: ShaderDialect, names: FileNames) -> SType:
    esc = names.esc
    c_name = names.claim(esc(st.c_name), f"type {st.qualified_name!r}", st.decl.location)
    owner = f"type {st.qualified_name!r}"
    make = names.claim(make_name(c_name), f"the {MAKE_PREFIX} function of {owner}",
                       st.decl.location)
    words = _words_of(st.size, owner, dialect.name, st.decl.location)
    kinds = Kinds(st, c_name, dialect, names)
    members = _struct_members(st.items, dialect, esc, owner, st.decl.location, kinds=kinds)
    slots = tuple(_kind_slot(esc(m.name), m, 0, dialect, esc, owner, kinds) if m.dims
                  else _slot(esc(m.name), m, 0, dialect, esc, owner) for m in st.members)
    fields = tuple(
        SField(part.source, names.claim(
            esc(field_accessor_name(c_name, part.source)),
            f"the accessor of field {part.source!r} of {owner}", st.decl.location),
            part.type, m.name, part)
        for m in members if m.kind == "packed" for part in m.parts
    )
    return SType(
        kind="record", name=st.name, qualified_name=st.qualified_name, c_name=c_name,
        size=st.size, align=st.align, members=members, words=words,
        unrolled=words <= UNROLL_WORDS, make_name=make, slots=slots,
        from_words=from_words_name(c_name),
        to_words=to_words_name(c_name),
        fields=fields,
        **_kinds_of(st, kinds, members, owner),  # type: ignore[arg-type]
        **_fingerprint(st, c_name, names),  # type: ignore[arg-type]
    )


def _kinds_of(st: SchemaType, kinds: Kinds, members: Sequence[SMember], owner: str
              ) -> Dict[str, object]:
    """The ``SType`` fields of the member kinds and rule sets (SPEC §1b): whether it has kind
    members and the element structs they need, after checking that the language lays the
    struct out with the type's size and alignment (``shader_kinds.natural_struct``: neither
    language raises a struct's alignment above its members' types').

    In WGSL's uniform address space (``ShaderDialect.uniform_rules``) the struct may be less
    aligned than the type, its alignment dividing the type's: naga places a struct member of
    a ``var<uniform>`` at a multiple of 16 or refuses the shader, and the generated structs
    place every member by explicit padding; with the type's size (a multiple of its
    alignment), an array of it strides by that size. A type more aligned than 16 (a
    ``vec4<float64>``'s 32) has no such guard and is refused."""
    own, dialect = kinds.own, kinds.dialect
    natural = natural_struct([(m.offset + m.size, _natural_align(m, own)) for m in members], own)
    # A type of scalars smaller than a word is 1- or 2-aligned, its struct 4-aligned: the
    # verified promise is its offsets, size and array stride (verify's below_a_word).
    aligned = natural.align == st.align or (st.align < WORD and natural.align == WORD)
    guard = uniform_stride(dialect, st.rules)
    aligned = aligned or (st.align <= guard and st.align % natural.align == 0)
    if natural.size != st.size or not aligned:
        where = (f"{dialect.title} (as naga lays it out: a struct is as aligned as its "
                 f"members' types, whatever their @align"
                 + (f"; its uniform address space places a struct at a multiple of {guard}"
                    if guard > 1 else "") + ")" if dialect.own_rules
                 else f"a layout({own.name}) block (GLSL has no alignment pin in a struct)")
        raise SchemaError(
            f"{owner} ({st.rules} rules) is {st.size} bytes, aligned to {st.align}, where "
            f"its members' types make it {natural.size} bytes aligned to {natural.align} in "
            f"{where}: leave {dialect.name} out of the targets for this type",
            st.decl.location)
    return dict(has_kinds=any(m.kind == "kind" for m in members),
                wrappers=tuple(kinds.wrappers), rules=st.rules,
                block=block_of(dialect, st.rules))


def _natural_align(m: SMember, own) -> int:
    """A struct member's alignment in the language (``own``: its rule set)."""
    if m.kind == "data":
        lanes = 4 if m.quad else 2 if m.wide else 1
        return vector_shape(own, WORD, lanes).align if lanes > 1 else WORD
    return m.natural or WORD  # padding and packed words: a word's


def _variant(st: SchemaType, dialect: ShaderDialect, names: FileNames, with_arms: bool) -> SType:
    esc = names.esc
    owner = f"type {st.qualified_name!r}"
    c_name = names.claim(esc(st.c_name), owner, st.decl.location)
    kinds = Kinds(st, c_name, dialect, names)
    p = st.payload_offset
    head = _struct_members(st.items, dialect, esc, owner, st.decl.location, kinds=kinds)
    payload_bytes = st.size - p if st.has_payload else 0
    payload_words = _words_of(payload_bytes, f"the payload of {owner}", dialect.name,
                              st.decl.location)
    lanes = _lanes(p, payload_bytes, kinds)
    wide, quad = lanes == 2, lanes == 4
    lane = vector_shape(kinds.own, WORD, lanes) if lanes > 1 else scalar_shape(WORD)
    stride = array_shape(kinds.own, lane, 2).stride
    quantum = uniform_stride(dialect, st.rules)
    if st.has_payload and (stride != lanes * WORD or stride % quantum):
        where = (f"{dialect.title}'s uniform address space takes no array whose stride is "
                 f"not a multiple of {quantum}" if stride % quantum else
                 f"a layout({kinds.own.name}) block puts an array's words {stride} bytes apart")
        raise SchemaError(
            f"{owner} ({st.rules} rules) keeps its payload at byte {p} in words "
            f"({lanes * WORD} bytes an element), and {where}: leave {dialect.name} out of "
            f"the targets for this type", st.decl.location)
    data = None
    if st.has_payload:
        data = SMember("data", "data", "", p, payload_bytes, payload_words // lanes, wide,
                       quad=quad)
    ctors = []
    for arm in st.arms:
        where = f"constructor {st.qualified_name}.{arm.name}"
        const = names.claim(esc(f"{c_name}_{arm.name}"), f"the tag of {where}",
                            arm.location)
        make = names.claim(make_name(c_name, arm.name), f"the {MAKE_PREFIX} function of {where}",
                           arm.location)
        args = []
        for i, a in enumerate(arm.args):
            accessor = names.claim(esc(accessor_name(c_name, arm.name, i, len(arm.args))),
                                   f"the accessor of argument {i} of {where}", arm.location)
            if a.dims:
                slot = _kind_slot(a.name, a, p, dialect, esc, where, kinds, arm.name)
            else:
                slot = _slot(a.name, a, p, dialect, esc, where)
            refs = () if not slot.unrolled or slot.walk is not None else tuple(
                ((slot.word + k) // lanes, "xyzw"[(slot.word + k) % lanes]) if lanes > 1
                else (slot.word + k, "")
                for k in range(slot.words)
            )
            reads = tuple(f"{VALUE_PARAM}.data[{i}].{comp}" if comp
                          else f"{VALUE_PARAM}.data[{i}]" for i, comp in refs)
            args.append(SArg(a.name, accessor, slot.kind, slot.type, slot, refs, reads))
        arm_struct, arm_members = "", ()
        if with_arms and arm.args:
            arm_struct = names.claim(esc(arm_struct_name(c_name, arm.name)),
                                     f"the arm struct of {where}", arm.location)
            arm_members = _struct_members(st.items + arm.items, dialect, esc, where,
                                          arm.location, kinds=kinds, prefix=arm.name)
        ctors.append(SCtor(arm.name, arm.tag, const, make, tuple(args), arm.payload_size,
                           arm_struct, arm_members))
    members = head + ((data,) if data is not None else ())
    return SType(
        kind="variant", name=st.name, qualified_name=st.qualified_name, c_name=c_name,
        size=st.size, align=st.align, members=head,
        words=_words_of(st.size, owner, dialect.name, st.decl.location),
        unrolled=payload_words <= UNROLL_WORDS, payload_offset=p, payload_words=payload_words,
        data=data, ctors=tuple(ctors),
        **_kinds_of(st, kinds, members, owner),  # type: ignore[arg-type]
        **_fingerprint(st, c_name, names),  # type: ignore[arg-type]
    )


def _lanes(p: int, payload_bytes: int, kinds: "Kinds") -> int:
    """Words per element of a variant's ``data``: 4 (``uvec4``) for a payload at a multiple
    of 16 bytes that a four-word vector holds in the language (std430: 16-aligned), 2
    (``uvec2``, 8-aligned) at a multiple of 8, else 1: an array whose alignment is the
    payload's, so the struct has the type's alignment."""
    if p % (4 * WORD) == 0 and payload_bytes % (4 * WORD) == 0 and p > 2 * WORD:
        return 4
    return 2 if p % (2 * WORD) == 0 else 1


def _enum(st: SchemaType, dialect: ShaderDialect, names: FileNames) -> SEnum:
    """An enum's constants, ``<c_name>_<Value>``, of its base's type in the language."""
    esc = names.esc
    base = st.elttype.base  # type: ignore[union-attr]
    c_name = esc(st.c_name)
    type_ = dialect.scalar[base.name]
    values = tuple(
        (names.claim(esc(f"{c_name}_{name}"), f"the value {name} of enum {st.qualified_name!r}",
                     st.decl.location), dialect.literal(base, value))
        for name, value in st.elttype.values)  # type: ignore[union-attr]
    return SEnum("enum", st.qualified_name, c_name, base.name, type_, values)


def _scalars_used(types: Iterable[SchemaType]) -> set:
    """Names of the scalars stored anywhere in ``types``, nested records included."""
    seen: set = set()
    found: set = set()
    todo = list(types)
    while todo:
        st = todo.pop()
        if id(st) in seen:
            continue
        seen.add(id(st))
        if st.is_enum:
            found.add(st.elttype.base.name)  # type: ignore[union-attr]
        for m in (*st.members, *(a for arm in st.arms for a in arm.args)):
            if m.scalar is not None:
                found.add(m.scalar.name)
            elif m.record is not None:
                todo.append(m.record)
    return found


#: Per schema (by identity) and dialect: the file-scope names, claimed over every module, so
#: that a clash between two schema files' names is found whichever file is rendered first.
def _claim_all(schema: Schema, dialect: ShaderDialect, with_arms: bool) -> Dict[int, SType]:
    names = FileNames(dialect.name, dialect)
    views: Dict[int, SType] = {}
    for st in schema.types:
        views[id(st)] = (_enum(st, dialect, names) if st.is_enum
                         else _record(st, dialect, names) if st.kind == "record"
                         else _variant(st, dialect, names, with_arms))
    return views


#: What is worked out once per schema (by identity, the schema kept beside it so that a
#: recycled id cannot match) and kind: a view of every module reads it.
_CACHE: Dict[Tuple[int, str], Tuple[Schema, Any]] = {}


def per_schema(schema: Schema, kind: str, build: Callable[[], Any]) -> Any:
    key = (id(schema), kind)
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not schema:
        if len(_CACHE) > 8:
            _CACHE.clear()
        hit = (schema, build())
        _CACHE[key] = hit
    return hit[1]


def _type_views(schema: Schema, dialect: ShaderDialect, with_arms: bool) -> Dict[int, SType]:
    return per_schema(schema, dialect.name, lambda: _claim_all(schema, dialect, with_arms))


def shader_view(schema: Schema, module: ModuleDecl, dialect: ShaderDialect,
                with_arms: bool = False, suffix: str = "") -> SModuleView:
    """The view of ``module``'s file in a union-less shading language."""
    from .views import module_dependencies

    types = schema.dependency_order(schema.module_types(module))
    views = _type_views(schema, dialect, with_arms)
    used = _scalars_used(types)
    needs = tuple(os.path.splitext(os.path.basename(d.path))[0] + suffix
                  for d in module_dependencies(schema, module))
    type_views = tuple(views[id(st)] for st in types)
    return SModuleView(
        tool=TOOL, version=__version__, module=module.name,
        source=os.path.basename(module.path), types=type_views,
        uses_int64=bool(used & scalars_where(lambda s: s.wide and s.kind == "int")),
        uses_float64=TFloat64.name in used,
        # A type's words bound its slots' and arguments', so its own flag says it all.
        has_loops=any(not getattr(t, "unrolled", True) for t in type_views),
        unroll_bytes=UNROLL_WORDS * WORD,
        needs=needs, uses_small=bool(used & scalars_where(lambda s: s.sub_word)),
        uses_scalar_blocks=any(getattr(t, "block", "") == "scalar" for t in type_views),
    )


def glsl_view(schema: Schema, module: ModuleDecl) -> SModuleView:
    from ..targets.dialects import GLSL

    return shader_view(schema, module, GLSL, with_arms=True, suffix=".glsl")


def wgsl_view(schema: Schema, module: ModuleDecl) -> SModuleView:
    from ..targets.dialects import WGSL

    return shader_view(schema, module, WGSL, suffix=".wgsl")
