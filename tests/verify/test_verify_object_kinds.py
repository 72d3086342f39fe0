"""``verify --object`` with SPEC §1b's kinds: the DWARF of objects built here from the
generated headers of the kinds' goldens (gcc, clang, g++, gcc -m32, the cross compilers,
nvcc's host pass with CUDA's own vector types) agrees, every array level's count and stride,
every vector's components and every enum read from the compiler's own debugging entries; a
build from hand-written declarations with a wrong count, a packed vec3 array, a wrong element
type or a C enum of other values is caught, naming the member and both numbers.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess

import pytest

from helpers.common import require_toolchain
from sarek_layout.cli.main import main

pytest.importorskip("elftools", reason="pyelftools not installed: pip install pyelftools")

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.name.startswith("kinds_"))


def _schema(case: str) -> pathlib.Path:
    (path,) = [p for p in (GOLDEN / case).iterdir() if p.suffix == ".toml"]
    return path


def _uses(header: pathlib.Path) -> str:
    """A source using every type the header defines (DWARF keeps only the types used)."""
    names = re.findall(r"^typedef (?:struct )?\w+ (\w+)[;\[]|^} (\w+);", header.read_text(), re.M)
    used = sorted({a or b for a, b in names if not (a or b).startswith("sarek_layout_")})
    return f'#include "{header.name}"\n' + "".join(f"{n} g_{n};\n" for n in used)


def _build(toolchain: str, case: str, folder: pathlib.Path, suffix: str) -> pathlib.Path:
    tc = require_toolchain(toolchain)
    header = GOLDEN / case / "expected" / (_schema(case).stem + suffix)
    source = folder / f"use{'.cu' if suffix == '.cuh' else '.c'}"
    source.write_text(_uses(header))
    obj = folder / "use.o"
    argv = [*tc.argv, "-g", f"-I{header.parent}", "-c", str(source), "-o", str(obj)]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return obj


def _verify(capsys, schema, obj):
    status = main(["verify", str(schema), "--object", str(obj)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("toolchain", ["gcc", "clang", "g++", "gcc-m32", "aarch64", "s390x",
                                       "nvcc"])
@pytest.mark.parametrize("case", CASES)
def test_objects_built_from_the_kinds_goldens_agree(toolchain, case, tmp_path, capsys):
    suffix = ".cuh" if toolchain == "nvcc" else ".h"
    obj = _build(toolchain, case, tmp_path, suffix)
    status, out, err = _verify(capsys, _schema(case), obj)
    assert status == 0, out + err
    found = re.search(r"agrees \((\d+) types, (\d+) values\)", out)
    assert found and int(found.group(1)) >= 2 and int(found.group(2)) > 25, out


_SCHEMA = """module = "L"
rules = "std430"
[[types]]
enum = "material"
values = [["Matte", 0], ["Shiny", 1], ["Glass", 7]]
[[types]]
record = "light"
fields = [["dir", "vec3<float32>"], ["power", "float32"], ["color", "vec4<float32>"],
          ["trail", "vec3<float32>[2]"], ["hist", "int32[2][3]"], ["kind", "material"]]
