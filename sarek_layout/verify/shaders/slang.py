"""Slang, the HLSL compiler ``verify`` asks: where its library is, how it is run, and what it
answers (the one copy of this code: the ``slang`` toolchain, ``verify --shader`` on HLSL and
the tests' oracle all come here).

PyPI's ``slangpy`` wheel carries the Slang compiler as a shared library
(``libslang-compiler.so``) with its reflection API. It is found without importing
``slangpy`` (which would start a renderer), and it runs in a child process
(``slang_child``) under ``tools.run_tool``'s time and memory bounds: a compiler crash or
hang would otherwise take sarek-layout with it. That process is confined to its compile
folder where the kernel allows it (``shaders.sandbox``): Slang reads the files copied
there and nothing else (its own library, Python's). The compile is Slang's HLSL target with
column-major matrices (FXC's and DXC's default, which Slang does not share); its
reflection gives every offset, size, alignment and stride of every buffer's types, each as
that buffer lays it out (``Reflection``).
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

__all__ = ["INSTALL", "slang_library", "slang_problem", "run_slang", "Reflection", "Node",
           "SlangAnswer", "condensed"]

INSTALL = "pip install slangpy"

#: The helper's module file, run by its path (``tools.child_boot``: no package import).
_CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "slang_child.py")


def slang_library() -> Optional[str]:
    """The path of ``libslang-compiler`` inside the slangpy wheel, or ``None``."""
    try:
        spec = importlib.util.find_spec("slangpy")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(folder, "libslang-compiler.so*")))
        if found:
            return found[0]
    return None


def slang_problem(name: str = "slang") -> Optional[str]:
    """Why Slang cannot run here (one line with the install line), or ``None``."""
    if slang_library() is None:
        return (f"{name}: the Slang compiler (Python package slangpy) not found; {INSTALL}")
    return None


@dataclass(frozen=True)
class SlangAnswer:
    """One compile: its reflection (``None`` when it failed), Slang's diagnostics, and why
    the child stopped when it did not answer (a timeout, a crash)."""

    reflection: Optional["Reflection"]
    log: str
    problem: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.reflection is not None


def run_slang(folder: str, unit: str, search: Tuple[str, ...] = (),
              entry: str = "") -> SlangAnswer:
    """Compile ``unit`` (a file in ``folder``, whose ``#include``s are looked for in
    ``search``, folders of ``folder``) with Slang for the HLSL target, column-major, with the
    compute entry point ``entry`` (none when empty), in a child process under
    ``run_tool``'s bounds, confined to ``folder``."""
    from .sandbox import confined
    from ..tools import child_boot, run_tool

    library = slang_library()
    if library is None:
        return SlangAnswer(None, "", f"the Slang compiler (slangpy) is not installed; {INSTALL}")
    request = {"library": library, "source": unit, "search": list(search), "entry": entry}
    argv = confined([sys.executable, "-I", "-S", "-c", child_boot(_CHILD)], folder,
                    also=(os.path.dirname(library), _CHILD))
    run = run_tool(argv, cwd=folder, stdin_data=json.dumps(request).encode(),
                   label="the Slang helper process")
    if run.problem is not None:
        return SlangAnswer(None, run.stderr, run.problem)
    try:
        answer = json.loads(run.stdout)
    except ValueError:
        tail = " ".join(run.stderr.strip().splitlines()[-3:])
        return SlangAnswer(None, run.stderr, f"the Slang helper process exited with status "
                                             f"{run.returncode}: {tail}"[:600])
    log = condensed(answer.get("log", ""))
    if not answer.get("ok"):
        return SlangAnswer(None, log)
    return SlangAnswer(Reflection(answer["params"], answer["structs"]), log)


_HEAD = re.compile(r"^(error|warning)(\[\w+\])?: (.*)$")
_AT = re.compile(r"^\s*--> (.+?):(\d+):(\d+)\s*$")
_SOURCE = re.compile(r"^\s*\d+ \| (.*)$")


