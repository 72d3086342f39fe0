"""HLSL: the language object, and hand-written HLSL shaders measured by Slang's reflection.

Slang (PyPI ``slangpy``: ``slang``, its C API in a child process, confined to the
compile folder, column-major matrices as FXC and DXC default) compiles, for each given file,
a probe that includes it and declares each schema struct ``T`` it declares in the two kinds
of buffer HLSL has::

    #include "src/<file>"
    StructuredBuffer<T> sarek_shader_probe_s0;    // HLSL's structured layout (scalar-aligned)
    ConstantBuffer<T>   sarek_shader_probe_c0;    // constant buffer packing (16-byte registers)

No entry point is compiled: every global parameter is reflected without one. Each number is
Slang's reflection of what it built, never the text (a macro, a typedef or an ``#if`` can
change that): every member's name, type, offset and size, each array level's stride, the
struct's size (and, in a constant buffer, its alignment).

``T`` is judged by the copy its schema rules are for (``codegen.hlsl_kinds.context_of``:
the ``hlsl-cbuffer`` rules in a constant buffer, every other rule set in a structured buffer,
where the generated HLSL pads explicitly). Then every block of the shader itself (each
``cbuffer``/``tbuffer``/``ConstantBuffer<S>`` and ``StructuredBuffer<S>``, at any depth)
that holds a schema struct is judged by its own rules: the struct's members, size and array
stride as that block lays them out against the schema's, reported at the block with both
offsets and the two rule sets (``_block_problems``).
"""

from __future__ import annotations

import os
import re
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

from ...ir.schema import ARRAY, MATRIX, VECTOR, Member
from .check import Problem
from .language import ShadingLanguage
from .lexer import GLSL_LEXICON
from .reader import StructDecl
from .types import BOOL, CompiledMember, CompiledStruct, GpuType, vector

__all__ = ["HLSL", "Hlsl", "HLSL_QUALIFIERS"]

#: What a member declaration may carry besides its type and name: interpolation and matrix
#: qualifiers, a semantic or ``packoffset``/``register`` after a colon.
HLSL_QUALIFIERS = re.compile(
    r"\b(?:row_major|column_major|precise|nointerpolation|linear|centroid|noperspective|sample|"
    r"uniform|const|static|volatile|globallycoherent)\b|:\s*(?:packoffset|register)\s*"
    r"\([^)]{0,4096}\)|:\s*[A-Za-z_]\w*")

_SCALARS: Dict[str, GpuType] = {
    "int": GpuType("int", 32), "uint": GpuType("uint", 32), "dword": GpuType("uint", 32),
    "float": GpuType("float", 32), "double": GpuType("float", 64), BOOL: GpuType(BOOL, 32),
    "int16_t": GpuType("int", 16), "uint16_t": GpuType("uint", 16),
    "int32_t": GpuType("int", 32), "uint32_t": GpuType("uint", 32),
    "int64_t": GpuType("int", 64), "uint64_t": GpuType("uint", 64),
    "float16_t": GpuType("float", 16), "float32_t": GpuType("float", 32),
    "float64_t": GpuType("float", 64),
}
_NAMES = {t: n for n, t in reversed(list(_SCALARS.items()))}
#: Slang's scalar kinds (``slang_child``: ``f32``, ``u16``, ``b32``…) -> compiled kinds.
_KINDS = {"i": "int", "u": "uint", "f": "float", "b": BOOL}
_VECTOR = re.compile(r"([a-z]\w*?)([1-4])\Z")
_MATRIX = re.compile(r"([a-z]\w*?)([1-4])x([1-4])\Z")
_TEMPLATE = re.compile(r"(vector|matrix)\s*<\s*(\w+)\s*,\s*([1-4])\s*(?:,\s*([1-4])\s*)?>\Z")
_PROBE = "sarek_shader_probe_"
#: Struct nesting walked in a block (Slang refuses far less deep nesting).
_DEPTH = 64


def _matrix(elem: GpuType, rows: int, cols: int) -> GpuType:
    """HLSL's ``TRxC``: C columns of R-vectors (column-major, the schema's ``matCxR``)."""
    return GpuType("matrix", count=cols, elem=vector(elem, rows))


