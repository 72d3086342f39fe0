"""Which names a schema may hold, and which of them each emitted target can take.

In every target, a schema name must be a plain ASCII identifier (``identifier_problem``) that
none of sarek-layout's own names uses (``own_name_problem``): the resolver judges these, for
every command. Everything else depends on the target a name is emitted in: ``check_names``
asks the per-target decision (``targets.name_rules``: kept, escaped or refused, and why) for
every name of a schema, where each is emitted (a type's C name ``Module_type``, a field, a
constructor's enum constant ``Module_type_Ctor``, ``make_…`` helper and union arm
``<Ctor>_v``), and adds what depends on the schema itself: a member named like a layout
fingerprint macro or constant that a target defines for one of its types
(``Geo_p_LAYOUT_ID``). ``generate`` and ``verify`` ask it for the targets they emit, so a name
is refused only where it breaks a target, and the refusal names the target: a type ``float4``
of module ``NBody`` is emitted as ``NBody_float4`` and is fine; with module ``""`` it is
refused in OpenCL C and CUDA, which declare that vector type, and kept elsewhere.
"""

from __future__ import annotations

import functools
import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..errors import SchemaError, raise_collected
from .name_rules import (ARM, FIELD, FILE, NAME_TARGETS, emits_bare_enum_values,
                         emits_ctor_names, explain, judge, problem, refusals, shadowing_suffixes,
                         spelling)
from .naming import (FLOAT16_TYPEDEF, OWN_PREFIX, PADDING_PREFIX, arm_name, enum_constant,
                     make_name)

__all__ = [
    "MAX_NAME_LENGTH",
    "PADDING_PREFIX",
    "OWN_PREFIX",
    "FLOAT16_TYPEDEF",
    "LAYOUT_ID_SUFFIXES",
    "FIELD",
    "ARM",
    "FILE",
    "NAME_TARGETS",
    "identifier_problem",
    "own_name_problem",
    "judge",
    "spelling",
    "problem",
    "refusals",
    "check_names",
]

#: Longest accepted name. C guarantees only 63 significant characters in an identifier, and a
#: name is joined into longer ones (``Module_type_Ctor``, ``make_…``).
MAX_NAME_LENGTH = 63

#: What the targets append to a type's C name for its layout fingerprint and the check of
#: one (``Geometry_point_LAYOUT_ID``, ``Geometry_point_LAYOUT_OK(id)``; GLSL's 64-bit
#: ``_LAYOUT_ID64``; docs/fingerprint.md): no other C name may be spelt so.
LAYOUT_ID_SUFFIXES = ("_LAYOUT_ID", "_LAYOUT_OK", "_LAYOUT_ID64")

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def identifier_problem(name: object, *, file_scope: bool = False) -> Optional[str]:
    """Why ``name`` cannot be a schema name in any target, or ``None`` when its form is fine.

    The form only: a plain ASCII identifier of at most ``MAX_NAME_LENGTH`` characters, and
    with ``file_scope`` (the name of a type or module, which becomes part of a C name at file
    scope, where C reserves every name starting with '_'), not starting with '_'. Whether a
    target can emit it is ``judge``'s question. The answer is a sentence fragment.
    """
    if not isinstance(name, str):
        return f"must be a string, not {type(name).__name__}"
    return _str_identifier_problem(name, file_scope)


# Cached: a schema repeats a few names (f0, x, y…) thousands of times, and this check
# was the largest single cost of resolving a 10,000-type schema (docs/benchmarks.md).
@functools.lru_cache(maxsize=1 << 16)
def _str_identifier_problem(name: str, file_scope: bool) -> Optional[str]:
    if not name:
        return "is empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"is longer than the limit of {MAX_NAME_LENGTH} characters"
    if not name.isascii():
        return "contains non-ASCII characters (identifiers must be plain ASCII in every target)"
    if not _IDENTIFIER.match(name):
        return "is not a valid identifier (letters, digits and '_', not starting with a digit)"
    if file_scope and name.startswith("_"):
        return (
            "starts with '_': C reserves such names at file scope, where type and module "
            "names end up (fields may start with '_')"
        )
    return own_name_problem(name)


def own_name_problem(name: str) -> Optional[str]:
    """Why ``name`` would meet a name every target's generated file adds itself, or ``None``."""
    if name.startswith(PADDING_PREFIX):
        return f"uses the prefix {PADDING_PREFIX!r}, reserved for sarek-layout's padding members"
    if name.lower().startswith(OWN_PREFIX):
        return f"uses the prefix {OWN_PREFIX!r}, reserved for the generated headers' own names"
    return None



# --- a schema's names, for the targets it is emitted in --------------------------------------


