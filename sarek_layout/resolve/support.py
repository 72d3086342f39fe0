"""Which commands and targets take the member kinds of SPEC §1b (fixed arrays, vectors,
matrices, enums) and the rule sets other than ``c``, and the refusal of the others.

The layout core, the readers, ``layout`` (text and JSON) and the fingerprint know every kind.
A command or a target that does not (yet) emit or check one refuses a schema that uses it,
naming the first type and member and saying what it would need, rather than handle it as the
scalar it would otherwise see (a ``float32[4]`` read as one ``float32`` would be silent
corruption). A target says what it takes in its registry entry (``Target.member_kinds``).
"""

from __future__ import annotations

from typing import Iterable, Optional, Tuple

from ..errors import SchemaError
from ..ir.schema import Member, SchemaType, SourceLocation

__all__ = ["first_extension", "refuse_extensions"]


def _members(st: SchemaType) -> Iterable[Member]:
    yield from st.members
    for arm in st.arms:
        yield from arm.args


def first_extension(types: Iterable[SchemaType]) -> Optional[Tuple[SchemaType, Optional[Member], str]]:
    """The first type (and member) using a member kind or rule set of SPEC §1b, and what it
    uses; ``None`` when there is none."""
    for st in types:
        if st.is_enum:
            return st, None, "an enum"
        if st.rules != "c":
            return st, None, f"the {st.rules} rules"
        for m in _members(st):
            if m.dims:
                return st, m, f"a {m.dims[0].kind} ({m.spelling})"
            if m.enum is not None:
                return st, m, f"an enum ({m.spelling})"
    return None


def refuse_extensions(types: Iterable[SchemaType], who: str) -> None:
    """Refuse ``types`` for ``who`` (``the rust target``, ``diff``) when one of them uses a
    member kind or rule set of SPEC §1b, at that type or member."""
    found = first_extension(types)
    if found is None:
        return
    st, member, what = found
    where: Optional[SourceLocation] = member.location if member is not None else st.decl.location
    place = f"{st.qualified_name}.{member.name}" if member is not None else st.qualified_name
    raise SchemaError(
        f"{place} uses {what}; {who} does not handle fixed arrays, vectors, matrices, enums "
        f"or rule sets other than `c` yet (SPEC §1b): `layout` and `layout --json` show their "
        f"layout", where)
