"""How HLSL holds one member of a schema type: its declaration, and its walk to every scalar.

An HLSL struct has no layout of its own: the buffer that holds it lays it out. A
``StructuredBuffer<T>`` (and ``ByteAddressBuffer``'s ``Load<T>``) lays it out like Vulkan's
scalar block layout, everything aligned to its scalar (Slang's reflection; DXC's
``-fvk-use-scalar-layout`` for SPIR-V); a ``cbuffer`` or ``ConstantBuffer<T>`` by HLSL's
constant buffer packing, 16-byte registers (the ``hlsl-cbuffer`` rule set). So a schema type
of the ``hlsl-cbuffer`` rules is written for constant buffers (``context`` ``cbuffer``), and
one of any other rule set for structured buffers (``structured``): its bytes are those of
its rule set, reproduced in the structured layout with explicit padding. Each context is a
row of ``layout.rules`` (``NATIVE``), whose arithmetic says what HLSL's own layout of a
spelling is; nothing here computes a layout, and Slang's reflection judges the result
(``verify.drivers.hlsl``).

A member is spelled, from its element outwards:

* a scalar as HLSL's own (``float16_t``, ``int64_t``; bool and unit ``int``);
* a vector as HLSL's (``float3``): a vector's size is its rule set's in every row;
* a matrix ``matCxR<T>`` as ``column_major TRxC`` when HLSL's column stride is the rule set's;
  in a structured buffer whose rules stride the columns further apart (std430's ``mat3``,
  16 bytes), as ``column_major TR'xC`` with the rows that fill the stride (``float4x3``: a
  cast ``(float3x3)m`` reads the matrix), else as an array of its columns;
* an array level as HLSL's array when its stride is HLSL's, else (a structured buffer)
  over an element wrapped in a struct ``<T>_<member>_elem<k>`` whose member ``v`` is the
  element and whose padding fills the stride (``naming.element_struct_name``);
* a record as its own struct, whose size is its rule set's (its padding is explicit);
* an 8-bit scalar's kinds (``uint8[32]``, ``vec4<uint8>``) as the 32-bit words its bytes fill
  (``uint name[8]``): HLSL has no 8-bit type (a lone 8-bit scalar is packed with its
  neighbours by the struct, ``hlsl_view``).

A member no spelling holds is refused for hlsl alone (``KindRefused``, with why).

A *walk* reaches every scalar of a member: loops over its array levels, then its components
(a vector's, a matrix's ``[row][column]``), each at a byte offset, both as the member is
declared (``[i].v`` through a wrapped level) and as its natural HLSL value is indexed (a
function's parameter or result). The word codecs of variant payloads (accessors, ``make_``
functions, a record's ``from_words``/``to_words``) are statements over a walk: one loop per
array level whatever its length, so a ``float32[100000000]`` costs what a ``float32`` costs.
"""

from __future__ import annotations

from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple

from ..ir.schema import ARRAY, MATRIX, VECTOR, Member
from ..ir.types import Scalar
from ..layout.rules import RULE_SETS, RuleSet, Shape, array_shape, place, scalar_shape, vector_shape
from ..targets.dialects import HLSL
from ..targets.naming import ELEMENT_MEMBER, PADDING_PREFIX, padding_name

__all__ = ["STRUCTURED", "CBUFFER", "NATIVE", "context_of", "KindRefused", "Level", "Leaf",
           "Wrapper", "Spelled", "spell_member", "scalar_type", "natural_type", "padding",
           "Component", "walk_components", "read_value", "write_value", "assign_value", "each",
           "check_place", "read_scalar", "write_scalar", "ByteAt", "WORD",
           "loop_var", "TEMP", "WORDS", "INDEX", "RESULT", "PARAM"]

#: Bytes in one 32-bit word.
WORD = 4
STRUCTURED, CBUFFER = "structured", "cbuffer"

