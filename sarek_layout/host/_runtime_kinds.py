"""The part of the Python runtime for the member kinds of SPEC §1b: enums (their checks) and
repeated members (``_sarek_Repeat``: fixed arrays, vectors, matrices, ``char`` texts).

Like ``host/_runtime.py``, whose names it uses, everything between its ``runtime: begin`` and
``runtime: end`` markers is pasted verbatim into every generated module, right after that
file's region (``python_target.runtime_text``), and the API codecs import it from here; the
same rules hold for that text (standalone, deterministic, ``mypy --strict`` clean, names
starting with ``_sarek_``).
"""

from ._runtime import (  # noqa: F401  (in a generated module, the region above defines them)
    EncodeError,
    _sarek_Any,
    _sarek_bool,
    _sarek_Callable,
    _sarek_describe,
    _sarek_int,
    _sarek_join,
    _sarek_Optional,
    _sarek_repr,
    _sarek_scalar_problem,
    _sarek_ScalarRow,
    _sarek_Sequence,
    _sarek_struct,
    _sarek_Tuple,
)

# --- runtime: begin ---------------------------------------------------------------------------
from itertools import chain as _sarek_chain
from itertools import repeat as _sarek_repeat
from itertools import starmap as _sarek_starmap
from typing import Dict as _sarek_Dict
from typing import FrozenSet as _sarek_FrozenSet
from typing import List as _sarek_List


# --- enums and repeated members (SPEC §1b) ------------------------------------------------------

#: An enum as the codecs check its values: ``(qualified name, member by key, member by value,
#: classes whose values are looked up directly, "A = 0, B = 1" for messages)``. The keys are
#: the value names (the schema's, and the class's where it escapes one) and the integer
#: values; an IntEnum member is an int, so it is found by its value.
_sarek_EnumSpec = _sarek_Tuple[str, _sarek_Dict[object, _sarek_Any], _sarek_Dict[int, _sarek_Any],
                               _sarek_FrozenSet[type], str]


class _sarek_BadValue(ValueError):
    """Bytes that hold no value of their type (an integer that no value of an enum has)."""


def _sarek_enum_spec(name: str, cls: _sarek_Any,
                     pairs: _sarek_Sequence[_sarek_Tuple[str, int]]) -> _sarek_EnumSpec:
    """The checks of enum ``name``: ``cls`` is its IntEnum class, ``pairs`` its schema
    ``(value name, value)`` pairs."""
    by_value: _sarek_Dict[int, _sarek_Any] = {value: cls(value) for _, value in pairs}
    by_key: _sarek_Dict[object, _sarek_Any] = {v: m for v, m in by_value.items()}
    by_key.update((n, by_value[int(m)]) for n, m in cls.__members__.items())
    by_key.update((n, by_value[v]) for n, v in pairs)
    listing = ", ".join(f"{n} = {v}" for n, v in pairs[:8]) + (", ..." if len(pairs) > 8 else "")
    return (name, by_key, by_value, frozenset((int, str, cls)), listing)


def _sarek_enum_problem(enum: _sarek_EnumSpec, x: object) -> _sarek_Optional[str]:
    """Why ``x`` is no value of ``enum``, or ``None``: a value is a member of an IntEnum, a
    value name, or an integer that is one of the values (not a bool, not a float)."""
    name, by_key, by_value, _, listing = enum
    if isinstance(x, str):
        return None if x in by_key else f"{_sarek_repr(x)} is not a value name of {name} ({listing})"
    index = getattr(x, "__index__", None)
    if isinstance(x, bool) or index is None:
        return (f"expected a value of {name} (a member, a value name or an integer), got "
                f"{_sarek_describe(x)}")
    value = index()
    return None if value in by_value else f"{_sarek_int(value)} is not a value of {name} ({listing})"


def _sarek_enum_int(enum: _sarek_EnumSpec, x: object) -> _sarek_Any:
    """The enum member (an int) that ``x`` stands for; ``ValueError`` when it is none."""
    if x.__class__ in enum[3]:
        found = enum[1].get(x)
        if found is not None:
            return found
    problem = _sarek_enum_problem(enum, x)
    if problem is not None:
        raise ValueError(problem)
    return enum[1][x] if isinstance(x, str) else enum[2][x.__index__()]  # type: ignore[attr-defined]


