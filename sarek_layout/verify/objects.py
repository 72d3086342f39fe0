"""``verify --object``: compare the structs a real build produced with the layout.

``verify_objects(schema, paths)`` reads each file's DWARF (``dwarf.read_object``), finds every
schema type by its C name, and compares, definition by definition (one per compile unit
that differs), the size, the alignment where DWARF records it, and for every member of the
emitted shape (``targets.shape``, SPEC §4: record fields; a variant's ``tag``, ``data``,
each arm ``<Ctor>_v`` and each argument ``_0``, ``_1``…) its offset, its alignment where
recorded, its width and what kind of type it is (a ``float`` where the schema says ``int32``
is caught even at the same width; a float16 is 16 unsigned bits, as generated headers store
it, or a compiler's 2-byte float). Padding members (``_sarek_…``) are the header's business
and are skipped.

The expected numbers are the member model's (``SchemaType.members``/``arms``), read through
the shape; nothing here computes a layout or a member path. A member of record type is
checked as a whole (offset, width, and that its type is that record's C name); the record's
own members are checked as that type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Union

from ..ir.schema import Member, Schema, SchemaType
from ..ir.types import SCALARS
from ..targets.naming import DATA_MEMBER, is_padding
from ..targets.shape import Array, Shape, Slot, Struct, Union as ShapeUnion, shape_of
from .dwarf import MemberInfo, StructInfo, TypeInfo, read_object, shown_name
from .objects_kinds import KindsObjectChecks

__all__ = ["ObjectDifference", "ObjectResult", "ObjectReport", "verify_objects"]

_INTEGER_ENCODINGS = ("signed", "signed char")


@dataclass(frozen=True)
class ObjectDifference:
    """One value an object's DWARF gives differently from the layout."""

    c_type: str
    member: str  # C member path ("mass", "data.Circle_v._1"); "" for the type itself
    what: str  # size | alignment | offset | member size | type | member | count | stride | value
    expected: Union[int, str]
    found: Union[int, str]
    who: str  # "build/geo.o", "libgeo.a(geo.o) [geo.c]"

    def __str__(self) -> str:
        where = f"{self.c_type}.{self.member}" if self.member else self.c_type
        if self.what == "member":
            return f"{where}: {self.expected}, {self.who} {self.found}"
        return f"{where}: layout says {self.what} {self.expected}, {self.who} says {self.found}"


