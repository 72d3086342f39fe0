"""Front-end stage: schema files of every supported syntax, read into the schema IR.

``read_module`` picks the reader by file suffix; ``read_modules`` reads several files (the
resolve stage, ``resolve.load_schema``, resolves them together: they share a namespace
through ``Module.name`` references). C headers
are read together (``namespace``: in C all typedef names share one namespace), with the
preprocessor options and modules of ``modules.CHeaderOptions``. Readers are imported only
for the formats actually given.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Iterable, List, Optional

from ..errors import SchemaError
from ..ir.schema import ModuleDecl, SourceLocation
from .source_files import is_header

if TYPE_CHECKING:
    from .c import CHeaderOptions

__all__ = ["READERS", "read_module", "read_modules", "is_header"]

#: suffix -> (module, function) of the reader; imported lazily (the module that holds the
#: reader, not its package's face, so that importing it imports the whole reader).
READERS = {
    ".json": ("sarek_layout.frontends.jsontoml.reader", "read_json"),
    ".toml": ("sarek_layout.frontends.jsontoml.reader", "read_toml"),
    ".ml": ("sarek_layout.frontends.ocaml.reader", "read_ocaml"),
    ".h": ("sarek_layout.frontends.c.namespace", "read_header"),
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


def read_modules(paths: Iterable[str],
                 c_headers: Optional["CHeaderOptions"] = None) -> List[ModuleDecl]:
    """Read ``paths`` into one ``ModuleDecl`` each, in order (not yet resolved: that is the
    resolve stage's, ``resolve.load_schema``); the C headers among them are read together,
    with ``c_headers`` (include folders, macros, modules)."""
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
            from .c import CHeaderOptions, read_headers

            header_modules = iter(read_headers(headers, c_headers or CHeaderOptions()))
        modules.append(next(header_modules))
    return modules
