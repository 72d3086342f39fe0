"""Slang's reflection of HLSL, the judge of the ``hlsl-cbuffer`` rule set and of the hlsl
target in the tests.

The one copy of the code that drives Slang is the package's (``sarek_layout.verify.drivers.
slang``: the ``libslang-compiler`` of PyPI's ``slangpy`` wheel, its C API through ctypes in a
child process, the HLSL target with column-major matrices as FXC and DXC lay them out by
default); this module only skips a test (or fails it, with ``SAREK_REQUIRE_TOOLCHAINS``)
where Slang is not installed, and compiles a test's shader text.
"""

from __future__ import annotations

import os
import tempfile

import pytest

from sarek_layout.verify.shaders.slang import INSTALL, Reflection, run_slang, slang_library

__all__ = ["INSTALL", "library", "require_slang", "reflect", "compile_error"]

library = slang_library


def require_slang() -> str:
    """The library, or skip (locally) / fail (with ``SAREK_REQUIRE_TOOLCHAINS``)."""
    path = library()
    if path is None:
        reason = f"slang: the Slang compiler (slangpy) is not installed; {INSTALL}"
        if os.environ.get("SAREK_REQUIRE_TOOLCHAINS"):
            pytest.fail(f"required toolchain missing: {reason}", pytrace=False)
        pytest.skip(reason)
    return path


def _compile(source: str, files: dict, entry: str):
    require_slang()
    with tempfile.TemporaryDirectory(prefix="sarek-slang-test-") as folder:
        for name, text in {**files, "probe.hlsl": source}.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
        return run_slang(folder, "probe.hlsl", (".",), entry)


def reflect(source: str, files: dict = None, entry: str = "main") -> Reflection:
    """Slang's reflection of the HLSL shader ``source`` (entry point ``entry``), which may
    include ``files`` (name -> text)."""
    answer = _compile(source, files or {}, entry)
    if answer.reflection is None:
        raise AssertionError(f"Slang refused the probe shader: {answer.problem or ''}\n{answer.log}")
    return answer.reflection


def compile_error(source: str, files: dict = None, entry: str = "main") -> str:
    """Slang's diagnostics for ``source``, which must not compile (``""`` when it does)."""
    answer = _compile(source, files or {}, entry)
    assert answer.problem is None, answer.problem
    return "" if answer.reflection is not None else answer.log
