"""Every error sarek-layout raises on purpose, in one small hierarchy.

``SarekLayoutError`` is the root: the command line turns any of them into a diagnostic and
an exit status, and anything else reaching the top is a bug. ``LayoutError`` and its three
typed payloads mirror Sarek's ``Sarek_ir_layout.layout_error``. ``SchemaError`` carries a
source location so that messages read ``FILE:LINE:COL: error: …``; ``SchemaErrors`` is several
of them, independent refusals of the same input reported together (one line each), and is a
``SchemaError`` itself (its first error's message and place), so every handler of one handles
both. Every ``SchemaError`` lists what it stands for in ``.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .ir.schema import SourceLocation

__all__ = [
    "SarekLayoutError",
    "MisalignedField",
    "NestedVariant",
    "UnsupportedField",
    "MixedRules",
    "TooLarge",
    "LayoutErrorKind",
    "LayoutError",
    "layout_error_message",
    "SchemaError",
    "SchemaErrors",
    "raise_collected",
    "UsageError",
    "ToolchainMissing",
    "quoted",
]


def quoted(value: object, limit: int = 48) -> str:
    """``repr`` of a user-supplied value for a message, cut short if it is enormous."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 4]}...{text[-1]} ({len(str(value))} characters)"


class SarekLayoutError(Exception):
    """Root of the errors the tool reports to users (never a traceback)."""

    #: Exit status the command line uses for this error (SPEC §5).
    exit_status = 2


# --- layout errors (Sarek_ir_layout.layout_error) -------------------------------------------


@dataclass(frozen=True)
class MisalignedField:
    """A scalar leaf landed off its natural alignment: an internal invariant guard."""

    type_name: str
    field: str
    offset: int
    required_align: int


@dataclass(frozen=True)
class NestedVariant:
    """A variant below top level (record field or constructor argument, at any depth)."""

    type_name: str
    field: str


@dataclass(frozen=True)
class UnsupportedField:
    """A field type with no byte layout; ``what`` names the kind (``array``, ``vector``)."""

    type_name: str
    field: str
    what: str


@dataclass(frozen=True)
class MixedRules:
    """A record of one rule set used inside a type of another (SPEC §1b): its size and
    alignment depend on the rules, so it must be declared under each."""

    type_name: str
    field: str
    inner_type: str
    inner_rules: str
    rules: str


@dataclass(frozen=True)
class TooLarge:
    """A type (or member) over 2^31 - 1 bytes: it would not compile on a 32-bit ABI."""

    type_name: str
    field: str
    size: int


LayoutErrorKind = Union[MisalignedField, NestedVariant, UnsupportedField, MixedRules, TooLarge]


def layout_error_message(e: Union[LayoutErrorKind, "LayoutError"]) -> str:
    """Render ``e`` for a person, in the words of Sarek's own ``layout_error_message``: the
    type, the field, the numbers, and what to do instead. ``e`` may also be the caught
    ``LayoutError`` itself (its ``.error`` is rendered)."""
    if isinstance(e, LayoutError):
        e = e.error
    if isinstance(e, MisalignedField):
        return (
            f"layout of '{e.type_name}': field '{e.field}' at byte offset {e.offset} is "
            f"misaligned (its type requires {e.required_align}-byte alignment); the aligned "
            f"layout never places a field there, so this is an internal invariant broken: "
            f"please report the schema"
        )
    if isinstance(e, NestedVariant):
        return (
            f"layout of '{e.type_name}': field '{e.field}' is a variant nested below top "
            f"level; variants are only supported as the element type itself. Hoist the "
            f"variant to its own vector or flatten its payload into the enclosing record"
        )
    if isinstance(e, UnsupportedField):
        return (
            f"layout of '{e.type_name}': field '{e.field}' has type {e.what}, which has no "
            f"byte layout in a vector element; pass it as a separate kernel parameter instead"
        )
    if isinstance(e, MixedRules):
        return (
            f"layout of '{e.type_name}': field '{e.field}' is '{e.inner_type}', laid out by "
            f"the {e.inner_rules} rules, inside a type laid out by the {e.rules} rules; a "
            f"type's size and alignment depend on its rules, so declare it once under each"
        )
    if isinstance(e, TooLarge):
        return (
            f"layout of '{e.type_name}': '{e.field}' would be {e.size} bytes, over the "
            f"largest type that compiles on every 32-bit ABI (2147483647 bytes)"
        )
    raise TypeError(f"not a layout error: {e!r}")


class LayoutError(SarekLayoutError):
    """Raised by the layout functions; ``.error`` is the typed reason (Layout_error)."""

    def __init__(self, error: LayoutErrorKind) -> None:
        super().__init__(layout_error_message(error))
        self.error = error


# --- schema and usage errors ----------------------------------------------------------------


class SchemaError(SarekLayoutError):
    """Bad input, with the place it was found: ``FILE:LINE:COL: error: message``."""

    def __init__(self, message: str, location: Optional["SourceLocation"] = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is None:
            return f"error: {self.message}"
        return f"{self.location}: error: {self.message}"

    @property
    def errors(self) -> Tuple["SchemaError", ...]:
        """The single refusals this error stands for: itself (``SchemaErrors``: several)."""
        return (self,)


class SchemaErrors(SchemaError):
    """Several independent refusals of the same input, in the order they were found.

    A reader or the resolver that can go on past a refusal (another declaration, another
    type) collects them, so that one run names every refused type instead of the first only.
    Knock-on errors (a type refused because a type it uses was) are not collected. As a
    ``SchemaError`` it is its first error (``message``, ``location``); ``str()`` is one
    ``FILE:LINE:COL: error: …`` line per error.
    """

    def __init__(self, errors: Sequence[SchemaError]) -> None:
        flat: List[SchemaError] = [one for e in errors for one in e.errors]
        if not flat:
            raise ValueError("SchemaErrors needs at least one error")
        super().__init__(flat[0].message, flat[0].location)
        self._errors = tuple(flat)

    @property
    def errors(self) -> Tuple[SchemaError, ...]:
        return self._errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self._errors)


def raise_collected(errors: Sequence[SchemaError]) -> None:
    """Raise what ``errors`` holds, if anything: one error as itself, several together."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise SchemaErrors(errors)


class UsageError(SarekLayoutError):
    """Bad command-line usage (unknown type name, missing output folder…)."""


class ToolchainMissing(SarekLayoutError):
    """A toolchain asked for by name cannot be used (not installed, or its detection run was
    stopped); the message says how to install it, or that it was stopped."""
