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
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..probes import ALIGN, OFFSET, SIZE, STRIDE, Probe
from ..shaders.glsl import GLSL
from ..shaders.language import ShadingLanguage
from ..shaders.reader import read_text
from ..shaders.types import GpuType, bound
from ..shaders.wgsl import WGSL
from ...ir.types import scalars_where
from ...targets.naming import (PACKED_PREFIX, PAD_MEMBER, accessor_name, ctor_of_arm,
                               escape as escape_name, field_accessor_name)
from . import HeaderSet, ProbeFailed
from .gpu_reads import Reader, Typed, ident, split_member, typed_structs

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
    #: Initial bytes of the further input bindings (2, 3…: GLSL's std140 and scalar blocks).
    more: Tuple[bytes, ...] = ()
    #: The probes the program does not read (their value is ``None``): a scalar smaller than
    #: a word inside a word's array (its stride), an enum (no type of its name), a type too
    #: large for a probe buffer.
    unmeasured: Tuple[int, ...] = ()

    def buffers(self) -> List[Union[bytes, int]]:
        """Every binding's initial bytes (or size), by binding number."""
        return [self.input, self.output_size, *self.more]


def _ident(type_name: str) -> str:
    return ident(type_name)


#: The largest input buffer of one probe shader (Mesa's lavapipe and wgpu bind at most 128 MiB
#: of a storage buffer): a type whose two copies do not fit is left to the static toolchains.
MAX_PROBE_BYTES = 64 << 20
#: The most of a uniform buffer one binding may hold (WebGPU's default limit, wgpu's).
MAX_UNIFORM_BYTES = 64 << 10
#: What a probe struct of WGSL's uniform space adds: its array and itself start at a
#: multiple of 16 (``runtime_probe``).
UNIFORM_MARGIN = 32


class _Unmeasured(Exception):
    """A probe the program cannot read: its value stays ``None``."""


class _Writer:
    """One probe program being written: its probe structs, by layout, and its outputs."""

    def __init__(self, lang: ShadingLanguage, typed: Typed) -> None:
        self.lang, self.typed = lang, typed
        self.reader = Reader(lang, typed)
        self.members = {name: dict(ms) for name, ms in typed.items()}
        #: probe type (a struct, or an array element's spelling) -> (index, layout).
        self.types: Dict[str, Tuple[int, str]] = {}
        self.gpu: Dict[str, GpuType] = {}
        self.memo: Dict[str, int] = {}
        self.bytes: Dict[str, int] = {}
        #: Types of the uniform layout read in storage instead (``index``).
        self.moved: "set" = set()

    def index(self, t: str, layout: str, gpu: Optional[GpuType] = None) -> int:
        """The probe struct ``{ uint a; t t[2]; }`` of type ``t``, in a block of ``layout``."""
        layout = layout if layout in self.lang.inputs else "std430"  # WGSL: its own rules
        if t not in self.types:
            g = gpu or GpuType("struct", name=t)
            if layout == "uniform" and _two_row_matrix(g, self.members, set()):
                # wgpu 0.32 on lavapipe loses the device building a shader whose uniform
                # struct holds a matCx2 inside a struct member (measured; in storage it
                # reads them): such a type is read in storage, at the same offsets, and
                # its alignment, which is the uniform space's, is not read (``moved``).
                layout = "std430"
                self.moved.add(t)
            if g.kind == "struct" and t not in self.typed:
                raise ProbeFailed(self.lang.name, f"no struct {t} in the generated files")
            size = 12 + 2 * max(bound(g, self.members, self.memo), 16)
            limit = MAX_PROBE_BYTES
            if layout == "uniform":
                size, limit = size + UNIFORM_MARGIN, MAX_UNIFORM_BYTES
            if bound(g, self.members, self.memo) < 0 or \
                    self.bytes.get(layout, 0) + size > limit:
                raise _Unmeasured(t)
            self.bytes[layout] = self.bytes.get(layout, 0) + size
            self.types[t] = (len(self.types), layout)
            self.gpu[t] = g
        return self.types[t][0]

    def base(self, t: str) -> str:
        """The probe struct of type ``t`` in its input buffer (``index`` made it)."""
        i, layout = self.types[t]
        return f"{self.lang.inputs.get(layout, self.lang.inputs['std430'])}.p{i}"

    def first(self, expr: str, t: GpuType) -> str:
        return self.reader.word(expr, t)

    def size_of(self, t: str, layout: str, gpu: Optional[GpuType] = None) -> str:
        """Bytes of ``t``: where the ``uint`` after an array of two starts, from its second
        element (the scalar block layout does not round a struct's size up to the stride,
        nor an array's to its count times its stride)."""
        self.index(t, layout, gpu)
        base = self.base(t)
        return (f"({self.first(base + '.z', GpuType('uint', 32))} - "
                f"{self.first(base + '.t[1]', self.gpu[t])}) * 4u")

    def stride_of(self, t: str, layout: str, gpu: GpuType) -> str:
        """The stride of an array of ``t``, as the device lays one out."""
        j = self.index(t, layout, gpu)
        return f"({self.first(self.base(t) + '.t[1]', self.gpu[t])} - sarek_s{j}) * 4u"

    def stride(self, expr: str, t: GpuType, layout: str) -> str:
        """The stride of the array (or the matrix's columns) ``expr``: where its second
        element starts, or, of an array of one, the stride of its element's own array."""
        elem = t.elem
        assert elem is not None
        if t.count >= 2:
            return f"({self.first(expr + '[1]', elem)} - {self.first(expr + '[0]', elem)}) * 4u"
        return self.stride_of(self.lang.spell(elem) if elem.kind != "struct" else elem.name,
                              layout, elem)

    def quantity(self, p: Probe, expr: str, t: GpuType, start: str, layout: str) -> str:
        """Probe ``p`` of the value ``expr`` of type ``t`` (its element is at ``start``)."""
        if p.quantity == OFFSET:
            return f"({self.first(expr, t)} - {start}) * 4u"
        if t.kind == "struct":  # a record: its own measured size
            return self.size_of(t.name, layout)
        if t.kind in ("array", "matrix"):  # what such an array occupies, measured likewise
            return self.size_of(self.lang.spell(t), layout, t)
        return (f"({self.reader.word(expr, t, last=True)} - {self.first(expr, t)} + 1u) * 4u")


