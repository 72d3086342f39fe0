"""``explain --svg/--html``: the byte map is well-formed SVG with one element per member and per
hole, the checked-in ``docs/geometry.svg`` is current, and a real browser (headless chromium)
renders it — that test is required in CI and skips here without chromium."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

from helpers.common import EXAMPLES, ROOT
from sarek_layout.verify import toolchains
from sarek_layout.cli.main import main
from sarek_layout.explain.picture import render_svg
from sarek_layout.explain.walk import walk_types
from sarek_layout.resolve import load_schema

GEOMETRY = str(EXAMPLES / "geometry.toml")
SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM_HINT = "chromium not found: apt-get install -y --no-install-recommends chromium"


def _svg_of(paths, source=""):
    schema = load_schema(paths)
    walks = walk_types(schema.types, schema.types)
    return walks, render_svg(walks, source)


def _groups(root, cls):
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def test_svg_is_well_formed_with_one_element_per_member_and_hole():
    walks, text = _svg_of([GEOMETRY])
    root = ET.fromstring(text.encode())
    assert root.tag == f"{SVG}svg"
    members, holes = _groups(root, "member"), _groups(root, "hole")
    # point: x y; particle: id mass pos.x pos.y alive; shape: tag + 3 + 4 + 2 + 0 arguments.
    assert len(members) == 2 + 5 + 10
    # particle: hole and tail; shape: after the tag, Circle's unused 4, Weighted's tail, Empty.
    assert len(holes) == 0 + 2 + 4
    assert [(g.get("data-path"), int(g.get("data-offset")), int(g.get("data-size"))) for g in members] == [
        (m.path, m.offset, m.size) for w in walks for m in w.scalars()
    ]
    assert [(int(g.get("data-offset")), int(g.get("data-size"))) for g in holes] == [
        (h.offset, h.size) for w in walks for h in w.holes()
    ]
    assert len(_groups(root, "type")) == 3
    assert len(_groups(root, "nested")) == 1 + 3  # particle.pos; Circle._0, Rect._0, Rect._1
    # Every member and hole says what it is when hovered.
    assert all(g.find(f"{SVG}title") is not None for g in members + holes)
    titles = [g.find(f"{SVG}title").text for g in holes]
    assert "4 bytes hole at 4" in titles and "4 bytes tail padding at 28" in titles


def test_member_cells_are_placed_by_offset_and_size():
    _, text = _svg_of([GEOMETRY])
    root = ET.fromstring(text.encode())
    member = next(g for g in _groups(root, "member") if g.get("data-path") == "mass")
    rect = member.find(f"{SVG}rect")
    cell = float(rect.get("width")) / 8
    first = next(g for g in _groups(root, "member") if g.get("data-path") == "id").find(f"{SVG}rect")
    assert float(rect.get("x")) - float(first.get("x")) == 8 * cell
    cells = member.find(f"{SVG}path").get("d")
    assert cells.count("M") == 7  # a divider between each of the 8 byte cells
    # 8-byte boundaries of particle (32 bytes): 0, 8, 16, 24, 32.
    particle = _groups(root, "type")[1]
    labels = [t.text for t in particle.iter(f"{SVG}text") if t.get("font-size") == "10" and t.text.isdigit()]
    assert labels == ["0", "8", "16", "24", "32"]


def test_rendering_is_deterministic_and_wide_types_scale(tmp_path):
    assert _svg_of([GEOMETRY])[1] == _svg_of([GEOMETRY])[1]
    wide = tmp_path / "wide.toml"
    fields = ", ".join(f'["f{i}", "int64"]' for i in range(40))
    wide.write_text(f'[[types]]\nrecord = "big"\nfields = [{fields}]\n')
    root = ET.fromstring(_svg_of([str(wide)])[1].encode())
    assert float(root.get("width")) <= 1500  # 320 bytes: cells shrink to keep the ruler readable
    rects = [g.find(f"{SVG}rect") for g in _groups(root, "member")]
    assert len(rects) == 40
    assert {float(r.get("width")) for r in rects} == {8 * 3.0}


def test_docs_picture_is_current(monkeypatch):
    """docs/geometry.svg (shown in the README) matches what `make docs` would draw."""
    monkeypatch.chdir(ROOT)
    assert main(["explain", "examples/geometry.toml", "--svg", "docs/geometry.svg", "--check"]) == 0, (
        "docs/geometry.svg is stale: run `make docs`"
    )


def test_check_reports_stale_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "g.svg"
    assert main(["explain", GEOMETRY, "--svg", str(out), "--check"]) == 1
    assert not out.exists() and "would write" in capsys.readouterr().err
    assert main(["explain", GEOMETRY, "--svg", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().err
    stamp = out.stat().st_mtime_ns
    assert main(["explain", GEOMETRY, "--svg", str(out)]) == 0
    assert f"unchanged {out}" in capsys.readouterr().err and out.stat().st_mtime_ns == stamp
    out.write_text(out.read_text().replace("particle", "partic1e"))
    assert main(["explain", GEOMETRY, "--svg", str(out), "--check"]) == 1
    assert "partic1e" in out.read_text()


def test_html_page_has_the_picture_and_the_report(tmp_path, capsys):
    page = tmp_path / "g.html"
    assert main(["explain", GEOMETRY, "--html", str(page)]) == 0
    report = capsys.readouterr().out
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("<svg ") == 1 and "<?xml" not in html
    assert "/* XXX 4 byte hole */" in html and "a field order of 24 bytes exists" in report
    svg = html[html.index("<svg "):html.index("</svg>") + 6]
    ET.fromstring(svg.encode())


# --- a real browser ----------------------------------------------------------------------


def require_chromium() -> str:
    """The chromium executable; skip with the install line, or fail when CI requires it."""
    for name in ("chromium", "chromium-browser"):
        exe = shutil.which(name)
        if exe:
            return exe
    value = os.environ.get(toolchains.REQUIRE_ENV, "").strip()
    names = [v.strip().lower() for v in value.split(",")]
    if value.lower() in ("1", "all", "yes", "true") or "chromium" in names:
        pytest.fail(f"required toolchain missing: {CHROMIUM_HINT}", pytrace=False)
    pytest.skip(CHROMIUM_HINT)


def _screenshot(exe: str, page, tmp_path, name: str) -> bytes:
    png = tmp_path / f"{name}.png"
    argv = [
        exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / ('profile-' + name)}", f"--screenshot={png}",
        "--window-size=1200,800", page.resolve().as_uri(),
    ]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert png.is_file(), f"chromium wrote no screenshot (exit {run.returncode}):\n{run.stderr[-2000:]}"
    return png.read_bytes()


def _decode_png(data: bytes) -> np.ndarray:
    """RGB pixels of an 8-bit, non-interlaced RGB/RGBA PNG (what chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + length])
        elif kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8).reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    prev = np.zeros(width * bpp, dtype=np.int32)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 1:
            cur = line.reshape(width, bpp).cumsum(axis=0).reshape(-1) & 255
        elif kind == 2:
            cur = (line + prev) & 255
        else:  # average or Paeth: sequential along the row
            values, above, row = line.tolist(), prev.tolist(), [0] * len(line)
            for i, v in enumerate(values):
                a = row[i - bpp] if i >= bpp else 0
                b = above[i]
                if kind == 3:
                    row[i] = (v + ((a + b) >> 1)) & 255
                else:
                    c = above[i - bpp] if i >= bpp else 0
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    row[i] = (v + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            cur = np.array(row, dtype=np.int32)
        out[y] = cur
        prev = cur
    return out.reshape(height, width, bpp)[:, :, :3]


def _pixels_near(img: np.ndarray, hex_colour: str) -> int:
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(img - rgb).max(axis=2) <= 8).sum())


@pytest.mark.toolchain("chromium")
def test_headless_chromium_renders_the_picture(tmp_path, capsys):
    exe = require_chromium()
    svg, html = tmp_path / "geometry.svg", tmp_path / "geometry.html"
    assert main(["explain", GEOMETRY, "--svg", str(svg), "--html", str(html)]) == 0
    for page in (svg, html):
        img = _decode_png(_screenshot(exe, page, tmp_path, page.suffix[1:]))
        assert img.shape == (800, 1200, 3)
        # Member fills and the hatching really drew (not a blank page or an XML error page).
        for colour in ("#8ecae6", "#ffb703", "#d0d0d0", "#c0392b"):
            assert _pixels_near(img, colour) > 100, (page.name, colour)
