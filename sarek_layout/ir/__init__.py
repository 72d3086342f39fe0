"""IR stage: the immutable element types and schema declarations every stage shares.

Front ends build it, layout reads it, codegen and verify consume it; it imports nothing but
the standard library.
"""

from .types import (
    SCALARS,
    ElementType,
    Scalar,
    TArray,
    TBool,
    TFloat16,
    TFloat32,
    TFloat64,
    TInt8,
    TInt16,
    TInt32,
    TInt64,
    TRecord,
    TUint8,
    TUint16,
    TUint32,
    TUint64,
    TUnit,
    TVariant,
    TVec,
)

__all__ = [
    "SCALARS",
    "ElementType",
    "Scalar",
    "TArray",
    "TBool",
    "TFloat16",
    "TFloat32",
    "TFloat64",
    "TInt8",
    "TInt16",
    "TInt32",
    "TInt64",
    "TRecord",
    "TUint8",
    "TUint16",
    "TUint32",
    "TUint64",
    "TUnit",
    "TVariant",
    "TVec",
]
