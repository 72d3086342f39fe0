"""What ``verify --header`` needs of the C reader beyond its declarations: a header as the
target's compilers see it, ready for the parser."""

from __future__ import annotations

from typing import Iterable, Optional

from .extensions import scan_extensions
from .preprocess import preprocess

__all__ = ["preprocessed"]


def preprocessed(path: str, include_dirs: Iterable[str], target: Optional[str],
                 max_output: int, wall_seconds: float, defines: Iterable[str] = ()) -> str:
    """``path`` preprocessed with ``target``'s macros, within ``max_output`` bytes and
    ``wall_seconds``, its layout attributes taken out for pycparser (the compilers measure
    them); ``defines`` are ``-D`` macros. ``SchemaError`` at the place for bad input."""
    pre = preprocess(path, include_dirs, defines, target=target, max_output=max_output,
                     wall_seconds=wall_seconds)
    text, _ = scan_extensions(pre.text)
    return text
