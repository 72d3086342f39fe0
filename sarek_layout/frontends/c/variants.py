"""Tagged variants in C (SPEC §4), read back into the schema: the shape generated headers write.

A struct whose members, ignoring padding, are ``int32_t tag;`` and a union ``data`` of one
member ``<Ctor>_v`` per constructor with arguments: the argument itself for one
(``float Value_v;``), an inline struct of ``_0``, ``_1``, … for several; together with
``enum`` constants ``<T>_<Ctor>`` whose values are the tags ``0…n-1`` (constant
constructors appear only there). ``header`` decides that a struct has this shape and hands
it here with its enum constants; each part is checked at its place.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ...errors import SchemaError, quoted
from ...ir.schema import CtorDecl, NamedType, SourceLocation, TypeExpr, VariantDecl
from ...ir.types import TInt32
from ...targets.naming import ARM_SUFFIX, ctor_of_arm, is_padding
from .reader import without_padding

__all__ = ["read_variant"]

#: Constructors named in a message before the rest is elided.
_SHOWN = 8


def read_variant(reader, c_name: str, name: str, location: SourceLocation, members: Sequence,
                 enumerators: List[Tuple[str, object]]) -> VariantDecl:
    """The variant ``name`` of the struct ``c_name`` (``members``: its members, padding
    left out; ``enumerators``: the enum constants it owns), read by ``reader``
    (``header._Reader``: its declarations, places and member types)."""
    tag = members[0]
    tag_type = reader.member_type(tag, c_name, allow_enum=True)
    if tag_type is not None and not (
        isinstance(tag_type, NamedType) and tag_type.name == TInt32.name
    ):
        raise SchemaError(
            f"the tag of tagged variant {quoted(c_name)} must be int32_t, not {tag_type}",
            reader.loc(tag, "tag"),
        )
    if not enumerators:
        raise SchemaError(
            f"tagged variant {quoted(c_name)} has no enum constants '{c_name}_<Ctor>' giving its "
            f"constructors and tags; declare them (enum {{ {c_name}_A = 0, … }})",
            location,
        )
    tags = _tags(reader, c_name, enumerators)
    union_member = members[1] if len(members) > 1 else None
    arms = _arms(reader, c_name, union_member, [ctor for _, ctor, _ in tags])
    ctors = [CtorDecl(ctor, _arguments(reader, c_name, arms.get(ctor)),
                      reader.loc(node, f"{c_name}_{ctor}"))
             for _, ctor, node in tags]
    return VariantDecl(name, tuple(ctors), location)


def _tags(reader, c_name: str, enumerators) -> List[Tuple[int, str, object]]:
    """``(tag, constructor, enumerator)`` in tag order, which must be ``0…n-1``."""
    values: Dict[str, int] = {}
    tags: List[Tuple[int, str, object]] = []
    previous: Optional[int] = None
    for enum_name, node in enumerators:
        # C: an enumerator without a value is one more than the one before it in its enum.
        first = node is reader.h.first_enumerators.get(id(node))
        previous = reader.enum_constant(node, None if first else previous, values)
        values[enum_name] = previous
        tags.append((previous, enum_name[len(c_name) + 1 :], node))
    tags.sort(key=lambda t: t[0])
    if [t[0] for t in tags] != list(range(len(tags))):
        found = ", ".join(f"{c_name}_{n} = {v}" for v, n, _ in tags[:_SHOWN])
        if len(tags) > _SHOWN:
            found += f", … ({len(tags)} constants)"
        raise SchemaError(
            f"the tags of tagged variant {quoted(c_name)} must be 0, 1, …, {len(tags) - 1}, one "
            f"per constructor; found {found}",
            reader.loc(tags[0][2], f"{c_name}_{tags[0][1]}"),
        )
    return tags


def _arms(reader, c_name: str, union_member, ctor_names: List[str]) -> Dict[str, object]:
    """The union's arms by constructor: each must name one, and be its one argument or an
    inline struct of its arguments."""
    from pycparser import c_ast

    arms: Dict[str, object] = {}
    if union_member is None:
        return arms
    ctor_set = set(ctor_names)
    for arm in union_member.type.type.decls or ():
        if is_padding(arm.name):
            continue
        ctor = ctor_of_arm(arm.name or "")
        if ctor not in ctor_set:
            raise SchemaError(
                f"union member {quoted(arm.name)} of tagged variant {quoted(c_name)} names no "
                f"constructor: arms are '<Ctor>{ARM_SUFFIX}' for the enum constants "
                f"{', '.join(f'{c_name}_{n}' for n in ctor_names[:_SHOWN])}"
                f"{', …' if len(ctor_names) > _SHOWN else ''}",
                reader.loc(arm, arm.name),
            )
        arm_struct = getattr(arm.type, "type", None)
        if isinstance(arm_struct, c_ast.Struct) and arm_struct.decls is None \
                and reader.h.typedef_of_tag(arm_struct.name) is None:
            raise SchemaError(
                f"union member {quoted(arm.name)} of tagged variant {quoted(c_name)} must be "
                f"the constructor's one argument, or an inline struct of its arguments "
                f"_0, _1, …",
                reader.loc(arm, arm.name),
            )
        arms[ctor] = arm
    return arms


def _arguments(reader, c_name: str, arm) -> Tuple[TypeExpr, ...]:
    """A constructor's argument types: none without an arm, the arm itself for one (SPEC
    §4, as Sarek emits), the members ``_0``, ``_1``, … of an inline struct for several."""
    from pycparser import c_ast

    if arm is None:
        return ()
    arm_struct = getattr(arm.type, "type", None)
    if not (isinstance(arm_struct, c_ast.Struct) and arm_struct.decls is not None):
        return (reader.member_type(arm, c_name),)
    args: List[TypeExpr] = []
    for i, m in enumerate(without_padding(arm_struct.decls)):
        if m.name != f"_{i}":
            raise SchemaError(
                f"member {quoted(m.name)} of {quoted(arm.name)} in tagged variant "
                f"{quoted(c_name)}: constructor arguments are named _0, _1, … in order "
                f"(expected _{i})",
                reader.loc(m, m.name),
            )
        args.append(reader.member_type(m, c_name))
    return tuple(args)
