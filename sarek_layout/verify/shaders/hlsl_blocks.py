"""The blocks of a hand-written HLSL shader, each judged by the rules its declaration gives
it (``hlsl`` describes the probe; everything here is read from Slang's reflection).

A block is every global ``cbuffer``/``tbuffer``/``ConstantBuffer<S>`` (constant buffer
packing: the ``hlsl-cbuffer`` rules) and ``StructuredBuffer<S>``/``RWStructuredBuffer<S>``
(HLSL's structured layout: every member aligned to its scalar) the shader declares, whatever
its name or type was spelled with. A schema struct it holds, at any depth, is compared with
that struct's own copy (the buffer its schema rules are for): a member the block moves, a
size the block changes, and an array of it (a structured buffer is one) whose stride is not
the schema's are reported at the block, with both numbers and both rule sets. A struct of
the ``c`` rules in a ``cbuffer`` whose packing happens to keep every byte agrees; one whose
members the registers move does not.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from ...ir.schema import Member
from .check import Problem

__all__ = ["own_contexts", "expected_of", "block_problems"]

#: Struct nesting walked (Slang refuses far less deep nesting).
_DEPTH = 64
CBUFFER_RULES = "hlsl-cbuffer"
#: How the report names a structured buffer's layout (no rule set of the schema is it).
STRUCTURED_RULES = "HLSL structured buffer"


def own_contexts(expected: Dict[str, object], wanted) -> Dict[str, str]:
    """Struct name -> the buffer its schema rules are for (``cbuffer`` or ``structured``)."""
    from ...codegen.hlsl_kinds import context_of

    return {t: context_of(expected[t].schema.rules) for t in wanted  # type: ignore[attr-defined]
            if t in expected}


def expected_of(expected: Dict[str, object], t: str) -> Optional[List[Tuple[str, Member]]]:
    """The schema members of struct ``t`` by the names HLSL gives them (escaped)."""
    from ...targets.dialects import HLSL
    from ...targets.naming import escape

    exp = expected.get(t)
    if exp is None:
        return None
    return [(escape(n, HLSL), m) for n, m in exp.members]  # type: ignore[attr-defined]


def _stride_of(exp) -> int:
    """An array of the schema type's stride under its own rules."""
    align = exp.align or 1
    return -(-exp.size // align) * align


def block_problems(lang, reflection, own: Dict[str, object], expected: Dict[str, object],
                   files, probe_prefix: str) -> List[Problem]:
    """The problems of every block of the shader (``files``: the ones it compiles with)."""
    out: List[Problem] = []
    for name, kind, node in reflection.blocks():
        if name.startswith(probe_prefix):
            continue
        found: Dict[str, str] = {}
        top_stride = node.stride if kind == "structured" else None
        if node.kind == "struct" and node.name:
            _judge(node, node.name, top_stride, own, expected, found)
        _walk(node, own, expected, found, 0)
        rules = CBUFFER_RULES if kind == "cbuffer" else STRUCTURED_RULES
        what = "constant buffer" if kind == "cbuffer" else "structured buffer"
        where = _where(name, files)
        for t, why in found.items():
            exp = expected[t]
            out.append(Problem(where, t, f"{name} is a {what} ({rules} layout), where the "
                                         f"schema lays {t} out by its "
                                         f"{exp.schema.rules} rules: {why}"))  # type: ignore[attr-defined]
    return out


def _walk(node, own, expected, found: Dict[str, str], depth: int) -> None:
    if depth > _DEPTH or node.kind != "struct":
        return
    for fname, _, t in node.fields():
        stride, elem = None, t
        if t.kind == "array":
            stride = t.element_stride
            elem = t.innermost()
        if elem.kind != "struct":
            continue
        _judge(elem, elem.name, stride, own, expected, found, fname)
        _walk(elem, own, expected, found, depth + 1)


def _judge(node, t: str, stride: Optional[int], own, expected, found: Dict[str, str],
           held: str = "") -> None:
    """Why the block lays struct ``t`` (``node``; an array of it ``stride`` bytes apart)
    out otherwise than the schema (into ``found``, once per type)."""
    if t in found or t not in expected or t not in own:
        return
    exp = expected[t]
    mine = {n: (off, m) for n, off, m in node.fields()}
    ref = {n: (off, m) for n, off, m in own[t].fields()}  # type: ignore[attr-defined]
    schema = dict(expected_of(expected, t) or [])
    # The schema's members first (a padding member moves because one of them did).
    for n in sorted(ref, key=lambda n: (n not in schema, ref[n][0])):
        if n not in mine:
            continue
        (off, m), (ref_off, ref_m) = mine[n], ref[n]
        at = schema[n].offset if n in schema else ref_off
        if off != ref_off:
            found[t] = f"{t}.{n} is at offset {off} there, at {at} in the schema"
            return
        if m.kind == "array" and ref_m.kind == "array" and m.element_stride != ref_m.element_stride:
            want = schema[n].dims[0].stride if n in schema and schema[n].dims else \
                ref_m.element_stride
            found[t] = (f"{t}.{n}[0] has a stride of {m.element_stride} bytes there, "
                        f"{want} in the schema")
            return
    if node.size != exp.size and stride is None:
        found[t] = f"{t} is {node.size} bytes there, {exp.size} in the schema"
        return
    # An array as far apart as the own copy's is the struct's own difference (reported at
    # the struct), not the block's.
    if stride is not None and stride != _stride_of(exp) and stride != own[t].stride:  # type: ignore[attr-defined]
        what = f"an array of {t} ({held})" if held else f"its elements ({t})"
        found[t] = (f"{what} are {stride} bytes apart there, where an array of {t} has a "
                    f"stride of {_stride_of(exp)} bytes in the schema")


def _where(block: str, files) -> str:
    """The block's declaration as the text names it, or the first file."""
    pattern = re.compile(rf"\b(?:cbuffer|tbuffer)\s+{re.escape(block)}\b|>\s*{re.escape(block)}\b")
    for f in files:
        text = f.stripped or f.text
        m = pattern.search(text)
        if m:
            return f.where(m.start())
    return files[0].shown if files else ""
