"""``verify --header`` with SPEC §1b's kinds: the structure check reads arrays (their
dimensions, through typedefs), a wrapped level's struct of ``v``, vectors as components or
as CUDA's and OpenCL C's own types, and enums; it names a wrong count, a missing dimension or
a wrong element type. Then the compilers measure hand-written headers that hold the kinds
(CUDA's ``float3``/``float4``, OpenCL C's ``float4``) and agree, stride by stride.
"""

from __future__ import annotations

import pytest

from helpers.common import require_toolchain
from sarek_layout.cli.main import main
from sarek_layout.resolve import load_schema
from sarek_layout.verify.structure import check_headers

_STD430 = """module = "L"
rules = "std430"
[[types]]
enum = "material"
base = "uint8"
values = [["Matte", 0], ["Shiny", 1]]
[[types]]
record = "light"
fields = [["dir", "vec3<float32>"], ["power", "float32"], ["color", "vec4<float32>"],
          ["trail", "vec3<float32>[2]"], ["hist", "int32[2][3]"], ["kind", "material"]]
"""

_LIGHT_H = """#include <stdint.h>
typedef uint8_t L_material;
typedef float rgba[4];
typedef struct L_light {
    _Alignas(16) float dir[3];
    float power;
    _Alignas(16) rgba color;
    _Alignas(16) struct { float v[3]; uint32_t _sarek_pad0; } trail[2];
    int32_t hist[2][3];
    L_material kind;
    uint8_t _sarek_pad1[7];
} L_light;
"""


