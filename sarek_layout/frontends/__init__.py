"""Front-end stage: schema files of every supported syntax, read into the schema IR.

``read_module`` picks the reader by file suffix; ``load_schema`` reads several files and
resolves them together (they share a namespace through ``Module.name`` references). C headers
are read together (``c_namespace``: in C all typedef names share one namespace), with the
preprocessor options and modules of ``c_modules.CHeaderOptions``. Readers are imported only
for the formats actually given.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Iterable, Optional

from ..errors import SchemaError
from ..ir.schema import ModuleDecl, Schema, SourceLocation

if TYPE_CHECKING:
    from .c_modules import CHeaderOptions

__all__ = ["READERS", "read_module", "load_schema", "is_header"]

#: suffix -> (module, function) of the reader; imported lazily.
READERS = {
    ".json": ("sarek_layout.frontends.jsontoml", "read_json"),
    ".toml": ("sarek_layout.frontends.jsontoml", "read_toml"),
    ".ml": ("sarek_layout.frontends.ocaml", "read_ocaml"),
    ".h": ("sarek_layout.frontends.cheader", "read_header"),
}


def read_module(path: str) -> ModuleDecl:
    """Read one schema file into a ``ModuleDecl``; raises ``SchemaError`` on bad input."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in READERS:
        known = ", ".join(sorted(READERS))
        raise SchemaError(
            f"unknown schema format {suffix or '(no suffix)'!r}; expected one of {known}",
            SourceLocation(path),
        )
    _check_regular(path)
    module_name, function = READERS[suffix]
    reader = getattr(importlib.import_module(module_name), function)
    return reader(path)


def _check_regular(path: str) -> None:
    """Refuse a FIFO, socket or device up front: reading one could block forever. Missing
    and unreadable files are left to the readers, which say why."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise SchemaError(
            "is not a regular file (a FIFO, socket or device); pass a schema file",
            SourceLocation(path),
        )


def is_header(path: str) -> bool:
    """Whether ``path`` is read as a C header (the ``.h`` reader of ``READERS``)."""
    return os.path.splitext(path)[1].lower() == ".h"


def load_schema(paths: Iterable[str], c_headers: Optional["CHeaderOptions"] = None) -> Schema:
    """Read and resolve ``paths`` together into one laid-out ``Schema``; the C headers among
    them are read together, with ``c_headers`` (include folders, macros, modules)."""
    from .resolve import resolve

    # os.fsdecode: a bytes path (b"x.toml") is read, and named in messages, as its str.
    paths = [os.fsdecode(p) if isinstance(p, bytes) else p for p in paths]
    if not paths:
        raise SchemaError("no schema files given")
    headers = [p for p in paths if is_header(p)]
    modules = []
    header_modules = None
    for p in paths:
        if not is_header(p):
            modules.append(read_module(p))
            continue
        if header_modules is None:  # all headers at the first one: they share typedef names
            from .c_modules import CHeaderOptions
            from .c_namespace import read_headers

            header_modules = iter(read_headers(headers, c_headers or CHeaderOptions()))
        modules.append(next(header_modules))
    return resolve(modules)
