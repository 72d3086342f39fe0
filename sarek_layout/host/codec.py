"""Python values to element bytes and back, with the standard library only (no numpy).

Value forms (SPEC §2), defined once here and accepted identically by both paths below:

- a record is a *mapping* (any ``collections.abc.Mapping``) whose keys are exactly the field
  names (a missing or an unknown key is an error: a typo never goes unnoticed), or any other
  object with those attributes (a dataclass instance…; extra attributes are fine, since an
  object of another type may well carry more). Each nested record may use either form;
- a variant is ``(constructor_name, arguments)``: a tuple or list of two items, whose
  arguments are a tuple or list of exactly the constructor's arity (nothing else: not a
  dict keyed by index, not a string);
- ``bool`` is a Python bool (``numpy.bool_`` is accepted too), ``unit`` is ``None``; integers
  are range-checked against int32/int64.

Decoding gives dicts, ``(name, tuple)`` pairs, bools and ``None``. Offsets count bytes from
the start of a buffer and are never negative. Bytes are in the host's byte order, the order
a C program on this host (and an OpenCL or CUDA device sharing its buffers) uses; every
padding byte is zero.

Speed comes from doing the layout work once per type: each record and each constructor gets
one precompiled ``struct.Struct`` (``plan``) and small specialised encode/decode functions,
compiled from generated source the way ``dataclasses`` and ``namedtuple`` build theirs, so an
element costs one ``pack``/``unpack_from`` call plus the field lookups the value needs. The
fast path handles only the commonest exact shapes (plain ``dict``s with as many keys as
fields, attribute objects of classes known not to be mappings, plain tuples and lists) and
checks each shape with a class test and a ``len`` comparison, never a loop over the keys.
Anything else goes to the slow, checking walk, which is the definition: it accepts mixtures
(a dataclass inside a dict, a ``MappingProxyType``…) and otherwise raises ``EncodeError``
naming the type and the dotted field. So the fast path may decline a value, but never
accepts one the slow path refuses, and produces the same bytes (a property test holds the
two to that).
"""

from __future__ import annotations

import gc
import keyword
import struct
from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ..errors import SarekLayoutError
from ..ir.types import Scalar, TBool, TInt32, TInt64, TRecord, TUnit, TVariant
from .plan import SCALAR_FORMAT, CtorPlan, RecordPlan, Slot, VariantPlan, plan_of

__all__ = ["EncodeError", "DecodeError", "Codec", "RecordCodec", "VariantCodec", "codec_of", "byte_view"]

Buffer = Union[bytes, bytearray, memoryview, Any]  # anything with the buffer protocol


class EncodeError(SarekLayoutError, ValueError):
    """A value does not fit its type: the message names the type and the dotted field."""

    def __init__(self, type_name: str, field: Optional[str], problem: str) -> None:
        where = f"{type_name}, field {field!r}" if field else type_name
        super().__init__(f"cannot encode {where}: {problem}")
        self.type_name = type_name
        self.field = field
        self.problem = problem


class DecodeError(SarekLayoutError, ValueError):
    """Bytes that cannot be an element of the type (too short, unknown tag), or a span of a
    buffer that cannot hold the elements asked for (a negative offset, too few bytes; also
    raised by ``pack_into``)."""


def _negative_offset(type_name: str, offset: int) -> DecodeError:
    return DecodeError(
        f"{type_name}: offset {offset} is negative; offsets count bytes from the start of the buffer"
    )


#: Below this many elements, unpacking leaves the garbage collector alone.
_GC_PAUSE_MIN = 10_000

_INT_RANGE = {TInt32: (-(2**31), 2**31 - 1), TInt64: (-(2**63), 2**63 - 1)}


def _describe(x: object) -> str:
    text = repr(x)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(x).__name__})"


def _is_numpy_bool(x: object) -> bool:
    return type(x).__module__ == "numpy" and type(x).__name__ in ("bool_", "bool")


