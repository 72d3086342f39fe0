"""The C (``.h``) and CUDA (``.cuh``) headers of one schema in one translation unit, as every
CUDA project has them: a host API header includes the ``.h``, a ``.cu`` includes that header
and the ``.cuh`` (in either order). nvcc, with warnings as errors, compiles every type, its
fingerprint and every ``make_`` helper and record copy in device code and in host code.

The example schemas and every golden case (variants, record copies, schemas using another's
types, float16 and the extension scalars). gcc/g++ of the ``.h`` alone stay strict-clean
(test_codegen_golden compiles the goldens with every toolchain, NVRTC in verify's own run).
"""

from __future__ import annotations

import pathlib

import pytest

from helpers.common import EXAMPLES, golden_cases
from helpers.compile import assert_compiles, assert_fails
from sarek_layout.codegen import render_headers
from sarek_layout.codegen.views import module_view
from sarek_layout.frontends import READERS
from sarek_layout.resolve import load_schema

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden"

CASES = {"examples": sorted(str(p) for p in EXAMPLES.iterdir() if p.suffix in READERS)}
# The C and CUDA headers of the cases using SPEC §1b's member kinds come with their support.
CASES.update(golden_cases(member_kinds=False))


def _uses(schema) -> list:
    """Statements using every type (its size and fingerprint), every make_ helper and every
    record copy of ``schema``; each stores an int in ``out[i]``."""
    lines = []
    for module in schema.modules:
        for t in module_view(schema, module).types:
            lines.append(f"out[{len(lines)}] = (int)sizeof({t.c_name}) "
                         f"+ {t.c_name}_LAYOUT_OK({t.c_name}_LAYOUT_ID);")
            for c in t.copies:
                lines.append(f"{{ {c.c_name} v = {c.function}({c.c_name}()); "
                             f"out[{len(lines)}] = (int)sizeof(v); }}")
            for c in t.ctors:
                args = ", ".join("{}" if p.kind == "record" else "0" for p in c.params)
                lines.append(f"out[{len(lines)}] = {c.make_name}({args}).tag;")
    return lines


def _program(schema) -> str:
    body = "".join(f"    {line}\n" for line in _uses(schema))
    return ("__global__ void sarek_test_device(int *out)\n{\n" + body + "}\n\n"
            "void sarek_test_host(int *out)\n{\n" + body + "}\n")


@pytest.mark.parametrize("order", ["h-first", "cuh-first"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_c_and_cuda_headers_of_a_schema_meet_in_one_cu_file(case, order, tmp_path):
    schema = load_schema(CASES[case])
    out = tmp_path / "include"
    out.mkdir()
    files = render_headers(schema, ["c", "cuda"])
    for f in files:
        (out / f.filename).write_text(f.text)
    # The project's host API: plain C, so it includes the .h (all of them).
    (out / "host_api.h").write_text("".join(f'#include "{f.filename}"\n' for f in files
                                            if f.target == "c")
                                    + "int sarek_test_host_api(void);\n")
    cuh = [f.filename for f in files if f.target == "cuda"]
    headers = ["host_api.h", *cuh] if order == "h-first" else [*cuh, "host_api.h"]
    assert_compiles("nvcc", [(f"{case}-{order}", headers, [out], _program(schema))], tmp_path)


def test_two_layouts_of_one_c_name_still_clash(tmp_path):
    """A stale ``.h`` beside a fresh ``.cuh`` (``point``'s fields became float64): each
    type's guard carries its fingerprint, so both definitions are compiled and nvcc refuses
    the second (its fingerprint macro, then its type), instead of one header silently using
    the other's layout."""
    geometry = EXAMPLES / "geometry.toml"
    changed = tmp_path / "new" / "geometry.toml"
    changed.parent.mkdir()
    changed.write_text(geometry.read_text().replace('["x", "float32"], ["y", "float32"]',
                                                    '["x", "float64"], ["y", "float64"]'))
    out = tmp_path / "include"
    out.mkdir()
    (out / "geometry.h").write_text(render_headers(load_schema([str(geometry)]), ["c"])[0].text)
    (out / "geometry.cuh").write_text(
        render_headers(load_schema([str(changed)]), ["cuda"])[0].text)
    output = assert_fails("nvcc", "stale", ["geometry.h", "geometry.cuh"], out, tmp_path)
    # The host pass's preprocessor finds the fingerprint macro redefined first (-Werror).
    assert ('"Geometry_point_LAYOUT_ID" redefined' in output
            or 'type "Geometry_point" has already been defined' in output), output
