"""How GLSL and WGSL hold a member of SPEC §1b's kinds: a fixed array, a vector or a matrix.

A member with ``dims`` (``Member.dims``: array levels, a matrix's columns, a vector's
components, outermost first) is spelled, in each language, as a tree of the language's own
types whose layout *in that language* is exactly the rule set's bytes at every level: its
size, its alignment and every stride. The candidates, in order of preference:

* a vector: the language's vector (``vec3``, ``vec3<f32>``), else an array of its scalars
  (``float v[3]``, ``array<f32, 3>``), else (GLSL, a 4-vector) an array of two 2-vectors;
* a matrix: the language's matrix (``mat3``, ``mat3x3<f32>``), else an array of its columns,
  each spelled as a vector is;
* an array level: an array of the element's spelling, when the language's own stride of that
  spelling is the level's stride; in WGSL, else the element wrapped in a struct whose one
  member ``v`` (``naming.ELEMENT_MEMBER``) carries ``@size(stride)``;
* the element: a scalar (WGSL keeps a 64-bit one as its two words, ``vec2<u32>``) or a record
  (whose struct is itself exact: ``shader_views``).

A spelling may be less aligned than the member (the struct's explicit padding puts the
member at its offset all the same), never more; but a struct is as aligned as its most
aligned member's type in both languages (GLSL has no alignment pin in a struct, and naga, the
WGSL compiler wgpu runs, ignores ``@align`` when it works out a struct's alignment: measured,
``{ @align(16) a: f32, b: f32 }`` follows a ``u32`` at offset 4), so ``shader_views`` refuses
a type whose members' types are not as aligned as the type.

The language's own layout is a row of ``layout.rules``: GLSL lays a struct out by the block
that holds it, the rule set's own block layout where GLSL has one (``layout(std430)``,
``std140``, ``scalar``: ``RuleSet.glsl_qualifier``) and std430 for the others (``c``,
``cuda``); WGSL's storage layout is std430's for its 32-bit types. So the shapes compared
here are the layout stage's arithmetic, asked of two rule sets; nothing is computed here,
and verify's compilers judge the result. A member no candidate fits is refused for that
language alone, naming the member and what it would need (``KindRefused``).

Each spelling comes with its *walk* (``KLevel``s): the indexes that reach every scalar or
record of the member and the 32-bit words between them, which the templates turn into loops
(word conversions of a record, payload accessors and ``make_`` functions of a variant): a
``float32[100000000]`` member is one loop, never a line per element.
"""

from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple

from ..ir.schema import ARRAY, MATRIX, VECTOR, Member
from ..ir.types import Scalar
from ..layout.rules import RULE_SETS, RuleSet, Shape, array_shape, matrix_shape, scalar_shape, vector_shape
from ..targets.dialects import ShaderDialect
from ..targets.naming import ELEMENT_MEMBER

__all__ = ["KLevel", "Spelled", "KindRefused", "own_rules", "named_block", "block_of",
           "uniform_stride", "spell_member", "sub_word_kind", "WORD"]

#: Bytes in one 32-bit word.
WORD = 4


class KindRefused(Exception):
    """No spelling of the language holds the member's bytes: ``str()`` says why."""


class KLevel(NamedTuple):
    """One index of a member's walk: ``count`` positions ``words`` 32-bit words apart;
    ``wrap`` is what follows the index to reach the element (WGSL's ``.v`` of a wrapped
    element, else ``""``)."""

    count: int
    words: int
    wrap: str = ""


class Spelled(NamedTuple):
    """A kind member in one language.

    GLSL declares ``elem name<suffix>`` (``vec3 pos[4]``), WGSL ``name: type``; ``value``
    is the type of the whole as a parameter or result (``vec3[4]``, ``array<vec3<f32>,
    4>``); ``align`` its alignment in the language. ``levels`` walk down to ``scalar``
    (its schema name; ``""`` for a record, ``record`` its emitted name, ``record_words`` its
    words). ``wrappers`` are the WGSL structs it needs, innermost first: (name, member type,
    size).
    """

    elem: str
    suffix: str
    type: str
    value: str
    align: int
    levels: Tuple[KLevel, ...]
    scalar: Optional[Scalar]
    record: str
    record_words: int
    wrappers: Tuple[Tuple[str, str, int], ...]


