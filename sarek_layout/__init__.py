"""sarek-layout: Sarek's aligned aggregate layout, in Python, for every host and device.

The pipeline is visible in the sub-packages: ``frontends`` (JSON/TOML, OCaml, C headers) →
``ir`` (immutable types and schema) → ``layout`` (pure arithmetic) → ``codegen`` (Jinja
templates) → ``verify`` (real compilers) → ``cli``.

The names below follow Sarek's ``Sarek_ir_layout`` so that the two read side by side.
"""

from ._version import __version__

# The public names are imported on first use (PEP 562), so that `sarek-layout --version`
# and other light commands do not pay for dataclasses, typing and the layout core.
_LAZY = {
    **dict.fromkeys(
        ("LayoutError", "MisalignedField", "NestedVariant", "SarekLayoutError", "SchemaError",
         "UnsupportedField", "layout_error_message"), "errors"),
    **dict.fromkeys(
        ("TArray", "TBool", "TFloat16", "TFloat32", "TFloat64", "TInt32", "TInt64", "TRecord",
         "TUint8", "TUnit", "TVariant", "TVec", "TInt8", "TInt16", "TUint16", "TUint32",
         "TUint64"), "ir.types"),
    **dict.fromkeys(
        ("CtorLayout", "Leaf", "RecordLayout", "ScalarLayout", "VariantLayout",
         "elttype_layout", "record_layout", "scalar_align", "scalar_size", "variant_layout"),
        "layout.core"),
}

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs
    from .errors import (LayoutError, MisalignedField, NestedVariant, SarekLayoutError,
                         SchemaError, UnsupportedField, layout_error_message)
    from .ir.types import (TArray, TBool, TFloat16, TFloat32, TFloat64, TInt8, TInt16, TInt32,
                           TInt64, TRecord, TUint8, TUint16, TUint32, TUint64, TUnit, TVariant,
                           TVec)
    from .layout.core import (CtorLayout, Leaf, RecordLayout, ScalarLayout, VariantLayout,
                              elttype_layout, record_layout, scalar_align, scalar_size,
                              variant_layout)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sarek_layout' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "__version__",
    "TInt32",
    "TInt64",
    "TFloat32",
    "TFloat64",
    "TBool",
    "TUnit",
    "TFloat16",
    "TUint8",
    "TInt8",
    "TInt16",
    "TUint16",
    "TUint32",
    "TUint64",
    "TRecord",
    "TVariant",
    "TArray",
    "TVec",
    "scalar_size",
    "scalar_align",
    "record_layout",
    "variant_layout",
    "elttype_layout",
    "Leaf",
    "RecordLayout",
    "CtorLayout",
    "VariantLayout",
    "ScalarLayout",
    "LayoutError",
    "MisalignedField",
    "NestedVariant",
    "UnsupportedField",
    "layout_error_message",
    "SarekLayoutError",
    "SchemaError",
    "load_schema",
    "load",
]


def load_schema(*paths: str):
    """Read and resolve schema files into a laid-out ``Schema`` (see ``frontends``)."""
    from .resolve import load_schema as _load

    return _load(paths)


def load(*paths):
    """Schema files as a ``HostSchema``: ``dtype``/``encode``/``decode``/``pack``/``unpack`` by
    type name (see ``sarek_layout.host``). Imported on first use; numpy only for ``dtype``."""
    from .host.schema_api import load as _load

    return _load(*paths)
