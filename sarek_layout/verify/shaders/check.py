"""Comparing a shader struct, as its compiler built it, with the schema type of its name.

Everything compared comes from the compiler (``types.CompiledStruct``: each member's name,
type, offset and size, the struct's array stride and alignment); the expectation from the
layout core's member model (``SchemaType.members``/``arms``); the text (``reader``) only says
where to point (``FILE:LINE:COL``) and which spelling to name when it is what the compiler
built. Each difference is one ``Problem`` that says what the shader has, what the schema
says, why when the cause is a classic one (``vec3`` alignment, ``bool``, ``packed_`` types, a
float where the schema has float64, members in another order; std140 blocks are the GLSL
module's) and what to write instead.

Every member of the schema is compared by name, whatever its name (a host struct's
``_pad0`` too). A member of the shader that the schema does not have is accepted only for
the bytes it occupies: bytes no schema member occupies (padding, ``_sarek_pad<N>``), or the
bytes of schema members smaller than a word that the shader keeps together in one word
instead of declaring them (``_sarek_bytes<N>``, as ``generate`` writes them); anything else
is reported. A variant is its ``tag`` and its payload ``data`` (offset and size; the
payload's type is free), and each ``<T>_<Ctor>_arm`` struct (the generated shaders' typed
view of one constructor) is checked as ``tag`` plus ``_0``, ``_1``… at the arguments'
offsets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ...ir.schema import Member, SchemaType
from ...targets.naming import PACKED_PREFIX
from .reader import StructDecl
from .types import BOOL, CompiledMember, CompiledStruct, GpuType

__all__ = ["Problem", "Expected", "expected_structs", "compare_struct", "VEC3"]


@dataclass(frozen=True)
class Problem:
    where: str
    struct: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.struct}: {self.message}"


@dataclass(frozen=True)
class Expected:
    """A struct the schema asks for: its members as (name, schema member), size, alignment."""

    c_name: str
    schema: SchemaType
    members: Tuple[Tuple[str, Member], ...]
    size: int
    #: ``None`` for an arm struct: a view of the variant's bytes, whose own alignment is
    #: whatever its members need (the variant's buffer sets the element's).
    align: Optional[int]
    #: Names whose type is free (a variant's payload words).
    free: Tuple[str, ...] = ()


def expected_structs(types: Sequence[SchemaType]) -> Dict[str, Expected]:
    """C name -> what a struct of that name must be, for ``types`` and their arm structs."""
    from ...targets.naming import arm_struct_name

    out: Dict[str, Expected] = {}
    for t in types:
        if t.is_enum:
            continue  # a typedef of its base (SPEC §1b): no struct of its name to check
        if t.kind == "record":
            out[t.c_name] = Expected(t.c_name, t, tuple((m.name, m) for m in t.members),
                                     t.size, t.align)
            continue
        tag = t.members[0]
        members: List[Tuple[str, Member]] = [("tag", tag)]
        if t.has_payload:
            data = Member("data", t.payload_offset, t.size - t.payload_offset, t.align, None,
                          None, "payload")
            members.append(("data", data))
        out[t.c_name] = Expected(t.c_name, t, tuple(members), t.size, t.align, ("data",))
        for arm in t.arms:
            if arm.args:
                out[arm_struct_name(t.c_name, arm.name)] = Expected(
                    arm_struct_name(t.c_name, arm.name), t,
                    (("tag", tag), *((a.name, a) for a in arm.args)), t.size, None)
    return out


#: Three-component vector spellings (the vec3 alignment trap), per language.
VEC3 = re.compile(r"(?:[biud]?vec3|vec3<\w+>|vec3[fhiu]|(?:simd_|vector_)?(?:float|int|uint|half|"
                  r"short|ushort|char|uchar|bool)3)\Z")


#: What a free member (a variant's payload) is written as when it is missing: words.
_WORD = GpuType("uint", 32)


@dataclass
class _Check:
    """One comparison in progress: what the schema wants, what the compiler built, where to
    point, and the problems found so far."""

    lang: object  # language.ShadingLanguage
    exp: Expected
    got: CompiledStruct
    decl: Optional[StructDecl]
    tool: str
    problems: List[Problem] = field(default_factory=list)
    #: schema member names held in a word of the shader (not declared by name).
    held: Set[str] = field(default_factory=set)
    vec3_before: str = ""
    #: What to write instead of that 3-vector, when the schema has a record there.
    vec3_instead: str = ""

    def __post_init__(self) -> None:
        from ...targets.naming import escape

        #: The rule set the struct's schema type is laid out by (SPEC §1b).
        self.rules = self.exp.schema.rules
        dialect = self.lang.dialect  # type: ignore[attr-defined]
        self.by_name = {escape(name, dialect): (name, m) for name, m in self.exp.members}
        self.escaped = {name: esc for esc, (name, _) in self.by_name.items()}
        self.declared = {m.name for m in self.got.members}
        self.where = self.decl.where if self.decl is not None else ""

    def say(self, where: str, message: str) -> None:
        self.problems.append(Problem(where or self.where, self.exp.c_name, message))

    def place(self, member: str) -> str:
        if self.decl is not None:
            for d in self.decl.members:
                if d.name == member:
                    return d.where
        return self.where

    def written(self, member: str) -> str:
        if self.decl is not None:
            for d in self.decl.members:
                if d.name == member and not d.count:
                    return d.type
        return ""


def compare_struct(lang, exp: Expected, got: CompiledStruct, decl: Optional[StructDecl],
                   tool: str) -> List[Problem]:
    """Every difference between ``got`` (what ``tool`` built; ``decl`` its declaration as
    written, for places) and ``exp``."""
    c = _Check(lang, exp, got, decl, tool)
    _order(c)
    for cm in got.members:
        if cm.name in c.by_name:
            _member(c, cm)
        else:
            _extra(c, cm)
    _missing(c)
    _size_and_align(c)
    return c.problems


def _order(c: _Check) -> None:
    order = [c.by_name[m.name][0] for m in c.got.members if m.name in c.by_name]
    if order != [n for n, _ in c.exp.members if c.escaped[n] in c.declared]:
        c.say(c.where, f"members in another order than the schema's (shader: "
                       f"{', '.join(order)}; schema: {', '.join(n for n, _ in c.exp.members)}): "
                       f"declare them in the schema's order")


def _shown(c: _Check, cm: CompiledMember) -> Tuple[str, str]:
    """How to name ``cm``'s type (the spelling written when it is what the compiler built)
    and, when the spelling written is not, a note saying so."""
    written = c.written(cm.name)
    if written and (c.lang.compiles_to(written, cm.type) or c.lang.parse(written) is None
                    and cm.type.kind == "struct" and cm.type.name == written):
        return written, ""
    shown = c.lang.spell(cm.type)
    if written and written != shown:
        return shown, f" (`{written}` is {shown} here)"
    return shown, ""


def _type_problem(c: _Check, m: Member, cm: CompiledMember) -> Optional[str]:
    """Why ``cm``'s compiled type is wrong for schema member ``m`` (``None`` when it is right)."""
    lang, t = c.lang, cm.type
    shown, note = _shown(c, cm)
    best = _atomic(lang, m) if t.kind == "atomic" else ""
    best = best or lang.best(m, c.rules, c.exp.c_name)
    write = f"write `{lang.write(best, cm.name)}`"
    if t.kind == "array" and t not in lang.accepted(m):  # SPEC §1b's arrays (HLSL) match
        return (f"is an array ({shown}){note}, the schema's {m.name} a {m.spelling}: {write}")
    if t in lang.accepted(m):
        if shown == BOOL:  # compiled as a word, but spelled bool: GLSL's
            return f"is bool: {lang.bool_why}; a Sarek bool is a 4-byte int, 0 or 1: {write}"
        return None
    size = cm.size if cm.size is not None else t.bytes()
    have = f"is {shown}{note}" + (f", {size} bytes," if size else ",")
    if t.kind == BOOL or shown == BOOL:
        target = ("a Sarek bool is a 4-byte int, 0 or 1" if m.scalar is not None
                  and m.scalar.kind == BOOL else f"the schema has {m.spelling}")
        return f"is bool{note}: {lang.bool_why}; {target}: {write}"
    if (m.scalar is not None and m.scalar.is_float and m.scalar.size == 8
            and t.scalar_of().kind == "float" and t.is_scalar):
        return (f"{have} where the schema has float64, 8 bytes: {write} {lang.float64_note}")
    if m.scalar is not None and not lang.accepted(m):
        return f"{have} where the schema has {m.spelling}, {m.size} bytes: {lang.no_member_type(m)}"
    return f"{have} where the schema has {m.spelling}, {m.size} bytes: {write}"


