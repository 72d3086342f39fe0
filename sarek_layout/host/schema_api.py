"""``sarek_layout.load``: a laid-out schema with host-side helpers, looked up by type name.

    schema = sarek_layout.load("geometry.toml")
    dt = schema.dtype("shape")                       # numpy (optional dependency)
    data = schema.encode("shape", ("Circle", ({"x": 1.0, "y": 2.0}, 3.0)))
    value = schema.decode("shape", data)

A name is a bare type name (``shape``), ``Module.name`` or a C name (``Geometry_shape``). For
hot loops, ``schema.codec(name)`` returns the type's codec once, so that each call skips the
name lookup. ``pack_framed``/``unpack_framed`` put a header with the type's layout
fingerprint in front of the elements and refuse data written under another layout
(docs/fingerprint.md). The value forms (a record mapping has exactly its fields as keys; a variant's
arguments are a tuple or list of its arity; a fixed array, vector or matrix is a sequence or a
numpy array of its length, nested outermost first; an enum value is a member of
``schema.enum(name)``, a value name or one of its integers) are defined in ``host.codec``.
"""

from __future__ import annotations

import difflib
import enum
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Type, Union

from ..errors import SarekLayoutError
from ..ir.schema import Schema, SchemaType
from ..layout.fingerprint import layout_id
from ._runtime import _sarek_HEADER, _sarek_header, _sarek_header_problem
from .codec import Buffer, Codec, DecodeError, byte_view, codec_of
from .enums import enum_class

__all__ = ["HostSchema", "UnknownType", "load"]

PathLike = Union[str, "os.PathLike[str]"]


class UnknownType(SarekLayoutError, LookupError):
    """A type name that the schema does not define, or that several modules define."""

    def __str__(self) -> str:  # LookupError would quote the message like a dict key
        return str(self.args[0])


