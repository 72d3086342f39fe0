"""What ``wgsl`` asks naga and wgpu: the type checks that find each member's type, and the
compute probe that finds where its bits are.

wgpu does not show naga's IR, so naga's type checker is asked instead. For each struct
``T`` measured, the checks declare ``var<workgroup> sarek_shader_w<N>: T;`` (a workgroup
variable may hold a bool or an atomic), and for each member one function, on a line of its
own, that assigns the member where only one type fits: a variable typed by a literal no
alias can change (``var c = 1f; c = w.m;`` for f32, ``1i``, ``1u``, ``1h``, ``true``), a
swizzle of exactly its width for a vector (``c = c.xyz``), ``atomicLoad`` for an atomic, the
struct's own name for a struct. The first guess is the type the text spells; when naga
refuses it, a second function assigns the member to a struct of ours
(``var c: SarekShaderNever = w.m;``), and naga's refusal names the type it built ("but got
`i32`"). ``alias f32 = i32;`` is caught so: the member is an ``i32``.

The probe then reads, for each struct, ``struct SarekShaderProbe<N> { a: u32, t: array<T,
2> }`` in a buffer whose word ``i`` holds ``i + 1``: the first word of ``a``, ``t[0]`` and
``t[1]`` (``T``'s array stride and alignment), and of each member its first and last word
(offset and, for scalars and vectors, size), and for an array member the first word of its
second element (its stride), each read as the member's compiled type allows. Members the bits
cannot place stay unmeasured: ``f16``, ``bool``, and every member of a struct holding a
``bool`` (not host-shareable: naga refuses it in a buffer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .reader import StructDecl
from .types import BOOL, GpuType

__all__ = ["Check", "type_checks", "Probe", "MAX_PROBE_WORDS", "BINDING", "NEVER"]

#: Bindings of the probe's two buffers (group 0), far from those shaders use.
BINDING = 998
#: The most input words one probe run may fill (64 MiB).
MAX_PROBE_WORDS = 16 << 20
#: The struct a revealing check assigns to: no member has its type.
NEVER = "SarekShaderNever"
_LITERALS = {("int", 32): "1i", ("uint", 32): "1u", ("float", 32): "1f", ("float", 16): "1h",
             ("int", 64): "1li", ("uint", 64): "1lu", ("float", 64): "1lf"}
_REVEALED = re.compile(r"but got `(.+?)`")
_DEPTH = 32


@dataclass
class Check:
    """The type check of member ``member`` of struct ``struct``: the guess's statement
    (``""``: none, reveal at once) and the revealing one."""

    struct: str
    member: str
    guess: Optional[GpuType]
    guess_stmt: str
    reveal_stmt: str


def _guess(t: GpuType, expr: str, spelled: str) -> str:
    """A statement that compiles only when ``expr`` has type ``t`` (``""``: none known)."""
    literal = _LITERALS.get((t.kind, t.bits)) or ("true" if t.kind == "bool" else "")
    if t.is_scalar:
        return f"var c = {literal}; c = {expr};" if literal else ""
    elem = t.elem
    if t.kind == "vector" and elem is not None and 2 <= t.count <= 4:
        inner = _LITERALS.get((elem.kind, elem.bits)) or ("true" if elem.kind == "bool" else "")
        return (f"var c = {expr}; c = c.{'xyzw'[:t.count]}; var d = {inner}; d = c.x;"
                if inner else "")
    if t.kind == "atomic" and elem is not None and elem.kind in ("int", "uint"):
        return f"var c = {_LITERALS[(elem.kind, 32)]}; c = atomicLoad(&{expr});"
    if t.kind in ("struct", "array") and spelled:
        return f"var c: {spelled} = {expr};"
    return ""


def type_checks(structs: Dict[str, StructDecl], todo: List[str], lang
                ) -> Tuple[List[str], List[Check]]:
    """The checks' declarations (one line each) and one check per member of each struct of
    ``todo``."""
    decls = [f"struct {NEVER} {{ sarek_never: u32 }}"]
    checks: List[Check] = []
    for i, t in enumerate(todo):
        decls.append(f"var<workgroup> sarek_shader_w{i}: {t};")
        for m in structs[t].members:
            expr = f"sarek_shader_w{i}.{m.name}"
            guess: Optional[GpuType] = lang.type_of(m.type, structs)
            guess = None if guess.scalar_of().kind == "other" else guess
            stmt = _guess(guess, expr, m.type) if guess is not None else ""
            checks.append(Check(t, m.name, guess if stmt else None, stmt,
                                f"var c: {NEVER} = {expr};"))
    return decls, checks


def revealed(lang, log: str, structs: Dict[str, StructDecl]) -> GpuType:
    """The type naga named in a refusal of a revealing check."""
    m = _REVEALED.search(log)
    if m is None:
        return GpuType("other", name="?")
    spelled = m.group(1)
    return lang.type_of(spelled, structs)


@dataclass
class Probe:
    """The compute probe over the member types found (module docstring)."""

    types: Dict[str, Dict[str, GpuType]]
    lines: List[str] = field(default_factory=list)
    #: struct -> its reads: "a", "t0", "t1" and per member "first", "last", "second", "n".
    reads: Dict[str, dict] = field(default_factory=dict)

    def read(self, expr: str) -> int:
        self.lines.append(f"    sarek_shader_out[{len(self.lines)}] = {expr};")
        return len(self.lines) - 1

    def word(self, expr: str, t: GpuType, last: bool = False, depth: int = 0) -> Optional[str]:
        """A ``u32`` expression of the first (or last) word of ``expr`` of type ``t``."""
        if depth > _DEPTH:
            return None
        if t.is_scalar:
            return f"bitcast<u32>({expr})" if t.bits == 32 and t.kind != "bool" else None
        if t.kind == "atomic":
            return f"bitcast<u32>(atomicLoad(&{expr}))"
        elem = t.elem
        if t.kind == "vector" and elem is not None:
            return self.word(f"{expr}[{t.count - 1 if last else 0}]", elem, False, depth + 1)
        if t.kind == "matrix" and elem is not None:
            return self.word(f"{expr}[{t.count - 1 if last else 0}]", elem, last, depth + 1)
        if t.kind == "array" and elem is not None and t.count:
            return self.word(f"{expr}[{t.count - 1 if last else 0}]", elem, last, depth + 1)
        members = self.types.get(t.name) if t.kind == "struct" else None
        if members and not last:
            name, first = next(iter(members.items()))
            return self.word(f"{expr}.{name}", first, False, depth + 1)
        return None

    def struct(self, i: int, t: str) -> None:
        base = f"sarek_shader_in.p{i}"
        first = self.word(f"{base}.t[0]", GpuType("struct", name=t))
        second = self.word(f"{base}.t[1]", GpuType("struct", name=t))
        if first is None or second is None:
            return
        r: dict = {"a": self.read(f"{base}.a"), "t0": self.read(first),
                   "t1": self.read(second), "members": {}}
        for name, mt in self.types[t].items():
            expr = f"{base}.t[0].{name}"
            f = self.word(expr, mt)
            if f is None:
                continue
            entry: dict = {"first": self.read(f), "type": mt}
            last = self.word(expr, mt, last=True)
            if last is not None:
                entry["last"] = self.read(last)
            if mt.kind == "array" and mt.count > 1 and mt.elem is not None:
                s = self.word(f"{expr}[1]", mt.elem)
                if s is not None:
                    entry["second"], entry["n"] = self.read(s), mt.count
            entry["levels"] = self.levels(expr, mt)
            r["members"][name] = entry
        self.reads[t] = r


    def levels(self, expr: str, t: GpuType) -> list:
        """Each array, matrix and vector level of ``expr``: (count, reads of the first word
        of its elements 0 and 1, or the component bytes of a vector), outermost first."""
        out: list = []
        for _ in range(_DEPTH):
            elem = t.elem
            if t.kind == "vector" and elem is not None:
                out.append([t.count, None, None, elem.bytes()])
                break
            if t.kind not in ("array", "matrix") or elem is None or not t.count:
                break
            first = self.word(f"{expr}[0]", elem)
            second = self.word(f"{expr}[1]", elem) if t.count > 1 else None
            out.append([t.count, self.read(first) if first is not None else None,
                        self.read(second) if second is not None else None, None])
            expr, t = f"{expr}[0]", elem
        return out


def has_bool(t: GpuType, types: Dict[str, Dict[str, GpuType]], depth: int = 0) -> bool:
    """Whether ``t`` holds a bool (or a type no buffer may hold) anywhere."""
    if depth > _DEPTH:
        return True
    if t.scalar_of().kind in (BOOL, "other"):
        return True
    if t.kind == "array" and t.elem is not None:
        return has_bool(t.elem, types, depth + 1)
    if t.kind == "struct":
        return any(has_bool(m, types, depth + 1) for m in types.get(t.name, {}).values())
    return False


def probe_source(user: str, names: List[str], probe: Probe) -> str:
    """The probe module: the user's code, the probe structs, the buffers, the entry point."""
    source = user + "\n" + "".join(f"struct SarekShaderProbe{i} {{ a: u32, t: array<{t}, 2>, }}\n"
                                   for i, t in enumerate(names))
    source += "struct SarekShaderIn {\n" + "".join(
        f"    p{i}: SarekShaderProbe{i},\n" for i in range(len(names))) + "}\n"
    return source + (f"@group(0) @binding({BINDING}) var<storage, read_write> sarek_shader_in: "
                     f"SarekShaderIn;\n@group(0) @binding({BINDING + 1}) var<storage, "
                     f"read_write> sarek_shader_out: array<u32>;\n@compute @workgroup_size(1)\n"
                     f"fn sarek_shader_probe() {{\n" + "\n".join(probe.lines) + "\n}\n")
