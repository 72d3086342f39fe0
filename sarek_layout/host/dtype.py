"""numpy structured dtypes that mirror the generated headers, member for member.

Every offset and itemsize is the layout core's, passed explicitly; numpy never places a
field itself. ``align=True`` is passed *with* those explicit offsets only so that numpy
records the element's alignment (``dtype.alignment == layout.align``) and checks, rather than
chooses, the offsets. Names follow SPEC §4, member for member with the C header: records keep
their field names (nested records are nested dtypes); a variant is ``tag`` at 0 and ``data``
at the payload offset, a union whose members ``<Ctor>_v`` (constructors with arguments only)
overlap at its offset 0. For a constructor of one argument, ``<Ctor>_v`` is the argument
itself (a scalar, or the nested record's dtype: ``data["Value_v"]``, as C reads
``v.data.Value_v``); for several, a struct of ``_0``, ``_1``… that spans the whole union.

A resolved schema type's dtype (``schema_dtype_of``, what ``HostSchema.dtype`` gives) is read
from its member model (``SchemaType.members``/``arms``), as the headers are; only a bare
elttype, which has no member model, is laid out here by the layout core (``dtype_of``).

numpy is imported here and only here: the rest of sarek_layout works without it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple, Union

from ..ir.schema import SchemaType
from ..ir.types import SCALARS, TInt32, TRecord, TVariant
from ..layout.core import record_layout_of, variant_layout
from ..targets.naming import arm_name
from .plan import elttype_key

__all__ = ["dtype_of", "schema_dtype_of", "SCALAR_DTYPE"]

#: numpy spelling of each scalar, from the scalar table (``bool``/``unit`` are 4-byte ints).
SCALAR_DTYPE = {t: t.numpy for t in SCALARS.values()}


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "dtype() needs numpy, an optional dependency: pip install 'sarek-layout[numpy]'"
        ) from None
    return numpy


def _struct_dtype(np: Any, names: List[str], formats: List[Any], offsets: List[int], itemsize: int) -> Any:
    return np.dtype(
        {"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize}, align=True
    )


def _member_dtype(t: object) -> Any:
    if isinstance(t, TRecord):
        return dtype_of(t)
    return t.numpy  # type: ignore[attr-defined]


#: dtypes built, by the elttype's structural key (``plan.elttype_key``: ``TRecord``'s own
#: ``==`` is exponential on distinct copies of shared nesting).
_DTYPES: Dict[bytes, Any] = {}


def dtype_of(t: Union[TRecord, TVariant]) -> Any:
    """The numpy structured dtype of a record or variant elttype (raises ``LayoutError``)."""
    key = elttype_key(t)
    found = _DTYPES.get(key)
    if found is None:
        if len(_DTYPES) > 4096:
            _DTYPES.clear()
        found = _DTYPES[key] = _dtype_of(t)
    return found


def _dtype_of(t: Union[TRecord, TVariant]) -> Any:
    np = _numpy()
    if isinstance(t, TRecord):
        layout = record_layout_of(t)
        names = [m.name for m in layout.members]
        formats = [_member_dtype(m.type) for m in layout.members]
        offsets = [m.offset for m in layout.members]
        return _struct_dtype(np, names, formats, offsets, layout.size)
    if isinstance(t, TVariant):
        vl = variant_layout(t.name, t.ctors)
        union_size = vl.size - vl.payload_offset
        arms: List[Tuple[str, Any, int]] = []  # (member name, dtype, offset in the union)
        for (name, args), c in zip(t.ctors, vl.ctors):
            if not args:
                continue
            if len(args) == 1:  # the argument itself, at the payload offset (SPEC §4)
                (arg,) = c.args
                arms.append((arm_name(name), _member_dtype(arg.type), arg.offset - vl.payload_offset))
                continue
            arm = _struct_dtype(
                np, [a.name for a in c.args], [_member_dtype(a.type) for a in c.args],
                [a.offset - vl.payload_offset for a in c.args], union_size,
            )
            arms.append((arm_name(name), arm, 0))
        names, formats, offsets = ["tag"], [SCALAR_DTYPE[TInt32]], [vl.tag_offset]
        if arms:
            union = _struct_dtype(np, [n for n, _, _ in arms], [a for _, a, _ in arms],
                                  [o for _, _, o in arms], union_size)
            names.append("data")
            formats.append(union)
            offsets.append(vl.payload_offset)
        return _struct_dtype(np, names, formats, offsets, vl.size)
    raise TypeError(f"only records and variants have a dtype, not {t!r}")


#: dtypes of resolved schema types, by identity (a ``SchemaType`` is its own key).
_SCHEMA_DTYPES: Dict[int, Tuple[SchemaType, Any]] = {}


def schema_dtype_of(st: SchemaType) -> Any:
    """The numpy structured dtype of a resolved schema type, from its member model."""
    found = _SCHEMA_DTYPES.get(id(st))
    if found is not None and found[0] is st:
        return found[1]
    if len(_SCHEMA_DTYPES) > 4096:
        _SCHEMA_DTYPES.clear()
    built = _schema_dtype_of(st)
    _SCHEMA_DTYPES[id(st)] = (st, built)
    return built


def _model_dtype(m: Any) -> Any:
    return schema_dtype_of(m.record) if m.record is not None else m.scalar.numpy


def _schema_dtype_of(st: SchemaType) -> Any:
    np = _numpy()
    if st.kind == "record":
        return _struct_dtype(np, [m.name for m in st.members], [_model_dtype(m) for m in st.members],
                             [m.offset for m in st.members], st.size)
    (tag,) = st.members
    p = st.payload_offset
    union_size = st.size - p
    arms: List[Tuple[str, Any, int]] = []  # (member name, dtype, offset in the union)
    for arm in st.arms:
        if not arm.args:
            continue
        if len(arm.args) == 1:  # the argument itself, at the payload offset (SPEC §4)
            (arg,) = arm.args
            arms.append((arm_name(arm.name), _model_dtype(arg), arg.offset - p))
            continue
        struct = _struct_dtype(np, [a.name for a in arm.args], [_model_dtype(a) for a in arm.args],
                               [a.offset - p for a in arm.args], union_size)
        arms.append((arm_name(arm.name), struct, 0))
    names, formats, offsets = [tag.name], [SCALAR_DTYPE[TInt32]], [tag.offset]
    if arms:
        union = _struct_dtype(np, [n for n, _, _ in arms], [a for _, a, _ in arms],
                              [o for _, _, o in arms], union_size)
        names.append("data")
        formats.append(union)
        offsets.append(p)
    return _struct_dtype(np, names, formats, offsets, st.size)
