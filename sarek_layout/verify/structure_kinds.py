"""``verify --header``: the members of SPEC §1b's kinds, and the enums, in a header someone
wrote (the structure check's part for them, ``structure._Checker`` mixes it in).

A member of the kinds is a C array per array level of its emitted shape
(``targets.shape.Array.levels``), outermost first, of its element, as the generated headers
declare it (``codegen.declarations``): where a level's stride is larger than its element
(std430's ``vec3<float32>[4]``), its element is a struct whose one member is
``naming.ELEMENT_MEMBER`` (``v``), padding aside, and the levels below are declared in ``v``.
A vector is its components (``float pos[3]``, or an array typedef of them) or a vector type
of the language (CUDA's ``float4``, OpenCL C's ``float4``: ``Dialect.read_vectors``), a
matrix an array of its columns. The check reads the dimensions as the header writes them,
following its typedefs of arrays, and reports a count, a dimension or an element type that
differs from the schema; the compilers measure the strides and sizes themselves (a vec3 held
as a 16-byte ``float4`` is reported here as 4 components where the schema says 3).

An enum type is a typedef of an integer spelling its base on every ABI (a C ``enum`` is the
ABI's ``int``: accepted for an ``int32`` base, and measured), and a member of it that
integer, as any scalar.

A member whose deeper array levels the header lacks (or whose wrapped level is no struct of
``v``) leaves its type out of the compile: the stride probes of those levels would not
compile.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..ir.schema import VECTOR, Member, SchemaType
from ..ir.types import TInt32
from ..targets.naming import ELEMENT_MEMBER, is_padding
from ..targets.registry import TARGETS

__all__ = ["KindsChecks", "array_dimensions"]

def _count(dim) -> Optional[int]:
    """An array dimension as the compiler folds it (``frontends.c.constants``), or ``None``
    where it cannot be read here (the compilers measure what it makes)."""
    from ..errors import SchemaError
    from ..frontends.c.constants import evaluate

    if dim is None:
        return None
    try:
        return evaluate(dim, {}, lambda why: SchemaError(why))
    except SchemaError:
        return None


def array_dimensions(spelled) -> Tuple[List[Optional[int]], object]:
    """The dimensions of a member's type as the C reader spells it (``Spelled.dims``,
    outermost first, through the header's typedefs of arrays) and the ``Spelled`` they hold
    (the type itself, for no array)."""
    if spelled.kind == "array" and spelled.element is not None:
        return [_count(d) for d in spelled.dims], spelled.element
    return [], spelled


def _vector(m: Member) -> Optional[Tuple[str, int]]:
    """``(scalar, components)`` of the vector member ``m`` is made of, or ``None``."""
    for d in m.dims:
        if d.kind == VECTOR:
            return m.scalar.name, d.count  # type: ignore[union-attr]
    return None


def _shown(dims: Sequence[Optional[int]]) -> str:
    return "".join(f"[{'?' if n is None else n}]" for n in dims) or "no array"


class KindsChecks:
    """The checks of the kinds, mixed into the structure check (``structure._Checker``:
    ``parsed``, ``accepted``, ``all_accepted``, ``target``, ``problem``, ``probeable``,
    ``check_spelled``)."""

    def check_enum_type(self, st: SchemaType, place: str) -> bool:
        """An enum type: a typedef of an integer spelling its base (SPEC §1b)."""
        c, base = st.c_name, st.elttype.base.name  # type: ignore[union-attr]
        spelled = self.parsed.spell(self.parsed.typedef(c), self.all_accepted)  # type: ignore[attr-defined]
        if spelled.kind == "scalar" and spelled.text in self.accepted[base]:  # type: ignore[attr-defined]
            return True
        if spelled.kind == "enum" and st.elttype.base is TInt32:  # type: ignore[union-attr]
            return True  # the ABI's int: the compilers measure it
        write = self.accepted[base][0]  # type: ignore[attr-defined]
        why = " (a C enum's size is the ABI's)" if spelled.kind == "enum" else ""
        self.problem(place, f"{c}: header declares {spelled.text}{why}, schema says an enum "  # type: ignore[attr-defined]
                            f"of {base} (write typedef {write} {c};)")
        return True  # its size is probed all the same

    def check_kinds(self, c: str, node, decl) -> None:
        """A member of the kinds (an ``Array`` node, or a vector ``Slot``) against the
        header's declaration ``decl``."""
        levels = getattr(node, "levels", ())
        self._check_levels(c, node.path, decl.type, node.member, levels, 0, decl)

    def _check_levels(self, c: str, path: str, t, m: Member, levels, k: int, decl) -> None:
        """Levels ``k``… of member ``m`` in the header's type ``t`` (declared at ``decl``)."""
        dims, inner = array_dimensions(self.parsed.spell(t, self.all_accepted))  # type: ignore[attr-defined]
        segment: List[int] = []
        j, wrapped = k, False
        while j < len(levels):  # the levels declared here: down to the first wrapped one
            segment.append(levels[j].count)
            j += 1
            if levels[j - 1].wrapped:
                wrapped = True
                break
        vector = None if wrapped or j < len(levels) else _vector(m)
        have = dims[:len(segment)]
        where = f"{c}.{path}"
        text = inner.text + (_shown(dims) if dims else "")
        if len(have) < len(segment):
            self.probeable = False  # the stride probe of a level it lacks would not compile
            self.problem(decl, f"{where}: header says {text}, schema says {m.spelling}: "  # type: ignore[attr-defined]
                               f"{_shown(segment)} here, {_shown(have)} in the header")
            return
        if any(h is not None and h != s for h, s in zip(have, segment)):
            self.problem(decl, f"{where}: header says {text}, schema says {m.spelling}: "  # type: ignore[attr-defined]
                               f"{_shown(segment)} elements, the header {_shown(have)}")
        extra = dims[len(segment):]
        if wrapped:
            self._check_wrapped(c, path + "[]" * len(segment), inner, extra, m, levels, j, decl)
        elif vector is not None:
            self._check_vector(where, extra, inner, vector, m, decl, text)
        elif extra:
            self.problem(decl, f"{where}: header says {text}, schema says {m.spelling}: "  # type: ignore[attr-defined]
                               f"{_shown(extra)} more than the schema's dimensions")
        else:
            self.check_spelled(c, path + "[]" * len(segment), inner, m, decl)  # type: ignore[attr-defined]

    def _check_wrapped(self, c: str, path: str, spelled, extra, m: Member, levels, j: int,
                       decl) -> None:
        """A level whose stride is larger than its element: a struct of ``v`` (and padding)."""
        members = [d for d in (getattr(spelled.body, "decls", None) or [])
                   if getattr(d, "name", None) and not is_padding(d.name)]
        if extra or spelled.kind != "struct" or [d.name for d in members] != [ELEMENT_MEMBER]:
            if j < len(levels):
                self.probeable = False  # ``a[0].v[0]`` would not compile
            self.problem(decl, f"{c}.{path}: header says {spelled.text}"  # type: ignore[attr-defined]
                               f"{_shown(extra) if extra else ''}, schema says a struct of "
                               f"`{ELEMENT_MEMBER}` and padding: its elements lie further "
                               f"apart than their size (the {m.spelling} member)")
            return
        self._check_levels(c, f"{path}.{ELEMENT_MEMBER}", members[0].type, m, levels, j,
                           members[0])

    def _check_vector(self, where: str, extra, spelled, vector, m: Member, decl, text) -> None:
        """A vector: its components (one more dimension), or a vector type of the language."""
        scalar, n = vector
        if extra == [n] and spelled.kind == "scalar" \
                and spelled.text in self.accepted[scalar]:  # type: ignore[attr-defined]
            return
        native = TARGETS[self.target].dialect.read_vectors  # type: ignore[attr-defined, union-attr]
        name = spelled.name or spelled.text
        if not extra and spelled.kind == "struct" and native.get(name) == (scalar, n):
            return
        found = native.get(name)
        said = (f"{found[1]} components of {found[0]}" if found and not extra
                else text)
        self.problem(decl, f"{where}: header says {said}, schema says {m.spelling} "  # type: ignore[attr-defined]
                           f"({n} components of {scalar}: write "
                           f"{self.accepted[scalar][0]} {where.rpartition('.')[2]}"  # type: ignore[attr-defined]
                           f"{''.join(f'[{lv}]' for lv in self._counts(m))}[{n}])")

    @staticmethod
    def _counts(m: Member) -> List[int]:
        return [d.count for d in m.dims if d.kind != VECTOR]
