"""The shading languages ``verify`` knows: one row each (``language.ShadingLanguage``).

A new shading language is one object (a ``ShadingLanguage`` subclass in a module of this
package) and one row here; ``verify --shader`` finds a file's language by its suffix, and
the generated-file drivers take the object they need.
"""

from __future__ import annotations

from typing import Dict

from .glsl import GLSL
from .hlsl import HLSL
from .language import ShadingLanguage
from .metal import METAL
from .wgsl import WGSL

__all__ = ["LANGUAGES"]

#: Every shading language, by name.
LANGUAGES: Dict[str, ShadingLanguage] = {lang.name: lang for lang in (GLSL, WGSL, METAL, HLSL)}