def _strides(c: _Check, m: Member, cm: CompiledMember) -> List[str]:
    """How ``cm``'s array, matrix and vector levels differ from the schema's (SPEC §1b):
    each level's stride as the compiler laid it out."""
    out = []
    for k, (d, (count, stride)) in enumerate(zip(m.dims, cm.levels)):
        if stride is not None and count == d.count and stride != d.stride:
            what = {"array": "an element", "matrix": "a column", "vector": "a component"}[d.kind]
            at = m.name + "[0]" * k
            out.append(f"has {what} stride of {stride} bytes at {at} ({c.tool}), the "
                       f"schema's {d.stride} ({c.rules} rules)")
    return out


def _atomic(lang, m: Member) -> str:
    """The atomic spelling of ``m``'s type (``""``: none): a member the shader made atomic
    stays atomic (its layout is its scalar's), with the schema's integer."""
    for t in lang.accepted(m):
        if t.kind == "atomic":
            return lang.spell(t)
    return ""


def _member(c: _Check, cm: CompiledMember) -> None:
    """A member the schema has: its type, offset and size."""
    name, m = c.by_name[cm.name]
    parts = []
    typed = _type_problem(c, m, cm) if name not in c.exp.free else None
    if typed:
        parts.append(typed)
    if cm.offset is not None and cm.offset != m.offset:
        parts.append(f"is at offset {cm.offset} ({c.tool}), the schema's at {m.offset}")
    if (not typed and cm.size is not None and cm.size != m.size
            and not (name in c.exp.free and cm.size >= m.size)):
        parts.append(f"is {cm.size} bytes ({c.tool}), the schema's {m.size}")
    if not typed and m.dims and name not in c.exp.free:
        parts += _strides(c, m, cm)
    shown = _shown(c, cm)[0]
    is_vec3 = bool(VEC3.match(shown)) and c.lang.vec3_trap
    if parts and (len(parts) > 1 or not typed or is_vec3):
        parts[-1] += _why(c, m, shown, typed, is_vec3)
    if parts:
        c.say(c.place(cm.name), f"{name} " + "; it ".join(parts))
    # A 3-vector where the schema has one too, laid out alike, explains nothing after it.
    if is_vec3 and not c.vec3_before and (parts or not m.dims):
        c.vec3_before = f"{shown} {cm.name}"
        if m.record is not None:
            c.vec3_instead = f": write `{c.lang.write(c.lang.best(m, c.rules, c.exp.c_name), cm.name)}`" + \
                _reserved(c.lang, m.record.c_name)


