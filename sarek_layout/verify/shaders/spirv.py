"""The one reader of SPIR-V in ``verify``: a module's types, names and layout decorations,
in one linear pass (the ``glslang`` toolchain's generated files and ``verify --shader``'s
hand-written ones both read what glslang built through it).

A hand-written shader can use the same struct in a std140 and a std430 block, which glslang
emits as two struct types of the same name with different ``Offset`` decorations, so every
type is kept by its id, with what is needed to tell which copy a block uses: ``OpVariable``
storage classes, ``Block``/``BufferBlock`` decorations, array lengths (``OpConstant``) and
strides. ``gpu_type`` turns a type id into the language-neutral ``types.GpuType``: the
integer's width and signedness and the float's width as ``OpTypeInt``/``OpTypeFloat`` say,
whatever the source called them. Opcodes and decorations are the SPIR-V 1.x specification's;
``spirv-cross --reflect`` is the reader's test oracle.
"""

from __future__ import annotations

import array
import sys
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set, Tuple

from .types import BOOL, OPAQUE, GpuType

__all__ = ["Module", "read_module", "UNIFORM", "PUSH_CONSTANT", "STORAGE_BUFFER"]

#: Storage classes of the variables a block can back.
UNIFORM, PUSH_CONSTANT, STORAGE_BUFFER = 2, 9, 12
_BLOCK, _BUFFER_BLOCK, _ROW_MAJOR, _ARRAY_STRIDE, _MATRIX_STRIDE, _OFFSET = 2, 3, 4, 6, 7, 35


@dataclass
class Module:
    names: Dict[int, str] = field(default_factory=dict)
    member_names: Dict[Tuple[int, int], str] = field(default_factory=dict)
    #: id -> ("int"|"float", width, signed) / (BOOL,) / ("vector"|"matrix", elem, n) /
    #: ("array", elem, length id or 0) / ("struct", member ids…) / ("pointer", class, type)
    types: Dict[int, tuple] = field(default_factory=dict)
    constants: Dict[int, int] = field(default_factory=dict)
    offsets: Dict[Tuple[int, int], int] = field(default_factory=dict)
    matrix_strides: Dict[Tuple[int, int], int] = field(default_factory=dict)
    #: (struct id, member) of the matrix members stored row by row (``RowMajor``).
    row_major: Set[Tuple[int, int]] = field(default_factory=set)
    strides: Dict[int, int] = field(default_factory=dict)
    blocks: Dict[int, int] = field(default_factory=dict)  # struct id -> Block / BufferBlock
    #: variable id -> (storage class, pointee type id)
    variables: Dict[int, Tuple[int, int]] = field(default_factory=dict)
    _structs: Optional[Dict[str, int]] = field(default=None, repr=False)

    def struct_id(self, name: str) -> Optional[int]:
        """The first struct type named ``name`` (an index built once: one lookup per probe)."""
        if self._structs is None:
            self._structs = {}
            for i, t in self.types.items():
                if t[0] == "struct":
                    self._structs.setdefault(self.names.get(i, ""), i)
        return self._structs.get(name)

    def members(self, sid: int) -> List[Tuple[str, int, int]]:
        """(name, offset or -1, type id) of each member of struct ``sid``."""
        return [(self.member_names.get((sid, k), f"_m{k}"), self.offsets.get((sid, k), -1), t)
                for k, t in enumerate(self.types[sid][1:])]

    def element(self, tid: int) -> int:
        """The element type under any arrays."""
        while self.types.get(tid, ("",))[0] == "array":
            tid = self.types[tid][1]
        return tid

    def length(self, tid: int) -> int:
        """An array's length (0 for a runtime array)."""
        t = self.types[tid]
        return self.constants.get(t[2], 0) if t[2] else 0

    def scalar_bytes(self, tid: int) -> Optional[int]:
        """Bytes of a scalar or vector type (``None`` for anything else)."""
        t = self.gpu_type(tid)
        return t.bytes() if t.kind != "atomic" else None

    def gpu_type(self, tid: int, depth: int = 0) -> GpuType:
        """The type ``tid`` as ``types.GpuType`` (what glslang built, not what the source
        wrote)."""
        t = self.types.get(tid, ("",))
        kind = t[0]
        if kind in ("int", "float"):
            return GpuType("uint" if kind == "int" and not t[2] else kind, t[1])
        if kind == BOOL:
            return GpuType(BOOL, 32)
        if depth > 64:
            return OPAQUE
        if kind in ("vector", "matrix"):
            return GpuType(kind, count=t[2], elem=self.gpu_type(t[1], depth + 1))
        if kind == "array":
            return GpuType("array", count=self.length(tid), elem=self.gpu_type(t[1], depth + 1))
        if kind == "struct":
            return GpuType("struct", name=self.names.get(tid, f"_{tid}"))
        return OPAQUE

    def block_of(self, sid: int) -> Optional[int]:
        """The storage class of the variable a block struct backs (``None``: not a block)."""
        if sid not in self.blocks:
            return None
        for cls, pointee in self.variables.values():
            if self.element(pointee) == sid:
                return cls
        return None


