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
buffer into one value per probe. The language is a ``shaders.language.ShadingLanguage``
(``GLSL_PROBE``, ``WGSL_PROBE``): it reads the generated files' structs and accessors, and
spells every line of the shader (``runtime_probe``, ``function``, ``local``, ``loop``).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..probes import ALIGN, OFFSET, SIZE, Probe
from ..shaders.glsl import GLSL
from ..shaders.language import ShadingLanguage
from ..shaders.reader import read_text
from ..shaders.types import GpuType, bound
from ..shaders.wgsl import WGSL
from ...ir.types import scalars_where
from ...targets.naming import PACKED_PREFIX, PAD_MEMBER
from . import HeaderSet, ProbeFailed

__all__ = ["lay_out", "GLSL_PROBE", "WGSL_PROBE", "Program", "probe_program", "decode",
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


#: The languages the runtime probes are written in (``shaders.language``).
GLSL_PROBE: ShadingLanguage = GLSL
WGSL_PROBE: ShadingLanguage = WGSL

#: A struct: its members as (name, type, array length or 0), in order.
Structs = Dict[str, List[Tuple[str, str, int]]]


def parse_structs(lang: ShadingLanguage, texts: Sequence[str]) -> Structs:
    """Every struct declared in ``texts`` (the generated files' own declarations), read by
    the language's struct reader (``shaders.reader``)."""
    out: Structs = {}
    for text in texts:
        for d in read_text(text, lang):
            if d.kind == "struct":
                out[d.name] = [(m.name, *lang.element(m)) for m in d.members]
    return out


def parse_accessors(lang: ShadingLanguage, texts: Sequence[str]) -> Dict[str, str]:
    """Accessor name -> its return type (functions taking one ``_sarek_v``)."""
    from ..shaders.source import strip_comments

    out: Dict[str, str] = {}
    for text in texts:
        out.update(lang.accessors(strip_comments(text, lang)))
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


def _gpu_type(lang: ShadingLanguage, t: str, n: int = 0) -> GpuType:
    elem = lang.parse(t) or GpuType("struct", name=t)
    return GpuType("array", count=n, elem=elem) if n else elem


def _size_bound(lang: ShadingLanguage, types, structs: Structs) -> int:
    """An upper bound of the bytes of a ``SarekProbe<N>`` of each of ``types``
    (``shaders.types.bound``: one bound for every probe of a shading language)."""
    members = {name: {m: _gpu_type(lang, mt, n) for m, mt, n in ms} for name, ms in structs.items()}
    memo: Dict[str, int] = {}
    return sum(8 + 2 * max(bound(GpuType("struct", name=t), members, memo), 16) for t in types)


def probe_program(lang: ShadingLanguage, headers: HeaderSet, probes: Sequence[Probe],
                  escape=None, arms: Optional["ArmShapes"] = None) -> Program:
    """The probe shader for ``probes`` over ``headers`` (``escape`` maps a schema name to the
    name the target emits; default: the target dialect's escaping). When ``probes`` is a batch
    of a longer list, ``arms`` is ``arm_shapes`` of that list (a constructor's probes may fall
    in two batches)."""
    from ...targets.naming import accessor_name, ctor_of_arm, escape as escape_name, field_accessor_name

    esc = escape or (lambda n: escape_name(n, lang.dialect))
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
        return " + ".join(f"{lang.word}((({reads[0]} >> {8 * k}u) & 0xFFu) != 0u)"
                          for k in range(4))

    for p in probes:
        t = esc(p.c_type)
        i = probe_index(t)
        base, start = f"sarek_in.p{i}", f"sarek_s{i}"
        if p.quantity == SIZE:
            outputs.append(f"({bits(base + '.t[1]', t)}.x - {start}) * 4u")
            continue
        if p.quantity == ALIGN:
            outputs.append(f"({start} - {bits(base + '.a', lang.word)}.x) * 4u")
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

    words = (_size_bound(lang, types, structs) + 16) // 4
    data = struct.pack(f"<{words}I", *range(1, words + 1))
    helpers = _small_helpers(lang, structs, patterned, small_bits)
    source = _render(lang, headers, types, structs, [*bits_needed, *types], outputs, helpers)
    return Program(source, data, 4 * max(len(outputs), 1), len(outputs))


_FILLS = {"A": "1u + 4u * (_sarek_w % 29u)", "B": "1u + (_sarek_w / 29u) % 29u",
          "C": "1u + _sarek_w / 841u"}


def _small_helpers(lang: ShadingLanguage, structs: Structs, patterned, small_bits) -> str:
    """The pattern fills, the patterned copies of each type and the bits readers (module doc)."""
    if not patterned:
        return ""
    w, pair = lang.word, lang.pair
    out: List[str] = []
    for k, first in _FILLS.items():
        if k == "A":  # byte k of the word holds first + k
            body = (f"{lang.local('_sarek_b', w, first)} return _sarek_b | ((_sarek_b + 1u) "
                    f"<< 8u) | ((_sarek_b + 2u) << 16u) | ((_sarek_b + 3u) << 24u);")
        else:  # every byte of the word holds first
            body = f"return ({first}) * 0x01010101u;"
        out.append(lang.function(w, f"sarek_lanes_{k}", (("_sarek_w", w),), body))
    for t in patterned:
        for k in _FILLS:
            lines = []
            for name, mt, n in structs.get(t, []):
                if name.startswith(PACKED) and not n:
                    lines.append(f"r.{name} = sarek_lanes_{k}(e.{name} - s);")
                elif name == "data" and n:
                    value = (f"{pair}(sarek_lanes_{k}(e.data[j].x - s), sarek_lanes_{k}"
                             f"(e.data[j].y - s))" if mt == pair else
                             f"sarek_lanes_{k}(e.data[j] - s)")
                    lines.append(lang.loop(n, f"r.data[j] = {value};"))
            body = f"{lang.local('r', t, 'e', mutable=True)} {' '.join(lines)} return r;"
            out.append(lang.function(t, f"sarek_pat_{k}_{_ident(t)}", (("e", t), ("s", w)), body))
    for et in small_bits:
        bits = lang.small_bits.get(et)
        if bits is None:
            raise ProbeFailed(lang.name,
                              f"an accessor of a scalar smaller than a word returns {et}")
        out.append(lang.function(w, f"sarek_small_bits_{_ident(et)}", (("_sarek_x", et),),
                                 f"return {bits};"))
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


def _ends(members: List[Tuple[str, str, int]]) -> List[Tuple[str, str, int]]:
    real = [m for m in members if not m[0].startswith(PADDING)] or members
    return [real[0], real[-1]]


def _bits_function(lang: ShadingLanguage, t: str, structs: Structs) -> str:
    name = f"sarek_probe_bits_{_ident(t)}"
    if t in lang.scalar_bits:
        return lang.function(lang.pair, name, (("_sarek_x", t),),
                             f"return {lang.scalar_bits[t]};")
    (f, ft, fn), (l, lt, ln) = _ends(structs[t])
    return lang.function(lang.pair, name, (("_sarek_x", t),),
                         f"return {lang.pair}(sarek_probe_bits_{_ident(ft)}(_sarek_x.{f}"
                         f"{'[0]' if fn else ''}).x, sarek_probe_bits_{_ident(lt)}(_sarek_x.{l}"
                         f"{f'[{ln - 1}]' if ln else ''}).y);")


def _render(lang: ShadingLanguage, headers, types, structs, needed, outputs,
            helpers: str = "") -> str:
    functions = "".join(_bits_function(lang, t, structs)
                        for t in _struct_order(needed, structs)) + helpers
    lines = [lang.local(f"sarek_s{i}", lang.word,
                        f"sarek_probe_bits_{_ident(t)}(sarek_in.p{i}.t[0]).x")
             for t, i in types.items()]
    lines += [f"{lang.output}[{k}] = {e};" for k, e in enumerate(outputs)]
    return lang.runtime_probe(headers, types, functions, tuple(lines))


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


def measure_in_batches(lang: ShadingLanguage, headers: HeaderSet, probes: Sequence[Probe],
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
