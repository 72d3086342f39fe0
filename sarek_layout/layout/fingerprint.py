"""The layout fingerprint: a 64-bit identity of a resolved type's layout (docs/fingerprint.md).

``layout_id(t)`` is the first 8 bytes, read big-endian, of the SHA-256 of ``canonical_text(t)``,
a short UTF-8 text that anyone can rebuild from ``layout --json``::

    sarek-layout-id 1
    record Geometry_point 8 4          <- kind, C name, size, align
    member x 0 float32                 <- name, offset, type
    member y 4 float32

A variant lists its ``tag`` member, then each constructor (``ctor NAME TAG``) followed by its
arguments (``member _0 OFFSET TYPE``, absolute offsets). A member's type is its scalar's
schema name (``float32``; the alias ``float`` is ``float32``) or, for a nested record or an
enum, that type's own layout id (``0x`` and 16 lowercase hex digits), so a change anywhere
below a type changes it.

The member kinds of SPEC §1b add to this, so that every schema without them keeps its id: a
type laid out by other rules than ``c`` says so at the end of its first line
(``record Particles_p 32 16 rules std430``); a fixed array, vector or matrix member lists its
repetitions after its type, outermost first, as ``KIND COUNT STRIDE`` (``member m 32 float32
matrix 4 16 vector 4 4``); an enum is ``enum C_NAME SIZE ALIGN``, then ``base SCALAR`` and one
``value NAME NUMBER`` per value, in declaration order. Every line ends with ``\\n``; fields are separated by one space (names are ASCII
identifiers, so they hold none). Nothing else enters: not the input form, the file, the order
of declarations, comments or whitespace, nor the module's other types.

Pure: reads the member model, which ``layout.members`` filled in; no I/O.
"""

from __future__ import annotations

import hashlib
import weakref
from typing import Iterable, List, Tuple

from ..ir.schema import Member, SchemaType

__all__ = [
    "CANONICAL_VERSION",
    "canonical_text",
    "layout_id",
    "layout_id_hex",
    "layout_id_words",
    "format_layout_id",
]

#: The first line of every canonical text; bumped if the text ever has to change.
CANONICAL_VERSION = "sarek-layout-id 1"

#: Ids already computed, by type (a schema's types are immutable): nested records are asked
#: for again by every type that uses them.
_IDS: "weakref.WeakKeyDictionary[SchemaType, int]" = weakref.WeakKeyDictionary()


def format_layout_id(value: int) -> str:
    """``0x`` and 16 lowercase hex digits: how ``layout --json`` and the texts spell an id."""
    return f"0x{value:016x}"


def _member_line(m: Member) -> str:
    if m.enum is not None:
        kind = format_layout_id(_IDS[m.enum])
    elif m.scalar is not None:
        kind = m.scalar.name
    else:
        kind = format_layout_id(_IDS[m.record])  # type: ignore[index]
    if m.dims:
        kind += "".join(f" {d.kind} {d.count} {d.stride}" for d in m.dims)
    return f"member {m.name} {m.offset} {kind}\n"


def _text(t: SchemaType) -> str:
    """The canonical text of ``t``, whose nested records' ids are known."""
    rules = "" if t.rules == "c" else f" rules {t.rules}"
    parts = [_HEAD, f"{t.kind} {t.c_name} {t.size} {t.align}{rules}\n"]
    if t.is_enum:
        parts.append(f"base {t.elttype.base.name}\n")  # type: ignore[union-attr]
        parts.extend(f"value {n} {v}\n" for n, v in t.elttype.values)  # type: ignore[union-attr]
    parts.extend(map(_member_line, t.members))
    for arm in t.arms:
        parts.append(f"ctor {arm.name} {arm.tag}\n")
        parts.extend(map(_member_line, arm.args))
    return "".join(parts)


_HEAD = CANONICAL_VERSION + "\n"


def _nested(t: SchemaType) -> Iterable[SchemaType]:
    yield from t.records_used()
    for m in t.members:
        if m.enum is not None:
            yield m.enum
    for arm in t.arms:
        for a in arm.args:
            if a.enum is not None:
                yield a.enum


def _flat(t: SchemaType) -> bool:
    """No nested record or enum below ``t`` (most types): its id needs no walk."""
    for m in t.members:
        if m.record is not None or m.enum is not None:
            return False
    return not t.arms


def _ensure(t: SchemaType) -> int:
    # Iterative post-order over the records used below ``t``: a schema may nest thousands of
    # levels deep, beyond Python's recursion limit.
    found = _IDS.get(t)
    if found is not None:
        return found
    if _flat(t):
        value = _IDS[t] = _hash(_text(t))
        return value
    stack: List[Tuple[SchemaType, Iterable[SchemaType]]] = [(t, iter(_nested(t)))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if child not in _IDS:
                stack.append((child, iter(_nested(child))))
                break
        else:
            stack.pop()
            if node not in _IDS:
                _IDS[node] = _hash(_text(node))
    return _IDS[t]


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def canonical_text(t: SchemaType) -> str:
    """The text whose SHA-256 gives ``t``'s layout id (every line ends with a newline)."""
    for child in _nested(t):
        _ensure(child)
    return _text(t)


def layout_id(t: SchemaType) -> int:
    """``t``'s 64-bit layout fingerprint, an unsigned integer."""
    return _ensure(t)


def layout_id_hex(t: SchemaType) -> str:
    """``layout_id(t)`` spelt ``0x`` + 16 lowercase hex digits."""
    return format_layout_id(layout_id(t))


def layout_id_words(t: SchemaType) -> Tuple[int, int]:
    """``layout_id(t)`` as two 32-bit words, low word first (targets without 64-bit integers)."""
    value = layout_id(t)
    return value & 0xFFFFFFFF, value >> 32
