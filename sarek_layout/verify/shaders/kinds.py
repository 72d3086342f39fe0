"""The member kinds of SPEC §1b (fixed arrays, vectors, matrices) in a hand-written shader:
the compiled types a schema member of a kind may have, and the spelling to advise.

A schema ``vecN<T>`` may be compiled as the language's N-vector of T or as an array of N T's
(Sarek's ``c`` rules lay a vector out as its scalars: ``float c[4]`` is the C header's), a
``matCxR<T>`` as a matrix, an array of C column vectors or an array of C arrays of R T's,
and ``T[N]`` as an array of N of what T may be; T itself is what a scalar member may be
(its atomic too, where the language has atomics), or the record. Which of these also has
the rule set's offsets, sizes and strides is not decided here: the compiler's numbers
(``types.CompiledMember.levels``: each level's count and stride) are compared with the
schema's (``Member.dims``) by ``check``.
"""

from __future__ import annotations

from typing import FrozenSet, Set

from ...ir.schema import MATRIX, VECTOR, Member
from .types import GpuType

__all__ = ["kind_types", "kind_spelling"]


def kind_types(lang, m: Member, elements: FrozenSet[GpuType]) -> FrozenSet[GpuType]:
    """Every compiled type kind member ``m`` may have in ``lang``, its element (a scalar or
    the record) compiled as one of ``elements``."""
    dims = m.dims
    k = len(dims)
    current: Set[GpuType] = set(elements)
    if dims and dims[-1].kind == VECTOR:
        n = dims[-1].count
        plain = {t for t in elements if t.kind != "atomic"}
        current = {GpuType("vector", count=n, elem=t) for t in plain}
        current |= {GpuType("array", count=n, elem=t) for t in elements}
        k -= 1
        if k and dims[k - 1].kind == MATRIX:
            c = dims[k - 1].count
            current = ({GpuType("matrix", count=c, elem=v) for v in current
                        if v.kind == "vector"} | {GpuType("array", count=c, elem=v)
                                                  for v in current})
            k -= 1
    for d in reversed(dims[:k]):
        current = {GpuType("array", count=d.count, elem=t) for t in current}
    current |= set(lang.kind_aliases(current))
    return frozenset(current)


def kind_spelling(lang, m: Member, rules: str, owner: str = "") -> str:
    """The spelling ``generate -t <lang>`` writes for kind member ``m`` of type ``owner`` of
    ``rules`` (``vec3``, ``float[4][2]``: C-style languages put the lengths after the name,
    ``write`` does; its element structs named as generate names them), or the element's
    spelling with C's lengths where it writes none."""
    from ...codegen.shader_kinds import KindRefused, spell_member
    from ...targets import dialects
    from ...targets.naming import element_struct_name

    dialect = getattr(dialects, lang.name.upper(), None)
    # GLSL's and WGSL's shader dialects (Metal's is the C family's: its own ``best``).
    if isinstance(dialect, dialects.ShaderDialect):
        record = lang.type_name(m.record.c_name) if m.record is not None else ""
        try:
            return spell_member(m, rules, dialect, record, lambda i: lang.type_name(
                element_struct_name(f"{owner}_{m.name}", i))).value
        except KindRefused:
            pass
    return lang.element_spelling(m) + "".join(f"[{d.count}]" for d in m.dims)
