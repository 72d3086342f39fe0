"""pytest plugin: verify a schema's layout against real compilers from a user's own tests.

Enabled automatically once sarek-layout is installed (entry point ``pytest11``), or with
``-p sarek_layout.pytest_plugin``. One line in a test::

    def test_layout(sarek_verify):
        sarek_verify("schemas/geometry.toml")                       # generated headers
        sarek_verify("schemas/geometry.toml", headers=["include/geometry.h"],
                     toolchains=["gcc", "gcc-m32"])                 # a committed header
        sarek_verify("schemas/geometry.toml", objects=["build/libgeo.a"])  # a real build
        sarek_verify("schemas/geometry.toml", shaders=["shaders/particles.comp"],
                     include_dirs=["build/gen"])                   # hand-written shaders

The fixture fails the test with the verify report (each differing value named, both numbers)
when anything differs; a toolchain named in ``toolchains`` that is not installed skips the
test with its install hint, or fails it when ``$SAREK_REQUIRE_TOOLCHAINS`` asks for it.
Without ``toolchains``, every installed toolchain runs and missing ones are left out.
With ``objects`` (files built with ``-g``), their DWARF is compared instead, and no compiler
runs unless ``toolchains`` or ``headers`` are also given. With ``shaders`` (GLSL, WGSL,
Metal files; their ``#include`` files found in ``include_dirs``), their structs are checked
against the schema (``verify --shader``); a missing shader compiler skips the test.
``assert_layout_agrees`` is the same check as a plain function, for code without fixtures.
"""

from __future__ import annotations

from typing import Iterable, Optional

import pytest

__all__ = ["sarek_verify", "assert_layout_agrees"]


def assert_layout_agrees(
    *schemas: str,
    toolchains: Optional[Iterable[str]] = None,
    headers: Optional[Iterable[str]] = None,
    objects: Optional[Iterable[str]] = None,
    shaders: Optional[Iterable[str]] = None,
    include_dirs: Iterable[str] = (),
):
    """Verify ``schemas``; return the report, or fail the current test with it."""
    if shaders:
        checked = _check_shaders(schemas, shaders, include_dirs)
        if not toolchains and not headers and not objects:
            return checked
    if objects:
        found = _check_objects(schemas, objects)
        if not toolchains and not headers:
            return found
    return _check_headers(schemas, toolchains, headers)


def _check_shaders(schemas, shaders: Iterable[str], include_dirs: Iterable[str]):
    """``verify --shader``: its report, or the test failed (or skipped without a compiler)."""
    from .errors import ToolchainMissing
    from .resolve import load_schema
    from .verify import toolchains as registry
    from .verify.shaders import verify_shaders

    try:
        checked = verify_shaders(load_schema([str(p) for p in schemas]),
                                 [str(p) for p in shaders], [str(d) for d in include_dirs])
    except ToolchainMissing as e:  # fails instead when $SAREK_REQUIRE_TOOLCHAINS needs it
        if getattr(e, "toolchain", None) in _required(registry):
            pytest.fail(f"required toolchain missing: {e}", pytrace=False)
        pytest.skip(str(e))
    if not checked.ok:
        pytest.fail("sarek-layout verify --shader found differences:\n" + checked.format(),
                    pytrace=False)
    return checked


def _check_objects(schemas, objects: Iterable[str]):
    """``verify --object``: its report, or the test failed (skipped without pyelftools)."""
    from .errors import ToolchainMissing
    from .resolve import load_schema
    from .verify.objects import verify_objects

    try:
        found = verify_objects(load_schema([str(p) for p in schemas]), [str(o) for o in objects])
    except ToolchainMissing as e:  # pyelftools is not installed
        pytest.skip(str(e))
    if not found.ok:
        pytest.fail("sarek-layout verify --object found differences:\n" + found.format(),
                    pytrace=False)
    return found


def _check_headers(schemas, toolchains: Optional[Iterable[str]],
                   headers: Optional[Iterable[str]]):
    """``verify`` of generated (or the given) headers: its report, or the test failed; a
    named toolchain that is missing skips it (fails it when it is required)."""
    from .verify import toolchains as registry
    from .verify import verify_files

    names = list(toolchains) if toolchains else None
    if names:
        required = _required(registry)
        for name in names:
            reason = registry.get(name).unavailable_reason
            if reason is not None:
                if name in required:
                    pytest.fail(f"required toolchain missing: {reason}", pytrace=False)
                pytest.skip(reason)
    report = verify_files(schemas, toolchains=names, headers=list(headers) if headers else None)
    if not report.ok:
        pytest.fail("sarek-layout verify found differences:\n" + report.format(), pytrace=False)
    if not any(r.status != "skipped" for r in report.results):
        pytest.skip("no toolchain installed to verify with (sarek-layout verify --toolchain list)")
    return report


def _required(registry):
    from .errors import UsageError

    try:
        return registry.required_toolchains()
    except UsageError as e:  # a misspelt $SAREK_REQUIRE_TOOLCHAINS
        pytest.fail(str(e), pytrace=False)


@pytest.fixture
def sarek_verify():
    """``sarek_verify(*schemas, toolchains=None, headers=None, objects=None, shaders=None,
    include_dirs=())``: see the module docstring."""
    return assert_layout_agrees
