"""The shading languages ``verify`` knows, one object each, and their registry.

A ``ShadingLanguage`` owns every fact about its language that ``verify`` uses, for the
generated files (the ``glslang``, ``vulkan``, ``naga``, ``webgpu`` and ``metal-proxy``
toolchains, ``verify.drivers``) and for hand-written shaders (``verify --shader``) alike: its
file suffixes, how its compiler reads lines and comments (``lexer.Lexicon``), how a struct is
declared (``reader``), how its compiler is run and what it built is read back (``measure``),
and how a type is spelled and what to advise. Adding a shading language is writing one
subclass in a module of this package and one row in ``registry``.
"""

from __future__ import annotations

import os
from typing import Dict, Optional, Tuple

from .lexer import Lexicon

__all__ = ["ShadingLanguage", "registry", "by_suffix", "get"]


class ShadingLanguage:
    """Base of every shading language; the subclasses fill in the class attributes."""

    #: The name ``generate -t`` and the targets' dialects use (``glsl``).
    name = ""
    #: The file suffixes of its shaders (lower case, with the dot).
    suffixes: Tuple[str, ...] = ()
    lexicon: Lexicon
    #: Names an ``#include`` may give that no file provides: the compiler's stand-ins.
    stand_ins: Tuple[str, ...] = ()
    #: The toolchain of ``verify.toolchains`` that stands for its compiler
    #: (``$SAREK_REQUIRE_TOOLCHAINS``), what measures it as the summary names it, and as a
    #: difference names it.
    toolchain = ""
    tool = ""
    short = ""

    def __repr__(self) -> str:
        return f"<shading language {self.name}>"

    def missing(self) -> Optional[str]:
        """Why its compiler cannot run here (with the install line), or ``None``."""
        raise NotImplementedError


def registry() -> Dict[str, ShadingLanguage]:
    """Every shading language, by name: one row each."""
    from .glsl import GLSL
    from .metal import METAL
    from .wgsl import WGSL

    return {lang.name: lang for lang in (GLSL, WGSL, METAL)}


def get(name: str) -> ShadingLanguage:
    return registry()[name]


def by_suffix(path: str) -> Optional[ShadingLanguage]:
    """The language of a file, from its suffix (``None`` for none of them)."""
    suffix = os.path.splitext(path)[1].lower()
    for lang in registry().values():
        if suffix in lang.suffixes:
            return lang
    return None
