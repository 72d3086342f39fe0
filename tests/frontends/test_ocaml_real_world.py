"""Real-world Sarek sources, read as Sarek reads them (``tests/data/ocaml/real_world/``).

The files are written in the styles of upstream Sarek's tests and examples: kernels as
``[%kernel fun …]`` and ``let%kernel``, ``[@sarek.module]`` functions, element types in inner
modules (a functor body, a module with a signature), ``and`` groups, GADT-syntax variants,
``float`` fields (a GPU float32), comments nested around strings and quotes, quoted strings,
``type float32 = float`` shadowing, kernel-local types without the attribute.

For each file, what Sarek would register is written out here by hand: the C names
(``<File>_<type>``, whatever module of the file the type is in) and each type's members; the
layouts are then measured by the C compiler on natural C structs (``c_oracle``) and compared
with the package's, never with numbers the package computed. The files in ``refused/`` hold
deliberate mistakes: every refused type must be reported in one run, and a type refused only
because it holds a refused one must not be.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from helpers import c_oracle
from helpers.common import ROOT, require_toolchain
from sarek_layout.cli.main import main

DATA = ROOT / "tests" / "data" / "ocaml" / "real_world"

# Written by hand from the sources: (files given together, the file's own types as c_oracle
# descriptions named by their C names; the other files' types they use come first).
PHYSICS = [
    ("record", "Physics_lib_vec2", [("x", "float32"), ("y", "float32")]),
    ("record", "Physics_lib_material", [("density", "float64"), ("restitution", "float32")]),
]
EXPECTED = {
    "nbody.ml": (["nbody.ml"], [
        ("record", "Nbody_body", [("px", "float32"), ("py", "float32"), ("pz", "float32"),
                                  ("vx", "float32"), ("vy", "float32"), ("vz", "float32"),
                                  ("mass", "float32")]),
        ("record", "Nbody_force", [("fx", "float32"), ("fy", "float32"), ("fz", "float32"),
                                   ("neighbours", "int32")]),
        ("record", "Nbody_stats", [("kinetic", "float64"), ("potential", "float64"),
                                   ("steps", "int64"), ("converged", "bool")]),
    ]),
    "raytrace.ml": (["raytrace.ml"], [
        ("record", "Raytrace_vec3", [("x", "float32"), ("y", "float32"), ("z", "float32")]),
        ("record", "Raytrace_ray", [("origin", "Raytrace_vec3"), ("dir", "Raytrace_vec3"),
                                    ("tmax", "float32")]),
        ("variant", "Raytrace_material", [("Diffuse", ["float32"]),
                                          ("Metal", ["float32", "float32"]),
                                          ("Emissive", ["float64"]), ("Void", [])]),
        ("record", "Raytrace_sphere", [("centre", "Raytrace_vec3"), ("radius", "float32"),
                                       ("material_id", "int32")]),
        ("variant", "Raytrace_hit", [("Miss", []),
                                     ("Hit", ["float32", "int32", "Raytrace_vec3"])]),
        ("record", "Raytrace_pixel", [("r", "float32"), ("g", "float32"), ("b", "float32"),
                                      ("samples", "int32")]),
    ]),
    "histogram.ml": (["histogram.ml"], [
        ("record", "Histogram_bucket", [("lo", "float32"), ("hi", "float32"),
                                        ("hits", "int32")]),
        ("record", "Histogram_summary", [("total", "int64"), ("overflow", "int32"),
                                         ("underflow", "int32"), ("mean", "float64"),
                                         ("valid", "bool")]),
        ("variant", "Histogram_update", [("Reset", []), ("Add", ["int32"]),
                                         ("Merge", ["Histogram_summary"]), ("Mark", ["unit"])]),
    ]),
    "physics_lib.ml": (["physics_lib.ml"], PHYSICS),
    "collisions.ml": (["physics_lib.ml", "collisions.ml"], PHYSICS + [
        ("record", "Collisions_contact", [("a", "int32"), ("b", "int32"),
                                          ("normal", "Physics_lib_vec2"), ("depth", "float32")]),
        ("record", "Collisions_body", [("pos", "Physics_lib_vec2"), ("vel", "Physics_lib_vec2"),
                                       ("mat", "Physics_lib_material"), ("id", "int32")]),
        ("variant", "Collisions_event", [("Touch", ["Collisions_contact"]),
                                         ("Separate", ["int32", "int32"]), ("Sleep", [])]),
    ]),
}


def test_every_real_world_file_has_its_expectations():
    assert sorted(p.name for p in DATA.glob("*.ml")) == sorted(EXPECTED)


def _layout(capsys, files):
    capsys.readouterr()
    status = main(["layout", "--json", *(str(DATA / f) for f in files)])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)["types"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_types_sarek_registers_and_their_c_names(capsys, name):
    files, descs = EXPECTED[name]
    types = _layout(capsys, files)
    assert [t["c_name"] for t in types] == [d[1] for d in descs]
    # Every type of a file (inner modules included) is in the file's module, by its bare name.
    for t in types:
        assert t["c_name"] == f"{t['module']}_{t['name']}"
    for t, (kind, _, members) in zip(types, descs):
        assert t["kind"] == kind
        if kind == "record":
            assert [f["name"] for f in t["fields"]] == [m for m, _ in members]
        else:
            assert [c["name"] for c in t["constructors"]] == [c for c, _ in members]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_layouts_agree_with_the_c_compiler(capsys, name):
    require_toolchain("cffi")
    files, descs = EXPECTED[name]
    reported = {t["c_name"]: t for t in _layout(capsys, files)}
    measured = c_oracle.measure(descs)
    for kind, c_name, _ in descs:
        t, m = reported[c_name], measured[c_name]
        assert (t["size"], t["align"]) == (m.size, m.align), c_name
        if kind == "record":
            assert {f["name"]: f["offset"] for f in t["fields"]} == m.fields, c_name
            assert {leaf["path"]: leaf["offset"] for leaf in t["leaves"]} == m.leaves, c_name
        else:
            leaves = {leaf["path"]: leaf["offset"] for c in t["constructors"]
                      for leaf in c["leaves"]}
            assert leaves == m.leaves, c_name
            if m.payload_offset >= 0:
                assert t["payload_offset"] == m.payload_offset, c_name
            sizes = {c["name"]: c["payload_size"] for c in t["constructors"] if c["payload_size"]}
            assert sizes == {c: s for c, s in m.payload_sizes.items() if s}, c_name


ALL_SOURCES = sorted(DATA.glob("*.ml")) + sorted((DATA / "refused").glob("*.ml"))


@pytest.mark.skipif(shutil.which("ocamlc") is None, reason="ocamlc not installed "
                    "(apt-get install ocaml-nox): the corpus is checked to be real OCaml")
@pytest.mark.parametrize("path", ALL_SOURCES, ids=lambda p: p.name)
def test_the_corpus_is_valid_ocaml(path, tmp_path):
    """OCaml's own parser accepts every file (extension nodes are left to the PPX)."""
    proc = subprocess.run(["ocamlc", "-stop-after", "parsing", "-c", str(path), "-o",
                           str(tmp_path / "x")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


# --- deliberate refusals: every refused type named in one run ------------------------------

# The types each file refuses (a type that only holds a refused one is not among them).
REFUSED = {
    "shapes_refused.ml": ["segment", "shape", "label", "marker", "tile"],
    "layouts_refused.ml": ["task", "batch", "report", "decision"],
}

_DECLARATION = re.compile(r"^\s*(?:type|and)\s+(?:nonrec\s+)?([a-z_][A-Za-z0-9_']*)")


def _declaration_at(lines, line):
    """The type declared by the nearest ``type NAME`` at or above ``line`` (1-based)."""
    for text in reversed(lines[:line]):
        m = _DECLARATION.match(text)
        if m:
            return m.group(1)
    raise AssertionError(f"no type declaration above line {line}")


def test_every_refused_file_has_its_expectations():
    assert sorted(p.name for p in (DATA / "refused").glob("*.ml")) == sorted(REFUSED)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_refused_type_of_a_file_is_reported_once(capsys, name):
    path = DATA / "refused" / name
    assert main(["layout", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    lines = err.splitlines()
    places = []
    for line in lines:
        m = re.match(rf"^{re.escape(str(path))}:(\d+):(\d+): error: ", line)
        assert m, line
        places.append(int(m.group(1)))
    source = path.read_text().splitlines()
    refused = [_declaration_at(source, line) for line in places]
    assert sorted(refused) == sorted(REFUSED[name]), err