def _bool(x: object) -> int:
    """Fast-path helper for bool leaves that are not a Python bool."""
    if _is_numpy_bool(x):
        return int(x)  # type: ignore[call-overload]
    raise TypeError("not a bool")


def _unit(x: object) -> int:
    raise TypeError("unit must be None")


class _NotFast(Exception):
    """Raised by a fast encoder on a value whose shape it does not handle: the slow path
    decides (and explains a refusal)."""


#: Classes whose instances are read by attribute: seen once and found not to be mappings.
#: The fast encoders test membership (one set lookup) instead of ``isinstance(x, Mapping)``,
#: an ABC check that costs several times more.
_ATTRIBUTE_CLASSES: set = set()


def _by_attribute(x: object) -> bool:
    """Whether a record value ``x`` is read by attribute (it is not a mapping); remembers the
    class when so. Called by the fast encoders on a class they have not seen yet."""
    if isinstance(x, Mapping):
        return False
    if len(_ATTRIBUTE_CLASSES) > 4096:  # classes made on the fly must not pile up
        _ATTRIBUTE_CLASSES.clear()
    _ATTRIBUTE_CLASSES.add(x.__class__)
    return True


# --- the slow, checking path ----------------------------------------------------------------


def _scalar_problem(t: Scalar, x: object) -> Optional[str]:
    """Why ``x`` is not a valid ``t`` (the same acceptance as the fast ``struct`` path)."""
    if t is TBool:
        return None if isinstance(x, bool) or _is_numpy_bool(x) else f"expected a bool, got {_describe(x)}"
    if t is TUnit:
        return None if x is None else f"expected None (unit), got {_describe(x)}"
    if t in _INT_RANGE:
        if isinstance(x, float):
            return f"expected an integer ({t.name}), got {_describe(x)}"
        try:
            struct.pack("=" + SCALAR_FORMAT[t], x)  # type: ignore[index]
        except struct.error:
            lo, hi = _INT_RANGE[t]
            if isinstance(x, int) or hasattr(x, "__index__"):
                return f"{x!r} is out of range for {t.name} [{lo}, {hi}]"
            return f"expected an integer ({t.name}), got {_describe(x)}"
        return None
    try:
        struct.pack("=" + SCALAR_FORMAT[t], x)  # type: ignore[index]
    except OverflowError:
        return f"{x!r} is out of range for {t.name}"
    except (struct.error, TypeError):
        return f"expected a number ({t.name}), got {_describe(x)}"
    return None


def _member(type_name: str, container: object, name: str, path: str) -> object:
    if isinstance(container, Mapping):
        if name in container:
            return container[name]
        raise EncodeError(type_name, path, f"missing field {name!r} (mapping has keys {sorted(map(str, container))})")
    try:
        return getattr(container, name)
    except AttributeError:
        raise EncodeError(
            type_name, path,
            f"missing field {name!r}: expected a mapping or an object with that attribute, "
            f"got {_describe(container)}",
        ) from None


def _check_keys(type_name: str, t: TRecord, mapping: Mapping, path: str) -> None:
    """Refuse a mapping with keys that are not fields of ``t`` (a typo, a stale field)."""
    names = [name for name, _ in t.fields]
    if len(mapping) == len(names) and all(name in mapping for name in names):
        return
    known = set(names)
    unknown = [k for k in mapping if k not in known]
    if not unknown:
        return  # only missing fields: ``_member`` names the first one
    import difflib

    missing = [name for name in names if name not in mapping]
    hints = []
    for key in unknown:
        close = difflib.get_close_matches(str(key), missing or names, n=1)
        hints.append(f"{key!r} (did you mean {close[0]!r}?)" if close else repr(key))
    label = "unknown key" if len(unknown) == 1 else "unknown keys"
    raise EncodeError(
        type_name, path or None,
        f"{label} {', '.join(hints)}; the fields of {t.name!r} are {', '.join(names)}",
    )