def probe_program(lang: ShadingLanguage, headers: HeaderSet, probes: Sequence[Probe],
                  escape=None, arms: Optional["ArmShapes"] = None) -> Program:
    """The probe shader for ``probes`` over ``headers`` (``escape`` maps a schema name to the
    name the target emits; default: the target dialect's escaping). When ``probes`` is a batch
    of a longer list, ``arms`` is ``arm_shapes`` of that list (a constructor's probes may fall
    in two batches)."""
    esc = escape or (lambda n: escape_name(n, lang.dialect))
    texts = [t for _, t in headers.files]
    structs = parse_structs(lang, texts)
    accessors = parse_accessors(lang, texts)
    w = _Writer(lang, typed_structs(lang, texts))
    arity, single = arms if arms is not None else arm_shapes(probes)
    outputs: List[str] = []
    unmeasured: List[int] = []
    patterned: Dict[str, None] = {}  # types whose words the small-scalar patterns refill
    small_bits: Dict[str, None] = {}  # accessor return types read back as bits

    def small(expr_of, t: str, i: int, et: str, quantity: str) -> str:
        """The offset or size of a scalar smaller than a word, read by ``expr_of(element)``
        (an accessor call) on the three patterned copies of the element (module doc)."""
        patterned[t] = None
        small_bits[et] = None
        start = f"sarek_s{i}"
        elem = f"{w.base(t)}.t[0]"
        reads = [f"sarek_small_bits_{_ident(et)}({expr_of(f'sarek_pat_{k}_{_ident(t)}({elem}, {start})')})"
                 for k in "ABC"]
        if quantity == OFFSET:
            a, b, c = (f"(({r} & 0xFFu) - 1u)" for r in reads)
            return f"({a} % 4u + 4u * ({a} / 4u + 29u * {b} + 841u * {c}))"
        if lang.type_of(et, w.typed).kind == "array":  # words of packed scalars: every byte
            return f"sarek_small_size_{_ident(et)}({expr_of(f'sarek_pat_A_{_ident(t)}({elem}, {start})')})"
        return " + ".join(f"{lang.word}((({reads[0]} >> {8 * k}u) & 0xFFu) != 0u)"
                          for k in range(4))

    def accessor(name: str) -> Tuple[str, GpuType]:
        if name not in accessors:
            raise ProbeFailed(lang.name, f"no accessor {name} in the generated files")
        return name, lang.type_of(accessors[name], w.typed)

    def read(p: Probe) -> str:
        """The expression of probe ``p`` (``_Unmeasured``: none)."""
        if p.enum:
            raise _Unmeasured(p.c_type)  # an enum: constants, no type of its name
        t = esc(p.c_type)
        layout = _layout(lang, p)
        i = w.index(t, layout)
        base, start = w.base(t), f"sarek_s{i}"
        if p.quantity == SIZE:
            return w.size_of(t, layout)
        if p.quantity == ALIGN:
            if t in w.moved:
                raise _Unmeasured(t)
            return f"({start} - {w.first(base + '.a', GpuType('uint', 32))}) * 4u"
        parts, steps = split_member(p.member)
        elem = base + ".t[0]"
        declared = w.reader.member(t, esc(parts[0])) if len(parts) == 1 else None
        if p.scalar in SMALL_SCALARS and (p.quantity == STRIDE or declared is None and
                                          steps):
            raise _Unmeasured(p.member)  # bytes inside words: no word has the stride
        if p.scalar in SMALL_SCALARS and len(parts) == 1 and declared is None:
            # a record field inside a word: its accessor (as the template: member escaped first)
            name, _ = accessor(esc(field_accessor_name(t, esc(parts[0]))))
            return small(lambda e, name=name: f"{name}({e})", t, i, accessors[name],
                         p.quantity)
        if len(parts) == 2 and (p.c_type, parts[1]) in single:
            name, et = accessor(esc(accessor_name(t, parts[1][:-2], 0, 1)))
            expr = f"{name}({elem})"
        elif parts[0] == "data" and len(parts) <= 2:
            expr, et = elem + ".data[0]", w.reader.member(t, "data")  # type: ignore[assignment]
            et = et.elem if et is not None and et.kind == "array" else et
        elif parts[0] == "data" and len(parts) == 3:
            ctor = ctor_of_arm(parts[1]) or parts[1]
            index = int(parts[2].lstrip("_"))
            name, et = accessor(esc(accessor_name(t, ctor, index, arity[(p.c_type, parts[1])])))
            expr = f"{name}({elem})"
        else:
            if declared is None:
                raise ProbeFailed(lang.name, f"struct {t} has no member {esc(parts[0])}")
            expr, et = f"{elem}.{esc(parts[0])}", declared
        if et is None:
            raise ProbeFailed(lang.name, f"struct {t} has no member data")
        if p.scalar in SMALL_SCALARS and parts[0] == "data" and len(parts) >= 2:
            call = expr.split("(", 1)[0]  # an argument inside a payload word: its accessor
            return small(lambda e, call=call: f"{call}({e})", t, i, accessors[call], p.quantity)
        if p.quantity == STRIDE:  # the array the designator's last index is in
            array, at = w.reader.follow(expr, et, steps[:-1])
            return w.stride(array, at, layout)
        expr, et = w.reader.follow(expr, et, steps)
        return w.quantity(p, expr, et, start, layout)

    for k, p in enumerate(probes):
        try:
            outputs.append(read(p))
        except _Unmeasured:
            unmeasured.append(k)
            outputs.append("0u")
    helpers = _small_helpers(lang, structs, patterned, small_bits, w.typed)
    source = _render(lang, headers, w, outputs, helpers)
    inputs = []
    # The input buffers, one per block layout of ``lang.inputs``, in binding order (0, then
    # 2, 3: binding 1 is the output).
    layouts = tuple(lang.inputs)
    for layout in layouts:
        words = (w.bytes.get(layout, 0) + 16) // 4
        inputs.append(struct.pack(f"<{words}I", *range(1, words + 1)))
    return Program(source, inputs[0], 4 * max(len(outputs), 1), len(outputs),
                   tuple(inputs[1:]) if any(w.bytes.get(x) for x in layouts[1:]) else (),
                   tuple(unmeasured))


