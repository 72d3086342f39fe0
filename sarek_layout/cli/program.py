"""What the program is: its name, its sub-commands and its CMake folder.

A leaf below both the entry point (``cli/main.py``) and the parser (``cli/parser.py``), which
both read these: neither imports the other's module for them.
"""

from __future__ import annotations

__all__ = ["PROG", "COMMANDS", "cmake_dir"]

PROG = "sarek-layout"

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = ["layout", "generate", "import-c", "explain", "verify", "diff", "schema"]


def cmake_dir() -> str:
    """The folder of the CMake package shipped with sarek-layout (``--cmakedir``)."""
    import os

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cmake")
