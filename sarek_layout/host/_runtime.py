"""The Python runtime shared by the host codecs and every generated module.

Everything between the ``runtime: begin`` and ``runtime: end`` markers below is pasted
verbatim into each module ``generate -t python`` writes (``python_target.runtime_text``), the
way cffi pastes its runtime headers, and the API codecs (``host.codec``) import it from here:
so the two cannot drift. That text must therefore stay standalone (standard library only, no
``from __future__``, no import of this package), deterministic and ``mypy --strict`` clean,
and its module-level names start with ``_sarek_`` (which no schema name may start with; the
templates' per-type names are ``_sarek_S_…``, ``_sarek_build_…``, ``_sarek_encode_…``, ``_sarek_decode_…``,
``_sarek_LEAVES_…``, ``_sarek_RECORDS_…``, ``_sarek_ENCODE_…`` and ``_sarek_DECODE_…``, which
these avoid) except the two error classes, which every generated module exports.

What is here: the error classes and their messages; the checks of scalar values (bool,
unit, integer ranges, numbers) against a scalar's facts, which callers take from the one
scalar table (``ir.types.Scalar``); the record-value-is-an-object test; turning any buffer
into bytes; the checks of offsets and spans; the layout-fingerprint header (write, check);
packing and unpacking many elements. Functions
report problems as messages (or ``None``) and leave raising to the caller, so that the API
raises its own subclasses of these errors (they are ``SarekLayoutError``s too). The part for
the member kinds of SPEC §1b (enums, fixed arrays, vectors, matrices) is
``host/_runtime_kinds.py``, pasted right after this one; the templates' names of those are
``_sarek_R_…`` (a repeated member) and ``_sarek_E_…`` (an enum's checks).
"""

# --- runtime: begin ---------------------------------------------------------------------------
import gc as _sarek_gc
import struct as _sarek_struct
from collections.abc import Mapping as _sarek_AbcMapping
from typing import Any as _sarek_Any
from typing import Callable as _sarek_Callable
from typing import Iterable as _sarek_Iterable
from typing import Optional as _sarek_Optional
from typing import Sequence as _sarek_Sequence
from typing import Set as _sarek_Set
from typing import Tuple as _sarek_Tuple
from typing import TypeVar as _sarek_TypeVar

_sarek_T = _sarek_TypeVar("_sarek_T")


class EncodeError(ValueError):
    """A value that does not fit its type: the message names the type and the dotted field."""

    def __init__(self, type_name: str, field: _sarek_Optional[str], problem: str) -> None:
        where = f"{type_name}, field {field!r}" if field else type_name
        super().__init__(f"cannot encode {where}: {problem}")
        self.type_name = type_name
        self.field = field
        self.problem = problem


class DecodeError(ValueError):
    """Bytes that cannot be an element of the type (too short, an unknown tag), or a span of
    a buffer that cannot hold the elements asked for (a negative offset, too few bytes)."""


#: One row of the scalar table: ``(name, kind, struct format character, integer range)``.
_sarek_ScalarRow = _sarek_Tuple[str, str, str, _sarek_Optional[_sarek_Tuple[int, int]]]


def _sarek_repr(x: object) -> str:
    """``repr(x)`` for a message; never raises: an int past Python's digit limit (4,300 by
    default) or a ``__repr__`` that fails would turn the error being reported into another."""
    try:
        return repr(x)
    except Exception:
        if isinstance(x, int):
            return _sarek_int(x)
        return f"<{type(x).__name__} object>"


def _sarek_int(n: int) -> str:
    """An offset or a count for a message, however many digits it has."""
    try:
        return str(n)
    except ValueError:  # more digits than sys.get_int_max_str_digits() allows
        return f"{'-' if n < 0 else ''}<an integer of {abs(n).bit_length()} bits>"


def _sarek_describe(x: object) -> str:
    text = _sarek_repr(x)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(x).__name__})"


def _sarek_is_numpy_bool(x: object) -> bool:
    return type(x).__module__ == "numpy" and type(x).__name__ in ("bool_", "bool")


def _sarek_bool(x: object) -> int:
    """A bool leaf that is not ``True``: ``False``, or numpy's bool; else ``TypeError``."""
    if x is False:
        return 0
    if _sarek_is_numpy_bool(x):
        return 1 if x else 0
    raise TypeError("not a bool")


def _sarek_unit(x: object) -> int:
    """A unit leaf: ``None`` is stored as 0; anything else is a ``TypeError``."""
    if x is None:
        return 0
    raise TypeError("unit must be None")