#: HLSL's own layout in each context, as a row of the layout rules.
NATIVE = {STRUCTURED: RULE_SETS["scalar"], CBUFFER: RULE_SETS["hlsl-cbuffer"]}

#: Locals of the generated functions (the prefix no schema name may have).
WORDS = PADDING_PREFIX + "w"
TEMP = PADDING_PREFIX + "t"
INDEX = PADDING_PREFIX + "k"
RESULT = PADDING_PREFIX + "r"
#: The prefix of a record's make_ parameters (``_sarek_a_<field>``): never one of the locals
#: above, whatever the field is named (a field ``r`` would shadow ``_sarek_r`` otherwise).
PARAM = PADDING_PREFIX + "a_"


def loop_var(depth: int) -> str:
    return f"{PADDING_PREFIX}i{depth}"


def context_of(rules: str) -> str:
    """Where HLSL holds a type of rule set ``rules``: constant buffers for ``hlsl-cbuffer``,
    structured buffers for every other."""
    return CBUFFER if rules == "hlsl-cbuffer" else STRUCTURED


class KindRefused(Exception):
    """No HLSL spelling holds the member's bytes: ``str()`` says why."""


def scalar_type(s: Scalar) -> str:
    return HLSL.scalar[s.name]


def _matrix_scalar(s: Scalar) -> Optional[str]:
    """HLSL's spelling of a matrix's scalar: its floats' (a matrix of another scalar has no
    HLSL type)."""
    return HLSL.scalar[s.name] if s.is_float else None


class Level(NamedTuple):
    """An array level: ``count`` elements ``stride`` bytes apart; ``wrapped``: each element
    is the member ``v`` of a struct padded to the stride."""

    count: int
    stride: int
    wrapped: bool = False


class Leaf(NamedTuple):
    """What the array levels repeat: a ``scalar``, a ``vector`` of ``n`` components, a
    ``matrix`` of ``cols`` columns of ``n`` rows ``col_stride`` bytes apart (declared with
    ``rows`` rows, or as an array of columns when ``columns`` says how: ``[j]``, ``[j].v``),
    a ``record``, or 32-bit ``words``."""

    kind: str
    scalar: Optional[Scalar] = None
    n: int = 1
    cols: int = 0
    col_stride: int = 0
    rows: int = 0
    columns: str = ""
    record: object = None  # SchemaType
    record_name: str = ""


class Wrapper(NamedTuple):
    """A struct padding an array element to its stride: ``v`` (``elem``, ``suffix``) then
    ``pads`` (type, name, suffix)."""

    name: str
    elem: str
    suffix: str
    pads: Tuple[Tuple[str, str, str], ...]
    size: int


class Spelled(NamedTuple):
    """A member declared ``<elem> <name><suffix>;`` (``column_major float4x3 m``, ``float3
    p[4]``), laid out by HLSL as ``shape``; ``natural`` is its value's type as a parameter or
    a result (``float3x3``), with ``levels``' counts as array dimensions."""

    elem: str
    suffix: str
    natural: str
    levels: Tuple[Level, ...]
    leaf: Leaf
    wrappers: Tuple[Wrapper, ...]
    shape: Shape

    @property
    def natural_suffix(self) -> str:
        return "".join(f"[{lvl.count}]" for lvl in self.levels)

    @property
    def plain(self) -> bool:
        """Declared as its natural value is (no wrapped level, no padded matrix, no words):
        assigned whole."""
        return (not any(lvl.wrapped for lvl in self.levels) and self.leaf.kind != "words"
                and not (self.leaf.kind == "matrix" and (self.leaf.columns
                                                         or self.leaf.rows != self.leaf.n)))


def natural_type(leaf: Leaf) -> str:
    """The HLSL type of the leaf's natural value (``float3``, ``float3x4``, a record)."""
    if leaf.kind == "record":
        return leaf.record_name
    if leaf.kind == "words":
        return HLSL.word
    base = scalar_type(leaf.scalar)  # type: ignore[arg-type]
    if leaf.kind == "vector":
        return f"{base}{leaf.n}"
    if leaf.kind == "matrix":
        return f"{_matrix_scalar(leaf.scalar)}{leaf.n}x{leaf.cols}"  # type: ignore[arg-type]
    return base


