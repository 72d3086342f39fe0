"""One difference ``diff`` reports between OLD and NEW, tagged with the rule that classifies
it (``rules.RULES``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from ..ir.schema import SourceLocation
from .rules import BREAKING, RULES

__all__ = ["Change", "Value"]

Value = Union[int, str, None]


@dataclass(frozen=True)
class Change:
    """One difference between OLD and NEW: under type ``type_name`` at member path ``where``
    (``""`` for the type itself, ``Circle`` for a constructor, ``Circle._1`` for its
    argument), what changed (``what``) from ``old`` to ``new``, by ``rule``."""

    rule: str
    type_name: str
    where: str
    what: str
    old: Value = None
    new: Value = None
    #: Where to look: the NEW declaration when there is one, else the OLD one.
    location: Optional[SourceLocation] = field(default=None, compare=False)
    #: A breaking change the user accepted with ``--allow``.
    allowed: bool = False

    @property
    def severity(self) -> str:
        return RULES[self.rule].severity

    @property
    def breaking(self) -> bool:
        return self.severity == BREAKING and not self.allowed

    @property
    def subject(self) -> str:
        """``Geometry.particle.mass``: the type, then the member path."""
        return f"{self.type_name}.{self.where}" if self.where else self.type_name