def _sarek_scalar_problem(row: _sarek_ScalarRow, x: object) -> _sarek_Optional[str]:
    """Why ``x`` cannot be stored as the scalar of ``row``, or ``None`` (exactly what the
    fast ``struct`` path accepts)."""
    name, kind, fmt, int_range = row
    if kind == "bool":
        return None if isinstance(x, bool) or _sarek_is_numpy_bool(x) else f"expected a bool, got {_sarek_describe(x)}"
    if kind == "unit":
        return None if x is None else f"expected None (unit), got {_sarek_describe(x)}"
    if int_range is not None:
        if isinstance(x, float):
            return f"expected an integer ({name}), got {_sarek_describe(x)}"
        try:
            _sarek_struct.pack("=" + fmt, x)
        except (_sarek_struct.error, TypeError, OverflowError):
            low, high = int_range
            if isinstance(x, int) or hasattr(x, "__index__"):
                return f"{_sarek_repr(x)} is out of range for {name} [{low}, {high}]"
            return f"expected an integer ({name}), got {_sarek_describe(x)}"
        return None
    try:
        _sarek_struct.pack("=" + fmt, x)
    except OverflowError:
        return f"{_sarek_repr(x)} is out of range for {name}"
    except (_sarek_struct.error, TypeError):
        return f"expected a number ({name}), got {_sarek_describe(x)}"
    return None


def _sarek_stored(row: _sarek_ScalarRow, x: _sarek_Any) -> _sarek_Any:
    """What is packed for a valid value ``x``: bools and unit as the int32 they are."""
    kind = row[1]
    if kind == "bool":
        return 1 if x else 0
    if kind == "unit":
        return 0
    return x


#: Classes seen as record values and found not to be mappings: one set lookup per record
#: instead of an isinstance check against the Mapping ABC, which costs several times more.
_sarek_OBJECTS: _sarek_Set[type] = set()


def _sarek_object(x: object) -> bool:
    """Whether a record value ``x`` is read by attribute (it is not a mapping); remembers
    its class if so."""
    if isinstance(x, _sarek_AbcMapping):
        return False
    if len(_sarek_OBJECTS) > 4096:  # classes made on the fly must not pile up
        _sarek_OBJECTS.clear()
    _sarek_OBJECTS.add(x.__class__)
    return True