def _leaf(member: Member, context: str, rules: RuleSet, record_shape: Callable[[object], Shape],
          record_name: Callable[[object], str]) -> Tuple[Leaf, str, Shape, List[Level]]:
    """The element under the array levels: its leaf, declared type, HLSL shape, and the
    levels a matrix adds when it is spelled as an array of its columns."""
    dims = member.dims
    native = NATIVE[context]
    s = member.scalar
    if member.record is not None:
        return (Leaf("record", record=member.record, record_name=record_name(member.record)),
                record_name(member.record), record_shape(member.record), [])
    assert s is not None
    if len(dims) >= 2 and dims[-2].kind == MATRIX:
        cols, cs, rows = dims[-2].count, dims[-2].stride, dims[-1].count
        base = _matrix_scalar(s)
        if base is None:
            raise KindRefused(f"HLSL has no matrix of {s.name}")
        own = array_shape(native, vector_shape(native, s.size, rows), cols)
        if own.stride == cs:
            return (Leaf("matrix", s, rows, cols, cs, rows), f"column_major {base}{rows}x{cols}",
                    own, [])
        padded = cs // s.size
        if context == STRUCTURED and cs % s.size == 0 and rows < padded <= 4:
            shape = array_shape(native, vector_shape(native, s.size, padded), cols)
            return (Leaf("matrix", s, rows, cols, cs, padded),
                    f"column_major {base}{padded}x{cols}", shape, [])
        column = vector_shape(native, s.size, rows)
        return (Leaf("matrix", s, rows, cols, cs, rows, columns="columns"),
                f"{scalar_type(s)}{rows}", column, [Level(cols, cs)])
    if dims and dims[-1].kind == VECTOR:
        n = dims[-1].count
        return Leaf("vector", s, n), f"{scalar_type(s)}{n}", vector_shape(native, s.size, n), []
    return Leaf("scalar", s), scalar_type(s), scalar_shape(s.size), []


def spell_member(member: Member, rules: RuleSet, context: str, wrapper_name: Callable[[int], str],
                 record_shape: Callable[[object], Shape], record_name: Callable[[object], str],
                 enum_name: str = "") -> Spelled:
    """How ``member`` (laid out by ``rules``) is declared in an HLSL struct of ``context``
    (module docstring); ``wrapper_name(k)`` names the struct of array level ``k`` (outermost
    0) where one is needed, ``enum_name`` the type of an enum's values. Raises
    ``KindRefused``."""
    native = NATIVE[context]
    s = member.scalar
    if s is not None and s.size == 1 and member.dims:
        return _words(member, context)
    leaf, elem, shape, extra = _leaf(member, context, rules, record_shape, record_name)
    if enum_name and leaf.kind == "scalar":
        elem = enum_name
    arrays = [Level(d.count, d.stride) for d in member.dims if d.kind == ARRAY] + extra
    wrappers: List[Wrapper] = []
    suffix = ""
    out: List[Level] = []
    for k in range(len(arrays) - 1, -1, -1):  # innermost first
        level = arrays[k]
        own = array_shape(native, shape, level.count)
        if own.stride == level.stride:
            suffix = f"[{level.count}]" + suffix
            shape = own
            out.insert(0, level)
            continue
        if context != STRUCTURED or level.stride < own.stride:
            raise KindRefused(
                f"its elements are {level.stride} bytes apart under the {rules.name} rules, "
                f"{own.stride} in HLSL's {context} layout")
        name = wrapper_name(k)
        wrappers.append(Wrapper(name, elem, suffix, padding(shape.size, level.stride, STRUCTURED),
                                level.stride))
        shape = Shape(level.stride, shape.align)
        elem, suffix = name, ""
        shape = array_shape(native, shape, level.count)
        suffix = f"[{level.count}]"
        out.insert(0, level._replace(wrapped=True))
    if leaf.kind == "matrix" and leaf.columns:
        # The columns are the innermost level: ``[j]`` (``[j].v`` wrapped) reaches column j.
        column = out.pop()
        leaf = leaf._replace(columns=f"[{{j}}]{'.' + ELEMENT_MEMBER if column.wrapped else ''}")
    natural = enum_name if enum_name and leaf.kind == "scalar" else natural_type(leaf)
    return Spelled(elem, suffix, natural, tuple(out), leaf, tuple(wrappers), shape)


