"""Names judged as they are emitted, for the targets they are emitted in: predefined macros
refused where a compiler of the target defines them, names that are only emitted inside longer
C names accepted, and both proven with the real compilers in their default modes (gcc's GNU
dialects predefine ``linux`` and ``unix``, the C library's headers ``EOF``, OpenCL C its
``CL_VERSION_1_2``…), not only in the strict ones the other tests use.
"""

from __future__ import annotations

import re
import subprocess
import textwrap

import pytest

from helpers.common import require_toolchain
from helpers.declared_names import LIBC_C as _LIBC_C, LIBC_CPP as _LIBC_CPP
from helpers.compile import COMPILE_TOOLCHAINS, STRICT
from sarek_layout.cli.main import main
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets.name_rules import C_FAMILY_WORDS
from sarek_layout.targets.names import NAME_TARGETS, check_names
from sarek_layout.targets.predefined import OBJECT_MACROS, RENAMED_BUILTINS


def _schema_file(tmp_path, text: str, name: str = "names.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


@pytest.mark.parametrize("field, refusing", [
    ("linux", ["c", "cuda", "metal"]),
    ("unix", ["c", "cuda", "metal"]),
    ("i386", ["c", "cuda", "metal"]),
    ("EOF", ["c", "cuda", "metal"]),
    ("CL_VERSION_1_2", ["opencl", "metal"]),
    ("cl_khr_fp64", ["opencl", "metal"]),
    ("NAN", ["c", "cuda", "opencl", "metal"]),
    ("CLANG_MAJOR", ["opencl", "metal"]),
    ("HIP_VERSION", ["cuda", "metal"]),
])
def test_a_field_named_like_a_predefined_macro_is_refused_where_it_is_one(tmp_path, field, refusing):
    path = _schema_file(tmp_path, f"""
        [[types]]
        record = "r"
        fields = [["x", "int32"], ["{field}", "int32"]]
        """)
    schema = load_schema([path])  # no target is emitted: nothing to refuse
    with pytest.raises(SchemaError, match=f"field name '{field}' is a macro") as caught:
        check_names(schema, NAME_TARGETS)
    assert all(f" {t}" in caught.value.message for t in refusing), caught.value.message
    check_names(schema, [t for t in NAME_TARGETS if t not in refusing])


@pytest.mark.parametrize("field", ["stdout", "vector", "pixel", "blockDim", "threadIdx",
                                   "cudaStreamAttrID", "SIGEV_SIGNAL", "length"])
def test_a_macro_that_leaves_a_member_as_it_is_is_no_refusal(tmp_path, field):
    # glibc's `#define stdout stdout`, AltiVec's `#define vector vector`, CUDA's renames and
    # PoCL's builtin renames keep a member a member (tests/targets/test_name_rules.py compiles
    # them); CUDA's built-in variables are no macros at all.
    path = _schema_file(tmp_path, f"""
        [[types]]
        record = "r"
        fields = [["x", "int32"], ["{field}", "int32"]]
        """)
    check_names(load_schema([path]), NAME_TARGETS)


def test_a_type_of_no_module_named_like_a_macro_is_refused_when_generated(tmp_path, capsys):
    path = _schema_file(tmp_path, """
        module = ""
        [[types]]
        record = "unix"
        fields = [["x", "int32"]]
        """)
    assert main(["layout", path]) == 0
    capsys.readouterr()
    assert main(["generate", path, "-o", str(tmp_path / "out"), "-t", "c"]) == 2
    err = capsys.readouterr().err
    assert "C name 'unix' of type 'unix' is a macro" in err and "(targets c)" not in err
    assert "(target c)" in err
    assert not (tmp_path / "out").exists()
    assert main(["generate", path, "-o", str(tmp_path / "out"), "-t", "opencl", "-t", "wgsl"]) == 0


# Accepted: each name below is emitted only inside a longer C name (NBody_float4,
# NBody_shape_kernel, make_NBody_shape_linux…), as a member that PoCL renames consistently, or
# as a member named like a file-scope type or object its struct does not use (float4, size_t,
# stdout: tests/hostile/test_fuzz_pipeline.py's hostile member names leave them out).
ACCEPTED = """
    module = "NBody"

    [[types]]
    record = "float4"
    fields = [["x", "float32"], ["y", "float32"], ["z", "float32"], ["w", "float32"]]

    [[types]]
    record = "unix"
    fields = [["length", "float32"], ["distance", "float64"], ["float4", "int32"],
              ["size_t", "int32"], ["stdout", "int32"]]

    [[types]]
    variant = "shape"
    constructors = [["kernel", ["float4"]], ["template"], ["linux", ["unix", "int32"]], ["None"]]
    """


def test_names_emitted_inside_longer_c_names_are_accepted(tmp_path):
    schema = load_schema([_schema_file(tmp_path, ACCEPTED)])
    assert [t.c_name for t in schema.types] == ["NBody_float4", "NBody_unix", "NBody_shape"]


def _default_mode(argv):
    """The toolchain's command without the language-standard flag: its default dialect."""
    return [a for a in argv if not a.startswith(("-std=", "-cl-std="))]


@pytest.mark.parametrize("toolchain", COMPILE_TOOLCHAINS)
def test_accepted_names_compile_in_default_and_strict_modes(tmp_path, toolchain):
    tc = require_toolchain(toolchain)
    path = _schema_file(tmp_path, ACCEPTED)
    files = render_headers(load_schema([path]), [tc.target])
    (header,) = files
    (tmp_path / header.filename).write_text(header.text)
    suffix = {"c": ".c", "c++": ".cpp", "cuda": ".cu", "opencl": ".cl"}[tc.language]
    src = tmp_path / f"tu{suffix}"
    src.write_text(f'#include "{header.filename}"\nint sarek_layout_names_tu;\n'
                   if tc.language != "opencl" else
                   f'#include "{header.filename}"\n__kernel void k(__global int *o) {{ *o = 1; }}\n')
    for argv in (list(tc.argv), _default_mode(tc.argv)):
        if tc.language == "cuda":
            cmd = [*argv, "-Werror", "all-warnings", "-c", str(src), "-o", str(tmp_path / "tu.o")]
        elif tc.language == "opencl":
            cmd = [*argv, *STRICT, "-fsyntax-only", str(src)]
        else:
            cmd = [*argv, *STRICT[:3], "-c", str(src), "-o", str(tmp_path / "tu.o")]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
        assert proc.returncode == 0, f"$ {' '.join(cmd)}\n{proc.stderr}"


def test_accepted_names_agree_with_every_installed_toolchain(tmp_path, capsys):
    # verify drives every toolchain, PoCL (which renames OpenCL builtins such as `length`)
    # and NVRTC included.
    path = _schema_file(tmp_path, ACCEPTED)
    status = main(["verify", path])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "DISAGREES" not in out and "FAILED" not in out


# --- the macro tables are what the compilers define ---------------------------------------

_OBJECT_MACRO = re.compile(r"^#define ([A-Za-z][A-Za-z0-9_]*) (.*)$", re.M)

#: toolchain -> extra command lines dumping its predefined macros (beyond its registry argv).
_DUMPS = {
    "gcc": [["-x", "c"], ["-x", "c++"]],
    "clang": [["-x", "c"], ["-x", "c++"]],
    "gcc-m32": [["-x", "c"]],
    "aarch64": [["-x", "c"]],
    "armhf": [["-x", "c"]],
    "ppc64": [["-x", "c"]],
    "s390x": [["-x", "c"]],
    "clang-opencl": [["-cl-std=CL1.2"], ["-cl-std=CL2.0"], ["-cl-std=CL3.0"]],
}


def _measured(toolchain, tmp_path):
    """name -> definition of every object-like macro the toolchain predefines."""
    tc = require_toolchain(toolchain)
    base = _default_mode(tc.argv)
    macros = {}
    if toolchain == "nvcc":
        src = tmp_path / "empty.cu"
        src.write_text("")
        runs = [[*base, "-E", "-Xcompiler", "-dM", str(src)]]
    else:
        base = [a for a in base if a not in ("-x", "c++", "cl")] if toolchain != "clang-opencl" else base
        runs = [[*base, *extra, "-dM", "-E", "/dev/null"] for extra in _DUMPS.get(toolchain, [["-x", "c"]])]
    for cmd in runs:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, f"$ {' '.join(cmd)}\n{proc.stderr}"
        macros.update((m[1], m[2].strip()) for m in _OBJECT_MACRO.finditer(proc.stdout))
    return macros


def _keeps_members(name: str, definition: str, macros) -> bool:
    """A macro defined as itself (glibc's ``stdout``, AltiVec's ``vector``) or as another plain
    name that is no macro (CUDA's ``cudaStreamAttrID``) leaves a member a member."""
    return definition in (name, f"({name})") or (
        re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", definition) is not None
        and definition not in macros)


@pytest.mark.parametrize("toolchain", [n for n in COMPILE_TOOLCHAINS if n != "g++"])
def test_every_predefined_object_macro_that_rewrites_a_member_is_listed(tmp_path, toolchain):
    macros = _measured(toolchain, tmp_path)
    assert macros  # the dump ran
    known = OBJECT_MACROS | RENAMED_BUILTINS | frozenset().union(*C_FAMILY_WORDS.values())
    missing = sorted(n for n, d in macros.items()
                     if n not in known and not n.startswith("_") and not _keeps_members(n, d, macros))
    assert not missing, (f"{toolchain} predefines macros sarek_layout/targets/predefined.py does "
                         f"not list: {' '.join(missing)}")


@pytest.mark.parametrize("language", ["c", "c++"])
def test_every_macro_of_the_c_library_that_rewrites_a_member_is_listed(tmp_path, language):
    # The headers test_name_rules.py compiles the c target after (every C11 standard header
    # and the POSIX ones nvcc includes).
    require_toolchain("gcc")
    src = tmp_path / ("libc.c" if language == "c" else "libc.cpp")
    src.write_text(_LIBC_C if language == "c" else _LIBC_CPP)
    compiler = "gcc" if language == "c" else "g++"
    proc = subprocess.run([compiler, "-dM", "-E", str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    macros = {m[1]: m[2].strip() for m in _OBJECT_MACRO.finditer(proc.stdout)}
    assert "EOF" in macros and "INT32_MAX" in macros
    known = OBJECT_MACROS | frozenset().union(*C_FAMILY_WORDS.values())
    missing = sorted(n for n, d in macros.items()
                     if n not in known and not n.startswith("_") and not _keeps_members(n, d, macros))
    assert not missing, f"the C library defines macros predefined.py does not list: {missing}"