def _reserved(lang, c_name: str) -> str:
    """Why a schema type is written under another name here (``""``: it is not)."""
    written = lang.type_name(c_name)
    if written == c_name:
        return ""
    return (f" ({lang.title} reserves {c_name} for its own type: the schema's {c_name} is "
            f"the struct {written}, as `generate -t {lang.name}` writes it)")


def _why(c: _Check, m: Member, shown: str, typed: Optional[str], is_vec3: bool) -> str:
    """The classic cause of an offset or size difference, when there is one."""
    if is_vec3 and m.dims and m.dims[-1].kind == "vector" and m.align >= 16:
        # The schema's 3-vector is 16-aligned too (std430, std140): the bytes differ, as the
        # language's 3-vector is 16 bytes where the rule set's ends at 12.
        write = c.lang.write(c.lang.best(m, c.rules, c.exp.c_name), c.escaped.get(m.name, m.name))
        return (f"; {shown} takes 16 bytes, where the schema's {m.spelling} is {m.size}: the "
                f"member after it starts in its last 4 bytes ({c.rules} rules): write `{write}`")
    if is_vec3:
        best = c.lang.best(m, c.rules, c.exp.c_name)
        # The spelling's own problem already says what to write: only say why.
        instead: Optional[str] = (None if typed else "" if VEC3.match(best)
                                  else c.lang.write(best, c.escaped.get(m.name, m.name)))
        reserved = _reserved(c.lang, m.record.c_name) if m.record is not None and instead else ""
        return "; " + _vec3_why(c.lang, shown, instead, m.align) + reserved
    if c.vec3_before:
        return f" (after the {c.vec3_before}, see its line)"
    if shown.startswith("packed_"):
        return (f"; {shown} is aligned to its scalar (4 bytes), unlike "
                f"{shown[len('packed_'):]}")
    return ""


