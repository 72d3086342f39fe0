"""Helpers shared by the sub-commands: the options of C header schemas, loading schemas and
picking types by name."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: the sub-commands'
# parsers call ``add_c_header_options`` at start-up, which must stay cheap (cli/main.py).
if TYPE_CHECKING:
    from typing import Optional, Sequence, Tuple

    from ..frontends.c import CHeaderOptions
    from ..ir.schema import Schema, SchemaType


def add_c_header_options(parser: argparse.ArgumentParser, full: bool = False) -> None:
    """``-I``, ``-D`` and ``--c-module``: how the C headers among the inputs are read. Every
    command that reads schemas takes them (docs/c-headers.md). Their help is said in full
    once, in ``sarek-layout --help`` (``c_header_help``, ``full``); each command's help names
    them in one paragraph that points there (the whole block used to be in every one)."""
    if full:
        group = parser.add_argument_group(
            "C headers (.h inputs), read the same way by every command that reads schemas",
            "Headers are preprocessed with a small bundled libc and read together: their "
            "typedef names share one namespace, as in C. See docs/c-headers.md.",
        )
    else:
        group = parser.add_argument_group(
            "C headers (.h inputs)",
            "-I DIR, -D NAME[=VALUE] and --c-module HEADER=MODULE (each repeatable): the "
            "include path, the macros and the module of the C headers among the inputs; "
            "`sarek-layout --help` explains them (and docs/c-headers.md).",
        )

    def said(text: str) -> str:
        return text if full else argparse.SUPPRESS

    group.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                       help=said("add DIR to the preprocessor's include path (repeatable)"))
    group.add_argument("-D", dest="defines", action="append", default=[],
                       metavar="NAME[=VALUE]",
                       help=said("define a preprocessor macro (repeatable)"))
    group.add_argument(
        "--c-module", dest="c_modules", action="append", default=[],
        metavar="HEADER=MODULE",
        help=said("the module of the types of HEADER, one of the headers given (repeatable; "
                  "an empty MODULE means none). It wins over the header's own "
                  "'// sarek-layout: module NAME' comment and over the rule by file name; the "
                  "typedef names must be MODULE_<name>, as C names never change"),
    )


def c_header_help(formatter_class) -> str:
    """The whole help of the C header options, formatted as a command's help would show it
    (for the epilog of ``sarek-layout --help``)."""
    parser = argparse.ArgumentParser(add_help=False, usage=argparse.SUPPRESS,
                                     formatter_class=formatter_class)
    add_c_header_options(parser, full=True)
    return parser.format_help().strip("\n")


def _option(flag: str, value: str) -> list:
    """``flag value`` as words a shell passes on; a value starting with ``-`` is joined to
    its flag (``--output=-x``, ``-I-x``), which argparse would otherwise read as an option."""
    if not value.startswith("-"):
        return [flag, value]
    return [f"{flag}={value}" if flag.startswith("--") else flag + value]


def shown_command(command: str, positionals: Sequence[str],
                  options: Sequence[Tuple[str, str]], args: argparse.Namespace) -> Optional[str]:
    """``sarek-layout COMMAND`` with ``positionals``, ``options`` (flag, value) and the C
    header options of ``args``, quoted for a POSIX shell: a command a message tells the user
    to run (the one that writes what ``--check`` found stale). ``None`` when a word does not
    print, as it could not be copied from one line."""
    import shlex

    from .program import PROG

    words = [w for flag, value in options for w in _option(flag, value)]
    for flag, values in (("-I", "include_dirs"), ("-D", "defines"), ("--c-module", "c_modules")):
        words += [w for value in getattr(args, values, ()) for w in _option(flag, value)]
    if any(p.startswith("-") for p in positionals):
        words = [*words, "--", *positionals]  # a file named like an option stays a file
    else:
        words = [*positionals, *words]
    if not all(w.isprintable() for w in words):
        return None
    return shlex.join([PROG, command, *words])


def c_header_options(args: argparse.Namespace) -> CHeaderOptions:
    """The ``add_c_header_options`` options of ``args``; a malformed ``--c-module`` is a
    usage error of one line (checked here, not by argparse, which adds its usage lines)."""
    from ..errors import UsageError, quoted
    from ..frontends.c import CHeaderOptions, module_choices, parse_module_assignment

    assignments = []
    for text in getattr(args, "c_modules", ()):
        try:
            assignments.append(parse_module_assignment(text))
        except ValueError as e:
            raise UsageError(f"--c-module {quoted(text, 80)}: {e}") from None
    return CHeaderOptions(tuple(getattr(args, "include_dirs", ())),
                          tuple(getattr(args, "defines", ())), module_choices(assignments))


def load(paths: Sequence[str], args: Optional[argparse.Namespace] = None,
         copies: Optional[dict] = None) -> Schema:
    """The schema of ``paths``, C headers read with ``args``' C header options (none: the
    defaults). A ``--c-module`` header that is not among ``paths`` is a usage error, unless
    ``copies`` is given: then ``paths`` are copies (``copy -> the header it stands for``) of
    one side of ``diff``, which checks the headers of both sides itself."""
    from ..resolve import load_schema
    from ..frontends.source_files import is_header

    if args is None:
        return load_schema(paths)
    rules = _rules_override(args)
    if copies is None and not getattr(args, "c_modules", ()) and not any(map(is_header, paths)):
        # No C header to read and no --c-module to check: the C reader is not imported
        # (-I and -D only change how headers are read; a no-op generate saves ~6 ms).
        return load_schema(paths, rules=rules)
    from ..frontends.c import check_module_headers

    options = c_header_options(args)
    if copies is None:
        check_module_headers(options, paths)
    else:
        options = options.with_copies(copies)
    return load_schema(paths, options, rules)


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME``: every type laid out by one rule set instead of its schema's."""
    parser.add_argument(
        "--rules", metavar="NAME",
        help="lay every type out by this rule set (docs/member-kinds.md) instead of the one "
        "its schema names: see why a struct that fits a storage buffer does not fit a "
        "uniform one, without editing the schema")


def _rules_override(args: argparse.Namespace) -> Optional[str]:
    """The ``--rules`` of ``args`` (``None``: each schema's own), checked against the rule
    sets' names."""
    from ..errors import UsageError
    from ..ir.types import RULE_SET_NAMES

    rules = getattr(args, "rules", None)
    if rules is not None and rules not in RULE_SET_NAMES:
        raise UsageError(f"--rules {rules!r}: no such rule set (one of "
                         f"{', '.join(RULE_SET_NAMES)})")
    return rules


def select_types(schema: Schema, name: Optional[str]) -> Tuple[SchemaType, ...]:
    """All types, or the one ``name`` designates (bare, ``Module.name`` or C name)."""
    from ..errors import UsageError

    if name is None:
        return schema.types
    found = schema.find(name)
    if not found:
        import difflib

        names = [n for t in schema.types for n in (t.name, t.qualified_name, t.c_name)]
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        known = ", ".join(t.qualified_name for t in schema.types[:20]) or "none"
        if len(schema.types) > 20:
            known += f", … ({len(schema.types)} in all)"
        raise UsageError(f"no type named {name!r} in the given schemas{hint} (types: {known})")
    if len(found) > 1:
        options = ", ".join(t.qualified_name for t in found)
        raise UsageError(f"type name {name!r} is ambiguous; write one of: {options}")
    return found
