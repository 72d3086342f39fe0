"""The rust target's modules as users build them, with the machine's rustc.

* a record of 6,000 fields compiles (``derive(PartialEq)`` chained ``a == b && …`` that deep
  and rustc 1.95 overflowed its stack), and equality still compares fields as the derive did;
* a module whose records are all another schema's, and a module of no types, build as
  ``pub mod`` of a library under ``-D warnings`` (no private helper left unused);
* ``verify`` calls a compiler that overflowed its stack a crash, not a want of memory;
* on i686, where ``f64``/``i64`` are 4-aligned, each constructor arm struct keeps the C
  header's alignment (the largest of its arguments'): rustc's i686 build of the arms against
  gcc -m32's of the C header's. Only the host's standard library is installed here, so the
  arms (plain data) are compiled on their own, in a ``#![no_core]`` crate, by the nightly
  rustc; on x86-64 an arm's fields reach that alignment by themselves, which hides a wrong
  ``align(N)``.
"""

from __future__ import annotations

import os
import pathlib
import re
import signal
import subprocess

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


# --- constructor arms on i686 ----------------------------------------------------------------

_ARMS_SCHEMA = """module = "Arms"
[[types]]
variant = "v"
constructors = [["A", ["int32", "float64"]], ["B", ["float64", "int32", "uint8"]],
                ["C", ["int64", "float32"]], ["D", ["int32", "int32"]], ["E", ["float32"]]]
"""

#: Just what rustc needs to lay out plain structs and take a reference to one, without core
#: (nightly 1.97's lang items: the sized hierarchy, and Copy for the reference).
_NO_CORE = """#![feature(no_core, lang_items)]
#![no_core]
#![allow(internal_features, dead_code, non_camel_case_types, non_snake_case)]
#[lang = "pointee_sized"] pub trait PointeeSized {}
#[lang = "meta_sized"] pub trait MetaSized: PointeeSized {}
#[lang = "sized"] pub trait Sized: MetaSized {}
#[lang = "copy"] pub trait Copy {}
impl<T: ?Sized> Copy for &T {}
"""

_ARM = re.compile(r"^#\[repr\(C, align\(\d+\)\)\]\n#\[derive\(Clone, Copy\)\]\n"
                  r"pub struct (\w+)_(\w+)_arm \{\n.*?^\}\n", re.M | re.S)


def _nightly_rustc():
    try:
        proc = subprocess.run(["rustc", "+nightly", "--version"], capture_output=True, text=True)
    except OSError:
        proc = None
    if proc is None or proc.returncode != 0:
        pytest.skip("needs rustup's nightly rustc (#![no_core], to build for i686 without "
                    "its standard library): rustup toolchain install nightly")


def test_each_arm_keeps_the_c_headers_alignment_on_i686(tmp_path):
    _nightly_rustc()
    require_toolchain("gcc-m32")
    files = {f.filename: f.text for f in render_headers(
        load_schema([str(_write(tmp_path, "arms.toml", _ARMS_SCHEMA))]), ["rust", "c"])}
    arms = [(m.group(0).replace("#[derive(Clone, Copy)]\n", ""), m.group(1), m.group(2))
            for m in _ARM.finditer(files["arms.rs"])]
    assert [ctor for _, _, ctor in arms] == ["A", "B", "C", "D"], files["arms.rs"]
    crate = _NO_CORE + "".join(text for text, _, _ in arms) + "".join(
        f"#[no_mangle] pub extern \"C\" fn sarek_probe_{ctor}(_a: &{t}_{ctor}_arm) {{}}\n"
        for _, t, ctor in arms)
    (tmp_path / "arms_i686.rs").write_text(crate)
    built = run_cpu_bounded(["rustc", "+nightly", "--target", "i686-unknown-linux-gnu",
                             "--crate-type=lib", "--emit=llvm-ir", "-o", "arms.ll",
                             "arms_i686.rs"], cpu_s=60, cwd=tmp_path, text=True)
    assert built.returncode == 0, built.stderr
    # rustc's alignment of each arm: the `align N` of the reference it is passed by.
    ir = (tmp_path / "arms.ll").read_text()
    rust_align = {ctor: int(a) for ctor, a in
                  re.findall(r"define void @sarek_probe_(\w+)\(ptr align (\d+)", ir)}
    assert sorted(rust_align) == ["A", "B", "C", "D"], ir
    # gcc -m32 judges each against the C header's arm (`data.<Ctor>_v`).
    (tmp_path / "arms.h").write_text(files["arms.h"])
    checks = "".join(
        f"_Static_assert(__alignof__(((Arms_v *)0)->data.{ctor}_v) == {a}, "
        f"\"Arms_v_{ctor}_arm: rustc i686 gives alignment {a}\");\n"
        for ctor, a in sorted(rust_align.items()))
    (tmp_path / "arms.c").write_text('#include "arms.h"\n' + checks)
    tc = require_toolchain("gcc-m32")
    judged = run_cpu_bounded([*tc.argv, "-c", "arms.c", "-o", "arms.o"], cpu_s=30,
                             cwd=tmp_path, text=True)
    assert judged.returncode == 0, judged.stderr


def _write(folder: pathlib.Path, name: str, text: str) -> pathlib.Path:
    (folder / name).write_text(text)
    return folder / name
