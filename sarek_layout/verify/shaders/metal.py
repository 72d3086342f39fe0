"""Metal: the language object, and its shaders measured by proxy: clang++ compiles the shader
as C++14 for arm64 Apple with stand-in headers (``metal_stdlib``), as the ``metal-proxy``
toolchain does for generated headers (``drivers.metal``).

One clang invocation per shader, with debug information (``-g``): for each struct ``T``
measured, the probe declares ``char sarek_probe_N[sizeof(T) + 1]`` (and ``alignof``), read
back from the LLVM IR's array sizes, and ``T *sarek_type_N``, through which the IR's debug
information describes ``T`` member by member: names, offsets, sizes and the base types under
every typedef and macro (``llvm_debug``). clang sees only the files copied into its folder
(``only_these_files``). MSL's address-space and function qualifiers (``kernel``,
``device``…) are defined away and its ``[[attribute]]``s ignored.
"""

from __future__ import annotations

import json
import os
import re
from typing import Dict, List, Optional, Set, Tuple

from ..tools import run_tool
from .check import Problem
from .language import ShadingLanguage
from .lexer import CPP_LEXICON
from .llvm_debug import DebugInfo
from .metal_stdlib import KEYWORDS, METAL_PROXY_ARGS, STAND_INS
from .reader import METAL_QUALIFIERS, StructDecl
from .types import BOOL, CompiledStruct, GpuType

__all__ = ["METAL", "Metal", "only_these_files"]

_SCALARS: Dict[str, GpuType] = {
    "int": GpuType("int", 32), "uint": GpuType("uint", 32), "float": GpuType("float", 32),
    "half": GpuType("float", 16), BOOL: GpuType(BOOL, 8), "char": GpuType("int", 8),
    "uchar": GpuType("uint", 8), "short": GpuType("int", 16), "ushort": GpuType("uint", 16),
    "long": GpuType("int", 64), "ulong": GpuType("uint", 64), "double": GpuType("float", 64),
    **{f"{s}{n}_t": GpuType("int" if s == "int" else "uint", n)
       for s in ("int", "uint") for n in (8, 16, 32, 64)},
    "unsigned int": GpuType("uint", 32), "signed char": GpuType("int", 8),
    "unsigned char": GpuType("uint", 8), "unsigned short": GpuType("uint", 16),
    "unsigned long": GpuType("uint", 64), "long long": GpuType("int", 64),
    "unsigned long long": GpuType("uint", 64),
    "atomic_int": GpuType("atomic", elem=GpuType("int", 32)),
    "atomic_uint": GpuType("atomic", elem=GpuType("uint", 32)),
}
_VECTOR = re.compile(r"(?:simd_|vector_)?(float|int|uint|half|short|ushort|char|uchar|bool|long|"
                     r"ulong)([234])\Z")
_NAMES = {t: n for n, t in reversed(list(_SCALARS.items()))}
_IR = re.compile(r"^@sarek_probe_(\d+)\s*=.*?\[(\d+) x i8\]", re.M)


class Metal(ShadingLanguage):
    name = "metal"
    title = "MSL"
    suffixes = (".metal",)
    lexicon = CPP_LEXICON
    stand_ins = tuple(name for name, _ in STAND_INS)
    #: clang follows #import too (an #include once); shared headers use it for the host.
    follows = ("include", "import")
    toolchain = tool = short = "metal-proxy"
    qualifiers = METAL_QUALIFIERS
    typedef_structs = True
    bool_why = "MSL bool is 1 byte"
    float64_note = ("(MSL has no 64-bit float: keep its raw words, low word first, as "
                    "`generate -t metal` does)")
    vec3_big = "MSL float3 is 16 bytes big too"
    atomics = True

    def missing(self) -> Optional[str]:
        import shutil

        if shutil.which("clang++") is None:
            return "clang++ not found (the Metal proxy); apt-get install -y clang"
        return None

    def parse(self, spelling: str) -> Optional[GpuType]:
        spelling = " ".join(spelling.split())
        if spelling in _SCALARS:
            return _SCALARS[spelling]
        v = _VECTOR.match(spelling)
        if v:
            return GpuType("vector", count=int(v.group(2)), elem=_SCALARS[v.group(1)])
        if spelling.startswith("packed_") and _VECTOR.match(spelling[7:]):
            return GpuType("struct", name=spelling)  # the proxy's packed_ types are structs
        return None

    def spell(self, t: GpuType) -> str:
        if t.is_scalar or t.kind == "atomic":
            return _NAMES.get(t, f"{t.kind}{t.bits}")
        if t.kind == "vector" and t.elem in _NAMES:
            return f"{_NAMES[t.elem]}{t.count}"
        if t.kind == "array" and t.elem is not None:
            return f"{self.spell(t.elem)}[{t.count or ''}]"
        return t.name or t.kind

    def vectors(self, n: int, is_float) -> Tuple[str, ...]:
        if is_float is None:
            return ()
        base = "float" if is_float else "int"
        return (f"{base}{n}", f"packed_{base}{n}")

    def best(self, m, rules: str = "c", owner: str = "") -> str:
        """A vector member as MSL holds its rule set's bytes: ``float4`` where MSL's vector
        is the member's size and alignment, ``packed_float3`` (4-aligned) where the member is
        its scalar's alignment, the packed vector pinned (``alignas(16) packed_float3``)
        where it is more aligned than its scalar but smaller than MSL's vector."""
        last = m.dims[-1] if m.dims else None
        if last is None or len(m.dims) != 1 or last.kind != "vector" or m.scalar is None:
            return super().best(m, rules, owner)
        n, s = last.count, m.scalar.size
        base = self.element_spelling(m)
        native = s * (4 if n == 3 else n)
        if (m.size, m.align) == (native, native):
            return f"{base}{n}"
        if m.size == n * s and m.align == s:
            return f"packed_{base}{n}"
        if m.size == n * s:
            return f"alignas({m.align}) packed_{base}{n}"
        return super().best(m, rules, owner)

    def kind_aliases(self, types):
        # The proxy's packed_floatN are structs (``metal_stdlib``): a vector of N components
        # 4-aligned, as MSL's own packed_ types.
        return tuple(GpuType("struct", name=f"packed_{self.spell(t.elem)}{t.count}")
                     for t in types if t.kind == "vector" and t.elem is not None
                     and t.elem.bits >= 16)

    def vec3_fix(self, what: str) -> str:
        return (f"{what}: MSL's float3/int3 are 16 bytes and 16-aligned, where the schema has "
                f"12 bytes aligned to 4: write packed_float3 (or three scalars)")

    def measure(self, shaders, decls, wanted, folder, rules=None):
        return measure_metal(shaders, decls, wanted, folder)