def check_names(schema, targets: Sequence[str]) -> None:
    """Raise every name of ``schema`` that one of ``targets`` cannot emit (``SchemaError``, or
    ``SchemaErrors`` for several), one line per place, naming the targets it breaks.

    Every type's C name, every field, and every constructor's enum constant, ``make_`` helper
    and union arm. One cause is reported once: a type's constructors are not judged where the
    type's own C name is refused (theirs start with it), and a module whose prefix spoils every
    C name (``size`` + ``t`` is ``size_t``; ``M__`` has '__') is refused at its first type."""
    names = _SchemaNames(schema, tuple(dict.fromkeys(targets)))
    for st in schema.types:
        ctor_targets = names.type_c_name(st)
        if st.decl.kind == "record":
            for f in st.decl.fields:
                names.member(f.name, FIELD, "field name", "", "choose another name", f.location)
            continue
        if st.decl.kind == "enum":  # its values' constants, as a variant's tags (SPEC §1b)
            for value in st.decl.values:
                c_name = enum_constant(st.c_name, value.name)
                found = refusals(ctor_targets, c_name, FILE)
                if found:
                    names.refuse(f"C name {c_name!r} of enum value {st.qualified_name}."
                                 f"{value.name}", found, "rename the value or its type",
                                 value.location)
                # A target that emits the values bare (TypeScript's const object) judges
                # them as members too.
                names.member(value.name, FIELD, "enum value", f" of enum {st.qualified_name}",
                             "rename the value", value.location, names.bare_value_targets)
            continue
        for ctor in st.decl.ctors:
            where = f"constructor {st.qualified_name}.{ctor.name}"
            for c_name in (f"{st.c_name}_{ctor.name}", make_name(st.c_name, ctor.name)):
                found = refusals(ctor_targets, c_name, FILE)
                if found:  # the enum constant and the helper share a cause: said once
                    names.refuse(f"C name {c_name!r} of {where}", found,
                                 "rename the constructor or its type", ctor.location)
                    break
            if ctor.args:
                names.member(arm_name(ctor.name), ARM, "union arm", f" of {where}",
                             "rename the constructor", ctor.location)
    raise_collected(names.errors)


class _SchemaNames:
    """One ``check_names`` walk: its refusals, the modules whose prefix spoils every C name
    (per target), and each member name's judgement, made once however often it is used."""

    def __init__(self, schema, targets: Tuple[str, ...]) -> None:
        self.targets = targets
        self.errors: List[SchemaError] = []
        self.shadowed = _shadowed_names(schema, targets)
        self.spoilt: Dict[str, Tuple[str, ...]] = {}
        self.members: Dict[Tuple[str, str], List[Tuple[str, str]]] = {}
        self.bare_value_targets = tuple(t for t in targets if emits_bare_enum_values(t))

    def refuse(self, what: str, refused, fix: str, location) -> None:
        self.errors.append(SchemaError(f"{what} {explain(refused)}; {fix}", location))

    def type_c_name(self, st) -> Tuple[str, ...]:
        """Judge ``st``'s C name; the targets its constructors' C names are then judged for."""
        judged = tuple(t for t in self.targets if t not in self.spoilt.get(st.module, ()))
        refused = refusals(judged, st.c_name, FILE)
        if refused:
            self.refuse(f"C name {st.c_name!r} of type {st.qualified_name!r}", refused,
                        "rename the type or its module", st.decl.location)
            if st.module:
                prefix = refusals(tuple(t for t, _ in refused), f"{st.module}_a", FILE)
                self.spoilt[st.module] = self.spoilt.get(st.module, ()) + tuple(t for t, _ in prefix)
        refusing = {t for t, _ in refused}
        return tuple(t for t in judged if emits_ctor_names(t) and t not in refusing)

    def member(self, name: str, place: str, what: str, of: str, fix: str, location,
               targets: Optional[Tuple[str, ...]] = None) -> None:
        """Judge the member ``name`` (``what`` it is, ``of`` what, for the message) for
        ``targets`` (default: all)."""
        if targets is not None:
            found = refusals(targets, name, place)
        else:
            found = self.members.get((name, place))
        if found is None:
            found = self.members[(name, place)] = (
                refusals(self.targets, name, place) + list(self.shadowed.get(name, ())))
        if found:
            self.refuse(f"{what} {name!r}{of}", found, fix, location)


def _shadowed_names(schema, targets: Sequence[str]) -> Dict[str, List[Tuple[str, str]]]:
    """Member name -> ``[(target, why)]`` for the names a generated macro or constant takes
    (``<C name>_LAYOUT_ID``…) in ``targets``: a member spelt so would be rewritten (a macro)
    or read as the constant (a Rust parameter pattern)."""
    out: Dict[str, List[Tuple[str, str]]] = {}
    for target in targets:
        for suffix, kind in shadowing_suffixes(target):
            for st in schema.types:
                out.setdefault(st.c_name + suffix, []).append((target, (
                    f"is the layout fingerprint {kind} of type {st.qualified_name!r}, which "
                    f"would {'rewrite it' if kind == 'macro' else 'stand for it in a parameter'}")))
    return out
