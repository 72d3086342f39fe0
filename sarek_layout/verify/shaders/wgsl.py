"""WGSL shaders measured by running them: naga validates the shader, and a compute probe
added to it reads every member back from a buffer of known words on the adapter wgpu finds
(Mesa's lavapipe on a CPU), in a child process (``wgsl_child``) under ``tools.run_tool``'s
bounds.

WGSL has no ``#include``: the files given are concatenated in the order given (a file of
structs before the kernel that uses them, as ``generate -t wgsl`` writes them). The probe
appends, for each struct ``T`` measured, ``struct SarekShaderProbe<N> { a: u32, t: array<T,
2> }`` to one read-only storage buffer whose word ``i`` holds ``i + 1``, and an entry point
``sarek_shader_probe`` that writes, as words, the bits it reads: the first word of ``a``,
of ``t[0]`` and of ``t[1]`` (so ``T``'s array stride and its alignment), and of each member
its first and last word (its offset and, for scalars and vectors, its size), and for an
array member the first word of its second element (its stride). Nothing is computed from
the WGSL rules: every number is where the runtime found the bits. Members the bits cannot
place are left unmeasured: ``f16`` and ``atomic`` members, and every member of a struct
holding a ``bool`` (not host-shareable: naga refuses it in a buffer, which the comparison
explains).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from typing import Dict, List, Optional, Set, Tuple

from ..tools import child_boot, run_tool
from .check import Measured, MeasuredMember, Problem
from .language import ShadingLanguage
from .lexer import WGSL_LEXICON
from .reader import StructDecl

__all__ = ["measure_wgsl", "wgpu_problem", "BINDING", "MAX_PROBE_WORDS"]

TOOL = "naga + wgpu"
#: Bindings of the probe's two buffers (group 0), far from those shaders use.
BINDING = 998
#: The most input words one probe run may fill (64 MiB).
MAX_PROBE_WORDS = 16 << 20



class Wgsl(ShadingLanguage):
    name = "wgsl"
    suffixes = (".wgsl",)
    lexicon = WGSL_LEXICON
    toolchain, tool, short = "webgpu", "naga + wgpu", "wgpu"

    def missing(self):
        return wgpu_problem()


WGSL = Wgsl()

_VECTOR = re.compile(r"vec([234])(?:<(\w+)>|([fiuh]))\Z")
_MATRIX = re.compile(r"mat([234])x([234])(?:<(\w+)>|([fh]))\Z")
_ARRAY = re.compile(r"array<(.+?)(?:,(\w+))?>\Z")
_SCALARS = {"i32", "u32", "f32"}

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


class _Probe:
    """The probe shader's reads, one output word each."""

    def __init__(self, decls: Dict[str, StructDecl]) -> None:
        self.decls = decls
        self.lines: List[str] = []

    def read(self, expr: str) -> int:
        self.lines.append(f"    sarek_shader_out[{len(self.lines)}] = {expr};")
        return len(self.lines) - 1

    def word(self, expr: str, ty: str, last: bool = False, depth: int = 0) -> Optional[str]:
        """A ``u32`` expression of the first (or last) word of ``expr`` of type ``ty``."""
        if depth > 32:
            return None
        if ty in _SCALARS:
            return f"bitcast<u32>({expr})"
        v = _VECTOR.match(ty)
        if v:
            elem = v.group(2) or {"f": "f32", "i": "i32", "u": "u32", "h": "f16"}[v.group(3)]
            if elem not in _SCALARS:
                return None
            return f"bitcast<u32>({expr}[{int(v.group(1)) - 1 if last else 0}])"
        mt = _MATRIX.match(ty)
        if mt:
            if (mt.group(3) or "f32") not in ("f32", "f") or mt.group(4) == "h":
                return None
            c, r = int(mt.group(1)), int(mt.group(2))
            return f"bitcast<u32>({expr}[{c - 1 if last else 0}][{r - 1 if last else 0}])"
        a = _ARRAY.match(ty)
        if a:
            n = _length(a.group(2))
            if not n:
                return None
            return self.word(f"{expr}[{n - 1 if last else 0}]", a.group(1), last, depth + 1)
        d = self.decls.get(ty)
        if d is not None and d.members and not last:
            m = d.members[0]
            return self.word(f"{expr}.{m.name}", m.type, False, depth + 1)
        return None


def _length(text: Optional[str]) -> int:
    if not text:
        return 0
    try:
        return int(text.rstrip("uUi"), 0)
    except ValueError:
        return 0


def _bound(ty: str, decls: Dict[str, StructDecl], memo: Dict[str, int], depth: int = 0) -> int:
    """An upper bound of a type's size in bytes, from its spelling (-1: cannot be probed)."""
    if depth > 32:
        return -1
    if ty in _SCALARS or _VECTOR.match(ty) or ty in ("f16", "bool"):
        return 16
    mt = _MATRIX.match(ty)
    if mt:
        return 16 * int(mt.group(1))
    a = _ARRAY.match(ty)
    if a:
        n = _length(a.group(2))
        inner = _bound(a.group(1), decls, memo, depth + 1)
        return n * (inner + 16) if n and inner >= 0 else -1
    d = decls.get(ty)
    if d is None:
        return -1
    if ty not in memo:
        memo[ty] = -1  # a struct that contains itself cannot be probed
        parts = [_bound(m.type, decls, memo, depth + 1) for m in d.members]
        memo[ty] = -1 if any(p < 0 for p in parts) else 16 + sum(p + 16 for p in parts)
    return memo[ty]