"""

_HAND = """#include <stdint.h>
enum material { L_material_Matte = 0, L_material_Shiny = 1, L_material_Glass = 7 };
typedef enum material L_material;
typedef struct L_light {
    _Alignas(16) float dir[3];
    float power;
    _Alignas(16) float color[4];
    _Alignas(16) struct { float v[3]; uint32_t _sarek_pad0; } trail[2];
    int32_t hist[2][3];
    L_material kind;
    uint8_t _sarek_pad1[4];
} L_light;
L_light g_light;
L_material g_material;
"""


def _hand(tmp_path, capsys, text):
    (tmp_path / "l.toml").write_text(_SCHEMA)
    os.chdir(tmp_path)  # the object is named as given: hand.o
    tc = require_toolchain("gcc")
    src = tmp_path / "hand.c"
    src.write_text(text)
    proc = subprocess.run([*tc.argv, "-g", "-c", str(src), "-o", str(tmp_path / "hand.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return _verify(capsys, "l.toml", "hand.o")


@pytest.fixture(autouse=True)
def _back_home(monkeypatch):
    monkeypatch.chdir(os.getcwd())  # undone after each test (``_hand`` changes folder)


def test_a_hand_written_build_of_the_kinds_with_a_c_enum_agrees(tmp_path, capsys):
    status, out, err = _hand(tmp_path, capsys, _HAND)
    assert status == 0, out + err


@pytest.mark.parametrize("old, new, lines", [
    ("_Alignas(16) float color[4];", "_Alignas(16) float color[3]; float _sarek_pad9;",
     ["L_light.color: layout says member size 16, hand.o says 12",
      "L_light.color: layout says count 4, hand.o says 3"]),
    ("_Alignas(16) struct { float v[3]; uint32_t _sarek_pad0; } trail[2];",
     "_Alignas(16) float trail[2][3]; float _sarek_pad8[2];",
     ["L_light.trail: layout says member size 32, hand.o says 24",
      "L_light.trail[0]: layout says stride 16, hand.o says 12"]),
    ("int32_t hist[2][3];", "float hist[2][3];",
     ["L_light.hist[0][0]: layout says type int32, hand.o says float"]),
    ("L_material_Glass = 7", "L_material_Glass = 8",
     ["L_light.kind:Glass: layout says value 7, hand.o says 8",
      "L_material.Glass: layout says value 7, hand.o says 8"]),
])
def test_a_wrong_hand_written_build_is_caught(tmp_path, capsys, old, new, lines):
    assert old in _HAND
    status, out, err = _hand(tmp_path, capsys, _HAND.replace(old, new))
    assert status == 1, out + err
    for line in lines:
        assert line in out, out


_RULED = """module = "R"
rules = "{rules}"
[[types]]
record = "r"
fields = [["x", "float32"], ["y", "int32"], ["w", "float32"], ["h", "int32"]]
[[types]]
variant = "z"
constructors = [["A", ["float64", "float64", "float64"]], ["B", ["int32"]], ["C"]]
"""


@pytest.mark.parametrize("toolchain", ["gcc", "gcc-m32"])
@pytest.mark.parametrize("rules", ["c", "std430", "std140", "scalar", "cuda", "wgsl-uniform",
                                   "hlsl-cbuffer"])
def test_objects_of_every_rule_set_agree(rules, toolchain, tmp_path, capsys):
    """The generated headers pin a 16-aligned record's first member (std140: a struct of
    floats is 16-aligned) and a variant's tag; those pins move no byte, and the union of
    the arms is as aligned as the payload offset, not as the variant. Each object gcc builds
    from them agrees (before: "layout says alignment 4, use.o says 16")."""
    tc = require_toolchain(toolchain)
    schema = tmp_path / "r.toml"
    schema.write_text(_RULED.format(rules=rules))
    assert main(["generate", str(schema), "-o", str(tmp_path), "-t", "c"]) == 0
    capsys.readouterr()
    source = tmp_path / "use.c"
    source.write_text('#include "r.h"\nR_r g_r;\nR_z g_z;\n')
    proc = subprocess.run([*tc.argv, "-g", "-c", str(source), "-o", str(tmp_path / "use.o")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    status, out, err = _verify(capsys, schema, tmp_path / "use.o")
    assert status == 0, out + err
    assert re.search(r"agrees \(2 types, \d+ values\)", out), out


def test_a_member_pinned_above_its_type_s_alignment_is_caught(tmp_path, capsys):
    """The tolerance for pins has its bound: a first member aligned to 32 in a type the
    layout aligns to 16 is named (the member and the type's alignment both)."""
    tc = require_toolchain("gcc")
    schema = tmp_path / "r.toml"
    schema.write_text(_RULED.format(rules="std140").split("[[types]]\nvariant")[0])
    source = tmp_path / "hand.c"
    source.write_text("#include <stdint.h>\ntypedef struct R_r { _Alignas(32) float x; "
                      "int32_t y; float w; int32_t h; } R_r;\nR_r g_r;\n")
    proc = subprocess.run([*tc.argv, "-g", "-c", str(source), "-o", str(tmp_path / "hand.o")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    status, out, err = _verify(capsys, schema, tmp_path / "hand.o")
    assert status == 1, out + err
    assert "R_r.x: layout says alignment 4, " in out and "alignment 16" in out, out
