"""Generated headers against real compilers: the headers' own assertions are the check.

* the example schemas, with every toolchain (and OpenCL C 2.0/3.0 besides 1.2);
* the ``make_`` helpers run on x86-64 and i386: every byte of the value they return is
  compared with an image built from the layout core's offsets (padding must be zero);
* negative tests: a header edited to a wrong offset (or, on i386, stripped of its alignment
  specifiers) must fail to compile with a message naming the type and the member;
* hypothesis-generated nested schemas over two modules (one including the other);
* Sarek's exhaustive conformance shapes (780 records, 30,783 variants), marked slow: here
  for every compile toolchain but gcc, g++, clang and gcc -m32, whose strict compile of them
  is test_verify_drivers.py's conformance enumeration (the same flags, and the numbers
  measured from the same compile).

Each batch is one compiler run per toolchain; nothing here passes without the compiler
(a missing toolchain skips locally and fails under SAREK_REQUIRE_TOOLCHAINS).
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import pathlib
import re
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.compile import (
    BYTE_CHECK,
    COMPILE_TOOLCHAINS,
    STRICT,
    STRICT_IN_VERIFY,
    assert_compiles,
    assert_fails,
    header_suffix,
    run_byte_checks,
)
from helpers.common import EXAMPLES, require_toolchain, shared_folder
from helpers.shapes import SCALAR, conformance_records, conformance_variants, nested_descriptions
from sarek_layout.codegen import render_headers
from sarek_layout.codegen.views import module_view
from sarek_layout.frontends import READERS
from sarek_layout.ir.types import SCALARS as SCALAR_TABLE
from sarek_layout.resolve import load_schema
from sarek_layout.ir.types import TRecord


def _write_headers(files, out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for f in files:
        (out / f.filename).write_text(f.text)


def _batch_headers(out: pathlib.Path, toolchain: str):
    return sorted(p.name for p in out.glob("*" + header_suffix(toolchain)))


# --- the example schemas ---------------------------------------------------------------------

EXAMPLE_SCHEMAS = sorted(str(p) for p in EXAMPLES.iterdir() if p.suffix in READERS)


@pytest.fixture(scope="module")
def example_headers(tmp_path_factory):
    out = tmp_path_factory.mktemp("examples")
    schema = load_schema(EXAMPLE_SCHEMAS)
    _write_headers(render_headers(schema), out)
    return out, schema


@pytest.mark.parametrize("toolchain", COMPILE_TOOLCHAINS)
def test_example_headers_compile(toolchain, example_headers, tmp_path):
    out, _ = example_headers
    assert_compiles(toolchain, [("examples", _batch_headers(out, toolchain), [out])], tmp_path)


@pytest.mark.parametrize("std", ["CL2.0", "CL3.0"])
def test_example_opencl_headers_compile_in_later_opencl_versions(std, example_headers, tmp_path):
    tc = require_toolchain("clang-opencl")
    out, _ = example_headers
    source = tmp_path / "later.cl"
    source.write_text("".join(f'#include "{h}"\n' for h in _batch_headers(out, "clang-opencl")))
    argv = [a if not a.startswith("-cl-std=") else f"-cl-std={std}" for a in tc.argv]
    proc = subprocess.run([*argv, *STRICT, f"-I{out}", "-fsyntax-only", str(source)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_cuda_make_helpers_compile_in_device_code(example_headers, tmp_path):
    """A kernel that calls every make_ helper: the device pass compiles their bodies."""
    out, schema = example_headers
    calls = []
    for t in (t for m in schema.modules for t in module_view(schema, m).types):
        for c in t.ctors:
            args = ", ".join("{}" if p.kind == "record" else "0" for p in c.params)
            calls.append(f"    out[{len(calls)}] = {c.make_name}({args}).tag;")
    assert calls
    kernel = "__global__ void call_helpers(int *out)\n{\n" + "\n".join(calls) + "\n}\n"
    assert_compiles("nvcc", [("helpers", _batch_headers(out, "nvcc"), [out], kernel)], tmp_path)


@pytest.mark.parametrize("toolchain", ["g++", "gcc-m32"])
def test_cuda_headers_need_no_libc_under_nvrtc(toolchain, example_headers, tmp_path):
    """NVRTC has no libc headers: with ``__CUDACC_RTC__`` defined the .cuh headers must
    compile with ``-nostdinc`` (simulated with g++; the real NVRTC driver is verify's)."""
    tc = require_toolchain(toolchain)
    out, _ = example_headers
    src = tmp_path / "rtc.cpp"
    src.write_text("".join(f'#include "{h}"\n' for h in _batch_headers(out, "nvcc")))
    argv = [a for a in tc.argv if a != "-std=c11"] + ["-std=c++11", "-x", "c++"]
    proc = subprocess.run([*argv, "-nostdinc", "-D__CUDACC_RTC__", "-D__host__=", "-D__device__=",
                           *STRICT, f"-I{out}", "-fsyntax-only", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


_TOO_OLD = [
    # (compiler, language standard, header suffix, extra flags)
    ("gcc", "-std=c99", ".h", []),
    ("g++", "-std=c++98", ".h", []),
    ("g++", "-std=c++03", ".cuh", ["-D__host__=", "-D__device__="]),
]


@pytest.mark.parametrize("compiler, std, suffix, extra", _TOO_OLD,
                         ids=[f"{c}{s}{x}" for c, s, x, _ in _TOO_OLD])
def test_a_language_standard_too_old_gets_the_headers_own_error(compiler, std, suffix, extra,
                                                                example_headers, tmp_path):
    """Before C11/C++11 there is no static_assert or alignas: the header says so in its own
    words instead of leaving the user to decode errors about undeclared names."""
    require_toolchain("g++" if compiler == "g++" else "gcc")
    out, _ = example_headers
    header = sorted(out.glob("*" + suffix))[0].name
    src = tmp_path / ("old.cpp" if compiler == "g++" else "old.c")
    src.write_text(f'#include "{header}"\n')
    proc = subprocess.run([compiler, std, *extra, f"-I{out}", "-fsyntax-only", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "error: #error \"sarek-layout: this header needs C" in proc.stderr, proc.stderr


# --- make_ helpers at run time: byte images on x86-64 and i386 -------------------------------

# The test's own C spelling of each scalar (an oracle, so not read from the dialect); it must
# name every scalar of the table.
_C_TYPE = {"int32": "int32_t", "bool": "int32_t", "unit": "int32_t", "int64": "int64_t",
           "float32": "float", "float64": "double", "float16": "uint16_t", "uint8": "uint8_t",
           "int8": "int8_t", "int16": "int16_t", "uint16": "uint16_t", "uint32": "uint32_t",
           "uint64": "uint64_t"}
assert set(_C_TYPE) == set(SCALAR_TABLE), "a scalar of the table has no C spelling here"


def _helper_program(schema) -> str:
    """A C program calling every make_ helper and comparing each returned value, byte for
    byte, with an image assembled from the layout core's leaf offsets (the rest zero)."""
    lines = ["#include <stdio.h>", "#include <string.h>"]
    lines += [f'#include "{os.path.splitext(os.path.basename(m.path))[0]}.h"' for m in schema.modules]
    lines += [*BYTE_CHECK, "int main(void)", "{"]
    value = itertools.count(1)
    for st_ in (t for t in schema.types if t.kind == "variant"):
        args_of = dict(st_.elttype.ctors)
        for ctor in st_.layout.ctors:
            block = [f"    {{ /* {st_.c_name}.{ctor.name} */",
                     f"        unsigned char want[{st_.layout.size}];",
                     f"        {st_.c_name} got;",
                     "        int32_t tag = " + str(ctor.tag) + ";"]
            call_args = []
            for i, arg in enumerate(args_of[ctor.name]):
                if isinstance(arg, TRecord):
                    c_name = _arg_c_name(schema, st_, ctor.name, i)
                    block.append(f"        {c_name} a{i};")
                    # Garbage in the argument's own padding must not reach the result.
                    block.append(f"        memset(&a{i}, 0xA5, sizeof a{i});")
                else:
                    block.append(f"        {_C_TYPE[arg.name]} a{i};")
                call_args.append(f"a{i}")
            block += ["        memset(want, 0, sizeof want);",
                      "        memcpy(want + 0, &tag, 4);"]
            prefix = ctor.name + "."
            for leaf in ctor.leaves:
                v = next(value)
                if leaf.type.name == "uint8":
                    v = v % 251 + 1  # a uint8 literal must fit (-Werror)
                elif leaf.type.size == 1:
                    v = -(v % 101 + 1)  # an int8: negative, so a sign slip shows
                elif leaf.type.size == 2 and leaf.type.int_range is not None:
                    v = v % 30011 + 1
                rest = leaf.path[len(prefix):]  # _0 or _0.x.y
                idx, _, sub = rest.partition(".")
                target = f"a{idx[1:]}" + (f".{sub}" if sub else "")
                block.append(f"        {{ {_C_TYPE[leaf.type.name]} v = {v}; {target} = v;"
                             f" memcpy(want + {leaf.offset}, &v, sizeof v); }}")
            block += ["        memset(&got, 0x5A, sizeof got);",
                      f"        got = make_{st_.c_name}_{ctor.name}({', '.join(call_args)});",
                      f'        check(&got, want, sizeof want, "{st_.c_name}.{ctor.name}");',
                      "    }"]
            lines += block
    lines += ['    printf("%d failures\\n", failures);', "    return failures != 0;", "}"]
    return "\n".join(lines) + "\n"


def _arg_c_name(schema, st_, ctor_name, index) -> str:
    view = next(t for t in module_view(schema, st_.source).types if t.c_name == st_.c_name)
    ctor = next(c for c in view.ctors if c.name == ctor_name)
    return ctor.params[index].type


@pytest.mark.parametrize("toolchain", ["gcc", "g++", "gcc-m32"])
def test_make_helpers_zero_every_padding_byte(toolchain, tmp_path):
    """Examples plus the nested/cross-module goldens and uint8/float16 members (holes of 1
    to 3 bytes): run on x86-64 and i386."""
    tc = require_toolchain(toolchain)
    golden = pathlib.Path(__file__).resolve().parents[1] / "golden"
    cases = [EXAMPLE_SCHEMAS, [str(golden.parent / "data" / "pixels.toml")],
             sorted(str(p) for p in (golden / "nested").glob("*.toml")),
             sorted(str(p) for p in (golden / "cross_module").glob("*.toml")),
             sorted(str(p) for p in (golden / "seed_values").glob("*.toml")),
             sorted(str(p) for p in (golden / "extension_scalars").glob("*.toml"))]
    for n, paths in enumerate(cases):
        schema = load_schema(paths)
        out = tmp_path / f"case{n}"
        _write_headers(render_headers(schema, ["c"]), out)
        src = out / "run.c"
        src.write_text(_helper_program(schema))
        run_byte_checks(tc, src, out)


# --- negative tests: the assertions are live ---------------------------------------------------


def _edit_after(text: str, anchor: str, old: str, new: str) -> str:
    start = text.index(anchor)
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old):]


def _check_ident(schema, c_name: str, member: str) -> str:
    for m in schema.modules:
        for t in module_view(schema, m).types:
            for c in t.checks:
                if t.c_name == c_name and c.member == member and c.kind == "offset":
                    return c.ident
    raise LookupError(member)


NEGATIVE_TOOLCHAINS = ("gcc", "g++", "clang", "gcc-m32", "nvcc", "clang-opencl")


@pytest.mark.parametrize("toolchain", NEGATIVE_TOOLCHAINS)
def test_wrong_offset_fails_naming_type_and_member(toolchain, tmp_path):
    """One member too many in ``point`` and a padding run too long before a variant's
    payload: the compiler must stop, naming ``Geometry_point::y`` and the arm member."""
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    suffix = header_suffix(toolchain)
    files = [f for f in render_headers(schema) if f.filename.endswith(suffix)]
    (f,) = files
    text = _edit_after(f.text, "typedef struct Geometry_point {", "float x;", "float x; float sneaky;")
    text = _edit_after(text, "typedef struct Geometry_shape {", "_sarek_pad0[4];", "_sarek_pad0[12];")
    assert text != f.text
    (tmp_path / f.filename).write_text(text)
    output = assert_fails(toolchain, "negative", [f.filename], tmp_path, tmp_path / "build")
    if toolchain == "clang-opencl":
        wanted = [_check_ident(schema, "Geometry_point", "y"),
                  _check_ident(schema, "Geometry_shape", "data.Circle_v._0")]
    else:
        wanted = ["Geometry_point::y", "Geometry_shape::data.Circle_v._0"]
    for name in wanted:
        assert name in output, f"{name!r} not in the diagnostics:\n{output}"


def test_i386_needs_the_alignment_specifiers(tmp_path):
    """Without ``_Alignas(8)`` the explicit padding still fixes every offset, but i386 makes
    the structs 4-aligned: the alignment assertion must catch it (x86-64 does not care)."""
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    (f,) = render_headers(schema, ["c"])
    stripped = re.sub(r"(?m)^(\s+)SAREK_LAYOUT_ALIGN8 ", r"\1", f.text)
    assert stripped != f.text
    (tmp_path / f.filename).write_text(stripped)
    output = assert_fails("gcc-m32", "unaligned", [f.filename], tmp_path, tmp_path / "build")
    assert "alignment of Geometry_particle must be 8" in output, output
    assert "Geometry_particle::" not in output, "offsets must still agree (explicit padding)"
    assert_compiles("gcc", [("unaligned", [f.filename], [tmp_path])], tmp_path / "build64")


# --- hypothesis: nested schemas over two modules ---------------------------------------------


def _to_json(desc, refs):
    kind, name, members = desc
    if kind == "record":
        return {"record": name, "fields": [[f, refs(t)] for f, t in members]}
    return {"variant": name, "constructors": [[c, [refs(t) for t in args]] for c, args in members]}


@st.composite
def module_pairs(draw):
    """Module A (records nesting records, variants over them) and module B, whose members
    may also use A's records: B's headers include A's."""
    a = draw(nested_descriptions(max_types=8))
    b = draw(nested_descriptions(max_types=8))
    a_records = sorted(d[1] for d in a if d[0] == "record")
    linked = []
    for kind, name, members in b:
        def link(t):
            if a_records and t in SCALAR and draw(st.booleans()):
                return "@A." + draw(st.sampled_from(a_records))
            return t
        if kind == "record":
            linked.append((kind, name, [(f, link(t)) for f, t in members]))
        else:
            linked.append((kind, name, [(c, [link(t) for t in args]) for c, args in members]))
    return a, linked


@pytest.fixture(scope="module")
def hypothesis_headers(tmp_path_factory):
    out = tmp_path_factory.mktemp("hypothesis")
    counter = itertools.count()

    @settings(max_examples=25, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(module_pairs())
    def generate(pair):
        n = next(counter)
        a, b = pair
        mod_a, mod_b = f"Hyp{n}a", f"Hyp{n}b"
        paths = []
        for stem, module, descs in ((f"hyp{n}_a", mod_a, a), (f"hyp{n}_b", mod_b, b)):
            path = out / "schemas" / f"{stem}.json"
            path.parent.mkdir(exist_ok=True)
            refs = lambda t: t.replace("@A.", mod_a + ".")  # noqa: E731
            path.write_text(json.dumps({"module": module, "types": [_to_json(d, refs) for d in descs]}))
            paths.append(str(path))
        _write_headers(render_headers(load_schema(paths)), out)

    generate()
    assert next(counter) >= 10, "hypothesis produced too few schemas"
    return out


@pytest.mark.parametrize("toolchain", COMPILE_TOOLCHAINS)
def test_hypothesis_nested_schemas_compile(toolchain, hypothesis_headers, tmp_path):
    out = hypothesis_headers
    headers = _batch_headers(out, toolchain)
    assert any("_b" in h for h in headers)
    assert_compiles(toolchain, [("hypothesis", headers, [out])], tmp_path)


# --- Sarek's exhaustive conformance shapes ---------------------------------------------------

#: The 30,783 variants go in this many schemas, so that each header (and the memory of the
#: compiler reading it: gcc took 4.3 GB on a quarter of them) stays small, ~24 MB.
VARIANT_BATCHES = 16
#: Test items per toolchain: each compiles its share of the headers one translation unit at a
#: time, so that under pytest-xdist every worker runs at most one such compiler.
CONFORMANCE_GROUPS = 4


@functools.lru_cache(maxsize=None)
def _conformance_batches():
    records = list(conformance_records())
    variants = list(conformance_variants())
    assert (len(records), len(variants)) == (780, 30_783)
    return [("conf_records", records)] + [
        (f"conf_variants{i}", variants[i::VARIANT_BATCHES]) for i in range(VARIANT_BATCHES)
    ]


def _group(group: int):
    """The schemas (stem, shapes) whose headers test item ``group`` compiles."""
    return _conformance_batches()[group::CONFORMANCE_GROUPS]


def _build_conformance_headers(out: pathlib.Path, batches) -> None:
    (out / "schemas").mkdir()
    for stem, descs in batches:
        path = out / "schemas" / f"{stem}.json"
        path.write_text(json.dumps({"module": stem.capitalize(),
                                    "types": [_to_json(d, lambda t: t) for d in descs]}))
        schema = load_schema([str(path)])
        assert len(schema.types) == len(descs), stem
        _write_headers(render_headers(schema), out)


def test_the_groups_hold_every_conformance_shape_once():
    stems = [stem for g in range(CONFORMANCE_GROUPS) for stem, _ in _group(g)]
    assert sorted(stems) == sorted(stem for stem, _ in _conformance_batches())
    assert sum(len(d) for g in range(CONFORMANCE_GROUPS) for _, d in _group(g)) == 780 + 30_783


def conformance_headers(tmp_path_factory, group: int):
    """The headers of group ``group``'s schemas (the 780 records in one schema, the 30,783
    variants in ``VARIANT_BATCHES``, dealt out to ``CONFORMANCE_GROUPS`` groups): one header
    per schema and target, each schema loaded and rendered alone (bounded memory), built once
    per test run however many xdist workers use them, and only for the groups that run
    (``make test`` runs group 0: the others are built by the runs that take them, CI's)."""
    batches = _group(group)
    out = shared_folder(tmp_path_factory, f"conformance{group}",
                        lambda folder: _build_conformance_headers(folder, batches))
    return out, [stem for stem, _ in batches]


#: The toolchains this file compiles the conformance headers with: the others' strict
#: compile of every shape is verify's enumeration (helpers/compile.py: STRICT_IN_VERIFY), one
#: compiler run that both checks the headers and measures them.
CONFORMANCE_TOOLCHAINS = [t for t in COMPILE_TOOLCHAINS if t not in STRICT_IN_VERIFY]


def test_every_compile_toolchain_compiles_the_conformance_headers_somewhere():
    from helpers.verify import FULL_CONFORMANCE

    assert set(STRICT_IN_VERIFY) <= set(FULL_CONFORMANCE)
    assert set(CONFORMANCE_TOOLCHAINS) | set(STRICT_IN_VERIFY) == set(COMPILE_TOOLCHAINS)


@pytest.mark.slow
@pytest.mark.parametrize("group", range(CONFORMANCE_GROUPS))
@pytest.mark.parametrize("toolchain", CONFORMANCE_TOOLCHAINS)
def test_conformance_shapes_compile(toolchain, group, tmp_path_factory, tmp_path):
    out, stems = conformance_headers(tmp_path_factory, group)
    suffix = header_suffix(toolchain)
    batches = [(stem, [stem + suffix], [out]) for stem in stems]
    assert_compiles(toolchain, batches, tmp_path, workers=1)
