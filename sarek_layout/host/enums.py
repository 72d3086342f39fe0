"""The API's enum classes and the runtime objects the codecs check repeated members with.

An enum type of a schema (SPEC §1b) is, for the Python API, an ``IntEnum`` class named by its
C name, its members named by the value names (a Python keyword, a name every class or every
IntEnum member has, escaped as the python target escapes it: ``None`` → ``None_``,
``name`` → ``name_``), one per value (a repeated
value is an alias, as in C). ``HostSchema.enum`` hands it out and decoding gives its members;
encoding takes a member of any IntEnum whose value is one of the enum's, a value name or
such an integer. The class is memoised by the enum's structure and C name, so two loads of
one schema share it, as they share their codecs.

``repeat_runtime`` builds the runtime's ``_sarek_Repeat`` of a plan member from its
``Repeat`` (``host.plan``): the codecs' fast functions and their checking walk use the same
object as the generated module, whose view (``python_target``) spells the same arguments.
"""

from __future__ import annotations

import enum
from typing import Dict, Tuple, Type

from ..ir.schema import SchemaType
from ..ir.types import Scalar, TEnum
from ._runtime import _sarek_ScalarRow
from ._runtime_kinds import _sarek_enum_spec, _sarek_EnumSpec, _sarek_Repeat
from .plan import LIMIT, PlanMember, memoised
from .python_target import enum_value_name, python_name

__all__ = ["enum_class", "enum_spec", "repeat_runtime", "scalar_row"]

_CLASSES: Dict[Tuple[TEnum, str], Type[enum.IntEnum]] = {}
_SPECS: Dict[Tuple[TEnum, str], _sarek_EnumSpec] = {}


def scalar_row(s: Scalar) -> _sarek_ScalarRow:
    """A scalar's row of the scalar table, as the runtime's checks take it."""
    return (s.name, s.kind, s.struct_format, s.int_range)


def enum_class(st: SchemaType) -> Type[enum.IntEnum]:
    """The IntEnum class of the enum type ``st`` (memoised)."""
    t: TEnum = st.elttype  # type: ignore[assignment]
    return memoised(_CLASSES, (t, st.c_name), lambda: enum.IntEnum(  # type: ignore[return-value]
        python_name(st.c_name), [(enum_value_name(n), v) for n, v in t.values],
        module=__name__, qualname=python_name(st.c_name)), LIMIT)


def enum_spec(st: SchemaType) -> _sarek_EnumSpec:
    """What the runtime checks a value of the enum type ``st`` against (memoised)."""
    t: TEnum = st.elttype  # type: ignore[assignment]
    return memoised(_SPECS, (t, st.c_name),
                    lambda: _sarek_enum_spec(st.qualified_name, enum_class(st), t.values), LIMIT)


def repeat_runtime(m: PlanMember, path: str) -> _sarek_Repeat:
    """The runtime object that packs, checks and reads the repeated member ``m`` (at
    ``path`` from its element, for messages)."""
    r = m.repeat
    assert r is not None, m
    return _sarek_Repeat(path, r.shape, scalar_row(m.scalar) if m.scalar is not None else None,
                         enum_spec(m.enum) if m.enum is not None else None,
                         "=" + r.row, r.per_row, r.rows, m.size)