# A candidate spelling, as a small tree: ("scalar", Scalar) | ("vec", Scalar, n)
# | ("mat", Scalar, cols, rows) | ("record", name, Shape) | ("array", child, count)
# | ("wrap", child, size).
Tree = tuple


def named_block(dialect: ShaderDialect, rules: str) -> Optional[str]:
    """The GLSL block layout that holds a type of ``rules``'s bytes, where there is one (its
    own qualifier, or ``ShaderDialect.blocks``); ``None`` for the rule sets std430 holds
    as it holds any (``c``, ``cuda``)."""
    rule_set = RULE_SETS.get(rules)
    return (rule_set.glsl_qualifier if rule_set is not None else None) or \
        dialect.blocks.get(rules)


def own_rules(dialect: ShaderDialect, rules: str) -> RuleSet:
    """The rule set that lays out a struct of a type of ``rules`` in ``dialect``'s language."""
    if dialect.own_rules:
        return RULE_SETS[dialect.own_rules]
    return RULE_SETS[named_block(dialect, rules) or "std430"]


def block_of(dialect: ShaderDialect, rules: str) -> str:
    """Where a type of ``rules`` is read in ``dialect``'s language: the GLSL block layout
    that holds its bytes (``own_rules``), or ``uniform``, WGSL's uniform address space, for
    its uniform rules (``std430``, storage, for the others)."""
    if rules not in RULE_SETS:
        return "std430"
    return "uniform" if rules == dialect.uniform_rules else own_rules(dialect, rules).name


def uniform_stride(dialect: ShaderDialect, rules: str) -> int:
    """What every array stride of a type of ``rules`` must be a multiple of in ``dialect``'s
    language: 16 in WGSL's uniform address space (naga refuses a ``var<uniform>`` holding
    an ``array<u32, 3>``), else 1."""
    if rules == dialect.uniform_rules:
        return RULE_SETS[rules].aggregate_align
    return 1


def _uniform_ok(t: Tree, own: RuleSet, quantum: int) -> bool:
    """Whether every array of spelling ``t`` strides by a multiple of ``quantum``."""
    while t[0] in ("array", "wrap"):
        if t[0] == "array" and _stride(t[1], own) % quantum:
            return False
        t = t[1]
    return True


