"""HLSL: the generated ``.hlsl`` measured by Slang's reflection (the ``slang`` toolchain), and
compiled by glslang's HLSL front end as a second check (``glslang-hlsl``, no numbers).

Slang compiles one probe shader that includes every file and declares, for each probed
type, the buffer its rule set is for (``hlsl_view``: a type of the ``hlsl-cbuffer`` rules
in a ``ConstantBuffer<T>``, any other in a ``StructuredBuffer<T>``; the generated file says
which, in each struct's comment). Its reflection (``slang``) gives every number as that
buffer lays the type out: the size, each member's offset and size, each array level's stride
(through a wrapped element's ``v``), and, in a constant buffer, the alignment. Not measured:
a structured buffer struct's alignment (HLSL has no alignment of its own there beyond its
scalars': the rule set's alignment is carried by the explicit padding, whose offsets and
stride are measured), a native matrix's column stride (no reflection of it: its rows,
columns and size are measured), and a scalar kept inside a packed 32-bit word. A constructor
argument is measured on the arm struct ``<T>_<Ctor>_arm``. One Slang compile for the whole
probe list; when the files' own compile-time checks fail, a second one without them
(``SAREK_LAYOUT_NO_CHECKS``) gives the numbers that say why.

glslang's HLSL front end (``glslangValidator -D -V -S comp -e main``) only compiles: it lays
constant buffers out by std140, not by HLSL's rules, so its numbers would judge nothing; and
it has no 16-bit or 64-bit integer types, so a file that uses them is skipped, saying so.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

from ...ir.types import scalar_named
from ...targets.naming import arm_struct_name, escape
from ..probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, STRIDE, Probe
from ..tools import run_tool
from . import Driver, HeaderSet, Measurement, ProbeFailed, ProbeSkipped, error_excerpt
from . import with_assertion_fallback
from ..shaders.slang import Node, Reflection, run_slang

__all__ = ["SlangDriver", "GlslangHlslDriver", "contexts", "GLSLANG_HLSL_ARGS"]

#: Each struct's comment says which buffer its type is for (``templates/hlsl.hlsl.j2``).
_CONTEXT = re.compile(r"^// \S+: (?:record|variant), size \d+, align \d+, \S+ rules: for "
                      r"(constant|structured) buffers\nstruct (\w+) \{", re.M)
_PROBE_MAIN = "sarek_probe_main"


def contexts(headers: HeaderSet) -> Dict[str, str]:
    """Struct name -> ``cbuffer`` or ``structured``, for every type the files declare."""
    out: Dict[str, str] = {}
    for _, text in headers.files:
        for m in _CONTEXT.finditer(text):
            out[m.group(2)] = "cbuffer" if m.group(1) == "constant" else "structured"
    return out


def _lay_out(headers: HeaderSet, folder: str) -> None:
    for name, text in headers.files:
        with open(os.path.join(folder, os.path.basename(name)), "w", encoding="utf-8") as f:
            f.write(text)


def _probe_source(headers: HeaderSet, types: Sequence[Tuple[str, str]], checks: bool) -> str:
    lines = [] if checks else ["#define SAREK_LAYOUT_NO_CHECKS 1\n"]
    lines += [f'#include "{os.path.basename(n)}"\n' for n, _ in headers.files]
    for i, (t, context) in enumerate(types):
        buffer = "ConstantBuffer" if context == "cbuffer" else "StructuredBuffer"
        lines.append(f"{buffer}<{t}> sarek_probe_{i};\n")
    lines.append("RWStructuredBuffer<uint> sarek_probe_out;\n"
                 f"[numthreads(1, 1, 1)] void {_PROBE_MAIN}() {{ sarek_probe_out[0] = 0u; }}\n")
    return "".join(lines)


def _stride(node: Node, designator: str) -> Optional[int]:
    """The stride of the last array level of ``designator`` (``a[0]``, ``a[0].v[0]``) below
    ``node``; ``None`` where it is a native matrix's columns (not reflected)."""
    value: Optional[int] = -1
    t: Optional[Node] = node
    for part in re.findall(r"\[0\]|\.\w+", designator):
        if t is None:
            return -1
        if part == "[0]":
            if t.kind == "array":
                value, t = t.element_stride, t.element
            elif t.kind == "matrix":
                value, t = None, None
            else:
                return -1
        else:
            found = t.field(part[1:])
            t = None if found is None else found[1]
    return value