def _two_row_matrix(t: GpuType, members, seen: set) -> bool:
    """Whether ``t`` holds a matrix of two-component columns (``mat2x2``, ``mat4x2``…)."""
    if t.kind == "matrix":
        return t.elem is not None and t.elem.count == 2
    if t.kind == "struct":
        if t.name in seen:
            return False
        seen.add(t.name)
        return any(_two_row_matrix(m, members, seen) for m in members.get(t.name, {}).values())
    return t.elem is not None and _two_row_matrix(t.elem, members, seen)


def _layout(lang: ShadingLanguage, p: Probe) -> str:
    """The block layout a type of ``p``'s rule set is read in: the one the generated file
    declares it for (``shader_kinds.block_of``: GLSL's block, WGSL's uniform space)."""
    from ...codegen.shader_kinds import block_of

    return block_of(lang.dialect, p.rules)


_FILLS = {"A": "1u + 4u * (_sarek_w % 29u)", "B": "1u + (_sarek_w / 29u) % 29u",
          "C": "1u + _sarek_w / 841u"}


def _small_helpers(lang: ShadingLanguage, structs: Structs, patterned, small_bits, typed
                   ) -> str:
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
                    lanes = ("xy" if mt == pair else "xyzw" if mt == lang.quad else "")
                    value = (f"{mt}({', '.join(f'sarek_lanes_{k}(e.data[j].{c} - s)' for c in lanes)})"
                             if lanes else f"sarek_lanes_{k}(e.data[j] - s)")
                    lines.append(lang.loop(n, f"r.data[j] = {value};"))
            body = f"{lang.local('r', t, 'e', mutable=True)} {' '.join(lines)} return r;"
            out.append(lang.function(t, f"sarek_pat_{k}_{_ident(t)}", (("e", t), ("s", w)), body))
    for et in small_bits:
        readers = _small_bits(lang, et, typed)
        if not readers:
            raise ProbeFailed(lang.name,
                              f"an accessor of a scalar smaller than a word returns {et}")
        out += readers
    return "".join(out)


