"""Each target refuses a member name only where it breaks, proven with the real compilers.

``targets.name_rules`` decides per target. Here every word any rule knows (the C family's
keywords, every predefined-macro table, the shading and host languages' reserved words, CUDA's
built-in variables and vector types…) is judged as a field and as a union arm for each target
with a compiler, and the target's *generated* file is compiled by it:

* every word the target keeps (or escapes) is a field and a constructor of one schema, and the
  generated file compiles in every mode the target promises (C11, C++11, their GNU modes, C++20,
  after the C library's headers; nvcc; OpenCL C 1.2 and 3.0; glslang; naga);
* every word it refuses is put, unescaped, where the generated file would put it (a field of a
  record of its own, rendered with a placeholder then spelt out), and at least one of those
  compilers must reject it, save the few words a language reserves that no compiler here
  diagnoses (``RESERVED_ONLY``, each with the clause that reserves it).

So ``blockDim`` (a CUDA built-in variable) compiles as a member everywhere, nvcc included, and
is kept everywhere; ``kernel`` breaks OpenCL C only.
"""

from __future__ import annotations

import json
import keyword
import re
import subprocess
import sys
from typing import Dict, List, Sequence, Set, Tuple

import pytest

from helpers.common import require_toolchain
from helpers.declared_names import LIBC_C as _LIBC_C, LIBC_CPP as _LIBC_CPP
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.targets import name_rules, predefined
from sarek_layout.targets.names import ARM, FIELD, FILE, identifier_problem, problem, spelling

# Words no table lists that the old union of every table refused (CUDA's built-in variables
# and types, vector types), and spellings the reserved-name patterns judge.
_EXTRA = """blockDim threadIdx blockIdx gridDim warpSize dim3 float4 longlong2 char16 half2 uint3
size_t int_least8_t INT32_MAX UINT8_C a__b _X __x _ stdout stdin stderr EOF offsetof vector pixel
cudaStreamAttrID SIGEV_SIGNAL"""

UNIVERSE = sorted(w for w in set().union(
    *name_rules.C_FAMILY_WORDS.values(), predefined.OBJECT_MACROS, predefined.RENAMED_BUILTINS,
    name_rules.GLSL_RESERVED, name_rules.WGSL_RESERVED, name_rules.MSL_RESERVED,
    name_rules.ZIG_RESERVED, name_rules.RUST_KEYWORDS, keyword.kwlist, _EXTRA.split())
    if identifier_problem(w) is None)

#: Words a language reserves that no compiler here rejects as a member, by target: the
#: refusal stands on the standard (or the other platforms) named.
_IMPLEMENTATION = {
    "_X": "C11 7.1.3 and C++ [lex.name]: reserved for the implementation ('_' + capital)",
    "__x": "C11 7.1.3 and C++ [lex.name]: reserved for the implementation (leading '__')",
}
_TYPEOF_UNQUAL = "a C23 keyword (gcc 14 and clang 16 on; gcc 12 and clang 14 here predate it)"
_CHANGES_MEANING = ("C++ [basic.scope.class]: a member spelt like a type its struct uses is "
                    "ill-formed, no diagnostic required; g++ rejects it outside extern \"C\" "
                    "(the header's structs are inside), nvcc (EDG) and clang never")
RESERVED_ONLY: Dict[str, Dict[str, str]] = {
    "c": {
        **_IMPLEMENTATION,
        "a__b": "C++ [lex.name]: a name with '__' anywhere is reserved",
        "typeof_unqual": _TYPEOF_UNQUAL,
        **{t: _CHANGES_MEANING for t in name_rules.C_FAMILY_WORDS["stdint"]},
    },
    "cuda": {
        **_IMPLEMENTATION,
        "a__b": "C++ [lex.name]: a name with '__' anywhere is reserved",
        "typeof_unqual": _TYPEOF_UNQUAL,
        "i386": "gcc -m32 predefines it (`#define i386 1`): a 32-bit host compiler",
        **{t: _CHANGES_MEANING for t in name_rules.C_FAMILY_WORDS["stdint"]},
        **{m: "glibc's <math.h> defines it where the host compiler has _Float128 (g++ does; "
              "nvcc hides it)" for m in predefined.LIBC_MACROS if m.lower().endswith("f128")},
    },
    "opencl": {
        **_IMPLEMENTATION,
        "imaginary": "OpenCL C 1.2 6.1.4: a reserved data type",
        "complex": "OpenCL C 1.2 6.1.4: a reserved data type",
        "quad": "OpenCL C 1.2 6.1.4: a reserved data type",
        "uniform": "OpenCL C 1.2 6.1.9: a reserved keyword",
    },
}