def _sarek_enum_member(enum: _sarek_EnumSpec, value: int, path: str) -> _sarek_Any:
    """The member of ``enum`` that the integer ``value`` read at ``path`` is."""
    found = enum[2].get(value)
    if found is None:
        raise _sarek_BadValue(f"{path}: {value} is not a value of {enum[0]} ({enum[4]})")
    return found


_sarek_NONE = type(None)


def _sarek_bytes(x: object) -> bytes:
    """A text of a ``char`` array: ``bytes`` or ``bytearray`` (numpy's ``bytes_`` is bytes);
    ``TypeError`` for anything else (a ``str`` must be encoded first)."""
    if isinstance(x, (bytes, bytearray)):
        return bytes(x)
    raise TypeError("not bytes")


def _sarek_text_problem(n: int, x: object) -> _sarek_Optional[str]:
    """Why ``x`` is no text of a ``char[n]``, or ``None``."""
    if not isinstance(x, (bytes, bytearray)):
        hint = " (encode a str first, e.g. with .encode())" if isinstance(x, str) else ""
        return f"expected bytes of at most {n} bytes (char[{n}]), got {_sarek_describe(x)}{hint}"
    if len(x) > n:
        return f"{len(x)} bytes do not fit char[{n}]"
    return None


def _sarek_as_items(x: object) -> _sarek_Optional[_sarek_Sequence[_sarek_Any]]:
    """``x`` as the items of one level of a repeated value: a list or a tuple as it is, an
    array (numpy's, a memoryview: anything with ``shape`` and ``tolist``) as its list; else
    ``None``."""
    if isinstance(x, (list, tuple)):
        return x
    if hasattr(x, "shape") and hasattr(x, "tolist"):
        items = x.tolist()
        if isinstance(items, list):
            return items
    return None


def _sarek_flatten(x: object, shape: _sarek_Tuple[int, ...]) -> _sarek_List[_sarek_Any]:
    """The elements of the nested value ``x`` of ``shape``, outermost first; ``TypeError``
    or ``ValueError`` when a level is not a sequence or has another length. Each level is a
    few calls that run in C, whatever its length."""
    level: _sarek_List[_sarek_Any] = [x]
    for n in shape:
        if not _sarek_SEQUENCES.issuperset(map(type, level)):
            items = list(map(_sarek_as_items, level))
            if any(i is None for i in items):
                raise TypeError("not a sequence")
            level = items
        if set(map(len, level)) != {n}:
            raise ValueError("wrong length")
        level = list(_sarek_chain.from_iterable(level))
    return level


_sarek_SEQUENCES = frozenset((list, tuple))


def _sarek_nest(items: _sarek_Sequence[_sarek_Any], shape: _sarek_Tuple[int, ...]) -> _sarek_Tuple[_sarek_Any, ...]:
    """``items`` (outermost first) as nested tuples of ``shape``, in C whatever the counts."""
    out: _sarek_Sequence[_sarek_Any] = items
    for n in reversed(shape[1:]):
        out = list(zip(*[iter(out)] * n))
    return tuple(out)


