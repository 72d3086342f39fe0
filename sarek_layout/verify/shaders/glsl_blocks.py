"""GLSL shaders measured from the SPIR-V glslang builds, and every block of it judged by its
own rules (``glsl`` describes the probe).

A block is every struct of the module decorated ``Block`` or ``BufferBlock`` that backs a
variable, whatever its name or its head was spelled with (a macro included): the SPIR-V
says which it is, its storage class (``Uniform``: a uniform block, std140 unless declared
otherwise; ``StorageBuffer``, ``PushConstant``: std430 unless declared otherwise) and every
member's offset and array stride. A schema struct it holds, at any depth, is compared with
that struct's own copies in the probe (std430 and scalar): a copy whose members the block
moved, an array of it with another stride, and the member after it placed further than its
size and that member's own alignment explain (a std140 block pads a struct to 16 bytes:
``uniform Extra { IndexedIndirectCommand cmd; uint after; }`` puts ``after`` at 32 where the
host struct, with the schema's 20-byte ``cmd``, has it at 20) are reported at the block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from .check import Problem
from .glsl_probe import compile_probe, compiled_struct, probe_copies
from .reader import StructDecl, used_structs
from .spirv import UNIFORM, Module
from .types import BOOL, CompiledStruct

__all__ = ["measure_glsl"]

#: How deep a block's structs are walked (glslang refuses deeper nesting long before).
_DEPTH = 64


def measure_glsl(shaders, decls: Dict[str, StructDecl], wanted: Set[str], folder: str
                 ) -> Tuple[Dict[str, CompiledStruct], List[Problem], List[str]]:
    """The structs of ``wanted`` as glslang built them (by the name the text gives them),
    the problems of the shader's blocks, and the compile failures (readable)."""
    compiled: Dict[str, CompiledStruct] = {}
    problems: List[Problem] = []
    failures: List[str] = []
    shaders.lay_out(folder)
    structs = {n: d for n, d in decls.items() if d.kind == "struct"}
    for n, f in enumerate(shaders.roots()):
        mine = shaders.visible(f)
        todo = [t for t in wanted if t in structs and structs[t].file in mine and t not in compiled]
        if not todo:
            continue  # nothing of the schema here: the shader's blocks cannot hold any of it
        types = used_structs(structs, sorted(todo))
        twice = [t for t in types if structs[t].alternatives]
        mod, buffers, why, places = compile_probe(shaders, f, types, folder, n, twice)
        if mod is None:
            failures.append(f"{f.shown}: glslang: {why}")
            continue
        module = _Probed(mod, probe_copies(mod, buffers, types))
        for t in types:
            if t in module.copies:
                compiled.setdefault(t, module.struct(t))
                compiled[t].place = compiled[t].place or places.get(t)
        problems += _block_problems(module, {compiled[t].name for t in wanted if t in compiled},
                                    decls, f)
    return compiled, problems, failures


