"""The ``sarek-layout`` entry point: parse arguments, run one sub-command, map errors to exits.

Each sub-command lives in its own module exposing ``add_parser(subparsers)`` and
``run(args) -> int``. Those modules import only ``argparse`` at the top, so building the
parser stays cheap; the work (and jinja2, cffi…) is imported inside ``run``.

Exit status (SPEC §5): 0 all good, 1 a difference was found, 2 bad input or usage.
Diagnostics go to stderr; a user never sees a traceback for bad input.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys

from .._version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import List, Optional

PROG = "sarek-layout"

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = ["layout", "generate", "import-c", "explain", "verify", "diff"]


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 through our own reporting (same as argparse)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{PROG}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Compute the Sarek aligned aggregate layout and emit matching headers.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"sarek_layout.cli.cmd_{name.replace('-', '_')}")
        module.add_parser(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    if (sys.argv[1:] if argv is None else list(argv)) == ["--version"]:
        # Build tools probe this on every run: answer without importing the sub-commands.
        print(f"{PROG} {__version__}")
        return 0
    parser = build_parser()
    args = parser.parse_args(argv)
    from ..errors import SarekLayoutError, SchemaError

    # A command builds hundreds of thousands of small immutable objects (declarations,
    # layouts, views) that form no reference cycles; the cyclic collector would rescan them
    # again and again and take half the run (docs/benchmarks.md). Paused for the command,
    # restored after it (main() also runs in-process, in tests and plugins).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return int(args.run(args) or 0)
    except SchemaError as e:
        print(str(e) if e.location is not None else f"{PROG}: error: {e.message}", file=sys.stderr)
        return e.exit_status
    except SarekLayoutError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return e.exit_status
    except BrokenPipeError:
        # Output piped into `head` and closed: not an error worth a traceback.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        if gc_was_enabled:
            gc.enable()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
