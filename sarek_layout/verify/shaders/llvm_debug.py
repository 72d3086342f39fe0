"""The debug information of an LLVM IR module (``clang -g -S -emit-llvm``): the structs the
Metal proxy built, member by member, with the base types under every typedef.

clang describes each type it compiled as metadata: ``!DICompositeType`` for a struct, union,
array or vector (``DIFlagVector``), ``!DIDerivedType`` for a member (its ``offset`` and
``size`` in bits), a typedef, a ``const``, an ``_Atomic``, and ``!DIBasicType`` for a scalar
with its DWARF encoding (``DW_ATE_float``, ``DW_ATE_signed``…). A typedef or a macro changes
nothing here: ``typedef float int32_t;`` makes a member a ``DW_ATE_float`` of 32 bits. A
struct is found through a global ``T *sarek_type_N;`` the probe declares (with
``-fstandalone-debug``, its type is described in full).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from .types import BOOL, OPAQUE, CompiledMember, CompiledStruct, GpuType

__all__ = ["DebugInfo"]

_NODE = re.compile(r"^!(\d+) = (?:distinct )?!(\w*)\((.*)\)\s*$|^!(\d+) = (?:distinct )?!\{(.*)\}\s*$",
                   re.M)
_FIELD = re.compile(r'(\w+): ("(?:[^"\\]|\\.)*"|!\d+|!\{[^}]*\}|[^,]+)')
_REF = re.compile(r"!(\d+)")
_ENCODINGS = {"DW_ATE_signed": "int", "DW_ATE_signed_char": "int", "DW_ATE_unsigned": "uint",
              "DW_ATE_unsigned_char": "uint", "DW_ATE_float": "float",
              "DW_ATE_boolean": BOOL, "DW_ATE_UTF": "uint"}
_TRANSPARENT = ("DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type",
                "DW_TAG_restrict_type")
_DEPTH = 64
#: The Metal proxy's stand-in matrices (``metal_stdlib``): structs of ``columns``.
_MATRIX = re.compile(r"(float|half)([234])x([234])")


def _fields(text: str) -> Dict[str, str]:
    return {k: v.strip() for k, v in _FIELD.findall(text)}


class DebugInfo:
    """The metadata nodes of one module, and the structs they describe."""

    def __init__(self, ir: str) -> None:
        self.nodes: Dict[int, Tuple[str, Dict[str, str]]] = {}
        self.lists: Dict[int, List[int]] = {}
        for m in _NODE.finditer(ir):
            if m.group(1) is not None:
                self.nodes[int(m.group(1))] = (m.group(2), _fields(m.group(3)))
            else:
                self.lists[int(m.group(4))] = [int(r) for r in _REF.findall(m.group(5))]
        self.globals = {f.get("name", "").strip('"'): f.get("type", "")
                        for kind, f in self.nodes.values() if kind == "DIGlobalVariable"}

    def _node(self, ref: str) -> Tuple[str, Dict[str, str]]:
        m = _REF.fullmatch(ref or "")
        return self.nodes.get(int(m.group(1)), ("", {})) if m else ("", {})

    def _elements(self, f: Dict[str, str]) -> List[int]:
        ref = f.get("elements", "")
        if ref.startswith("!{"):
            return [int(r) for r in _REF.findall(ref)]
        m = _REF.fullmatch(ref)
        return self.lists.get(int(m.group(1)), []) if m else []

    def struct_of(self, variable: str) -> Optional[CompiledStruct]:
        """The struct ``variable`` (a global ``T *``) points to, as compiled."""
        kind, f = self._node(self.globals.get(variable, ""))
        if f.get("tag") == "DW_TAG_pointer_type":
            kind, f = self._node(f.get("baseType", ""))
        name = ""
        for _ in range(_DEPTH):
            if kind != "DIDerivedType" or f.get("tag") not in _TRANSPARENT:
                break
            name = name or f.get("name", "").strip('"')
            kind, f = self._node(f.get("baseType", ""))
        if kind != "DICompositeType" or f.get("tag") not in ("DW_TAG_structure_type",
                                                            "DW_TAG_class_type"):
            return None
        out = CompiledStruct(f.get("name", "").strip('"') or name,
                             size=int(f.get("size", "0")) // 8 or None, place=self._place(f))
        for ref in self._elements(f):
            mkind, mf = self.nodes.get(ref, ("", {}))
            if (mkind != "DIDerivedType" or mf.get("tag") != "DW_TAG_member"
                    or "DIFlagStaticMember" in mf.get("flags", "")):
                continue  # a member function, a static member
            t = self.type_of(mf.get("baseType", ""))
            if "DIFlagBitField" in mf.get("flags", ""):
                t = GpuType("other", name="a bit-field")
            levels = self.levels(mf.get("baseType", ""))
            t = self._matrix(t, levels)
            out.members.append(CompiledMember(mf.get("name", "").strip('"'), t,
                                              int(mf.get("offset", "0")) // 8,
                                              int(mf.get("size", "0")) // 8 or None, levels))
        return out

    def _bytes(self, ref: str, depth: int = 0) -> Optional[int]:
        """The size of type node ``ref`` in bytes (through typedefs and qualifiers)."""
        kind, f = self._node(ref)
        if depth > _DEPTH:
            return None
        if kind == "DIDerivedType" and f.get("tag") in _TRANSPARENT + ("DW_TAG_atomic_type",):
            return self._bytes(f.get("baseType", ""), depth + 1)
        size = int(f.get("size", "0") or 0) // 8
        return size or None

    def _base(self, ref: str, depth: int = 0) -> Tuple[str, Dict[str, str]]:
        kind, f = self._node(ref)
        if depth < _DEPTH and kind == "DIDerivedType" and f.get("tag") in _TRANSPARENT:
            return self._base(f.get("baseType", ""), depth + 1)
        return kind, f

    def levels(self, ref: str) -> Tuple[Tuple[int, Optional[int]], ...]:
        """Each array and vector level of type node ``ref``: its count and stride (its
        element's size, as C lays arrays out), outermost first; the Metal proxy's matrices
        (``floatCxR``: a struct of ``columns``) as their columns."""
        out: List[Tuple[int, Optional[int]]] = []
        for _ in range(_DEPTH):
            kind, f = self._base(ref)
            if kind != "DICompositeType":
                break
            tag = f.get("tag", "")
            if tag == "DW_TAG_array_type":
                counts = [int(c) for c in (self._node(f"!{r}")[1].get("count", "0")
                                           for r in self._elements(f)) if c.lstrip("-").isdigit()]
                elem = f.get("baseType", "")
                total = self._bytes(elem)
                if "DIFlagVector" in f.get("flags", ""):
                    out.append((counts[0] if counts else 0, total))
                    break
                # ``T a[N][M]``: one node of counts (N, M); each level's stride is the
                # size of what it repeats
                for i, n in enumerate(counts):
                    inner = 1
                    for m in counts[i + 1:]:
                        inner *= m
                    out.append((n, total * inner if total is not None else None))
                ref = elem
                continue
            members = [self.nodes.get(r, ("", {}))[1] for r in self._elements(f)]
            fields = [m for m in members if m.get("tag") == "DW_TAG_member"
                      and "DIFlagStaticMember" not in m.get("flags", "")]
            if tag != "DW_TAG_structure_type" or len(fields) != 1 or \
                    fields[0].get("name", "").strip('"') not in ("columns", "v"):
                break
            # a stand-in matrix (its columns), a packed_ vector (its v), an element struct
            ref = fields[0].get("baseType", "")
        return tuple(out)

    @staticmethod
    def _matrix(t: GpuType, levels) -> GpuType:
        """The Metal proxy's ``floatCxR`` (a struct of ``columns``) as a matrix."""
        m = _MATRIX.fullmatch(t.name) if t.kind == "struct" else None
        if m is None or len(levels) != 2:
            return t
        scalar = GpuType("float", 32 if m.group(1) == "float" else 16)
        column = GpuType("vector", count=int(m.group(3)), elem=scalar)
        return GpuType("matrix", count=int(m.group(2)), elem=column)

    def _place(self, f: Dict[str, str]) -> Optional[Tuple[str, int]]:
        """(file name, line) of a type's declaration."""
        _, file = self._node(f.get("file", ""))
        name = file.get("filename", "").strip('"')
        while name.startswith("./"):
            name = name[2:]
        line = f.get("line", "")
        return (name, int(line)) if name and line.isdigit() else None

    def type_of(self, ref: str, depth: int = 0, alias: str = "") -> GpuType:
        """The ``GpuType`` of the type node ``ref`` (typedefs and qualifiers looked through;
        ``alias``: the typedef that named it, for a struct of no name of its own)."""
        kind, f = self._node(ref)
        tag = f.get("tag", "")
        if depth > _DEPTH:
            return OPAQUE
        if kind == "DIBasicType":
            encoding = _ENCODINGS.get(f.get("encoding", ""), "other")
            return GpuType(encoding, int(f.get("size", "0")),
                           name=f.get("name", "").strip('"') if encoding == "other" else "")
        if kind == "DIDerivedType" and tag in _TRANSPARENT:
            return self.type_of(f.get("baseType", ""), depth + 1,
                                alias or f.get("name", "").strip('"'))
        if kind == "DIDerivedType" and tag == "DW_TAG_atomic_type":
            return GpuType("atomic", elem=self.type_of(f.get("baseType", ""), depth + 1))
        if kind == "DICompositeType":
            return self._composite(f, depth, alias)
        return GpuType("other", name=tag.replace("DW_TAG_", "").replace("_type", "") or "?")

    def _composite(self, f: Dict[str, str], depth: int, alias: str) -> GpuType:
        tag = f.get("tag", "")
        if tag == "DW_TAG_array_type":
            elem = self.type_of(f.get("baseType", ""), depth + 1)
            counts = [int(c) for c in (self._node(f"!{r}")[1].get("count", "0")
                                       for r in self._elements(f)) if c.lstrip("-").isdigit()]
            if "DIFlagVector" in f.get("flags", ""):
                return GpuType("vector", count=counts[0] if counts else 0, elem=elem)
            for n in reversed(counts or [0]):
                elem = GpuType("array", count=max(n, 0), elem=elem)
            return elem
        if tag in ("DW_TAG_structure_type", "DW_TAG_class_type"):
            return GpuType("struct", name=f.get("name", "").strip('"') or alias)
        if tag == "DW_TAG_enumeration_type":
            return self.type_of(f.get("baseType", ""), depth + 1)
        return GpuType("other", name=tag.replace("DW_TAG_", "").replace("_type", ""))
