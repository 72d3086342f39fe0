"""The OCaml reader: Sarek's ``[@@deriving kernel]`` type declarations in ``.ml`` files.

Its face is ``read_ocaml``. Inside: ``lexer`` (tokens, comments, strings), ``reader`` (the
file walk), ``decl`` (type declarations), ``attributes`` (Sarek's and ppx attributes),
``scope`` (inner modules).
"""

from __future__ import annotations

__all__ = ["read_ocaml"]

_FACE = {"read_ocaml": "reader"}


def __getattr__(name: str):
    # The face is imported on first use (PEP 562): building the command-line parser names
    # CHeaderOptions without paying for pycparser and the whole reader.
    module = _FACE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_FACE))
