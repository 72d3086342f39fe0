"""Comparing a shader struct, as its compiler laid it out, with the schema type of its name.

The numbers come from the compilers (``Measured``); the expectation from the layout core's
member model (``SchemaType.members``/``arms``); the spellings from ``reader``. Each
difference is one ``Problem`` at the ``FILE:LINE:COL`` of the member (or of the struct, for a
missing member or a wrong size) that says what the shader has, what the schema says, why
when the cause is a classic one (``vec3`` alignment, ``bool``, ``packed_`` types, a float
where the schema has float64, members in another order; std140 blocks are the GLSL module's)
and what to write instead.

Members named like padding (``_sarek_pad0``, ``_pad``, ``padding1``, ``reserved``) are the
shader's own business and are not compared. A variant is its ``tag`` and its payload
``data`` (offset and size; the payload's spelling is free), and each ``<T>_<Ctor>_arm``
struct (the generated shaders' typed view of one constructor) is checked as ``tag`` plus
``_0``, ``_1``… at the arguments' offsets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from ...ir.schema import Member, SchemaType
from ...targets.naming import PACKED_PREFIX
from ...targets.spellings import SHADER_READ
from .reader import MemberDecl, StructDecl
from .source import GLSL, METAL, WGSL

__all__ = ["Measured", "MeasuredMember", "Problem", "Expected", "expected_structs",
           "compare_struct", "is_padding", "VEC3"]


@dataclass(frozen=True)
class MeasuredMember:
    offset: Optional[int]
    size: Optional[int] = None


@dataclass
class Measured:
    """What the compiler said about one struct: its array stride, alignment, members."""

    size: Optional[int]
    align: Optional[int]
    members: Dict[str, MeasuredMember] = field(default_factory=dict)


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
    #: Names whose spelling is free (a variant's payload words).
    free: Tuple[str, ...] = ()


def expected_structs(types: Sequence[SchemaType]) -> Dict[str, Expected]:
    """C name -> what a struct of that name must be, for ``types`` and their arm structs."""
    from ...targets.naming import arm_struct_name

    out: Dict[str, Expected] = {}
    for t in types:
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


_PADDING = re.compile(r"_*(?:sarek_)?(?:pad|padding|reserved|unused)\w*\Z", re.I)


def is_padding(name: str) -> bool:
    return bool(_PADDING.match(name))


#: Three-component vector spellings (the vec3 alignment trap), per language.
VEC3 = re.compile(r"(?:[biud]?vec3|vec3<\w+>|vec3[fhiu]|(?:simd_|vector_)?(?:float|int|uint|half|"
                  r"short|ushort|char|uchar|bool)3)\Z")

#: language -> schema scalar -> (the spelling to write, the spellings accepted): the read
#: spellings of hand-written shaders (``targets.spellings.SHADER_READ``).
_SCALARS = SHADER_READ

_BYTES = {"float": 4, "double": 8, "f32": 4, "f16": 2, "half": 2, "int": 4, "uint": 4,
          "i32": 4, "u32": 4, "long": 8, "int64_t": 8, "uint64_t": 8, "float32_t": 4,
          "float64_t": 8, "bool": 4, "ulong": 8, "uint32_t": 4, "int32_t": 4, "short": 2,
          "ushort": 2, "int16_t": 2, "uint16_t": 2, "char": 1, "uchar": 1, "int8_t": 1,
          "uint8_t": 1}


def _vectors(lang: str, record: SchemaType) -> Tuple[str, ...]:
    """Vector spellings with the same fields as ``record`` (N float32 or N int32)."""
    kinds = {m.scalar for m in record.members}
    n = len(record.members)
    (only,) = kinds if len(kinds) == 1 else (None,)
    # Shader vectors hold 4-byte floats or signed 4-byte ints (float32, int32), asked of the
    # scalar table rather than named here.
    if only is None or n not in (2, 3, 4) or only.size != 4 or only.kind not in ("float", "int"):
        return ()
    f = only.is_float
    if lang == GLSL:
        return (f"{'' if f else 'i'}vec{n}",)
    if lang == WGSL:
        return (f"vec{n}<{'f32' if f else 'i32'}>", f"vec{n}{'f' if f else 'i'}")
    return (f"{'float' if f else 'int'}{n}", f"packed_{'float' if f else 'int'}{n}")


def spellings(lang: str, m: Member) -> Tuple[str, Tuple[str, ...]]:
    if m.record is not None:
        return m.record.c_name, (m.record.c_name, *_vectors(lang, m.record))
    return _SCALARS[lang][m.scalar.name]  # type: ignore[union-attr]


def _type_problem(lang: str, m: Member, decl: MemberDecl) -> Optional[str]:
    """Why ``decl``'s spelling is wrong for schema member ``m`` (``None`` when it is right)."""
    best, accepted = spellings(lang, m)
    written = decl.type
    if decl.count:
        return (f"is an array ({written} {decl.name}[{decl.count if decl.count > 0 else ''}]), "
                f"the schema's {m.name} a {m.spelling}: write `{_write(lang, best, decl.name)}`")
    if written in accepted:
        return None
    is_bool = m.scalar is not None and m.scalar.kind == "bool"
    write = f"write `{_write(lang, best, decl.name)}`"
    if written == "bool":
        why = {GLSL: "GLSL bool has no memory layout of its own: glslang stores it as a 32-bit "
                     "uint, but SPIR-V translated to Metal (MoltenVK, SPIRV-Cross) makes it 1 "
                     "byte and WGSL refuses it in a buffer",
               WGSL: "bool is not host-shareable in WGSL: naga refuses it in a buffer",
               METAL: "MSL bool is 1 byte"}[lang]
        target = "a Sarek bool is a 4-byte int, 0 or 1" if is_bool else \
            f"the schema has {m.spelling}"
        return f"is bool: {why}; {target}: {write}"
    if m.scalar is not None and m.scalar.is_float and m.scalar.wide and written in ("float", "f32", "float32_t", "half", "f16"):
        where = ("(GLSL double needs the device feature shaderFloat64)" if lang == GLSL else
                 f"({'WGSL' if lang == WGSL else 'MSL'} has no 64-bit float: keep its raw "
                 f"words, low word first, as `generate -t {lang}` does)")
        return (f"is {written}, {_BYTES.get(written, 4)} bytes, where the schema has float64, "
                f"8 bytes: {write} {where}")
    size = _BYTES.get(written)
    have = f"is {written}" + (f", {size} bytes," if size else ",")
    if not accepted:
        # No member type of the language has its size (WGSL's 8- and 16-bit integers):
        # writing the accessor type again would be no advice.
        return (f"{have} where the schema has {m.spelling}, {m.size} bytes: "
                f"{'WGSL' if lang == WGSL else lang} has no "
                f"{m.size}-byte member type; keep it in a 32-bit word with its neighbours "
                f"({PACKED_PREFIX}<N>), as `generate -t {lang}` does")
    return f"{have} where the schema has {m.spelling}, {m.size} bytes: {write}"


