"""``sarek-layout diff OLD NEW`` / ``diff --against REV SCHEMA...``: is a schema change
breaking for code built against the old layout or data stored with it?"""

from __future__ import annotations

import argparse

EPILOG = ("Exit status: 0 no breaking change (or all of them allowed), 1 a breaking change, "
          "2 bad input or usage. The rules are listed in docs/diff.md.")

USAGE = ("%(prog)s OLD NEW [--allow TYPE]... [--json]\n"
         "       %(prog)s --against REV SCHEMA... [--allow TYPE]... [--json]")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "diff",
        usage=USAGE,
        help="classify the layout changes between two schema versions (breaking or compatible)",
        description="Compare two versions of a set of schemas type by type (by Module.name) "
        "and report every change of size, alignment, offset, member type, constructor tag "
        "and so on, one line each with both values, classified as breaking or compatible "
        "for code built against OLD and data written with it.",
        epilog=EPILOG,
    )
    # One metavar for the two positionals (argparse cannot name the items of nargs="*"
    # in its list of arguments), so that --help says OLD NEW, as the usage line does.
    p.add_argument("paths", nargs="*", metavar="OLD NEW",
                   help="the old and the new version, each a schema file or a folder of "
                   "them; with --against, the SCHEMA files or folders of the work tree")
    p.add_argument("--against", metavar="REV",
                   help="compare the work-tree SCHEMA files with the same paths at this git "
                   "revision (read with git, nothing checked out)")
    p.add_argument("--allow", action="append", metavar="TYPE", default=[],
                   help="accept the breaking changes of this type (name, Module.name or C "
                   "name; repeatable): they are still listed, and no longer fail")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    from .common import add_c_header_options

    add_c_header_options(p)
    p.set_defaults(run=run)


def _allowed_names(names, old, new) -> list:
    """Qualified names of the ``--allow`` types, looked up in NEW, then OLD."""
    from ..errors import UsageError

    chosen = []
    for name in names:
        found = new.find(name) or old.find(name)
        if not found:
            raise UsageError(f"--allow {name!r}: no such type in OLD or NEW")
        if len(found) > 1:  # allowing more than was meant would hide a break
            options = ", ".join(t.qualified_name for t in found)
            raise UsageError(f"--allow {name!r} is ambiguous; write one of: {options}")
        chosen.append(found[0].qualified_name)
    return chosen


def run(args: argparse.Namespace) -> int:
    import tempfile

    from ..abi.sources import at_revision, schema_files
    from ..errors import UsageError

    if args.against is None:
        if len(args.paths) != 2:
            raise UsageError("diff needs OLD and NEW (two schema files or folders), or "
                             "--against REV SCHEMA...")
        return _compare(args, schema_files(args.paths[0]), schema_files(args.paths[1]))
    if not args.paths:
        raise UsageError("diff --against REV needs at least one SCHEMA file or folder")
    # The revision's files live in a temporary folder for the whole comparison: locations
    # of OLD declarations point into it (and are printed as REV:path).
    with tempfile.TemporaryDirectory(prefix="sarek-diff-") as tmp:
        files = at_revision(args.against, args.paths, tmp, args.include_dirs)
        # OLD's C headers are read with the revision's includes: -I folders inside the
        # repository are replaced by their copies.
        old_args = argparse.Namespace(**vars(args))
        old_args.include_dirs = files.include_dirs
        return _compare(args, files.old, files.new, files.display, files.notes,
                        files.originals, old_args)


def _copies_of(args, originals):
    """Each revision copy of a header that a ``--c-module`` names -> that header: the copy
    (``REV:path``) gets its module. Only the copy of that very file: ``lib/p.h`` is not
    ``p.h``. Empty outside ``--against``."""
    import os

    from .common import c_header_options

    chosen = c_header_options(args).modules
    return {copy: original for copy, original in originals.items()
            if os.path.realpath(original) in chosen}


def _load(paths, display, args, originals=None):
    """The schema of ``paths`` (empty when there are none); errors in a revision's files
    name them ``REV:path``."""
    from ..errors import SchemaError, raise_collected
    from ..ir.schema import Schema, SourceLocation
    from .common import load

    if not paths:
        return Schema((), ())
    try:
        return load(paths, args, copies=_copies_of(args, originals or {}))
    except SchemaError as e:
        shown = [one if one.location is None or one.location.file not in display else
                 SchemaError(one.message, SourceLocation(display[one.location.file],
                                                         one.location.line, one.location.col))
                 for one in e.errors]  # every refusal, when there are several
        if shown == list(e.errors):
            raise
        raise_collected(shown)
        raise  # pragma: no cover - raise_collected raised


def _compare(args, old_paths, new_paths, display=None, notes=(), originals=None,
             old_args=None) -> int:
    import json
    import sys

    from ..abi.diff import diff_schemas
    from ..abi.report import report_json, report_lines, summary_line, type_lines
    from ..frontends.c import check_module_headers
    from .common import c_header_options

    display = display or {}
    # A --c-module header must be one of the headers of either side (or, with --against,
    # of the work tree's SCHEMA files).
    check_module_headers(c_header_options(args), list(old_paths) + list(new_paths)
                         if not display else list(args.paths) + list(new_paths))
    old = _load(old_paths, display, old_args or args, originals)
    new = _load(new_paths, {}, args)
    report = diff_schemas(old, new)
    if args.allow:
        report = report.allow(_allowed_names(args.allow, old, new))

    def shown(path: str) -> str:
        return display.get(path, path)

    if args.json:
        json.dump(report_json(report, shown, list(notes)), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        lines = [f"note: {n}" for n in notes] + report_lines(report, shown)
        lines += type_lines(report)
        lines.append(summary_line(report))
        sys.stdout.write("\n".join(lines) + "\n")
    return report.exit_status
