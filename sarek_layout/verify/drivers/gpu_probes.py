"""Runtime probes for GLSL and WGSL: a compute shader that reads the generated structs and
accessors from a buffer of known words and reports where each value came from.

Shading languages have no ``offsetof``, so the numbers are measured by reading: the input
buffer holds, for every probed type ``T``, a struct ``{ uint a; T t[2]; }``, and Python fills
the whole buffer with its own word indices (word ``i`` holds ``i + 1``). Reading a member
(or calling a constructor argument's accessor) and looking at the bits that come back says
which words it occupies: its offset is its first word minus the element's first word, a
scalar's size is the span of its words, ``T``'s size is where ``t[1]`` starts, and its
alignment is where ``t[0]`` starts after the ``uint``. A record member's size is its record's
size, measured the same way. The layout is never consulted: types come from the struct
declarations and accessor signatures of the files themselves, and the input buffer's size is
an upper bound computed from those declarations.

Scalars smaller than a word (``uint8``, ``float16``, ``int8``, ``int16``, ``uint16``) live
inside 32-bit words, read by accessors, so the word fill cannot place them to the byte. For
those the shader first copies the element and refills every word that can hold them (each
``_sarek_bytes<N>`` member and every word of a variant's ``data``) with patterns of its own: byte ``k`` of the element's word
``w`` holds ``1 + k + 4 (w mod 29)`` in one copy, ``1 + (w / 29) mod 29`` in a second and
``1 + w / 841`` in a third (every byte 1 to 116: no pattern is a NaN as a float16). The
accessor's bits in the three copies give the byte's offset (``k + 4 w``, up to 390 KB into
the element); its size is how many of its bytes the pattern fills.

``probe_program(language, headers, probes)`` writes the shader; ``decode`` turns the output
buffer into one value per probe.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..probes import ALIGN, OFFSET, SIZE, Probe
from ...ir.types import scalars_where
from ...targets.naming import PACKED_PREFIX, PAD_MEMBER, VALUE_PARAM
from . import HeaderSet, ProbeFailed

__all__ = ["lay_out", "ProbeLanguage", "GLSL_PROBE", "WGSL_PROBE", "Program", "probe_program", "decode",
           "parse_structs", "parse_accessors", "PADDING", "SMALL_SCALARS", "below_a_word",
           "PROBES_PER_SHADER", "measure_in_batches"]

#: Explicit padding members and the 32-bit words that hold scalars smaller than a word.
PADDING = PAD_MEMBER
PACKED = PACKED_PREFIX
#: The scalars smaller than a word, which GLSL and WGSL keep inside words.
SMALL_SCALARS = scalars_where(lambda s: s.sub_word)


def lay_out(headers: HeaderSet, folder: str) -> List[str]:
    """Write ``headers.files`` into ``folder``; the ``-I`` flags that find them and the
    headers' own search folders (only ``files`` and ``search_dirs`` are read, so this works
    whatever else a HeaderSet offers)."""
    import os

    for name, text in headers.files:
        with open(os.path.join(folder, os.path.basename(name)), "w", encoding="utf-8") as f:
            f.write(text)
    return [f"-I{folder}", *(f"-I{d}" for d in headers.search_dirs)]


@dataclass(frozen=True)
class ProbeLanguage:
    name: str
    #: Python regexes over comment-free text: struct blocks, and one member line.
    struct_re: "re.Pattern[str]"
    member_re: "re.Pattern[str]"
    accessor_re: "re.Pattern[str]"
    #: Scalar type spelling -> its bits as (first word, last word) given ``x``.
    scalar_bits: Dict[str, str]
    #: Byte size of each scalar spelling (a language fact, for the buffer bound and reflection).
    scalar_size: Dict[str, int]


GLSL_PROBE = ProbeLanguage(
    name="glsl",
    struct_re=re.compile(r"^struct\s+(\w+)\s*\{(.*?)\};", re.S | re.M),
    member_re=re.compile(r"^\s*(\w+)\s+(\w+)\s*(?:\[(\d+)\])?\s*;\s*$", re.M),
    accessor_re=re.compile(rf"^(\w+)\s+(\w+)\((\w+)\s+{VALUE_PARAM}\)\s*$", re.M),
    scalar_bits={"int": "uvec2(uint(_sarek_x))", "uint": "uvec2(_sarek_x)",
                 "float": "uvec2(floatBitsToUint(_sarek_x))", "double": "unpackDouble2x32(_sarek_x)",
                 "int64_t": "unpackUint2x32(uint64_t(_sarek_x))",
                 "uint64_t": "unpackUint2x32(_sarek_x)", "uvec2": "_sarek_x"},
    scalar_size={"int": 4, "uint": 4, "float": 4, "double": 8, "int64_t": 8, "uint64_t": 8,
                 "uvec2": 8},
)

WGSL_PROBE = ProbeLanguage(
    name="wgsl",
    struct_re=re.compile(r"^struct\s+(\w+)\s*\{(.*?)^\}", re.S | re.M),
    member_re=re.compile(r"^\s*(\w+)\s*:\s*(?:array<\s*([\w<>]+)\s*,\s*(\d+)\s*>|([\w<>]+))\s*,?\s*$",
                         re.M),
    accessor_re=re.compile(rf"^fn\s+(\w+)\({VALUE_PARAM}:\s*(\w+)\)\s*->\s*([\w<>]+)\s*\{{", re.M),
    scalar_bits={"i32": "vec2<u32>(bitcast<u32>(_sarek_x))", "u32": "vec2<u32>(_sarek_x)",
                 "f32": "vec2<u32>(bitcast<u32>(_sarek_x))", "vec2<u32>": "_sarek_x"},
    scalar_size={"i32": 4, "u32": 4, "f32": 4, "vec2<u32>": 8},
)

#: A struct: its members as (name, type, array length or 0), in order.
Structs = Dict[str, List[Tuple[str, str, int]]]


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))


def parse_structs(lang: ProbeLanguage, texts: Sequence[str]) -> Structs:
    """Every struct declared in ``texts`` (the generated files' own declarations)."""
    out: Structs = {}
    for text in texts:
        for name, body in lang.struct_re.findall(_strip_comments(text)):
            members = []
            for m in lang.member_re.finditer(body):
                if lang.name == "glsl":
                    members.append((m.group(2), m.group(1), int(m.group(3) or 0)))
                else:
                    array_type, count, plain = m.group(2), m.group(3), m.group(4)
                    members.append((m.group(1), array_type or plain, int(count or 0)))
            out[name] = members
    return out


def parse_accessors(lang: ProbeLanguage, texts: Sequence[str]) -> Dict[str, str]:
    """Accessor name -> its return type (functions taking one ``_sarek_v``)."""
    out: Dict[str, str] = {}
    for text in texts:
        for m in lang.accessor_re.finditer(_strip_comments(text)):
            if lang.name == "glsl":
                out[m.group(2)] = m.group(1)
            else:
                out[m.group(1)] = m.group(3)
    return out


@dataclass(frozen=True)
class Program:
    source: str
    #: Initial bytes of binding 0 and the byte size of binding 1.
    input: bytes
    output_size: int
    count: int


def _ident(type_name: str) -> str:
    return re.sub(r"\W", "_", type_name)


def _size_bound(t: str, lang: ProbeLanguage, structs: Structs, memo: Dict[str, int]) -> int:
    """An upper bound of a type's size from its declaration (8 bytes of slack per member)."""
    if t in lang.scalar_size:
        return 8
    if t not in memo:
        memo[t] = 0  # no recursion in generated files; guards a hostile header
        memo[t] = 8 + sum(8 + max(n, 1) * _size_bound(mt, lang, structs, memo)
                          for _, mt, n in structs.get(t, []))
    return memo[t]


def probe_program(lang: ProbeLanguage, headers: HeaderSet, probes: Sequence[Probe],
                  escape=None, arms: Optional["ArmShapes"] = None) -> Program:
    """The probe shader for ``probes`` over ``headers`` (``escape`` maps a schema name to the
    name the target emits; default: the target dialect's escaping). When ``probes`` is a batch
    of a longer list, ``arms`` is ``arm_shapes`` of that list (a constructor's probes may fall
    in two batches)."""
    from ...targets import dialects
    from ...targets.naming import accessor_name, ctor_of_arm, escape as escape_name, field_accessor_name

    dialect = dialects.GLSL if lang.name == "glsl" else dialects.WGSL
    esc = escape or (lambda n: escape_name(n, dialect))
    texts = [t for _, t in headers.files]
    structs = parse_structs(lang, texts)
    accessors = parse_accessors(lang, texts)

    types: Dict[str, int] = {}  # emitted type name -> probe struct index

    def probe_index(t: str) -> int:
        if t not in structs:
            raise ProbeFailed(lang.name, f"no struct {t} in the generated files")
        return types.setdefault(t, len(types))

    arity, single = arms if arms is not None else arm_shapes(probes)

    def member_type(t: str, name: str) -> Tuple[str, str]:
        for m, mt, n in structs.get(t, []):
            if m == name:
                return mt, ("[0]" if n else "")
        raise ProbeFailed(lang.name, f"struct {t} has no member {name}")

    # Each probe as (expression, its type, kind): kind "offset"/"span" read bits of an
    # expression relative to the element; "size"/"align" use the probe structs.
    bits_needed: Dict[str, None] = {}

    def bits(expr: str, t: str) -> str:
        bits_needed[t] = None
        return f"sarek_probe_bits_{_ident(t)}({expr})"

    outputs: List[str] = []
    patterned: Dict[str, None] = {}  # types whose words the small-scalar patterns refill
    small_bits: Dict[str, None] = {}  # accessor return types read back as bits

    def small(expr_of, t: str, i: int, et: str, quantity: str) -> str:
        """The offset or size of a scalar smaller than a word, read by ``expr_of(element)``
        (an accessor call) on the three patterned copies of the element (module doc)."""
        patterned[t] = None
        small_bits[et] = None
        start = f"sarek_s{i}"
        elem = f"sarek_in.p{i}.t[0]"
        reads = [f"sarek_small_bits_{_ident(et)}({expr_of(f'sarek_pat_{k}_{_ident(t)}({elem}, {start})')})"
                 for k in "ABC"]
        if quantity == OFFSET:
            a, b, c = (f"(({r} & 0xFFu) - 1u)" for r in reads)
            return f"({a} % 4u + 4u * ({a} / 4u + 29u * {b} + 841u * {c}))"
        return " + ".join(f"{_word(lang)}((({reads[0]} >> {8 * k}u) & 0xFFu) != 0u)"
                          for k in range(4))

    for p in probes:
        t = esc(p.c_type)
        i = probe_index(t)
        base, start = f"sarek_in.p{i}", f"sarek_s{i}"
        if p.quantity == SIZE:
            outputs.append(f"({bits(base + '.t[1]', t)}.x - {start}) * 4u")
            continue
        if p.quantity == ALIGN:
            outputs.append(f"({start} - {bits(base + '.a', _word(lang))}.x) * 4u")
            continue
        parts = p.member.split(".")
        elem = base + ".t[0]"
        if p.scalar in SMALL_SCALARS and len(parts) == 1:  # a record field inside a word
            name = esc(field_accessor_name(t, esc(parts[0])))  # as the template: member escaped first
            if name not in accessors:
                raise ProbeFailed(lang.name, f"no accessor {name} in the generated files")
            outputs.append(small(lambda e, name=name: f"{name}({e})", t, i, accessors[name],
                                 p.quantity))
            continue
        if len(parts) == 2 and (p.c_type, parts[1]) in single:
            ctor = parts[1][:-2]
            name = esc(accessor_name(t, ctor, 0, 1))
            if name not in accessors:
                raise ProbeFailed(lang.name, f"no accessor {name} in the generated files")
            expr, et = f"{name}({elem})", accessors[name]
        elif parts[0] == "data" and len(parts) <= 2:
            mt, _ = member_type(t, "data")
            expr, et = elem + ".data[0]", mt
        elif parts[0] == "data" and len(parts) == 3:
            ctor = ctor_of_arm(parts[1]) or parts[1]
            index = int(parts[2].lstrip("_"))
            name = esc(accessor_name(t, ctor, index, arity[(p.c_type, parts[1])]))
            if name not in accessors:
                raise ProbeFailed(lang.name, f"no accessor {name} in the generated files")
            expr, et = f"{name}({elem})", accessors[name]
        else:
            member = esc(parts[0])
            mt, index = member_type(t, member)
            expr, et = f"{elem}.{member}{index}", mt
        if p.scalar in SMALL_SCALARS and parts[0] == "data" and len(parts) >= 2:
            call = expr.split("(", 1)[0]  # an argument inside a payload word: its accessor
            outputs.append(small(lambda e, call=call: f"{call}({e})", t, i, et, p.quantity))
            continue
        if p.quantity == OFFSET:
            outputs.append(f"({bits(expr, et)}.x - {start}) * 4u")
        elif et in structs:  # MEMBER_SIZE of a record: its own measured size
            j = probe_index(et)
            outputs.append(f"({bits(f'sarek_in.p{j}.t[1]', et)}.x - sarek_s{j}) * 4u")
        else:
            outputs.append(f"({bits(expr, et)}.y - {bits(expr, et)}.x + 1u) * 4u")

    memo: Dict[str, int] = {}
    total = sum(8 + 2 * _size_bound(t, lang, structs, memo) for t in types) + 16
    words = total // 4
    data = struct.pack(f"<{words}I", *range(1, words + 1))
    helpers = _small_helpers(lang, structs, patterned, small_bits)
    source = _render(lang, headers, types, structs, [*bits_needed, *types], outputs, helpers)
    return Program(source, data, 4 * max(len(outputs), 1), len(outputs))


#: Bits of a small scalar's accessor value, by the accessor's return type.
# A signed one (int8, int16) comes back sign-extended: every pattern byte is below 128, so
# its sign bit is clear and the bits are the value's.
_SMALL_BITS = {
    "glsl": {"uint": "_sarek_x", "float": "packHalf2x16(vec2(_sarek_x, 0.0))",
             "int": "uint(_sarek_x)"},
    "wgsl": {"u32": "_sarek_x", "f32": "pack2x16float(vec2<f32>(_sarek_x, 0.0))",
             "i32": "bitcast<u32>(_sarek_x)"},
}


def _small_helpers(lang: ProbeLanguage, structs: Structs, patterned, small_bits) -> str:
    """The pattern fills, the patterned copies of each type and the bits readers (module doc)."""
    if not patterned:
        return ""
    out: List[str] = []
    glsl = lang.name == "glsl"
    fills = {"A": "1u + 4u * (_sarek_w % 29u)", "B": "1u + (_sarek_w / 29u) % 29u",
             "C": "1u + _sarek_w / 841u"}
    for k, first in fills.items():
        if k == "A":  # byte k of the word holds first + k
            declare = "uint _sarek_b" if glsl else "let _sarek_b"
            body = (f"{declare} = {first}; return _sarek_b | ((_sarek_b + 1u) << 8u) | "
                    f"((_sarek_b + 2u) << 16u) | ((_sarek_b + 3u) << 24u);")
        else:  # every byte of the word holds first
            body = f"return ({first}) * 0x01010101u;"
        signature = ("uint sarek_lanes_{}(uint _sarek_w)" if glsl
                     else "fn sarek_lanes_{}(_sarek_w: u32) -> u32").format(k)
        out.append(f"{signature} {{ {body} }}\n")
    for t in patterned:
        for k in fills:
            lines = []
            for name, mt, n in structs.get(t, []):
                if name.startswith(PACKED) and not n:
                    lines.append(f"r.{name} = sarek_lanes_{k}(e.{name} - s);")
                elif name == "data" and n:
                    if mt in ("uvec2", "vec2<u32>"):
                        value = (f"uvec2(sarek_lanes_{k}(e.data[j].x - s), sarek_lanes_{k}(e.data[j].y - s))"
                                 if glsl else
                                 f"vec2<u32>(sarek_lanes_{k}(e.data[j].x - s), sarek_lanes_{k}(e.data[j].y - s))")
                    else:
                        value = f"sarek_lanes_{k}(e.data[j] - s)"
                    lines.append(f"for (int j = 0; j < {n}; j++) {{ r.data[j] = {value}; }}" if glsl else
                                 f"for (var j = 0u; j < {n}u; j++) {{ r.data[j] = {value}; }}")
            body = " ".join(lines)
            if glsl:
                out.append(f"{t} sarek_pat_{k}_{_ident(t)}({t} e, uint s) {{ {t} r = e; {body} return r; }}\n")
            else:
                out.append(f"fn sarek_pat_{k}_{_ident(t)}(e: {t}, s: u32) -> {t} {{ var r = e; {body} return r; }}\n")
    for et in small_bits:
        bits = _SMALL_BITS[lang.name].get(et)
        if bits is None:
            raise ProbeFailed(lang.name,
                              f"an accessor of a scalar smaller than a word returns {et}")
        if glsl:
            out.append(f"uint sarek_small_bits_{_ident(et)}({et} _sarek_x) {{ return {bits}; }}\n")
        else:
            out.append(f"fn sarek_small_bits_{_ident(et)}(_sarek_x: {et}) -> u32 {{ return {bits}; }}\n")
    return "".join(out)


#: ``(arity, single)`` of ``arm_shapes``.
ArmShapes = Tuple[Dict[Tuple[str, str], int], "set"]


def arm_shapes(probes: Sequence[Probe]) -> ArmShapes:
    """Each probed arm's number of arguments, by ``(C type, "<Ctor>_v")``, and the arms that
    hold a single argument (``single_arms``)."""
    arity: Dict[Tuple[str, str], int] = {}
    for p in probes:
        parts = p.member.split(".")
        if len(parts) == 3 and parts[0] == "data" and p.quantity == OFFSET:
            key = (p.c_type, parts[1])
            arity[key] = arity.get(key, 0) + 1
    # An arm probed with no arguments below it holds one argument, stored as the arm itself
    # (data.Value_v, SPEC §4): read through that constructor's one accessor.
    return arity, single_arms(probes)


def single_arms(probes: Sequence[Probe]) -> "set":
    """``(C type, "<Ctor>_v")`` of the arms that hold a single argument: probed as
    ``data.<Ctor>_v`` with no ``data.<Ctor>_v._N`` below them."""
    arms, with_args = set(), set()
    for p in probes:
        parts = p.member.split(".")
        if parts[0] == "data" and len(parts) == 2:
            arms.add((p.c_type, parts[1]))
        elif parts[0] == "data" and len(parts) == 3:
            with_args.add((p.c_type, parts[1]))
    return arms - with_args


def _word(lang: ProbeLanguage) -> str:
    return "uint" if lang.name == "glsl" else "u32"


def _ends(members: List[Tuple[str, str, int]]) -> List[Tuple[str, str, int]]:
    real = [m for m in members if not m[0].startswith(PADDING)] or members
    return [real[0], real[-1]]


def _bits_function(lang: ProbeLanguage, t: str, structs: Structs) -> str:
    name = f"sarek_probe_bits_{_ident(t)}"
    if lang.name == "glsl":
        if t in lang.scalar_bits:
            return f"uvec2 {name}({t} _sarek_x) {{ return {lang.scalar_bits[t]}; }}\n"
        (f, ft, fn), (l, lt, ln) = _ends(structs[t])
        return (f"uvec2 {name}({t} _sarek_x) {{ return uvec2(sarek_probe_bits_{_ident(ft)}(_sarek_x.{f}"
                f"{'[0]' if fn else ''}).x, sarek_probe_bits_{_ident(lt)}(_sarek_x.{l}"
                f"{f'[{ln - 1}]' if ln else ''}).y); }}\n")
    if t in lang.scalar_bits:
        return f"fn {name}(_sarek_x: {t}) -> vec2<u32> {{ return {lang.scalar_bits[t]}; }}\n"
    (f, ft, fn), (l, lt, ln) = _ends(structs[t])
    return (f"fn {name}(_sarek_x: {t}) -> vec2<u32> {{ return vec2<u32>(sarek_probe_bits_{_ident(ft)}"
            f"(_sarek_x.{f}{'[0]' if fn else ''}).x, sarek_probe_bits_{_ident(lt)}(_sarek_x.{l}"
            f"{f'[{ln - 1}]' if ln else ''}).y); }}\n")


def _render(lang, headers, types, structs, needed, outputs, helpers: str = "") -> str:
    parts: List[str] = []
    order = _struct_order(needed, structs)
    if lang.name == "glsl":
        parts.append("#version 450\n#extension GL_GOOGLE_include_directive : require\n"
                     "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n")
        parts.append(headers.include_lines())
        for t, i in types.items():
            parts.append(f"struct SarekProbe{i} {{ uint a; {t} t[2]; }};\n")
        parts.append("layout(std430, binding = 0) readonly buffer SarekIn {\n")
        parts.extend(f"    SarekProbe{i} p{i};\n" for i in types.values())
        parts.append("} sarek_in;\nlayout(std430, binding = 1) buffer SarekOut { uint v[]; } sarek_out;\n")
        parts.extend(_bits_function(lang, t, structs) for t in order)
        parts.append(helpers)
        parts.append("layout(local_size_x = 1) in;\nvoid main() {\n")
        for t, i in types.items():
            parts.append(f"    uint sarek_s{i} = sarek_probe_bits_{_ident(t)}(sarek_in.p{i}.t[0]).x;\n")
        parts.extend(f"    sarek_out.v[{k}] = {e};\n" for k, e in enumerate(outputs))
        parts.append("}\n")
        return "".join(parts)
    # WGSL has no #include: the files are concatenated in the order given.
    parts.extend(text + "\n" for _, text in headers.files)
    for t, i in types.items():
        parts.append(f"struct SarekProbe{i} {{ a: u32, t: array<{t}, 2>, }}\n")
    parts.append("struct SarekIn {\n")
    parts.extend(f"    p{i}: SarekProbe{i},\n" for i in types.values())
    parts.append("}\n@group(0) @binding(0) var<storage, read> sarek_in: SarekIn;\n"
                 "@group(0) @binding(1) var<storage, read_write> sarek_out: array<u32>;\n")
    parts.extend(_bits_function(lang, t, structs) for t in order)
    parts.append(helpers)
    parts.append("@compute @workgroup_size(1)\nfn main() {\n")
    for t, i in types.items():
        parts.append(f"    let sarek_s{i} = sarek_probe_bits_{_ident(t)}(sarek_in.p{i}.t[0]).x;\n")
    parts.extend(f"    sarek_out[{k}] = {e};\n" for k, e in enumerate(outputs))
    parts.append("}\n")
    return "".join(parts)


def _struct_order(names: List[str], structs: Structs) -> List[str]:
    """Scalars first, then structs so that each follows those its bits function calls
    (GLSL needs a function declared before its use)."""
    done: Dict[str, None] = {}
    for n in names:
        stack = [n]
        while stack:
            t = stack[-1]
            pending = [mt for _, mt, _ in _ends(structs[t])] if t in structs else []
            pending = [mt for mt in pending if mt not in done and mt != t]
            if pending:
                stack.append(pending[0])
                continue
            stack.pop()
            done.setdefault(t, None)
    return list(done)


def decode(program: Program, output: bytes) -> Tuple[int, ...]:
    """One value per probe, from the output buffer."""
    return struct.unpack(f"<{program.count}I", output[:4 * program.count])


def below_a_word(probes: Sequence[Probe], values: Sequence[int]) -> Tuple[Optional[int], ...]:
    """``values`` with the alignments these probes cannot resolve left unmeasured.

    A type's alignment is read as where it starts after a 32-bit word, and every GLSL or WGSL
    struct is at least 4-aligned (its members are 32-bit at least): a record of uint8 or
    float16 fields, 1- or 2-aligned in C, reads 4. The shader targets promise its offsets,
    size and array stride, which are measured; this 4 says nothing wrong and is not compared.
    """
    return tuple(None if p.quantity == ALIGN and p.expected < 4 and v == 4 else v
                 for p, v in zip(probes, values))


#: Most probes one shader reads. The device compilers' time grows faster than the shader
#: (on lavapipe, one record of 1,024 fields: 5-20 s in one shader, 2,048 fields: 55 s), so a
#: long probe list is read by several shaders of at most this many probes: time linear in
#: the list (512 probes build in about a second).
PROBES_PER_SHADER = 512


def measure_in_batches(lang: ProbeLanguage, headers: HeaderSet, probes: Sequence[Probe],
                       run) -> Tuple[Tuple[Optional[int], ...], int]:
    """One value per probe, and the number of shaders built: ``run(program)`` builds and runs
    each batch's shader and returns its output buffer."""
    values: List[Optional[int]] = []
    shaders = 0
    arms = arm_shapes(probes)
    for first in range(0, max(len(probes), 1), PROBES_PER_SHADER):
        batch = probes[first:first + PROBES_PER_SHADER]
        program = probe_program(lang, headers, batch, arms=arms)
        values.extend(below_a_word(batch, decode(program, run(program))))
        shaders += 1
    return tuple(values), shaders