METAL = Metal()


def only_these_files(folder: str) -> str:
    """A clang file-system overlay that shows clang the files under ``folder`` and nothing
    else (``fallthrough: false``): an ``#include`` (or ``__has_include``, or ``#pragma GCC
    dependency``) of any other path finds no file, whatever the scan of ``source`` saw.
    Returns its path."""
    files = [os.path.join(root, name) for root, _, names in os.walk(os.path.realpath(folder))
             for name in names]
    path = os.path.join(folder, "sarek_only_these_files.json")
    with open(path, "w") as out:
        json.dump({"version": 0, "case-sensitive": "true", "fallthrough": False,
                   "roots": [{"type": "file", "name": f, "external-contents": f}
                             for f in files]}, out)
    return path


def _shims(folder: str) -> None:
    for name, text in STAND_INS:
        path = os.path.join(folder, "sarek_metal_shim", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def _compile(shaders, given, todo: List[str], folder: str, n: int
             ) -> Tuple[Optional[str], str]:
    """The LLVM IR of the probe of ``todo`` over root file ``given``, or why not."""
    src = f"sarek_shader_probe{n}.cpp"
    with open(os.path.join(folder, src), "w") as f:
        f.write(f'#include "{given.name}"\n')
        for i, t in enumerate(todo):
            f.write(f"char sarek_probe_{2 * i}[sizeof({t}) + 1];\n"
                    f"char sarek_probe_{2 * i + 1}[alignof({t}) + 1];\n{t} *sarek_type_{i};\n")
    run = run_tool([*METAL_PROXY_ARGS, *KEYWORDS, "-S", "-emit-llvm", "-O0", "-g",
                    "-gdwarf-5", "-fstandalone-debug", "-ivfsoverlay", only_these_files(folder),
                    "-Isarek_metal_shim", "-Iinc", "-Isrc", src, "-o", "probe.ll"],
                   cwd=folder, label="clang++")
    if not run.ok:
        text = shaders.readable(run.stderr + run.stdout, folder)
        errors = [ln for ln in text.splitlines() if "error" in ln][:5]
        return None, run.problem or "; ".join(errors) or text.strip()[:400]
    with open(os.path.join(folder, "probe.ll")) as f:
        return f.read(), ""


def measure_metal(shaders, decls: Dict[str, StructDecl], wanted: Set[str], folder: str
                  ) -> Tuple[Dict[str, CompiledStruct], List[Problem], List[str]]:
    shaders.lay_out(folder)
    _shims(folder)
    compiled: Dict[str, CompiledStruct] = {}
    failures: List[str] = []
    for n, given in enumerate(shaders.roots()):
        mine = shaders.visible(given)
        todo = [t for t in sorted(wanted) if t not in compiled and decls[t].file in mine]
        if not todo:
            continue
        ir, why = _compile(shaders, given, todo, folder, n)
        if ir is None:
            failures.append(f"{given.shown}: metal-proxy: {why}")
            continue
        values = {int(i): int(k) - 1 for i, k in _IR.findall(ir)}
        info = DebugInfo(ir)
        for i, t in enumerate(todo):
            got = info.struct_of(f"sarek_type_{i}") or CompiledStruct(t, measured=False)
            got.size, got.align = values.get(2 * i), values.get(2 * i + 1)
            compiled[t] = got
    return compiled, [], failures
