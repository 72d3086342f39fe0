"""SPEC §1b's member kinds in the C-family headers, judged by the compilers that build them.

* the ``make_`` helpers and record copies run on x86-64 and i386 (C and C++): arrays,
  vectors and matrices are filled element by element from a pointer to their values, records
  copied, and every byte of the value returned is compared with an image assembled from the
  member model's offsets and strides (every padding byte zero, a wrapped element's included,
  whatever the arguments' own padding held);
* an enum member is its fixed-width base whatever the ABI makes of a C ``enum``
  (``-fshort-enums``), and its constants have the schema's values at the edges of the base's
  range, in C, C++, CUDA and OpenCL C;
* the ``.h`` and the ``.cuh`` of a schema with CUDA's vector types meet in one nvcc
  translation unit, in either order, as CUDA's own ``float4`` there and as an array of floats
  in a C host program;
* a type C cannot hold (the scalar rules' unrounded structures) is refused for the C family,
  naming it; ``verify`` then skips the C family's toolchains, saying why;
* a ``float32[100000000]`` member costs what a ``float32[2]`` costs to generate and to probe
  (Python calls counted), and generates and verifies within a bounded CPU time and memory.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import subprocess
import sys

import pytest

from helpers.bounded import python_calls, run_cpu_bounded
from helpers.common import require_toolchain
from helpers.compile import (BYTE_CHECK, STRICT, assert_compiles, assert_fails,
                             run_byte_checks)
from sarek_layout.cli.main import main
from sarek_layout.codegen import render_headers
from sarek_layout.ir.schema import Member
from sarek_layout.ir.types import SCALARS
from sarek_layout.resolve import load_schema
from sarek_layout.targets.shape import Array, shape_of

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden"
KINDS_CASES = sorted(p.name for p in GOLDEN.iterdir() if p.name.startswith("kinds_"))

#: The test's own C spelling of each scalar (an oracle, not the dialect's).
_C_TYPE = {"int32": "int32_t", "bool": "int32_t", "unit": "int32_t", "int64": "int64_t",
           "float32": "float", "float64": "double", "float16": "uint16_t", "uint8": "uint8_t",
           "int8": "int8_t", "int16": "int16_t", "uint16": "uint16_t", "uint32": "uint32_t",
           "uint64": "uint64_t"}


def _schemas(case):
    return sorted(str(p) for p in (GOLDEN / case).iterdir() if p.suffix in (".toml", ".json"))


def _write(files, out: pathlib.Path):
    out.mkdir(parents=True, exist_ok=True)
    for f in files:
        (out / f.filename).write_text(f.text)


# --- the member model's elements, walked here (the oracle of the byte images) ----------------


def _element_offsets(m: Member, base: int):
    """``(offset, scalar)`` of every scalar a member holds, in its values' order (array
    indices outermost first, a vector's components last), from the model's dims."""
    offsets = [base + m.offset]
    for d in m.dims:
        offsets = [o + i * d.stride for o in offsets for i in range(d.count)]
    for o in offsets:
        if m.record is not None:
            yield from _slots(m.record, o)
        else:
            yield o, m.scalar


def _slots(record, base: int):
    for m in record.members:
        yield from _element_offsets(m, base)


_values = itertools.count(1)


def _value(scalar) -> int:
    v = next(_values) % 97 + 1
    if scalar.int_range is not None and scalar.int_range[0] < 0 and scalar.size <= 2:
        v = -v  # a sign slip shows
    return v


def _write_scalar(lines, target: str, offset_expr: str, scalar, value) -> None:
    """Put ``value`` (of ``scalar``) at ``target + offset`` and at ``want + offset``."""
    t = _C_TYPE[scalar.name]
    lines.append(f"        {{ {t} v = ({t}){value}; memcpy({target}, &v, sizeof v); "
                 f"memcpy(want + {offset_expr}, &v, sizeof v); }}")


def _argument(lines, i: int, a: Member, calls) -> None:
    """Declare argument ``a<i>`` of ``a`` and put its values into ``want``."""
    name = f"a{i}"
    if a.dims:
        if a.record is not None:
            # Records by pointer: an array of them, garbage in their padding.
            n = a.elements
            rec = a.record
            lines.append(f"        {rec.c_name} {name}[{n}]; memset({name}, 0xA5, sizeof {name});")
            starts = [o for o, _ in _element_offsets(a._replace(record=None, scalar=SCALARS["uint8"]), 0)]
            for e, start in enumerate(starts):
                for rel, scalar in _slots(rec, 0):
                    _write_scalar(lines, f"(unsigned char *)&{name}[{e}] + {rel}",
                                  f"{start + rel}", scalar, _value(scalar))
        else:
            elements = list(_element_offsets(a, 0))
            scalar = elements[0][1]
            values = [_value(scalar) for _ in elements]
            lines.append(f"        {_C_TYPE[scalar.name]} {name}[{len(values)}] = "
                         f"{{{', '.join(map(str, values))}}};")
            for k, (offset, _) in enumerate(elements):
                lines.append(f"        memcpy(want + {offset}, &{name}[{k}], sizeof {name}[0]);")
    elif a.record is not None:
        lines.append(f"        {a.record.c_name} {name}; memset(&{name}, 0xA5, sizeof {name});")
        for rel, scalar in _slots(a.record, 0):
            _write_scalar(lines, f"(unsigned char *)&{name} + {rel}", f"{a.offset + rel}",
                          scalar, _value(scalar))
    else:
        t = a.enum.c_name if a.enum is not None else _C_TYPE[a.scalar.name]
        lines.append(f"        {t} {name} = ({t}){_value(a.scalar)};")
        lines.append(f"        memcpy(want + {a.offset}, &{name}, sizeof {name});")
    calls.append(name)


def _helper_program(schema, headers) -> str:
    lines = ["#include <stdio.h>", "#include <string.h>"]
    lines += [f'#include "{h}"' for h in headers]
    lines += [*BYTE_CHECK, "int main(void)", "{"]
    for st in schema.types:
        if st.kind != "variant":
            continue
        for arm in st.arms:
            lines += [f"    {{ /* {st.c_name}.{arm.name} */",
                      f"        static unsigned char want[{st.size}];",
                      f"        {st.c_name} got;",
                      f"        int32_t tag = {arm.tag};",
                      "        memset(want, 0, sizeof want);",
                      "        memcpy(want, &tag, 4);"]
            calls: list = []
            for i, a in enumerate(arm.args):
                _argument(lines, i, a, calls)
            lines += ["        memset(&got, 0x5A, sizeof got);",
                      f"        got = make_{st.c_name}_{arm.name}({', '.join(calls)});",
                      f'        check(&got, want, sizeof want, "{st.c_name}.{arm.name}");',
                      "    }"]
    lines += ['    printf("%d failures\\n", failures);', "    return failures != 0;", "}"]
    return "\n".join(lines) + "\n"


def _run_helper_program(tc, schema, out: pathlib.Path) -> None:
    """Build ``_helper_program`` with ``tc`` against the schema's C header, in ``out``, and
    run it: every byte of every ``make_`` helper's value as the member model says."""
    files = render_headers(schema, ["c"])
    _write(files, out)
    src = out / "run.c"
    src.write_text(_helper_program(schema, [f.filename for f in files]))
    run_byte_checks(tc, src, out)


