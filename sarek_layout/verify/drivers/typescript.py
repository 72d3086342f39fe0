"""typescript: the generated TypeScript modules, type-checked by tsc and measured by what they
write when Node runs them.

One ``tsc --strict --noEmitOnError`` compiles every module (ES2020, ES modules): a type error
is a failed compile, as for every compiler here. Then ``node typescript_probe.mjs`` imports the
compiled modules and encodes, for each probed type, one value (one per constructor of a
variant) in which every scalar holds a marker: a byte pattern of its width that occurs nowhere
else (1-byte markers are 0x20-0x7e; wider ones start with bytes 0x80-0xbf and have a byte of
their width's own class, 0xc0-0xcf, 0xd0 or 0xd8, so that no aligned part of one marker is
another; a float marker is a normal number). A bool or an enum member is encoded a second
time with another value instead, and the first byte that changed is where it lies. The
program reads no layout: values are built from each companion's ``FIELDS``/``CTORS`` (names,
kinds, array counts), and Python finds each marker in the bytes.

From those bytes each probe gets its number: a member's offset is where its first scalar
landed (elements 0 of every array level; a record's first field is at its offset 0); a
scalar's size is its marker's width, a vector's the span of its components; an array
level's stride is where element 1 of that level landed, less element 0; a variant's ``tag``
offset is the one place where every constructor's value holds its tag. What an encoder
cannot show is not measured (``None``: not compared): alignment (TypeScript has none), the
size of a nested record or of a whole array (its padding holds nothing), a unit's place, the
stride of a level of one element, a variant's union and a struct of a constructor's
arguments (TypeScript has neither: each argument's offset is measured, and where the union
starts is no byte an encoder writes when the rules put every argument past it, as
hlsl-cbuffer's registers do). A value found nowhere is ``-1`` (it disagrees); one whose
pattern is found twice is not measured. A type over ``VALUE_LIMIT`` bytes is not encoded.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from typing import Dict, List, Optional, Sequence, Tuple

from ...codegen.typescript_view import ts_ident
from ...targets.naming import ctor_of_arm
from ..headers import HEADERS_DIR, CompileFolder
from ..probes import MEMBER_SIZE, OFFSET, SIZE, STRIDE, Probe
from ..tools import run_tool
from . import Driver, HeaderSet, Measurement, ProbeFailed, tool_failure

__all__ = ["TypeScriptDriver", "typescript_programs", "measurements", "TSC_FLAGS", "VALUE_LIMIT",
           "INSTALL", "node_modules_path", "SWIFTSHADER_ICD"]

INSTALL = "npm install typescript (tsc on PATH or in ./node_modules/.bin) and Node.js"

#: How the modules are compiled: what docs/typescript.md promises them.
TSC_FLAGS = ("--strict", "--noEmitOnError", "--target", "es2020", "--module", "es2020",
             "--moduleResolution", "bundler", "--skipLibCheck")

#: Types larger than this are not encoded (their probes are not measured): a value of a
#: ``float32[100000000]`` member is an array of 10^8 numbers in Node.
VALUE_LIMIT = 16 << 20

_PROBE_PROGRAM = "typescript_probe.mjs"
_OUT = "js"


#: Chromium's Vulkan driver on a CPU (Debian's chromium package): where Dawn for Node (npm
#: ``webgpu``) finds an adapter here. It finds none on Debian 12's lavapipe, which lacks
#: ``shaderUniform*ArrayDynamicIndexing`` (the e2e example and the tests point it there).
SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json"


def node_modules_path(*parts: str, start: Optional[str] = None) -> Optional[str]:
    """``node_modules/<parts>`` in ``start`` (the working folder) or the nearest parent that
    has it, as npx and Node look: the path, or ``None``."""
    folder = os.path.abspath(start or os.getcwd())
    while True:
        candidate = os.path.join(folder, "node_modules", *parts)
        if os.path.exists(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _find_tsc() -> Optional[str]:
    found = shutil.which("tsc")
    if found:
        return found
    candidate = node_modules_path(".bin", "tsc")
    return candidate if candidate and os.access(candidate, os.X_OK) else None


@functools.lru_cache(maxsize=None)
def typescript_programs() -> Tuple[Optional[str], Optional[str]]:
    """``(tsc, node)``: the programs found, or ``None`` for each missing one."""
    return _find_tsc(), shutil.which("node")


def _probe_source() -> str:
    from importlib import resources

    return resources.files(__package__).joinpath(_PROBE_PROGRAM).read_text(encoding="utf-8")


# --- from the bytes to the probes' numbers ---------------------------------------------------


class _Encoding:
    """One encoded value: its bytes and, per scalar path in build order, where it landed and
    how wide its marker is (``None`` where it cannot be seen). Linear in the value: each
    width's aligned windows are indexed once, and paths are grouped by their member."""

    def __init__(self, answer: dict) -> None:
        self.data = bytes.fromhex(answer["bytes"])
        self.order: List[str] = []
        self.at: Dict[str, Tuple[Optional[int], Optional[int]]] = {}
        self.groups: Dict[str, List[str]] = {}
        self._windows: Dict[int, Dict[bytes, List[int]]] = {}
        for leaf in answer["leaves"]:
            path, how = leaf[0], leaf[1]
            if how == "mark":
                marker = bytes.fromhex(leaf[2])
                place: Tuple[Optional[int], Optional[int]] = (self._position(marker),
                                                              len(marker))
            elif how == "at":
                place = (leaf[2], None)
            else:
                place = (None, None)
            self.order.append(path)
            self.at[path] = place
            self.groups.setdefault(_member_of(path), []).append(path)

    def _position(self, marker: bytes) -> Optional[int]:
        """Where ``marker`` is, at a multiple of its width: the one place, ``-1`` when
        nowhere, ``None`` when in several."""
        width = len(marker)
        windows = self._windows.get(width)
        if windows is None:
            windows = self._windows[width] = {}
            data = self.data
            for p in range(0, len(data) - width + 1, width):
                windows.setdefault(data[p:p + width], []).append(p)
        found = windows.get(marker, ())
        if not found:
            return -1
        return found[0] if len(found) == 1 else None

    def under(self, prefix: str) -> List[str]:
        """The scalar paths at or below ``prefix`` (``.pos``, ``Circle._0``), in build order."""
        return [p for p in self.groups.get(_member_of(prefix), ())
                if p == prefix or p.startswith((prefix + ".", prefix + "["))]

    def first(self, prefix: str) -> Optional[int]:
        """Where the first scalar at or below ``prefix`` landed (its first element's)."""
        paths = self.under(prefix)
        return self.at[paths[0]][0] if paths else None

    def size(self, prefix: str) -> Optional[int]:
        """The bytes a scalar's marker covers, or the span of a vector's components (each
        ``prefix[i]``); ``None`` for anything else (a record, whose padding holds nothing)."""
        paths = self.under(prefix)
        depth = prefix.count("[") + 1
        if paths != [prefix] and not (paths and all(
                p[len(prefix)] == "[" and p.count("[") == depth and "." not in p[len(prefix):]
                for p in paths)):
            return None
        places = [self.at[p] for p in paths]
        if any(at is None or at < 0 or width is None for at, width in places):
            return None
        return places[-1][0] + places[-1][1] - places[0][0]  # type: ignore[operator]


