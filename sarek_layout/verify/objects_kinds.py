"""``verify --object``: the members of SPEC §1b's kinds, and the enums, in a build's DWARF
(the object check's part for them; ``objects._Checker`` mixes it in).

A member of the kinds is a DWARF array per array level of its emitted shape
(``targets.shape.Array.levels``), whose ``DW_TAG_subrange_type`` children give each
dimension's count (``dwarf.TypeInfo.dims``): every count is compared, and every level's
stride, which is the size of what one element of that dimension holds (the dimensions below
it times the element's size, as the compiler recorded them). Where a level's stride is larger
than its element, the element is a struct whose one member is ``v`` (the generated headers'
form, ``codegen.declarations``), read in turn. A vector is an array of its components, or a
struct of them (CUDA's ``float4``: ``x``, ``y``, ``z``, ``w`` under nvcc ``-g``). An enum
member, and an enum type, is an integer of its base's width, or a C enum
(``DW_TAG_enumeration_type``) whose enumerators must hold the schema's values, named as the
schema (``Metal``) or as the C family's constants (``<c_name>_Metal``).

Every expected number is the member model's, through the shape; nothing here computes one.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..ir.schema import VECTOR, Member, SchemaType
from ..targets.naming import ELEMENT_MEMBER, enum_constant, is_padding
from .dwarf import TypeInfo

__all__ = ["KindsObjectChecks"]


def _shown(dims: Sequence[Optional[int]]) -> str:
    return "".join(f"[{'?' if n is None else n}]" for n in dims) or "no array"


def _vector(m: Member) -> Optional[Tuple[str, int]]:
    for d in m.dims:
        if d.kind == VECTOR:
            return m.scalar.name, d.count  # type: ignore[union-attr]
    return None


class KindsObjectChecks:
    """Mixed into ``objects._Checker`` (``value``, ``differ``, ``member_type``,
    ``scalar_matches``)."""

    def kinds_member(self, path: str, m: Member, levels: Sequence, t: TypeInfo) -> None:
        """Member ``m`` (with ``dims``; ``levels`` its array levels) found as type ``t``."""
        self._levels(path, m, levels, 0, t)

    def _levels(self, path: str, m: Member, levels: Sequence, k: int, t: TypeInfo) -> None:
        segment: List[int] = []
        strides: List[int] = []
        j, wrapped = k, False
        while j < len(levels):  # the levels one DWARF array holds: down to a wrapped one
            segment.append(levels[j].count)
            strides.append(levels[j].stride)
            j += 1
            if levels[j - 1].wrapped:
                wrapped = True
                break
        dims = t.dims if t.kind == "array" else ()
        element = t.element if t.kind == "array" else t
        if len(dims) < len(segment) or element is None:
            self.differ(path, "type", f"{m.spelling} ({_shown(segment)} here)",  # type: ignore[attr-defined]
                        f"{t.spelling}{_shown(dims) if dims else ''}")
            return
        size = element.size
        for i, count in enumerate(segment):
            at = path + "[0]" * i
            self.value(at, "count", count, dims[i])  # type: ignore[attr-defined]
            held = self._held(dims[i + 1:], size)
            self.value(at + "[0]", "stride", strides[i], held)  # type: ignore[attr-defined]
        extra = dims[len(segment):]
        inner = path + "[0]" * len(segment)
        if wrapped:
            self._wrapped(inner, m, levels, j, element, extra)
        elif j == len(levels) and _vector(m) is not None:
            self._vector(inner, m, element, extra)
        elif extra:
            self.differ(inner, "type", m.spelling,  # type: ignore[attr-defined]
                        f"{element.spelling}{_shown(extra)} (more dimensions)")
        else:
            self.element(inner, m, element)

    @staticmethod
    def _held(dims: Sequence[Optional[int]], size: Optional[int]) -> Optional[int]:
        """The bytes one element of a dimension holds: the dimensions below it of ``size``."""
        if size is None:
            return None
        for n in dims:
            if n is None:
                return None
            size *= n
        return size

    def _wrapped(self, path: str, m: Member, levels: Sequence, j: int, element: TypeInfo,
                 extra) -> None:
        named = [x for x in element.members if x.name and not is_padding(x.name)]
        if extra or element.kind != "struct" or [x.name for x in named] != [ELEMENT_MEMBER]:
            self.differ(path, "type", f"a struct of `{ELEMENT_MEMBER}` and padding (its "  # type: ignore[attr-defined]
                        f"stride is larger than its element: {m.spelling})",
                        f"{element.spelling}{_shown(extra) if extra else ''}")
            return
        v = named[0]
        self.value(f"{path}.{ELEMENT_MEMBER}", "offset", 0, v.offset)  # type: ignore[attr-defined]
        self._levels(f"{path}.{ELEMENT_MEMBER}", m, levels, j, v.type)

    def _vector(self, path: str, m: Member, element: TypeInfo, extra) -> None:
        """A vector: its components (one more dimension), or a struct of them (CUDA's)."""
        scalar, n = _vector(m)  # type: ignore[misc]
        if len(extra) == 1:
            self.value(path, "count", n, extra[0])  # type: ignore[attr-defined]
            if not self.scalar_matches(scalar, element):  # type: ignore[attr-defined]
                self.differ(path + "[0]", "type", scalar, element.spelling)  # type: ignore[attr-defined]
            return
        parts = [x for x in element.members if x.name and not is_padding(x.name)]
        if extra or element.kind != "struct" or len(parts) != n:
            self.differ(path, "type", f"{m.spelling}: {n} components of {scalar}",  # type: ignore[attr-defined]
                        f"{element.spelling}{_shown(extra) if extra else ''}")
            return
        for i, x in enumerate(parts):
            self.value(f"{path}.{x.name}", "offset", i * m.scalar.size, x.offset)  # type: ignore[union-attr]  # type: ignore[attr-defined]
            if not self.scalar_matches(scalar, x.type):  # type: ignore[attr-defined]
                self.differ(f"{path}.{x.name}", "type", scalar, x.type.spelling)  # type: ignore[attr-defined]

    def element(self, path: str, m: Member, t: TypeInfo) -> None:
        """One value of ``m`` (an array's element, or the member itself): a scalar, an enum or
        a record, as ``member_type`` compares them."""
        if m.scalar is not None and not self.scalar_matches(m.scalar.name, t):  # type: ignore[attr-defined]
            self.differ(path, "type", m.scalar.name, t.spelling)  # type: ignore[attr-defined]
        elif m.record is not None and (t.kind != "struct" or m.record.c_name not in t.names):
            self.differ(path, "type", m.record.c_name, t.spelling)  # type: ignore[attr-defined]
        if m.enum is not None and t.kind == "enum":
            self.enum_values(path, m.enum, t)

    def enum_values(self, path: str, enum: SchemaType, t: TypeInfo) -> None:
        """A C enum's enumerators against the schema enum's values (each by its name or its
        C family constant's)."""
        found: Dict[str, int] = dict(t.enumerators)
        for name, value in enum.elttype.values:  # type: ignore[union-attr]
            got = found.get(name, found.get(enum_constant(enum.c_name, name)))
            if got is None:
                self.differ(path, "member", f"the enum has {name} = {value}",  # type: ignore[attr-defined]
                            "has no such enumerator")
            else:
                self.value(f"{path}:{name}" if path else name, "value", value, got)  # type: ignore[attr-defined]

    def enum_type(self, st: SchemaType, t: TypeInfo) -> None:
        """The enum type ``st`` as the build recorded its C name: an integer of its base."""
        base = st.elttype.base.name  # type: ignore[union-attr]
        self.value("", "size", st.size, t.size)  # type: ignore[attr-defined]
        if not self.scalar_matches(base, t) and not (t.kind == "enum" and t.size == st.size):  # type: ignore[attr-defined]
            self.differ("", "type", f"an enum of {base}", t.spelling)  # type: ignore[attr-defined]
        if t.kind == "enum":
            self.enum_values("", st, t)
