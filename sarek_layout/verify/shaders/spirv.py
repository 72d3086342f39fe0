"""A small reader of a SPIR-V module's types and layout decorations (one linear pass).

``drivers.glsl.struct_layouts`` keeps one copy of each struct by name; a hand-written shader
can use the same struct in a std140 and a std430 block, which glslang emits as two struct
types of the same name with different ``Offset`` decorations, so this reader keeps every
type by its id, with what is needed to tell which copy a block uses: ``OpVariable`` storage
classes, ``Block``/``BufferBlock`` decorations, array lengths (``OpConstant``) and strides.
Opcodes and decorations are the SPIR-V 1.x specification's.
"""

from __future__ import annotations

import array
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

__all__ = ["Module", "read_module"]

_OP_NAME, _OP_MEMBER_NAME = 5, 6
_OP_TYPE_BOOL, _OP_TYPE_INT, _OP_TYPE_FLOAT, _OP_TYPE_VECTOR, _OP_TYPE_MATRIX = 20, 21, 22, 23, 24
_OP_TYPE_ARRAY, _OP_TYPE_RUNTIME_ARRAY, _OP_TYPE_STRUCT, _OP_TYPE_POINTER = 28, 29, 30, 32
_OP_CONSTANT, _OP_VARIABLE, _OP_DECORATE, _OP_MEMBER_DECORATE = 43, 59, 71, 72
_BLOCK, _BUFFER_BLOCK, _ARRAY_STRIDE, _MATRIX_STRIDE, _OFFSET = 2, 3, 6, 7, 35
#: Storage classes of the variables a block can back.
UNIFORM, PUSH_CONSTANT, STORAGE_BUFFER = 2, 9, 12


@dataclass
class Module:
    names: Dict[int, str] = field(default_factory=dict)
    member_names: Dict[Tuple[int, int], str] = field(default_factory=dict)
    #: id -> ("int"|"float", width, signed) / ("bool",) / ("vector"|"matrix", elem, n) /
    #: ("array", elem, length id or 0) / ("struct", member ids…) / ("pointer", class, type)
    types: Dict[int, tuple] = field(default_factory=dict)
    constants: Dict[int, int] = field(default_factory=dict)
    offsets: Dict[Tuple[int, int], int] = field(default_factory=dict)
    matrix_strides: Dict[Tuple[int, int], int] = field(default_factory=dict)
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
        t = self.types.get(tid, ("",))
        if t[0] in ("int", "float"):
            return t[1] // 8
        if t[0] == "bool":
            return 4
        if t[0] == "vector":
            inner = self.scalar_bytes(t[1])
            return None if inner is None else inner * t[2]
        return None


def _string(words) -> str:
    raw = b"".join(int(w).to_bytes(4, "little") for w in words)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def read_module(spirv: bytes) -> Module:
    words = array.array("I", spirv[: len(spirv) // 4 * 4])
    if words and words[0] != 0x07230203:
        words.byteswap()
    mod = Module()
    i = 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xFFFF
        if count == 0:
            raise ValueError("malformed SPIR-V: an instruction of 0 words")
        a = words[i + 1:i + count]
        if op == _OP_NAME:
            mod.names[a[0]] = _string(a[1:])
        elif op == _OP_MEMBER_NAME:
            mod.member_names[(a[0], a[1])] = _string(a[2:])
        elif op == _OP_TYPE_BOOL:
            mod.types[a[0]] = ("bool",)
        elif op == _OP_TYPE_INT:
            mod.types[a[0]] = ("int", a[1], a[2])
        elif op == _OP_TYPE_FLOAT:
            mod.types[a[0]] = ("float", a[1], 0)
        elif op in (_OP_TYPE_VECTOR, _OP_TYPE_MATRIX):
            mod.types[a[0]] = ("vector" if op == _OP_TYPE_VECTOR else "matrix", a[1], a[2])
        elif op == _OP_TYPE_ARRAY:
            mod.types[a[0]] = ("array", a[1], a[2])
        elif op == _OP_TYPE_RUNTIME_ARRAY:
            mod.types[a[0]] = ("array", a[1], 0)
        elif op == _OP_TYPE_STRUCT:
            mod.types[a[0]] = ("struct", *a[1:])
        elif op == _OP_TYPE_POINTER:
            mod.types[a[0]] = ("pointer", a[1], a[2])
        elif op == _OP_CONSTANT and len(a) >= 3:
            mod.constants[a[1]] = a[2]
        elif op == _OP_VARIABLE:
            ptr = mod.types.get(a[0], ())
            if ptr and ptr[0] == "pointer":
                mod.variables[a[1]] = (a[2], ptr[2])
        elif op == _OP_DECORATE and len(a) >= 2:
            if a[1] in (_BLOCK, _BUFFER_BLOCK):
                mod.blocks[a[0]] = a[1]
            elif a[1] == _ARRAY_STRIDE and len(a) >= 3:
                mod.strides[a[0]] = a[2]
        elif op == _OP_MEMBER_DECORATE and len(a) >= 4:
            if a[2] == _OFFSET:
                mod.offsets[(a[0], a[1])] = a[3]
            elif a[2] == _MATRIX_STRIDE:
                mod.matrix_strides[(a[0], a[1])] = a[3]
        i += count
    return mod
