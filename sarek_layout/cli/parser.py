"""The argument parser of ``sarek-layout``: the top-level options and one sub-parser per
sub-command (each ``cli/cmd_*.py`` module adds its own).

Kept apart from ``cli/main.py`` so that ``sarek-layout --version`` never imports argparse.
"""

from __future__ import annotations

import argparse
import importlib
import os
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


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (the same steps, the same fallback of 80),
    without importing shutil: argparse asks for it once per option it adds (a formatter
    checks each metavar) and shutil brings bz2, lzma and zlib with it, ~2.5 ms of every
    start of a command that never prints its help."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as the terminal (as argparse's own), found without
    shutil (``_terminal_columns``)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: Optional[int] = None) -> None:
        if width is None:
            width = _terminal_columns() - 2  # what argparse subtracts
        super().__init__(prog, indent_increment, max_help_position, width)


class _EpilogFormatter(argparse.RawDescriptionHelpFormatter, _Formatter):
    """The top-level help's: its epilog (the C header options' help, already laid out by a
    ``_Formatter``) is printed as it is."""


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 through our own reporting (same as argparse), and
    its help formatter needs no shutil (``_Formatter``)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

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
    whole = names is COMMANDS
    if whole:
        from .common import c_header_help

    parser = _Parser(
        prog=PROG,
        description="Compute the Sarek aligned aggregate layout and emit matching headers.",
        # The options every command that reads schemas takes, explained here once.
        epilog=c_header_help(_Formatter) if whole else None,
        formatter_class=_EpilogFormatter if whole else _Formatter,
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