def _sarek_byte_view(obj: _sarek_Any) -> memoryview:
    """A flat, byte-format ``memoryview`` of any C-contiguous buffer.

    numpy refuses to describe a dtype with overlapping fields (a variant's union) as a
    typed buffer, so such arrays are first viewed as ``uint8`` (duck-typed: numpy is not
    imported).
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


def _sarek_negative_offset(type_name: str, offset: int) -> str:
    return (f"{type_name}: offset {_sarek_int(offset)} is negative; offsets count bytes from "
            f"the start of the buffer")


def _sarek_short_read(type_name: str, size: int, offset: int, error: object) -> str:
    if isinstance(error, OverflowError):  # an offset past what a buffer can have (10**20)
        error = "the offset is beyond any buffer"
    return f"{type_name}: cannot read {size} bytes at offset {_sarek_int(offset)}: {error}"


def _sarek_bad_value(type_name: str, offset: int, error: object) -> str:
    return f"{type_name}: the element at offset {_sarek_int(offset)} holds no value of its type: {error}"


def _sarek_unknown_tag(type_name: str, tag: int, offset: int, ctors: _sarek_Sequence[str]) -> str:
    return (f"{type_name}: unknown tag {tag} at offset {offset}; "
            f"valid tags are 0..{len(ctors) - 1} ({', '.join(ctors)})")


def _sarek_span(length: int, offset: int, count: _sarek_Optional[int], size: int,
                type_name: str) -> _sarek_Tuple[int, str]:
    """``(count, "")``: how many ``size``-byte elements to read from ``offset`` in ``length``
    bytes (``count``, or by default all that fit exactly); or ``(0, why not)``."""
    if offset < 0:
        return 0, _sarek_negative_offset(type_name, offset)
    available = length - offset
    if available < 0:
        return 0, f"{type_name}: offset {_sarek_int(offset)} is outside a buffer of {length} bytes"
    if count is None:
        if available % size:
            return 0, f"{type_name}: {available} bytes is not a whole number of {size}-byte elements"
        return available // size, ""
    if count < 0 or count * size > available:
        return 0, (f"{type_name}: {_sarek_int(count)} elements need {_sarek_int(count * size)} "
                   f"bytes, only {available} from offset {offset}")
    return count, ""


#: The header ``pack_framed`` writes in front of elements (docs/fingerprint.md): 8 magic
#: bytes, the type's 64-bit layout fingerprint, the element count; little-endian on every
#: host, 24 bytes, so the elements after it keep their 8-byte alignment.
_sarek_HEADER_MAGIC = b"SAREKLID"
_sarek_HEADER = _sarek_struct.Struct("<8sQQ")


def _sarek_header(layout_id: int, count: int) -> bytes:
    return _sarek_HEADER.pack(_sarek_HEADER_MAGIC, layout_id, count)


def _sarek_header_problem(type_name: str, layout_id: int, data: memoryview,
                          offset: int) -> _sarek_Tuple[int, str]:
    """``(count, "")`` from the header at byte ``offset`` of ``data`` when it carries
    ``layout_id``; else ``(0, why not)``, naming the type and both fingerprints."""
    if offset < 0:
        return 0, _sarek_negative_offset(type_name, offset)
    size = _sarek_HEADER.size
    if len(data) - offset < size:
        return 0, (f"{type_name}: {max(len(data) - offset, 0)} bytes at offset {offset} cannot "
                   f"hold the {size}-byte sarek-layout header")
    magic, found, count = _sarek_HEADER.unpack_from(data, offset)
    if magic != _sarek_HEADER_MAGIC:
        return 0, (f"{type_name}: no sarek-layout header at offset {offset} (its first 8 bytes "
                   f"are {bytes(magic)!r}, not {_sarek_HEADER_MAGIC!r})")
    if found != layout_id:
        return 0, (f"{type_name}: the data was written under layout 0x{found:016x}, but this "
                   f"program's {type_name} has layout 0x{layout_id:016x}: the schema changed "
                   f"since it was written; read it with the code of the schema that wrote it, "
                   f"or write it again")
    return count, ""


#: Below this many scalars decoded at once, decoding leaves the garbage collector alone.
_sarek_GC_PAUSE_MIN = 10_000


def _sarek_many(leaves: int, make: _sarek_Callable[[], _sarek_T]) -> _sarek_T:
    """``make()``, with the cyclic garbage collector paused while it decodes ``leaves``
    scalars (many elements, or one element of a deeply nested type).

    Each collection scans every live object; building a million small ones triggers dozens,
    making it several times slower. Nothing built here can form a cycle.
    """
    if leaves < _sarek_GC_PAUSE_MIN or not _sarek_gc.isenabled():
        return make()
    _sarek_gc.disable()
    try:
        return make()
    finally:
        _sarek_gc.enable()


def _sarek_pack_each(encode: _sarek_Callable[[_sarek_Any], bytes], values: _sarek_Iterable[_sarek_Any]) -> bytes:
    """The elements of ``values`` encoded back to back; an ``EncodeError`` names the element."""
    items = values if isinstance(values, (list, tuple)) else list(values)
    try:
        return b"".join([encode(v) for v in items])
    except EncodeError:
        pass
    for i, v in enumerate(items):
        try:
            encode(v)
        except EncodeError as e:
            raise e.__class__(f"{e.type_name} (element {i})", e.field, e.problem) from None
    return b"".join([encode(v) for v in items])


#: ``(dotted path, scalar row or None, getter, nested encoder or None)`` of each slot a
#: generated encoder packs: a scalar, or a nested record packed by its own encoder.
_sarek_Leaves = _sarek_Sequence[_sarek_Tuple[
    str, _sarek_Optional[_sarek_ScalarRow], _sarek_Callable[[_sarek_Any], object],
    _sarek_Optional[_sarek_Callable[[_sarek_Any], bytes]]]]
#: ``(dotted path, getter)`` of the nested records a generated encoder reads in place.
_sarek_Records = _sarek_Sequence[_sarek_Tuple[str, _sarek_Callable[[_sarek_Any], object]]]

#: What a generated encoder's ``struct`` call and attribute reads raise on a bad value.
_sarek_FAILURES = (_sarek_struct.error, TypeError, AttributeError, OverflowError, ValueError)


def _sarek_explain(type_name: str, value: object, leaves: _sarek_Leaves,
                   records: _sarek_Records = ()) -> EncodeError:
    """The error for a value a generated encoder refused: a record given as a mapping (the
    generated module reads records by attribute), else the first bad slot, by its path."""
    for path, get in records:
        try:
            x = get(value)
        except AttributeError as e:
            return EncodeError(type_name, path or None, f"missing ({e})")
        if isinstance(x, _sarek_AbcMapping):
            return EncodeError(
                type_name, path or None,
                f"got a mapping ({type(x).__name__}); this module reads a record's fields as "
                f"attributes (its dataclasses, or any object with those attributes)")
    for path, row, get, encode in leaves:
        try:
            x = get(value)
        except AttributeError as e:
            return EncodeError(type_name, path, f"missing ({e})")
        if encode is not None:
            try:
                encode(x)
            except ValueError as e:
                # The EncodeError of this module, or of the generated module that defines the
                # nested record (each module has its own class): reported against this type.
                # A repeated member's checker names the element (``[2]``, ``[1].x``).
                inner = getattr(e, "field", None)
                problem = getattr(e, "problem", str(e))
                return EncodeError(type_name, _sarek_join(path, inner), problem)
        elif row is not None:
            problem = _sarek_scalar_problem(row, x)
            if problem is not None:
                return EncodeError(type_name, path, problem)
    return EncodeError(type_name, None, _sarek_describe(value))


def _sarek_join(path: str, inner: _sarek_Optional[str]) -> str:
    """``path`` followed by a path inside it: ``pos`` + ``x`` is ``pos.x``, ``color`` +
    ``[2]`` is ``color[2]``."""
    if not inner:
        return path
    if not path:
        return inner
    return path + inner if inner.startswith("[") else f"{path}.{inner}"
# --- runtime: end -----------------------------------------------------------------------------
