"""Slang's reflection of HLSL, the judge of the ``hlsl-cbuffer`` rule set in the tests.

PyPI's ``slangpy`` ships the Slang compiler as a shared library (``libslang-compiler``). Its
C API (the compile-request functions of ``slang-deprecated.h``, still exported) compiles HLSL
for the HLSL target with column-major matrices, as FXC and DXC lay them out by default, and
``spReflection_ToJson`` gives every parameter's layout: a ``cbuffer``'s members' offsets and
sizes, arrays' strides. The library is found without importing ``slangpy`` (which starts a
renderer), and each compile runs in a child process, since a compiler crash would take the
test process with it.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import subprocess
import sys
from typing import Optional

import pytest

INSTALL = "pip install slangpy"


def library() -> Optional[str]:
    """The path of ``libslang-compiler`` inside the slangpy wheel, or ``None``."""
    spec = importlib.util.find_spec("slangpy")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(folder, "libslang-compiler.so*")))
        if found:
            return found[0]
    return None


def require_slang() -> str:
    """The library, or skip (locally) / fail (with ``SAREK_REQUIRE_TOOLCHAINS``)."""
    path = library()
    if path is None:
        reason = f"slang: the Slang compiler (slangpy) is not installed; {INSTALL}"
        if os.environ.get("SAREK_REQUIRE_TOOLCHAINS"):
            pytest.fail(f"required toolchain missing: {reason}", pytrace=False)
        pytest.skip(reason)
    return path


_CHILD = r'''
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
P, I = ctypes.c_void_p, ctypes.c_int
for name, res, args in [
    ("spCreateSession", P, [ctypes.c_char_p]), ("spCreateCompileRequest", P, [P]),
    ("spSetCodeGenTarget", None, [P, I]), ("spSetMatrixLayoutMode", None, [P, I]),
    ("spAddTranslationUnit", I, [P, I, ctypes.c_char_p]),
    ("spAddTranslationUnitSourceString", None, [P, I, ctypes.c_char_p, ctypes.c_char_p]),
    ("spAddEntryPoint", I, [P, I, ctypes.c_char_p, I]), ("spCompile", I, [P]),
    ("spGetDiagnosticOutput", ctypes.c_char_p, [P]), ("spGetReflection", P, [P]),
    ("spReflection_ToJson", I, [P, P, ctypes.POINTER(P)])]:
    f = getattr(lib, name); f.restype = res; f.argtypes = args
SLANG_HLSL, SOURCE_HLSL, STAGE_COMPUTE, COLUMN_MAJOR = 5, 2, 6, 2
request = lib.spCreateCompileRequest(lib.spCreateSession(None))
lib.spSetCodeGenTarget(request, SLANG_HLSL)
lib.spSetMatrixLayoutMode(request, COLUMN_MAJOR)
unit = lib.spAddTranslationUnit(request, SOURCE_HLSL, b"probe")
lib.spAddTranslationUnitSourceString(request, unit, b"probe.hlsl", sys.stdin.buffer.read())
lib.spAddEntryPoint(request, unit, b"main", STAGE_COMPUTE)
if lib.spCompile(request) != 0:
    sys.stderr.write(lib.spGetDiagnosticOutput(request).decode())
    sys.exit(1)
blob = P()
if lib.spReflection_ToJson(lib.spGetReflection(request), request, ctypes.byref(blob)) != 0:
    sys.exit("no reflection")
vtable = ctypes.cast(ctypes.cast(blob, ctypes.POINTER(P))[0], ctypes.POINTER(P))
pointer = ctypes.CFUNCTYPE(P, P)(vtable[3])(blob)  # ISlangBlob::getBufferPointer
size = ctypes.CFUNCTYPE(ctypes.c_size_t, P)(vtable[4])(blob)  # ::getBufferSize
sys.stdout.buffer.write(ctypes.string_at(pointer, size))
'''


def reflect(source: str) -> dict:
    """Slang's JSON reflection of the HLSL compute shader ``source`` (entry point ``main``)."""
    run = subprocess.run([sys.executable, "-c", _CHILD, require_slang()], input=source.encode(),
                         capture_output=True, timeout=300)
    if run.returncode != 0:
        raise AssertionError(f"Slang refused the probe shader:\n{run.stderr.decode()}")
    return json.loads(run.stdout)