@pytest.fixture(scope="module")
def lights(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lights")
    (folder / "l.toml").write_text(_STD430)
    return load_schema([str(folder / "l.toml")])


def _check(tmp_path, schema, text, name="h.h"):
    path = tmp_path / name
    path.write_text(text)
    problems, passed = check_headers([str(path)], schema.types)
    return [p.message for p in problems], [t.c_name for t in passed]


def test_a_hand_written_header_of_the_kinds_passes(tmp_path, lights):
    assert _check(tmp_path, lights, _LIGHT_H) == ([], ["L_material", "L_light"])


@pytest.mark.parametrize("old, new, message, probed", [
    ("_Alignas(16) rgba color;", "float color[3]; float _sarek_pad2;",
     "L_light.color: header says float[3], schema says vec4<float32> (4 components of float32: "
     "write float color[4])", True),
    ("int32_t hist[2][3];", "int32_t hist[3][2];",
     "L_light.hist: header says int32_t[3][2], schema says int32[2][3]: [2][3] elements, the "
     "header [3][2]", True),
    ("int32_t hist[2][3];", "int32_t hist[6];",
     "L_light.hist: header says int32_t[6], schema says int32[2][3]: [2][3] here, [6] in the "
     "header", False),
    ("int32_t hist[2][3];", "float hist[2][3];",
     "L_light.hist[][]: header says float, schema says int32 (write int32_t)", True),
    ("struct { float v[3]; uint32_t _sarek_pad0; } trail[2];", "float trail[2][4];",
     "L_light.trail[]: header says float[4], schema says a struct of `v` and padding: its "
     "elements lie further apart than their size (the vec3<float32>[2] member)", True),
    ("typedef uint8_t L_material;", "typedef enum { L_material_Matte } L_material;",
     "L_material: header declares enum (a C enum's size is the ABI's), schema says an enum of "
     "uint8 (write typedef uint8_t L_material;)", True),
])
def test_kinds_problems_are_named(tmp_path, lights, old, new, message, probed):
    assert old in _LIGHT_H
    messages, passed = _check(tmp_path, lights, _LIGHT_H.replace(old, new))
    assert message in messages, messages
    assert ("L_light" in passed) == probed


def test_an_enum_missing_is_named_with_its_base(tmp_path, lights):
    messages, passed = _check(tmp_path, lights, _LIGHT_H.replace("typedef uint8_t L_material;",
                                                                  "typedef uint8_t L_mat;")
                              .replace("L_material kind", "L_mat kind"))
    assert any(m.startswith("L_material: not declared in the header (schema type L.material, "
                            "an enum of uint8; expected `typedef uint8_t L_material;`)")
               for m in messages), messages


# --- the compilers on hand-written headers of the kinds -------------------------------------

_CUDA = """module = "P"
rules = "cuda"
[[types]]
enum = "material"
base = "uint8"
values = [["Matte", 0], ["Shiny", 1]]
[[types]]
record = "particle"
fields = [["pos", "vec3<float32>"], ["vel", "vec4<float32>"], ["uv", "vec2<float32>"],
          ["tag", "material"], ["path", "vec2<float32>[3]"]]
"""

#: CUDA's own vector types, as a CUDA programmer writes them (nvcc and NVRTC declare them).
_PARTICLE_CUH = """typedef unsigned char P_material;
typedef struct P_particle {
    float3 pos;
    float _sarek_pad0;
    float4 vel;
    float2 uv;
    P_material tag;
    unsigned char _sarek_pad1[7];
    float2 path[3];
    unsigned char _sarek_pad2[8];
} P_particle;
"""

_LIGHT_CLH = """typedef uchar L_material;
typedef struct L_light {
    float dir[3] __attribute__((aligned(16)));
    float power;
    float4 color;
    struct { float v[3]; uint _sarek_pad0; } trail[2] __attribute__((aligned(16)));
    int hist[2][3];
    L_material kind;
    uchar _sarek_pad1[7];
} L_light;
"""


def test_hand_written_cuda_and_opencl_headers_of_the_kinds_agree(tmp_path, capsys):
    (tmp_path / "p.toml").write_text(_CUDA)
    (tmp_path / "particle.cuh").write_text(_PARTICLE_CUH)
    (tmp_path / "l.toml").write_text(_STD430)
    (tmp_path / "light.clh").write_text(_LIGHT_CLH)
    (tmp_path / "light.h").write_text(_LIGHT_H)
    runs = [("p.toml", ["particle.cuh"], ["nvcc", "nvrtc"]),
            ("l.toml", ["light.clh", "light.h"], ["clang-opencl", "pocl", "gcc", "gcc-m32"])]
    for schema, headers, names in runs:
        for name in names:
            require_toolchain(name)
        args = [a for n in names for a in ("--toolchain", n)]
        args += [a for h in headers for a in ("--header", str(tmp_path / h))]
        status = main(["verify", str(tmp_path / schema), *args])
        out = capsys.readouterr().out
        assert status == 0, out
        assert f"{len(names)} of {len(names)} toolchains agree" in out, out


def test_a_hand_written_cuda_header_with_a_float4_for_a_vec3_is_named(tmp_path, capsys):
    """A float4 where the schema says vec3 (cuda rules: 12 bytes, 4-aligned): the structure
    check names the components, and nvcc measures what it costs."""
    require_toolchain("nvrtc")
    (tmp_path / "p.toml").write_text(_CUDA)
    (tmp_path / "particle.cuh").write_text(_PARTICLE_CUH.replace("float3 pos;\n    float _sarek_pad0;",
                                                                  "float4 pos;"))
    status = main(["verify", str(tmp_path / "p.toml"), "--header", str(tmp_path / "particle.cuh"),
                   "--toolchain", "nvrtc"])
    out = capsys.readouterr().out
    assert status == 1
    assert ("P_particle.pos: header says 4 components of float32, schema says vec3<float32> "
            "(3 components of float32: write float pos[3])") in out, out
    assert "P_particle: layout says alignment 16" not in out
    assert "P_particle.pos: layout says member size 12, nvrtc says 16" in out, out


def test_a_huge_array_is_checked_as_a_small_one_is(tmp_path):
    """``float big[50000000]`` (and a vec3 array of that many pairs) costs the structure
    check what ``big[2]`` costs (Python calls counted: the dimensions are read, never
    walked)."""
    from helpers.bounded import python_calls

    def work(count):
        folder = tmp_path / f"n{count}"
        folder.mkdir(exist_ok=True)
        (folder / "b.toml").write_text(
            f'module = "B"\n[[types]]\nrecord = "r"\nfields = [["n", "int32"], '
            f'["big", "float32[{count}]"], ["m", "vec3<float32>[{count}][2]"]]\n')
        schema = load_schema([str(folder / "b.toml")])
        path = folder / "b.h"
        path.write_text(f"typedef struct B_r {{ int n; float big[{count}]; "
                        f"float m[{count}][2][3]; }} B_r;\n")
        found = []
        calls = python_calls(lambda: found.append(check_headers([str(path)], schema.types)))
        problems, passed = found[0]
        assert problems == [] and len(passed) == 1
        return calls

    work(3)
    # A handful of calls apart (caches of the literal's text), whatever the count.
    assert abs(work(50_000_000) - work(2)) < 20