def _flatten(type_name: str, t: object, x: object, path: str, out: List[object]) -> None:
    """Append the scalars of ``x`` (of elttype ``t``) to ``out``, checking each one."""
    if isinstance(t, TRecord):
        if isinstance(x, Mapping):
            _check_keys(type_name, t, x, path)
        prefix = path + "." if path else ""
        for name, ft in t.fields:
            _flatten(type_name, ft, _member(type_name, x, name, prefix + name), prefix + name, out)
        return
    assert isinstance(t, Scalar)
    problem = _scalar_problem(t, x)
    if problem is not None:
        raise EncodeError(type_name, path, problem)
    if t is TUnit:
        out.append(0)
    elif t is TBool:
        out.append(int(x))  # type: ignore[call-overload]
    else:
        out.append(x)


def _slow_record(type_name: str, plan: RecordPlan, packer: struct.Struct, value: object) -> bytes:
    flat: List[object] = []
    _flatten(type_name, plan.type, value, "", flat)
    return packer.pack(*flat)


def _split_variant(type_name: str, plan: VariantPlan, value: object) -> Tuple[CtorPlan, Sequence[object]]:
    names = ", ".join(c.name for c in plan.ctors)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise EncodeError(
            type_name, None,
            f"a variant value is (constructor_name, tuple_of_arguments), e.g. "
            f"({plan.ctors[0].name!r}, (...)); got {_describe(value)}",
        )
    name, args = value
    ctor = next((c for c in plan.ctors if c.name == name), None)
    if ctor is None:
        raise EncodeError(type_name, None, f"unknown constructor {name!r}; expected one of {names}")
    if not isinstance(args, (tuple, list)):
        example = ", ".join(f"_{i}" for i in range(len(ctor.args))) + ("," if len(ctor.args) == 1 else "")
        raise EncodeError(
            type_name, name,
            f"arguments must be a tuple (or a list) of {len(ctor.args)}, e.g. ({name!r}, ({example})); "
            f"got {_describe(args)}",
        )
    if len(args) != len(ctor.args):
        raise EncodeError(
            type_name, name,
            f"constructor {name!r} takes {len(ctor.args)} argument(s), got {len(args)}",
        )
    return ctor, args


def _slow_variant(type_name: str, plan: VariantPlan, packers: Dict[str, struct.Struct], value: object) -> bytes:
    ctor, args = _split_variant(type_name, plan, value)
    flat: List[object] = [ctor.tag]
    for i, (at, x) in enumerate(zip(ctor.args, args)):
        _flatten(type_name, at, x, f"{ctor.name}._{i}", flat)
    return packers[ctor.name].pack(*flat)


# --- the generated fast path ----------------------------------------------------------------


class _Source:
    """A tiny line buffer with fresh temporary names, for the generated functions."""

    def __init__(self) -> None:
        self.lines: List[str] = []
        self._n = 0

    def temp(self) -> str:
        self._n += 1
        return f"_t{self._n}"

    def add(self, line: str) -> None:
        self.lines.append(line)


def _access(base: str, step: object, attr: bool) -> str:
    if isinstance(step, int):
        return f"{base}[{step}]"
    if not attr:
        return f"{base}[{step!r}]"
    # Schema names are never Python keywords (the resolver refuses them), but a codec can be
    # built from hand-made elttypes too.
    return f"{base}.{step}" if not keyword.iskeyword(str(step)) else f"getattr({base}, {step!r})"


def _check_record(src: _Source, holder: str, t: TRecord, attr: bool) -> None:
    """The shape test of one record value: a class test and, for a dict, a ``len`` check.

    ``len(d) == len(fields)`` and every field found means the keys are exactly the fields,
    so unknown keys are caught without looping over them.
    """
    if attr:
        src.add(
            f"    if {holder}.__class__ not in _attribute_classes and not _by_attribute({holder}): "
            f"raise _NotFast"
        )
    else:
        src.add(f"    if {holder}.__class__ is not dict or len({holder}) != {len(t.fields)}: raise _NotFast")


