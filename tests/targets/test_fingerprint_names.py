"""A member named like a macro or constant a target generates is refused for that target.

Every target defines a layout fingerprint next to each type: in the C family the macros
``<C name>_LAYOUT_ID`` and ``<C name>_LAYOUT_OK(id)``, in Rust ``pub const <C name>_LAYOUT_ID``.
A field ``q.M_p_LAYOUT_ID`` beside a type ``p`` of module ``M`` was accepted: the ``.h``,
``.cuh``, ``.clh`` and ``_metal.h`` macro-expanded it, and Rust read the parameter of
``new(M_p_LAYOUT_ID: i32)`` as the ``u64`` constant. Now those targets refuse it, naming
themselves, and the others (whose fingerprints a member cannot meet) emit it. Proven with the
real compilers: spelt out anyway, the member breaks gcc, nvcc, clang's OpenCL C and rustc; and
the other names the templates declare at file scope for every type (the enum constant
``M_v_A``, the helper ``make_M_v_A``, GLSL's ``M_p_LAYOUT_ID64``, Rust's ``M_p_LAYOUT_OK``
function) compile as members where they are kept.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from helpers.common import require_toolchain
from helpers.rust import compile_crate
from sarek_layout.cli.main import main
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets.names import check_names

_TYPES = [{"record": "p", "fields": [["x", "int32"]]},
          {"variant": "v", "constructors": [["A", ["int32"]], ["B"]]}]


def _schema_file(tmp_path, field: str) -> str:
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"module": "M", "types": _TYPES + [
        {"record": "q", "fields": [[field, "int32"], ["y", "int32"]]}]}))
    return str(path)


def test_generate_refuses_a_field_named_like_a_fingerprint_macro_naming_the_targets(tmp_path, capsys):
    path = _schema_file(tmp_path, "M_p_LAYOUT_ID")
    out = tmp_path / "out"
    status = main(["generate", path, "-o", str(out), "-t", "c", "-t", "cuda", "-t", "opencl",
                   "-t", "metal", "-t", "rust", "-t", "glsl"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == "" and not out.exists()
    (line,) = captured.err.splitlines()
    assert line.startswith(f"{path}:1:") and "error: field name 'M_p_LAYOUT_ID' is the layout " \
                                                 "fingerprint macro of type 'M.p'" in line, line
    assert "(targets c, cuda, opencl and metal)" in line and "(target rust)" in line, line
    assert "glsl" not in line
    # The targets whose fingerprint a member cannot meet emit it.
    assert main(["generate", path, "-o", str(out), "-t", "glsl", "-t", "wgsl", "-t", "zig",
                 "-t", "python"]) == 0


def test_the_check_macro_is_refused_and_the_other_file_scope_names_are_kept():
    # `<C name>_LAYOUT_OK` is a function-like macro in the C family (a member spelt so is
    # rewritten wherever it is followed by '('), a plain function in Rust.
    from sarek_layout.targets.names import NAME_TARGETS

    for field, refusing in (("M_p_LAYOUT_OK", {"c", "cuda", "opencl", "metal"}),
                            ("M_p_LAYOUT_ID64", set()), ("M_v_A", set()), ("make_M_v_A", set())):
        refused = set()
        for target in NAME_TARGETS:
            try:
                check_names(_loaded(field), [target])
            except SchemaError:
                refused.add(target)
        assert refused == refusing, field


def _loaded(field: str):
    import tempfile
    import pathlib

    with tempfile.TemporaryDirectory() as folder:
        return load_schema([_schema_file(pathlib.Path(folder), field)])


def _spelt_out(tmp_path, target: str, field: str) -> str:
    """``target``'s file with the member ``field`` where the generator puts it (rendered with
    a placeholder: the generator itself refuses it)."""
    (header,) = render_headers(load_schema([_schema_file(tmp_path, "zqzq")]), [target])
    return re.sub(r"\bzqzq\b", field, header.text)


_C_FAMILY = {
    "c": ("gcc", ".c", ["gcc", "-std=c11", "-fsyntax-only"], ""),
    "cuda": ("nvcc", ".cu", ["nvcc", "-c", "-o", "tu.o"], ""),
    "opencl": ("clang-opencl", ".cl", None, "__kernel void k(__global int *o) { *o = 1; }\n"),
}


def _compiles(tmp_path, target: str, text: str) -> subprocess.CompletedProcess:
    toolchain, suffix, argv, tail = _C_FAMILY[target]
    tc = require_toolchain(toolchain)
    if argv is None:
        argv = [*tc.argv, "-fsyntax-only"]
    src = tmp_path / f"tu{suffix}"
    src.write_text(text + tail)
    return subprocess.run([*argv, str(src)], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)


@pytest.mark.parametrize("target", ["c", "cuda", "opencl"])
def test_the_refused_member_breaks_the_c_family_and_the_kept_ones_compile(tmp_path, target):
    broken = _compiles(tmp_path, target, _spelt_out(tmp_path, target, "M_p_LAYOUT_ID"))
    assert broken.returncode != 0, f"{target} compiled a member the fingerprint macro rewrites"
    for kept in ("M_v_A", "make_M_v_A", "M_p_LAYOUT_ID64"):
        (header,) = render_headers(load_schema([_schema_file(tmp_path, kept)]), [target])
        ok = _compiles(tmp_path, target, header.text)
        assert ok.returncode == 0, f"{target}, member {kept}:\n{ok.stdout}{ok.stderr}"


def test_the_refused_member_breaks_rust_and_the_kept_ones_compile(tmp_path):
    require_toolchain("rustc")
    built, _ = compile_crate(tmp_path / "refused", {"m.rs": _spelt_out(tmp_path, "rust",
                                                                        "M_p_LAYOUT_ID")})
    assert built.returncode != 0
    assert "M_p_LAYOUT_ID" in built.stderr  # the parameter, read as the constant
    for kept in ("M_p_LAYOUT_OK", "M_v_A", "make_M_v_A"):
        (module,) = render_headers(load_schema([_schema_file(tmp_path, kept)]), ["rust"])
        built, _ = compile_crate(tmp_path / kept, {"m.rs": module.text})
        assert built.returncode == 0, f"member {kept}:\n{built.stderr[-3000:]}"