class HostSchema:
    """A resolved ``Schema`` plus dtypes and value codecs for each of its types."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._by_name: Dict[str, SchemaType] = {}

    def __repr__(self) -> str:
        return f"<HostSchema {', '.join(t.qualified_name for t in self.schema.types)}>"

    def __iter__(self) -> Iterator[SchemaType]:
        return iter(self.schema.types)

    def __len__(self) -> int:
        return len(self.schema.types)

    @property
    def names(self) -> List[str]:
        """Qualified names of every type, in declaration order."""
        return [t.qualified_name for t in self.schema.types]

    def type(self, name: str) -> SchemaType:
        """The type called ``name`` (bare, ``Module.name`` or C name); ``UnknownType`` if none."""
        found = self._by_name.get(name)
        if found is not None:
            return found
        matches = self.schema.find(name)
        if len(matches) == 1:
            self._by_name[name] = matches[0]
            return matches[0]
        if matches:
            raise UnknownType(
                f"type name {name!r} is ambiguous: {', '.join(t.qualified_name for t in matches)}; "
                f"write Module.name"
            )
        known = [t.name for t in self.schema.types] + [t.qualified_name for t in self.schema.types]
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        raise UnknownType(
            f"no type {name!r} in the schema (types: {', '.join(self.names) or 'none'}){hint}"
        )

    def layout(self, name: str) -> Any:
        """The layout core's ``RecordLayout`` or ``VariantLayout``."""
        return self.type(name).layout

    def size(self, name: str) -> int:
        return self.type(name).layout.size  # type: ignore[attr-defined, no-any-return]

    def codec(self, name: str) -> Codec:
        """The codec of ``name``: ``encode``/``decode``/``pack``/``pack_into``/``unpack``."""
        st = self.type(name)
        if st.is_enum:
            raise TypeError(f"{st.qualified_name} is an enum, the type of a member, not an "
                            f"element type; its class is schema.enum({name!r})")
        return codec_of(st, st.qualified_name)

    def enum(self, name: str) -> Type[enum.IntEnum]:
        """The ``IntEnum`` class of the enum type ``name`` (SPEC §1b): decoding gives its
        members; encoding takes them, a value name or an integer that is one of the values."""
        st = self.type(name)
        if not st.is_enum:
            raise TypeError(f"{st.qualified_name} is a {st.kind}, not an enum")
        return enum_class(st)

    def dtype(self, name: str) -> Any:
        """The numpy structured dtype of ``name`` (needs numpy)."""
        from .dtype import dtype_of

        return dtype_of(self.type(name))

    def encode(self, name: str, value: object) -> bytes:
        """The bytes of one element: padding zero; ``EncodeError`` names a bad field."""
        return self.codec(name).encode(value)

    def decode(self, name: str, data: Buffer, offset: int = 0) -> Any:
        """One element read back from ``data`` at byte ``offset``, in the ``encode`` form."""
        return self.codec(name).decode(data, offset)

    def pack(self, name: str, values: Iterable[object]) -> bytes:
        """An array of elements, back to back."""
        return self.codec(name).pack(values)

    def pack_into(self, name: str, buffer: Any, values: Iterable[object], offset: int = 0) -> int:
        """Encode ``values`` into a writable buffer (bytearray, numpy array…) at ``offset``."""
        return self.codec(name).pack_into(buffer, values, offset)

    def unpack(self, name: str, data: Buffer, count: Optional[int] = None, offset: int = 0) -> List[Any]:
        """Decode ``count`` elements (default: the whole buffer) from ``offset``."""
        return self.codec(name).unpack(data, count, offset)

    # --- the layout-fingerprint header (docs/fingerprint.md) ----------------------------------

    def layout_id(self, name: str) -> int:
        """The 64-bit layout fingerprint of ``name`` (``layout --json``'s ``layout_id``)."""
        return layout_id(self.type(name))

    def header(self, name: str, count: int) -> bytes:
        """The 24-byte header (magic, ``name``'s layout fingerprint, ``count``) that
        ``pack_framed`` writes in front of ``count`` elements."""
        return _sarek_header(self.layout_id(name), count)

    def check_header(self, name: str, data: Buffer, offset: int = 0) -> int:
        """The element count of the header at byte ``offset`` of ``data``; ``DecodeError``
        naming the type and both fingerprints when the data was written under another
        layout of ``name`` (or carries no header)."""
        st = self.type(name)
        count, problem = _sarek_header_problem(st.qualified_name, layout_id(st),
                                               byte_view(data), offset)
        if problem:
            raise DecodeError(problem)
        return count

    def pack_framed(self, name: str, values: Iterable[object]) -> bytes:
        """The header, then the elements of ``values``: what a file or a cached buffer
        holds, so that a reader under another layout refuses it (``unpack_framed``)."""
        seq = values if isinstance(values, (list, tuple)) else list(values)
        return self.header(name, len(seq)) + self.pack(name, seq)

    def unpack_framed(self, name: str, data: Buffer, offset: int = 0) -> List[Any]:
        """The elements ``pack_framed`` wrote at byte ``offset`` of ``data``, after checking
        its header (``check_header``)."""
        count = self.check_header(name, data, offset)
        return self.unpack(name, data, count, offset + _sarek_HEADER.size)


def _flatten_paths(paths: Tuple[Any, ...]) -> List[str]:
    out: List[str] = []
    for p in paths:
        if isinstance(p, (list, tuple)):
            out.extend(_flatten_paths(tuple(p)))
        else:
            # A bytes path (b"x.toml") as the str the readers and messages use.
            out.append(os.fsdecode(os.fspath(p)))
    return out


def load(*paths: Union[PathLike, Iterable[PathLike]]) -> HostSchema:
    """Read and resolve schema files (any input form) into a ``HostSchema``.

    ``load("a.toml", "b.json")`` and ``load(["a.toml", "b.json"])`` are the same; files given
    together may refer to each other's types as ``Module.name``.
    """
    from ..resolve import load_schema

    return HostSchema(load_schema(_flatten_paths(paths)))
