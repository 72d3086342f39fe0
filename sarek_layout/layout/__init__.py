"""Layout stage: the Sarek aligned aggregate layout, as pure functions over elttypes."""

from .core import (
    CtorLayout,
    Layout,
    Leaf,
    RecordLayout,
    ScalarLayout,
    VariantLayout,
    align_up,
    elttype_layout,
    record_layout,
    scalar_align,
    scalar_size,
    variant_layout,
)

__all__ = [
    "CtorLayout",
    "Layout",
    "Leaf",
    "RecordLayout",
    "ScalarLayout",
    "VariantLayout",
    "align_up",
    "elttype_layout",
    "record_layout",
    "scalar_align",
    "scalar_size",
    "variant_layout",
]