def _pack_args(
    src: _Source, fields: Sequence[Tuple[Union[str, int], object]], root: str, attr: bool, slots: Sequence[Slot]
) -> List[str]:
    """Statements (into ``src``) and argument expressions reading the scalars of ``fields``
    (``(name or argument index, elttype)``) from ``root``, in layout leaf order.

    Each nested record is fetched once into a temporary and its shape tested there; bool
    leaves go through a temporary so that the fast check (``is bool``) reads the value once.
    ``slots`` is the plan's order, checked against this walk's.
    """
    exprs: List[str] = []
    scalars: List[object] = []

    def member(expr: str, t: object) -> None:
        if isinstance(t, TRecord):
            holder = src.temp()
            src.add(f"    {holder} = {expr}")
            _check_record(src, holder, t, attr)
            for name, ft in t.fields:
                member(_access(holder, name, attr), ft)
        elif t is TBool:
            scalars.append(t)
            name = src.temp()
            src.add(f"    {name} = {expr}")
            exprs.append(f"({name} if {name}.__class__ is bool else _bool({name}))")
        elif t is TUnit:
            scalars.append(t)
            exprs.append(f"(0 if {expr} is None else _unit({expr}))")
        else:
            scalars.append(t)
            exprs.append(expr)

    for step, t in fields:
        member(_access(root, step, attr), t)
    # The walk and the plan must agree on the leaves, or bytes would land in the wrong place.
    if scalars != [slot.type for slot in slots]:
        raise AssertionError(f"fast encoder reads {scalars}, the plan packs {[s.type for s in slots]}")
    return exprs


def _value_expr(t: object, slots: Iterable[Tuple[int, Slot]]) -> str:
    """The expression rebuilding a value of ``t`` from the unpacked tuple ``t_``."""
    it = iter(slots)

    def build(tt: object) -> str:
        if isinstance(tt, TRecord):
            return "{" + ", ".join(f"{name!r}: {build(ft)}" for name, ft in tt.fields) + "}"
        index, slot = next(it)
        if tt is TBool:
            return f"(t_[{index}] != 0)"
        if tt is TUnit:
            return "None"
        return f"t_[{index}]"

    return build(t)


def _namespace(packer: struct.Struct) -> Dict[str, Any]:
    """The globals of the generated encoders; the builtins they call are bound here so each
    use is one dictionary lookup instead of two."""
    return {"_pack": packer.pack, "_bool": _bool, "_unit": _unit, "_NotFast": _NotFast,
            "_attribute_classes": _ATTRIBUTE_CLASSES, "_by_attribute": _by_attribute,
            "len": len, "dict": dict, "tuple": tuple, "list": list, "bool": bool}


def _compile(source: str, namespace: Dict[str, Any], filename: str) -> Dict[str, Any]:
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def _record_functions(plan: RecordPlan, packer: struct.Struct, label: str) -> Dict[str, Any]:
    src = _Source()
    for flavour, attr in (("map", False), ("attr", True)):
        src.add(f"def enc_{flavour}(v):")
        _check_record(src, "v", plan.type, attr)
        exprs = _pack_args(src, plan.type.fields, "v", attr, plan.slots)
        src.add(f"    return _pack({', '.join(exprs)})")
    src.add("def build(t_):")
    src.add(f"    return {_value_expr(plan.type, enumerate(plan.slots))}")
    ns = _namespace(packer)
    return _compile("\n".join(src.lines) + "\n", ns, f"<sarek codec {label}>")


