"""Targets stage: everything one output language is, below the readers, codegen and verify.

``registry`` (the ``Target`` of each language: file suffix, template, view, dialect, the
readers-back's spellings and defines, probe dialects), ``dialects`` (how each spells scalars
and declarations), ``spellings`` (which C spellings mean each scalar when a header is read
back), ``naming`` (every name sarek-layout emits: ``<Ctor>_v``, ``make_…``, padding,
accessors, escaping), ``shape`` (the emitted struct of each type, walked once: ``tag``,
``data``, arms, member paths), ``name_rules`` (per target, which names are kept, escaped or
refused: reserved words, the measured tables of predefined macros ``predefined`` and
file-scope declarations ``declared``), ``names`` (a schema's names judged for the targets
emitted). It imports only the IR, ``errors`` and the standard library.
"""

__all__ = ["Target", "TARGETS", "DEFAULT_TARGETS"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from .registry import DEFAULT_TARGETS, TARGETS, Target


def __getattr__(name: str):
    # The registry (and every target's dialect) is imported on first use (PEP 562): the
    # resolver imports ``targets.names`` through this package, and ``layout`` or ``explain``
    # never need the registry (~3 ms of their start).
    if name in __all__:
        from . import registry

        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