def _write(lang: str, type_: str, name: str) -> str:
    return f"{name}: {type_}," if lang == WGSL else f"{type_} {name};"


def compare_struct(lang: str, exp: Expected, decl: StructDecl, got: Measured,
                   tool: str) -> List[Problem]:
    """Every difference between ``decl`` (laid out as ``got`` by ``tool``) and ``exp``."""
    from ...targets.naming import escape

    dialect = _dialect(lang)
    problems: List[Problem] = []

    def say(where: str, message: str) -> None:
        problems.append(Problem(where, exp.c_name, message))

    by_name = {escape(name, dialect): (name, m) for name, m in exp.members}
    declared = [d for d in decl.members if d.name and not is_padding(d.name)]
    seen = {d.name for d in declared}
    vec3_before = ""
    order = [by_name[d.name][0] for d in declared if d.name in by_name]
    if order != [n for n, _ in exp.members if escape(n, dialect) in seen]:
        say(decl.where, f"members in another order than the schema's (shader: "
                        f"{', '.join(order)}; schema: {', '.join(n for n, _ in exp.members)}): "
                        f"declare them in the schema's order")
    for d in declared:
        if d.name not in by_name:
            say(d.where, f"member {d.name} is not in the schema's {exp.c_name}: remove it, "
                         f"name it as padding (_pad…), or add it to the schema")
            continue
        name, m = by_name[d.name]
        parts = []
        typed = _type_problem(lang, m, d) if name not in exp.free else None
        if typed:
            parts.append(typed)
        mm = got.members.get(d.name)
        if mm is not None and mm.offset is not None and mm.offset != m.offset:
            parts.append(f"is at offset {mm.offset} ({tool}), the schema's at {m.offset}")
        if (not typed and mm is not None and mm.size is not None and mm.size != m.size
                and not (name in exp.free and mm.size >= m.size)):
            parts.append(f"is {mm.size} bytes ({tool}), the schema's {m.size}")
        is_vec3 = bool(VEC3.match(d.type))
        if parts and (len(parts) > 1 or not typed or is_vec3):
            if is_vec3:
                best = spellings(lang, m)[0]
                # The spelling's own problem already says what to write: only say why.
                instead = None if typed else "" if VEC3.match(best) else _write(lang, best, d.name)
                parts[-1] += "; " + _vec3_why(lang, d.type, instead)
            elif vec3_before:
                parts[-1] += f" (after the {vec3_before}, see its line)"
            elif d.type.startswith("packed_"):
                parts[-1] += (f"; {d.type} is aligned to its scalar (4 bytes), unlike "
                              f"{d.type[len('packed_'):]}")
        if parts:
            say(d.where, f"{name} " + "; it ".join(parts))
        if is_vec3 and not vec3_before:
            vec3_before = f"{d.type} {d.name}"
    previous = ""
    for name, m in exp.members:
        if escape(name, dialect) not in seen:
            best = spellings(lang, m)[0] if name not in exp.free else "uint"
            place = f" after {previous}" if previous else " first"
            say(decl.where, f"no member {name} ({m.spelling}, offset {m.offset}, {m.size} "
                            f"bytes in the schema): add `{_write(lang, best, escape(name, dialect))}`"
                            f"{place}")
        else:
            previous = escape(name, dialect)
    if got.size is not None and got.size != exp.size:
        why = f" (the {vec3_before} rounds it up)" if vec3_before else ""
        say(decl.where, f"{exp.c_name} is {got.size} bytes in an array ({tool}: its array "
                        f"stride), the schema's {exp.size}{why}")
    if (got.align is not None and exp.align is not None and got.align != exp.align
            and max(got.align, exp.align) > 4):
        why = f" (the {vec3_before} is 16-aligned)" if vec3_before else ""
        say(decl.where, f"{exp.c_name} is aligned to {got.align} bytes ({tool}), the schema's "
                        f"to {exp.align}{why}")
    return problems