def _string(words) -> str:
    """A SPIR-V literal string: UTF-8, nul-terminated, packed little-endian into ``words``."""
    raw = words.tobytes() if sys.byteorder == "little" else b"".join(
        int(w).to_bytes(4, "little") for w in words)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def _variable(mod: Module, a) -> None:
    ptr = mod.types.get(a[0], ())
    if ptr and ptr[0] == "pointer":
        mod.variables[a[1]] = (a[2], ptr[2])


def _decorate(mod: Module, a) -> None:
    if len(a) >= 2 and a[1] in (_BLOCK, _BUFFER_BLOCK):
        mod.blocks[a[0]] = a[1]
    elif len(a) >= 3 and a[1] == _ARRAY_STRIDE:
        mod.strides[a[0]] = a[2]


def _member_decorate(mod: Module, a) -> None:
    if len(a) == 3 and a[2] == _ROW_MAJOR:
        mod.row_major.add((a[0], a[1]))
    if len(a) < 4:
        return
    if a[2] == _OFFSET:
        mod.offsets[(a[0], a[1])] = a[3]
    elif a[2] == _MATRIX_STRIDE:
        mod.matrix_strides[(a[0], a[1])] = a[3]


def _constant(mod: Module, a) -> None:
    if len(a) >= 3:
        mod.constants[a[1]] = a[2]


def _type(shape: Callable[[tuple], tuple]) -> Callable[[Module, tuple], None]:
    return lambda mod, a: mod.types.__setitem__(a[0], shape(a))


#: opcode -> what it adds to the module (every other instruction is skipped).
_READERS: Dict[int, Callable[[Module, tuple], None]] = {
    5: lambda mod, a: mod.names.__setitem__(a[0], _string(a[1:])),  # OpName
    6: lambda mod, a: mod.member_names.__setitem__((a[0], a[1]), _string(a[2:])),  # OpMemberName
    20: _type(lambda a: (BOOL,)),
    21: _type(lambda a: ("int", a[1], a[2])),
    22: _type(lambda a: ("float", a[1], 0)),
    23: _type(lambda a: ("vector", a[1], a[2])),
    24: _type(lambda a: ("matrix", a[1], a[2])),
    28: _type(lambda a: ("array", a[1], a[2])),
    29: _type(lambda a: ("array", a[1], 0)),  # OpTypeRuntimeArray
    30: _type(lambda a: ("struct", *a[1:])),
    32: _type(lambda a: ("pointer", a[1], a[2])),
    43: _constant,  # OpConstant
    50: _constant,  # OpSpecConstant: its default
    59: _variable,
    71: _decorate,
    72: _member_decorate,
}


def read_module(spirv: bytes) -> Module:
    """Every type, name and layout decoration of the SPIR-V module ``spirv``."""
    words = array.array("I", spirv[: len(spirv) // 4 * 4])
    if words and words[0] != 0x07230203:
        words.byteswap()
    mod = Module()
    i, n = 5, len(words)
    readers = _READERS
    while i < n:
        head = words[i]
        count, op = head >> 16, head & 0xFFFF
        if count == 0:
            raise ValueError("malformed SPIR-V: an instruction of 0 words")
        reader = readers.get(op)
        if reader is not None:
            reader(mod, words[i + 1:i + count])
        i += count
    return mod