def _ctor_functions(ctor: CtorPlan, packer: struct.Struct, label: str) -> Dict[str, Any]:
    src = _Source()
    arity = len(ctor.args)
    for flavour, attr in (("map", False), ("attr", True)):
        src.add(f"def enc_{flavour}(a):")
        # The arguments: a tuple or a list of the constructor's arity, nothing else.
        src.add(f"    if (a.__class__ is not tuple and a.__class__ is not list) or len(a) != {arity}: raise _NotFast")
        exprs = _pack_args(src, list(enumerate(ctor.args)), "a", attr, ctor.slots)
        src.add(f"    return _pack({', '.join([str(ctor.tag)] + exprs)})")
    # t_[0] is the tag; the arguments' slots follow from index 1.
    numbered = list(enumerate(ctor.slots, start=1))
    args = []
    cursor = 0
    for at in ctor.args:
        count = len(plan_of(at).slots) if isinstance(at, TRecord) else 1  # type: ignore[union-attr]
        args.append(_value_expr(at, numbered[cursor:cursor + count]))
        cursor += count
    tuple_expr = "(" + "".join(a + ", " for a in args) + ")" if args else "()"
    src.add("def build(t_):")
    src.add(f"    return ({ctor.name!r}, {tuple_expr})")
    ns = _namespace(packer)
    return _compile("\n".join(src.lines) + "\n", ns, f"<sarek codec {label}.{ctor.name}>")


def byte_view(obj: Any) -> memoryview:
    """A flat, byte-format ``memoryview`` of any C-contiguous buffer.

    numpy refuses to describe a dtype with overlapping fields (a variant's union) as a typed
    buffer, so such arrays are first viewed as ``uint8`` (duck-typed: numpy is not imported).
    """
    try:
        view = memoryview(obj)
    except (TypeError, ValueError):
        if hasattr(obj, "view") and hasattr(obj, "reshape") and hasattr(obj, "flags"):
            if not obj.flags["C_CONTIGUOUS"]:
                raise ValueError("the array must be C-contiguous") from None
            view = memoryview(obj.reshape(-1).view("uint8"))
        else:
            raise
    if view.format != "B" or view.ndim != 1:
        if not view.c_contiguous:
            raise ValueError("the buffer must be C-contiguous")
        view = view.cast("B")
    return view


# --- codecs ---------------------------------------------------------------------------------


class Codec:
    """Encode/decode one element type; ``pack``/``unpack`` whole arrays of it."""

    #: The element type, its display name (``Geometry.shape``) and its size in bytes.
    type: Union[TRecord, TVariant]
    name: str
    size: int
    align: int

    def encode(self, value: object) -> bytes:
        raise NotImplementedError

    def decode(self, data: Buffer, offset: int = 0) -> object:
        raise NotImplementedError

    def _fast_many(self, values: Sequence[object]) -> bytes:
        raise NotImplementedError

    def pack(self, values: Iterable[object]) -> bytes:
        """The elements of ``values``, encoded back to back (``len(values) * size`` bytes)."""
        seq = values if isinstance(values, (list, tuple)) else list(values)
        try:
            return self._fast_many(seq)
        except Exception:
            pass
        parts = []
        for i, v in enumerate(seq):
            try:
                parts.append(self.encode(v))
            except EncodeError as e:
                raise EncodeError(f"{e.type_name} (element {i})", e.field, e.problem) from None
        return b"".join(parts)

    def pack_into(self, buffer: Any, values: Iterable[object], offset: int = 0) -> int:
        """Encode ``values`` into a writable buffer at byte ``offset``; returns bytes written.

        ``DecodeError`` (a ``ValueError``) when the span does not fit: a negative offset, or
        too few bytes after it."""
        if offset < 0:
            raise _negative_offset(self.name, offset)
        view = byte_view(buffer)
        if view.readonly:
            raise ValueError(f"{self.name}: pack_into needs a writable buffer, got {type(buffer).__name__}")
        data = self.pack(values)
        if offset + len(data) > len(view):
            raise DecodeError(
                f"{self.name}: {len(data)} bytes at offset {offset} do not fit a buffer of {len(view)} bytes"
            )
        view[offset:offset + len(data)] = data
        return len(data)

    def _check_span(self, data: Buffer, offset: int, count: Optional[int]) -> Tuple[memoryview, int]:
        if offset < 0:
            raise _negative_offset(self.name, offset)
        view = byte_view(data)
        available = len(view) - offset
        if available < 0:
            raise DecodeError(f"{self.name}: offset {offset} is outside a buffer of {len(view)} bytes")
        if count is None:
            if available % self.size:
                raise DecodeError(
                    f"{self.name}: {available} bytes is not a whole number of {self.size}-byte elements"
                )
            count = available // self.size
        elif count < 0 or count * self.size > available:
            raise DecodeError(
                f"{self.name}: {count} elements need {count * self.size} bytes, "
                f"only {available} from offset {offset}"
            )
        return view, count

    def unpack(self, data: Buffer, count: Optional[int] = None, offset: int = 0) -> List[object]:
        """Decode ``count`` elements (default: all the buffer holds) starting at ``offset``."""
        view, count = self._check_span(data, offset, count)
        if count < _GC_PAUSE_MIN or not gc.isenabled():
            return self._unpack(view, count, offset)
        # Building millions of small dicts and tuples triggers the cyclic collector over and
        # over (it scans every live container each time): pausing it makes this 3x faster.
        # Nothing built here can form a cycle.
        gc.disable()
        try:
            return self._unpack(view, count, offset)
        finally:
            gc.enable()

    def _unpack(self, view: memoryview, count: int, offset: int) -> List[object]:
        raise NotImplementedError