def _dialect(lang: str):
    """The target dialect of ``lang`` (how the generated shaders escape reserved names)."""
    from ...targets import dialects

    return {GLSL: dialects.GLSL, WGSL: dialects.WGSL, METAL: dialects.METAL}[lang]


def _vec3_why(lang: str, spelling: str, instead: Optional[str] = "") -> str:
    """Why a 3-component vector moves what follows, and what to write: ``instead``, or the
    language's usual fix when it is ``""``, or nothing when it is ``None``."""
    what = spelling
    if instead is not None and not instead:
        return _vec3_fix(lang, what)
    big = "MSL float3 is 16 bytes big too" if lang == METAL else "like a vec4"
    why = f"{what} is aligned to 16 bytes ({big}), where the schema's member is aligned to 4"
    return why if instead is None else f"{why}: write `{instead}`"


def _vec3_fix(lang: str, what: str) -> str:
    if lang == METAL:
        return (f"{what}: MSL's float3/int3 are 16 bytes and 16-aligned, where the schema has 12 "
                f"bytes aligned to 4: write packed_float3 (or three scalars)")
    if lang == WGSL:
        return (f"{what}: WGSL aligns vec3 to 16 bytes, where the schema's 3 scalars are aligned "
                f"to 4: write three scalars (or a struct of them)")
    return (f"{what}: std430 and std140 align vec3 like vec4 (16 bytes), where the schema's 3 "
            f"scalars are aligned to 4: write three float members (or a struct of them)")