@pytest.mark.parametrize("toolchain", ["gcc", "g++", "gcc-m32"])
def test_make_helpers_fill_the_kinds_and_zero_every_padding_byte(toolchain, tmp_path):
    tc = require_toolchain(toolchain)
    ran = 0
    for case in KINDS_CASES:
        schema = load_schema(_schemas(case))
        _run_helper_program(tc, schema, tmp_path / case)
        ran += sum(len(st.arms) for st in schema.types if st.kind == "variant")
    assert ran >= 20


# --- hlsl-cbuffer: registers in a variant's payload, arrays ending at their last element ----

#: ``offsets``: lone arguments HLSL's 16-byte registers place after the payload's start (a
#: vector that would straddle a register moves to the next one: ``One`` at 16, the payload at
#: 4; ``Long`` at 16, the payload at 8), beside arguments that start it and arms of several.
#: ``tails``: arrays the rules end at their last element whose padding nothing uses (``b`` at
#: 32, past ``a``'s 2 × 16 bytes; a variant's arm ending before the variant does), held
#: padded to count × stride.
_CBUFFER = {
    "offsets": [
        {"record": "q", "fields": [["v", "vec4<float32>"]]},
        {"variant": "v", "constructors": [["One", ["vec4<float32>"]],
                                          ["After", ["uint8", "vec4<float32>"]], ["Nothing", []]]},
        {"variant": "w", "constructors": [["Wide", ["vec2<float64>"]], ["Rec", ["q"]],
                                          ["Pair", ["float32", "q"]],
                                          ["Mix", ["int32", "vec3<int32>"]]]},
        {"variant": "x", "constructors": [["Long", ["vec4<int64>"]], ["Small", ["int32"]]]},
        {"variant": "y", "constructors": [["Three", ["vec3<float32>"]],
                                          ["Two", ["float64", "float32"]]]}],
    "tails": [
        {"record": "r", "fields": [["a", "float32[2]"], ["b", "vec4<float32>"]]},
        {"record": "m", "fields": [["x", "float32"], ["g", "vec3<float32>[2][3]"],
                                   ["n", "mat2x2<float32>"], ["c", "vec4<int32>"]]},
        {"record": "s", "fields": [["k", "uint8[5]"], ["d", "float64[2]"], ["e", "r[2]"]]},
        {"variant": "t", "constructors": [["A", ["float32", "float32[2]"]], ["One", ["float32[3]"]],
                                          ["R", ["r"]], ["S", ["uint8[5]", "m"]], ["B", []]]}],
}