class _sarek_Repeat:
    """How one member that repeats an element (a fixed array, a vector, a matrix: SPEC §1b)
    is packed, checked and read back.

    ``shape`` is its counts, outermost first (``T[2][3]``: ``(2, 3)``; a matrix: columns,
    rows), and the value's nesting; ``row`` the element's scalar row (``None``: a record,
    packed by an encoder passed in); ``enum`` its enum. The bytes are ``rows`` rows of
    ``row_format`` (``per_row`` elements and the padding up to the next row: ``3f4x`` for a
    std430 ``vec3<float32>[2]``), cut to ``size`` bytes; a member whose elements are back to
    back is one row, whose values the element's own format packs in place. So packing costs
    a few calls that run in C whatever the counts (a record element costs its encoder).

    A ``char`` array's last level is text (``text``: its length): ``char[32]`` is one
    ``bytes`` of at most 32 bytes (zero-padded; decoded without its trailing zero bytes, as
    numpy's ``S32`` reads it), packed as byte values (``B``); ``nest`` is the value's nesting.
    """

    __slots__ = ("path", "shape", "row", "enum", "struct", "per_row", "rows", "size", "what",
                 "text", "nest")

    def __init__(self, path: str, shape: _sarek_Tuple[int, ...],
                 row: _sarek_Optional[_sarek_ScalarRow], enum: _sarek_Optional[_sarek_EnumSpec],
                 row_format: str, per_row: int, rows: int, size: int) -> None:
        self.path = path
        self.shape = shape
        self.row = row
        self.enum = enum
        self.struct = _sarek_struct.Struct(row_format)
        self.per_row = per_row
        self.rows = rows
        self.size = size
        self.what = enum[0] if enum is not None else row[0] if row is not None else "records"
        self.text = shape[-1] if row is not None and row[1] == "bytes" else 0
        self.nest = shape[:-1] if self.text else shape

    def flat(self, x: object) -> _sarek_Sequence[_sarek_Any]:
        """What ``struct`` packs for the value ``x``, outermost first (bools and unit as ints,
        enum values as their members); ``TypeError``/``ValueError`` when ``x`` does not fit
        (``struct`` checks the numbers)."""
        shape = self.nest
        if len(shape) == 1 and (x.__class__ is list or x.__class__ is tuple) and len(x) == shape[0]:
            items: _sarek_Sequence[_sarek_Any] = x
        else:
            items = _sarek_flatten(x, shape)
        if self.text:
            return self.text_bytes(items)
        if self.enum is not None:
            enum = self.enum
            if enum[3].issuperset(map(type, items)):
                try:
                    return list(map(enum[1].__getitem__, items))
                except KeyError:
                    pass
            return [_sarek_enum_int(enum, v) for v in items]
        kind = self.row[1] if self.row is not None else ""
        if kind == "bool" and not {bool}.issuperset(map(type, items)):
            return [1 if v is True else _sarek_bool(v) for v in items]
        if kind == "unit":
            if {_sarek_NONE} != set(map(type, items)):
                raise TypeError("unit must be None")
            return [0] * len(items)
        return items

    def text_bytes(self, texts: _sarek_Sequence[_sarek_Any]) -> _sarek_List[int]:
        """The byte values of ``texts``, each zero-padded to the text length."""
        n = self.text
        if not {bytes}.issuperset(map(type, texts)):
            texts = [_sarek_bytes(t) for t in texts]
        if max(map(len, texts)) > n:
            raise ValueError("too long")
        return list(_sarek_chain.from_iterable(
            map(bytes.ljust, texts, _sarek_repeat(n, len(texts)), _sarek_repeat(b"\0", len(texts)))))

    def pack(self, x: object, encode: _sarek_Optional[_sarek_Callable[[_sarek_Any], bytes]] = None) -> bytes:
        """The ``size`` bytes of the value ``x`` (``encode`` packs a record element)."""
        items = self.flat(x)
        if encode is not None:
            items = list(map(encode, items))
        s = self.struct
        if self.rows == 1:
            data = s.pack(*items)
        elif self.per_row == 1:
            data = b"".join(map(s.pack, items))
        else:
            data = b"".join(_sarek_starmap(s.pack, zip(*[iter(items)] * self.per_row)))
        size = self.size
        # A last row's padding beyond the member (the scalar block layout) is cut off.
        return data if len(data) == size else data[:size].ljust(size, b"\0")

    def unflat(self, items: _sarek_Sequence[_sarek_Any]) -> _sarek_Any:
        """The value of the unpacked elements ``items`` (outermost first): nested tuples (a
        text is one ``bytes``)."""
        if self.text:
            texts = list(map(bytes, zip(*[iter(items)] * self.text)))
            texts = list(map(bytes.rstrip, texts, _sarek_repeat(b"\0", len(texts))))
            return _sarek_nest(texts, self.nest) if self.nest else texts[0]
        if self.enum is not None:
            by_value = self.enum[2]
            try:
                items = list(map(by_value.__getitem__, items))
            except KeyError:
                i = next(i for i, v in enumerate(items) if v not in by_value)
                _sarek_enum_member(self.enum, items[i], self.path + self.index(i))
        elif self.row is not None and self.row[1] == "bool":
            items = list(map(bool, items))
        elif self.row is not None and self.row[1] == "unit":
            items = [None] * len(items)
        return _sarek_nest(items, self.shape)

    def unpack(self, data: bytes, decode: _sarek_Optional[_sarek_Callable[[bytes], _sarek_Any]] = None) -> _sarek_Any:
        """The value of the member's ``size`` bytes ``data`` (``decode`` reads a record)."""
        s = self.struct
        span = self.rows * s.size
        if len(data) != span:
            data = bytes(data[:span]).ljust(span, b"\0")
        items = list(_sarek_chain.from_iterable(s.iter_unpack(data)))
        if decode is not None:
            return _sarek_nest(list(map(decode, items)), self.shape)
        return self.unflat(items)

    def index(self, flat: int) -> str:
        """``[i][j]``: the element number ``flat`` (outermost first) as indices."""
        out = ""
        for n in reversed(self.shape):
            out = f"[{flat % n}]" + out
            flat //= n
        return out

    def problem(self, x: object, encode: _sarek_Optional[_sarek_Callable[[_sarek_Any], bytes]] = None,
                depth: int = 0, where: str = "") -> _sarek_Optional[_sarek_Tuple[str, str]]:
        """``(where, why)``: the first part of ``x`` that does not fit (``[2]``, ``[1][0]``,
        ``[3].x``, or ``""`` for ``x`` itself); ``None`` when it fits."""
        if depth == len(self.nest):
            return self.element_problem(x, encode, where)
        n = self.nest[depth]
        holds = f"the member holds {' x '.join(map(str, self.shape))} {self.what}"
        items = _sarek_as_items(x)
        if items is None:
            return where, (f"expected a sequence of {n} (a list, a tuple or a numpy array), "
                           f"got {_sarek_describe(x)}; {holds}")
        if len(items) != n:
            return where, (f"expected a sequence of {n}, got {len(items)} "
                           f"item{'' if len(items) == 1 else 's'}; {holds}")
        for i, y in enumerate(items):
            found = self.problem(y, encode, depth + 1, f"{where}[{i}]")
            if found is not None:
                return found
        return None

    def element_problem(self, y: object, encode: _sarek_Optional[_sarek_Callable[[_sarek_Any], bytes]],
                        where: str) -> _sarek_Optional[_sarek_Tuple[str, str]]:
        """``problem`` of one element (a text of a ``char`` array)."""
        if encode is not None:
            try:
                encode(y)
            except ValueError as e:
                return _sarek_join(where, getattr(e, "field", None)), getattr(e, "problem", str(e))
            return None
        if self.text:
            problem = _sarek_text_problem(self.text, y)
        elif self.enum is not None:
            problem = _sarek_enum_problem(self.enum, y)
        else:
            problem = _sarek_scalar_problem(self.row, y)  # type: ignore[arg-type]
        return None if problem is None else (where, problem)

    def check(self, x: object, encode: _sarek_Optional[_sarek_Callable[[_sarek_Any], bytes]] = None) -> bytes:
        """``pack``, or ``EncodeError`` naming the element that does not fit."""
        found = self.problem(x, encode)
        if found is not None:
            raise EncodeError("", found[0] or None, found[1])
        return self.pack(x, encode)


def _sarek_enum_check(enum: _sarek_EnumSpec) -> _sarek_Callable[[object], bytes]:
    """A checker for a generated encoder's explanation: ``EncodeError`` when a value is not
    one of ``enum``'s."""
    def check(x: object) -> bytes:
        problem = _sarek_enum_problem(enum, x)
        if problem is not None:
            raise EncodeError("", None, problem)
        return b""
    return check
# --- runtime: end -----------------------------------------------------------------------------