def _small_bits(lang: ShadingLanguage, et: str, typed) -> List[str]:
    """The readers of an accessor's return type ``et``: its bits (an array of words, as the
    scalar rules' ``uint16[4]`` is kept: its first word's), and for an array the number of
    bytes its words hold (each byte of a patterned word is non-zero)."""
    t = lang.type_of(et, typed)
    w = lang.word
    if t.kind == "array" and t.elem is not None and t.count:
        # Words, or four-word vectors of them (a uniform layout's: ``uvec4[K]``).
        lanes = [""] if t.elem.kind != "vector" else [f".{c}" for c in "xyzw"[:t.elem.count]]
        word = t.elem if not lanes[0] else t.elem.elem
        bits = lang.small_bits.get(lang.spell(word)) if word is not None else None
        if bits is None:
            return []
        first = bits.replace("_sarek_x", f"_sarek_x[0]{lanes[0]}")
        count = " + ".join(f"{w}(((_sarek_x[j]{c} >> {8 * k}u) & 0xFFu) != 0u)"
                           for c in lanes for k in range(4))
        return [lang.function(w, f"sarek_small_bits_{_ident(et)}", (("_sarek_x", et),),
                              f"return {first};"),
                lang.function(w, f"sarek_small_size_{_ident(et)}", (("_sarek_x", et),),
                              f"{lang.local('n', w, '0u', mutable=True)} "
                              + lang.loop(t.count, f"n = n + {count};") + " return n;")]
    bits = lang.small_bits.get(et)
    if bits is None:
        return []
    return [lang.function(w, f"sarek_small_bits_{_ident(et)}", (("_sarek_x", et),),
                          f"return {bits};")]


#: ``(arity, single)`` of ``arm_shapes``.
ArmShapes = Tuple[Dict[Tuple[str, str], int], "set"]


def arm_shapes(probes: Sequence[Probe]) -> ArmShapes:
    """Each probed arm's number of arguments, by ``(C type, "<Ctor>_v")``, and the arms that
    hold a single argument (``single_arms``)."""
    arity: Dict[Tuple[str, str], int] = {}
    for p in probes:
        parts = split_member(p.member)[0]
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
        parts = split_member(p.member)[0]
        if parts[0] == "data" and len(parts) == 2:
            arms.add((p.c_type, parts[1]))
        elif parts[0] == "data" and len(parts) == 3:
            with_args.add((p.c_type, parts[1]))
    return arms - with_args


def _render(lang: ShadingLanguage, headers, w: "_Writer", outputs, helpers: str = "") -> str:
    lines = [lang.local(f"sarek_s{i}", lang.word, w.first(w.base(t) + ".t[0]", w.gpu[t]))
             for t, (i, _) in w.types.items()]
    lines += [f"{lang.output}[{k}] = {e};" for k, e in enumerate(outputs)]
    functions = w.reader.functions() + helpers
    return lang.runtime_probe(headers, w.types, functions, tuple(lines))


def decode(program: Program, output: bytes) -> Tuple[Optional[int], ...]:
    """One value per probe, from the output buffer (``None`` where it reads none)."""
    values: List[Optional[int]] = list(struct.unpack(f"<{program.count}I",
                                                     output[:4 * program.count]))
    for k in program.unmeasured:
        values[k] = None
    return tuple(values)


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
        if len(program.unmeasured) == program.count:  # nothing to read: no shader to run
            values.extend(None for _ in batch)
            continue
        values.extend(below_a_word(batch, decode(program, run(program))))
        shaders += 1
    return tuple(values), shaders
