"""``sarek-layout explain SCHEMA... [--type NAME] [--suggest] [--svg FILE] [--html FILE] [--check]``.

The ``layout`` report with nested records and union arms opened in place; a record that some
field order would shrink says by how much (arithmetic, no search). ``--suggest`` searches for
that order (exact, closest to the declared one) and prints it as a declaration to paste over
the old one. ``--svg``/``--html`` also draw the byte map; with ``--check`` they write nothing
and exit 1 when a file is missing or stale (for pictures checked in to docs).
"""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser(
        "explain",
        help="show every padding hole, suggest a smaller field order, draw a byte map",
        description="Print each type pahole-style with nested records and union arms opened, "
        "every hole marked, and the padding totals, and say which records a field order would "
        "shrink. With --suggest, print instead the field order of the smallest size (closest "
        "to the declared order), ready to paste in the schema's own syntax. Optionally draw "
        "the layout as an SVG byte map or an HTML page.",
    )
    p.add_argument("schemas", nargs="+", metavar="SCHEMA", help="schema files (given together)")
    p.add_argument("--type", metavar="NAME", help="only this type (name, Module.name or C name)")
    p.add_argument(
        "--suggest",
        action="store_true",
        help="search for the smallest field order of each record and print the records it "
        "would shrink, as reordered declarations",
    )
    p.add_argument("--svg", metavar="FILE", help="also draw the byte map into FILE (SVG)")
    p.add_argument("--html", metavar="FILE", help="also write FILE: an HTML page of the byte map and the report")
    p.add_argument(
        "--check",
        action="store_true",
        help="with --svg/--html: write nothing; exit 1 and name the files that are missing or stale",
    )
    from .common import add_c_header_options, add_rules_option

    add_rules_option(p)
    add_c_header_options(p)
    p.set_defaults(run=run)


def _where(st) -> str:
    loc = st.decl.location
    return f"{loc.file}:{loc.line}" if loc.line > 0 else loc.file


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _paste(advice) -> str:
    from ..explain.declare import record_declaration

    st = advice.type
    head = (
        f"{st.qualified_name} in {advice.new_size} bytes instead of {advice.size} "
        f"(saves {advice.saved}); replaces the declaration at {_where(st)}:"
    )
    return head + "\n" + record_declaration(st.source, st.decl, advice.order) + "\n"


#: Said of a record no order found is smaller than, when that is not proved.
NOT_PROVED = "/* no smaller field order found (the search was bounded: not proved) */"


def _advice_lines(advice) -> list:
    if advice is None:
        return []
    if not advice.saved:
        return ["/* no field order is smaller */" if advice.smallest else NOT_PROVED]
    return [
        f"/* reordered, it takes {advice.new_size} bytes (saves {advice.saved}): "
        f"{', '.join(advice.field_names)} */"
    ]


def _hint_lines(walk) -> list:
    """The plain report's line for a record a reorder would shrink: arithmetic, no search
    (but for members whose sizes are not multiples of their alignments, a std430 vec3)."""
    from ..explain.reorder import smallest_size_of, unadvised

    found = smallest_size_of(walk.type)
    if found is None:
        why = unadvised(walk.type)
        return [f"/* {why} */"] if why else []
    smallest, proved = found
    if smallest >= walk.size:
        return ["/* no field order is smaller */" if proved else NOT_PROVED]
    return [f"/* a field order of {smallest} bytes exists (saves {walk.size - smallest}): "
            f"explain --suggest prints it */"]


