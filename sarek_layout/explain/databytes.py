"""Counting the bytes of a type that hold data: every scalar's bytes, never the padding.

A record's count is the sum of its members' (a nested record's counted once per record
type; a fixed array, vector or matrix counts its elements' data, never its strides). A
variant's is the tag's plus the union over its constructors: arguments of several
constructors overlap, and a byte some argument of some constructor uses holds data.

The union is taken structurally where it can be (the same record or scalar at the same
place counts once; a member that overlaps no other counts its own sum), and otherwise from
the members' *data patterns*: a member's data bytes repeat every ``period`` bytes over its
extent (an array's outermost stride, once levels without a gap between them are merged), so
a run of overlapping members is counted over one common period per stretch where the same
members overlap, never element by element, and never with a mask of the whole run unless
the common period is as long as the stretch.
"""

from __future__ import annotations

import math
import weakref
from typing import Dict, List, Sequence, Tuple

from ..ir.schema import Dim, Member, SchemaType

__all__ = ["DataBytes", "record_data_bytes", "UNION_BUDGET", "merged_dims"]

#: Members the structural union of overlapping constructor arguments may open in all
#: before it falls back to data patterns (bounds the work of adversarial overlaps).
UNION_BUDGET = 4096
#: Longest common period a stretch of overlapping members is counted over; a longer one
#: (or a stretch shorter than it) is counted with a mask of the stretch itself.
PERIOD_LIMIT = 1 << 16

#: Data bytes of each record type, for as long as the type lives (shared by every count).
_RECORD_DATA: "weakref.WeakKeyDictionary[SchemaType, int]" = weakref.WeakKeyDictionary()


def merged_dims(dims: Sequence[Dim]) -> Tuple[Tuple[int, int], ...]:
    """``(count, stride)`` per level, outermost first, with each level whose stride is its
    element's whole extent merged into the level below (``float32[2][3]`` is six floats 4
    bytes apart, a std430 ``mat3[2]`` six columns 16 bytes apart)."""
    out: List[Tuple[int, int]] = []
    for d in reversed(dims):
        if out and d.stride == out[-1][0] * out[-1][1]:
            count, stride = out.pop()
            out.append((d.count * count, stride))
        else:
            out.append((d.count, d.stride))
    return tuple(reversed(out))


def record_data_bytes(st: SchemaType) -> int:
    """Bytes of the record ``st`` some scalar occupies (memoised per record type)."""
    found = _RECORD_DATA.get(st)
    return found if found is not None else _record_sum_iteratively(st)


def _sum(members: Sequence[Member]) -> int:
    total = 0
    for m in members:
        if m.record is None:
            element = m.scalar.size  # type: ignore[union-attr]
        else:
            element = _RECORD_DATA.get(m.record)
            if element is None:
                element = _record_sum_iteratively(m.record)
        total += m.elements * element
    return total


def _record_sum_iteratively(record: SchemaType) -> int:
    """The data bytes of ``record``, its nested records counted first (records nest up to
    100 deep: no recursion)."""
    todo = [record]
    while todo:
        st = todo[-1]
        pending = [m.record for m in st.members
                   if m.record is not None and m.record not in _RECORD_DATA]
        if pending:
            todo.extend(pending)
            continue
        todo.pop()
        if st not in _RECORD_DATA:
            _RECORD_DATA[st] = _sum(st.members)
    return _RECORD_DATA[record]