def _extra(c: _Check, cm: CompiledMember) -> None:
    """A member the schema does not have: accepted for what occupies its bytes (module
    docstring), reported otherwise."""
    if cm.offset is not None and cm.size is not None:
        end = cm.offset + cm.size
        under = [(n, m) for n, m in c.exp.members if m.offset < end and cm.offset < m.end]
        if not under:
            return  # padding: bytes no schema member occupies
        inside = all(cm.offset <= m.offset and m.end <= end for _, m in under)
        if inside and all(c.escaped[n] not in c.declared and m.size < 4 for n, m in under):
            c.held.update(n for n, _ in under)  # a word holding members smaller than a word
            return
        at = f" (offset {cm.offset}, {cm.size} bytes: where the schema has " \
             f"{', '.join(n for n, _ in under)})"
    else:
        at = ""
    c.say(c.place(cm.name), f"member {cm.name}{at} is not in the schema's {c.exp.c_name}: "
                            f"remove it, or add it to the schema")


def _missing(c: _Check) -> None:
    previous = ""
    for name, m in c.exp.members:
        esc = c.escaped[name]
        if esc in c.declared or name in c.held:
            previous = esc if esc in c.declared else previous
            continue
        best = c.lang.best(m, c.rules, c.exp.c_name) if name not in c.exp.free else c.lang.spell(_WORD)
        if m.scalar is not None and m.scalar.size < 4 and not c.lang.accepted(m):
            how = f"keep it in a 32-bit word with its neighbours ({PACKED_PREFIX}<N>)"
        else:
            how = f"add `{c.lang.write(best, esc)}`" + (f" after {previous}" if previous
                                                         else " first")
        c.say(c.where, f"no member {name} ({m.spelling}, offset {m.offset}, {m.size} bytes in "
                       f"the schema): {how}")


def _size_and_align(c: _Check) -> None:
    got, exp = c.got, c.exp
    if got.size is not None and got.size != exp.size:
        why = f" (the {c.vec3_before} rounds it up){c.vec3_instead}" if c.vec3_before else ""
        c.say(c.where, f"{exp.c_name} is {got.size} bytes in an array ({c.tool}: its array "
                       f"stride), the schema's {exp.size}{why}")
    if (got.align is not None and exp.align is not None and got.align != exp.align
            and max(got.align, exp.align) > 4):
        why = f" (the {c.vec3_before} is 16-aligned){c.vec3_instead}" if c.vec3_before else ""
        c.say(c.where, f"{exp.c_name} is aligned to {got.align} bytes ({c.tool}), the schema's "
                       f"to {exp.align}{why}")


def _vec3_why(lang, spelling: str, instead: Optional[str] = "", align: int = 4) -> str:
    """Why a 3-component vector moves what follows, and what to write: ``instead``, or the
    language's usual fix when it is ``""``, or nothing when it is ``None``."""
    if instead is not None and not instead:
        return lang.vec3_fix(spelling)
    why = (f"{spelling} is aligned to 16 bytes ({lang.vec3_big}), where the schema's member "
           f"is aligned to {align}")
    return why if instead is None else f"{why}: write `{instead}`"

