"""Metal shaders measured by proxy: clang++ compiles the shader as C++14 for arm64 Apple,
as the ``metal-proxy`` toolchain does for generated headers (``drivers.metal``), with a
stand-in ``<metal_stdlib>`` that declares the MSL types hand-written shaders use.

The stand-in's vectors are clang's: ``float3`` is 16 bytes and 16-aligned, ``float2`` 8 and
8, ``half3`` 8 and 8, as in MSL; ``packed_float3`` is a struct of three floats (12 bytes,
4-aligned, as MSL's), with element access and conversions to and from ``float3`` only, so a
kernel doing arithmetic on a packed vector may not compile here. ``bool`` is 1 byte in both.
``<simd/simd.h>`` gives the same vectors their ``simd_``/``vector_`` names. MSL's
address-space and function qualifiers (``kernel``, ``device``…) are defined away and
its ``[[attribute]]``s ignored. One clang invocation per shader: ``sizeof``, ``alignof``,
and each member's ``__builtin_offsetof`` and ``sizeof`` as ``char sarek_probe_N[(expr) + 1]``
globals read back from the LLVM IR. A proxy proves the layout under clang's arm64 Apple ABI,
not that Apple's compiler accepts the shader.
"""

from __future__ import annotations

import json
import os
import re
from typing import Dict, List, Set, Tuple

from ..drivers.metal import METAL_PROXY_ARGS, METAL_SHIM
from ..tools import run_tool
from .check import Measured, MeasuredMember, Problem
from .language import ShadingLanguage
from .lexer import CPP_LEXICON
from .reader import StructDecl

__all__ = ["measure_metal", "SHADER_SHIM", "KEYWORDS"]

TOOL = "metal-proxy"

_VECTORS = "".join(
    f"typedef {c} {n}{k} __attribute__((ext_vector_type({k})));\n"
    for c, n in (("float", "float"), ("int", "int"), ("unsigned int", "uint"),
                 ("__fp16", "half"), ("short", "short"), ("unsigned short", "ushort"),
                 ("char", "char"), ("unsigned char", "uchar"))
    for k in (2, 3, 4))
_PACKED = "".join(
    f"struct packed_{n}{k} {{ {c} v[{k}]; packed_{n}{k}() = default; "
    f"packed_{n}{k}({n}{k} x) {{ for (int i = 0; i < {k}; i++) v[i] = x[i]; }} "
    f"operator {n}{k}() const {{ {n}{k} x; for (int i = 0; i < {k}; i++) x[i] = v[i]; return x; }} "
    f"{c} &operator[](int i) {{ return v[i]; }} }};\n"
    for c, n in (("float", "float"), ("int", "int"), ("unsigned int", "uint"),
                 ("__fp16", "half"), ("short", "short"), ("unsigned short", "ushort"),
                 ("unsigned char", "uchar"))
    for k in (2, 3, 4))

#: The stand-in <metal_stdlib> for hand-written shaders.
SHADER_SHIM = ("#pragma once\n" + METAL_SHIM.replace("typedef unsigned int uint2 __attribute__((ext_vector_type(2)));\n", "")
               # MSL's ulong is 64 bits, as unsigned long is on the proxy's arm64 target (the
               # e2e kernels take the host's layout fingerprints as ulong).
               + "typedef unsigned short ushort;\ntypedef unsigned long ulong;\n"
               + _VECTORS + _PACKED
               + "namespace metal {}\n")

#: <simd/simd.h>, which headers shared between Metal and the host (Apple's ShaderTypes.h
#: pattern) include: its vector names are MSL's vectors.
SIMD_SHIM = ("#pragma once\n#include <metal_stdlib>\n" + "".join(
    f"typedef {n}{k} {prefix}_{n}{k};\n"
    for n in ("float", "int", "uint", "half", "short", "ushort", "char", "uchar")
    for k in (2, 3, 4) for prefix in ("simd", "vector")))