#: PoCL's build, as a compiler command: the build log's errors spelt ``tu.cl:LINE:COL: error``.
_POCL = """
import re, sys, pyopencl as cl
src = open(sys.argv[1]).read()
devices = [d for p in cl.get_platforms() if "portable" in p.name.lower() or "pocl" in p.name.lower()
           for d in p.get_devices()]
try:
    cl.Program(cl.Context(devices=devices[:1]), src).build(options=["-cl-std=CL1.2"])
except cl.RuntimeError as e:
    print(re.sub(r"error: \\S+?\\.cl:(\\d+):(\\d+)", r"tu.cl:\\1:\\2: error:", str(e)))
    sys.exit(1)
"""

def _contexts(target: str) -> List[Tuple[str, List[str], str, str]]:
    """(label, argv, source suffix, text before the header) for each mode ``target`` promises."""
    if target == "c":
        require_toolchain("gcc")
        require_toolchain("g++")
        out = []
        for label, argv, suffix, libc in (
                ("gcc -std=c11", ["gcc", "-std=c11"], ".c", ""),
                ("gcc (GNU C)", ["gcc"], ".c", ""),
                ("gcc (GNU C) after libc", ["gcc", "-D_GNU_SOURCE"], ".c", _LIBC_C),
                ("gcc -m32 (GNU C)", ["gcc", "-m32"], ".c", ""),
                ("g++ -std=c++11", ["g++", "-std=c++11"], ".cpp", ""),
                ("g++ -std=c++20", ["g++", "-std=c++20"], ".cpp", ""),
                ("g++ (GNU C++) after libc", ["g++", "-D_GNU_SOURCE"], ".cpp", _LIBC_CPP)):
            out.append((label, [*argv, "-fmax-errors=0", "-fsyntax-only"], suffix, libc))
        if name_rules_toolchain_available("ppc64"):
            out.append(("powerpc64 gcc (GNU C, AltiVec)", [
                "powerpc64-linux-gnu-gcc", "-ffreestanding", "-maltivec", "-fmax-errors=0",
                "-fsyntax-only"], ".c", ""))
        return out
    if target == "cuda":
        require_toolchain("nvcc")
        argv = ["nvcc", "-c", "-Xcudafe", "--error_limit=1000000"]
        out = [("nvcc", argv, ".cu", ""), ("nvcc -std=c++20", [*argv, "-std=c++20"], ".cu", ""),
               ("nvcc after libc", argv, ".cu", _LIBC_CPP)]
        if name_rules_toolchain_available("hip"):
            out.append(("hipcc", ["hipcc", "-fsyntax-only", "-ferror-limit=0", "-x", "hip"],
                        ".hip", ""))
        return out
    if target == "opencl":
        tc = require_toolchain("clang-opencl")
        base = [a for a in tc.argv if not a.startswith("-cl-std=")]
        out = [(f"clang OpenCL C {std}", [*base, f"-cl-std={std}", "-ferror-limit=0",
                                           "-fsyntax-only"], ".cl", "") for std in ("CL1.2", "CL3.0")]
        if name_rules_toolchain_available("pocl"):
            out.append(("PoCL", [sys.executable, "-c", _POCL], ".cl", ""))
        return out
    raise AssertionError(target)


def name_rules_toolchain_available(name: str) -> bool:
    from sarek_layout.verify import toolchains

    return toolchains.get(name).unavailable_reason is None


_DIAG = re.compile(r"^(?P<file>[^:\n(]+?)(?::(?P<line>\d+):\d+: |\((?P<edg>\d+)\): )"
                   r"(?:fatal )?error", re.M)
_TAIL = {".c": "", ".cpp": "", ".cu": "__global__ void k(int *o) { *o = 1; }\n",
         ".hip": "__global__ void k(int *o) { *o = 1; }\n",
         ".cl": "__kernel void k(__global int *o) { *o = 1; }\n"}


def _compile(context, header: str, folder) -> Tuple[int, str, int]:
    """Compile ``header`` in ``context``: (exit status, output, first line of the header in
    the translation unit)."""
    label, argv, suffix, before = context
    src = folder / f"tu{suffix}"
    src.write_text(before + header + _TAIL[suffix])
    cmd = [*argv, str(src)] + (["-o", str(folder / "tu.o")] if "-c" in argv else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=folder, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr, before.count("\n") + 1


def _lines_with_errors(output: str, src_name: str) -> Set[int]:
    return {int(m["line"] or m["edg"]) for m in _DIAG.finditer(output)
            if m["file"].strip().endswith(src_name)}


def _schema(tmp_path, name: str, types) -> list:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"module": "K", "types": types}))
    return load_schema([str(path)])