#: A constructor's arm in a probe's member: ``data.<Ctor>_v`` and what follows it.
_ARM = re.compile(r"data\.(\w+)_v(\..*|\[.*|)\Z")


class _Measured:
    """The probe list read from one reflection."""

    def __init__(self, reflection: Reflection, index: Dict[str, int], context: Dict[str, str],
                 escaped, probes: Sequence[Probe]) -> None:
        self.r = reflection
        self.index = index
        self.context = context
        self.esc = escaped
        #: (C type, constructor) of the arms of several arguments (a struct ``data.<Ctor>_v``).
        self.multi = {(p.c_type, m.group(1)) for p in probes
                      for m in [_ARM.match(p.member)] if m and m.group(2).startswith(".")}
        #: Each member's offset in the schema, for its size probe's packed word.
        self.offsets = {(p.c_type, p.member): p.expected for p in probes if p.quantity == OFFSET}

    def struct(self, t: str) -> Optional[Node]:
        i = self.index.get(t)
        return None if i is None else self.r.buffer(f"sarek_probe_{i}")

    def target(self, p: Probe) -> Tuple[str, str]:
        """The struct and the designator (below it) a probe reads: a constructor's argument
        on its arm struct ``<T>_<Ctor>_arm``, where the arguments are members ``_0``…"""
        t = self.esc(p.c_type)
        m = _ARM.match(p.member)
        if m is None:
            return t, p.member
        ctor, rest = m.group(1), m.group(2)
        arm = self.esc(arm_struct_name(t, ctor))
        if rest.startswith("."):
            return arm, rest[1:]
        if (p.c_type, ctor) in self.multi:
            return t, "data"  # the struct of the arguments starts where the payload does
        return arm, "_0" + rest

    def value(self, p: Probe) -> Optional[int]:
        t, designator = self.target(p)
        node = self.struct(t)
        if node is None:
            return -1
        if p.quantity == SIZE:
            # An enum of an 8-bit base is a typedef of uint: HLSL has no type of its size.
            return None if node.kind == "scalar" and p.expected < 4 else node.size
        if p.quantity == ALIGN:
            return node.align if self.context.get(t) == "cbuffer" else None
        name = re.match(r"\w+", designator).group() if designator else ""  # type: ignore[union-attr]
        found = node.field(self.esc(name))
        if found is None:
            # A scalar kept in a packed 32-bit word (_sarek_bytes<N>) has no offset of its own.
            at = self.offsets.get((p.c_type, p.member), -1)
            return None if p.scalar and _packed(node, at) else -1
        offset, member = found
        if p.quantity == OFFSET:
            return offset
        if p.quantity == MEMBER_SIZE:
            return member.size
        if p.quantity == STRIDE:
            if p.scalar and scalar_named(p.scalar).size == 1:  # type: ignore[union-attr]
                return None  # an 8-bit array is kept as the 32-bit words its bytes reach
            return _stride(member, designator[len(name):])
        return -1


def _packed(node: Node, offset: int) -> bool:
    from ...targets.naming import PACKED_PREFIX

    word = offset - offset % 4
    return any(n.startswith(PACKED_PREFIX) and off == word for n, off, _ in node.fields())


