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
``_1``… that spans the whole union. A fixed array, vector or matrix member is a sub-array
(``('color', '<f4', (4,))``, a matrix ``(columns, rows)``), read from its strides: where an
element is followed by padding up to the stride, the element is a struct of one field ``v``
with the stride as its itemsize (``a['pts']['v']``). An enum member is its base integer; a
``char[32]`` is a byte string ``S32`` (where its bytes are back to back).

One path: ``dtype_of`` takes a resolved schema type (what ``HostSchema.dtype`` gives) or a
bare elttype, whose member model ``host.model`` builds.

numpy is imported here and only here: the rest of sarek_layout works without it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple, Union

from ..ir.schema import Dim, SchemaType
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
    np = _numpy()
    formats = [np.dtype(f) for f in formats]
    # numpy records an alignment only when it divides the itemsize: a record of the scalar
    # block layout ends at its last member (``{float64; float32}``: 12 bytes, 8-aligned).
    align = itemsize % max(f.alignment for f in formats) == 0
    return np.dtype(
        {"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize}, align=align
    )


def _member_dtype(m: PlanMember) -> Any:
    # A scalar's numpy spelling is the scalar table's (``bool``/``unit``: 4-byte ints; an
    # enum: its base).
    element = _plan_dtype(m.record) if m.record is not None else m.scalar.numpy  # type: ignore[union-attr]
    if m.scalar is not None and m.scalar.is_char and m.dims[-1].stride == 1:
        # A char array's last level, back to back, is one byte string (``S32``).
        return _repeated(_numpy().dtype(f"S{m.dims[-1].count}"), m.dims[:-1])
    return _repeated(_numpy().dtype(element), m.dims) if m.dims else element


def _repeated(element: Any, dims: Sequence[Dim]) -> Any:
    """A sub-array of ``element`` per level of ``dims``, innermost first. Where the stride is
    larger than the element (a std430 ``vec3<float32>`` in an array, a std140 ``float32[4]``)
    the element is a struct of one field ``v`` whose itemsize is the stride, so every element
    is read at its own offset."""
    np = _numpy()
    d = element
    for dim in reversed(dims):
        if dim.stride != d.itemsize:
            d = _struct_dtype(["v"], [d], [0], dim.stride)
        if d.subdtype is not None:  # levels back to back: one sub-array of both shapes
            base, shape = d.subdtype
            d = np.dtype((base, (dim.count,) + shape))
        else:
            d = np.dtype((d, (dim.count,)))
    return d


def _members_dtype(members: Sequence[PlanMember], base: int, itemsize: int) -> Any:
    """A struct of ``members`` (offsets from the element start) placed from ``base``."""
    formats = [_member_dtype(m) for m in members]
    for m, f in zip(members, formats):
        if m.offset - base + _numpy().dtype(f).itemsize > itemsize:
            raise ValueError(
                f"numpy cannot describe member {m.name!r}: its last element ends "
                f"{_numpy().dtype(f).itemsize - m.size} bytes before its stride, past the end of "
                f"the element (its rule set does not pad an array's last element, as the scalar "
                f"block layout and HLSL constant buffers do not); encode and decode it with the "
                f"codec instead")
    return _struct_dtype([m.name for m in members], formats,
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