class Hlsl(ShadingLanguage):
    name = "hlsl"
    title = "HLSL"
    suffixes = (".hlsl", ".hlsli")
    lexicon = GLSL_LEXICON  # C's comments and line splices, no digraphs or raw strings
    qualifiers = HLSL_QUALIFIERS
    toolchain = "slang"
    tool = "Slang"
    short = "slang"
    vec3_trap = False
    bool_why = ("an HLSL bool is a 32-bit value in a buffer whose bits the compiler chooses; "
                "the generated HLSL keeps a Sarek bool as int")
    float64_note = "(HLSL double needs the device's double precision)"

    def missing(self) -> Optional[str]:
        from .slang import slang_problem

        return slang_problem("verify --shader (HLSL)")

    # --- spellings ----------------------------------------------------------------------------

    def parse(self, spelling: str) -> Optional[GpuType]:
        s = " ".join(spelling.split())
        if s in _SCALARS:
            return _SCALARS[s]
        m = _TEMPLATE.match(s)
        if m and m.group(2) in _SCALARS:
            elem = _SCALARS[m.group(2)]
            if m.group(1) == "vector" and not m.group(4):
                return vector(elem, int(m.group(3)))
            if m.group(1) == "matrix" and m.group(4):
                return _matrix(elem, int(m.group(3)), int(m.group(4)))
            return None
        m = _MATRIX.match(s)
        if m and m.group(1) in _SCALARS:
            return _matrix(_SCALARS[m.group(1)], int(m.group(2)), int(m.group(3)))
        m = _VECTOR.match(s)
        if m and m.group(1) in _SCALARS:
            return vector(_SCALARS[m.group(1)], int(m.group(2)))
        return None

    def spell(self, t: GpuType) -> str:
        if t.is_scalar:
            return _NAMES.get(t, f"{t.kind}{t.bits}")
        if t.kind == "vector" and t.elem is not None:
            return f"{self.spell(t.elem)}{t.count}"
        if t.kind == "matrix" and t.elem is not None and t.elem.elem is not None:
            return f"{self.spell(t.elem.elem)}{t.elem.count}x{t.count}"
        if t.kind == "array" and t.elem is not None:
            return f"{self.spell(t.elem)}[{t.count}]"
        return t.name or t.kind

    def write(self, type_: str, name: str) -> str:
        dims = re.findall(r"\[\d+\]", type_)
        return f"{type_.split('[')[0]} {name}{''.join(dims)};"

    def expected_type(self, m: Member) -> Optional[GpuType]:
        """The compiled type schema member ``m`` has in natural HLSL (``None``: none, an
        8-bit scalar)."""
        if m.record is not None:
            t = GpuType("struct", name=self.type_name(m.record.c_name))
        else:
            from ...targets.dialects import HLSL as DIALECT

            if m.scalar is None or m.scalar.size == 1:
                return None
            # The generated HLSL's spelling (bool and unit are int there), as compiled.
            found = self.parse(DIALECT.scalar[m.scalar.name])
            if found is None:
                return None
            t = found
        for d in reversed(m.dims):
            if d.kind == VECTOR:
                t = vector(t, d.count)
            elif d.kind == MATRIX:
                t = GpuType("matrix", count=d.count, elem=t)
            elif d.kind == ARRAY:
                t = GpuType("array", count=d.count, elem=t)
        return t

    def best(self, m: Member, rules: str = "c", owner: str = "") -> str:
        # HLSL spells a member by its type alone: the buffer, not the rules, lays it out.
        t = self.expected_type(m)
        return self.spell(t) if t is not None else "uint"

    def accepted(self, m: Member) -> FrozenSet[GpuType]:
        """The natural type, and what the generated HLSL writes where the rules are not
        HLSL's own: a matrix whose columns are padded (std140's ``mat3`` in a structured
        buffer, ``float4x3``), and the 32-bit words an 8-bit array or vector is kept in."""
        if m.scalar is not None and m.scalar.size == 1 and m.dims:
            return frozenset({GpuType("array", count=-(-m.size // 4), elem=GpuType("uint", 32))})
        t = self.expected_type(m)
        if t is None:
            return frozenset()
        out = {t}
        padded = _padded_matrix(m, t)
        if padded is not None:
            out.add(padded)
        if m.record is not None and not m.dims:
            out.add(GpuType("struct", name=m.record.c_name))
        if m.scalar is not None and m.scalar.kind == BOOL and not m.dims:
            out |= {GpuType("int", 32), GpuType("uint", 32)}
        return frozenset(out)

    def no_member_type(self, m: Member) -> str:
        from ...targets.naming import PACKED_PREFIX

        return (f"HLSL has no 8-bit type: keep it in a 32-bit word with its neighbours "
                f"({PACKED_PREFIX}<N>, as `generate -t hlsl` writes it)")

    # --- the compiler -------------------------------------------------------------------------

    def measure(self, shaders, decls: Dict[str, StructDecl], wanted: Set[str], folder: str,
                rules=None) -> Tuple[Dict[str, CompiledStruct], List[Problem], List[str]]:
        # ``rules`` is not needed: each struct's buffer comes from its schema type
        # (``shaders.expected``), which also gives the rules.
        from .slang import run_slang
        from .hlsl_blocks import block_problems, own_contexts

        compiled: Dict[str, CompiledStruct] = {}
        problems: List[Problem] = []
        failures: List[str] = []
        shaders.lay_out(folder)
        structs = {n: d for n, d in decls.items() if d.kind == "struct"}
        contexts = own_contexts(shaders.expected, wanted)
        for n, f in enumerate(shaders.roots()):
            mine = shaders.visible(f)
            todo = sorted(t for t in wanted if t in structs and structs[t].file in mine
                          and t not in compiled)
            if not todo:
                continue
            probe = f"sarek_shader_probe_{n}.hlsl"
            with open(os.path.join(folder, probe), "w", encoding="utf-8") as out:
                out.write(f'#include "{f.name}"\n' + "".join(
                    f"StructuredBuffer<{t}> {_PROBE}s{i};\nConstantBuffer<{t}> {_PROBE}c{i};\n"
                    for i, t in enumerate(todo)))
            answer = run_slang(folder, probe, ("src", "inc", "."), "")
            if answer.reflection is None:
                why = shaders.readable(answer.problem or answer.log, folder)
                failures.append(f"{f.shown}: Slang: {' '.join(why.split())[:600]}")
                continue
            r = answer.reflection
            own: Dict[str, object] = {}
            for i, t in enumerate(todo):
                which = "c" if contexts.get(t) == "cbuffer" else "s"
                node = r.buffer(f"{_PROBE}{which}{i}")
                if node is None or node.kind != "struct":
                    continue
                own[node.name or t] = node
                compiled[t] = self._compiled(node, which == "c")
                problems += _stride_problems(self, t, node, decls, shaders.expected)
            problems += block_problems(self, r, own, shaders.expected, mine, _PROBE)
        return compiled, problems, failures

    def _compiled(self, node, cbuffer: bool) -> CompiledStruct:
        members = [CompiledMember(name, _gpu_type(t), off, t.size)
                   for name, off, t in node.fields()]
        return CompiledStruct(node.name, members, node.size if cbuffer else node.stride,
                              node.align if cbuffer else None)


def _padded_matrix(m: Member, t: GpuType) -> Optional[GpuType]:
    """A matrix member (at any array depth) with its columns' rows padded to their stride
    (``None`` where the columns are not padded)."""
    dims = [d for d in m.dims if d.kind == MATRIX]
    if not dims or m.scalar is None:
        return None
    rows = dims[0].stride // m.scalar.size
    if dims[0].stride % m.scalar.size or rows > 4:
        return None

    def swap(u: GpuType) -> GpuType:
        if u.kind == "array" and u.elem is not None:
            return GpuType("array", count=u.count, elem=swap(u.elem))
        if u.kind == "matrix" and u.elem is not None and u.elem.elem is not None:
            return GpuType("matrix", count=u.count, elem=vector(u.elem.elem, rows))
        return u

    padded = swap(t)
    return padded if padded != t else None


def _gpu_type(node, depth: int = 0) -> GpuType:
    """What Slang built, as the shaders' model writes it (an array of a wrapper struct of
    one ``v`` and padding, as the generated HLSL writes a padded element, is an array of
    ``v``'s type)."""
    if depth > _DEPTH:
        return GpuType("other", name="(too deep)")
    if node.kind == "scalar":
        return _scalar(node.scalar)
    if node.kind == "vector":
        return vector(_scalar(node.scalar), node.count)
    if node.kind == "matrix":
        return _matrix(_scalar(node.scalar), node.rows, node.cols)
    if node.kind == "array" and node.element is not None:
        return GpuType("array", count=node.count, elem=_gpu_type(_unwrapped(node.element),
                                                                  depth + 1))
    if node.kind == "struct":
        return GpuType("struct", name=node.name)
    return GpuType("other", name=node.name or node.kind)


def _scalar(code: str) -> GpuType:
    kind = _KINDS.get(code[:1])
    return GpuType(kind, int(code[1:])) if kind and code[1:].isdigit() else \
        GpuType("other", name=code)


def _unwrapped(node):
    """A wrapper element (``struct { T v; <padding> }``) as its ``v``, or ``node``."""
    from ...targets.naming import PADDING_PREFIX

    if node.kind != "struct":
        return node
    fields = node.fields()
    if fields and fields[0][0] == "v" and fields[0][1] == 0 and all(
            n.startswith(PADDING_PREFIX) for n, _, _ in fields[1:]):
        return fields[0][2]
    return node


def _stride_problems(lang, t: str, node, decls, schema_types) -> List[Problem]:
    """Each array level's stride of ``t``'s members against the schema's (the shaders'
    model compares counts and types; a stride is the rule set's own)."""
    from .hlsl_blocks import expected_of

    exp = expected_of(schema_types, t)
    if exp is None:
        return []
    out = []
    by_name = {lang_name: m for lang_name, m in exp}
    for name, _, member in node.fields():
        m = by_name.get(name)
        if m is None or (m.scalar is not None and m.scalar.size == 1):
            continue  # an 8-bit array is kept as words: its bytes' strides are the words'

        level, n = member, 0
        for d in m.dims:
            if level.kind != "array" or d.kind != ARRAY:
                break
            if level.element_stride != d.stride:
                where = decls[t].where if t in decls else ""
                out.append(Problem(where, t, f"{name}{'[0]' * (n + 1)} has a stride of "
                                             f"{level.element_stride} bytes (Slang), the "
                                             f"schema's {d.stride} ({m.spelling})"))
                break
            level, n = _unwrapped(level.element), n + 1
    return out


HLSL = Hlsl()
