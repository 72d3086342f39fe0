"""Comparing two laid-out schemas type by type: every change, tagged with its rule.

``diff_schemas(old, new)`` matches types by module-qualified name (``Geometry.point``),
members by name, constructors by name, and reports each difference once as a ``Change``
(the rule ids and their classification are ``rules.RULES``). It reads only the member model
(``SchemaType.members`` / ``.arms``): no offset is recomputed here.

A member whose type is a record is compared through the pair of record types, once per
pair (memoised), so the work is linear in the size of both schemas however deep records
nest; the nested record's own differences are reported under that record, and the member
only says that its type changed incompatibly.

The report also carries every type's layout fingerprint on both sides (``layout_ids``), so
that each changed type's verdict is printed with its old and new ``layout_id``.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple

from ..ir.schema import Arm, Member, Schema, SchemaType, SourceLocation
from ..layout.fingerprint import layout_id_hex
from .change import Change
from .kinds import dims_change, enum_changes, enum_shape
from .rules import BREAKING, COMPATIBLE

__all__ = ["Change", "DiffReport", "diff_schemas"]


@dataclass
class DiffReport:
    """Every change between two schemas, in OLD declaration order then NEW additions."""

    changes: List[Change]
    old_types: int
    new_types: int
    #: The layout fingerprints (``0x`` + 16 hex digits) of every type on either side, by
    #: qualified name: ``(old, new)``, ``None`` where that side has no such type.
    layout_ids: Dict[str, Tuple[Optional[str], Optional[str]]] = field(default_factory=dict)

    @property
    def breaking(self) -> List[Change]:
        return [c for c in self.changes if c.breaking]

    @property
    def allowed(self) -> List[Change]:
        return [c for c in self.changes if c.allowed]

    @property
    def compatible(self) -> List[Change]:
        return [c for c in self.changes if c.severity == COMPATIBLE]

    @property
    def exit_status(self) -> int:
        """SPEC §5: 1 when any breaking change is left after ``--allow``, else 0."""
        return 1 if self.breaking else 0

    def allow(self, type_names: Sequence[str]) -> "DiffReport":
        """The report with every breaking change under ``type_names`` (qualified) accepted."""
        chosen = set(type_names)
        changes = [replace(c, allowed=True) if c.severity == BREAKING and c.type_name in chosen
                   else c for c in self.changes]
        return DiffReport(changes, self.old_types, self.new_types, self.layout_ids)

    def changed_types(self) -> List[Tuple[str, str, Optional[str], Optional[str]]]:
        """``(type, verdict, old layout_id, new layout_id)`` of each type with a change or
        another fingerprint, in report order; the verdict is the worst of its changes
        (``breaking``, ``breaking (allowed)``, ``compatible``)."""
        verdicts: Dict[str, str] = {}
        for c in self.changes:
            verdict = ("breaking" if c.breaking else "breaking (allowed)" if c.allowed
                       else "compatible")
            before = verdicts.get(c.type_name)
            if before is None or _WORST[verdict] > _WORST[before]:
                verdicts[c.type_name] = verdict
        for name, (old, new) in self.layout_ids.items():
            if old != new and name not in verdicts:
                verdicts[name] = "compatible"
        return [(name, verdict) + self.layout_ids.get(name, (None, None))
                for name, verdict in verdicts.items()]


_WORST = {"compatible": 0, "breaking (allowed)": 1, "breaking": 2}

#: What a member may hold, in the order a change between two of them names them.
_KINDS = ("scalar", "enum", "record")


def _element_kind(m: Member) -> str:
    """What a member holds (or repeats): an enum, a scalar or a record."""
    return "enum" if m.enum is not None else "scalar" if m.scalar is not None else "record"


def _record(m: Member) -> SchemaType:
    """The record a member of record type has (the member model sets exactly one of
    ``scalar`` and ``record``)."""
    assert m.record is not None
    return m.record


def _location(*candidates: object) -> Optional[SourceLocation]:
    for c in candidates:
        loc = getattr(c, "location", None)
        if loc is not None:
            return loc
    return None


def _type_location(st: SchemaType) -> Optional[SourceLocation]:
    return getattr(st.decl, "location", None)


class _Differ:
    """The comparison, with the memo of record pairs already compared."""

    def __init__(self) -> None:
        self._pairs: Dict[Tuple[int, int], Tuple[Change, ...]] = {}

    # --- types ------------------------------------------------------------------------------

    def pair(self, old: SchemaType, new: SchemaType) -> Tuple[Change, ...]:
        """Every change from ``old`` to ``new`` (reported under ``new``'s qualified name)."""
        key = (id(old), id(new))
        found = self._pairs.get(key)
        if found is None:
            found = tuple(self._compare(old, new))
            self._pairs[key] = found
        return found

    def _compare(self, old: SchemaType, new: SchemaType) -> List[Change]:
        name = new.qualified_name
        at = _type_location(new)
        if old.kind != new.kind:
            return [Change("kind-changed", name, "", "kind changed", old.kind, new.kind, at)]
        out: List[Change] = []
        if old.rules != new.rules:
            out.append(Change("rules-changed", name, "", "rule set changed", old.rules,
                              new.rules, at))
        if old.size != new.size:
            out.append(Change("size-changed", name, "", "size changed", old.size, new.size, at))
        if old.align != new.align:
            out.append(Change("align-changed", name, "", "alignment changed", old.align,
                              new.align, at))
        if old.kind == "record":
            self._members(out, name, "", old.members, new.members, 0, old.size)
        elif old.kind == "enum":
            out.extend(enum_changes(name, old, new, at))
        else:
            self._variant(out, name, old, new)
        return out

    # --- members ----------------------------------------------------------------------------

    def _members(self, out: List[Change], type_name: str, prefix: str,
                 old_members: Sequence[Member], new_members: Sequence[Member],
                 region_start: int, region_end: int) -> None:
        """Compare one struct's members (a record's fields or a constructor's arguments).

        ``[region_start, region_end)`` are the OLD bytes this struct may use: a member only
        NEW has is compatible when it lies there, in bytes no OLD member of it used.
        """
        renamed_to = self._renames(old_members, new_members)
        self._old_members(out, type_name, prefix, old_members, new_members, renamed_to,
                          region_end)
        renamed_new = {m.name for m in renamed_to.values()}
        self._added_members(out, type_name, prefix, old_members,
                            [n for n in new_members if n.name not in renamed_new],
                            region_start, region_end)

    def _renames(self, old_members: Sequence[Member],
                 new_members: Sequence[Member]) -> Dict[str, Member]:
        """OLD member name -> the NEW member that is it renamed: same place in the list, same
        offset and type, and a name OLD does not have."""
        old_by_name = {m.name: m for m in old_members}
        new_names = {m.name for m in new_members}
        renamed_to: Dict[str, Member] = {}
        for i, m in enumerate(old_members):
            if m.name in new_names or i >= len(new_members):
                continue
            candidate = new_members[i]
            if (candidate.name not in old_by_name and candidate.offset == m.offset
                    and self._same_type(m, candidate)):
                renamed_to[m.name] = candidate
        return renamed_to

    def _old_members(self, out: List[Change], type_name: str, prefix: str,
                     old_members: Sequence[Member], new_members: Sequence[Member],
                     renamed_to: Dict[str, Member], region_end: int) -> None:
        """What became of each OLD member: renamed, removed, moved, or its type changed."""
        new_by_name = {m.name: m for m in new_members}
        # The OLD bytes free after each OLD member (up to the next one, or the region's end):
        # a nested record that grows into them is still read right by OLD code at this place.
        room_end = {m.name: (old_members[i + 1].offset if i + 1 < len(old_members)
                             else region_end) for i, m in enumerate(old_members)}
        for m in old_members:
            path = prefix + m.name
            if m.name in renamed_to:
                twin = renamed_to[m.name]
                out.append(Change("member-renamed", type_name, path, "renamed", m.name,
                                  twin.name, _location(twin, m)))
                continue
            n = new_by_name.get(m.name)
            if n is None:
                out.append(Change("member-removed", type_name, path, "removed",
                                  self._spelling(m), None, _location(m)))
                continue
            if m.offset != n.offset:
                out.append(Change("member-moved", type_name, path, "offset changed", m.offset,
                                  n.offset, _location(n, m)))
            at = _location(n, m)
            element = self._element_change(type_name, path, m, n, room_end[m.name], at)
            if element is not None:
                out.append(element)
            shape = dims_change(type_name, path, m, n, room_end[m.name], at)
            if shape is not None:
                out.append(shape)

    def _added_members(self, out: List[Change], type_name: str, prefix: str,
                       old_members: Sequence[Member], new_members: Sequence[Member],
                       region_start: int, region_end: int) -> None:
        """Each member only NEW has: compatible in OLD's padding, breaking elsewhere."""
        old_names = {m.name for m in old_members}
        starts = [m.offset for m in old_members]
        for n in new_members:
            if n.name in old_names:
                continue
            inside = region_start <= n.offset and n.end <= region_end
            # Old members are in offset order: only the one starting last before n's end can
            # overlap it (structs never overlap their own members).
            k = bisect.bisect_left(starts, n.end) - 1
            overlaps = k >= 0 and old_members[k].end > n.offset
            rule = "member-added" if inside and not overlaps else "member-added-outside-padding"
            where = "in padding" if rule == "member-added" else (
                "beyond the old size" if n.end > region_end else "over bytes OLD members used")
            out.append(Change(rule, type_name, prefix + n.name, f"added {where}", None,
                              f"{self._spelling(n)} at offset {n.offset}", _location(n)))

    @staticmethod
    def _spelling(m: Member) -> str:
        if m.dims or m.enum is not None:
            return m.spelling
        return m.scalar.name if m.scalar is not None else _record(m).qualified_name

    def _same_type(self, m: Member, n: Member) -> bool:
        """Whether two members read the same bytes the same way (names of records and enums
        aside)."""
        if m.dims != n.dims or _element_kind(m) != _element_kind(n):
            return False
        if m.enum is not None:
            return not self._breaking(m.enum, n.enum)  # type: ignore[arg-type]
        if m.scalar is not None:
            return m.scalar.name == n.scalar.name  # type: ignore[union-attr]
        return not self._breaking(_record(m), _record(n))

    def _breaking(self, old: SchemaType, new: SchemaType) -> List[Change]:
        return [c for c in self.pair(old, new) if c.severity == BREAKING]

    def _element_change(self, type_name: str, path: str, m: Member, n: Member,
                        room_end: int, at: Optional[SourceLocation]) -> Optional[Change]:
        """The change of one member's element type (the scalar, enum or record it holds, or
        repeats); ``room_end`` ends the OLD bytes free after it."""
        kind = _element_kind(m)
        if kind != _element_kind(n):
            first, second = sorted((kind, _element_kind(n)), key=_KINDS.index)
            return Change("member-kind-changed", type_name, path,
                          f"changed between {first} and {second}", self._spelling(m),
                          self._spelling(n), at)
        if kind == "scalar":
            if m.scalar.name == n.scalar.name:  # type: ignore[union-attr]
                return None
            old, new = ((m.spelling, n.spelling) if m.dims or n.dims
                        else (m.scalar.name, n.scalar.name))  # type: ignore[union-attr]
            return Change("member-type-changed", type_name, path, "type changed", old, new, at)
        if kind == "enum":
            return self._enum_member_change(type_name, path, m, n, at)
        return self._record_change(type_name, path, m, n, room_end, at)

    def _enum_member_change(self, type_name: str, path: str, m: Member, n: Member,
                            at: Optional[SourceLocation]) -> Optional[Change]:
        old_enum, new_enum = m.enum, n.enum
        assert old_enum is not None and new_enum is not None
        breaking = self._breaking(old_enum, new_enum)
        if breaking:
            first = breaking[0]
            return Change("member-enum-changed", type_name, path,
                          f"its enum type changed incompatibly ({first.subject}: {first.what}; "
                          f"listed under {new_enum.qualified_name})",
                          old_enum.qualified_name, new_enum.qualified_name, at)
        if old_enum.qualified_name != new_enum.qualified_name:
            return Change("member-enum-replaced", type_name, path,
                          "enum type replaced by one that reads every OLD value alike",
                          old_enum.qualified_name, new_enum.qualified_name, at)
        return None  # the same enum, changed compatibly: its own lines say how

    def _record_change(self, type_name: str, path: str, m: Member, n: Member, room_end: int,
                       at: Optional[SourceLocation]) -> Optional[Change]:
        old_rec, new_rec = m.record, n.record
        assert old_rec is not None and new_rec is not None
        breaking = self._breaking(old_rec, new_rec)
        if breaking and self._grew_in_place(breaking, m, n, room_end):
            return Change("nested-record-grew", type_name, path,
                          f"its record type {new_rec.qualified_name} grew into bytes unused "
                          f"here", old_rec.size, new_rec.size, at)
        if breaking:
            if old_rec.qualified_name == new_rec.qualified_name:
                count = len(breaking)
                return Change("nested-record-changed", type_name, path,
                              f"its record type {new_rec.qualified_name} changed incompatibly "
                              f"({count} breaking change{'s' if count != 1 else ''}, listed under "
                              f"{new_rec.qualified_name})", location=at)
            first = breaking[0]
            return Change("nested-record-changed", type_name, path,
                          f"its record type is another, incompatible one ({first.subject}: "
                          f"{first.what})", old_rec.qualified_name, new_rec.qualified_name, at)
        if old_rec.qualified_name != new_rec.qualified_name:
            return Change("member-record-replaced", type_name, path,
                          "record type replaced by one with the same layout",
                          old_rec.qualified_name, new_rec.qualified_name, at)
        return None

    @staticmethod
    def _grew_in_place(breaking: Sequence[Change], m: Member, n: Member, room_end: int) -> bool:
        """Whether a nested record's only breaking changes are growth (members added past its
        old end, so a larger size or alignment) and, here, the member stays where it was and
        its new bytes fall in OLD bytes nothing else at this place used. Arrays of the record
        still move (its own changes say so), but an OLD reader of this member reads every old
        member where it was."""
        old_rec, new_rec = m.record, n.record
        assert old_rec is not None and new_rec is not None
        if (old_rec.qualified_name != new_rec.qualified_name or m.offset != n.offset
                or m.dims or n.dims  # an array of it: the stride moved its elements
                or new_rec.size <= old_rec.size or n.offset + new_rec.size > room_end):
            return False
        growth = {"size-changed", "align-changed", "member-added-outside-padding"}
        return all(c.rule in growth and (c.rule != "member-added-outside-padding"
                                         or c.what == "added beyond the old size")
                   for c in breaking)

    # --- variants ---------------------------------------------------------------------------

    def _variant(self, out: List[Change], name: str, old: SchemaType, new: SchemaType) -> None:
        if old.has_payload and new.has_payload and old.payload_offset != new.payload_offset:
            out.append(Change("payload-moved", name, "", "payload offset changed",
                              old.payload_offset, new.payload_offset, _type_location(new)))
        old_arms = {a.name: a for a in old.arms}
        new_arms = {a.name: a for a in new.arms}
        new_by_tag = {a.tag: a for a in new.arms}
        renamed_to: Dict[str, Arm] = {}
        for a in old.arms:
            if a.name in new_arms:
                continue
            candidate = new_by_tag.get(a.tag)
            if (candidate is not None and candidate.name not in old_arms
                    and self._same_args(a, candidate)):
                renamed_to[a.name] = candidate
        renamed_new = {a.name for a in renamed_to.values()}

        for a in old.arms:
            if a.name in renamed_to:
                twin = renamed_to[a.name]
                out.append(Change("ctor-renamed", name, a.name, "constructor renamed", a.name,
                                  twin.name, _location(twin, a)))
                continue
            b = new_arms.get(a.name)
            if b is None:
                out.append(Change("ctor-removed", name, a.name, "constructor removed",
                                  f"tag {a.tag}", None, _location(a)))
                continue
            if a.tag != b.tag:
                out.append(Change("ctor-renumbered", name, a.name, "tag changed", a.tag, b.tag,
                                  _location(b, a)))
            self._members(out, name, a.name + ".", a.args, b.args, old.payload_offset, old.size)
        for b in new.arms:
            if b.name in old_arms or b.name in renamed_new:
                continue
            if b.tag >= len(old.arms):
                out.append(Change("ctor-added", name, b.name, "constructor added at the end",
                                  None, f"tag {b.tag}", _location(b)))
            else:
                out.append(Change("ctor-inserted", name, b.name,
                                  f"constructor added with a tag OLD gave "
                                  f"{old.arms[b.tag].name}", None, f"tag {b.tag}",
                                  _location(b)))

    def _same_args(self, a: Arm, b: Arm) -> bool:
        if len(a.args) != len(b.args):
            return False
        return all(m.name == n.name and m.offset == n.offset and self._same_type(m, n)
                   for m, n in zip(a.args, b.args))


# --- the renamed-type hint ------------------------------------------------------------------


class _Shapes:
    """A small integer per distinct layout (kind, size, members with names and types), so
    that a removed type can find an added type of the same shape in one dictionary lookup.
    Nested records are numbered first, so no signature is hashed more than once."""

    def __init__(self) -> None:
        self._ids: Dict[tuple, int] = {}
        self._of: Dict[int, int] = {}

    def of(self, st: SchemaType) -> int:
        found = self._of.get(id(st))
        if found is not None:
            return found
        def member_key(m: Member) -> tuple:
            kind = (self.of(m.enum) if m.enum is not None else m.scalar.name
                    if m.scalar is not None else self.of(_record(m)))
            return (m.name, m.offset, kind, m.dims)
        key: tuple = (st.kind, st.size, st.align, st.rules,
                      enum_shape(st) if st.is_enum else (),
                      tuple(member_key(m) for m in st.members),
                      tuple((a.name, a.tag, tuple(member_key(m) for m in a.args))
                            for a in st.arms))
        shape = self._ids.setdefault(key, len(self._ids))
        self._of[id(st)] = shape
        return shape


def diff_schemas(old: Schema, new: Schema) -> DiffReport:
    """Every change from ``old`` to ``new``, type by type (see the module docstring)."""
    differ = _Differ()
    new_by_name = {t.qualified_name: t for t in new.types}
    old_names = {t.qualified_name for t in old.types}
    added = [t for t in new.types if t.qualified_name not in old_names]

    shapes = _Shapes()
    added_by_shape: Dict[int, List[SchemaType]] = {}
    for t in added:
        added_by_shape.setdefault(shapes.of(t), []).append(t)

    changes: List[Change] = []
    for t in old.types:
        n = new_by_name.get(t.qualified_name)
        if n is None:
            twins = added_by_shape.get(shapes.of(t), [])
            hint = f"removed (renamed to {twins[0].qualified_name}?)" if twins else "removed"
            changes.append(Change("type-removed", t.qualified_name, "", hint, t.kind, None,
                                  _type_location(t)))
            continue
        changes.extend(differ.pair(t, n))
    for t in added:
        changes.append(Change("type-added", t.qualified_name, "", "added", None, t.kind,
                              _type_location(t)))
    ids: Dict[str, Tuple[Optional[str], Optional[str]]] = {
        t.qualified_name: (layout_id_hex(t), None) for t in old.types}
    for t in new.types:
        ids[t.qualified_name] = (ids.get(t.qualified_name, (None, None))[0], layout_id_hex(t))
    return DiffReport(changes, len(old.types), len(new.types), ids)
