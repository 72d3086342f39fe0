"""What a shading language is to ``verify``: one object each (its rows: ``registry``).

A ``ShadingLanguage`` owns every fact about its language that ``verify`` uses, for the
generated files (the ``glslang``, ``vulkan``, ``naga``, ``webgpu`` and ``metal-proxy``
toolchains, ``verify.drivers``) and for hand-written shaders (``verify --shader``) alike:

* its file suffixes, and how its compiler reads lines and comments (``lexer.Lexicon``);
* how a struct and its members are written (``reader``: ``member_syntax``), and how a type is
  spelled both ways (``parse``: a spelling to the ``types.GpuType`` it compiles to, ``spell``:
  back), with the spellings the schema's scalars take (``targets.spellings.SHADER_READ``);
* how its compiler is run on a hand-written shader and what it built read back
  (``measure``), and the advice a difference gets (``bool_why``, ``vec3_fix``…);
* the words the runtime probe of generated files is written in (``runtime_probe``,
  ``function``, ``local``, ``loop``, ``scalar_bits``…: ``drivers.gpu_probes``).

Adding a shading language is writing one subclass in a module of this package and one row
in ``registry``.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Optional, Tuple

from ...ir.schema import Member
from ...targets.spellings import SHADER_READ
from .lexer import Lexicon
from .types import GpuType

__all__ = ["ShadingLanguage"]


class ShadingLanguage:
    """Base of every shading language; the subclasses fill in the class attributes."""

    #: The name ``generate -t`` and the targets' dialects use (``glsl``).
    name = ""
    #: How the report names it (``GLSL``).
    title = ""
    #: The file suffixes of its shaders (lower case, with the dot).
    suffixes: Tuple[str, ...] = ()
    lexicon: Lexicon
    #: How its structs are written (``reader``): ``c`` (``type name[N];``, GLSL and C++) or
    #: ``wgsl`` (``name: type,``); the qualifiers a member may carry (a regex); whether
    #: ``typedef struct { … } T;`` names a struct, and GLSL's interface blocks.
    member_syntax = "c"
    qualifiers = None
    typedef_structs = False
    interface_blocks = False
    #: Names an ``#include`` may give that no file provides: the compiler's stand-ins.
    stand_ins: Tuple[str, ...] = ()
    #: The directives that read a file which ``source`` follows (the others are refused).
    follows: Tuple[str, ...] = ("include",)
    #: The toolchain of ``verify.toolchains`` that stands for its compiler
    #: (``$SAREK_REQUIRE_TOOLCHAINS``), what measures it as the summary names it, and as a
    #: difference names it.
    toolchain = ""
    tool = ""
    short = ""
    #: Why a ``bool`` member is wrong for a Sarek bool (a 4-byte int) in this language.
    bool_why = ""
    #: Where a float64 member cannot be a float of this language, what to know.
    float64_note = ""
    #: How big its 3-vectors are, for the vec3 explanation.
    vec3_big = "like a vec4"
    #: Whether it has atomic types (WGSL ``atomic<u32>``, MSL ``atomic_uint``): laid out as
    #: their scalar, so accepted where the schema has that 32-bit integer.
    atomics = False
    #: Whether its 3-vectors are 16-aligned where the schema's are not (GLSL's std430, WGSL,
    #: Metal): a difference after one is explained by it. HLSL's structured buffers align a
    #: float3 to its scalar.
    vec3_trap = True

    @property
    def dialect(self):
        """The target dialect of the same name (how ``generate`` escapes a reserved name)."""
        from ...targets import dialects

        return getattr(dialects, self.name.upper())

    def __repr__(self) -> str:
        return f"<shading language {self.name}>"

    # --- the compiler -------------------------------------------------------------------------

    def missing(self) -> Optional[str]:
        """Why its compiler cannot run here (with the install line), or ``None``."""
        raise NotImplementedError

    def measure(self, shaders, decls, wanted, folder, rules=None):
        """Compile ``shaders`` (a ``source.ShaderSet``) with the structs ``wanted`` (names in
        ``decls``, the text's declarations) and read back what the compiler built:
        ``(compiled structs by name, problems, failures)`` (``types.CompiledStruct``,
        ``check.Problem``, one line per shader that did not compile). ``rules``: the rule
        set of each wanted struct's schema type (SPEC §1b), where the language's layout of a
        struct depends on the buffer that holds it (GLSL's blocks)."""
        raise NotImplementedError

    # --- spellings ----------------------------------------------------------------------------

    def parse(self, spelling: str) -> Optional[GpuType]:
        """The type ``spelling`` compiles to in this language (``None``: not one of its
        own spellings, such as a struct or a typedef of the shader)."""
        raise NotImplementedError

    def spell(self, t: GpuType) -> str:
        """How this language writes ``t``."""
        raise NotImplementedError

    def lowered(self, t: GpuType) -> GpuType:
        """``t`` as its compiler stores it in memory (GLSL keeps a bool as a 32-bit uint)."""
        return t

    def type_of(self, spelling: str, structs) -> GpuType:
        """The type ``spelling`` names in a generated file, whose structs are ``structs``
        (names): one of the language's own (``parse``), a struct, or C's ``T[N]`` (an
        accessor's result: ``float[4]``)."""
        spelling = spelling.strip()
        dims = []
        while spelling.endswith("]") and "[" in spelling:
            head, _, n = spelling[:-1].rpartition("[")
            dims.append(int(n) if n.strip().isdigit() else 0)
            spelling = head.strip()
        t = self.parse(spelling) or GpuType("struct" if spelling in structs else "other",
                                            name=spelling)
        for n in dims:  # the last written is the innermost
            t = GpuType("array", count=n, elem=t)
        return t

    def member_type(self, m, structs) -> GpuType:
        """A member declaration's type (``reader.MemberDecl``), its arrays included."""
        t = self.type_of(m.type, structs)
        for n in reversed(getattr(m, "dims", ()) or ((m.count,) if m.count else ())):
            t = GpuType("array", count=max(n, 0), elem=t)
        return t

    def element(self, m) -> Tuple[str, int]:
        """A member declaration (``reader.MemberDecl``) as (element type, array length or
        0)."""
        return m.type, max(m.count, 0)

    def write(self, type_: str, name: str) -> str:
        """A member declaration (C's array lengths after the name: ``float w[4][2];``)."""
        base, bracket, dims = type_.partition("[")
        return f"{base} {name}{bracket}{dims};" if bracket else f"{type_} {name};"

    def vectors(self, n: int, is_float: bool) -> Tuple[str, ...]:
        """Spellings of an ``n``-vector of 4-byte floats (or signed ints): a record of ``n``
        such fields may be one."""
        return ()

    def type_name(self, c_name: str) -> str:
        """A schema type's name as this language's generated code writes it: its C name,
        escaped where the language reserves it (GLSL's ``vec3`` is ``vec3_``)."""
        from ...targets.naming import escape

        return escape(c_name, self.dialect)

    def best(self, m: Member, rules: str = "c", owner: str = "") -> str:
        """The spelling to write for schema member ``m`` of type ``owner`` (a C name) of
        ``rules``."""
        if m.dims:
            from .kinds import kind_spelling

            return kind_spelling(self, m, rules, owner)
        return self.element_spelling(m)

    def element_spelling(self, m: Member) -> str:
        """The spelling of ``m``'s element: its record, or its scalar (an enum's base)."""
        if m.record is not None:
            return self.type_name(m.record.c_name)
        return SHADER_READ[self.name][m.scalar.name][0]  # type: ignore[union-attr]

    def kind_aliases(self, types) -> Tuple[GpuType, ...]:
        """Other compiled types that are the kind types ``types`` in this language (the Metal
        proxy's matrices are structs)."""
        return ()

    def accepted(self, m: Member) -> FrozenSet[GpuType]:
        """Every compiled type schema member ``m`` may have (``check``)."""
        if m.dims:
            from .kinds import kind_types

            key = (self.name, m.spelling, m.scalar.name if m.scalar is not None else "")
            if m.record is not None or key not in _KINDS:
                elements = self.accepted(m._replace(dims=()))
                found = kind_types(self, m, elements)
                if m.record is not None:
                    return found
                _KINDS[key] = found
            return _KINDS[key]
        if m.record is not None:
            spellings = self.vectors(len(m.record.members), _same_scalar(m.record))
            out = {GpuType("struct", name=m.record.c_name),
                   GpuType("struct", name=self.type_name(m.record.c_name))}
            out.update(t for t in map(self.parse, spellings) if t is not None)
            return frozenset(out)
        return self._scalar_types(m.scalar.name)  # type: ignore[union-attr]

    def _scalar_types(self, scalar: str) -> FrozenSet[GpuType]:
        key = (self.name, scalar)
        if key not in _ACCEPTED:
            types = {self.lowered(t) for t in map(self.parse, SHADER_READ[self.name][scalar][1])
                     if t is not None}
            if self.atomics:
                types |= {GpuType("atomic", elem=t) for t in types
                          if t.kind in ("int", "uint") and t.bits == 32}
            _ACCEPTED[key] = frozenset(types)
        return _ACCEPTED[key]

    def compiles_to(self, spelling: str, t: GpuType) -> bool:
        """Whether ``spelling`` is what the compiler built as ``t`` (no macro, alias or
        typedef between them)."""
        meant = self.parse(spelling) if spelling else None
        return meant is not None and (meant == t or self.lowered(meant) == t)

    def no_member_type(self, m: Member) -> str:
        """Advice where no member type of the language has ``m``'s size."""
        return ""

    # --- the runtime probe of generated files (``drivers.gpu_probes``) ------------------------
    #: The 32-bit word and the pair of words, as spelled here; every scalar spelling of the
    #: generated files with its bits as a pair (``_sarek_x``) and its bytes; the bits of a
    #: small scalar's accessor value, by the accessor's return type.
    word = ""
    pair = ""
    #: Four words (a variant's ``data`` at offset 16).
    quad = ""
    #: The probe's input buffer of each block layout it reads types in.
    inputs: Dict[str, str] = {}
    #: The probe's output words (binding 1), as ``runtime_probe`` declares them.
    output = ""
    scalar_bits: Dict[str, str] = {}
    scalar_size: Dict[str, int] = {}
    small_bits: Dict[str, str] = {}

    def function(self, ret: str, name: str, params: Tuple[Tuple[str, str], ...],
                 body: str) -> str:
        """A function on one line."""
        raise NotImplementedError

    def local(self, name: str, type_: str, expr: str, mutable: bool = False) -> str:
        """A local declaration."""
        raise NotImplementedError

    def loop(self, n: int, body: str) -> str:
        """``body`` for ``j`` from 0 to ``n`` - 1."""
        raise NotImplementedError

    def accessors(self, text: str) -> Dict[str, str]:
        """Accessor name -> return type, for the functions of ``text`` (comments blanked)
        that take one ``_sarek_v``."""
        raise NotImplementedError

    def runtime_probe(self, headers, types: Dict[str, int], functions: str,
                      outputs: Tuple[str, ...]) -> str:
        """The compute shader that reads ``types`` (type -> probe index) from binding 0 and
        writes ``outputs`` to binding 1."""
        raise NotImplementedError

    def vec3_fix(self, what: str) -> str:
        return (f"{what}: std430 and std140 align vec3 like vec4 (16 bytes), where the schema's "
                f"3 scalars are aligned to 4: write three float members (or a struct of them)")


_ACCEPTED: Dict[Tuple[str, str], FrozenSet[GpuType]] = {}
_KINDS: Dict[Tuple[str, str, str], FrozenSet[GpuType]] = {}


def _same_scalar(record) -> bool:
    """Whether every field of ``record`` is one 4-byte float (``True``) or signed int
    (``False``) scalar (``None`` when neither: no vector has its fields)."""
    kinds = {m.scalar for m in record.members}
    if len(kinds) != 1 or None in kinds:
        return None  # type: ignore[return-value]
    (only,) = kinds
    signed = only.int_range is not None and only.int_range[0] < 0
    if only.size != 4 or not (only.is_float or signed) or not 2 <= len(record.members) <= 4:
        return None  # type: ignore[return-value]
    return only.is_float
