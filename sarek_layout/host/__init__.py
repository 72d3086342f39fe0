"""Host stage: Python values and numpy arrays in the exact bytes the generated headers read.

``load`` (re-exported as ``sarek_layout.load``) gives a schema with ``dtype``, ``encode``,
``decode``, ``pack`` and ``unpack`` per type. Everything here reads one thing per type, its
byte plan (``plan``), built from the member model alone (``model`` gives a bare elttype its
member model): ``codec`` encodes without numpy (with the functions ``fast`` compiles from the
plans), ``dtype`` imports numpy only when called, ``python_target`` gathers the view of the
standalone Python module. ``_runtime`` (and ``_runtime_kinds``, for the member kinds of SPEC
§1b) is the code both share: the codecs import it, and every generated module carries it
verbatim; ``enums`` gives the API its IntEnum classes. This stage never imports codegen;
codegen reaches the python target through a lazy hook (``codegen.target_views``).
"""

from .codec import Codec, DecodeError, EncodeError, codec_of
from .schema_api import HostSchema, UnknownType, load

__all__ = ["Codec", "DecodeError", "EncodeError", "HostSchema", "UnknownType", "codec_of", "load", "dtype_of"]


def dtype_of(t):  # type: ignore[no-untyped-def]
    """The numpy dtype of a resolved record or variant type, or of an elttype (imports numpy
    on first use)."""
    from .dtype import dtype_of as _dtype_of

    return _dtype_of(t)
