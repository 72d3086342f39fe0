"""Golden headers: one folder per case under ``tests/golden/<case>/``.

A case folder holds its schema files (``*.toml``/``*.json``, given together in name order)
and ``expected/``, the headers ``generate`` must produce for every target, byte for byte.
The goldens are also compiled with every toolchain, so their assertions run. The cases whose
schema uses SPEC §1b's member kinds are measured by every C-family toolchain too
(``test_kinds_goldens_agree``). To accept a deliberate change of the output, refresh them
with:

    SAREK_UPDATE_GOLDENS=1 python -m pytest tests/codegen/test_codegen_golden.py
"""

from __future__ import annotations

import difflib
import os
import pathlib
from typing import NamedTuple

import pytest

from helpers import typescript
from helpers.common import golden_cases, require_toolchain
from helpers.compile import COMPILE_TOOLCHAINS, assert_compiles, header_suffix
from helpers.verify import ALL_TOOLCHAINS
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets.registry import TARGETS

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())
UPDATE_ENV = "SAREK_UPDATE_GOLDENS"
REFRESH = f"{UPDATE_ENV}=1 python -m pytest tests/codegen/test_codegen_golden.py"


def _schemas(case: str):
    folder = GOLDEN / case
    return sorted(str(p) for p in folder.iterdir() if p.suffix in (".toml", ".json"))


#: Every header target has goldens (the python target has its own tests).
GOLDEN_TARGETS = ("c", "cuda", "opencl", "glsl", "wgsl", "metal", "hlsl", "zig", "rust",
                  "typescript")


class _Refusal(NamedTuple):
    """A target's refusal of a case, kept as ``expected/<target>.refused`` (its message, the
    schema's path relative to the case): a refusal is per target and names the member."""

    filename: str
    text: str


def _render(case: str):
    """The headers of every golden target; for a kinds case, a GPU target that refuses a type
    under the case's rules (SPEC §1b: for that target alone) gives its refusal instead."""
    schema = load_schema(_schemas(case))
    out: list = []
    for target in GOLDEN_TARGETS:
        try:
            out += render_headers(schema, [target])
        except SchemaError as e:
            if not (case in KINDS_CASES and TARGETS[target].gpu_api):
                raise
            text = str(e).replace(str(GOLDEN / case) + os.sep, "")
            out.append(_Refusal(f"{target}.refused", text + "\n"))
    return out


#: The cases using SPEC §1b's member kinds (and the refusals of a GPU target kept beside them).
KINDS_CASES = sorted(set(golden_cases()) - set(golden_cases(member_kinds=False)))


def test_cases_are_found():
    assert len(CASES) >= 4, CASES
    for case in CASES:
        assert _schemas(case), f"golden case {case} has no schema file"


@pytest.mark.parametrize("case", CASES)
def test_golden(case):
    expected_dir = GOLDEN / case / "expected"
    files = _render(case)
    if os.environ.get(UPDATE_ENV) == "1":
        expected_dir.mkdir(exist_ok=True)
        for stale in expected_dir.iterdir():
            stale.unlink()
        for f in files:
            (expected_dir / f.filename).write_text(f.text)
        return
    problems = []
    produced = {f.filename for f in files}
    present = {p.name for p in expected_dir.iterdir()} if expected_dir.is_dir() else set()
    for name in sorted(present - produced):
        problems.append(f"expected/{name} is no longer generated")
    for f in files:
        path = expected_dir / f.filename
        old = path.read_text() if path.is_file() else ""
        if old != f.text:
            diff = difflib.unified_diff(
                old.splitlines(keepends=True), f.text.splitlines(keepends=True),
                f"expected/{f.filename}", f"generated/{f.filename}",
            )
            problems.append("".join(diff))
    if problems:
        pytest.fail(
            f"golden case {case!r} differs from the generated headers:\n"
            + "\n".join(problems)
            + f"\nIf the change is intended, refresh the goldens with:\n    {REFRESH}",
            pytrace=False,
        )


@pytest.mark.parametrize("toolchain", COMPILE_TOOLCHAINS)
def test_goldens_compile(toolchain, tmp_path):
    """Every golden header, every case in one run per toolchain (each case its own TU)."""
    suffix = header_suffix(toolchain)
    batches = []

    for case in CASES:
        expected = GOLDEN / case / "expected"
        # "*.h" also matches the Metal headers (<stem>_metal.h): those are not C.
        headers = sorted(p.name for p in expected.glob("*" + suffix)
                         if not p.name.endswith("_metal.h"))
        assert headers, f"golden case {case} has no {suffix} header; run {REFRESH}"
        batches.append((f"golden-{case}", headers, [expected]))
    assert_compiles(toolchain, batches, tmp_path)


@pytest.mark.parametrize("extra", [(), typescript.STRICTER, ("--declaration",)],
                         ids=["strict", "stricter", "declarations"])
def test_golden_typescript_modules_compile_under_strict(tmp_path, extra):
    """Every case's TypeScript modules, in one tsc run (each case's modules import each
    other, as a user's project would: ``./base.js``): under ``--strict``, under the checks
    strict projects add, and with declaration files emitted (for a library that ships them)."""
    modules = sorted(GOLDEN.glob("*/expected/*.ts"))
    assert {p.parts[-3] for p in modules} == set(CASES), f"run {REFRESH}"
    typescript.assert_compiles(modules, tmp_path, *extra,
                               out_dir=str(tmp_path / "out") if extra else "")


@pytest.mark.parametrize("toolchain", ALL_TOOLCHAINS)
def test_kinds_goldens_agree(toolchain):
    """The member kinds' golden headers, as committed, on every C-family toolchain (NVRTC,
    PoCL, hipcc, cffi and zig's foreign ABIs besides the compilers above): compiled with
    their assertions live (one build), every size, alignment, offset and stride measured."""
    from sarek_layout.verify import AGREES
    from sarek_layout.verify.probes import probes_for
    from sarek_layout.verify.run import measure_with, user_headers

    tc = require_toolchain(toolchain)
    suffix = header_suffix(toolchain)
    assert len(KINDS_CASES) >= 5, KINDS_CASES
    for case in KINDS_CASES:
        schema = load_schema(_schemas(case))
        headers = sorted(str(p) for p in (GOLDEN / case / "expected").glob("*" + suffix)
                         if not p.name.endswith("_metal.h"))
        probes = probes_for(schema.types)
        result = measure_with(tc, user_headers(headers), probes)
        assert result.status == AGREES, (case, result.error, [str(d) for d in
                                                              result.differences[:10]])
        assert result.builds == 1, (case, result.note)
        assert result.values == len(probes) * (len(tc.passes) or 1)