def _words(member: Member, context: str) -> Spelled:
    """An 8-bit scalar's kind member, as the 32-bit words its bytes fill."""
    if context == CBUFFER:
        raise KindRefused("HLSL has no 8-bit type, and a constant buffer puts every array "
                          "element on a 16-byte register of its own: use 32-bit scalars")
    if member.offset % WORD or member.size % WORD:
        raise KindRefused(f"HLSL has no 8-bit type, and its {member.size} bytes at offset "
                          f"{member.offset} do not fill whole 32-bit words: keep such a member "
                          f"word-aligned and a multiple of 4 bytes")
    n = member.size // WORD
    from ..ir.types import TUint32

    return Spelled(HLSL.word, f"[{n}]", HLSL.word, (Level(n, WORD),), Leaf("words", TUint32),
                   (), Shape(member.size, WORD))


def padding(start: int, end: int, context: str, first: int = 0) -> Tuple[Tuple[str, str, str], ...]:
    """The explicit padding of bytes ``[start, end)``, as (type, name, suffix) members named
    from ``_sarek_pad<first>``: 32-bit words (``uint``; in a constant buffer, ``uintN``
    vectors that end at a register, and ``uint4[N]`` for whole registers), and a 16-bit
    ``uint16_t`` for two bytes beside a 16-bit member."""
    out: List[Tuple[str, str, str]] = []

    def add(type_: str, size: str = "") -> None:
        out.append((type_, padding_name(first + len(out)), size))

    at = start
    if at < end and at % WORD:
        assert at % 2 == 0 and at + 2 <= end, (start, end)
        add("uint16_t")
        at += 2
    whole = (end - at) // WORD * WORD
    if context == STRUCTURED and whole:
        n = whole // WORD
        add(HLSL.word, f"[{n}]" if n > 1 else "")
        at += whole
    while context == CBUFFER and end - at >= WORD:
        room = 16 - at % 16
        if room == 16 and end - at >= 32:
            n = (end - at) // 16
            add("uint4", f"[{n}]")
            at += 16 * n
            continue
        n = min(room, (end - at) // WORD * WORD) // WORD
        add(HLSL.word if n == 1 else f"uint{n}")
        at += n * WORD
    if at < end:
        assert end - at == 2, (start, end)
        add("uint16_t")
    return tuple(out)


def check_place(member: Member, shape: Shape, context: str) -> None:
    """HLSL puts a member of ``shape`` right after explicit padding up to its offset only when
    the offset is one HLSL allows it (its alignment; a constant buffer's registers)."""
    if place(NATIVE[context], member.offset, shape) != member.offset:
        raise KindRefused(f"HLSL's {context} layout cannot put it at offset {member.offset}")


# --- walks and word codecs --------------------------------------------------------------------


class ByteAt(NamedTuple):
    """A byte offset: ``const`` plus each loop variable times its stride."""

    const: int
    terms: Tuple[Tuple[str, int], ...] = ()

    def plus(self, n: int) -> "ByteAt":
        return ByteAt(self.const + n, self.terms)

    def word(self) -> str:
        """The index of the 32-bit word holding this byte."""
        if all(s % WORD == 0 for _, s in self.terms):
            parts = [f"{v} * {s // WORD}u" if s != WORD else v for v, s in self.terms]
            if self.const // WORD or not parts:
                parts.insert(0, f"{self.const // WORD}u")
            return " + ".join(parts)
        return f"(({self._expr()}) >> 2u)"

    def shift(self) -> str:
        """The bit position of this byte in its word."""
        if all(s % WORD == 0 for _, s in self.terms):
            return f"{self.const % WORD * 8}u"
        return f"((({self._expr()}) & 3u) * 8u)"

    def _expr(self) -> str:
        return " + ".join([f"{self.const}u"] + [f"{v} * {s}u" for v, s in self.terms])


class Component(NamedTuple):
    """One scalar of a walk: at byte ``at``; reached with ``declared`` after the member's
    declared designator, ``natural`` after its natural value's."""

    scalar: Scalar
    at: ByteAt
    declared: str
    natural: str


def _components(leaf: Leaf, at: ByteAt) -> List[Component]:
    s = leaf.scalar
    assert s is not None
    if leaf.kind == "vector":
        return [Component(s, at.plus(j * s.size), f"[{j}]", f"[{j}]") for j in range(leaf.n)]
    if leaf.kind == "matrix":
        out = []
        for j in range(leaf.cols):
            for r in range(leaf.n):
                declared = (leaf.columns.format(j=j) + f"[{r}]") if leaf.columns else f"[{r}][{j}]"
                out.append(Component(s, at.plus(j * leaf.col_stride + r * s.size), declared,
                                     f"[{r}][{j}]"))
        return out
    return [Component(s, at, "", "")]


def walk_components(spelled: Spelled, base: int, depth: int = 0
                    ) -> Tuple[List[Tuple[str, int]], str, str, ByteAt]:
    """The loops of ``spelled``'s array levels (``(variable, count)``, outermost first), and
    the designators and byte offset of one element inside them (declared, natural)."""
    loops, declared, natural, terms = [], "", "", []
    for i, level in enumerate(spelled.levels):
        v = loop_var(depth + i)
        loops.append((v, level.count))
        declared += f"[{v}]" + (f".{ELEMENT_MEMBER}" if level.wrapped else "")
        natural += f"[{v}]"
        terms.append((v, level.stride))
    return loops, declared, natural, ByteAt(base, tuple(terms))


def read_scalar(s: Scalar, at: ByteAt, word: Callable[[str], str]) -> str:
    w = word(at.word())
    if s.size == 8:
        hi = word(f"{at.word()} + 1u")
        both = f"((uint64_t({hi}) << 32) | uint64_t({w}))"
        return {"float": f"asdouble({w}, {hi})"}.get(s.kind, both if s.is_unsigned
                                                       else f"int64_t({both})")
    if s.size == 4:
        if s.is_float:
            return f"asfloat({w})"
        return w if s.is_unsigned else f"asint({w})"
    shift = at.shift()
    shifted = w if shift == "0u" else f"({w} >> {shift})"
    if s.size == 2:
        bits = f"({shifted} & 0xFFFFu)"
        if s.is_float:
            return f"asfloat16(uint16_t({bits}))"
        return f"uint16_t({bits})" if s.is_unsigned else f"int16_t(int({bits} << 16u) >> 16)"
    if s.is_unsigned or s.is_char:
        return f"({shifted} & 0xFFu)"
    return f"(int({w} << (24u - {shift})) >> 24)"


def write_scalar(s: Scalar, at: ByteAt, value: str) -> str:
    k = at.word()
    if s.size == 8:
        if s.is_float:
            return f"asuint({value}, {WORDS}[{k}], {WORDS}[{k} + 1u]);"
        return (f"{WORDS}[{k}] = uint(uint64_t({value})); "
                f"{WORDS}[{k} + 1u] = uint(uint64_t({value}) >> 32);")
    if s.size == 4:
        return f"{WORDS}[{k}] = {value if s.is_unsigned else f'asuint({value})'};"
    bits = (f"uint(asuint16({value}))" if s.is_float and s.size == 2
            else f"(uint({value}) & {'0xFFFFu' if s.size == 2 else '0xFFu'})")
    shift = at.shift()
    return f"{WORDS}[{k}] |= {bits if shift == '0u' else f'({bits} << {shift})'};"


def each(v: str, n, statement: str) -> str:
    """``statement`` for ``v`` from 0 to ``n`` - 1, in a block of its own: HLSL's loop
    variables outlive their loop (FXC's scoping, which Slang keeps), so two loops of one
    function must not share a scope."""
    return f"{{ for (uint {v} = 0u; {v} < {n}u; ++{v}) {statement} }}"


def _loops(loops: Sequence[Tuple[str, int]], body: List[str]) -> List[str]:
    """``body`` inside one ``for`` per loop (one line each)."""
    if not loops:
        return body
    head = " ".join(f"for (uint {v} = 0u; {v} < {n}u; ++{v})" for v, n in loops)
    if len(body) == 1:
        return [f"{{ {head} {body[0]} }}"]
    return ["{ " + head + " {", *("    " + b for b in body), "} }"]


def read_value(spelled: Spelled, base: int, dest: str, word: Callable[[str], str],
               declared: bool, from_words: Callable[[str], str] = lambda n: n,
               words_of: Callable[[object], int] = lambda r: 0) -> List[str]:
    """Statements storing the member whose bytes start at byte ``base`` of the words that
    ``word(index)`` reads into ``dest`` (declared as the struct declares it, or as its natural
    value)."""
    loops, decl, nat, at = walk_components(spelled, base)
    where = dest + (decl if declared else nat)
    leaf = spelled.leaf
    if leaf.kind == "record":
        n = words_of(leaf.record)
        copy = (f"{{ uint {TEMP}[{n}]; "
                + each(INDEX, n, f"{TEMP}[{INDEX}] = {word(f'{at.word()} + {INDEX}')};")
                + f" {where} = {from_words(leaf.record_name)}({TEMP}); }}")
        return _loops(loops, [copy])
    body = [f"{where}{c.declared if declared else c.natural} = {read_scalar(c.scalar, c.at, word)};"
            for c in _components(leaf, at)]
    return _loops(loops, body)


def write_value(spelled: Spelled, base: int, source: str, declared: bool,
                to_words: Callable[[str], str] = lambda n: n,
                words_of: Callable[[object], int] = lambda r: 0) -> List[str]:
    """Statements or-ing the member ``source`` (declared, or its natural value) into the
    zeroed words ``_sarek_w`` from byte ``base``."""
    loops, decl, nat, at = walk_components(spelled, base)
    where = source + (decl if declared else nat)
    leaf = spelled.leaf
    if leaf.kind == "record":
        n = words_of(leaf.record)
        copy = (f"{{ uint {TEMP}[{n}]; {to_words(leaf.record_name)}({where}, {TEMP}); "
                + each(INDEX, n, f"{WORDS}[{at.word()} + {INDEX}] |= {TEMP}[{INDEX}];") + " }")
        return _loops(loops, [copy])
    body = [write_scalar(c.scalar, c.at, f"{where}{c.declared if declared else c.natural}")
            for c in _components(leaf, at)]
    return _loops(loops, body)


def assign_value(spelled: Spelled, dest: str, source: str) -> List[str]:
    """Statements storing the natural value ``source`` into the declared member ``dest``."""
    if spelled.plain:
        return [f"{dest} = {source};"]
    loops, decl, nat, _ = walk_components(spelled, 0)
    if spelled.leaf.kind in ("record", "scalar", "vector"):
        return _loops(loops, [f"{dest}{decl} = {source}{nat};"])
    body = [f"{dest}{decl}{c.declared} = {source}{nat}{c.natural};"
            for c in _components(spelled.leaf, ByteAt(0))]
    return _loops(loops, body)