_SCALARS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
            "float32", "float64"]


def _kept_header(tmp_path, target: str, kept: Sequence[str]) -> str:
    # Every scalar first, so that a member named like a type its struct uses would show.
    fields = [[f"p{i}", s] for i, s in enumerate(_SCALARS)] + [[w, "int32"] for w in kept]
    ctors = [[w, ["int32"]] for w in kept if problem(target, w + "_v", ARM) is None
             and problem(target, f"K_v_{w}", FILE) is None
             and problem(target, f"make_K_v_{w}", FILE) is None]
    schema = _schema(tmp_path, "kept", [{"record": "kept", "fields": fields},
                                       {"variant": "v", "constructors": ctors}])
    (header,) = render_headers(schema, [target])
    return header.text


def _refused_header(tmp_path, target: str, refused: Sequence[str]) -> Tuple[str, Dict[int, int]]:
    """The header of one record per refused word, each word where the generator puts a
    field, spelt out after rendering (the generator itself refuses them); and the record
    each line of it belongs to."""
    # Every scalar first, as in _kept_header: a member named like a type its struct uses.
    scalars = [[f"p{i}", s] for i, s in enumerate(_SCALARS)]
    types = [{"record": f"r{i}", "fields": scalars + [[f"zqzq{i}", "int32"]]}
             for i in range(len(refused))]
    (header,) = render_headers(_schema(tmp_path, "refused", types), [target])
    owner: Dict[int, int] = {}
    current = -1
    for number, line in enumerate(header.text.splitlines(), 1):
        found = re.search(r"\bK_r(\d+)\b|\bzqzq(\d+)\b", line)
        if found:
            current = int(found.group(1) or found.group(2))
        owner[number] = current
    text = re.sub(r"\bzqzq(\d+)\b", lambda m: refused[int(m.group(1))], header.text)
    return text, owner


def _broken(tmp_path, target: str, refused: List[str]) -> Set[str]:
    """The refused words some compiler of ``target`` rejects where the generator would put
    them: compiled together, a diagnostic names its record's word; the others are compiled
    again until they compile clean."""
    broken: Set[str] = set()
    for n, context in enumerate(_contexts(target)):
        todo = [w for w in refused if w not in broken]
        for round_ in range(len(todo) + 1):
            if not todo:
                break
            text, owner = _refused_header(tmp_path, target, todo)
            folder = tmp_path / f"refused-{target}-{n}-{round_}"
            folder.mkdir()
            status, output, first = _compile(context, text, folder)
            lines = _lines_with_errors(output, "tu" + context[2])
            hit = {todo[owner[line - first + 1]] for line in lines
                   if owner.get(line - first + 1, -1) >= 0}
            if not hit:
                assert status == 0, f"{context[0]} failed outside the probed words:\n{output[-3000:]}"
                break
            broken |= hit
            todo = [w for w in todo if w not in hit]
    return broken


@pytest.mark.slow
@pytest.mark.parametrize("target", ["c", "cuda", "opencl"])
def test_kept_names_compile_and_refused_names_break(tmp_path, target):
    kept = [w for w in UNIVERSE if problem(target, w, FIELD) is None]
    refused = [w for w in UNIVERSE if problem(target, w, FIELD) is not None]
    assert "blockDim" in kept and "threadIdx" in kept and "int" in refused
    header = _kept_header(tmp_path, target, kept)
    for n, context in enumerate(_contexts(target)):
        folder = tmp_path / f"kept-{n}"
        folder.mkdir()
        status, output, _ = _compile(context, header, folder)
        assert status == 0, f"{context[0]} rejects names the {target} target keeps:\n{output[-3000:]}"
    not_broken = set(refused) - _broken(tmp_path, target, refused)
    unexplained = sorted(not_broken - set(RESERVED_ONLY[target]))
    assert unexplained == [], (
        f"the {target} target refuses names no compiler of it rejects: {unexplained}")
    # Every exemption is still refused, and still compiles (else it is no exemption).
    assert sorted(RESERVED_ONLY[target]) == sorted(set(RESERVED_ONLY[target]) & not_broken)