@dataclass
class ObjectResult:
    """What one file (all its ELF images) showed."""

    path: str  # as shown (``dwarf.shown_name``): the path given, unless it is not printable
    images: int = 0
    types_found: int = 0
    values: int = 0
    differences: List[ObjectDifference] = field(default_factory=list)
    not_found: List[str] = field(default_factory=list)
    #: Archive members without DWARF, and such remarks.
    notes: List[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


@dataclass
class ObjectReport:
    """Every object's result; ``exit_status`` is 0 when all agree and at least one schema
    type was found in some object, else 1."""

    results: List[ObjectResult]
    types: int

    @property
    def found_any(self) -> bool:
        return any(r.types_found for r in self.results)

    @property
    def ok(self) -> bool:
        return self.found_any and all(r.ok for r in self.results)

    @property
    def exit_status(self) -> int:
        return 0 if self.ok else 1

    def differences(self) -> List[str]:
        """Every difference, one line each (for tests and plugins)."""
        return [str(d) for r in self.results for d in r.differences]

    def format(self, max_lines: int = 50) -> str:
        """The report people read: one line per object, the differences of each (at most
        ``max_lines`` per object), the types not found and the notes, and a summary."""
        lines = self._table()
        for r in self.results:
            if r.differences:
                lines += ["", f"{r.path}: {len(r.differences)} value(s) differ from the layout:"]
                lines += _capped([f"  {d}" for d in r.differences], max_lines,
                                 "  … and {} more")
        missing = [f"{name}: not found in {r.path}" for r in self.results for name in r.not_found]
        notes = [n for r in self.results for n in r.notes]
        if missing or notes:
            lines.append("")
            lines += _capped(missing, max_lines, "… and {} more types not found")
            lines += notes[:max_lines]
        lines += ["", self._summary()]
        return "\n".join(lines) + "\n"

    def _table(self) -> List[str]:
        width = max([len("object")] + [len(r.path) for r in self.results])
        lines = [f"{'object':<{width}}  result"]
        for r in self.results:
            lines.append(f"{r.path:<{width}}  {_cell(r)}")
        return lines

    def _summary(self) -> str:
        agree = sum(1 for r in self.results if r.ok and r.types_found)
        summary = (f"{agree} of {_count(len(self.results), 'object')} agree with the layout "
                   f"of {_count(self.types, 'type')}")
        if not self.found_any:
            summary += ("; no schema type is in any object (DWARF keeps only the types the "
                        "code uses: use them, or build with -fno-eliminate-unused-debug-types)")
        return summary


def _count(n: int, noun: str) -> str:
    """``1 type``, ``2 types``."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _cell(r: ObjectResult) -> str:
    """One object's verdict in the table."""
    if r.differences:
        n = len(r.differences)
        return f"DISAGREES ({_count(n, 'value')} differ{'s' if n == 1 else ''})"
    if r.types_found:
        return f"agrees ({_count(r.types_found, 'type')}, {r.values} values)"
    return "no schema type found"


def _capped(lines: List[str], most: int, more: str) -> List[str]:
    """The first ``most`` of ``lines``, and ``more`` (formatted with how many were left
    out) when some were."""
    if len(lines) <= most:
        return lines
    return lines[:most] + [more.format(len(lines) - most)]


# --- comparing one definition -----------------------------------------------------------------


class _Checker(KindsObjectChecks):
    """Compares one DWARF definition with one schema type, collecting differences (the
    member kinds of SPEC §1b and the enums: ``objects_kinds``)."""

    def __init__(self, st: SchemaType, who: str) -> None:
        self.st = st
        self.who = who
        self.out: List[ObjectDifference] = []
        self.values = 0

    def differ(self, member: str, what: str, expected, found) -> None:
        self.out.append(ObjectDifference(self.st.c_name, member, what, expected, found, self.who))

    def value(self, member: str, what: str, expected: int, found: Optional[int]) -> None:
        if found is None:
            return  # DWARF does not say (an alignment nobody specified)
        self.values += 1
        if found != expected:
            self.differ(member, what, expected, found)

    def check(self, s: StructInfo) -> None:
        st = self.st
        if s.kind != "struct":
            self.differ("", "type", f"a struct ({st.kind})", f"a {s.kind}")
            return
        self.value("", "size", st.size, s.size)
        self.value("", "alignment", st.align, s.align)
        shape = shape_of(st)
        if shape.tag is None:
            self.members("", shape.members, s.members, 0)  # type: ignore[arg-type]
            return
        self.variant(shape, s)

    def variant(self, shape: Shape, s: StructInfo) -> None:
        """``tag``, then the union ``data`` and its arms; any other member is extra."""
        tag, data = shape.tag, shape.data
        assert tag is not None
        dwarf = _named(s.members)
        self.members("", (tag,), [m for m in s.members if m.name == tag.name], 0)
        others = [m.name or "(anonymous)" for m in _visible(s.members)
                  if m.name not in (tag.name, DATA_MEMBER)]
        for name in others:
            self.differ(name, "member", "the layout has no such member", "has one")
        found = dwarf.get(DATA_MEMBER)
        if data is None:
            if found is not None:
                self.differ(DATA_MEMBER, "member", "the layout has no payload",
                            "has a data member")
            return
        if found is None:
            self.differ(data.path, "member", f"the layout has it (the payload union at offset "
                        f"{data.offset})", "has no such member")
            return
        self.value(data.path, "offset", data.offset, found.offset)
        self.value(data.path, "alignment", data.align, found.align)  # the payload's is P
        if found.type.kind != "union":
            self.differ(data.path, "type", "a union of the constructors' arms",
                        found.type.spelling)
            return
        self.arms(data, found)

    def arms(self, data: ShapeUnion, found_data: MemberInfo) -> None:
        base = found_data.offset or 0
        found_arms = _named(found_data.type.members)
        for arm in data.arms:
            path = arm.path
            found = found_arms.get(arm.name)
            if found is None:
                ctor = arm.ctor.name if arm.ctor is not None else arm.name
                self.differ(path, "member", f"the layout has it (constructor {ctor})",
                            "has no such member")
                continue
            self.value(path, "offset", arm.offset, None if found.offset is None
                       else base + found.offset)
            arm_base = base + (found.offset or 0)
            if isinstance(arm, (Slot, Array)) and _is_the_argument(arm.member, found.type):
                # SPEC §4: a one-argument arm is the argument itself (a record too).
                self.member_type(path, arm.member, found, arm)
            elif found.type.kind == "struct" and found.type.members:
                # A struct of the arguments. One argument wrapped in a struct (not SPEC §4's
                # shape, but the same bytes) is compared as a struct of that argument, by
                # the name the member model gives it (``_0``).
                inner = arm.member.name if isinstance(arm, Slot) else ""
                args = arm.members if isinstance(arm, Struct) else \
                    (arm._replace(path=f"{path}.{inner}", name=inner, ctor=None),)
                self.members(path + ".", args, found.type.members, arm_base)
            elif isinstance(arm, (Slot, Array)):
                self.member_type(path, arm.member, found, arm)
            else:
                self.differ(path, "type", f"a struct of {len(arm.members)} arguments",
                            found.type.spelling)
        wanted = {arm.name for arm in data.arms}
        for m in _visible(found_data.type.members):
            if m.name not in wanted:
                self.differ(f"{data.path}.{m.name or '(anonymous)'}", "member",
                            "the layout has no such arm", "has one")

    def members(self, prefix: str, expected: Sequence[Slot], found: Sequence[MemberInfo],
                base: int) -> None:
        """The slots of one struct (``prefix`` names it) against its DWARF members, whose
        offsets are from ``base``; members the layout lacks are reported too."""
        by_name = _named(found)
        for slot in expected:
            m, path = slot.member, slot.path
            d = by_name.get(slot.name)
            if d is None:
                self.differ(path, "member", f"the layout has it ({m.spelling} at offset "
                            f"{m.offset})", "has no such member")
                continue
            if d.bit_field:
                self.differ(path, "type", m.spelling, f"a bit-field of {d.type.spelling}")
                continue
            self.value(path, "offset", m.offset, None if d.offset is None else base + d.offset)
            self.member_type(path, m, d, slot)
        names = {slot.name for slot in expected}
        for d in _visible(found):
            if d.name not in names:
                self.differ(prefix + (d.name or "(anonymous)"), "member",
                            "the layout has no such member",
                            f"has one ({d.type.spelling} at offset {base + (d.offset or 0)})")

    def member_type(self, path: str, m: Member, d: MemberInfo, node=None) -> None:
        levels = getattr(node, "levels", ())
        # An array is compiled as count × stride (Array.span: past the model's size where
        # the rules end it at its last element and nothing uses that element's padding).
        self.value(path, "member size", node.span if isinstance(node, Array) else m.size,
                   d.type.size)
        self.alignment(path, m, d.align)
        t = d.type
        if m.dims:
            self.kinds_member(path, m, levels, t)
            return
        if m.scalar is not None:
            if not _scalar_matches(m.scalar.name, t):
                self.differ(path, "type", m.scalar.name, _describe(t))
        elif m.record is not None and (t.kind != "struct" or m.record.c_name not in t.names):
            self.differ(path, "type", m.record.c_name, _describe(t))
        if m.enum is not None and t.kind == "enum":
            self.enum_values(path, m.enum, t)

    def alignment(self, path: str, m: Member, found: Optional[int]) -> None:
        """A member's recorded alignment: the layout's, or a pin above it that moves no byte
        (at most the type's own alignment, at an offset it divides: the generated headers pin
        a std140 record's first member to 16 to make the struct 16-aligned). The offsets and
        the type's alignment are checked on their own, so such a pin cannot hide a change."""
        if found is not None and found > m.align and found <= self.st.align \
                and m.offset % found == 0:
            found = m.align
        self.value(path, "alignment", m.align, found)

    @staticmethod
    def scalar_matches(scalar: str, t: TypeInfo) -> bool:
        return _scalar_matches(scalar, t)


def _is_the_argument(arg: Member, t: TypeInfo) -> bool:
    """Whether the arm of type ``t`` is the constructor's one argument ``arg`` itself, not a
    struct of ``_0``: a scalar, the argument's record by its C name, or a member of SPEC
    §1b's kinds (an array, or a vector: CUDA's is a struct, of ``x``…, not of ``_0``)."""
    if arg.dims:
        return not (t.kind == "struct" and any(m.name == "_0" for m in t.members))
    if arg.record is None:
        return t.kind != "struct"
    return t.kind == "struct" and arg.record.c_name in t.names


def _visible(members: Sequence[MemberInfo]) -> List[MemberInfo]:
    return [m for m in members if not is_padding(m.name)]


def _named(members: Sequence[MemberInfo]) -> Dict[str, MemberInfo]:
    return {m.name: m for m in _visible(members) if m.name}


def _scalar_matches(scalar: str, t: TypeInfo) -> bool:
    s = SCALARS[scalar]
    if t.kind != "base":
        # int32, int64, bool and unit may be a C enum (an int); nothing else is a scalar.
        return t.kind == "enum" and s.is_signed_int
    if s.half_float:
        # Its binary16 bits in 16 unsigned bits (sarek_layout_float16 is a uint16_t), or a
        # compiler's own 2-byte float (_Float16, __fp16, MSL half); the width is checked apart.
        return t.encoding in ("unsigned", "float")
    if s.is_float:
        return t.encoding == "float"
    if s.is_unsigned:
        return t.encoding in ("unsigned char", "unsigned")
    # int32, int64, and bool and unit (stored as int32_t): a signed integer.
    return t.encoding in _INTEGER_ENCODINGS


def _describe(t: TypeInfo) -> str:
    what = {"float": "floating-point", "signed": "signed integer", "unsigned": "unsigned integer",
            "boolean": "boolean", "signed char": "signed char", "unsigned char": "unsigned char"}
    if t.kind == "base":
        width = f"{t.size}-byte " if t.size else ""
        return f"{t.spelling} ({width}{what.get(t.encoding or '', t.encoding or 'base type')})"
    return t.spelling


# --- files ----------------------------------------------------------------------------------


def _check_file(schema: Schema, path: str) -> ObjectResult:
    types = {t.c_name: t for t in schema.types}
    images = read_object(path, list(types))
    result = ObjectResult(shown_name(path), images=len(images))
    result.notes = [f"{image.label}: no DWARF debugging information (compile with -g)"
                    for image in images if not image.has_dwarf]
    found: Dict[str, int] = {}
    for image in images:
        for c_name in types:  # schema order, so reports are stable
            if types[c_name].is_enum:
                definitions = image.scalars.get(c_name)  # type: ignore[assignment]
            else:
                definitions = image.structs.get(c_name)
            if not definitions:
                continue
            found[c_name] = found.get(c_name, 0) + 1
            several = len(definitions) > 1
            for info, units in definitions.items():
                who = image.label
                if several:
                    shown = ", ".join(units[:3]) + (f" and {len(units) - 3} more"
                                                     if len(units) > 3 else "")
                    who += f" [{shown}]"
                checker = _Checker(types[c_name], who)
                if types[c_name].is_enum:
                    checker.enum_type(types[c_name], info)  # type: ignore[arg-type]
                else:
                    checker.check(info)
                result.values += checker.values
                result.differences.extend(checker.out)
    result.types_found = len(found)
    result.not_found = [c for c in types if c not in found]
    return result


def verify_objects(schema: Schema, paths: Sequence[str],
                   types: Optional[Sequence[SchemaType]] = None) -> ObjectReport:
    """Check every schema type (or ``types``) in each of ``paths``; raises ``ObjectError``
    (exit 2) for a file that cannot be read, is not ELF or has no DWARF."""
    if types is not None:
        schema = Schema(schema.modules, tuple(types))
    return ObjectReport([_check_file(schema, p) for p in paths], len(schema.types))

