"""The rust target's modules as users build them, with the machine's rustc.

* a record of 6,000 fields compiles (``derive(PartialEq)`` chained ``a == b && …`` that deep
  and rustc 1.95 overflowed its stack), and equality still compares fields as the derive did;
* a module whose records are all another schema's, and a module of no types, build as
  ``pub mod`` of a library under ``-D warnings`` (no private helper left unused);
* ``verify`` calls a compiler that overflowed its stack a crash, not a want of memory.
"""

from __future__ import annotations

import os
import pathlib
import signal

import pytest

from helpers.bounded import run_cpu_bounded
from helpers.common import require_toolchain
from helpers.rust import compile_crate
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.verify.tools import run_tool

#: Past the depth at which rustc 1.95's stack overflowed on the derived `&&` chain (~5,500).
WIDE = 6000


def _rust_files(tmp_path: pathlib.Path, docs) -> dict:
    paths = []
    for name, text in docs.items():
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    return {f.filename: f.text for f in render_headers(load_schema(paths), ["rust"])}


def _library(folder: pathlib.Path, modules: dict):
    """``modules`` as the public modules of a library crate (``pub mod <stem>``, nothing
    allowed), checked by rustc with ``-D warnings``: what a user's crate exporting them runs."""
    folder.mkdir(parents=True, exist_ok=True)
    root = []
    for name, text in modules.items():
        (folder / name).write_text(text)
        root.append(f"pub mod {os.path.splitext(name)[0]} {{\n    include!(\"{name}\");\n}}\n")
    (folder / "lib.rs").write_text("".join(root))
    return run_cpu_bounded(["rustc", "--edition", "2021", "-D", "warnings", "--crate-type=lib",
                            "--emit=metadata", "-o", "lib.rmeta", "lib.rs"],
                           cpu_s=60, cwd=folder, text=True,
                           what="rustc took far longer than a compile of this size")


def test_a_record_of_six_thousand_fields_compiles(tmp_path):
    require_toolchain("rustc")
    fields = ", ".join(f'["f{i}", "{"int32" if i % 3 == 0 else "float32"}"]' for i in range(WIDE))
    files = _rust_files(tmp_path, {"wide.toml": f'module = "Wide"\n[[types]]\nrecord = "r"\n'
                                                f"fields = [{fields}]\n"})
    built, _ = compile_crate(tmp_path / "crate", files, cpu_s=240)
    assert built.returncode == 0, built.stderr[-3000:]


_EQ_SCHEMA = """module = "Eq"
[[types]]
record = "p"
fields = [["x", "float32"], ["n", "int32"], ["d", "float64"]]
[[types]]
variant = "v"
constructors = [["A", ["p", "float32"]], ["B", ["int32"]], ["C"]]
[[types]]
variant = "one"
constructors = [["Only", ["int32", "float64"]]]
"""

_EQ_BODY = """
    let p = Eq_p::new(1.5, 7, -2.0);
    assert!(p == Eq_p::new(1.5, 7, -2.0));
    assert!(p != Eq_p::new(1.5, 8, -2.0));
    assert!(p != Eq_p::new(1.5, 7, -2.5));
    assert!(Eq_p::new(0.0, 1, 0.0) == Eq_p::new(-0.0, 1, -0.0));  // float ==, as derived
    let nan = Eq_p::new(f32::NAN, 1, 0.0);
    assert!(nan != nan);                                             // as derived
    assert!(Eq_v::A(p, 2.0) == Eq_v::A(p, 2.0));
    assert!(Eq_v::A(p, 2.0) != Eq_v::A(p, 3.0));
    assert!(Eq_v::A(p, 2.0) != Eq_v::A(Eq_p::new(0.0, 7, -2.0), 2.0));
    assert!(Eq_v::B(4) == Eq_v::B(4) && Eq_v::B(4) != Eq_v::B(5));
    assert!(Eq_v::B(0) != Eq_v::C() && Eq_v::C() == Eq_v::C());
    assert!(Eq_v::C().view() == Eq_v_View::C && Eq_v::B(1).view() != Eq_v_View::C);
    assert!(Eq_one::Only(1, 2.0) == Eq_one::Only(1, 2.0));
    assert!(Eq_one::Only(1, 2.0) != Eq_one::Only(1, 2.5));
    println!("{}", sarek_test_hex(b"ok"));
"""


def test_equality_compares_fields_and_arguments_as_the_derive_did(tmp_path):
    """Records, views and variants: equal when every field or argument is (float ``==``:
    ``0.0 == -0.0``, ``NaN != NaN``), unequal on any one or another constructor."""
    require_toolchain("rustc")
    files = _rust_files(tmp_path, {"eq.toml": _EQ_SCHEMA})
    built, ran = compile_crate(tmp_path / "crate", files, _EQ_BODY, run=True)
    assert built.returncode == 0, built.stderr
    assert ran.returncode == 0 and ran.stdout.split() == [b"ok".hex()], ran.stderr


def test_verify_calls_a_stack_overflow_a_crash(tmp_path):
    """rustc's own words on the crash, then SIGSEGV: the report says it crashed, not that it
    may have run out of memory."""
    tool = tmp_path / "rustc"
    tool.write_text("#!/bin/sh\necho \"note: rustc unexpectedly overflowed its stack! this is a "
                    "bug\" >&2\nkill -SEGV $$\n")
    tool.chmod(0o755)
    run = run_tool([str(tool)], cwd=str(tmp_path))
    assert run.returncode == -signal.SIGSEGV
    assert run.problem == ("rustc crashed (SIGSEGV): it overflowed its stack, a defect of that "
                           "compiler"), run.problem


@pytest.mark.parametrize("docs", [
    # Records made only of another schema's records: nothing reads a scalar.
    {"base.toml": 'module = "Base"\n[[types]]\nrecord = "vec"\n'
                  'fields = [["x", "float64"], ["y", "float64"]]\n'
                  '[[types]]\nrecord = "id"\nfields = [["value", "int32"]]\n',
     "pairs.toml": 'module = "Pairs"\n[[types]]\nrecord = "pair"\n'
                   'fields = [["a", "Base.vec"], ["b", "Base.id"]]\n'},
    # A schema file of no types at all.
    {"empty.toml": 'module = "Empty"\ntypes = []\n'},
], ids=["records-of-another-schema", "no-types"])
def test_a_module_builds_under_deny_warnings_as_a_public_module(tmp_path, docs):
    require_toolchain("rustc")
    built = _library(tmp_path / "crate", _rust_files(tmp_path, docs))
    assert built.returncode == 0, built.stderr
