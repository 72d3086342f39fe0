"""The byte map: each type drawn as a ruler of one cell per byte, from its member walk.

Scalars are coloured cells, holes hatched, 8-byte boundaries marked and numbered; a nested
record is a bracket under its fields; a variant is its tag row over the whole element, then
one row per constructor over the same payload bytes. This module only does geometry (which
rectangle goes where, in which colour): ``templates/explain.svg.j2`` spells it as SVG, and
``explain.html.j2`` puts that SVG and the text report on one page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

from ..codegen.output_paths import printable
from ..ir.schema import ARRAY, MATRIX, VECTOR
from .walk import HOLE, TAIL, Hole, Item, Member, TypeWalk

__all__ = ["Box", "Tick", "Row", "Panel", "Picture", "picture", "render_svg", "render_html"]

MARGIN = 16
LABEL_WIDTH = 232
ROW_HEIGHT = 26
BRACKET_STEP = 14
TITLE_HEIGHT = 22
RULER_HEIGHT = 14
PANEL_GAP = 20
CHAR_WIDTH = 6.7  # 11px monospace, for deciding whether a label fits its cells
#: Widths of a character of the titles (13px bold) and of the ruler's numbers (10px), in the
#: same monospace font (DejaVu Sans Mono advances 0.602 em), rounded up.
TITLE_CHAR_WIDTH = 8.0
TICK_CHAR_WIDTH = 6.1
#: Pixels between two ruler numbers, at least.
TICK_LABEL_GAP = 6
#: The picture fits a window this wide when its types are small enough (a common laptop
#: browser window): the rulers shrink their cells to stay within what is left of it beside
#: the row labels, down to MIN_CELL pixels a byte (types beyond about 300 bytes then make a
#: wider picture: rows are not wrapped).
FIT_WIDTH = 1200
MAX_RULER_WIDTH = FIT_WIDTH - 2 * MARGIN - LABEL_WIDTH
MAX_CELL = 20
MIN_CELL = 3
#: Types too large for MIN_CELL within this width are drawn to scale instead (less than a
#: pixel a byte, no byte dividers), so the picture stays bounded whatever the sizes.
MAX_PICTURE_WIDTH = 12288
#: Most boxes one row draws: nested records beyond it are drawn closed, as one box (records
#: nested many levels deep would otherwise draw exponentially many leaves).
MAX_ROW_BOXES = 2000
#: Ticks are at least this many pixels apart (every 8 bytes, or a power of two of 8).
MIN_TICK_SPACING = 40

#: Fill colours of scalar members, in turn (light, distinguishable, readable under black text).
PALETTE = (
    "#8ecae6", "#ffb703", "#90be6d", "#f4a6a6", "#b8a9e3", "#f9c74f",
    "#76c7c0", "#e8a87c", "#a7c957", "#cdb4db", "#ffd6a5", "#9ad1d4",
)
TAG_FILL = "#d0d0d0"


@dataclass(frozen=True)
class Box:
    """One drawn rectangle: a scalar (``member``), a hole (``hole``) or a region outline."""

    kind: str
    x: float
    y: float
    width: float
    height: float
    fill: str
    label: str  # "" when it does not fit
    title: str
    path: str = ""
    offset: int = 0
    size: int = 0
    #: x of each byte boundary strictly inside the box (the cell dividers).
    cells: Tuple[float, ...] = ()
    #: The elements of a fixed array, vector or matrix, drawn as this one box (0 otherwise).
    count: int = 0


@dataclass(frozen=True)
class Bracket:
    """A nested record's extent, drawn under its fields with its name."""

    x: float
    y: float
    width: float
    label: str
    title: str


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class Row:
    label: str
    y: float
    height: float
    title: str
    boxes: Tuple[Box, ...]
    brackets: Tuple[Bracket, ...]


@dataclass(frozen=True)
class Panel:
    title: str
    y: float
    title_y: float
    ruler_y: float
    bottom: float
    ticks: Tuple[Tick, ...]
    rows: Tuple[Row, ...]


@dataclass(frozen=True)
class Picture:
    width: float
    height: float
    cell: float
    panels: Tuple[Panel, ...]
    source: str
    row_height: float = ROW_HEIGHT

    @property
    def boxes(self) -> List[Box]:
        return [b for p in self.panels for r in p.rows for b in r.boxes]


def _fits(text: str, width: float) -> bool:
    return len(text) * CHAR_WIDTH + 4 <= width