class SlangDriver(Driver):
    """Slang's reflection of the generated HLSL (no device needed)."""

    subprocess_only = True  # run_tool only (Driver.subprocess_only)
    estimate_s = 0.3

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        from ...targets.dialects import HLSL

        who = self.toolchain.display
        esc = lambda n: escape(n, HLSL)  # noqa: E731
        context = contexts(headers)
        wanted: Dict[str, int] = {}
        measured = _Measured(Reflection([], {}), wanted, context, esc, probes)
        for p in probes:
            t, _ = measured.target(p)
            wanted.setdefault(t, len(wanted))
        # An arm struct is a view of its variant, in its variant's buffer.
        for t in list(wanted):
            if t not in context:
                owner = [c for c in context if t.startswith(c + "_") and t.endswith("_arm")]
                context[t] = context[max(owner, key=len)] if owner else "structured"
        types = [(t, context.get(t, "structured")) for t in wanted]

        def attempt(no_checks: bool) -> List[Tuple[str, Tuple[Optional[int], ...]]]:
            with tempfile.TemporaryDirectory(prefix="sarek-slang-") as folder:
                _lay_out(headers, folder)
                with open(os.path.join(folder, "sarek_probe.hlsl"), "w") as f:
                    f.write(_probe_source(headers, types, not no_checks))
                answer = run_slang(folder, "sarek_probe.hlsl", (".",), _PROBE_MAIN)
            if answer.reflection is None:
                text = "\n".join(x for x in (answer.problem, answer.log) if x)
                raise ProbeFailed(who, error_excerpt(text), final=answer.problem is not None)
            m = _Measured(answer.reflection, wanted, context, esc, probes)
            return [("", tuple(m.value(p) for p in probes))]

        if not probes:
            return Measurement((("", ()),), 0.0)
        return with_assertion_fallback(self.toolchain, attempt)


#: glslang's HLSL front end, a compute shader whose entry point is ``main``.
GLSLANG_HLSL_ARGS = ("glslangValidator", "-D", "-V", "-S", "comp", "-e", "main")

#: What glslang's HLSL front end cannot read (measured: ``tests/verify/test_verify_hlsl.py``).
_UNREADABLE = re.compile(r"\b(?:u?int(?:16|64)_t|float16_t)\b")
#: HLSL's asuint(double, out uint, out uint) (DXC and Slang have it; glslang does not).
_DOUBLE_BITS = re.compile(r"\basuint\([^(),]*,[^(),]*,")


class GlslangHlslDriver(Driver):
    """glslang's HLSL front end compiles the generated files (a compile check, no numbers)."""

    subprocess_only = True
    estimate_s = 0.1

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        who = self.toolchain.display
        for name, text in headers.files:
            found = _UNREADABLE.search(text)
            if found:
                raise ProbeSkipped(
                    f"{os.path.basename(name)} uses {found.group()}, which glslang's HLSL front "
                    f"end does not have (no 16-bit or 64-bit integer types); the slang "
                    f"toolchain checks it")
            if _DOUBLE_BITS.search(text):
                raise ProbeSkipped(
                    f"{os.path.basename(name)} splits a double into words with asuint(double, "
                    f"out uint, out uint), which glslang's HLSL front end does not have; the "
                    f"slang toolchain checks it")
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="sarek-glslang-hlsl-") as folder:
            _lay_out(headers, folder)
            src = os.path.join(folder, "sarek_probe.hlsl")
            with open(src, "w") as f:
                f.write("".join(f'#include "{os.path.basename(n)}"\n' for n, _ in headers.files)
                        + "RWStructuredBuffer<uint> sarek_probe_out;\n"
                          "[numthreads(1, 1, 1)] void main() { sarek_probe_out[0] = 0u; }\n")
            run = run_tool([*GLSLANG_HLSL_ARGS, "sarek_probe.hlsl", "-o", "probe.spv"],
                           cwd=folder, label="glslangValidator")
        if not run.ok:
            text = "\n".join(x for x in (run.problem, run.stdout, run.stderr) if x)
            raise ProbeFailed(who, error_excerpt(text.replace(folder + "/", "")),
                              final=run.problem is not None)
        return Measurement((), time.perf_counter() - start)