def test_glsl_keeps_or_escapes_every_word_and_glslang_compiles_them(tmp_path):
    require_toolchain("glslang")
    kept = [w for w in UNIVERSE if problem("glsl", w, FIELD) is None]
    assert set(kept) == set(UNIVERSE)  # GLSL escapes what it reserves, and refuses nothing
    header = _kept_header(tmp_path, "glsl", kept)
    src = tmp_path / "kept.comp"
    src.write_text("#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : "
                   "require\n#extension GL_EXT_shader_16bit_storage : require\n"
                   + header + "\nvoid main() {}\n")
    proc = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o",
                           str(tmp_path / "kept.spv"), str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]


def test_wgsl_refuses_only_what_naga_rejects(tmp_path):
    require_toolchain("naga")
    from sarek_layout.verify.drivers.wgsl import validate_wgsl
    from sarek_layout.verify.drivers import ProbeFailed

    kept = [w for w in UNIVERSE if problem("wgsl", w, FIELD) is None]
    refused = [w for w in UNIVERSE if problem("wgsl", w, FIELD) is not None]
    assert refused == sorted(w for w in UNIVERSE if w == "_" or w.startswith("__"))
    validate_wgsl(_kept_header(tmp_path, "wgsl", kept))
    for w in refused:
        types = [{"record": "r", "fields": [["a", "int32"], ["zqzq0", "int32"]]}]
        (header,) = render_headers(_schema(tmp_path, f"w{len(w)}", types), ["wgsl"])
        with pytest.raises(ProbeFailed):
            validate_wgsl(re.sub(r"\bzqzq0\b", w, header.text))


def test_each_refusal_names_the_targets_it_breaks(tmp_path):
    schema = _schema(tmp_path, "named", [
        {"record": "r", "fields": [["kernel", "int32"], ["class", "int32"], ["blockDim", "int32"],
                                   ["__x", "int32"]]}])
    from sarek_layout.errors import SchemaError
    from sarek_layout.targets.names import check_names

    with pytest.raises(SchemaError) as caught:
        check_names(schema, ["c", "cuda", "opencl", "wgsl", "glsl", "rust", "zig"])
    lines = [e.message for e in caught.value.errors]
    assert lines == [
        "field name 'kernel' is a keyword or built-in type of OpenCL C (target opencl); choose "
        "another name",
        "field name 'class' is a keyword of C++ (targets c and cuda); choose another name",
        "field name '__x' is reserved for the implementation in C and C++ (leading '__' or '_' "
        "+ capital) (targets c, cuda and opencl); it starts with '__', which WGSL does not "
        "accept in a name (target wgsl); choose another name",
    ]
    check_names(schema, ["glsl", "rust", "zig"])  # kept (escaped) there
    assert spelling("metal", "kernel") == "kernel_"


def test_a_cuda_built_in_variable_is_a_member_name_every_target_emits(tmp_path, capsys):
    # Issue 30: `blockDim` (a CUDA built-in variable, no keyword) refused a WGSL-only schema.
    from sarek_layout.cli.main import main

    path = tmp_path / "grid.json"
    path.write_text(json.dumps({"module": "G", "types": [{"record": "launch", "fields": [
        ["blockDim", "int32"], ["threadIdx", "int32"], ["gridDim", "int32"], ["warpSize", "int32"]]}]}))
    assert main(["generate", str(path), "-o", str(tmp_path / "wgsl"), "-t", "wgsl"]) == 0
    assert main(["generate", str(path), "-o", str(tmp_path / "cuda"), "-t", "cuda"]) == 0
    tc = require_toolchain("nvcc")
    src = tmp_path / "cuda" / "use.cu"
    src.write_text('#include "grid.cuh"\n__global__ void k(G_launch *l) { l->blockDim = '
                   'blockDim.x; l->threadIdx = threadIdx.x; l->warpSize = warpSize; }\n')
    proc = subprocess.run([*tc.argv, str(src), "-o", str(tmp_path / "use.o")],
                          capture_output=True, text=True, cwd=src.parent, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_verify_renders_every_target_but_the_one_a_name_breaks(tmp_path):
    from sarek_layout.verify.run import rendered_headers

    schema = _schema(tmp_path, "k", [{"record": "r", "fields": [["kernel", "int32"]]}])
    out, refused = rendered_headers(schema, ["c", "cuda", "opencl", "metal", "wgsl"])
    assert set(refused) == {"opencl"} and set(out) == {"c", "cuda", "metal", "wgsl"}
    assert "(target opencl)" in refused["opencl"].message
    assert "kernel_;" in out["metal"].files[0][1]  # escaped there


def test_every_target_of_the_registry_has_rules():
    from sarek_layout.targets.registry import TARGETS

    assert set(name_rules.NAME_TARGETS) == set(TARGETS)