def _cbuffer_schema(tmp_path, case):
    path = tmp_path / f"{case}.json"
    path.write_text(json.dumps({"module": "Cb", "rules": "hlsl-cbuffer", "types": _CBUFFER[case]}))
    schema = load_schema([str(path)])
    shapes = [shape_of(st) for st in schema.types]
    if case == "offsets":  # the case it is about: a lone argument off the payload's start
        v = schema.types[1]
        assert (v.payload_offset, v.arms[0].args[0].offset) == (4, 16)
    else:  # arrays ending at their last element, at the top and in arms
        tails = {n.path for sh in shapes for n in sh.nodes()
                 if isinstance(n, Array) and n.tail_unpadded}
        assert {"a", "g", "n", "k", "d", "data.A_v._1", "data.One_v", "data.S_v._0"} <= tails
    return schema


@pytest.mark.parametrize("case", sorted(_CBUFFER))
@pytest.mark.parametrize("toolchain", ["gcc", "g++", "clang", "gcc-m32", "rustc", "zig"])
def test_cbuffer_layouts_are_held_where_the_rules_put_them(toolchain, case, tmp_path):
    """Under hlsl-cbuffer the compiler measures every offset, size and stride the layout
    gives (the header's own assertions live; an array padded to its span is measured as
    count × stride), and each C ``make_`` helper writes each argument there, every other
    byte zero."""
    from sarek_layout.verify.probes import probes_for
    from sarek_layout.verify.run import verify_schema

    tc = require_toolchain(toolchain)
    schema = _cbuffer_schema(tmp_path, case)
    report = verify_schema(schema, toolchains=[toolchain])
    (result,) = report.results
    assert result.status == "agrees", report.format()
    assert result.values >= len(probes_for(schema.types))
    if toolchain not in ("clang", "rustc", "zig"):
        _run_helper_program(tc, schema, tmp_path)


_USED_TAIL = {"module": "Cb", "rules": "hlsl-cbuffer", "types": [
    {"record": "u", "fields": [["n", "mat2x2<float32>"], ["f", "float32"], ["c", "vec4<int32>"]]}]}