def _member_of(path: str) -> str:
    """The top-level member a value path is in: ``.pos`` of ``.pos.x``, ``Circle._0`` of
    ``Circle._0[1].x``."""
    cut = len(path)
    for ch in ".[":
        at = path.find(ch, 1 if path.startswith(".") else path.find(".") + 1)
        if at > 0:
            cut = min(cut, at)
    return path[:cut]


def _tag_offset(encodings: Sequence[_Encoding]) -> Optional[int]:
    """The one 4-byte-aligned place where every constructor's bytes hold its tag."""
    if len(encodings) < 2:
        return None
    size = min(len(e.data) for e in encodings)
    found = [p for p in range(0, size - 3, 4)
             if all(e.data[p:p + 4] == k.to_bytes(4, "little", signed=True)
                    for k, e in enumerate(encodings))]
    if not found:
        return -1
    return found[0] if len(found) == 1 else None


def _place(member: str, variant: bool) -> Tuple[Optional[str], str, Optional[int]]:
    """``(value path, what, level)`` of a probe's member: the path of the value it reads in
    the encodings (``.mass``, ``Circle._0``; for a variant the constructor picks the
    encoding), ``tag``/``data``/``member``, and an array level's index for a stride."""
    head, bracket, _ = member.partition("[")
    level = member.count("[") - 1 if bracket else None
    if not variant:
        return f".{head}", "member", level
    parts = head.split(".")
    if parts == ["tag"]:
        return None, "tag", None
    if parts == ["data"]:
        return None, "data", None
    ctor = ctor_of_arm(parts[1]) or parts[1]
    arg = parts[2] if len(parts) > 2 else "_0"  # a one-argument arm is its argument
    return f"{ctor}.{arg}", "member", level


