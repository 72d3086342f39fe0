"""``sarek-layout generate SCHEMA... -o DIR [-t TARGET]... [--check] [--diff] [--depfile FILE]``.

Writes one header per schema file and target (``<stem>.h``, ``.cuh``, ``.clh``), each only
when its content changes. ``--check`` and ``--diff`` write nothing and exit 1 when an output
is missing or stale; ``--diff`` also prints what would change as a unified diff. Outputs are
checked (``codegen.output_paths``) before anything is read back or written: an output that
is an input, a FIFO or a device is refused with exit 2.
"""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    # The registry is plain data (no jinja2): cheap enough to list the targets in --help.
    from ..targets import DEFAULT_TARGETS, TARGETS

    # Every target from the registry, so that a new one is named here once it is added.
    files = "; ".join(f"<stem>{t.suffix} ({t.name}: {t.description})" for t in TARGETS.values())
    p = sub.add_parser(
        "generate",
        help=f"write the headers and modules of the schemas: {', '.join(TARGETS)}",
        description=f"Write one file per schema file and target into DIR: {files}. Without "
        f"-t: {', '.join(DEFAULT_TARGETS)}. Files are "
        "written only when their content changes, atomically. Exit status: 0 done (or, with "
        "--check/--diff, up to date); 1 with --check or --diff when an output is missing or "
        "stale; 2 bad input or usage, including an output path that is an input, another "
        "output, a FIFO or a device.",
    )
    p.add_argument("schemas", nargs="+", metavar="SCHEMA", help="schema files (given together)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder")
    p.add_argument(
        "-t",
        "--target",
        action="append",
        dest="targets",
        metavar="TARGET",
        choices=list(TARGETS),
        help=f"header target, repeatable: {', '.join(TARGETS)} (default: {', '.join(DEFAULT_TARGETS)})",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and name the outputs that are missing or stale",
    )
    p.add_argument(
        "--diff",
        action="store_true",
        help="write nothing; print a unified diff of what would change on stdout and exit 1 "
        "when an output is missing or stale (as --check does)",
    )
    p.add_argument(
        "--depfile",
        metavar="FILE",
        help="also write a dependency file (Make syntax, read by make and ninja): each output "
        "depends on its schema files; a path that make and ninja cannot both read is refused",
    )
    from .common import add_c_header_options

    add_c_header_options(p)
    p.set_defaults(run=run)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _role(f) -> str:
    return "Python module" if f.target == "python" else "header"


def _say_the_command(args: argparse.Namespace) -> None:
    """The command that writes what ``--check``/``--diff`` found missing or stale: this one
    without them (the pre-commit hook runs ``generate --check``, so its user is told too)."""
    import sys

    from .common import shown_command

    options = [("-o", args.output)] + [("-t", t) for t in args.targets or ()]
    if args.depfile:
        options.append(("--depfile", args.depfile))
    command = shown_command("generate", args.schemas, options, args)
    if command is not None:
        print(f"to update, run: {command}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from ..codegen import DEFAULT_TARGETS, render_headers
    from ..targets import TARGETS
    from ..codegen.output_paths import Output, check_outputs, printable
    from ..codegen.writer import depfile_text, plan, unified_diff, write_files
    from .common import load

    schema = load(args.schemas, args)
    files = render_headers(schema, args.targets or DEFAULT_TARGETS)
    writing = not (args.check or args.diff)
    # Every output path is judged before any old output is read back or anything written.
    outputs = [Output(os.path.join(args.output, f.filename), _role(f)) for f in files]
    if args.depfile:
        outputs.append(Output(args.depfile, "dependency file", "--depfile"))
    check_outputs(outputs, args.schemas, writing=writing)
    planned = plan(files, args.output)
    # Built before anything is written (and under --check too): a path that Make and ninja
    # cannot both read fails the whole run.
    depfile = depfile_text(planned) if args.depfile else None
    # "headers" for C/CUDA/OpenCL output; a Python module is not a header.
    word = "header" if all(TARGETS[f.target].is_c_header for f in files) else "file"
    stale = [p for p in planned if p.stale]
    unchanged = len(planned) - len(stale)

    if not writing:
        if args.diff:
            for p in stale:
                sys.stdout.write(unified_diff(p))
        for p in stale:
            why = "missing" if p.status == "new" else "stale"
            print(f"would write {printable(p.path)} ({why})", file=sys.stderr)
        print(
            f"{_count(len(stale), word)} would be written, {unchanged} unchanged",
            file=sys.stderr,
        )
        if stale:
            _say_the_command(args)
        return 1 if stale else 0

    # Unchanged files were just read and compared by plan(): do not read them again. A
    # stale one is compared once more as it is written (another process may have written
    # the same content meanwhile, as under make -j).
    todo: list = [(p.path, p.content) for p in stale]  # in chunks: the text is never joined
    if depfile is not None:
        # Paths that are not UTF-8 go back into the depfile as the bytes they were.
        todo.append((args.depfile, depfile.encode("utf-8", "surrogateescape")))
    done = write_files(todo, tidy=[p.path for p in planned])
    written = sum(done[: len(stale)])
    print(f"{_count(written, word)} written, {len(planned) - written} unchanged", file=sys.stderr)
    return 0
