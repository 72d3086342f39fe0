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


def measure_glsl(shaders, decls: Dict[str, StructDecl], wanted: Set[str], folder: str,
                 layouts: Optional[Dict[str, str]] = None
                 ) -> Tuple[Dict[str, CompiledStruct], List[Problem], List[str]]:
    """The structs of ``wanted`` as glslang built them (by the name the text gives them),
    the problems of the shader's blocks, and the compile failures (readable). ``layouts``
    names the block layout a struct's schema type is laid out by (its rule set's GLSL
    qualifier: ``std140``, ``scalar``, ``std430``); a struct of Sarek's ``c`` rules (none
    given) is judged by its std430 copy, or its scalar one where every block holding it is
    scalar (C's rules and the scalar layout agree on a natural struct)."""
    layouts = layouts or {}
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
        copies = probe_copies(mod, buffers, types)
        module = _Probed(mod, copies, {module_name(mod, copies[t]): layouts[t]
                                       for t in types if t in layouts and t in copies})
        for t in types:
            if t in module.copies:
                compiled.setdefault(t, module.struct(t))
                compiled[t].place = compiled[t].place or places.get(t)
        problems += _block_problems(module, {compiled[t].name for t in wanted if t in compiled},
                                    decls, f)
    return compiled, problems, failures


def module_name(mod: Module, copies) -> str:
    """The name a type's copies have in the module (a macro may have renamed it)."""
    return mod.names.get(next(iter(copies.values()))[0], "")


@dataclass
class _Probed:
    """The probe's module: each type's copies, and which one judges it."""

    mod: Module
    copies: Dict[str, Dict[str, Tuple[int, Optional[int], int, Optional[int]]]]
    #: compiled name -> the block layout its schema type's rules require (none: ``c``).
    required: Dict[str, str] = field(default_factory=dict)
    #: struct id -> size (its array stride in the probe), for every copy.
    sizes: Dict[int, int] = field(default_factory=dict)
    #: compiled name -> the copy that judges it: (struct id, size, alignment).
    own: Dict[str, Tuple[int, Optional[int], int, Optional[int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        holders = _holders(self.mod)
        for layouts in self.copies.values():
            for layout, (sid, stride, _, size) in layouts.items():
                # a struct's bytes as a member: the scalar layout does not round them up
                measured = size if layout == "scalar" else stride
                if measured is not None:
                    self.sizes[sid] = measured
        for layouts in self.copies.values():
            std430 = layouts.get("std430") or next(iter(layouts.values()))
            scalar = layouts.get("scalar", std430)
            name = self.mod.names.get(std430[0], "")
            if self.required.get(name) in layouts:
                self.own[name] = layouts[self.required[name]]
                continue
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
        sid, stride, align, size = self.own[name]
        scalar = self.required.get(name) == "scalar"
        # Its size: its array stride, but a scalar layout's, which does not round it up.
        return compiled_struct(self.mod, sid, self.sizes, size if scalar else stride, align,
                               unpadded=scalar)


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
        kind = "uniform" if uniform else "buffer"
        for t, why in found.items():
            required = p.required.get(t)
            if required not in (None, "std430"):
                out.append(Problem(where, t, f"{bname} is a {kind} block that lays {t} out "
                                             f"otherwise than the schema's {required} rules: "
                                             f"{why}; declare the block `layout({required})`"))
                continue
            rules = ("std430 rules lay {t} out" if required else
                     "c rules lay {t} out as std430 does").format(t=t)
            out.append(Problem(where, t, f"{bname} is a {kind} block laid out std140, where "
                                         f"the schema's {rules}: {why}; {fix}"))
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
    own, size, _, _ = p.own[t]
    required = p.required.get(t, "std430")
    is_array = mod.types.get(tid, ("",))[0] == "array"
    rows = [n for k, (n, _, _) in enumerate(mod.members(elem)) if (elem, k) in mod.row_major]
    if elem != own and rows:
        return (f"its matrices are row-major there ({t}.{rows[0]}: the block's "
                f"layout(row_major)), the schema's column-major: drop row_major")
    # The first member the block moves, then the stride: both, where both differ.
    moved = ""
    if elem != own and p.offsets(elem) != p.offsets(own):
        mine = {n: o for n, o, _ in mod.members(elem)}
        ref = {n: o for n, o, _ in mod.members(own)}
        bad = [n for n in ref if mine.get(n) != ref[n]]
        if bad:
            moved = (f"{t}.{bad[0]} is at offset {mine.get(bad[0])} there, at {ref[bad[0]]} "
                     f"by the schema's {required} rules")
    if is_array and tid in mod.strides and size is not None and mod.strides[tid] != size:
        stride = (f"an array of {t} ({name}) has a stride of {mod.strides[tid]} bytes, where "
                  f"{t} is {size} bytes (its {required}" +
                  (" and C" if required == "std430" else "") + " array stride)")
        return f"{moved}; {stride}" if moved else stride
    if moved:
        return moved
    if after and not is_array and size is not None and off >= 0 and required == "std430":
        next_name, next_off, next_tid = after[0]
        align = _natural_align(mod, next_tid)
        expected = -(-(off + size) // align) * align
        if next_off > expected:
            return (f"{name} takes {next_off - off} bytes there ({next_name} is at offset "
                    f"{next_off}), where {t} is {size} bytes ({next_name} at {expected} in "
                    f"the host's struct): std140 rounds a struct's size up to 16 bytes")
    return ""
