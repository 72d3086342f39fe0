"""Targets stage: everything one output language is, below the readers, codegen and verify.

``registry`` (the ``Target`` of each language: file suffix, template, view, dialect, the
readers-back's spellings and defines, probe dialects), ``dialects`` (how each spells scalars
and declarations), ``spellings`` (which C spellings mean each scalar when a header is read
back), ``naming`` (every name sarek-layout emits: ``<Ctor>_v``, ``make_…``, padding,
accessors, escaping), ``names`` and ``predefined`` (which schema names every target can
emit: reserved words and predefined macros). It imports only the IR and the standard library.
"""

from .registry import DEFAULT_TARGETS, TARGETS, Target

__all__ = ["Target", "TARGETS", "DEFAULT_TARGETS"]
