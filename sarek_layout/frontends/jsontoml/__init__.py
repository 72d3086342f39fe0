"""The JSON and TOML reader: schema files as data (SPEC §3).

Its face is ``read_json``, ``read_toml`` and ``parse_type_expr`` (a type expression such as
``Geometry.point`` or ``float32 array``). Inside: ``reader``, and ``positions`` (line and
column of each key, which the standard parsers do not give).
"""

from __future__ import annotations

__all__ = ["read_json", "read_toml", "parse_type_expr"]

_FACE = {"read_json": "reader", "read_toml": "reader", "parse_type_expr": "reader"}


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
