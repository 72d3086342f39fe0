"""The C header reader: the ``typedef struct`` declarations and enums of C headers, read into
the schema IR.

Its face, for the rest of the package (nothing outside ``frontends/c/`` imports its modules):

- reading schemas: ``read_header`` (one header), ``read_headers`` (several, one namespace:
  ``namespace``), ``CHeaderOptions`` and the module choices (``modules``);
- ``i386_note``: ``import-c``'s word on the types the original headers lay out otherwise on
  i386 (``i386``);
- reading a header back (``verify --header``): ``preprocessed`` (the header as the target's
  compilers see it, layout attributes taken out for the parser), ``parse`` (pycparser, with
  bounded work and errors at the place), ``CDeclarations`` (the typedefs, structs and
  spellings of the parsed text) and ``spellings_of`` (every scalar spelling a target accepts).

Inside: ``preprocess`` (one bounded ``cpp`` run over the bundled ``fake_libc``),
``extensions`` (attributes and alignment specifiers, judged), ``reader`` (declarations and
spellings), ``header`` (one translation unit to a ``ModuleDecl``), ``members`` (each
member's type: scalars, structs, enums, arrays, ``char`` strings), ``vectors`` (CUDA's vector
types), ``enums`` (enum types and constants), ``constants`` (integer constant expressions),
``changes`` (what the extensions change), ``pragmas`` (packing pragmas followed),
``variants``, ``places``.
"""

from __future__ import annotations

__all__ = ["read_header", "read_headers", "CHeaderOptions", "check_module_headers",
           "module_choices", "parse_module_assignment", "preprocessed", "parse",
           "CDeclarations", "spellings_of", "import_headers", "i386_note"]

_FACE = {
    "read_header": "namespace", "read_headers": "namespace",
    "CHeaderOptions": "modules", "check_module_headers": "modules",
    "module_choices": "modules", "parse_module_assignment": "modules",
    "preprocessed": "face", "parse": "reader", "CDeclarations": "reader",
    "spellings_of": "reader", "import_headers": "namespace", "i386_note": "i386",
}


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
