"""What ``verify`` runs in a child process to ask Slang about HLSL (``shaders.slang`` starts
it under ``tools.run_tool``'s time and memory bounds, confined to its compile folder where
the kernel allows it): the Slang compiler of PyPI's ``slangpy`` wheel (``libslang-compiler``),
driven through its C API with ctypes, compiles one translation unit for the HLSL target
with column-major matrices (FXC's and DXC's default) and answers its reflection: every
global parameter, and the layout of every struct, array, vector, matrix and scalar under
it, as Slang laid it out in that parameter (a ``cbuffer``'s packing, a
``StructuredBuffer``'s).

Protocol: one JSON request on stdin (``library``: the library's path; ``source``: the file to
compile, relative to the working folder; ``search``: the include folders, relative too;
``entry``: the compute entry point's name), one JSON answer on the original stdout:
``{"ok": true, "params": [...], "structs": {...}, "log": diagnostics}`` or ``{"ok": false,
"log": …}``. A parameter is ``{"name", "kind": "cbuffer" | "structured" | "bytes" |
"other", "t": node}``; a node ``{"k": kind, "size", "align", "stride"}`` with, by kind,
``s`` (a scalar's kind and bits: ``f32``, ``u16``, ``b32`` for bool), ``n`` and ``s`` (a vector), ``r``, ``c``, ``s`` and ``row_major``
(a matrix), ``n``, ``es`` (the element stride) and ``e`` (an array), ``ref`` (a struct: a
key of ``structs``, ``{"name", "fields": [{"name", "off", "t"}]}``). Each struct is walked
once per parameter kind (its layout is the same wherever it is nested in one kind of
buffer), so the answer grows with the shader, not with how often a struct is nested.

This module imports only the standard library (it is loaded by path: ``tools.child_boot``).
"""

from __future__ import annotations

import ctypes
import json
import os
import sys

P, I, U, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_size_t
C = ctypes.c_char_p

#: (name, result, arguments) of every function used (slang.h, the C API).
_API = [
    ("spCreateSession", P, [C]), ("spCreateCompileRequest", P, [P]),
    ("spSetCodeGenTarget", None, [P, I]), ("spSetMatrixLayoutMode", None, [P, I]),
    ("spAddSearchPath", None, [P, C]), ("spAddTranslationUnit", I, [P, I, C]),
    ("spAddTranslationUnitSourceFile", None, [P, I, C]),
    ("spAddEntryPoint", I, [P, I, C, I]), ("spCompile", I, [P]),
    ("spGetDiagnosticOutput", C, [P]), ("spGetReflection", P, [P]),
    ("spReflection_GetParameterCount", U, [P]), ("spReflection_GetParameterByIndex", P, [P, U]),
    ("spReflectionVariableLayout_GetTypeLayout", P, [P]),
    ("spReflectionVariableLayout_GetOffset", S, [P, I]),
    ("spReflectionVariableLayout_GetVariable", P, [P]), ("spReflectionVariable_GetName", C, [P]),
    ("spReflectionTypeLayout_GetType", P, [P]), ("spReflectionTypeLayout_getKind", I, [P]),
    ("spReflectionTypeLayout_GetSize", S, [P, I]), ("spReflectionTypeLayout_GetStride", S, [P, I]),
    ("spReflectionTypeLayout_GetElementStride", S, [P, I]),
    ("spReflectionTypeLayout_getAlignment", I, [P, I]),
    ("spReflectionTypeLayout_GetFieldCount", U, [P]),
    ("spReflectionTypeLayout_GetFieldByIndex", P, [P, U]),
    ("spReflectionTypeLayout_GetElementTypeLayout", P, [P]),
    ("spReflectionTypeLayout_GetMatrixLayoutMode", I, [P]),
    ("spReflectionType_GetName", C, [P]), ("spReflectionType_GetRowCount", U, [P]),
    ("spReflectionType_GetColumnCount", U, [P]), ("spReflectionType_GetElementCount", S, [P]),
    ("spReflectionType_GetElementType", P, [P]), ("spReflectionType_GetScalarType", I, [P]),
    ("spReflectionType_GetResourceShape", I, [P]),
]

SLANG_HLSL, SOURCE_HLSL, STAGE_COMPUTE, COLUMN_MAJOR, ROW_MAJOR = 5, 2, 6, 2, 1
UNIFORM = 8  # SLANG_PARAMETER_CATEGORY_UNIFORM: byte offsets and sizes
#: SlangTypeKind
STRUCT, ARRAY, MATRIX, VECTOR, SCALAR, CONSTANT_BUFFER, RESOURCE, TEXTURE_BUFFER = 1, 2, 3, 4, 5, 6, 7, 9
#: SlangScalarType -> its kind and bits (``b``: bool, 32 bits in HLSL's buffers; ``i``, ``u``,
#: ``f``: signed, unsigned, float).
_SCALARS = {2: "b32", 3: "i32", 4: "u32", 5: "i64", 6: "u64", 7: "f16", 8: "f32", 9: "f64",
            10: "i8", 11: "u8", 12: "i16", 13: "u16"}
#: SlangResourceShape's base shapes (the low four bits).
_STRUCTURED, _BYTES = 6, 7
#: Nesting followed (Slang itself refuses far less deep nesting).
_DEPTH = 256


class _Api:
    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        for name, res, args in _API:
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
            setattr(self, name[2:], fn)


def _text(raw) -> str:
    return (raw or b"").decode("utf-8", "replace")