class DataBytes:
    """Data bytes of records and variants, with the byte masks of the records that a union
    of overlapping arguments had to paint (built once per record type)."""

    def __init__(self) -> None:
        self._masks: Dict[int, bytes] = {}

    def of_record(self, st: SchemaType) -> int:
        return record_data_bytes(st)

    def of_variant(self, st: SchemaType) -> int:
        tag = st.members[0].size
        with_args = [arm for arm in st.arms if arm.args]
        if len(with_args) <= 1:
            return tag + sum(_sum(arm.args) for arm in with_args)
        placed = [(m.offset, m) for arm in with_args for m in arm.args]
        return tag + self._union(placed, UNION_BUDGET)

    # --- the structural union ---------------------------------------------------------------

    def _union(self, placed: Sequence[Tuple[int, Member]], budget: int) -> int:
        """Data bytes of members that may overlap (the arguments of several constructors).

        The same record (or scalar, or array of them) at the same place counts once, and a
        member that overlaps no other counts its own sum: so the usual shapes (constructors
        that share a leading argument, or differ only in a tail) cost one step per member,
        however deep the records nest. Only a run of members that really overlap differently
        is opened, one level at a time, while ``budget`` members remain; past that, their
        data patterns decide (``_patterned``)."""
        unique: Dict[tuple, Tuple[int, Member]] = {}
        for start, m in placed:
            element = id(m.record) if m.record is not None else -m.scalar.size  # type: ignore[union-attr]
            unique.setdefault((start, element, m.dims), (start, m))
        ordered = sorted(unique.values(), key=lambda item: (item[0], item[0] + item[1].size))
        total, i = 0, 0
        while i < len(ordered):
            start, m = ordered[i]
            end, j = start + m.size, i + 1
            while j < len(ordered) and ordered[j][0] < end:
                end = max(end, ordered[j][0] + ordered[j][1].size)
                j += 1
            run = ordered[i:j]
            if len(run) == 1:
                total += _sum((m,))
            else:
                total += self._overlapping(run, budget)
            i = j
        return total

    def _overlapping(self, run: Sequence[Tuple[int, Member]], budget: int) -> int:
        opened: List[Tuple[int, Member]] = []
        for base, m in run:
            if m.record is None or m.dims:
                opened.append((base, m))
            else:
                opened.extend((base + inner.offset, inner) for inner in m.record.members)
        if len(opened) <= budget and any(m.record is not None and not m.dims for _, m in run):
            return self._union(opened, budget - len(opened))
        return self._patterned(run)

    # --- data patterns ----------------------------------------------------------------------

    def _mask(self, st: SchemaType) -> bytes:
        """One byte per byte of the record ``st``: 1 where some scalar is."""
        key = id(st)
        if key not in self._masks:
            mask = bytearray(st.size)
            for m in st.members:
                _or_into(mask, m.offset, self._extent(m))
            self._masks[key] = bytes(mask)
        return self._masks[key]

    def pattern(self, m: Member) -> Tuple[int, bytes]:
        """``(period, mask)``: the member's data bytes are ``mask`` (``period`` bytes, one
        per byte, 1 where data is) repeated from its offset over its whole extent. Built
        level by level from the element's mask, never element by element."""
        unit = b"\1" * m.scalar.size if m.record is None else self._mask(m.record)  # type: ignore[union-attr]
        levels = merged_dims(m.dims)
        if not levels:
            return len(unit), unit
        pattern = unit
        for i in range(len(levels) - 1, -1, -1):
            count, stride = levels[i]
            pattern = pattern.ljust(stride, b"\0")[:stride]  # one element and its gap
            if i == 0:
                return stride, pattern
            # This whole level is one element of the level above.
            pattern = (pattern * count)[:levels[i - 1][1]]
        raise AssertionError("unreachable")

    def _extent(self, m: Member) -> bytes:
        """The member's mask over its whole extent (its pattern repeated, at C speed)."""
        period, pattern = self.pattern(m)
        return (pattern * -(-m.size // period))[:m.size]

    def _patterned(self, run: Sequence[Tuple[int, Member]]) -> int:
        """Data bytes of a run of overlapping members, stretch by stretch (between two
        consecutive starts or ends of members), each over the common period of the members
        that cover it: ``(stretch // period)`` periods and the remainder, from one mask of a
        period. A stretch whose common period is longer than ``PERIOD_LIMIT`` (or than the
        stretch) is counted from its own mask."""
        members = []
        for start, m in run:
            period, pattern = self.pattern(m)
            members.append((start, start + m.size, period, pattern))
        points = sorted({p for start, end, _, _ in members for p in (start, end)})
        members.sort()
        total = 0
        active: List[Tuple[int, int, int, bytes]] = []
        k = 0
        for a, b in zip(points, points[1:]):
            while k < len(members) and members[k][0] <= a:
                active.append(members[k])
                k += 1
            active = [item for item in active if item[1] > a]
            if active:
                total += _stretch(active, a, b)
        return total


def _stretch(active: Sequence[Tuple[int, int, int, bytes]], a: int, b: int) -> int:
    """Data bytes of ``[a, b)``, every member of ``active`` covering it."""
    period = 1
    for _, _, p, _ in active:
        period = period * p // math.gcd(period, p)
        if period > PERIOD_LIMIT:
            break
    length = b - a
    window = period if period <= PERIOD_LIMIT and period < length else length
    mask = bytearray(window)
    for start, _, p, pattern in active:
        phase = (a - start) % p
        rotated = pattern[phase:] + pattern[:phase]
        _or_into(mask, 0, (rotated * -(-window // p))[:window])
    if window == length:
        return mask.count(1)
    full, rest = divmod(length, window)
    return full * mask.count(1) + mask[:rest].count(1)


def _or_into(mask: bytearray, at: int, ones: bytes) -> None:
    """OR the 0/1 bytes ``ones`` into ``mask`` at ``at`` (bytewise, at C speed through big
    integers)."""
    end = at + len(ones)
    both = int.from_bytes(mask[at:end], "little") | int.from_bytes(ones, "little")
    mask[at:end] = both.to_bytes(len(ones), "little")

