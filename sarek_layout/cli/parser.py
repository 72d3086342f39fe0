"""The argument parser of ``sarek-layout``: the top-level options and one sub-parser per
sub-command (each ``cli/cmd_*.py`` module adds its own).

Kept apart from ``cli/main.py`` so that ``sarek-layout --version`` never imports argparse.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .._version import __version__
from .program import COMMANDS, PROG, cmake_dir

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional


class _PrintCMakeDir(argparse.Action):
    """``--cmakedir``: print the folder and exit, like ``--version`` (no sub-command needed)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: Optional[str] = None,
    ) -> None:
        print(cmake_dir())
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 through our own reporting (same as argparse)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{PROG}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser(argv: Optional[list] = None) -> argparse.ArgumentParser:
    """The whole parser; or, when ``argv`` (default: the command line) starts with a
    sub-command's name, the parser with that one sub-command: it parses that command line
    the same way and prints the same help and errors (a sub-command's usage and help never
    name its siblings), without importing and building the others (a build tool's no-op
    ``generate`` pays for every start)."""
    given = sys.argv[1:] if argv is None else list(argv)
    names = given[:1] if given and given[0] in COMMANDS else COMMANDS
    parser = _Parser(
        prog=PROG,
        description="Compute the Sarek aligned aggregate layout and emit matching headers.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument(
        "--cmakedir",
        action=_PrintCMakeDir,
        nargs=0,
        help="print the folder of the CMake package (find_package(sarek_layout CONFIG)) and exit",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in names:
        module = importlib.import_module(f"sarek_layout.cli.cmd_{name.replace('-', '_')}")
        module.add_parser(sub)
        # So that an unknown option is reported with the sub-command's own usage line.
        sub.choices[name].set_defaults(_subparser=sub.choices[name])
    return parser
