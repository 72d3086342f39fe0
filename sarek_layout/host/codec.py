"""Python values to element bytes and back, with the standard library only (no numpy).

Value forms (SPEC §2), defined once here and accepted identically by both paths below:

- a record is a *mapping* (any ``collections.abc.Mapping``) whose keys are exactly the field
  names (a missing or an unknown key is an error: a typo never goes unnoticed), or any other
  object with those attributes (a dataclass instance…; extra attributes are fine, since an
  object of another type may well carry more). Each nested record may use either form. Keys
  and attributes are the schema's names, Python keywords included (``{"from": 1}``, or
  ``getattr(value, "from")``);
- a variant is ``(constructor_name, arguments)``: a tuple or list of two items, whose
  arguments are a tuple or list of exactly the constructor's arity (nothing else: not a
  dict keyed by index, not a string);
- ``bool`` is a Python bool (``numpy.bool_`` is accepted too), ``unit`` is ``None``; integers
  are range-checked against int32/int64;
- a fixed array, vector or matrix (SPEC §1b) is a list, a tuple or a numpy array of its
  length, nested outermost first (``T[N][M]``: N sequences of M; a matrix: its columns, each
  a sequence of its rows, ``m[col][row]``, or a numpy array of shape (C, R));
- an enum value is a member of an IntEnum whose value is one of the enum's (the API's class
  is ``HostSchema.enum``), a value name, or one of its integers (not a bool, not a float).

Decoding gives dicts, ``(name, tuple)`` pairs, bools, ``None``, nested tuples for repeated
members and members of the API's IntEnum class for enums (bytes holding another integer are
a ``DecodeError``). Offsets count bytes from
the start of a buffer and are never negative. Bytes are in the host's byte order, the order
a C program on this host (and an OpenCL or CUDA device sharing its buffers) uses; every
padding byte is zero.

Speed comes from doing the layout work once per type: each record and each constructor has
a plan (``host.plan``: one precompiled ``struct.Struct``, nested records inlined up to a
bound) and small specialised functions compiled from it (``host.fast``), so an element costs
one ``pack``/``unpack_from`` call plus the lookups its value needs. Those functions decline
any shape they do not handle, and the slow, checking walk here decides: it is the definition.
It accepts mixtures (a dataclass inside a dict, a ``MappingProxyType``…), otherwise raises
``EncodeError`` naming the type and the dotted field, and writes each scalar at its offset
(linear in the value, whatever the nesting). So the fast path may decline a value, but never
accepts one the slow path refuses, and produces the same bytes (a property test holds the
two to that). The checks of scalars, offsets and spans, and the error classes' messages, are
the shared runtime (``host._runtime``) that every generated module carries too.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ..errors import SarekLayoutError
from ..ir.schema import SchemaType
from ..ir.types import SCALARS, Scalar, TRecord, TVariant
from . import _runtime
from ._runtime import (
    _sarek_GC_PAUSE_MIN,
    _sarek_byte_view,
    _sarek_join,
    _sarek_describe,
    _sarek_many,
    _sarek_int,
    _sarek_negative_offset,
    _sarek_repr,
    _sarek_pack_each,
    _sarek_scalar_problem,
    _sarek_ScalarRow,
    _sarek_short_read,
    _sarek_bad_value,
    _sarek_span,
    _sarek_stored,
    _sarek_unknown_tag,
)
from ._runtime_kinds import _sarek_BadValue, _sarek_enum_int, _sarek_enum_problem
from .enums import enum_spec, repeat_runtime
from .fast import Compiled, NotFast, ctor_functions, record_functions
from .model import elttype_key, model_of
from .plan import CtorPlan, PlanMember, RecordPlan, VariantPlan, memoised, plan_of

__all__ = ["EncodeError", "DecodeError", "Codec", "RecordCodec", "VariantCodec", "codec_of", "byte_view"]

Buffer = Union[bytes, bytearray, memoryview, Any]  # anything with the buffer protocol


class EncodeError(SarekLayoutError, _runtime.EncodeError):
    """A value does not fit its type: the message names the type and the dotted field
    (``type_name``, ``field`` and ``problem`` are attributes too)."""


class DecodeError(SarekLayoutError, _runtime.DecodeError):
    """Bytes that cannot be an element of the type (too short, unknown tag), or a span of a
    buffer that cannot hold the elements asked for (a negative offset, too few bytes; also
    raised by ``pack_into``)."""


#: A flat byte ``memoryview`` of any C-contiguous buffer (numpy arrays of unions included).
byte_view = _sarek_byte_view

#: Each scalar's row of the scalar table, as the runtime's checks take it, and its packer.
_ROWS: Dict[Scalar, _sarek_ScalarRow] = {
    s: (s.name, s.kind, s.struct_format, s.int_range) for s in SCALARS.values()
}
_PACKERS: Dict[Scalar, struct.Struct] = {s: struct.Struct("=" + s.struct_format) for s in SCALARS.values()}


# --- the slow, checking path: the definition ------------------------------------------------


def _key_text(key: object) -> str:
    """``str(key)`` for a message, never raising (an int key of 5,000 digits)."""
    try:
        return str(key)
    except Exception:
        return _sarek_repr(key)


def _member(type_name: str, container: object, name: str, path: str) -> object:
    if isinstance(container, Mapping):
        if name in container:
            return container[name]
        raise EncodeError(type_name, path, f"missing field {name!r} (mapping has keys "
                                           f"{sorted(map(_key_text, container))})")
    try:
        return getattr(container, name)
    except AttributeError:
        raise EncodeError(
            type_name, path,
            f"missing field {name!r}: expected a mapping or an object with that attribute, "
            f"got {_sarek_describe(container)}",
        ) from None


def _check_keys(type_name: str, plan: RecordPlan, mapping: Mapping, path: str) -> None:
    """Refuse a mapping with keys that are not fields of the record (a typo, a stale field)."""
    names = plan.names
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
        close = difflib.get_close_matches(_key_text(key), missing or names, n=1)
        hints.append(f"{key!r} (did you mean {close[0]!r}?)" if close else _sarek_repr(key))
    label = "unknown key" if len(unknown) == 1 else "unknown keys"
    raise EncodeError(
        type_name, path or None,
        f"{label} {', '.join(hints)}; the fields of {plan.name!r} are {', '.join(names)}",
    )


def _write_record(type_name: str, plan: RecordPlan, x: object, path: str, buf: bytearray, base: int) -> None:
    """Check the record value ``x`` and write it into ``buf`` at ``base``."""
    if isinstance(x, Mapping):
        _check_keys(type_name, plan, x, path)
    prefix = path + "." if path else ""
    for m in plan.members:
        field_path = prefix + m.name
        _write_member(type_name, m, _member(type_name, x, m.name, field_path), field_path, buf, base)


def _write_member(type_name: str, m: PlanMember, x: object, path: str, buf: bytearray, base: int) -> None:
    at = base + m.offset
    if m.repeat is not None:
        _write_repeat(type_name, m, x, path, buf, at)
        return
    if m.record is not None:
        _write_record(type_name, m.record, x, path, buf, at)
        return
    if m.enum is not None:
        spec = enum_spec(m.enum)
        problem = _sarek_enum_problem(spec, x)
        if problem is not None:
            raise EncodeError(type_name, path, problem)
        _PACKERS[m.scalar].pack_into(buf, at, _sarek_enum_int(spec, x))  # type: ignore[index]
        return
    row = _ROWS[m.scalar]  # type: ignore[index]
    problem = _sarek_scalar_problem(row, x)
    if problem is not None:
        raise EncodeError(type_name, path, problem)
    _PACKERS[m.scalar].pack_into(buf, at, _sarek_stored(row, x))  # type: ignore[index]


def _write_repeat(type_name: str, m: PlanMember, x: object, path: str, buf: bytearray, at: int) -> None:
    """A fixed array, vector or matrix (a record element packed by its codec, which accepts
    every record value form). The runtime packs it, checking every level's length and, with
    ``struct``, every number; only a value it refuses is walked element by element, to name
    the element (``problem``), so a valid array of a hundred million costs no Python step per
    element here either."""
    repeat = repeat_runtime(m, path)
    encode = codec_of(m.record.key).encode if m.record is not None else None  # type: ignore[arg-type]
    try:
        data = repeat.pack(x, encode)
    except Exception as e:
        # pack and problem accept the same values; should they ever differ, the refusal
        # still names the member and is an EncodeError.
        found = repeat.problem(x, encode) or ("", _sarek_describe(e))
        raise EncodeError(type_name, _sarek_join(path, found[0]), found[1]) from None
    buf[at:at + m.size] = data


def _split_variant(type_name: str, plan: VariantPlan, value: object) -> Tuple[CtorPlan, Sequence[object]]:
    names = ", ".join(c.name for c in plan.ctors)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise EncodeError(
            type_name, None,
            f"a variant value is (constructor_name, tuple_of_arguments), e.g. "
            f"({plan.ctors[0].name!r}, (...)); got {_sarek_describe(value)}",
        )
    name, args = value
    ctor = next((c for c in plan.ctors if c.name == name), None)
    if ctor is None:
        raise EncodeError(type_name, None, f"unknown constructor {name!r}; expected one of {names}")
    arity = len(ctor.members)
    if not isinstance(args, (tuple, list)):
        example = ", ".join(f"_{i}" for i in range(arity)) + ("," if arity == 1 else "")
        raise EncodeError(
            type_name, None,
            f"constructor {name!r}: arguments must be a tuple (or a list) of {arity}, e.g. ({name!r}, ({example})); "
            f"got {_sarek_describe(args)}",
        )
    if len(args) != arity:
        # The variant itself is at fault, not a field of it: no field in the message.
        plural = "argument" if arity == 1 else "arguments"
        raise EncodeError(type_name, None, f"constructor {name!r} takes {arity} {plural}, got {len(args)}")
    return ctor, args


def _slow_variant(type_name: str, plan: VariantPlan, value: object) -> bytes:
    ctor, args = _split_variant(type_name, plan, value)
    buf = bytearray(plan.size)
    struct.pack_into("=i", buf, plan.tag_offset, ctor.tag)
    for m, x in zip(ctor.members, args):
        _write_member(type_name, m, x, f"{ctor.name}.{m.name}", buf, 0)
    return bytes(buf)


# --- codecs ---------------------------------------------------------------------------------


class Codec:
    """Encode/decode one element type; ``pack``/``unpack`` whole arrays of it."""

    #: The element type, its display name (``Geometry.shape``) and its size in bytes.
    type: Union[TRecord, TVariant]
    name: str
    size: int
    align: int
    plan: Union[RecordPlan, VariantPlan]

    def _pause_gc_in_decode(self) -> None:
        """An element of a deeply nested type is millions of objects: decoding one pauses the
        cyclic collector (``_sarek_many``), as unpacking many small ones does. Bound per
        codec, so that small types pay nothing."""
        if self.plan.leaves >= _sarek_GC_PAUSE_MIN:
            decode = self.decode
            leaves = self.plan.leaves

            def paused(data: Buffer, offset: int = 0) -> Any:
                return _sarek_many(leaves, lambda: decode(data, offset))

            paused.__doc__ = decode.__doc__
            self.decode = paused  # type: ignore[method-assign]

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
        return _sarek_pack_each(self.encode, seq)

    def pack_into(self, buffer: Any, values: Iterable[object], offset: int = 0) -> int:
        """Encode ``values`` into a writable buffer at byte ``offset``; returns bytes written.

        ``DecodeError`` (a ``ValueError``) when the span does not fit: a negative offset, or
        too few bytes after it."""
        if offset < 0:
            raise DecodeError(_sarek_negative_offset(self.name, offset))
        view = byte_view(buffer)
        if view.readonly:
            raise ValueError(f"{self.name}: pack_into needs a writable buffer, got {type(buffer).__name__}")
        data = self.pack(values)
        if offset + len(data) > len(view):
            raise DecodeError(
                f"{self.name}: {len(data)} bytes at offset {_sarek_int(offset)} do not fit a buffer of "
                f"{len(view)} bytes"
            )
        view[offset:offset + len(data)] = data
        return len(data)

    def unpack(self, data: Buffer, count: Optional[int] = None, offset: int = 0) -> List[object]:
        """Decode ``count`` elements (default: all the buffer holds) starting at ``offset``."""
        if offset < 0:
            raise DecodeError(_sarek_negative_offset(self.name, offset))
        view = byte_view(data)
        count, problem = _sarek_span(len(view), offset, count, self.size, self.name)
        if problem:
            raise DecodeError(problem)
        try:
            return _sarek_many(count * self.plan.leaves, lambda: self._unpack(view, count, offset))
        except _sarek_BadValue:
            pass
        # Find the element that holds no value of its type (an enum's), for the message.
        return [self.decode(view, o) for o in range(offset, offset + count * self.size, self.size)]

    def _unpack(self, view: memoryview, count: int, offset: int) -> List[object]:
        raise NotImplementedError

    def _short_read(self, offset: int, error: object) -> DecodeError:
        return DecodeError(_sarek_short_read(self.name, self.size, offset, error))

    def _bad_value(self, offset: int, error: object) -> DecodeError:
        return DecodeError(_sarek_bad_value(self.name, offset, error))


def _compiled(plan: RecordPlan) -> Compiled:
    """The fast functions of a nested record that another plan packs opaquely."""
    codec = codec_of(plan.key)
    assert isinstance(codec, RecordCodec)
    return codec._compiled


class RecordCodec(Codec):
    def __init__(self, st: SchemaType, name: Optional[str] = None) -> None:
        plan = plan_of(st)  # refuses an enum and the member kinds of SPEC §1b
        assert isinstance(plan, RecordPlan)
        self.type = st.elttype  # type: ignore[assignment]
        self.name = name or st.qualified_name
        self.plan: RecordPlan = plan
        self.size = plan.size
        self.align = plan.align
        self.struct = struct.Struct(plan.format)
        self._compiled = record_functions(plan, self.struct, self.name, _compiled)
        self._enc_map: Callable[[object], bytes] = self._compiled.enc_map
        self._enc_attr: Callable[[object], bytes] = self._compiled.enc_attr
        self._build: Callable[[tuple], dict] = self._compiled.build
        self._pause_gc_in_decode()

    def encode(self, value: object) -> bytes:
        """The ``size`` bytes of one record; raises ``EncodeError`` naming the bad field."""
        try:
            return (self._enc_map if value.__class__ is dict else self._enc_attr)(value)
        except Exception:
            pass
        return self._encode_slow(value)

    def _encode_slow(self, value: object) -> bytes:
        """The checking path alone: the definition of what ``encode`` accepts."""
        buf = bytearray(self.size)
        _write_record(self.name, self.plan, value, "", buf, 0)
        return bytes(buf)

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
            raise DecodeError(_sarek_negative_offset(self.name, offset))
        try:
            return self._build(self.struct.unpack_from(data, offset))
        except (struct.error, OverflowError) as e:  # OverflowError: an offset such as 10**20
            raise self._short_read(offset, e) from None
        except _sarek_BadValue as e:
            raise self._bad_value(offset, e) from None

    def _unpack(self, view: memoryview, count: int, offset: int) -> List[object]:
        build = self._build
        span = view[offset:offset + count * self.size]
        return [build(t) for t in self.struct.iter_unpack(span)] if count else []


class VariantCodec(Codec):
    def __init__(self, st: SchemaType, name: Optional[str] = None) -> None:
        plan = plan_of(st)  # refuses an enum and the member kinds of SPEC §1b
        assert isinstance(plan, VariantPlan)
        self.type = st.elttype  # type: ignore[assignment]
        self.name = name or st.qualified_name
        self.plan: VariantPlan = plan
        self.size = plan.size
        self.align = plan.align
        self._enc_map: Dict[str, Callable[[Sequence[object]], bytes]] = {}
        self._enc_attr: Dict[str, Callable[[Sequence[object]], bytes]] = {}
        self._dec: Dict[int, Callable[[Buffer, int], tuple]] = {}
        for ctor in plan.ctors:
            s = struct.Struct(ctor.format)
            ns, build = ctor_functions(ctor, s, self.name, _compiled)
            self._enc_map[ctor.name] = ns["enc_map"]
            self._enc_attr[ctor.name] = ns["enc_attr"]
            self._dec[ctor.tag] = _decoder(s.unpack_from, build)
        self._tag = struct.Struct("=i")
        self.tags = {c.name: c.tag for c in plan.ctors}
        self._pause_gc_in_decode()

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
        return _slow_variant(self.name, self.plan, value)

    def _fast_many(self, values: Sequence[object]) -> bytes:
        # Only plain (name, args) tuples or lists may be unpacked here: unpacking any other
        # 2-item iterable (a dict, a string) would read something that is not a variant value.
        # ``map(type, …)`` runs in C, no Python loop per element.
        if not _PAIR_CLASSES.issuperset(map(type, values)):
            raise NotFast
        enc = self._enc_map
        pairs: Sequence[Any] = values
        return b"".join([enc[name](args) for name, args in pairs])

    def decode(self, data: Buffer, offset: int = 0) -> tuple:
        """The element at byte ``offset``: ``(constructor_name, arguments_tuple)``."""
        if offset < 0:  # unpack_from would count from the end of the buffer
            raise DecodeError(_sarek_negative_offset(self.name, offset))
        try:
            tag = self._tag.unpack_from(data, offset)[0]
            return self._dec[tag](data, offset)
        except (struct.error, OverflowError) as e:  # OverflowError: an offset such as 10**20
            raise self._short_read(offset, e) from None
        except _sarek_BadValue as e:
            raise self._bad_value(offset, e) from None
        except KeyError:
            raise DecodeError(_sarek_unknown_tag(self.name, tag, offset, list(self.tags))) from None

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


#: Codecs by the structure of their type and their name: a codec depends on nothing else
#: (not the module nor the C name), so a schema loaded again, or an elttype of the same
#: structure, reuses the compiled functions.
_CODECS: Dict[Tuple[bytes, Optional[str]], Codec] = {}


def codec_of(t: Union[SchemaType, TRecord, TVariant], name: Optional[str] = None) -> Codec:
    """The (cached) codec of a resolved record or variant type, or of a bare elttype (whose
    member model ``host.model`` builds); ``name`` is used in messages (default: the type's
    qualified name)."""
    if isinstance(t, SchemaType):
        elttype, name = t.elttype, name or t.qualified_name
    elif isinstance(t, (TRecord, TVariant)):
        elttype, name = t, name or t.name
    else:
        raise TypeError(f"only records and variants can be encoded, not {t!r}")
    key = (elttype_key(elttype), name)  # structural, in linear time (see elttype_key)
    return memoised(_CODECS, key, lambda: _new_codec(t, name), 4096)  # type: ignore[arg-type]


def _new_codec(t: Union[SchemaType, TRecord, TVariant], name: str) -> Codec:
    st = t if isinstance(t, SchemaType) else model_of(t)
    return RecordCodec(st, name) if st.kind == "record" else VariantCodec(st, name)
