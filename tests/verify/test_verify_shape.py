"""The emitted shape (``targets.shape``) is the only producer of member paths.

Changing the shape in the walker alone (here: the arm of constructor ``C`` named
``C_arm`` instead of ``C_v``) is followed by every consumer: the generated header's views
(its arms and compile-time checks), the probes, the structure check of a header, and the
DWARF check of an object. gcc is the judge: it compiles the header the views produce, runs
the probes against it, and its DWARF is what the object check reads.
"""

from __future__ import annotations

import subprocess

import pytest

from helpers.common import EXAMPLES, require_toolchain
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.targets import shape
from sarek_layout.verify.objects import verify_objects
from sarek_layout.verify.probes import probes_for
from sarek_layout.verify.run import verify_schema
from sarek_layout.verify.structure import check_headers

pytest.importorskip("elftools", reason="pyelftools not installed: pip install pyelftools")

GEOMETRY = str(EXAMPLES / "geometry.toml")
USE = ('#include "geometry.h"\n'
       "Geometry_particle g_particle; Geometry_shape g_shape; Geometry_point g_point;\n")


def _compile(folder, name: str) -> str:
    """``use.c`` of ``folder``'s ``geometry.h``, compiled by gcc with ``-g -c``."""
    tc = require_toolchain("gcc")
    (folder / "use.c").write_text(USE)
    obj = folder / f"{name}.o"
    proc = subprocess.run([*tc.argv, "-g", "-c", str(folder / "use.c"), "-o", str(obj)],
                          capture_output=True, text=True, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return str(obj)


def _header(folder, schema) -> str:
    folder.mkdir()
    (text,) = [f.text for f in render_headers(schema, ["c"]) if f.filename == "geometry.h"]
    (folder / "geometry.h").write_text(text)
    return text


def test_a_change_of_the_shape_in_the_walker_is_followed_everywhere(tmp_path, monkeypatch):
    old = load_schema([GEOMETRY])
    old_header = _header(tmp_path / "old", old)
    old_object = _compile(tmp_path / "old", "old")

    monkeypatch.setattr(shape, "arm_name", lambda ctor: f"{ctor}_arm")
    schema = load_schema([GEOMETRY])  # new types: no shape kept from before

    # The views: the header's arms, its assignments and its compile-time checks.
    header = _header(tmp_path / "new", schema)
    assert "Circle_arm" in header and "Circle_v" not in header
    assert "offsetof(Geometry_shape, data.Circle_arm._1)" in header
    assert header.replace("_arm", "_v") == old_header
    new_object = _compile(tmp_path / "new", "new")  # its assertions hold: gcc agrees

    # The probes.
    members = {p.member for p in probes_for(schema.types)}
    assert {"data.Circle_arm", "data.Circle_arm._0", "data.Weighted_arm._1"} <= members
    assert not any("_v" in m for m in members)

    # The structure check, and gcc measuring every probe, agree with the new header...
    report = verify_schema(schema, ["gcc"], headers=[str(tmp_path / "new" / "geometry.h")],
                           jobs=1)
    assert (report.structure, report.exit_status) == ([], 0), report.format()
    assert report.results[0].values == len(probes_for(schema.types))
    # ...and name the old one's arms as the ones the schema lacks.
    problems, passed = check_headers([str(tmp_path / "old" / "geometry.h")], schema.types)
    assert "Geometry_shape.data.Circle_arm: missing from the header (schema members: " \
           "Circle_arm, Rect_arm, Weighted_arm)" in [p.message for p in problems]
    assert [t.c_name for t in passed] == ["Geometry_point", "Geometry_particle"]

    # The object check: gcc's DWARF of the new header agrees, the old one's arms are missing.
    assert verify_objects(schema, [new_object]).differences() == []
    found = verify_objects(schema, [old_object]).differences()
    assert f"Geometry_shape.data.Circle_arm: the layout has it (constructor Circle), " \
           f"{old_object} has no such member" in found
    assert f"Geometry_shape.data.Circle_v: the layout has no such arm, {old_object} has one" \
        in found
