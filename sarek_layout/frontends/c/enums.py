"""C enums: the values of their constants, and enum types read as schema enums (SPEC §1b).

An enumerator without a value is one more than the one before it in its enum (0 for the
first); one with a value is an integer constant expression (``constants.evaluate``) of
literals and the constants declared before it, of any enum.

**Enum types.** Every ``typedef enum … name;`` and every plain ``enum tag {…};`` that no
typedef names (``reader.EnumTypedef``) is a type of the schema, an ``EnumDecl`` of base
``int32`` with the enum's values. ISO C requires each value to fit an ``int``; every hosted
ABI (gcc, clang and MSVC on x86, x86-64, ARM and AArch64) then gives the enum the size and
alignment of an ``int``, 4 (gcc makes an enum without negative values ``unsigned int``: the
same bytes for values up to 2^31 - 1). Refused: a value outside int32 (gcc then makes the
enum ``unsigned int`` or 8 bytes, MSVC keeps ``int`` and truncates), and an attribute that
changes its size (``packed``, ``mode``). What a header cannot say: ``-fshort-enums`` (the
default of bare-metal ARM EABI toolchains) makes every enum the smallest integer holding its
values; a header built that way lays its enums out otherwise.

**Value names** are the enumerators' names, less the prefix ``<C name>_`` when every one of
them has it (what generated headers write: ``Geo_mode_Fast`` is the value ``Fast`` of the
enum ``Geo_mode``), so that a header written from a schema reads back to the same names.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from ...errors import SchemaError, quoted
from ...ir.schema import EnumDecl, EnumValue, SourceLocation
from ...ir.types import TInt32
from .constants import evaluate

__all__ = ["enum_value", "EnumConstants", "read_enum_type"]


def enum_value(node, previous: Optional[int], known: Dict[str, int],
               refuse: Callable[[str], SchemaError], scalar_of=None) -> int:
    """The value of the enumerator ``node`` (a pycparser ``Enumerator``): one more than
    ``previous`` (the enumerator before it in its enum; None for the first) when it has no
    expression, else its expression with ``known`` constants. ``refuse(why)`` makes the
    error to raise."""
    if node.value is None:
        value = previous + 1 if previous is not None else 0
        if value > (1 << 63) - 1:
            raise refuse("it is outside the 64-bit range")
        return value
    return evaluate(node.value, known, refuse, scalar_of)


class EnumConstants:
    """The enum constants of one translation unit (``reader.CDeclarations.enum_nodes``), each
    enum evaluated once, in declaration order, when first asked for: the values an array size
    may use, and each enum's values or the refusal of its first bad one."""

    def __init__(self, h, refuse_at: Callable[[object, str], SchemaError], scalar_of) -> None:
        self._h = h
        self._refuse_at = refuse_at
        self._scalar_of = scalar_of
        self._known: Optional[Dict[str, int]] = None
        #: id(Enum node) -> its values in order, or the refusal of its first bad one.
        self._by_enum: Dict[int, object] = {}

    @property
    def known(self) -> Dict[str, int]:
        """Every enum constant whose value could be evaluated, by name."""
        if self._known is None:
            self._evaluate()
        return self._known  # type: ignore[return-value]

    def values_of(self, enum) -> List[int]:
        """The values of the file-scope ``enum`` (its refusal raised)."""
        if self._known is None:
            self._evaluate()
        found = self._by_enum.get(id(enum))
        if found is None:  # not at file scope (defined inside a struct): on its own
            found = self._evaluate_one(enum, dict(self.known))
        if isinstance(found, SchemaError):
            raise found
        return found  # type: ignore[return-value]

    def _evaluate(self) -> None:
        known: Dict[str, int] = {}
        for enum in self._h.enum_nodes:
            self._by_enum[id(enum)] = self._evaluate_one(enum, known)
        self._known = known

    def _evaluate_one(self, enum, known: Dict[str, int]):
        values: List[int] = []
        previous: Optional[int] = None
        for node in enum.values.enumerators:
            def refuse(why: str, node=node) -> SchemaError:
                return self._refuse_at(node, f"cannot evaluate the value of enum constant "
                                             f"{quoted(node.name)}: {why}")
            try:
                previous = enum_value(node, previous, known, refuse, self._scalar_of)
            except SchemaError as e:
                return e  # the later ones depend on it
            known[node.name] = previous
            values.append(previous)
        return values


def read_enum_type(reader, c_name: str, name: str, td, location: SourceLocation) -> EnumDecl:
    """The enum type ``c_name`` (schema name ``name``) of the enum typedef ``td``, read by
    ``reader`` (``header._Reader``: its declarations, places, extensions and constants)."""
    changes = reader.changes
    changed = changes.changed_names.get(c_name) or (
        changes.changed_names.get(td.tag) if td.tag else None)
    if changed is not None:
        raise SchemaError(f"enum {quoted(c_name)} is not laid out as an int: an attribute "
                          f"changes its size ({changed.location}: {changed.message})",
                          changed.location)
    body = reader.h.body_of(td)
    values = reader.constants.values_of(body)
    low, high = TInt32.int_range  # type: ignore[misc]
    nodes = body.values.enumerators
    for node, value in zip(nodes, values):
        if not low <= value <= high:
            raise SchemaError(
                f"enum constant {quoted(node.name)} of {quoted(c_name)} is {value}, outside "
                f"int32: ISO C requires an enum's values to fit an int (gcc then makes the enum "
                f"unsigned int or 8 bytes, MSVC keeps int and truncates), so the enum's size or "
                f"values differ between ABIs", reader.loc(node, node.name))
    reader.enum_spellings[c_name] = tuple(n.name for n in nodes)
    names = _value_names(c_name, [n.name for n in nodes])
    return EnumDecl(name, TInt32.name, tuple(
        EnumValue(value_name, value, reader.loc(node, node.name))
        for value_name, value, node in zip(names, values, nodes)), location)


def _value_names(c_name: str, enumerators: List[str]) -> List[str]:
    """The enumerators less the prefix ``<c_name>_`` when every one has it and what is left
    of each is a name (``Geo_mode_2D`` keeps its prefix: ``2D`` is none)."""
    prefix = c_name + "_"
    stripped = [n[len(prefix):] for n in enumerators if n.startswith(prefix)]
    if len(stripped) == len(enumerators) and all(s.isidentifier() for s in stripped):
        return stripped
    return enumerators

