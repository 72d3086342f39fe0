"""The words a value of a generated GLSL or WGSL file occupies, as the runtime probe reads them
(``gpu_probes``): typed expressions over the files' own declarations.

Every struct of the generated files is read into ``types.GpuType``s member by member
(``typed_structs``: the language object's ``member_type``, arrays of arrays included), and a
value is reached from an expression and its type: its first (or last) 32-bit word is found
by descending to its first (or last) scalar (``v[0]`` of a vector, ``m[0][0]`` of a matrix,
``a[0]`` of an array, the first member of a struct that is not padding) and reading that
scalar's bits with a small function per scalar spelling and per struct
(``sarek_probe_bits_<T>``: the pair (first word, last word)). A designator of SPEC §1b
(``pts[0].v[0]``, ``targets.shape.Array.designator``) is followed step by step over the
declarations: ``[0]`` indexes an array or a matrix, ``.v`` enters an element struct where
the file wraps one, and is skipped where the language holds the element as it is (GLSL's
``vec3 a[2]`` has the stride a C header wraps the element to get). Nothing is read from the
layout: an array's stride is where its second element starts, measured.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..shaders.reader import read_text
from ..shaders.types import GpuType
from ...targets.naming import ELEMENT_MEMBER, PAD_MEMBER
from . import ProbeFailed

__all__ = ["Typed", "typed_structs", "Reader", "ident", "split_member"]

#: struct -> its members, in order: (name, type).
Typed = Dict[str, List[Tuple[str, GpuType]]]

#: How deep a type is followed (generated types nest less deep than the schema allows).
_DEPTH = 256


def ident(type_name: str) -> str:
    """A type spelling as part of a function name (``vec2<u32>``: ``vec2_u32_``)."""
    return re.sub(r"\W", "_", type_name)


def typed_structs(lang, texts: Sequence[str]) -> Typed:
    """Every struct declared in ``texts``, its members typed (``lang.member_type``)."""
    decls = [d for text in texts for d in read_text(text, lang) if d.kind == "struct"]
    names = {d.name for d in decls}
    return {d.name: [(m.name, lang.member_type(m, names)) for m in d.members] for d in decls}


def split_member(member: str) -> Tuple[List[str], List[str]]:
    """A probe's member path as its dotted parts and the designator steps after them:
    ``data.A_v._0[0].v[0]`` is ``(["data", "A_v", "_0"], ["[0]", ".v", "[0]"])``."""
    head, bracket, tail = member.partition("[")
    steps = re.findall(r"\[\d+\]|\.\w+", bracket + tail)
    return head.split("."), steps


class Reader:
    """Word expressions of the values of one language's generated files."""

    def __init__(self, lang, typed: Typed) -> None:
        self.lang, self.typed = lang, typed
        #: Every bits function the expressions call (scalar spellings and structs).
        self.needed: Dict[str, None] = {}
        #: The functions called since the last ``_emit`` started (GLSL declares a callee
        #: before its caller).
        self._calls: List[str] = []

    def bits(self, expr: str, spelled: str) -> str:
        self.needed[spelled] = None
        self._calls.append(spelled)
        return f"sarek_probe_bits_{ident(spelled)}({expr})"

    def word(self, expr: str, t: GpuType, last: bool = False, depth: int = 0) -> str:
        """A 32-bit word expression: the first (``last``: the last) word of ``expr``."""
        if depth > _DEPTH:
            raise ProbeFailed(self.lang.name, f"{expr} nests too deep to probe")
        pick = ".y" if last else ".x"
        if t.is_scalar:
            return self.bits(expr, self.lang.spell(t)) + pick
        if t.kind == "struct":
            if t.name not in self.typed:
                raise ProbeFailed(self.lang.name, f"no struct {t.name} in the generated files")
            return self.bits(expr, t.name) + pick
        if t.kind == "matrix" and t.elem is not None:
            column = t.count - 1 if last else 0
            return self.word(f"{expr}[{column}]", t.elem, last, depth + 1)
        if t.kind in ("vector", "array") and t.elem is not None and t.count > 0:
            return self.word(f"{expr}[{t.count - 1 if last else 0}]", t.elem, last, depth + 1)
        raise ProbeFailed(self.lang.name, f"{expr} is a {self.lang.spell(t)}, which the probe "
                                          f"cannot read")

    def member(self, struct: str, name: str) -> Optional[GpuType]:
        for m, t in self.typed.get(struct, ()):
            if m == name:
                return t
        return None

    def follow(self, expr: str, t: GpuType, steps: Sequence[str]) -> Tuple[str, GpuType]:
        """``expr`` of type ``t`` after the designator ``steps`` (``[0]``, ``.v``)."""
        for step in steps:
            if step.startswith("["):
                if t.kind not in ("array", "matrix", "vector") or t.elem is None:
                    raise ProbeFailed(self.lang.name, f"{expr} is not an array")
                expr, t = expr + step, t.elem
            elif t.kind == "struct" and self.member(t.name, step[1:]) is not None:
                expr, t = expr + step, self.member(t.name, step[1:])  # type: ignore[assignment]
            elif step[1:] != ELEMENT_MEMBER:
                raise ProbeFailed(self.lang.name, f"{expr} has no member {step[1:]}")
            # else: an element the language holds as it is, with the level's stride
        return expr, t

    def functions(self) -> str:
        """The bits functions the expressions call, each after those it calls."""
        out: List[str] = []
        done: Dict[str, None] = {}
        for name in list(self.needed):
            self._emit(name, out, done, 0)
        return "".join(out)

    def _emit(self, name: str, out: List[str], done: Dict[str, None], depth: int) -> None:
        if name in done:
            return
        done[name] = None
        lang = self.lang
        fn = f"sarek_probe_bits_{ident(name)}"
        if name in lang.scalar_bits:
            out.append(lang.function(lang.pair, fn, (("_sarek_x", name),),
                                     f"return {lang.scalar_bits[name]};"))
            return
        members = self.typed.get(name)
        if not members or depth > _DEPTH:
            raise ProbeFailed(lang.name, f"the probe cannot read a {name}")
        real = [m for m in members if not m[0].startswith(PAD_MEMBER)] or members
        self._calls = []
        first = self.word(f"_sarek_x.{real[0][0]}", real[0][1])
        last = self.word(f"_sarek_x.{real[-1][0]}", real[-1][1], last=True)
        for callee in list(self._calls):
            self._emit(callee, out, done, depth + 1)
        out.append(lang.function(lang.pair, fn, (("_sarek_x", name),),
                                 f"return {lang.pair}({first}, {last});"))