def _shape(t: Tree, own: RuleSet) -> Shape:
    """The layout the language gives ``t``."""
    kind = t[0]
    if kind == "scalar":
        return scalar_shape(t[1].size)
    if kind == "vec":
        return vector_shape(own, t[1].size, t[2])
    if kind == "mat":
        return matrix_shape(own, t[1].size, t[2], t[3])
    if kind == "record":
        return t[2]
    inner = _shape(t[1], own)
    if kind == "array":
        return array_shape(own, inner, t[2])
    size = -(-t[2] // inner.align) * inner.align  # "wrap": a struct padded to the stride
    return Shape(size, inner.align)


def _stride(t: Tree, own: RuleSet) -> int:
    """The language's stride of an array of ``t``."""
    return array_shape(own, _shape(t, own), 2).stride


def _vector(dialect: ShaderDialect, s: Scalar, n: int, want: Shape, own: RuleSet) -> List[Tree]:
    """Spellings of a vector whose shape must be ``want``."""
    out: List[Tree] = []
    if s.name in dialect.vectors:
        out.append(("vec", s, n))
    out.append(("array", ("scalar", s), n))
    if n == 4 and s.name in dialect.vectors:
        out.append(("array", ("vec", s, 2), 2))
    # The exactly aligned first: a less aligned one is placed by padding, but it cannot make
    # its struct as aligned as the type.
    return sorted((t for t in out if _fits(_shape(t, own), want)),
                  key=lambda t: _shape(t, own).align != want.align)


def _fits(got: Shape, want: Shape) -> bool:
    """Whether a spelling of shape ``got`` holds ``want``: the same size, and an alignment
    that divides the wanted one (explicit padding places it; see the module docstring)."""
    return got.size == want.size and want.align % got.align == 0


def _level(dialect: ShaderDialect, children: List[Tree], count: int, stride: int,
           own: RuleSet) -> List[Tree]:
    """Spellings of an array level of ``count`` elements ``stride`` bytes apart."""
    out: List[Tree] = []
    for c in children:
        if _stride(c, own) == stride:
            out.append(("array", c, count))
        elif dialect.can_wrap:
            shape = _shape(c, own)
            if stride > shape.size and stride % shape.align == 0:
                out.append(("array", ("wrap", c, stride), count))
    return out


def _candidates(member: Member, rules: RuleSet, own: RuleSet, dialect: ShaderDialect,
                leaf: Tree) -> List[Tree]:
    dims = member.dims
    scalar = member.scalar
    # The innermost spellings: a vector (or a matrix's columns and rows), or the element.
    k = len(dims)
    if dims and dims[-1].kind == VECTOR:
        assert scalar is not None
        n = dims[-1].count
        want = vector_shape(rules, scalar.size, n)
        inner = _vector(dialect, scalar, n, want, own)
        k -= 1
        if k and dims[k - 1].kind == MATRIX:
            cols, column_stride = dims[k - 1].count, dims[k - 1].stride
            native: List[Tree] = []
            if scalar.name in dialect.matrices:
                mat = ("mat", scalar, cols, n)
                if _stride(("vec", scalar, n), own) == column_stride and \
                        ("vec", scalar, n) in inner:
                    native.append(mat)
            inner = native + _level(dialect, inner, cols, column_stride, own)
            k -= 1
    else:
        inner = [leaf]
    for d in reversed(dims[:k]):
        assert d.kind == ARRAY
        inner = _level(dialect, inner, d.count, d.stride, own)
    return inner


def _leaf(member: Member, record: str) -> Tree:
    if member.scalar is not None:
        return ("scalar", member.scalar)
    r = member.record
    assert r is not None
    return ("record", record, Shape(r.size, r.align))


class _Speller:
    """Spells one chosen tree in one language and walks it."""

    def __init__(self, dialect: ShaderDialect, own: RuleSet, wrapper_name) -> None:
        self.dialect, self.own, self.wrapper_name = dialect, own, wrapper_name
        self.wrappers: List[Tuple[str, str, int]] = []
        self.levels: List[KLevel] = []

    def scalar(self, s: Scalar) -> str:
        return self.dialect.scalar[s.name]

    def type(self, t: Tree) -> str:
        """The WGSL type of ``t`` (GLSL: of its element, arrays as the suffix)."""
        kind = t[0]
        if kind == "scalar":
            return self.scalar(t[1])
        if kind == "vec":
            return self.dialect.vectors[t[1].name].format(n=t[2])
        if kind == "mat":
            square = self.dialect.square_matrices.get(t[1].name) if t[2] == t[3] else None
            return (square or self.dialect.matrices[t[1].name]).format(c=t[2], r=t[3])
        if kind == "record":
            return t[1]
        if kind == "wrap":
            name = self.wrapper_name(len(self.wrappers))
            self.wrappers.append((name, self.type(t[1]), t[2]))
            return name
        return self.dialect.array.format(elem=self.type(t[1]), n=t[2])

    def walk(self, t: Tree, words: int = 0) -> None:
        """The indexes from ``t`` down to its scalars or records."""
        kind = t[0]
        if kind == "array":
            child = t[1]
            stride = _stride(child, self.own) // WORD
            if child[0] == "wrap":
                self.levels.append(KLevel(t[2], stride, f".{ELEMENT_MEMBER}"))
                self.walk(child[1])
            else:
                self.levels.append(KLevel(t[2], stride))
                self.walk(child)
        elif kind == "vec":
            self.levels.append(KLevel(t[2], max(t[1].size // WORD, 1)))
        elif kind == "mat":
            column = _stride(("vec", t[1], t[3]), self.own) // WORD
            self.levels.append(KLevel(t[2], column))
            self.levels.append(KLevel(t[3], max(t[1].size // WORD, 1)))


def _glsl_parts(t: Tree, speller: _Speller) -> Tuple[str, str]:
    """GLSL's element type and array suffix of ``t`` (``vec3``, ``[4][2]``)."""
    suffix = ""
    while t[0] == "array":
        suffix += f"[{t[2]}]"
        t = t[1]
    return speller.type(t), suffix


def spell_member(member: Member, rules_name: str, dialect: ShaderDialect, record: str = "",
                 wrapper_name=lambda i: f"_sarek_elem{i}") -> Spelled:
    """The spelling of kind member ``member`` of a type of rule set ``rules_name`` in
    ``dialect``'s language (``record``: the emitted name of its record element;
    ``wrapper_name(i)``: the name of the i-th wrapper struct it needs), or ``KindRefused``."""
    rules = RULE_SETS[rules_name]
    own = own_rules(dialect, rules_name)
    leaf = _leaf(member, record)
    want = Shape(member.size, member.align)
    quantum = uniform_stride(dialect, rules_name)
    found = sorted((t for t in _candidates(member, rules, own, dialect, leaf)
                    if _fits(_shape(t, own), want) and _uniform_ok(t, own, quantum)),
                   key=lambda t: _shape(t, own).align != want.align)
    if not found:
        raise KindRefused(_why(member, rules, own, dialect, quantum))
    tree = found[0]
    speller = _Speller(dialect, own, wrapper_name)
    if dialect.array_suffix:
        elem, suffix = _glsl_parts(tree, speller)
        type_ = value = elem + suffix
    else:
        elem, suffix = speller.type(tree), ""
        type_ = value = elem
    speller.walk(tree)
    r = member.record
    return Spelled(elem, suffix, type_, value, _shape(tree, own).align, tuple(speller.levels),
                   member.scalar,
                   record if r is not None else "", r.size // WORD if r is not None else 0,
                   tuple(speller.wrappers))


def _why(member: Member, rules: RuleSet, own: RuleSet, dialect: ShaderDialect,
         quantum: int) -> str:
    """What the member would need, for the refusal."""
    strides = ", ".join(str(d.stride) for d in member.dims if d.kind in (ARRAY, MATRIX))
    where = (f"{dialect.title} lays a struct out by {own.name}" if dialect.own_rules
             else f"a struct of {rules.name} rules sits in a layout({own.name}) block")
    return (f"its {rules.name} layout ({member.size} bytes, aligned to {member.align}"
            + (f", strides {strides}" if strides else "") + f") is none of {dialect.title}'s "
            f"types: {where}" + (f", and its uniform address space takes no array whose "
                                 f"stride is not a multiple of {quantum}" if quantum > 1 else ""))


def sub_word_kind(member: Member) -> bool:
    """A kind member of scalars smaller than a word (``uint8[32]``, ``vec4<uint8>``): GLSL and
    WGSL keep its bytes as words (``shader_views``)."""
    return member.scalar is not None and member.scalar.sub_word



# --- view glue: a kind member as the templates print it ----------------------------------------


def _word_lanes(dialect: ShaderDialect, own: RuleSet, quantum: int) -> int:
    """Words per element of an array of words the language lays out densely and its buffer
    takes: 1 (``uint[K]``), else 4 (``uvec4[K]``: a std140 block strides words by 16, WGSL's
    uniform space refuses them), else 0."""
    from ..ir.types import TUint32

    for n in (1, 4):
        if n > 1 and TUint32.name not in dialect.vectors:
            break
        stride = array_shape(own, scalar_shape(WORD) if n == 1 else
                             vector_shape(own, WORD, n), 2).stride
        if stride == n * WORD and stride % quantum == 0:
            return n
    return 0


def _words_spelling(member: Member, rules_name: str, dialect: ShaderDialect) -> Spelled:
    """A kind member of scalars smaller than a word, kept as the 32-bit words its bytes fill
    (``uint name[K]``, ``array<u32, K>``): the bytes are the rule set's, read with bit
    operations as the packed scalar members are. Where an array of words is out (a std140
    block strides it by 16, WGSL's uniform space refuses it), its words are four-word vectors
    (``uvec4 name[K]``, ``array<vec4<u32>, K>``) if it starts and ends on 16 bytes, and a
    member of one word is that word."""
    from ..ir.types import TUint32

    own = own_rules(dialect, rules_name)
    quantum = uniform_stride(dialect, rules_name)
    lanes = _word_lanes(dialect, own, quantum)
    word = dialect.scalar[TUint32.name]
    if lanes != 1 and member.size == WORD and member.offset % WORD == 0:  # one word: itself
        return Spelled(word, "", word, word, WORD, (), TUint32, "", 0, ())
    if not lanes or member.offset % (lanes * WORD) or member.size % (lanes * WORD):
        where = (f"{dialect.title}'s uniform address space" if quantum > 1
                 else f"a {own.name} block")
        raise KindRefused(
            f"its {member.size} bytes of {member.scalar.name} "  # type: ignore[union-attr]
            f"start or end inside a 32-bit word (or sit in {where}, whose arrays of words "
            f"are 16 bytes a word), and {dialect.title} has no 8- or 16-bit storage "
            f"without extensions: keep such members word-aligned and whole words, or use "
            f"32-bit scalars")
    n = member.size // (lanes * WORD)
    if lanes > 1:
        word = dialect.vectors[TUint32.name].format(n=lanes)
    if dialect.array_suffix:
        elem, suffix, type_ = word, f"[{n}]", f"{word}[{n}]"
    else:
        elem = type_ = dialect.array.format(elem=word, n=n)
        suffix = ""
    levels = (KLevel(n, lanes),) + ((KLevel(lanes, 1),) if lanes > 1 else ())
    return Spelled(elem, suffix, type_, type_, lanes * WORD, levels, TUint32, "", 0, ())


def spell_kind(member: Member, rules_name: str, dialect: ShaderDialect, owner: str,
               record: str = "", wrapper_name=lambda i: f"_sarek_elem{i}") -> Spelled:
    """``spell_member``, or the words of a member of scalars smaller than a word, with a
    refusal that names ``owner``'s member (``SchemaError`` at its location)."""
    from ..errors import SchemaError

    try:
        if sub_word_kind(member):
            return _words_spelling(member, rules_name, dialect)
        return spell_member(member, rules_name, dialect, record, wrapper_name)
    except KindRefused as e:
        raise SchemaError(
            f"in the {dialect.name} output, {owner} member {member.name!r} "
            f"({member.spelling}) cannot be declared: {e}; leave {dialect.name} out of the "
            f"targets for this type", member.location) from None


def walk_of(spelled: Spelled, leaf, unroll_words: int) -> "SWalk":
    """The loops of ``spelled`` over its elements, each the slot ``leaf`` (at word 0); and,
    when its elements hold at most ``unroll_words`` words, each element's designator and
    word, for statements with constant indices (device compilers keep those in registers:
    a payload read in loops built 25 times slower on lavapipe)."""
    from .shader_records import SWalk

    index, terms = "", []
    for i, level in enumerate(spelled.levels):
        index += f"[_sarek_i{i}]{level.wrap}"
        if level.words:
            terms.append(f"_sarek_i{i}" if level.words == 1 else f"_sarek_i{i} * {level.words}u")
    counts = tuple(level.count for level in spelled.levels)
    total = leaf.words
    for n in counts:
        total *= n
    elements: List[Tuple[str, int]] = [("", 0)]
    if total <= unroll_words:
        for level in spelled.levels:
            elements = [(at + f"[{k}]{level.wrap}", word + k * level.words)
                        for at, word in elements for k in range(level.count)]
    return SWalk(counts, index, " + ".join(terms) or "0u", leaf,
                 tuple(elements) if total <= unroll_words else ())


def natural_struct(shapes, own: RuleSet) -> Shape:
    """The layout ``own`` gives a struct of members of ``shapes`` (each the member's end and
    its type's alignment in the language), in order."""
    from ..layout.rules import struct_shape

    end = max((e for e, _ in shapes), default=0)
    return struct_shape(own, end, max((a for _, a in shapes), default=1))