def condensed(log: str) -> str:
    """Slang's diagnostics, one line each: ``FILE:LINE:COL: error[E…]: message: source
    line`` (Slang writes the place and the line under the message, on lines of their own)."""
    out: List[str] = []
    head: Optional[List[str]] = None
    for line in log.splitlines():
        m = _HEAD.match(line)
        if m:
            head = [f"{m.group(1)}{m.group(2) or ''}: {m.group(3)}", "", ""]
            out.append(head[0])
            continue
        at, src = _AT.match(line), _SOURCE.match(line)
        if head is not None and at and not head[1]:
            head[1] = f"{at.group(1)}:{at.group(2)}:{at.group(3)}: "
        elif head is not None and src and not head[2]:
            head[2] = f": {src.group(1).strip()}"[:300]
        else:
            continue
        out[-1] = head[1] + head[0] + head[2]
    return "\n".join(out) if out else log


class Node:
    """One type as Slang laid it out in one buffer (``slang_child``'s node): ``kind`` is
    ``scalar``, ``vector``, ``matrix``, ``array``, ``struct`` or ``other``."""

    __slots__ = ("raw", "reflection")

    def __init__(self, raw: dict, reflection: "Reflection") -> None:
        self.raw = raw
        self.reflection = reflection

    def __repr__(self) -> str:
        return f"Node({self.raw})"

    @property
    def kind(self) -> str:
        return self.raw["k"]

    @property
    def size(self) -> int:
        return self.raw["size"]

    @property
    def align(self) -> int:
        return self.raw["align"]

    @property
    def stride(self) -> int:
        """The type's own stride (its size rounded up to its alignment)."""
        return self.raw["stride"]

    @property
    def scalar(self) -> str:
        """A scalar's, vector's or matrix's scalar, as its kind and bits: ``f32``, ``i64``,
        ``u16``, ``b32`` (a bool: 32 bits in HLSL's buffers)."""
        return self.raw.get("s", "")

    @property
    def count(self) -> int:
        """An array's elements, a vector's components."""
        return self.raw.get("n", 0)

    @property
    def rows(self) -> int:
        return self.raw.get("r", 0)

    @property
    def cols(self) -> int:
        return self.raw.get("c", 0)

    @property
    def row_major(self) -> bool:
        return bool(self.raw.get("row_major"))

    @property
    def element_stride(self) -> int:
        return self.raw.get("es", 0)

    @property
    def element(self) -> Optional["Node"]:
        e = self.raw.get("e")
        return None if e is None else Node(e, self.reflection)

    @property
    def name(self) -> str:
        """A struct's name (``""`` for a ``cbuffer``'s own)."""
        return self.raw.get("name", "")

    def fields(self) -> List[Tuple[str, int, "Node"]]:
        """A struct's fields: (name, offset, type)."""
        if self.kind != "struct":
            return []
        table = self.reflection.structs.get(self.raw["ref"], {})
        return [(f["name"], f["off"], Node(f["t"], self.reflection))
                for f in table.get("fields", [])]

    def field(self, name: str) -> Optional[Tuple[int, "Node"]]:
        for n, off, t in self.fields():
            if n == name:
                return off, t
        return None

    def innermost(self) -> "Node":
        """The element under every array level."""
        t = self
        while t.kind == "array" and t.element is not None:
            t = t.element
        return t


class Reflection:
    """Slang's answer: every global parameter (``params``: name -> (kind, element type))."""

    def __init__(self, params: List[dict], structs: Dict[str, dict]) -> None:
        self.structs = structs
        self.params: Dict[str, Tuple[str, Optional[Node]]] = {}
        for p in params:
            t = p.get("t")
            self.params[p["name"]] = (p["kind"], None if t is None else Node(t, self))

    def buffer(self, name: str) -> Optional[Node]:
        """The element type of the buffer ``name`` (a ``StructuredBuffer<T>``'s ``T``, a
        ``ConstantBuffer<T>``'s ``T``, a ``cbuffer``'s own struct)."""
        found = self.params.get(name)
        return None if found is None else found[1]

    def blocks(self) -> Iterator[Tuple[str, str, Node]]:
        """(name, kind, element type) of every cbuffer and structured buffer."""
        for name, (kind, t) in self.params.items():
            if t is not None and kind in ("cbuffer", "structured"):
                yield name, kind, t