@pytest.mark.parametrize("target", ["c", "cuda", "opencl", "metal", "rust", "zig"])
def test_an_array_whose_tail_is_used_is_still_refused_naming_it(target, tmp_path, capsys):
    """``f`` starts at 24, inside the last column's padding of ``n`` (2 × 16 bytes from 0):
    no array of count × stride holds it. Refused in one line, naming the member, where the
    next member starts and what the array would span."""
    path = tmp_path / "u.json"
    path.write_text(json.dumps(_USED_TAIL))
    out = tmp_path / "out"
    assert main(["generate", str(path), "-o", str(out), "-t", target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Cb.u.n" in err, err
    assert ("mat2x2<float32> at offset 0 ends at its last element (24 bytes, its 2 elements 16 "
            "bytes apart), and what follows it starts at offset 24, inside the 32 bytes") in err
    assert not out.exists()


# --- enums -----------------------------------------------------------------------------------

_ENUM_CHECKS = [
    ("Scene_material_Glass == 255", "Glass"),
    ("Scene_priority_Lowest == -2147483647 - 1", "Lowest"),
    ("Scene_priority_Highest == 2147483647", "Highest"),
    ("Scene_stamp_Far == 1099511627776", "Far"),
    ("Scene_stamp_Never < 0", "Never"),
    ("sizeof(Scene_material) == 1", "material"),
    ("sizeof(((Scene_particle *)0)->tags[0]) == 1", "tags"),
    ("sizeof(((Scene_particle *)0)->prio) == 4", "prio"),
    ("sizeof(((Scene_particle *)0)->when) == 8", "when"),
]


def _enum_source(style: str) -> str:
    if style == "typedef":
        return "".join(f"typedef char enum_check_{what}[({cond}) ? 1 : -1];\n"
                       for cond, what in _ENUM_CHECKS)
    return "".join(f'{style}({cond}, "{what}");\n' for cond, what in _ENUM_CHECKS)


_ENUM_STYLE = {"gcc": "_Static_assert", "g++": "static_assert", "clang": "_Static_assert",
               "gcc-m32": "_Static_assert", "nvcc": "static_assert", "clang-opencl": "typedef"}
_HEADER = {"nvcc": "scene.cuh", "clang-opencl": "scene.clh"}


@pytest.mark.parametrize("toolchain", sorted(_ENUM_STYLE))
def test_enum_constants_have_the_schemas_values_and_members_their_base(toolchain, tmp_path):
    header = _HEADER.get(toolchain, "scene.h")
    folder = GOLDEN / "kinds_std430" / "expected"
    assert_compiles(toolchain, [("enums", [header], [folder], _enum_source(_ENUM_STYLE[toolchain]))],
                    tmp_path)


def test_an_enum_member_keeps_its_base_size_under_short_enums(tmp_path):
    """gcc's -fshort-enums makes a C enum of values below 256 one byte: a member of the
    schema's int32 enum stays 4 bytes (the header's own assertions hold, and say so)."""
    tc = require_toolchain("gcc")
    src = tmp_path / "short.c"
    src.write_text('#include "scene.h"\nenum plain { A, B };\n'
                   "_Static_assert(sizeof(enum plain) == 1, \"short enums are on\");\n"
                   + _enum_source("_Static_assert"))
    proc = subprocess.run([*tc.argv, *STRICT, "-fshort-enums", "-c", str(src), "-o",
                           str(tmp_path / "short.o"), f"-I{GOLDEN / 'kinds_c' / 'expected'}"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


# --- CUDA's vector types ---------------------------------------------------------------------

_KERNEL = """
__global__ void sarek_test_kernel(Scene_particle *p)
{
    /* CUDA's own vector types under nvcc: a float4 column, a float3 position. */
    p->model[1].x = p->pos.y;
    p->bytes.w = 7;
    Scene_light l = p->lights[1];
    p->pos.z = l.color.w + l.uv.x;
}
"""


@pytest.mark.parametrize("order", ["h-first", "cuh-first"])
def test_the_h_and_the_cuh_meet_with_cudas_vector_types(order, tmp_path):
    require_toolchain("nvcc")
    schema = load_schema(_schemas("kinds_cuda"))
    files = render_headers(schema, ["c", "cuda"])
    _write(files, tmp_path / "inc")
    headers = ["scene.h", "scene.cuh"] if order == "h-first" else ["scene.cuh", "scene.h"]
    assert_compiles("nvcc", [("together", headers, [tmp_path / "inc"], _KERNEL)], tmp_path)


def test_a_c_host_program_sees_the_vectors_as_arrays(tmp_path):
    """The same ``.h`` in a C program: the vectors CUDA holds natively are arrays of their
    components there (``sarek_layout_float4`` is ``float[4]``), with the same bytes."""
    schema = load_schema(_schemas("kinds_cuda"))
    _write(render_headers(schema, ["c"]), tmp_path / "inc")
    source = ("void touch(Scene_particle *p);\n"
              "void touch(Scene_particle *p) { p->model[1][0] = p->pos[1]; p->bytes[3] = 7; "
              "p->pos[2] = p->lights[1].color[3] + p->lights[1].uv[0]; }\n")
    for tc in ("gcc", "g++", "gcc-m32"):
        assert_compiles(tc, [("host", ["scene.h"], [tmp_path / "inc"], source)], tmp_path / tc)


def test_a_wrong_stride_fails_naming_the_array_level(tmp_path):
    """The stride assertions are live: a std430 vec3 array's padding cut from its wrapper
    struct stops the compile, naming the array level (and C's spelling of its stride)."""
    schema = load_schema(_schemas("kinds_std430"))
    (f,) = render_headers(schema, ["c"])
    text = f.text.replace("        unsigned char _sarek_pad0[4];\n    } trail[4];",
                          "    } trail[4];", 1)
    assert text != f.text
    (tmp_path / f.filename).write_text(text)
    output = assert_fails("gcc", "stride", [f.filename], tmp_path, tmp_path / "build")
    assert "Scene_particle::trail[0] (array stride) must be 16 bytes" in output, output


# --- what C cannot hold ----------------------------------------------------------------------

_UNROUNDED = """module = "Sc"
rules = "scalar"
[[types]]
record = "s"
fields = [["d", "float64"], ["f", "float32"]]
[[types]]
record = "t"
fields = [["a", "s[2]"], ["b", "float32"]]
"""


@pytest.mark.parametrize("target", ["c", "cuda", "opencl"])
def test_a_type_c_cannot_hold_is_refused_naming_it(target, tmp_path, capsys):
    path = tmp_path / "sc.toml"
    path.write_text(_UNROUNDED)
    out = tmp_path / "out"
    assert main(["generate", str(path), "-o", str(out), "-t", target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}:4:10: error: Sc.s cannot be declared in C" in err
    assert "12 bytes, 8-aligned" in err and "pad it to 16 bytes" in err
    assert not out.exists()


def test_verify_skips_the_c_family_saying_why(tmp_path, capsys):
    path = tmp_path / "sc.toml"
    path.write_text(_UNROUNDED)
    status = main(["verify", str(path)])
    out = capsys.readouterr().out
    rows = [ln for ln in out.splitlines() if ln.split()[:1] in (["gcc"], ["nvcc"], ["pocl"])]
    assert rows and all("skipped: " in r and "cannot express a type (" in r for r in rows), out
    # GLSL holds it natively (a layout(scalar) block): glslang measures it where installed;
    # with nothing left to verify with, verify exits 2.
    glslang = [ln for ln in out.splitlines() if ln.split()[:1] == ["glslang"]]
    assert status == (0 if glslang and "agrees" in glslang[0] else 2), out


# --- scale: counts never cost ----------------------------------------------------------------


_HUGE = """module = "Big"
rules = "RULES"
[[types]]
record = "r"
fields = [["n", "int32"], ["big", "float32[COUNT]"], ["pts", "vec3<float32>[COUNT][2]"]]
[[types]]
variant = "v"
constructors = [["A", ["float32[COUNT]"]], ["B", ["r"]], ["C"]]
"""


@pytest.mark.parametrize("rules", ["c", "std430"])
def test_a_huge_array_costs_what_a_small_one_costs(rules, tmp_path):
    from sarek_layout.verify.probes import probes_for

    def work(count):
        path = tmp_path / f"big{count}.toml"
        path.write_text(_HUGE.replace("RULES", rules).replace("COUNT", str(count)))
        schema = load_schema([str(path)])

        def run():
            files = render_headers(schema, ["c", "cuda", "opencl"])
            assert sum(len(f.text) for f in files) < 200_000
            probes_for(schema.types)
        return python_calls(run)

    work(3)  # caches every run shares
    assert work(50_000_000) == work(2)


def test_a_huge_array_generates_and_verifies_in_bounded_time_and_memory(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(_HUGE.replace("RULES", "std430").replace("COUNT", "50000000"))
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "generate", str(path), "-o",
                            str(tmp_path / "out")], cpu_s=10, memory=2 << 30,
                           what="an array's elements are generated one by one")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "big.h").stat().st_size < 100_000
    for name in ("gcc", "gcc-m32", "cffi"):
        require_toolchain(name)
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "verify", str(path),
                            "--toolchain", "gcc", "--toolchain", "gcc-m32", "--toolchain", "cffi"],
                           cpu_s=60, memory=4 << 30,
                           what="an array's elements are probed or compiled one by one")
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    assert b"3 of 3 toolchains agree" in proc.stdout


# --- the end-to-end example's frames ------------------------------------------------------------


def test_the_e2e_frames_reach_the_opencl_kernel_and_the_c_host(tmp_path):
    """examples/e2e/frames.toml (a vec4, a float[5] and an enum under std430): Python writes
    the frames with the generated module, PoCL's kernel transforms them, the C host checks
    inputs and outputs member by member and byte for byte, nvcc compiles the CUDA kernel with
    CUDA's float4."""
    for name in ("pocl", "gcc", "nvcc"):
        require_toolchain(name)
    run = subprocess.run([sys.executable, str(GOLDEN.parents[1] / "examples" / "e2e" / "run_e2e.py"),
                          "--out", str(tmp_path), "-n", "40", "--steps", "pocl,c,cuda",
                          "--require", "pocl,c,cuda"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "frames.clh" not in run.stdout and (tmp_path / "frames.clh").is_file()
    assert "40 frames (a vec4, a float[5] and an enum) as expected" in run.stdout, run.stdout
    assert "c host: 40 frames (a vec4, a float[5] and an enum) match" in run.stdout
    assert "(inputs and device outputs)" in run.stdout.split("c host: 40 frames")[1]
