"""``sarek-layout import-c HEADER... [--json] [-o DIR] [--type NAME]... [-I DIR]
[-D NAME[=VALUE]] [--c-module HEADER=MODULE]``.

Reads existing C headers' ``typedef struct`` and plain ``struct tag`` declarations and their
enums (see ``frontends.c``), each type on its own: the ones the rules can express are checked as a
schema (all headers together, so they may refer to each other) and printed as TOML (JSON
with ``--json``); every refused type is reported on stderr at its place, all in one run
(``frontends.c.refusals``). C has no 4-byte ``bool``, so such fields come back as ``int32``.

Exit status (``EXIT_STATUS_HELP``): 0 every type imported; 1 some refused, the others
written; 2 nothing usable, a ``--type`` refused, or bad input or usage.
"""

from __future__ import annotations

import argparse

#: The exit statuses, as ``import-c --help`` and docs/c-headers.md state them.
EXIT_STATUS_HELP = (
    "exit status: 0 every type imported; 1 some types refused (each reported on stderr "
    "at its place, FILE:LINE:COL: error: ..., naming the type and why) and the others "
    "written; 2 no type imports, a --type NAME is refused, or bad input or usage"
)

#: Most rounds of resolver refusals taken out (each round removes every type it names;
#: a knock-on is never reported by the resolver, so a second round is already rare).
_RESOLVE_ROUNDS = 8


def add_parser(sub) -> None:
    p = sub.add_parser(
        "import-c",
        help="turn the structs of C headers into a schema (TOML or JSON)",
        description="Read the 'typedef struct' and plain 'struct tag {...};' declarations "
        "of C headers (members int8_t ... uint64_t, float, double or other such structs, "
        "where int8_t, int16_t, uint16_t, uint32_t and uint64_t are extension scalars, not "
        "Sarek element types; fixed arrays of them, 'char name[N]' byte strings, enums and "
        "CUDA's vector types such as float4; tagged "
        "variants in the shape 'generate' writes), and their enums with their values, and "
        "print them as a schema, each type on "
        "its own: a type the rules cannot express (or whose layout an extension changes, or "
        "that uses such a type) is reported on stderr with its place and reason, and the "
        "others are written. bool and unit cannot be told apart from int32_t in C: they "
        "come back as int32.",
        epilog=EXIT_STATUS_HELP,
    )
    p.add_argument("headers", nargs="+", metavar="HEADER", help=".h files")
    p.add_argument("--json", action="store_true", help="print JSON instead of TOML")
    p.add_argument(
        "--type", dest="types", action="append", default=[], metavar="NAME",
        help="import only the type NAME (its C name) and the types it uses (repeatable); "
        "each must import, or the run fails with exit status 2",
    )
    p.add_argument(
        "-o",
        "--output-dir",
        metavar="DIR",
        help="write one schema file per header into DIR, <header stem>.toml (.json with "
        "--json), creating DIR if needed (required with several headers)",
    )
    from .common import add_c_header_options

    add_c_header_options(p)
    p.set_defaults(run=run)


def _resolved(imported, selected: bool):
    """``imported`` with every check a schema gets, and its resolved schema: a type the
    resolver refuses is taken out with the types that use it, and the rest resolved again
    (``selected``: a ``--type`` was named, and every type it needs must import)."""
    from ..errors import SchemaError
    from ..resolve import resolve

    for _ in range(_RESOLVE_ROUNDS):
        try:
            return imported, resolve(imported.modules)
        except SchemaError as e:
            imported = imported.without(e.errors)
            if selected:
                imported.check_none_refused()
    return imported, resolve(imported.modules)


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from ..codegen.output_paths import Output, check_outputs, printable
    from ..codegen.writer import write_files
    from ..errors import SchemaError, UsageError, raise_collected
    from ..ir.schema import SourceLocation
    from ..frontends.c import check_module_headers
    from ..frontends.c import i386_note, import_headers
    from ..schema_writers import to_json, to_toml
    from .common import c_header_options

    if len(args.headers) > 1 and not args.output_dir:
        raise UsageError("several headers give several schemas: write them with -o DIR")
    suffix = ".json" if args.json else ".toml"
    outputs = []
    if args.output_dir:
        # Judged before anything is read or written: two headers of one name in two folders
        # would write one schema file, and an output must never be one of the headers.
        outputs = [Output(os.path.join(args.output_dir, os.path.splitext(os.path.basename(h))[0] + suffix),
                          f"schema of {printable(h)}") for h in args.headers]
        check_outputs(outputs, args.headers, writing=True)
    options = c_header_options(args)
    check_module_headers(options, args.headers, all_headers=True)
    # Together: a type of one header used by another is that header's (frontends.c.namespace).
    imported = import_headers(args.headers, options)
    if args.types:
        imported = imported.select(args.types)  # each must import: SchemaErrors otherwise
    imported, schema = _resolved(imported, bool(args.types))
    modules = imported.modules
    kept = [i for i, module in enumerate(modules) if module.decls]
    if not kept:
        # Nothing usable: exit status 2, nothing written, and the refusals the schema
        # commands give for this header (root causes only, in their own words).
        raise_collected(imported.root_errors())
        raise SchemaError("no struct declarations to import", SourceLocation(args.headers[0]))
    refusals = imported.refusals
    for refusal in refusals:
        print(refusal, file=sys.stderr)
    if refusals:
        print(f"{sum(len(modules[i].decls) for i in kept)} types imported, {len(refusals)} "
              f"refused", file=sys.stderr)
    note = i386_note(schema, imported.units)
    if note is not None:  # a word, not a refusal: the exit status stays
        print(note, file=sys.stderr)

    texts = []
    for header, module in zip(args.headers, modules):
        if args.json:
            texts.append(to_json(module))
        else:
            texts.append(to_toml(
                module,
                comment=f"Imported from {printable(os.path.basename(header))} by sarek-layout "
                "import-c.\nC has no 4-byte bool or unit: such fields read back as int32.",
            ))

    status = 1 if refusals else 0
    if not args.output_dir:
        sys.stdout.write(texts[0])
        return status
    # Like generate -o, a missing output folder is created; a header none of whose types
    # imports gets no schema file (one without types is no schema).
    chosen = [(outputs[i].path, texts[i]) for i in kept]
    written = sum(write_files(chosen))
    unchanged = len(chosen) - written
    skipped = len(texts) - len(chosen)
    print(
        f"{written} schema{'s' if written != 1 else ''} written, {unchanged} unchanged"
        + (f", {skipped} header{'s' if skipped != 1 else ''} with no type imported"
           if skipped else ""),
        file=sys.stderr,
    )
    return status
