"""numpy structured dtypes that mirror the generated headers, member for member.

A dtype is read from the type's plan (``host.plan``, itself read from the member model), as
the codecs are: every offset and itemsize is the layout's, passed explicitly; numpy never
places a field itself. ``align=True`` is passed *with* those explicit offsets only so that
numpy records the element's alignment (``dtype.alignment == layout.align``) and checks,
rather than chooses, the offsets. Names follow SPEC §4, member for member with the C header:
records keep their field names (nested records are nested dtypes); a variant is ``tag`` at
its offset and ``data`` at the payload offset, a union whose members ``<Ctor>_v``
(constructors with arguments only) overlap at its offset 0. For a constructor of one
argument, ``<Ctor>_v`` is the argument itself (a scalar, or the nested record's dtype:
``data["Value_v"]``, as C reads ``v.data.Value_v``); for several, a struct of ``_0``,
``_1``… that spans the whole union.

One path: ``dtype_of`` takes a resolved schema type (what ``HostSchema.dtype`` gives) or a
bare elttype, whose member model ``host.model`` builds.

numpy is imported here and only here: the rest of sarek_layout works without it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple, Union

from ..ir.schema import SchemaType
from ..ir.types import TRecord, TVariant
from ..targets.naming import arm_name
from .model import model_of
from .plan import Plan, PlanMember, RecordPlan, VariantPlan, memoised, plan_of

__all__ = ["dtype_of"]


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "dtype() needs numpy, an optional dependency: pip install 'sarek-layout[numpy]'"
        ) from None
    return numpy


def dtype_of(t: Union[SchemaType, TRecord, TVariant]) -> Any:
    """The numpy structured dtype of a resolved record or variant type, or of a bare
    elttype (raises ``LayoutError`` like the layout core)."""
    if not isinstance(t, SchemaType):
        if not isinstance(t, (TRecord, TVariant)):
            raise TypeError(f"only records and variants have a dtype, not {t!r}")
        t = model_of(t)
    return _plan_dtype(plan_of(t))


#: dtypes built, by plan (a plan is hashed by identity, and memoised per schema type).
_DTYPES: Dict[Plan, Any] = {}


def _plan_dtype(plan: Plan) -> Any:
    return memoised(_DTYPES, plan, lambda: _record_dtype(plan) if isinstance(plan, RecordPlan)
                    else _variant_dtype(plan), 4096)


def _struct_dtype(names: List[str], formats: List[Any], offsets: List[int], itemsize: int) -> Any:
    return _numpy().dtype(
        {"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize}, align=True
    )


def _member_dtype(m: PlanMember) -> Any:
    # A scalar's numpy spelling is the scalar table's (``bool``/``unit``: 4-byte ints).
    return _plan_dtype(m.record) if m.record is not None else m.scalar.numpy  # type: ignore[union-attr]


def _members_dtype(members: Sequence[PlanMember], base: int, itemsize: int) -> Any:
    """A struct of ``members`` (offsets from the element start) placed from ``base``."""
    return _struct_dtype([m.name for m in members], [_member_dtype(m) for m in members],
                         [m.offset - base for m in members], itemsize)


def _record_dtype(plan: RecordPlan) -> Any:
    return _members_dtype(plan.members, 0, plan.size)


def _variant_dtype(plan: VariantPlan) -> Any:
    (tag,) = plan.key.members
    p = plan.payload_offset
    union_size = plan.size - p
    arms: List[Tuple[str, Any, int]] = []  # (member name, dtype, offset in the union)
    for ctor in plan.ctors:
        if not ctor.members:
            continue
        if len(ctor.members) == 1:  # the argument itself, at the payload offset (SPEC §4)
            (arg,) = ctor.members
            arms.append((arm_name(ctor.name), _member_dtype(arg), arg.offset - p))
            continue
        arms.append((arm_name(ctor.name), _members_dtype(ctor.members, p, union_size), 0))
    names, formats, offsets = [tag.name], [tag.scalar.numpy], [tag.offset]  # type: ignore[union-attr]
    if arms:
        union = _struct_dtype([n for n, _, _ in arms], [a for _, a, _ in arms],
                              [o for _, _, o in arms], union_size)
        names.append("data")
        formats.append(union)
        offsets.append(p)
    return _struct_dtype(names, formats, offsets, plan.size)