class RecordCodec(Codec):
    def __init__(self, t: TRecord, name: Optional[str] = None) -> None:
        self.type = t
        self.name = name or t.name
        plan = plan_of(t)
        assert isinstance(plan, RecordPlan)
        self.plan: RecordPlan = plan
        self.size = plan.layout.size
        self.align = plan.layout.align
        self.struct = struct.Struct(plan.format)
        ns = _record_functions(plan, self.struct, self.name)
        self._enc_map: Callable[[object], bytes] = ns["enc_map"]
        self._enc_attr: Callable[[object], bytes] = ns["enc_attr"]
        self._build: Callable[[tuple], dict] = ns["build"]

    def encode(self, value: object) -> bytes:
        """The ``size`` bytes of one record; raises ``EncodeError`` naming the bad field."""
        try:
            return (self._enc_map if value.__class__ is dict else self._enc_attr)(value)
        except Exception:
            pass
        return self._encode_slow(value)

    def _encode_slow(self, value: object) -> bytes:
        """The checking path alone: the definition of what ``encode`` accepts."""
        return _slow_record(self.name, self.plan, self.struct, value)

    def _fast_many(self, values: Sequence[object]) -> bytes:
        if not values:
            return b""
        # Each fast encoder tests the shape of its own value: a mixed list fails over to
        # ``pack``'s element-by-element loop.
        enc = self._enc_map if values[0].__class__ is dict else self._enc_attr
        return b"".join([enc(v) for v in values])

    def decode(self, data: Buffer, offset: int = 0) -> dict:
        """The record at byte ``offset`` of ``data``, as a dict (nested records: dicts)."""
        if offset < 0:  # unpack_from would count from the end of the buffer
            raise _negative_offset(self.name, offset)
        try:
            return self._build(self.struct.unpack_from(data, offset))
        except struct.error as e:
            raise DecodeError(f"{self.name}: cannot read {self.size} bytes at offset {offset}: {e}") from None

    def _unpack(self, view: memoryview, count: int, offset: int) -> List[object]:
        build = self._build
        span = view[offset:offset + count * self.size]
        return [build(t) for t in self.struct.iter_unpack(span)] if count else []