class _Walk:
    """The reflection of one compile, as the JSON nodes of the module docstring."""

    def __init__(self, api: _Api) -> None:
        self.api = api
        self.structs: dict = {}

    def node(self, tl, context: str, depth: int = 0) -> dict:
        a = self.api
        kind = a.ReflectionTypeLayout_getKind(tl)
        t = a.ReflectionTypeLayout_GetType(tl)
        out = {"size": a.ReflectionTypeLayout_GetSize(tl, UNIFORM),
               "align": a.ReflectionTypeLayout_getAlignment(tl, UNIFORM),
               "stride": a.ReflectionTypeLayout_GetStride(tl, UNIFORM)}
        if depth > _DEPTH:
            return {**out, "k": "other", "name": "(too deep)"}
        if kind == SCALAR:
            return {**out, "k": "scalar", "s": _SCALARS.get(a.ReflectionType_GetScalarType(t), "?")}
        if kind == VECTOR:
            elem = a.ReflectionType_GetElementType(t)
            return {**out, "k": "vector", "n": a.ReflectionType_GetElementCount(t),
                    "s": _SCALARS.get(a.ReflectionType_GetScalarType(elem), "?")}
        if kind == MATRIX:
            elem = a.ReflectionType_GetElementType(t)
            scalar = a.ReflectionType_GetScalarType(elem) if elem else 0
            if scalar == 0:
                scalar = a.ReflectionType_GetScalarType(t)
            return {**out, "k": "matrix", "r": a.ReflectionType_GetRowCount(t),
                    "c": a.ReflectionType_GetColumnCount(t), "s": _SCALARS.get(scalar, "?"),
                    "row_major": a.ReflectionTypeLayout_GetMatrixLayoutMode(tl) == ROW_MAJOR}
        if kind == ARRAY:
            elem = a.ReflectionTypeLayout_GetElementTypeLayout(tl)
            return {**out, "k": "array", "n": a.ReflectionType_GetElementCount(t),
                    "es": a.ReflectionTypeLayout_GetElementStride(tl, UNIFORM),
                    "e": self.node(elem, context, depth + 1)}
        if kind == STRUCT:
            name = _text(a.ReflectionType_GetName(t))
            key = f"{name}|{context}" if name else f"|{context}|{len(self.structs)}"
            if key not in self.structs:
                self.structs[key] = {"name": name, "fields": []}  # before the fields: no loop
                fields = []
                for i in range(a.ReflectionTypeLayout_GetFieldCount(tl)):
                    v = a.ReflectionTypeLayout_GetFieldByIndex(tl, i)
                    fields.append({
                        "name": _text(a.ReflectionVariable_GetName(a.ReflectionVariableLayout_GetVariable(v))),
                        "off": a.ReflectionVariableLayout_GetOffset(v, UNIFORM),
                        "t": self.node(a.ReflectionVariableLayout_GetTypeLayout(v), context, depth + 1)})
                self.structs[key]["fields"] = fields
            return {**out, "k": "struct", "ref": key, "name": name}
        return {**out, "k": "other", "name": _text(a.ReflectionType_GetName(t)) if t else ""}

    def parameter(self, v) -> dict:
        a = self.api
        name = _text(a.ReflectionVariable_GetName(a.ReflectionVariableLayout_GetVariable(v)))
        tl = a.ReflectionVariableLayout_GetTypeLayout(v)
        kind = a.ReflectionTypeLayout_getKind(tl)
        t = a.ReflectionTypeLayout_GetType(tl)
        if kind in (CONSTANT_BUFFER, TEXTURE_BUFFER):
            elem = a.ReflectionTypeLayout_GetElementTypeLayout(tl)
            return {"name": name, "kind": "cbuffer", "t": self.node(elem, "cbuffer")}
        if kind == RESOURCE:
            shape = a.ReflectionType_GetResourceShape(t) & 0x0F
            if shape == _STRUCTURED:
                elem = a.ReflectionTypeLayout_GetElementTypeLayout(tl)
                return {"name": name, "kind": "structured", "t": self.node(elem, "structured")}
            if shape == _BYTES:
                return {"name": name, "kind": "bytes", "t": None}
        return {"name": name, "kind": "other", "t": None}


def _answer(request: dict) -> dict:
    api = _Api(request["library"])
    req = api.CreateCompileRequest(api.CreateSession(None))
    api.SetCodeGenTarget(req, SLANG_HLSL)
    api.SetMatrixLayoutMode(req, COLUMN_MAJOR)
    for folder in request.get("search", []):
        api.AddSearchPath(req, folder.encode())
    unit = api.AddTranslationUnit(req, SOURCE_HLSL, b"sarek")
    api.AddTranslationUnitSourceFile(req, unit, request["source"].encode())
    if request.get("entry"):
        api.AddEntryPoint(req, unit, request["entry"].encode(), STAGE_COMPUTE)
    failed = api.Compile(req) != 0
    log = _text(api.GetDiagnosticOutput(req))
    if failed:
        return {"ok": False, "log": log}
    refl = api.GetReflection(req)
    walk = _Walk(api)
    params = [walk.parameter(api.Reflection_GetParameterByIndex(refl, i))
              for i in range(api.Reflection_GetParameterCount(refl))]
    return {"ok": True, "log": log, "params": params, "structs": walk.structs}


def main() -> None:
    request = json.loads(sys.stdin.read())
    answer_fd = os.dup(1)  # the answer goes to the real stdout; anything printed, to stderr
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    answer = _answer(request)
    sys.stderr.flush()
    with os.fdopen(answer_fd, "w") as out:
        json.dump(answer, out)
