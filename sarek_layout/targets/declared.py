"""The names each target's compilers already declare at file scope before a generated header.

What the header's own includes (<stddef.h>, <stdint.h>) declare there, nvcc's and hipcc's
implicit runtime headers, OpenCL C's builtins, glslang's built-in symbols, and the program's
``main``: a type of module "" is emitted at file scope with its bare name, so a C name one of a
target's compilers declares is refused for that target (``targets.names``). The table is data,
``declared.json`` beside this module, measured from the installed compilers by
``python tests/helpers/declared_names.py --write`` (``tests/targets/test_names_declared.py``
re-measures and names what is missing); it is read on first use only, since only a name at file
scope needs it.
"""

from __future__ import annotations

import functools
import json
import pathlib
from typing import Dict, FrozenSet

__all__ = ["declared_by", "DATA_FILE"]

#: The measured table: ``{"toolchains": {name: {"target", "version", "names"}}}``.
DATA_FILE = pathlib.Path(__file__).with_name("declared.json")


@functools.lru_cache(maxsize=None)
def _toolchains() -> Dict[str, dict]:
    with open(DATA_FILE, encoding="utf-8") as f:
        return json.load(f)["toolchains"]


@functools.lru_cache(maxsize=None)
def declared_by(target: str) -> Dict[str, FrozenSet[str]]:
    """``{toolchain: names it declares at file scope}`` for the toolchains of ``target``
    (registry names: ``gcc``, ``nvcc``, ``glslang``…); empty for a target none was measured
    for."""
    return {name: frozenset(entry["names"]) for name, entry in _toolchains().items()
            if entry["target"] == target}