#: MSL keywords with no C++ meaning, defined away (as run_e2e.py's Metal step does).
#: ``-fno-trigraphs``: C++14 replaces ``??=`` by ``#`` before any directive is read, so
#: ``??=include "/etc/passwd"`` would include a file ``source`` never saw.
KEYWORDS = ("-fno-trigraphs", "-Dkernel=", "-Dvertex=", "-Dfragment=", "-Ddevice=", "-Dconstant=const",
            "-Dthread=", "-Dthreadgroup=", "-Wno-unknown-attributes")



class Metal(ShadingLanguage):
    name = "metal"
    suffixes = (".metal",)
    lexicon = CPP_LEXICON
    stand_ins = ("metal_stdlib", "simd/simd.h")
    toolchain = tool = short = "metal-proxy"

    def missing(self):
        import shutil

        if shutil.which("clang++") is None:
            return "clang++ not found (the Metal proxy); apt-get install -y clang"
        return None


METAL = Metal()

_IR = re.compile(r"^@sarek_probe_(\d+)\s*=.*?\[(\d+) x i8\]", re.M)


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


def measure_metal(shaders, decls: Dict[str, StructDecl], wanted: Set[str], folder: str
                  ) -> Tuple[Dict[str, Measured], List[Problem], List[str]]:
    shaders.lay_out(folder)
    shim = os.path.join(folder, "sarek_metal_shim")
    os.makedirs(shim)
    with open(os.path.join(shim, "metal_stdlib"), "w") as f:
        f.write(SHADER_SHIM)
    os.makedirs(os.path.join(shim, "simd"))
    with open(os.path.join(shim, "simd", "simd.h"), "w") as f:
        f.write(SIMD_SHIM)
    measured: Dict[str, Measured] = {}
    failures: List[str] = []
    for n, given in enumerate(shaders.roots()):
        mine = shaders.visible(given)
        todo = [t for t in sorted(wanted) if t not in measured and decls[t].file in mine]
        if not todo:
            continue
        probes: List[Tuple[str, str, str]] = []  # (struct, member or "", quantity)
        exprs: List[str] = []
        for t in todo:
            probes += [(t, "", "size"), (t, "", "align")]
            exprs += [f"sizeof({t})", f"alignof({t})"]
            for m in decls[t].members:
                if m.name:
                    probes += [(t, m.name, "offset"), (t, m.name, "size")]
                    exprs += [f"__builtin_offsetof({t}, {m.name})", f"sizeof((({t} *)0)->{m.name})"]
        src = f"sarek_shader_probe{n}.cpp"
        with open(os.path.join(folder, src), "w") as f:
            f.write(f'#include "{given.name}"\n')
            f.writelines(f"char sarek_probe_{i}[({e}) + 1];\n" for i, e in enumerate(exprs))
        run = run_tool([*METAL_PROXY_ARGS, *KEYWORDS, "-S", "-emit-llvm", "-O0",
                        "-ivfsoverlay", only_these_files(folder), "-Isarek_metal_shim", "-Iinc",
                        "-Isrc", src, "-o", "probe.ll"], cwd=folder, label="clang++")
        if not run.ok:
            text = shaders.readable(run.stderr + run.stdout, folder)
            errors = [ln for ln in text.splitlines() if "error" in ln][:5]
            failures.append(f"{given.shown}: {TOOL}: "
                            + (run.problem or "; ".join(errors) or text.strip()[:400]))
            continue
        with open(os.path.join(folder, "probe.ll")) as f:
            values = {int(i): int(k) - 1 for i, k in _IR.findall(f.read())}
        for i, (t, member, quantity) in enumerate(probes):
            got = measured.setdefault(t, Measured(None, None))
            v = values.get(i)
            if not member:
                if quantity == "size":
                    got.size = v
                else:
                    got.align = v
            else:
                old = got.members.get(member, MeasuredMember(None, None))
                got.members[member] = (MeasuredMember(v, old.size) if quantity == "offset"
                                       else MeasuredMember(old.offset, v))
    return measured, [], failures
