"""WGSL: the language object, and its shaders measured by asking naga and running them.

naga validates the shader; naga's type checker says each member's type (``wgsl_probe``:
the type checks), and a compute probe added to the shader reads every member back from a
buffer of known words on the adapter wgpu finds (Mesa's lavapipe on a CPU). Both run in a
child process (``wgsl_child``) under ``tools.run_tool``'s bounds; usually one run does both,
a second runs the probe when a member's type was not the one its text spells. Nothing is
computed from the WGSL rules: every type is naga's, every number where the runtime found the
bits.

WGSL has no ``#include``: the files given are concatenated in the order given (a file of
structs before the kernel that uses them, as ``generate -t wgsl`` writes them).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from typing import Dict, List, Optional, Tuple

from ...targets.naming import PACKED_PREFIX, VALUE_PARAM
from ..tools import child_boot, run_tool
from .check import Problem
from .language import ShadingLanguage
from .lexer import WGSL_LEXICON
from .reader import StructDecl, used_structs
from .types import BOOL, CompiledMember, CompiledStruct, GpuType, bound
from .wgsl_probe import (BINDING, MAX_PROBE_WORDS, Probe, has_bool, probe_source, revealed,
                         type_checks)

__all__ = ["WGSL", "Wgsl", "measure_wgsl", "wgpu_problem", "BINDING", "MAX_PROBE_WORDS"]

TOOL = "naga + wgpu"

_SCALARS = {"i32": GpuType("int", 32), "u32": GpuType("uint", 32), "f32": GpuType("float", 32),
            "f16": GpuType("float", 16), BOOL: GpuType(BOOL, 32),
            # naga's extensions (wgpu's shader-f64 and shader-int64 features)
            "f64": GpuType("float", 64), "i64": GpuType("int", 64), "u64": GpuType("uint", 64)}
_SHORT = {"i": "i32", "u": "u32", "f": "f32", "h": "f16"}
_VECTOR = re.compile(r"vec([234])(?:<(\w+)>|([fiuh]))\Z")
_MATRIX = re.compile(r"mat([234])x([234])(?:<(\w+)>|([fh]))\Z")
_ARRAY = re.compile(r"array<(.+?)(?:,(\w+))?>\Z")
_ATOMIC = re.compile(r"atomic<(\w+)>\Z")
_NAMES = {t: n for n, t in _SCALARS.items()}
_ACCESSOR = re.compile(rf"^fn\s+(\w+)\({VALUE_PARAM}:\s*(\w+)\)\s*->\s*([\w<>, ]+?)\s*\{{", re.M)

#: The helper's module file, run by its path (``tools.child_boot``: no package import).
_CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wgsl_child.py")


def wgpu_problem() -> Optional[str]:
    import importlib.util

    try:
        if importlib.util.find_spec("wgpu") is not None:
            return None
    except (ImportError, ValueError):
        pass
    return ("Python module wgpu not found; pip install wgpu (and apt-get install -y "
            "mesa-vulkan-drivers for a CPU adapter)")


def _length(text: Optional[str]) -> int:
    if not text:
        return 0
    try:
        return int(text.rstrip("uUi"), 0)
    except ValueError:
        return 0


class Wgsl(ShadingLanguage):
    name = "wgsl"
    title = "WGSL"
    suffixes = (".wgsl",)
    lexicon = WGSL_LEXICON
    member_syntax = "wgsl"
    toolchain, tool, short = "webgpu", TOOL, "wgpu"
    bool_why = "bool is not host-shareable in WGSL: naga refuses it in a buffer"
    float64_note = ("(WGSL has no 64-bit float: keep its raw words, low word first, as "
                    "`generate -t wgsl` does)")
    atomics = True

    def missing(self) -> Optional[str]:
        return wgpu_problem()

    def parse(self, spelling: str) -> Optional[GpuType]:
        spelling = "".join(spelling.split())
        if spelling in _SCALARS:
            return _SCALARS[spelling]
        v = _VECTOR.match(spelling)
        if v:
            elem = self.parse(v.group(2) or _SHORT[v.group(3)])
            return None if elem is None else GpuType("vector", count=int(v.group(1)), elem=elem)
        mt = _MATRIX.match(spelling)
        if mt:
            elem = self.parse(mt.group(3) or _SHORT.get(mt.group(4) or "f", "f32"))
            column = GpuType("vector", count=int(mt.group(2)), elem=elem)
            return None if elem is None else GpuType("matrix", count=int(mt.group(1)),
                                                     elem=column)
        at = _ATOMIC.match(spelling)
        if at:
            elem = self.parse(at.group(1))
            return None if elem is None else GpuType("atomic", elem=elem)
        a = _ARRAY.match(spelling)
        if a and a.group(2) is not None:
            elem = self.parse(a.group(1))
            return None if elem is None else GpuType("array", count=_length(a.group(2)), elem=elem)
        return None

    def spell(self, t: GpuType) -> str:
        if t.is_scalar:
            return _NAMES.get(t, f"{t.kind}{t.bits}")
        elem = t.elem
        if t.kind == "vector" and elem is not None:
            return f"vec{t.count}<{self.spell(elem)}>"
        if t.kind == "matrix" and elem is not None and elem.elem is not None:
            return f"mat{t.count}x{elem.count}<{self.spell(elem.elem)}>"
        if t.kind == "atomic" and elem is not None:
            return f"atomic<{self.spell(elem)}>"
        if t.kind == "array" and elem is not None:
            return f"array<{self.spell(elem)}, {t.count}>" if t.count else f"array<{self.spell(elem)}>"
        return t.name or t.kind

    def write(self, type_: str, name: str) -> str:
        return f"{name}: {type_},"

    def type_of(self, spelling: str, structs) -> GpuType:
        spelling = "".join(spelling.split())
        a = _ARRAY.match(spelling)
        if a and a.group(2) is not None and self.parse(spelling) is None:
            return GpuType("array", count=_length(a.group(2)),
                           elem=self.type_of(a.group(1), structs))
        return self.parse(spelling) or GpuType("struct" if spelling in structs else "other",
                                               name=spelling)

    def element(self, m) -> Tuple[str, int]:
        a = _ARRAY.match(m.type)
        return (a.group(1), _length(a.group(2))) if a and a.group(2) else (m.type, 0)

    def vectors(self, n: int, is_float) -> Tuple[str, ...]:
        if is_float is None:
            return ()
        return (f"vec{n}<{'f32' if is_float else 'i32'}>", f"vec{n}{'f' if is_float else 'i'}")

    def no_member_type(self, m) -> str:
        return (f"WGSL has no {m.size}-byte member type; keep it in a 32-bit word with its "
                f"neighbours ({PACKED_PREFIX}<N>), as `generate -t wgsl` does")

    def vec3_fix(self, what: str) -> str:
        return (f"{what}: WGSL aligns vec3 to 16 bytes, where the schema's 3 scalars are "
                f"aligned to 4: write three scalars (or a struct of them)")

    def measure(self, shaders, decls, wanted, folder, rules=None):
        from ...codegen.shader_kinds import uniform_stride

        compiled, problems, failures = measure_wgsl(shaders, decls, wanted, folder)
        # A struct of WGSL's uniform rules is for a var<uniform>, where naga places a struct
        # member at a multiple of 16 or refuses the shader (the runtime probe, webgpu, reads
        # generated structs there): its alignment there is naga's rounded up to 16.
        for name, r in (rules or {}).items():
            got, least = compiled.get(name), uniform_stride(self.dialect, r)
            if got is not None and got.align is not None and got.align < least:
                got.align = least
        return compiled, problems, failures

    # --- the runtime probe of generated files ---------------------------------------------
    word, pair, quad, output = "u32", "vec2<u32>", "vec4<u32>", "sarek_out"
    #: The input buffers: storage (WGSL lays every struct out by its own rules) and, for the
    #: types of WGSL's uniform rules, a ``var<uniform>`` (binding 2), where naga checks the
    #: uniform address space's constraints on every struct it holds.
    inputs = {"std430": "sarek_in", "uniform": "sarek_uin"}
    scalar_bits = {"i32": "vec2<u32>(bitcast<u32>(_sarek_x))", "u32": "vec2<u32>(_sarek_x)",
                   "f32": "vec2<u32>(bitcast<u32>(_sarek_x))", "vec2<u32>": "_sarek_x"}
    scalar_size = {"i32": 4, "u32": 4, "f32": 4, "vec2<u32>": 8}
    small_bits = {"u32": "_sarek_x", "f32": "pack2x16float(vec2<f32>(_sarek_x, 0.0))",
                  "i32": "bitcast<u32>(_sarek_x)"}

    def function(self, ret, name, params, body):
        return (f"fn {name}({', '.join(f'{n}: {t}' for n, t in params)}) -> {ret} "
                f"{{ {body} }}\n")

    def local(self, name, type_, expr, mutable=False):
        return f"{'var' if mutable else 'let'} {name} = {expr};"

    def loop(self, n, body):
        return f"for (var j = 0u; j < {n}u; j++) {{ {body} }}"

    def accessors(self, text):
        return {m.group(1): m.group(3) for m in _ACCESSOR.finditer(text)}

    def runtime_probe(self, headers, types, functions, outputs):
        # WGSL has no #include: the files are concatenated in the order given.
        # In the uniform space an array or a struct member starts at a multiple of 16, which
        # @align(16) says (naga refuses the shader otherwise): the alignment read there is
        # the space's, the offsets, sizes and strides are the generated structs' own.
        parts = [text + "\n" for _, text in headers.files]
        parts += [f"struct SarekProbe{i} {{ a: u32, {_pin(lay)}t: array<{t}, 2>, z: u32, }}\n"
                  for t, (i, lay) in types.items()]
        for binding, layout, space in ((0, "std430", "storage, read"), (2, "uniform", "uniform")):
            mine = [i for i, lay in types.values() if lay == layout]
            if not mine and binding:
                continue
            name = self.inputs[layout]
            parts.append(f"struct {name.title()} {{\n")
            parts += [f"    {_pin(layout)}p{i}: SarekProbe{i},\n" for i in mine] or \
                ["    sarek_none: u32,\n"]
            parts.append(f"}}\n@group(0) @binding({binding}) var<{space}> {name}: "
                         f"{name.title()};\n")
        parts.append("@group(0) @binding(1) var<storage, read_write> sarek_out: array<u32>;\n")
        parts += [functions, "@compute @workgroup_size(1)\nfn main() {\n"]
        if not any(lay == "std430" for _, lay in types.values()):
            # wgpu's automatic layout drops an unused binding; binding 0 is always bound.
            parts.append("    _ = sarek_in.sarek_none;\n")
        parts += [f"    {line}\n" for line in outputs]
        return "".join(parts + ["}\n"])


WGSL = Wgsl()


def _pin(layout: str) -> str:
    """What places a probe's array and struct members in ``layout``'s input buffer."""
    return "@align(16) " if layout == "uniform" else ""


def _types(checks, answers, structs) -> Dict[str, Dict[str, GpuType]]:
    """struct -> member -> the type naga built (a guess that held, or the type it named)."""
    out: Dict[str, Dict[str, GpuType]] = {}
    for c, a in zip(checks, answers):
        if a == "dropped":
            continue
        t = c.guess if a == "guess" else revealed(WGSL, a.get("log", ""), structs)
        out.setdefault(c.struct, {})[c.member] = t
    return out


def _probe(types: Dict[str, Dict[str, GpuType]]) -> Tuple[Probe, List[str], int]:
    """The probe of every struct a buffer can hold, and its input words."""
    probe = Probe(types)
    memo: Dict[str, int] = {}
    names = [t for t in types if not has_bool(GpuType("struct", name=t), types)
             and bound(GpuType("struct", name=t), types, memo) >= 0]
    for i, t in enumerate(names):
        probe.struct(i, t)
    words = sum(2 * bound(GpuType("struct", name=t), types, memo) // 4 + 8 for t in names)
    return probe, names, words


def measure_wgsl(shaders, decls: Dict[str, StructDecl], wanted, folder: str
                 ) -> Tuple[Dict[str, CompiledStruct], List[Problem], List[str]]:
    given = shaders.given
    user = "".join(f.text if f.text.endswith("\n") else f.text + "\n" for f in given)
    starts, line = [], 1
    for f in given:
        starts.append((line, f))
        line += f.text.count("\n") + (0 if f.text.endswith("\n") else 1)
    structs = {n: d for n, d in decls.items() if d.kind == "struct"}
    todo = used_structs(structs, sorted(wanted))
    decl_lines, checks = type_checks(structs, todo, WGSL)
    guessed = {c.struct: {} for c in checks}
    for c in checks:
        guessed[c.struct][c.member] = c.guess or GpuType("other")
    probe, names, words = _probe(guessed)
    first = f"{given[0].shown}: {TOOL}"
    if words > MAX_PROBE_WORDS:
        return {}, [], [f"{first}: the structs are too large to probe (more than "
                        f"{MAX_PROBE_WORDS * 4 >> 20} MiB)"]
    request = {"user": user, "decls": decl_lines,
               "checks": [[c.guess_stmt, c.reveal_stmt] for c in checks],
               "owner": [1 + todo.index(c.struct) for c in checks],
               "probe": probe_source(user, names, probe) if probe.lines else "",
               "words": words, "count": len(probe.lines), "binding": BINDING}
    answer, problem = _run_child(request, folder)
    if problem is None and answer.get("ok") and answer.get("values") is None and checks:
        # A type was not the one its text spells: the probe again, with the types naga named.
        probe, answer, problem = _probe_again(user, _types(checks, answer["checks"], structs),
                                              answer, folder)
    if problem is not None:
        return {}, [], [f"{first}: {problem}"]
    if not answer.get("ok") and answer.get("stage") != "probe":
        return {}, [], [f"{first}: {_stage(answer)}: {_readable(answer.get('log', ''), starts)}"]
    types = _types(checks, answer.get("checks") or ["guess"] * len(checks), structs)
    failures = [] if answer.get("ok") else [f"{first}: {_stage(answer)}: "
                                            f"{_readable(answer.get('log', ''), starts)}"]
    return _decode(types, probe, answer.get("values")), [], failures


def _probe_again(user: str, types, answer: dict, folder: str
                 ) -> Tuple[Probe, dict, Optional[str]]:
    probe, names, words = _probe(types)
    if not probe.lines or words > MAX_PROBE_WORDS:
        return probe, answer, None
    again, problem = _run_child({"user": user, "decls": [], "checks": [],
                                 "probe": probe_source(user, names, probe), "words": words,
                                 "count": len(probe.lines), "binding": BINDING}, folder)
    return probe, {**again, "checks": answer["checks"]}, problem


def _stage(answer: dict) -> str:
    return {"user": "naga refuses the shader", "probe": "the probe shader failed",
            "checks": "the type checks failed",
            "device": "no WebGPU device"}.get(str(answer.get("stage")), "failed")


def _decode(types: Dict[str, Dict[str, GpuType]], probe: Probe, values) -> Dict[str, CompiledStruct]:
    """The compiled structs: naga's types, and where the probe found each member's bits."""
    out: Dict[str, CompiledStruct] = {}
    for t, members in types.items():
        got = CompiledStruct(t, [CompiledMember(n, mt) for n, mt in members.items()])
        r = probe.reads.get(t)
        if values is not None and r is not None:
            t0 = values[r["t0"]]
            got.size, got.align = 4 * (values[r["t1"]] - t0), 4 * (t0 - values[r["a"]])
            for cm in got.members:
                e = r["members"].get(cm.name)
                if e is None:
                    continue
                cm.offset = 4 * (values[e["first"]] - t0)
                if "last" in e and _words_dense(e["type"]):
                    cm.size = 4 * (values[e["last"]] - values[e["first"]] + 1)
                if "second" in e:
                    cm.size = 4 * (values[e["second"]] - values[e["first"]]) * e["n"]
                cm.levels = tuple(
                    (n, size if size is not None else
                     4 * (values[b] - values[a]) if a is not None and b is not None else None)
                    for n, a, b, size in e.get("levels", ()))
        out[t] = got
    for got in out.values():  # a struct member's size is that struct's array stride
        for cm in got.members:
            if cm.type.kind == "struct" and cm.size is None and cm.type.name in out:
                cm.size = out[cm.type.name].size
    return out


def _words_dense(t: GpuType) -> bool:
    """Whether ``t``'s words follow one another from its first to its last (a 32-bit scalar,
    a vector, an array of them with no gap between elements): its size is then last - first
    + 1 words. A struct's or a padded array's size is its stride (``second``) instead."""
    if t.kind == "array":
        return t.elem is not None and t.elem.is_scalar and t.elem.bits == 32
    return t.kind != "struct"


def _readable(log: str, starts) -> str:
    """naga's diagnostic in one line: its place (``┌─ wgsl:LINE:COL``, the line of the files
    concatenated) as the user's ``FILE:LINE:COL``, its message without the source excerpt and
    wgpu's preamble, and why when it is the uniform address space's std140-like rules."""
    def place(line: int, col: str) -> str:
        first, f = starts[0]
        for s, g in starts:
            if s <= line:
                first, f = s, g
        return f"{f.shown}:{line - first + 1}:{col}"  # type: ignore[attr-defined]

    where = ""
    words = []
    for raw in log.splitlines():
        ln = raw.strip()
        m = re.match(r"┌─\s*[^:\s]*:(\d+):(\d+)", ln)
        if m:
            where = where or place(int(m.group(1)), m.group(2))
            continue
        if (not ln or "│" in ln or ln.startswith(("Validation Error", "Caused by", "In wgpu"))
                or set(ln) <= set("|^~-─= ")):
            continue
        ln = re.sub(r"^(?:=\s*|Shader (?:'[^']*' )?(?:validation|parsing) error:\s*)", "", ln)
        if ln and ln not in words:
            words.append(ln)
    text = ": ".join(words[:4])[:500]
    if "BINDING_ARRAY" in log:
        text += (" (naga validates a binding_array only on a device with wgpu's "
                 "texture-binding-array feature, which this adapter does not have: verify "
                 "cannot check this shader here)")
    if "address space Uniform" in log:
        text += (" (a uniform buffer rounds array strides and struct alignments up to 16 bytes, "
                 "as GLSL's std140 does, where the schema needs the C layout: declare it "
                 "var<storage, read>)")
    return f"{where}: {text}" if where else text


def _run_child(request: dict, folder: str) -> Tuple[dict, Optional[str]]:
    env = dict(os.environ)
    if not env.get("XDG_RUNTIME_DIR"):  # wgpu-native warns on every start without it
        path = os.path.join(tempfile.gettempdir(), f"sarek-xdg-{os.getuid()}")
        os.makedirs(path, mode=0o700, exist_ok=True)
        env["XDG_RUNTIME_DIR"] = path
    argv = [sys.executable, "-c", child_boot(_CHILD)]
    run = run_tool(argv, cwd=folder, stdin_data=json.dumps(request).encode(), env=env,
                   label="the wgsl helper process")
    if run.problem is not None:
        return {}, run.problem
    try:
        return json.loads(run.stdout), None
    except ValueError:
        tail = run.stderr.strip().splitlines()[-3:]
        return {}, (f"the wgsl helper process exited with status {run.returncode}: "
                    + " ".join(tail))[:600]
