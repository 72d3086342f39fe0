"""Fuzzing the whole pipeline: schema files in the four forms → ``generate`` → compilers.

* Random *valid* schemas (one to three modules using each other's types, written as JSON,
  TOML, OCaml or C, with names chosen to meet the generated code's own: ``tag``, ``data``,
  ``value``, ``offset``, ``_x``…) must generate every target with exit 0; the C headers then
  compile as C11 (gcc) and C++11 (g++), and the OpenCL headers with clang when it is here, one
  compiler run for the whole batch of examples; every Python module imports and round-trips
  an all-zero element of each type.
* Random *invalid* schemas (a valid one with one hostile change: a reserved or injected name,
  a recursion, a nested variant, an unknown type, a broken file) must exit 2 with one line on
  stderr and write nothing.

Budget: ``SAREK_FUZZ_EXAMPLES`` examples per harness, as in ``test_fuzz_readers.py``, but 50 by
default, not 150: each valid example is a whole ``generate`` of four targets and a Python
import (150 of them were 31 s of ``make test``, its longest item but one); CI's fuzz step
runs this file with 2000.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.compile import STRICT
from helpers.common import require_toolchain
from sarek_layout.cli.main import main
from sarek_layout.targets.names import identifier_problem
from sarek_layout.ir.schema import (
    CtorDecl,
    FieldDecl,
    ModuleDecl,
    NamedType,
    RecordDecl,
    SourceLocation,
    VariantDecl,
)
from sarek_layout.schema_writers import WRITERS, file_name

EXAMPLES = int(os.environ.get("SAREK_FUZZ_EXAMPLES", "50"))
BUDGET = settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
TARGETS = ["-t", "c", "-t", "cuda", "-t", "opencl", "-t", "python"]
#: Examples nvcc compiles (when installed): it runs its host and device passes per file.
CUDA_EXAMPLES = 12
SCALARS = ["int32", "int64", "float32", "float64", "bool", "unit", "float16", "uint8"]
_NOWHERE = SourceLocation("<fuzz>")

# Names that meet the generated code's own: members (tag, data), helper locals and parameters
# (value, offset, count, view, e, t…), Python attributes (TAG, self, cls, match, type).
FIELD_NAMES = ["x", "y", "value", "data", "tag", "offset", "count", "view", "e", "t", "layout",
               "build", "self", "cls", "match", "type", "print", "_x", "_0", "a1", "items",
               "size", "TAG", "v", "next", "sizeof_x", "make"]
TYPE_NAMES = ["p", "q", "point", "value", "view", "layout", "build", "node", "vec", "item", "e",
              "offset", "count", "v", "s", "cell", "pair", "a_b", "make_x"]
CTOR_NAMES = ["A", "B", "Circle", "Empty", "Value", "None_", "Some_", "Pair", "X1", "Nil"]
MODULE_NAMES = ["", "Geo", "M", "Scene", "A_b", "Lib2"]


def _ok(name: str) -> bool:
    return identifier_problem(name) is None


@st.composite
def modules(draw):
    """Up to three ``ModuleDecl``s; module i uses types of modules < i only (no cycles)."""
    names = draw(st.lists(st.sampled_from(MODULE_NAMES), min_size=1, max_size=3, unique=True))
    out = []
    records_so_far = []  # (module, type name) of records, usable as field types
    for module in names:
        decls = []
        taken = set()
        for _ in range(draw(st.integers(1, 4))):
            name = draw(st.sampled_from([n for n in TYPE_NAMES if n not in taken]))
            taken.add(name)

            def member_type():
                choices = list(SCALARS)
                # (types of module "" have no qualified spelling, so only it uses them)
                refs = [(m, n) for m, n in records_so_far if (m == module and n in taken)
                        or (m != module and m)]
                if refs and draw(st.booleans()):
                    m, n = draw(st.sampled_from(refs))
                    return NamedType(n, None if m == module else m, _NOWHERE)
                return NamedType(draw(st.sampled_from(choices)), None, _NOWHERE)

            if draw(st.booleans()):
                fields = draw(st.lists(st.sampled_from(FIELD_NAMES), min_size=1, max_size=4,
                                       unique=True))
                decls.append(RecordDecl(name, tuple(FieldDecl(f, member_type(), _NOWHERE)
                                                    for f in fields), _NOWHERE))
                records_so_far.append((module, name))
            else:
                ctors = draw(st.lists(st.sampled_from(CTOR_NAMES), min_size=1, max_size=4,
                                      unique=True))
                decls.append(VariantDecl(name, tuple(
                    CtorDecl(c, tuple(member_type() for _ in range(draw(st.integers(0, 3)))),
                             _NOWHERE) for c in ctors), _NOWHERE))
        out.append(ModuleDecl(module, "", "json", tuple(decls), _NOWHERE))
    return out


def _write(folder: pathlib.Path, mods, forms):
    """Write each module in its form (JSON when the form cannot express it); the paths."""
    paths = []
    for k, (module, form) in enumerate(zip(mods, forms)):
        try:
            if form in ("ocaml", "c") and not module.name:
                raise ValueError("the module is the file's stem")
            if form == "c" and _uses_other_modules(module):
                raise ValueError("a C header reaches other modules by #include, as C headers")
            text = WRITERS[form](module)
            # JSON and TOML name their module inside: any (safe) file name will do.
            name = file_name(module.name, form) if form in ("ocaml", "c") else f"s{k}.{form}"
        except ValueError:
            text, name = WRITERS["json"](module), f"s{k}.json"
        (folder / name).write_text(text)
        paths.append(str(folder / name))
    return paths


def _uses_other_modules(module) -> bool:
    exprs = [f.type for d in module.decls if isinstance(d, RecordDecl) for f in d.fields]
    exprs += [a for d in module.decls if isinstance(d, VariantDecl) for c in d.ctors for a in c.args]
    return any(e.module is not None for e in exprs)


def _acceptable(mods) -> bool:
    """The strategy's own shortcuts: names the resolver would refuse for reasons this
    harness does not aim at (a member named like a type used beside it, a mangled name
    that collides). Those are covered by the invalid harness and the corpus."""
    from sarek_layout.resolve import resolve
    from sarek_layout.errors import SchemaError

    try:
        fixed = [dataclasses.replace(m, path=f"{(m.name or 'types').lower()}.json") for m in mods]
        resolve(fixed)
    except SchemaError:
        return False
    return True


FORMS = st.sampled_from(["json", "toml", "ocaml", "c"])


@pytest.mark.toolchain("gcc")
def test_random_valid_schemas_generate_compile_and_import(tmp_path_factory):
    gcc = require_toolchain("gcc")
    gxx = require_toolchain("g++")
    cases = []

    @BUDGET
    @given(modules(), st.lists(FORMS, min_size=3, max_size=3))
    def one(mods, forms):
        from hypothesis import assume

        assume(_acceptable(mods))
        folder = tmp_path_factory.mktemp("valid")
        paths = _write(folder, mods, forms)
        out = folder / "out"
        status = main(["generate", *paths, "-o", str(out), *TARGETS])
        assert status == 0, paths
        _import_and_round_trip(out)
        cases.append(out)

    one()
    assert cases, "no example ran"
    failures = []
    for tc, suffix, ext in ((gcc, ".h", ".c"), (gxx, ".h", ".cpp")):
        failures += _compile_batch(list(tc.argv) + list(STRICT), cases, suffix, ext)
    opencl = _optional("clang-opencl")
    if opencl is not None:
        failures += _compile_batch(list(opencl.argv) + list(STRICT), cases, ".clh", ".cl")
    nvcc = _optional("nvcc")
    if nvcc is not None:  # nvcc is slow (both passes per file): the first examples only
        host = ",".join(STRICT[:3] + ("-Wpadded",))
        argv = [*nvcc.argv, "-Werror", "all-warnings", f"-Xcompiler={host}", "-odir",
                str(cases[0])]
        failures += _compile_batch(argv, cases[:CUDA_EXAMPLES], ".cuh", ".cu")
    assert failures == [], "\n\n".join(failures)


def _optional(name):
    from sarek_layout.verify import toolchains

    tc = toolchains.get(name)
    return tc if tc.unavailable_reason is None else None


_TAIL = {
    ".c": "int sarek_fuzz_tu(void);\n",
    ".cpp": "int sarek_fuzz_tu(void);\n",
    ".cl": "__kernel void k(__global int *o) { *o = 1; }\n",
    ".cu": "__global__ void k(int *o) { *o = 1; }\n",
}


def _compile_batch(argv, cases, header_suffix, ext):
    """One translation unit per example, all in one compiler run; failure texts."""
    sources = []
    for i, out in enumerate(cases):
        headers = sorted(p.name for p in out.iterdir() if p.name.endswith(header_suffix))
        src = out / f"tu{i}{ext}"  # distinct names: nvcc puts every object in one folder
        src.write_text("".join(f'#include "{h}"\n' for h in headers) + _TAIL[ext])
        sources.append(str(src))
    syntax = [] if ext == ".cu" else ["-fsyntax-only"]
    proc = subprocess.run([*argv, *syntax, *sources], capture_output=True, text=True)
    if proc.returncode == 0:
        return []
    return [f"{' '.join(argv)} failed:\n" + "\n".join(proc.stderr.splitlines()[:60])]


def _import_and_round_trip(out: pathlib.Path) -> None:
    """Import every generated module; an all-zero element of each type decodes and encodes
    back to the same bytes."""
    names = sorted(p.stem for p in out.glob("*_layout.py"))
    sys.path.insert(0, str(out))
    try:
        for name in names:
            module = importlib.import_module(name)
            for export in module.__all__:
                if not export.startswith("SIZEOF_"):
                    continue
                c_name = export[len("SIZEOF_"):]
                size = getattr(module, export)
                value = getattr(module, f"decode_{c_name}")(bytes(size))
                assert getattr(module, f"encode_{c_name}")(value) == bytes(size), c_name
                assert len(getattr(module, f"unpack_{c_name}")(bytes(2 * size))) == 2
    finally:
        sys.path.remove(str(out))
        for name in names:
            sys.modules.pop(name, None)


# --- invalid schemas: one hostile change to a valid one ---------------------------------------

# Member names every emitted target refuses. Not here: names a member may take because no
# target breaks on them (``float4``, ``size_t``, ``stdout``: a member is no file-scope name and
# glibc's ``#define stdout stdout`` leaves it as it is); tests/targets/test_names.py compiles
# those with every C-family toolchain.
HOSTILE_NAMES = ["int", "default", "union", "class", "template", "__global", "kernel", "half",
                 "_Bool", "__x", "_X", "_sarek_pad0", "SAREK_LAYOUT_ZERO", "a__b",
                 "INT32_MAX", "caf\u00e9", "x" * 64, "*/", "a*/b", 'a"b', "a\nb", "",
                 "2x", "a b", "a-b", "a.b", "uint8_t", "linux"]
# A type or constructor is judged by the C names it is emitted as (Module_type,
# Module_type_Ctor…), so keywords are fine there; these are refused whatever the module.
HOSTILE_TYPE_NAMES = ["int", "__global", "_Bool", "__x", "_X", "_sarek_pad0", "a__b",
                      "caf\u00e9", "x" * 64, "*/", "a*/b", 'a"b', "a\nb", "", "2x", "a b", "a-b",
                      "a.b", "int32", "float"]
HOSTILE_CTOR_NAMES = [n for n in HOSTILE_TYPE_NAMES if n not in ("int", "int32", "float")]


@st.composite
def broken(draw):
    """A valid schema and one change that must be refused."""
    mods = draw(modules())
    assume_ok = _acceptable(mods)
    i = draw(st.integers(0, len(mods) - 1))
    m = mods[i]
    d = draw(st.integers(0, len(m.decls) - 1))
    decl = m.decls[d]
    how = draw(st.sampled_from(["type name", "member name", "self reference", "unknown type",
                                "module name"]))
    bad = draw(st.sampled_from(HOSTILE_NAMES))
    if how == "type name":
        bad = draw(st.sampled_from(HOSTILE_TYPE_NAMES))
        decl = dataclasses.replace(decl, name=bad)
    elif how == "module name":
        m = dataclasses.replace(m, name=draw(st.sampled_from(["_m", "M__x", "a b", "*/", "\u00e9"])))
    elif isinstance(decl, RecordDecl):
        f = decl.fields[0]
        if how == "member name":
            f = dataclasses.replace(f, name=bad)
        else:
            target = decl.name if how == "self reference" else "no_such_type"
            f = dataclasses.replace(f, type=NamedType(target, None, _NOWHERE))
        decl = dataclasses.replace(decl, fields=(f,) + decl.fields[1:])
    else:
        c = decl.ctors[0]
        if how == "member name":
            c = dataclasses.replace(c, name=draw(st.sampled_from(HOSTILE_CTOR_NAMES)))
        else:
            target = decl.name if how == "self reference" else "no_such_type"
            c = dataclasses.replace(c, args=c.args + (NamedType(target, None, _NOWHERE),))
        decl = dataclasses.replace(decl, ctors=(c,) + decl.ctors[1:])
    decls = m.decls[:d] + (decl,) + m.decls[d + 1:]
    mods = mods[:i] + [dataclasses.replace(m, decls=decls)] + mods[i + 1:]
    return assume_ok, mods, how


@BUDGET
@given(broken(), st.lists(st.sampled_from(["json", "toml"]), min_size=3, max_size=3))
def test_random_invalid_schemas_exit_2_and_write_nothing(tmp_path_factory, case, forms):
    from hypothesis import assume

    valid_before, mods, how = case
    assume(valid_before)
    folder = tmp_path_factory.mktemp("invalid")
    # JSON and TOML spell any name, hostile or not (the OCaml and C writers refuse them).
    paths = _write(folder, mods, forms)
    out = folder / "out"
    before = sorted(os.listdir(folder))
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["generate", *paths, "-o", str(out), *TARGETS, "--depfile",
                       str(folder / "deps.d")])
    message = err.getvalue()
    assert status == 2, (how, mods, message)
    lines = message.splitlines()  # one per independent refusal (a renamed type's users too)
    assert "Traceback" not in message and lines, message
    for line in lines:
        assert line.startswith(tuple(paths)) or line.startswith(tuple(ascii(p)[1:-1] for p in paths)), message
    assert not out.exists() and sorted(os.listdir(folder)) == before