class VariantCodec(Codec):
    def __init__(self, t: TVariant, name: Optional[str] = None) -> None:
        self.type = t
        self.name = name or t.name
        plan = plan_of(t)
        assert isinstance(plan, VariantPlan)
        self.plan: VariantPlan = plan
        self.size = plan.layout.size
        self.align = plan.layout.align
        self._structs: Dict[str, struct.Struct] = {}
        self._enc_map: Dict[str, Callable[[Sequence[object]], bytes]] = {}
        self._enc_attr: Dict[str, Callable[[Sequence[object]], bytes]] = {}
        self._dec: Dict[int, Callable[[Buffer, int], tuple]] = {}
        for ctor in plan.ctors:
            s = struct.Struct(ctor.format)
            ns = _ctor_functions(ctor, s, self.name)
            self._structs[ctor.name] = s
            self._enc_map[ctor.name] = ns["enc_map"]
            self._enc_attr[ctor.name] = ns["enc_attr"]
            self._dec[ctor.tag] = _decoder(s.unpack_from, ns["build"])
        self._tag = struct.Struct("=i")
        self.tags = {c.name: c.tag for c in plan.ctors}

    def encode(self, value: object) -> bytes:
        """The ``size`` bytes of ``(constructor_name, arguments)``; tag set, padding zero."""
        pair: Any = value
        # Only a plain tuple or list is unpacked here (a 2-key dict would unpack its keys);
        # unpacking one of the wrong length raises, and the slow path explains.
        if pair.__class__ is tuple or pair.__class__ is list:
            try:
                name, args = pair
                return self._enc_map[name](args)
            except Exception:
                pass
            try:
                return self._enc_attr[name](args)
            except Exception:
                pass
        return self._encode_slow(value)

    def _encode_slow(self, value: object) -> bytes:
        """The checking path alone: the definition of what ``encode`` accepts."""
        return _slow_variant(self.name, self.plan, self._structs, value)

    def _fast_many(self, values: Sequence[object]) -> bytes:
        # Only plain (name, args) tuples or lists may be unpacked here: unpacking any other
        # 2-item iterable (a dict, a string) would read something that is not a variant value.
        # ``map(type, …)`` runs in C, no Python loop per element.
        if not _PAIR_CLASSES.issuperset(map(type, values)):
            raise _NotFast
        enc = self._enc_map
        pairs: Sequence[Any] = values
        return b"".join([enc[name](args) for name, args in pairs])

    def decode(self, data: Buffer, offset: int = 0) -> tuple:
        """The element at byte ``offset``: ``(constructor_name, arguments_tuple)``."""
        if offset < 0:  # unpack_from would count from the end of the buffer
            raise _negative_offset(self.name, offset)
        try:
            tag = self._tag.unpack_from(data, offset)[0]
            return self._dec[tag](data, offset)
        except struct.error as e:
            raise DecodeError(f"{self.name}: cannot read {self.size} bytes at offset {offset}: {e}") from None
        except KeyError:
            raise DecodeError(
                f"{self.name}: unknown tag {tag} at offset {offset}; "
                f"valid tags are 0..{len(self._dec) - 1} ({', '.join(self.tags)})"
            ) from None

    def _unpack(self, view: memoryview, count: int, offset: int) -> List[object]:
        tag_of = self._tag.unpack_from
        dec = self._dec
        size = self.size
        try:
            return [dec[tag_of(view, o)[0]](view, o) for o in range(offset, offset + count * size, size)]
        except KeyError:
            pass
        # Find the bad element for the message.
        return [self.decode(view, o) for o in range(offset, offset + count * size, size)]


_PAIR_CLASSES = frozenset((tuple, list))


def _decoder(unpack_from: Callable[..., tuple], build: Callable[[tuple], tuple]) -> Callable[[Buffer, int], tuple]:
    def decode(data: Buffer, offset: int) -> tuple:
        return build(unpack_from(data, offset))

    return decode


_CODECS: Dict[Tuple[object, Optional[str]], Codec] = {}


def codec_of(t: Union[TRecord, TVariant], name: Optional[str] = None) -> Codec:
    """The (cached) codec of a record or variant elttype; ``name`` is used in messages."""
    key = (t, name)
    codec = _CODECS.get(key)
    if codec is None:
        if isinstance(t, TRecord):
            codec = RecordCodec(t, name)
        elif isinstance(t, TVariant):
            codec = VariantCodec(t, name)
        else:
            raise TypeError(f"only records and variants can be encoded, not {t!r}")
        if len(_CODECS) > 4096:
            _CODECS.clear()
        _CODECS[key] = codec
    return codec
