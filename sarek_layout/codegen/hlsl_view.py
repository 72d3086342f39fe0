"""View data of the ``hlsl`` target: every struct, constant and function of a ``.hlsl`` file.

HLSL has no unions and no 8-bit type, and lays a struct out by the buffer that holds it
(``hlsl_kinds``: a structured buffer's layout, or a constant buffer's registers). Each
schema type becomes, by its rule set's *context*:

* a record: a struct of its fields, each spelled by ``hlsl_kinds`` (wrapper structs first),
  with explicit padding (``_sarek_pad<N>``) wherever its rule set leaves bytes HLSL would
  not, so the struct has the type's size, offsets and array strides in that context; a
  32-bit word holding 8-bit scalars (and the scalars smaller than a word beside them) is one
  ``uint _sarek_bytes<N>``, read by ``<T>_<field>(v)``; ``make_<T>(…)`` builds one with
  every padding byte zero, and ``sarek_layout_<T>_from_words``/``_to_words`` move it in and
  out of a variant's payload words;
* a variant: its ``tag``, padding, and its payload as 32-bit words (``uint data[N]`` in a
  structured buffer; in a constant buffer ``uintN``/``uint4[N]`` pieces that never cross a
  register, read through ``sarek_layout_<T>_word``), each constructor argument read by
  ``<T>_<Ctor>_v(v)`` / ``<T>_<Ctor>_<i>(v)`` (an array argument through an ``out``
  parameter: HLSL functions return no arrays), and (structured buffers) built by
  ``make_<T>_<Ctor>(…)``; ``<T>_<Ctor>_arm`` is the element typed as one constructor, for
  ``ByteAddressBuffer.Load<…>`` (and ``verify``, which measures the arguments there);
* an enum: ``typedef`` of its base and ``static const`` values.

Every type has its layout fingerprint (``static const uint2 <T>_LAYOUT_ID``, low word
first) and ``<T>_LAYOUT_OK(id)``; every struct of a structured buffer its size checked at
compile time where the compiler has ``sizeof`` (Slang: a typedef of an array of negative size
when false); an ``hlsl-cbuffer`` record also a ``<T>_CBUFFER(name, register)`` macro declaring a
``cbuffer`` of its fields, each pinned with ``packoffset`` (none where a field sits on half a
register component, which ``packoffset`` cannot name). Names are escaped where HLSL reserves
them (``targets.name_rules``); every number is the member model's, through ``hlsl_kinds``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .._version import __version__
from ..errors import SchemaError
from ..ir.schema import Member, ModuleDecl, Schema, SchemaType
from ..ir.types import TInt32
from ..layout.fingerprint import layout_id_hex, layout_id_words
from ..layout.rules import RULE_SETS, Shape, struct_shape
from ..targets.dialects import HLSL
from ..targets.naming import (MAKE_PREFIX, OWN_PREFIX, PACKED_PREFIX, PADDING_PREFIX, VALUE_PARAM,
                              accessor_name, arm_struct_name, element_struct_name,
                              field_accessor_name, make_name)
from .hlsl_kinds import (CBUFFER, INDEX, NATIVE, PARAM, RESULT, STRUCTURED, WORD, WORDS, ByteAt,
                         KindRefused, Spelled, assign_value, check_place, context_of, each,
                         padding, read_scalar, read_value, scalar_type, spell_member,
                         write_scalar, write_value)
from .shader_views import FileNames, per_schema
from .views import TOOL

__all__ = ["HMember", "HStruct", "HFunction", "HType", "HModuleView", "hlsl_view"]


@dataclass(frozen=True)
class HMember:
    """One declaration in a struct: ``<type> <name><suffix>;`` at ``offset``, and its
    comment; ``pin`` is its ``packoffset`` (``c3.y``) in a cbuffer macro (``""``: none)."""

    type: str
    name: str
    suffix: str
    offset: int
    note: str
    padding: bool = False
    pin: str = ""


@dataclass(frozen=True)
class HStruct:
    name: str
    members: Tuple[HMember, ...]
    comment: str
    #: The name of its compile-time size check, and the size (``""``: not checked).
    check: str = ""
    size: int = 0


@dataclass(frozen=True)
class HFunction:
    comment: str
    signature: str
    body: Tuple[str, ...]


@dataclass(frozen=True)
class HType:
    kind: str  # record | variant | enum
    qualified_name: str
    c_name: str
    size: int
    align: int
    rules: str
    context: str
    #: The structs to declare before it (array element wrappers), its own, its arm structs.
    wrappers: Tuple[HStruct, ...] = ()
    struct: Optional[HStruct] = None
    arms: Tuple[HStruct, ...] = ()
    #: An enum's base type; its values, and a variant's tags: (type, name, value).
    base: str = ""
    constants: Tuple[Tuple[str, str, int], ...] = ()
    functions: Tuple[HFunction, ...] = ()
    layout_id: str = ""
    layout_words: Tuple[str, str] = ("", "")
    layout_id_name: str = ""
    layout_ok_name: str = ""
    #: An hlsl-cbuffer record: its cbuffer macro's name ("" when none) or why there is none.
    cbuffer_macro: str = ""
    cbuffer_note: str = ""


@dataclass(frozen=True)
class HModuleView:
    tool: str
    version: str
    module: str
    source: str
    types: Tuple[HType, ...]
    uses_16bit: bool
    uses_int64: bool
    uses_float64: bool
    uses_small: bool
    uses_cbuffer: bool


# --- structs -----------------------------------------------------------------------------------


def _fail(owner: str, m: Member, why: str, location) -> SchemaError:
    return SchemaError(f"in the hlsl output, {owner} member {m.name!r} ({m.spelling}) cannot "
                       f"be declared: {why}; leave hlsl out of the targets for this type",
                       m.location or location)


class _Types:
    """What is decided once per schema: each type's C name in HLSL, its HLSL shape (size and
    alignment in its context), the names claimed at file scope, and every type's view."""

    def __init__(self) -> None:
        self.names = FileNames(HLSL.name, HLSL)
        self.shapes: Dict[int, Shape] = {}
        self.c_names: Dict[int, str] = {}
        self.views: Dict[int, HType] = {}

    def name(self, st) -> str:
        return self.c_names[id(st)]

    def words(self, st) -> int:
        """The 32-bit words a record's bytes reach into (its last one may be shared)."""
        return -(-st.size // WORD)


def _pin(offset: int) -> str:
    """``packoffset``'s name of byte ``offset`` (a register and a component)."""
    register, component = divmod(offset, 16)
    return f"c{register}" + ("" if not component else "." + "xyzw"[component // WORD])


@dataclass
class _Field:
    """A member as the struct declares it, and what the functions need of it."""

    member: Member
    name: str
    spelled: Optional[Spelled]  # None: an 8-bit scalar in a packed word
    packed: str = ""  # the packed word's member name
    word: int = 0  # the packed word's offset


def _struct(types: _Types, members: Sequence[Member], size: int, rules: str, owner: str,
            prefix: str, location, name: str, ctor: str = ""
            ) -> Tuple[HStruct, List[HStruct], List[_Field], Shape]:
    """The struct ``name`` of ``members`` (in offset order) over ``[0, size)``: its
    declarations, the wrapper structs its members need (named from ``prefix``, and for a
    constructor's arguments ``ctor``), its fields, and its HLSL shape."""
    context = context_of(rules)
    native = NATIVE[context]
    esc = types.names.esc
    # Words holding an 8-bit scalar become one packed uint with every small scalar in them.
    packed_words = sorted({m.offset - m.offset % WORD for m in members
                           if m.scalar is not None and m.scalar.size == 1 and not m.dims})
    packed_at = {w: f"{PACKED_PREFIX}{i}" for i, w in enumerate(packed_words)}
    decls: List[HMember] = []
    wrappers: List[HStruct] = []
    fields: List[_Field] = []
    seen: Dict[str, str] = {}
    declared: Set[str] = set()  # the packed words declared so far
    cursor, pads, align = 0, 0, 1

    def pad(end: int) -> None:
        nonlocal cursor, pads
        if end > cursor:
            made = padding(cursor, end, context, pads)
            decls.extend(HMember(t, n, s, -1, "padding", True) for t, n, s in made)
            pads += len(made)
            cursor = end

    def packed(m: Member, word: int) -> None:
        """An 8-bit scalar: its word declared once, with every small scalar in it."""
        nonlocal cursor, align
        if word + WORD > size:
            raise _fail(owner, m, f"HLSL has no 8-bit type, so its 32-bit word "
                                  f"(bytes {word} to {word + WORD}) is kept whole, past the "
                                  f"{size} bytes of the type", location)
        if cursor > word and packed_at[word] not in declared:
            # The word's first bytes belong to a member of another type (a vec3<int16>
            # before a uint8): no packed word can hold them both.
            raise _fail(owner, m, "HLSL has no 8-bit type, and its 32-bit word shares "
                                  "bytes with the member before it", location)
        if cursor <= word:
            declared.add(packed_at[word])
            pad(word)
            parts = [x.name for x in members if x.offset - x.offset % WORD == word]
            decls.append(HMember(HLSL.word, packed_at[word], "", word,
                                 "holds " + ", ".join(parts)))
            cursor, align = word + WORD, max(align, WORD)

    for m in members:
        field_name = esc(m.name)
        if field_name in seen:
            raise SchemaError(f"in the hlsl output, member {m.name!r} of {owner} is escaped to "
                              f"{field_name!r}, which {owner} already has; rename one of them",
                              m.location or location)
        seen[field_name] = m.name
        word = m.offset - m.offset % WORD
        if word in packed_at and not m.dims and m.size < WORD:
            packed(m, word)
            fields.append(_Field(m, field_name, None, packed_at[word], word))
            continue
        if m.offset < cursor or (m.end > word + WORD and word in packed_at and m.offset < word + WORD):
            raise _fail(owner, m, "it shares a 32-bit word with an 8-bit member", location)
        enum = types.name(m.enum) if m.enum is not None else ""
        try:
            spelled = spell_member(
                m, RULE_SETS[rules], context,
                lambda k: types.names.claim(esc(element_struct_name(
                    f"{prefix}_{ctor}{m.name}", k)),
                                            f"the array element struct of {owner} member {m.name!r}",
                                            m.location or location),
                lambda r: types.shapes[id(r)], types.name, enum)
            check_place(m, spelled.shape, context)
        except KindRefused as e:
            raise _fail(owner, m, str(e), location) from None
        pad(m.offset)
        for w in reversed(spelled.wrappers):  # innermost first
            members_ = (HMember(w.elem, "v", w.suffix, 0, "the element"),
                        *(HMember(t, n, s, -1, "padding", True) for t, n, s in w.pads))
            wrappers.append(HStruct(w.name, members_, f"an element of {owner} member "
                                    f"{m.name!r}, padded to its {w.size}-byte stride",
                                    _check_name(w.name), w.size))
        decls.append(HMember(spelled.elem, field_name, spelled.suffix, m.offset, m.spelling,
                             pin=_pin(m.offset)))
        fields.append(_Field(m, field_name, spelled))
        cursor, align = m.offset + spelled.shape.size, max(align, spelled.shape.align)
    if cursor > size:
        raise SchemaError(f"in the hlsl output, {owner} would be {cursor} bytes, more than its "
                          f"{size}", location)
    pad(size)
    shape = struct_shape(native, size, align)
    check = _check_name(name) if context == STRUCTURED else ""
    return HStruct(name, tuple(decls), "", check, size), wrappers, fields, shape


def _check_name(name: str) -> str:
    return f"{OWN_PREFIX}check_{name}_size"


# --- functions -------------------------------------------------------------------------------


def _word_function(types: _Types, c_name: str) -> str:
    return f"{OWN_PREFIX}{c_name}_word"


def _from_words(name: str) -> str:
    return f"{OWN_PREFIX}{name}_from_words"


def _to_words(name: str) -> str:
    return f"{OWN_PREFIX}{name}_to_words"


def _zeroed(n: int) -> str:
    return f"uint {WORDS}[{n}]; " + each(INDEX, n, f"{WORDS}[{INDEX}] = 0u;")


def read_value_scalar(f: _Field, word_of) -> str:
    """The value of a scalar kept in a packed word."""
    return read_scalar(f.member.scalar, ByteAt(f.member.offset - f.word), lambda k: word_of)


def _record_functions(types: _Types, st: SchemaType, c_name: str, fields: List[_Field],
                      context: str) -> List[HFunction]:
    """``make_<T>``, the accessors of its packed fields, and its word conversions."""
    v, r, n = VALUE_PARAM, RESULT, types.words(st)
    words_of = types.words
    out: List[HFunction] = []
    params = ", ".join(_param(f.spelled, PARAM + f.name, f.member) for f in fields)
    body = [f"{c_name} {r} = ({c_name})0;"]
    for f in fields:
        source = PARAM + f.name
        if f.spelled is None:
            stmt = write_scalar(f.member.scalar, ByteAt(f.member.offset - f.word), source)
            body.append(stmt.replace(f"{WORDS}[0u]", f"{r}.{f.packed}"))
        else:
            body += assign_value(f.spelled, f"{r}.{f.name}", source)
    if context == STRUCTURED:
        make = types.names.claim(make_name(c_name), f"the {MAKE_PREFIX} function of type "
                                 f"{st.qualified_name!r}", st.decl.location)
        out.append(HFunction(f"{c_name} with every padding byte zero.",
                             f"{c_name} {make}({params})", tuple(body + [f"return {r};"])))
    for f in fields:
        if f.spelled is None:
            acc = types.names.claim(field_accessor_name(c_name, f.name),
                                    f"the accessor of field {f.member.name!r} of type "
                                    f"{st.qualified_name!r}", st.decl.location)
            out.append(HFunction(f"Field {f.member.name} ({f.member.spelling}), kept in the "
                                 f"32-bit word {f.packed}.",
                                 f"{_natural(f.spelled, f.member)} {acc}({c_name} {v})",
                                 (f"return {read_value_scalar(f, f'{v}.{f.packed}')};",)))
    reads = [f"{c_name} {r} = ({c_name})0;"]
    writes = [each(INDEX, n, f"{WORDS}[{INDEX}] = 0u;")]
    copied = set()
    for f in fields:
        if f.spelled is None:
            if f.packed not in copied:
                copied.add(f.packed)
                reads.append(f"{r}.{f.packed} = {WORDS}[{f.word // WORD}u];")
                writes.append(f"{WORDS}[{f.word // WORD}u] = {r}.{f.packed};")
            continue
        reads += read_value(f.spelled, f.member.offset, f"{r}.{f.name}",
                            lambda k: f"{WORDS}[{k}]", True, _from_words, words_of)
        writes += write_value(f.spelled, f.member.offset, f"{r}.{f.name}", True, _to_words,
                              words_of)
    out.append(HFunction(f"{c_name} from{' / to' if context == STRUCTURED else ''} the {n} "
                         f"32-bit words its bytes reach into (a variant's payload keeps records "
                         f"as words).",
                         f"{c_name} {_from_words(c_name)}(uint {WORDS}[{n}])",
                         tuple(reads + [f"return {r};"])))
    if context == STRUCTURED:  # a constant buffer is written by the host alone
        out.append(HFunction("", f"void {_to_words(c_name)}({c_name} {r}, out uint {WORDS}[{n}])",
                             tuple(writes)))
    return out


def _natural(spelled: Optional[Spelled], m: Member) -> str:
    if spelled is None:
        return scalar_type(m.scalar)  # type: ignore[arg-type]
    return spelled.natural


def _param(spelled: Optional[Spelled], name: str, m: Member) -> str:
    if spelled is None:
        return f"{scalar_type(m.scalar)} {name}"  # type: ignore[arg-type]
    if spelled.leaf.kind == "words":
        return f"{spelled.elem} {name}{spelled.suffix}"
    return f"{spelled.natural} {name}{spelled.natural_suffix}"


# --- types -------------------------------------------------------------------------------------


def _fingerprint(types: _Types, st: SchemaType, c_name: str) -> dict:
    owner = f"the layout fingerprint of type {st.qualified_name!r}"
    lo, hi = layout_id_words(st)
    return dict(
        layout_id=layout_id_hex(st),
        layout_words=(f"0x{lo:08x}u", f"0x{hi:08x}u"),
        layout_id_name=types.names.claim(f"{c_name}_LAYOUT_ID", owner, st.decl.location),
        layout_ok_name=types.names.claim(f"{c_name}_LAYOUT_OK", owner, st.decl.location),
    )


def _enum(types: _Types, st: SchemaType, c_name: str) -> HType:
    base = st.elttype.base  # type: ignore[union-attr]
    spelled = scalar_type(base)
    constants = tuple(
        (c_name, types.names.claim(types.names.esc(f"{c_name}_{name}"),
                                   f"the value {name} of enum {st.qualified_name!r}",
                                   st.decl.location), value)
        for name, value in st.elttype.values)  # type: ignore[union-attr]
    types.shapes[id(st)] = Shape(st.size, st.align)
    return HType("enum", st.qualified_name, c_name, st.size, st.align, st.rules,
                 context_of(st.rules), base=spelled, constants=constants,
                 **_fingerprint(types, st, c_name))


def _record(types: _Types, st: SchemaType, c_name: str) -> HType:
    owner = f"type {st.qualified_name!r}"
    struct, wrappers, fields, shape = _struct(types, st.members, st.size, st.rules, owner,
                                              c_name, st.decl.location, c_name)
    types.shapes[id(st)] = shape
    context = context_of(st.rules)
    macro, note = "", ""
    if context == CBUFFER:
        halves = [f.member.name for f in fields if f.member.offset % WORD]
        if halves:
            note = (f"no {c_name}_CBUFFER macro: packoffset names 4-byte register components, "
                    f"and {halves[0]} is at a 2-byte one")
        else:
            macro = types.names.claim(f"{c_name}_CBUFFER", f"the cbuffer macro of {owner}",
                                      st.decl.location)
    return HType("record", st.qualified_name, c_name, st.size, st.align, st.rules, context,
                 tuple(wrappers), struct, (), functions=tuple(_record_functions(
                     types, st, c_name, fields, context)),
                 cbuffer_macro=macro, cbuffer_note=note, **_fingerprint(types, st, c_name))


def _data_pieces(start: int, end: int, context: str) -> List[Tuple[str, str, str, int, int, int]]:
    """A payload ``[start, end)`` as members: (type, name, suffix, first word, words, vector
    width: -1 for an array of ``uint``, 0 for one of ``uint4``): one ``uint data[N]`` in a
    structured buffer; in a constant buffer, vectors that end at a register and ``uint4[N]``
    for whole registers."""
    n = (end - start) // WORD
    if context == STRUCTURED:
        return [(HLSL.word, "data", f"[{n}]", 0, n, -1)]
    out, first = [], 0
    for i, (type_, _, suffix) in enumerate(padding(start, end, CBUFFER)):
        count = int(suffix[1:-1]) if suffix else 0
        width = 0 if count else (int(type_[-1]) if type_[-1].isdigit() else 1)
        words = 4 * count if count else width
        name = "data" if i == 0 else f"{PADDING_PREFIX}data{i}"
        out.append((type_, name, suffix, first, words, width))
        first += words
    return out


def _word_body(pieces) -> Tuple[str, ...]:
    """``sarek_layout_<T>_word``'s body: payload word ``_sarek_k`` from its piece."""
    v, k = VALUE_PARAM, INDEX
    lines = []
    for i, (_, name, _, first, words, width) in enumerate(pieces):
        at = k if first == 0 else f"({k} - {first}u)"
        if width == -1 or width > 1:
            read = f"{v}.{name}[{at}]"
        elif width == 1:
            read = f"{v}.{name}"
        else:
            read = f"{v}.{name}[{at} >> 2u][{at} & 3u]"
        last = i == len(pieces) - 1
        lines.append(f"return {read};" if last else f"if ({k} < {first + words}u) return {read};")
    return tuple(lines)


def _variant(types: _Types, st: SchemaType, c_name: str) -> HType:
    owner = f"type {st.qualified_name!r}"
    context = context_of(st.rules)
    p = st.payload_offset
    esc = types.names.esc
    head, wrappers, _, shape = _struct(types, st.members, p if st.has_payload else st.size,
                                       st.rules, owner, c_name, st.decl.location, c_name)
    members = list(head.members)
    pieces = _data_pieces(p, st.size, context) if st.has_payload else []
    for type_, name, suffix, first, words, _ in pieces:
        members.append(HMember(type_, name, suffix, p + first * WORD,
                               f"payload words {first} to {first + words - 1}"))
    check = f"{OWN_PREFIX}check_{c_name}_size" if context == STRUCTURED else ""
    struct = HStruct(c_name, tuple(members), "", check, st.size)
    word_fn = _word_function(types, c_name)
    functions: List[HFunction] = []
    if pieces:
        functions.append(HFunction(f"Payload word {INDEX} of {c_name} (from byte {p}).",
                                   f"uint {word_fn}({c_name} {VALUE_PARAM}, uint {INDEX})",
                                   _word_body(pieces)))
    arms: List[HStruct] = []
    constants = []
    for arm in st.arms:
        where = f"constructor {st.qualified_name}.{arm.name}"
        const = types.names.claim(esc(f"{c_name}_{arm.name}"), f"the tag of {where}",
                                  arm.location)
        constants.append(("int", const, arm.tag))
        if not arm.args:
            if context == STRUCTURED:
                functions.append(_make(types, st, c_name, arm, const, [], p))
            continue
        arm_name = types.names.claim(esc(arm_struct_name(c_name, arm.name)),
                                     f"the arm struct of {where}", arm.location)
        arm_struct, arm_wrappers, arm_fields, _ = _struct(
            types, (*st.members, *arm.args), st.size, st.rules, where, c_name, arm.location,
            arm_name, arm.name)
        wrappers += arm_wrappers
        arms.append(arm_struct)
        spelled = [f.spelled for f in arm_fields[1:]]
        for i, (a, sp) in enumerate(zip(arm.args, spelled)):
            functions.append(_accessor(types, st, c_name, arm, i, a, sp, word_fn, p, where))
        if context == STRUCTURED:
            functions.append(_make(types, st, c_name, arm, const, list(zip(arm.args, spelled)), p))
    types.shapes[id(st)] = shape
    return HType("variant", st.qualified_name, c_name, st.size, st.align, st.rules, context,
                 tuple(wrappers), struct, tuple(arms), constants=tuple(constants),
                 functions=tuple(functions), **_fingerprint(types, st, c_name))


def _accessor(types: _Types, st, c_name: str, arm, i: int, a: Member, spelled: Optional[Spelled],
              word_fn: str, p: int, where: str) -> HFunction:
    name = types.names.claim(types.names.esc(accessor_name(c_name, arm.name, i, len(arm.args))),
                             f"the accessor of argument {i} of {where}", arm.location)
    v, r = VALUE_PARAM, RESULT
    word = (lambda k: f"{word_fn}({v}, {k})")  # noqa: E731
    comment = f"Argument {i} of {arm.name} ({a.spelling}); read it only when tag == {c_name}_{arm.name}."
    if spelled is None:  # an 8-bit scalar
        at = ByteAt(a.offset - p)
        return HFunction(comment, f"{scalar_type(a.scalar)} {name}({c_name} {v})",
                         (f"return {read_scalar(a.scalar, at, word)};",))
    _payload_words(a, spelled, p, where, st)
    body = read_value(spelled, a.offset - p, r, word, False, _from_words, types.words)
    if spelled.levels:
        return HFunction(comment, f"void {name}({c_name} {v}, out {spelled.natural} {r}"
                                  f"{spelled.natural_suffix})", tuple(body))
    return HFunction(comment, f"{spelled.natural} {name}({c_name} {v})",
                     (f"{spelled.natural} {r};", *body, f"return {r};"))


def _payload_words(a: Member, spelled: Spelled, p: int, where: str, st) -> None:
    """A record argument is moved as whole words: it must start on one and fill them."""
    if spelled.leaf.kind != "record":
        return
    record = spelled.leaf.record
    strides = [lvl.stride for lvl in spelled.levels if lvl.count > 1]
    if (a.offset - p) % WORD or any(s % WORD for s in strides):
        raise _fail(where, a, f"record {record.qualified_name} is moved in and out of the "
                              f"payload as 32-bit words, and it starts at byte "
                              f"{a.offset - p} of the payload"
                              + (f" every {strides[-1]} bytes" if strides else "")
                              + ", inside a word: give the record a size that is a multiple of "
                                "4 bytes", st.decl.location)


def _make(types: _Types, st, c_name: str, arm, const: str, args, p: int) -> HFunction:
    where = f"constructor {st.qualified_name}.{arm.name}"
    name = types.names.claim(make_name(c_name, arm.name), f"the {MAKE_PREFIX} function of "
                             f"{where}", arm.location)
    r = RESULT
    params = ", ".join(_param(sp, a.name, a) for a, sp in args)
    body = [f"{c_name} {r} = ({c_name})0;", f"{r}.tag = {const};"]
    n = (st.size - p) // WORD
    if st.has_payload:
        body.append(_zeroed(n))
        for a, sp in args:
            if sp is None:
                body.append(write_scalar(a.scalar, ByteAt(a.offset - p), a.name))
            else:
                _payload_words(a, sp, p, where, st)
                body += write_value(sp, a.offset - p, a.name, False, _to_words, types.words)
        body.append(f"{r}.data = {WORDS};")
    return HFunction(f"{c_name} holding {arm.name} (tag {arm.tag}), every other byte zero.",
                     f"{c_name} {name}({params})", tuple(body + [f"return {r};"]))


def _claim_all(schema: Schema) -> Dict[int, HType]:
    types = _Types()
    for st in schema.dependency_order():
        c_name = types.names.claim(types.names.esc(st.c_name), f"type {st.qualified_name!r}",
                                   st.decl.location)
        types.c_names[id(st)] = c_name
        build = {"record": _record, "variant": _variant, "enum": _enum}[st.kind]
        types.views[id(st)] = build(types, st, c_name)
    return types.views


def hlsl_view(schema: Schema, module: ModuleDecl) -> HModuleView:
    """The view of ``module``'s ``.hlsl`` file."""
    views = per_schema(schema, HLSL.name, lambda: _claim_all(schema))
    types = schema.dependency_order(schema.module_types(module))
    scalars = set()
    for st in types:
        for m in (*st.members, *(a for arm in st.arms for a in arm.args)):
            if m.scalar is not None:
                scalars.add(m.scalar)
        if st.is_enum:
            scalars.add(st.elttype.base)  # type: ignore[union-attr]
    tv = tuple(views[id(st)] for st in types)
    return HModuleView(
        tool=TOOL, version=__version__, module=module.name,
        source=os.path.basename(module.path), types=tv,
        uses_16bit=any(s.size == 2 for s in scalars),
        uses_int64=any(s.size == 8 and not s.is_float for s in scalars),
        uses_float64=any(s.size == 8 and s.is_float for s in scalars),
        uses_small=any(s.size == 1 for s in scalars),
        uses_cbuffer=any(t.context == CBUFFER for t in tv),
    )
