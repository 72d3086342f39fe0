"""One record declaration written back in its schema's own syntax, fields in a given order.

Reorder advice prints this, so that a suggestion can be pasted over the declaration it
replaces: a TOML ``[[types]]`` table, a JSON ``types`` entry, an OCaml ``[@@sarek.type]``
record or a C ``typedef struct``. The text comes from ``schema_writers`` (the writers the
readers are tested against), given a module holding just the reordered declaration; this
module only cuts that one declaration out of the file they write.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from ..ir.schema import ModuleDecl, RecordDecl

__all__ = ["record_declaration", "SYNTAX_NAMES"]

#: How each source format is named in messages.
SYNTAX_NAMES = {"toml": "TOML", "json": "JSON", "ocaml": "OCaml", "c": "C"}


def _cut(text: str, syntax: str) -> str:
    lines = text.splitlines()
    if syntax == "toml":
        return "\n".join(lines[lines.index("[[types]]"):]).strip()
    if syntax == "json":
        # One entry per line: the ``types`` array element, without the array's comma.
        return next(line.strip().rstrip(",") for line in lines if line.strip().startswith('{"record"'))
    if syntax == "c":
        # Everything between the header's preamble (guard, includes, the float16 typedef the
        # header already has) and its closing #endif.
        body = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")
                and not line.startswith("/*")]
        first = next(i for i in body if lines[i].startswith("typedef struct"))
        return "\n".join(lines[first:body[-1] + 1])
    return text.strip()


def record_declaration(module: ModuleDecl, decl: RecordDecl, order: Sequence[int]) -> str:
    """``decl`` of ``module`` with its fields in ``order`` (declaration indices), in the
    module's own syntax (JSON for a format without a writer, or whose writer cannot write
    one of its members: a member kind of SPEC §1b in a C header, said in a line before it)."""
    from ..schema_writers import WRITERS

    syntax = module.format if module.format in WRITERS else "json"
    reordered = dataclasses.replace(decl, fields=tuple(decl.fields[i] for i in order))
    alone = dataclasses.replace(module, decls=(reordered,))
    try:
        return _cut(WRITERS[syntax](alone), syntax)
    except ValueError as e:
        if syntax == "json":
            raise
        why = f"({SYNTAX_NAMES[syntax]} cannot be written: {e}; as a JSON entry)"
        return why + "\n" + _cut(WRITERS["json"](dataclasses.replace(alone, format="json")), "json")