def run(args: argparse.Namespace) -> int:
    import sys

    from ..errors import UsageError
    from ..explain.reorder import advise
    from ..explain.text import render_walk
    from ..explain.walk import walk_types
    from .common import load, select_types

    if args.check and not (args.svg or args.html):
        raise UsageError("--check needs --svg or --html (it checks those files)")
    schema = load(args.schemas, args)
    types = select_types(schema, args.type)
    # The picture paths are judged before anything is printed: a refused --svg/--html is
    # the whole answer (exit 2), not a report followed by an error.
    wanted = _picture_outputs(args)
    walks = walk_types(types, schema.types)

    if not args.suggest:
        # The plain report searches for nothing: a record that some order would shrink
        # says so from arithmetic alone, and --suggest finds the order.
        report = "\n".join("\n".join(render_walk(w, expand=True, extra=_hint_lines(w))) + "\n"
                           for w in walks)
        sys.stdout.write(report)
        return _pictures(args, wanted, walks, report)

    advice = [advise(w.type) for w in walks]
    shrinking = [a for a in advice if a is not None and a.saved]
    sys.stdout.write("\n".join(_paste(a) for a in shrinking))
    records = sum(a is not None for a in advice)
    if shrinking:
        saved = sum(a.saved for a in shrinking)
        print(f"{len(shrinking)} of {_plural(records, 'record')} would shrink "
              f"({_plural(saved, 'byte')} in all)", file=sys.stderr)
    else:
        print(f"no record would shrink by reordering its fields ({_plural(records, 'record')} checked)",
              file=sys.stderr)
    # The --html page shows the report with the orders found.
    blocks = []
    for walk, a in zip(walks, advice):
        block = "\n".join(render_walk(walk, expand=True, extra=_advice_lines(a))) + "\n"
        if a is not None and a.saved:
            block += _paste(a)
        blocks.append(block)
    return _pictures(args, wanted, walks, "\n".join(blocks))


def _picture_outputs(args: argparse.Namespace) -> list:
    """The ``--svg``/``--html`` outputs, their paths judged (``codegen.output_paths``): a
    picture is never drawn over an input, another output, a FIFO or a device, nor under a
    schema file's name (``UsageError``)."""
    if not (args.svg or args.html):
        return []  # the plain report imports no codegen (its package pulls in the views)
    from ..codegen.output_paths import Output, check_outputs

    wanted = []
    if args.svg:
        wanted.append(Output(args.svg, "SVG picture", "--svg"))
    if args.html:
        wanted.append(Output(args.html, "HTML page", "--html"))
    if wanted:
        check_outputs(wanted, args.schemas, writing=not args.check)
    return wanted


def _say_the_command(args: argparse.Namespace) -> None:
    """The command that draws what ``--check`` found missing or stale: this one without it."""
    import sys

    from .common import shown_command

    options = [(flag, value) for flag, value in (("--type", args.type), ("--svg", args.svg),
                                                 ("--html", args.html)) if value]
    command = shown_command("explain", args.schemas, options, args)
    if command is not None:
        print(f"to update, run: {command}", file=sys.stderr)


def _pictures(args: argparse.Namespace, wanted: list, walks, report: str) -> int:
    """Write (or ``--check``) the ``--svg``/``--html`` files ``wanted`` (already judged);
    1 when checking finds one stale. The pictures name the schemas by their file names
    only, so they do not depend on how the paths were typed (``explain --check`` agrees
    from any folder).
    """
    if not wanted:
        return 0
    import os
    import sys

    from ..codegen.output_paths import printable, read_existing
    from ..codegen.writer import write_files
    from ..explain.picture import render_html, render_svg

    source = " ".join(os.path.basename(p) for p in args.schemas)
    outputs = []
    for out in wanted:
        text = render_svg(walks, source) if out.option == "--svg" else render_html(walks, report, source)
        outputs.append((out.path, text.encode("utf-8")))
    if args.check:
        stale = 0
        for path, data in outputs:
            old = read_existing(path)
            if old != data:
                stale += 1
                why = "missing" if old is None else "stale"
                print(f"would write {printable(path)} ({why})", file=sys.stderr)
        if stale:
            _say_the_command(args)
        return 1 if stale else 0
    for (path, _), written in zip(outputs, write_files(outputs)):
        print(f"{'wrote' if written else 'unchanged'} {printable(path)}", file=sys.stderr)
    return 0