class _Answer:
    """What Node said of one type: its encodings (one, or one per constructor)."""

    def __init__(self, answer: Optional[dict]) -> None:
        self.encodings = [_Encoding(a) for a in (answer or {}).get("encodings", ())]
        self.variant = bool((answer or {}).get("variant"))

    def encoding_of(self, path: str) -> Optional[_Encoding]:
        for e in self.encodings:
            if e.under(path):
                return e
        return None

    def measured(self, probe: Probe, arrays: frozenset, struct_arms: frozenset
                 ) -> Optional[int]:
        """The number ``probe`` asks for (``None``: not seen); ``arrays`` are the members
        with array levels (their size is not seen), ``struct_arms`` the arms that are a
        struct of arguments (``data.Circle_v`` of ``data.Circle_v._0``…: no place of their
        own in an encoding, whose arguments are each measured)."""
        if not self.encodings:
            return None
        if probe.quantity == SIZE:
            return len(self.encodings[0].data)
        if not probe.member:  # the alignment: TypeScript has none to measure
            return None
        path, what, level = _place(probe.member, self.variant)
        if what == "tag":
            return _tag_offset(self.encodings) if probe.quantity == OFFSET else None
        if what == "data" or (probe.c_type, probe.member) in struct_arms:
            return None  # a union, a struct of arguments: TypeScript has neither
        e = self.encoding_of(path) if self.variant else self.encodings[0]  # type: ignore[arg-type]
        if e is None or path is None:
            return None
        if probe.quantity == OFFSET:
            return e.first(path)
        if probe.quantity == MEMBER_SIZE:
            return None if (probe.c_type, probe.member) in arrays else e.size(path)
        if probe.quantity == STRIDE and level is not None:
            prefix = path + "[0]" * level
            start, second = e.first(prefix + "[0]"), e.first(prefix + "[1]")
            if start is None or second is None:
                return None
            return -1 if start < 0 or second < 0 else second - start
        return None


def measurements(probes: Sequence[Probe], answers: Dict[str, Optional[dict]]
                 ) -> Tuple[Optional[int], ...]:
    """Each probe's number from Node's answers (by the types' identifiers)."""
    parsed: Dict[str, _Answer] = {}
    arrays = frozenset((p.c_type, p.member.partition("[")[0]) for p in probes
                       if p.quantity == STRIDE)
    struct_arms = frozenset((p.c_type, ".".join(parts[:2])) for p in probes
                            for parts in [p.member.partition("[")[0].split(".")]
                            if len(parts) > 2 and parts[0] == "data")
    out = []
    for p in probes:
        answer = parsed.get(p.c_type)
        if answer is None:
            answer = parsed[p.c_type] = _Answer(answers.get(ts_ident(p.c_type)))
        out.append(answer.measured(p, arrays, struct_arms))
    return tuple(out)


class TypeScriptDriver(Driver):
    """tsc, then Node; see the module docstring."""

    subprocess_only = True  # run_tool only (Driver.subprocess_only)
    estimate_s = 2.5

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        import time

        start = time.perf_counter()
        tc = self.toolchain
        tsc, node = typescript_programs()
        if tsc is None or node is None:  # detect said so before; a vanished install
            raise ProbeFailed(tc.display, f"tsc or node not found; {INSTALL}", final=True)
        names = [name for name, _ in headers.files]
        types = list(dict.fromkeys(p.c_type for p in probes))
        with CompileFolder(headers, "sarek-verify-typescript-") as folder:
            run = run_tool([tsc, *TSC_FLAGS, "--outDir", _OUT, "--rootDir", HEADERS_DIR,
                            *(folder.header(n) for n in names)], cwd=folder.path, label="tsc")
            if not run.ok:
                raise tool_failure(tc.display, folder, run)
            with open(folder.absolute(_PROBE_PROGRAM), "w", encoding="utf-8") as f:
                f.write(_probe_source())
            jobs = {"modules": [folder.absolute(os.path.join(_OUT, os.path.splitext(n)[0] + ".js"))
                                for n in names],
                    "types": [ts_ident(t) for t in types], "limit": VALUE_LIMIT}
            with open(folder.absolute("jobs.json"), "w", encoding="utf-8") as f:
                json.dump(jobs, f)
            run = run_tool([node, _PROBE_PROGRAM, "jobs.json"], cwd=folder.path, label="node")
            if not run.ok:
                raise tool_failure(f"{tc.display} (node)", folder, run)
        try:
            answers = json.loads(run.stdout)
        except ValueError:
            raise ProbeFailed(tc.display, f"node printed no answer: {run.stdout[:200]!r}",
                              final=True) from None
        return Measurement((("", measurements(probes, answers)),), time.perf_counter() - start)