def _clip(text: str, width: float) -> str:
    """``text``, cut with an ellipsis to fit ``width`` pixels (the full text is the tooltip)."""
    if _fits(text, width):
        return text
    return text[: max(1, int((width - 4) // CHAR_WIDTH) - 1)] + "…"


class _Painter:
    def __init__(self, cell: float) -> None:
        self.cell = cell
        self._boxes: Dict[int, int] = {}  # record type id -> boxes it draws opened

    def x(self, offset: int) -> float:
        return MARGIN + LABEL_WIDTH + offset * self.cell

    def row(self, label: str, y: float, items: Sequence[Item]) -> Row:
        boxes: List[Box] = []
        brackets: List[Bracket] = []
        colour = [0]
        self.left = MAX_ROW_BOXES
        depth = self._paint(items, y, 0, boxes, brackets, colour)
        height = ROW_HEIGHT + BRACKET_STEP * depth
        return Row(_clip(label, LABEL_WIDTH - 8), y, height, label, tuple(boxes), tuple(brackets))

    def cells(self, offset: int, size: int) -> Tuple[float, ...]:
        """The byte dividers inside a box (none when cells are too narrow to show)."""
        if self.cell < MIN_CELL:
            return ()
        return tuple(self.x(b) for b in range(offset + 1, offset + size))

    def _cost(self, record) -> int:
        """Boxes a nested record draws opened (its items, recursively), once per record type."""
        todo = [record]
        while todo:
            st = todo[-1]
            pending = [m.record for m in st.members
                       if m.record is not None and not m.dims and id(m.record) not in self._boxes]
            if pending:
                todo.extend(pending)
                continue
            todo.pop()
            self._boxes[id(st)] = sum(
                1 if isinstance(i, Hole) or i.record is None or i.dims
                else 1 + self._boxes[id(i.record)]
                for i in st.items
            )
        return self._boxes[id(record)]

    def _opens(self, item: Member) -> bool:
        cost = self._cost(item.record)
        if cost > self.left:
            return False
        self.left -= cost
        return True

    def _paint(self, items, y, depth, boxes, brackets, colour) -> int:
        """Draw ``items`` at bracket ``depth``; returns how many bracket levels they use."""
        used = 0
        for item in items:
            x, width = self.x(item.offset), item.size * self.cell
            if isinstance(item, Hole):
                what = {HOLE: "hole", TAIL: "tail padding"}.get(item.kind, "unused by this arm")
                boxes.append(Box("hole", x, y, width, ROW_HEIGHT, "url(#hatch)", "",
                                 f"{item.size} byte{'s' if item.size != 1 else ''} {what} at {item.offset}",
                                 offset=item.offset, size=item.size,
                                 cells=self.cells(item.offset, item.size)))
            elif item.is_record and self._opens(item):
                used = max(used, 1 + self._paint(item.items, y, depth + 1, boxes, brackets, colour))
                label = f"{item.name}: {item.spelling}"
                brackets.append(Bracket(
                    x + 1, y + ROW_HEIGHT + 4 + BRACKET_STEP * depth, width - 2,
                    label if _fits(label, width) else (item.name if _fits(item.name, width) else ""),
                    f"{item.path}: {item.spelling}, offset {item.offset}, {item.size} bytes",
                ))
            else:
                fill = TAG_FILL if item.path == "tag" else PALETTE[colour[0] % len(PALETTE)]
                colour[0] += item.path != "tag"
                boxes.append(Box("member", x, y, width, ROW_HEIGHT, fill, _member_label(item, width),
                                 _member_title(item), path=item.path, offset=item.offset,
                                 size=item.size, cells=self.cells(item.offset, item.size),
                                 count=item.dims[0].count if item.dims else 0))
        return used


def _member_label(member: Member, width: float) -> str:
    """The name, with the element count of an array drawn as one box (``color ×4``), as
    much of it as fits."""
    if member.dims:
        counted = f"{member.name} ×{member.dims[0].count}"
        if _fits(counted, width):
            return counted
    return member.name if _fits(member.name, width) else ""


#: What the outermost repetition of a member repeats, by the kind of its ``Dim``.
_REPEATED = {ARRAY: "element", VECTOR: "component", MATRIX: "column"}


def _member_title(member: Member) -> str:
    title = f"{member.path}: {member.spelling}, offset {member.offset}, {member.size} bytes"
    if not member.dims:
        return title
    outer = member.dims[0]
    title += f", {outer.count} {_REPEATED[outer.kind]}{'s' if outer.count != 1 else ''} {outer.stride} apart"
    for size, times, where in member.inner_padding():
        inside = "stride padding" if where == "stride" else "padding inside each element"
        title += f"; {size} byte{'s' if size != 1 else ''} of {inside} × {times}"
    return title


def _cell(largest: int) -> float:
    """Pixels a byte: MAX_RULER_WIDTH spread over the largest type, between MIN_CELL and
    MAX_CELL, or to scale within MAX_PICTURE_WIDTH for types too large for MIN_CELL."""
    largest = max(largest, 1)
    if largest * MIN_CELL > MAX_PICTURE_WIDTH:
        return MAX_PICTURE_WIDTH / largest
    return float(min(MAX_CELL, max(MIN_CELL, MAX_RULER_WIDTH // largest)))


def _tick_step(cell: float) -> int:
    step = 8
    while step * cell < MIN_TICK_SPACING and step < (1 << 62):
        step *= 2
    return step if cell < MIN_CELL else 8


def _enum_value(walk: TypeWalk) -> Member:
    """An enum drawn as the one value of its base it holds (its values are in the report)."""
    st = walk.type
    base = st.elttype.base  # type: ignore[union-attr]
    count = len(st.elttype.values)  # type: ignore[union-attr]
    return Member("value", "value", f"{base.name}, {count} value{'s' if count != 1 else ''}", 0,
                  walk.size, walk.align, scalar=base)


def _title(walk: TypeWalk) -> str:
    st = walk.type
    head = f"{walk.kind} {st.qualified_name} ({st.c_name}): size {walk.size}, align {walk.align}, "
    return head + f"padding {walk.padding_bytes} ({walk.padding_percent:.1f}%)"


def picture(walks: Sequence[TypeWalk], source: str = "") -> Picture:
    """The geometry of the byte maps of ``walks``, one panel per type, rulers aligned."""
    largest = max((w.size for w in walks), default=8)
    cell = _cell(largest)
    step = _tick_step(cell)
    painter = _Painter(cell)
    panels = []
    y = float(MARGIN)
    for walk in walks:
        title_y = y + 14
        ruler_y = y + TITLE_HEIGHT + 10
        row_y = y + TITLE_HEIGHT + RULER_HEIGHT + 4
        rows = []
        if walk.kind == "record":
            rows.append(painter.row(walk.type.name, row_y, walk.items))
        elif walk.kind == "enum":
            rows.append(painter.row(walk.type.name, row_y, (_enum_value(walk),)))
        else:
            p = walk.payload_offset or 0
            region = Box("payload", painter.x(p), row_y, (walk.size - p) * cell, ROW_HEIGHT, "none",
                         "payload" if _fits("payload", (walk.size - p) * cell) else "",
                         f"payload: {walk.size - p} bytes at {p}, one arm at a time",
                         offset=p, size=walk.size - p, cells=painter.cells(p, walk.size - p))
            tag_row = painter.row("tag", row_y, walk.items)
            rows.append(Row(tag_row.label, tag_row.y, tag_row.height, tag_row.title,
                            tag_row.boxes + (region,), tag_row.brackets))
            for arm in walk.arms:
                row_y = rows[-1].y + rows[-1].height + 4
                label = f"{arm.name} (tag {arm.tag}): {arm.payload_size} B"
                if arm.waste:
                    label += f", wastes {arm.waste}"
                rows.append(painter.row(label, row_y, arm.items))
        bottom = rows[-1].y + rows[-1].height
        ticks = [Tick(painter.x(b), str(b)) for b in range(0, walk.size + 1, step)]
        if walk.size % step:
            ticks.append(Tick(painter.x(walk.size), str(walk.size)))
        panels.append(Panel(_title(walk), y, title_y, ruler_y, bottom, _spaced(ticks),
                            tuple(rows)))
        y = bottom + PANEL_GAP
    # As wide as what is drawn: the rulers, and a title longer than a small type's ruler.
    right = max([MARGIN + LABEL_WIDTH + largest * cell]
                + [MARGIN + len(p.title) * TITLE_CHAR_WIDTH for p in panels]
                + [t.x + len(t.label) * TICK_CHAR_WIDTH / 2 for p in panels for t in p.ticks])
    return Picture(float(math.ceil(right + MARGIN)), y - PANEL_GAP + MARGIN, cell, tuple(panels),
                   printable(source))


def _half(tick: Tick) -> float:
    return len(tick.label) * TICK_CHAR_WIDTH / 2


def _spaced(ticks: Sequence[Tick]) -> Tuple[Tick, ...]:
    """The ticks, with the numbers that would touch a neighbour's left out (the line stays):
    one pass from the left, and the type's end, the last tick, always keeps its number."""
    out: List[Tick] = []
    last = None  # index in ``out`` of the last tick that keeps its number
    for i, tick in enumerate(ticks):
        if last is not None and out[last].x + _half(out[last]) + TICK_LABEL_GAP > tick.x - _half(tick):
            if i < len(ticks) - 1:
                out.append(Tick(tick.x, ""))
                continue
            out[last] = Tick(out[last].x, "")  # the end's number wins over its neighbour's
        out.append(tick)
        last = len(out) - 1
    return tuple(out)


def _render(template: str, **context) -> str:
    from ..codegen.render import render  # the one Jinja environment (strict, trimmed)

    return render(template, **context)


def render_svg(walks: Sequence[TypeWalk], source: str = "") -> str:
    """The byte maps of ``walks`` as one standalone SVG document.

    ``source`` (what was drawn, e.g. the schema files' names) goes into the title only, with
    anything that does not print escaped (``printable``): the document is well-formed XML
    whatever the names hold, and no name is put in a comment, where ``--`` would end it.
    """
    return _render("explain.svg.j2", picture=picture(walks, source))


def render_html(walks: Sequence[TypeWalk], report: str, source: str = "") -> str:
    """An HTML page: the byte maps, then the text report (its paths as ``printable`` spells
    them: the page is UTF-8 and holds no control characters whatever the file names)."""
    svg = render_svg(walks, source)
    return _render("explain.html.j2", svg=svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg,
                   report=_printable_lines(report), source=printable(source))


def _printable_lines(text: str) -> str:
    return "\n".join(printable(line) for line in text.split("\n"))