def _has_bool(ty: str, decls: Dict[str, StructDecl], depth: int = 0) -> bool:
    if depth > 32:
        return False
    a = _ARRAY.match(ty)
    if a:
        return _has_bool(a.group(1), decls, depth + 1)
    d = decls.get(ty)
    if d is None:
        return ty == "bool"
    return any(_has_bool(m.type, decls, depth + 1) for m in d.members)


def measure_wgsl(shaders, decls: Dict[str, StructDecl], wanted: Set[str], folder: str
                 ) -> Tuple[Dict[str, Measured], List[Problem], List[str]]:
    given = shaders.given
    user = "".join(f.text if f.text.endswith("\n") else f.text + "\n" for f in given)
    starts: List[Tuple[int, object]] = []
    line = 1
    for f in given:
        starts.append((line, f))
        line += f.text.count("\n") + (0 if f.text.endswith("\n") else 1)
    structs = {n: d for n, d in decls.items() if d.kind == "struct"}
    todo: Dict[str, None] = {}
    memo: Dict[str, int] = {}
    stack = sorted(wanted)
    while stack:  # the wanted structs and those they contain: their sizes are needed
        t = stack.pop(0)
        if t in todo or t not in structs or _has_bool(t, structs) or _bound(t, structs, memo) < 0:
            continue
        todo[t] = None
        stack += [_ARRAY.sub(r"\1", m.type) for m in structs[t].members]
    words = sum(2 * _bound(t, structs, memo) // 4 + 8 for t in todo)
    failures: List[str] = []
    if words > MAX_PROBE_WORDS:
        failures.append(f"{given[0].shown}: {TOOL}: the structs are too large to probe "
                        f"(more than {MAX_PROBE_WORDS * 4 >> 20} MiB)")
        todo = {}
    probe = _Probe(structs)
    reads: Dict[str, dict] = {}
    for i, t in enumerate(todo):
        base = f"sarek_shader_in.p{i}"
        first = probe.word(f"{base}.t[0]", t)
        second = probe.word(f"{base}.t[1]", t)
        if first is None or second is None:
            continue
        r: dict = {"a": probe.read(f"{base}.a"), "t0": probe.read(first),
                   "t1": probe.read(second), "members": {}}
        for m in structs[t].members:
            expr = f"{base}.t[0].{m.name}"
            f_ = probe.word(expr, m.type)
            if f_ is None:
                continue
            entry: dict = {"first": probe.read(f_)}
            last = probe.word(expr, m.type, last=True)
            if last is not None and not _ARRAY.match(m.type):
                entry["last"] = probe.read(last)
            a = _ARRAY.match(m.type)
            if a and _length(a.group(2)) > 1:
                s = probe.word(f"{expr}[1]", a.group(1))
                if s is not None:
                    entry["second"] = probe.read(s)
                    entry["n"] = _length(a.group(2))
            entry["type"] = m.type
            r["members"][m.name] = entry
        reads[t] = r
    source = ""
    if reads:
        names = list(todo)
        source = user + "\n" + "".join(
            f"struct SarekShaderProbe{i} {{ a: u32, t: array<{t}, 2>, }}\n"
            for i, t in enumerate(names))
        source += "struct SarekShaderIn {\n" + "".join(
            f"    p{i}: SarekShaderProbe{i},\n" for i in range(len(names))) + "}\n"
        source += (f"@group(0) @binding({BINDING}) var<storage, read> sarek_shader_in: "
                   f"SarekShaderIn;\n@group(0) @binding({BINDING + 1}) var<storage, read_write> "
                   f"sarek_shader_out: array<u32>;\n@compute @workgroup_size(1)\n"
                   f"fn sarek_shader_probe() {{\n" + "\n".join(probe.lines) + "\n}\n")
    answer, problem = _run_child({"user": user, "probe": source, "words": words,
                                  "count": len(probe.lines), "binding": BINDING}, folder)
    if problem is not None:
        return {}, [], failures + [f"{given[0].shown}: {TOOL}: {problem}"]
    if not answer.get("ok"):
        log = _readable(answer.get("log", ""), starts)
        stage = {"user": "naga refuses the shader", "probe": "the probe shader failed",
                 "device": "no WebGPU device"}.get(str(answer.get("stage")), "failed")
        return {}, [], failures + [f"{given[0].shown}: {TOOL}: {stage}: {log}"]
    values = answer["values"]
    measured: Dict[str, Measured] = {}
    for t, r in reads.items():
        t0 = values[r["t0"]]
        got = Measured(4 * (values[r["t1"]] - t0), 4 * (t0 - values[r["a"]]))
        for name, e in r["members"].items():
            offset = 4 * (values[e["first"]] - t0)
            size = None
            if "last" in e:
                size = 4 * (values[e["last"]] - values[e["first"]] + 1)
                if e["type"] in structs:
                    size = None
            if "second" in e:
                size = 4 * (values[e["second"]] - values[e["first"]]) * e["n"]
            got.members[name] = MeasuredMember(offset, size)
        measured[t] = got
    for t in reads:  # a struct member's size is that struct's array stride
        for name, mm in list(measured[t].members.items()):
            ty = reads[t]["members"][name]["type"]
            if ty in measured and mm.size is None:
                measured[t].members[name] = MeasuredMember(mm.offset, measured[ty].size)
    for t in wanted:
        measured.setdefault(t, Measured(None, None))  # spellings still compared
    return measured, [], failures


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
