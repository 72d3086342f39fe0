"""The byte map as a new user meets it (issue 22, item 6): a refused ``explain --svg`` prints
nothing before its refusal, and the SVG fits what it draws — every element inside its width
(and a 48-byte type inside a 1200 px window, which a fixed 1224 px picture clipped), the
labels pairwise apart.

Text extents are measured with the font the picture names first, DejaVu Sans Mono, whose
every glyph advances 0.602 em (rounded up here to 0.61); a label occupies its font size
above the baseline and a quarter of it below.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Dict, List, Tuple

import pytest

from helpers.common import EXAMPLES
from sarek_layout.cli.main import main

SVG = "{http://www.w3.org/2000/svg}"
ADVANCE_EM = 0.61

SMALL = """\
module = "Geometry"
[[types]]
record = "point"
fields = [["x", "float32"], ["y", "float32"]]
"""

#: A 48-byte variant (the largest type: 20 px a byte made the picture 1224 px wide), with
#: nested records two levels deep under one- and two-argument constructors.
NESTED = """\
module = "N"
[[types]]
record = "b1"
fields = [["v", "uint8"]]
[[types]]
record = "pair"
fields = [["lo", "b1"], ["hi", "b1"], ["w", "int32"]]
[[types]]
record = "deep"
fields = [["first", "pair"], ["second", "pair"], ["z", "float64"], ["t", "b1"]]
[[types]]
variant = "shape"
constructors = [["One", ["pair"]], ["Two", ["pair", "deep"]], ["None_"]]
"""

#: 1,028 bytes: 3 px a byte, ruler numbers of four digits every 8 bytes (24 px) collided.
BIG = ('module = "Big"\n[[types]]\nrecord = "big"\nfields = ['
       + ", ".join(f'["f{i}", "int32"]' for i in range(256)) + ', ["tail", "uint8"]]\n')

CASES = {"small": SMALL, "nested": NESTED, "big": BIG}


def _picture(tmp_path, name: str, text: str) -> ET.Element:
    schema = tmp_path / f"{name}.toml"
    schema.write_text(text)
    svg = tmp_path / f"{name}.svg"
    assert main(["explain", str(schema), "--svg", str(svg)]) == 0
    return ET.fromstring(svg.read_bytes())


def _font_size(element: ET.Element, parents: Dict[ET.Element, ET.Element]) -> float:
    while element is not None:
        if element.get("font-size"):
            return float(element.get("font-size"))
        element = parents.get(element)
    raise AssertionError("no font size")


def _drawn_text(element: ET.Element) -> str:
    """The text a <text> shows: its own and what follows its <title> tooltip."""
    return (element.text or "") + "".join(child.tail or "" for child in element)


def _text_boxes(root: ET.Element) -> List[Tuple[float, float, float, float, str]]:
    """(x0, x1, baseline, size, text) of every label drawn."""
    parents = {child: parent for parent in root.iter() for child in parent}
    boxes = []
    for element in root.iter(f"{SVG}text"):
        text = _drawn_text(element)
        if not text:
            continue
        size = _font_size(element, parents)
        width = len(text) * size * ADVANCE_EM
        x = float(element.get("x"))
        x0 = x - width / 2 if element.get("text-anchor") == "middle" else x
        boxes.append((x0, x0 + width, float(element.get("y")), size, text))
    return boxes


def _right_edges(root: ET.Element):
    """(right edge, what) of every rectangle, line and path drawn (x only)."""
    for rect in root.iter(f"{SVG}rect"):
        if rect.get("x") is not None:
            yield float(rect.get("x")) + float(rect.get("width")), "rect"
    for line in root.iter(f"{SVG}line"):
        if line.get("x1") is not None:
            yield max(float(line.get("x1")), float(line.get("x2"))), "line"


def _overlaps(boxes) -> List[tuple]:
    """Pairs of labels whose boxes overlap, in O(n log n): labels on one baseline sorted by
    x (only neighbours can overlap), and each pair of baselines closer than a font height
    merged in x order (an overlap between the two shows up between neighbours of the two
    lines)."""
    lines: Dict[float, list] = {}
    for box in boxes:
        lines.setdefault(box[2], []).append(box)
    for line in lines.values():
        line.sort()
    found = []
    for line in lines.values():
        found += [(a, b) for a, b in zip(line, line[1:]) if a[1] > b[0]]
    baselines = sorted(lines)
    tallest = max((b[3] for b in boxes), default=0)
    for i, low in enumerate(baselines):
        for high in baselines[i + 1:]:
            if high - low >= tallest * 1.25:
                break
            merged = sorted([(b, 0) for b in lines[low]] + [(b, 1) for b in lines[high]])
            for (a, la), (b, lb) in zip(merged, merged[1:]):
                # Vertically: [baseline - size, baseline + size / 4] of each.
                if la != lb and a[1] > b[0] and \
                        a[2] - a[3] < b[2] + b[3] / 4 and b[2] - b[3] < a[2] + a[3] / 4:
                    found.append((a, b))
    return found


@pytest.mark.parametrize("name", sorted(CASES) + ["geometry"])
def test_the_picture_fits_what_it_draws_and_no_labels_collide(tmp_path, name):
    if name == "geometry":
        svg = tmp_path / "geometry.svg"
        assert main(["explain", str(EXAMPLES / "geometry.toml"), "--svg", str(svg)]) == 0
        root = ET.fromstring(svg.read_bytes())
    else:
        root = _picture(tmp_path, name, CASES[name])
    width = float(root.get("width"))
    assert root.get("viewBox").split() == ["0", "0", root.get("width"), root.get("height")]
    for right, what in _right_edges(root):
        assert right <= width, (what, right, width)
    boxes = _text_boxes(root)
    assert boxes
    for x0, x1, _, _, text in boxes:
        assert 0 <= x0 and x1 <= width, (text, x0, x1, width)
    assert _overlaps(boxes) == []


def test_a_48_byte_type_fits_a_1200_pixel_window(tmp_path):
    root = _picture(tmp_path, "nested", NESTED)
    assert float(root.get("width")) <= 1200
    # And the end of the largest type is still drawn and numbered.
    assert "48" in [_drawn_text(t) for t in root.iter(f"{SVG}text")]


def test_a_small_type_is_not_drawn_wider_than_its_title(tmp_path):
    root = _picture(tmp_path, "small", SMALL)
    boxes = _text_boxes(root)
    assert float(root.get("width")) <= max(x1 for _, x1, _, _, _ in boxes) + 2 * 16


def test_a_refused_svg_prints_nothing_before_the_refusal(capsys, tmp_path):
    schema = tmp_path / "small.toml"
    schema.write_text(SMALL)
    status = main(["explain", str(schema), "--svg", str(schema)])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert "refusing to write the SVG picture" in err
    assert schema.read_text() == SMALL