@dataclass
class _Probed:
    """The probe's module: each type's copies, and which one judges it."""

    mod: Module
    copies: Dict[str, Dict[str, Tuple[int, Optional[int], int]]]
    #: struct id -> size (its array stride in the probe), for every copy.
    sizes: Dict[int, int] = field(default_factory=dict)
    #: compiled name -> the copy that judges it: (struct id, size, alignment).
    own: Dict[str, Tuple[int, Optional[int], int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        holders = _holders(self.mod)
        for layouts in self.copies.values():
            for sid, stride, _ in layouts.values():
                if stride is not None:
                    self.sizes[sid] = stride
        for layouts in self.copies.values():
            std430 = layouts.get("std430") or next(iter(layouts.values()))
            scalar = layouts.get("scalar", std430)
            name = self.mod.names.get(std430[0], "")
            held = holders.get(name, [])
            # Its scalar copy when every block that holds it lays it out so (and that differs).
            by_scalar = held and all(self.offsets(s) == self.offsets(scalar[0]) for s in held)
            self.own[name] = scalar if by_scalar and self.offsets(scalar[0]) != \
                self.offsets(std430[0]) else std430

    def offsets(self, sid: int) -> List[int]:
        return [off for _, off, _ in self.mod.members(sid)]

    def struct(self, t: str) -> CompiledStruct:
        layouts = self.copies[t]
        name = self.mod.names.get(next(iter(layouts.values()))[0], t)
        sid, size, align = self.own[name]
        return compiled_struct(self.mod, sid, self.sizes, size, align)


def _holders(mod: Module) -> Dict[str, List[int]]:
    """compiled struct name -> the struct ids that the shader's own blocks hold (at any
    depth)."""
    out: Dict[str, List[int]] = {}
    for bid in _blocks(mod):
        stack, seen = [(bid, 0)], set()
        while stack:
            sid, depth = stack.pop()
            if sid in seen or depth > _DEPTH:
                continue
            seen.add(sid)
            if sid != bid:
                out.setdefault(mod.names.get(sid, ""), []).append(sid)
            for _, _, tid in mod.members(sid):
                elem = mod.element(tid)
                if mod.types.get(elem, ("",))[0] == "struct":
                    stack.append((elem, depth + 1))
    return out


def _blocks(mod: Module) -> List[int]:
    """The shader's own blocks (not the probe's buffers)."""
    return [bid for bid in mod.blocks if mod.block_of(bid) is not None
            and not mod.names.get(bid, "").startswith("SarekShaderProbeIn")]


def _natural_align(mod: Module, tid: int, depth: int = 0) -> int:
    """A member type's std430 base alignment (scalars their size, 2-vectors twice it, 3-
    and 4-vectors four times, matrices their column's, arrays their element's, structs their
    largest member's): where a member would go after ``cmd`` in the host's struct."""
    t = mod.types.get(tid, ("",))
    if t[0] in ("int", "float"):
        return t[1] // 8
    if t[0] == BOOL:
        return 4
    if depth > _DEPTH:
        return 1
    if t[0] == "vector":
        return _natural_align(mod, t[1], depth + 1) * (2 if t[2] == 2 else 4)
    if t[0] in ("matrix", "array"):
        return _natural_align(mod, t[1], depth + 1)
    if t[0] == "struct":
        return max([_natural_align(mod, m, depth + 1) for m in t[1:]] or [1])
    return 1


def _block_problems(p: _Probed, schema_names: Set[str], decls: Dict[str, StructDecl], f
                    ) -> List[Problem]:
    out: List[Problem] = []
    mod = p.mod
    for bid in _blocks(mod):
        found: Dict[str, str] = {}
        _walk(p, bid, schema_names, found, 0)
        if not found:
            continue
        bname = mod.names.get(bid, "") or "(a block)"
        uniform = mod.block_of(bid) == UNIFORM
        where = _where(mod, bid, decls, f)
        fix = ("declare it `layout(std430) buffer` (a storage buffer), or keep a uniform "
               "block with GL_EXT_scalar_block_layout's `layout(scalar)`" if uniform else
               "declare the block `layout(std430)`")
        for t, why in found.items():
            out.append(Problem(where, t, f"{bname} is a {'uniform' if uniform else 'buffer'} "
                                         f"block laid out std140, where the schema needs std430 "
                                         f"(the C layout): {why}; {fix}"))
    return out


def _where(mod: Module, bid: int, decls: Dict[str, StructDecl], f) -> str:
    """The block's place: its declaration as the text names it, or one with its members'
    names (a name spelled with a macro), or the shader."""
    name = mod.names.get(bid, "")
    members = [n for n, _, _ in mod.members(bid)]
    for d in decls.values():
        if d.kind == "block" and d.name == name:
            return d.where
    for d in decls.values():
        if d.kind == "block" and [m.name for m in d.members] == members:
            return d.where
    return f.shown


def _walk(p: _Probed, sid: int, schema: Set[str], found: Dict[str, str], depth: int) -> None:
    mod = p.mod
    if depth > _DEPTH:
        return
    members = mod.members(sid)
    for k, (name, off, tid) in enumerate(members):
        elem = mod.element(tid)
        if mod.types.get(elem, ("",))[0] != "struct":
            continue
        t = mod.names.get(elem, "")
        if t in schema and t in p.own and t not in found:
            why = _differs(p, t, name, off, tid, elem, members[k + 1:k + 2])
            if why:
                found[t] = why
        _walk(p, elem, schema, found, depth + 1)


def _differs(p: _Probed, t: str, name: str, off: int, tid: int, elem: int, after) -> str:
    """How a block lays out its member ``name`` (a ``t``, or an array of them) otherwise than
    ``t``'s own layout (``""``: it does not)."""
    mod = p.mod
    own, size, _ = p.own[t]
    is_array = mod.types.get(tid, ("",))[0] == "array"
    if is_array and tid in mod.strides and size is not None and mod.strides[tid] != size:
        return (f"an array of {t} ({name}) has a stride of {mod.strides[tid]} bytes, where "
                f"{t} is {size} bytes (its std430 and C array stride)")
    if elem != own and p.offsets(elem) != p.offsets(own):
        mine = {n: o for n, o, _ in mod.members(elem)}
        ref = {n: o for n, o, _ in mod.members(own)}
        bad = [n for n in ref if mine.get(n) != ref[n]]
        if bad:
            return f"{t}.{bad[0]} is at offset {mine.get(bad[0])} there, at {ref[bad[0]]} in std430"
    if after and not is_array and size is not None and off >= 0:
        next_name, next_off, next_tid = after[0]
        align = _natural_align(mod, next_tid)
        expected = -(-(off + size) // align) * align
        if next_off > expected:
            return (f"{name} takes {next_off - off} bytes there ({next_name} is at offset "
                    f"{next_off}), where {t} is {size} bytes ({next_name} at {expected} in "
                    f"the host's struct): std140 rounds a struct's size up to 16 bytes")
    return ""
