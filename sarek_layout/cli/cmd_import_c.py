"""``sarek-layout import-c HEADER... [--json] [-o DIR] [-I DIR] [-D NAME[=VALUE]]
[--c-module HEADER=MODULE]``.

Reads existing C headers' ``typedef struct`` declarations (see ``frontends.c``), checks
them as a schema (all headers together, so they may refer to each other), and prints each as
a TOML schema (JSON with ``--json``) so that a C codebase can adopt the schema as its source of
truth. C has no 4-byte ``bool``, so such fields come back as ``int32``.
"""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser(
        "import-c",
        help="turn the typedef structs of C headers into a schema (TOML or JSON)",
        description="Read the 'typedef struct' declarations of C headers (members int32_t, "
        "int64_t, float, double or other such structs; tagged variants in the shape "
        "'generate' writes) and print them as a schema. bool and unit cannot be told apart "
        "from int32_t in C: they come back as int32.",
    )
    p.add_argument("headers", nargs="+", metavar="HEADER", help=".h files")
    p.add_argument("--json", action="store_true", help="print JSON instead of TOML")
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


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from ..codegen.output_paths import Output, check_outputs, printable
    from ..codegen.writer import write_files
    from ..errors import UsageError
    from ..frontends.c import check_module_headers
    from ..frontends.c import read_headers
    from ..resolve import resolve
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
    modules = read_headers(args.headers, options)
    resolve(modules)  # every check a schema gets, before anything is printed

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

    if not args.output_dir:
        sys.stdout.write(texts[0])
        return 0
    # Like generate -o, a missing output folder is created.
    written = sum(write_files([(out.path, text) for out, text in zip(outputs, texts)]))
    unchanged = len(texts) - written
    print(
        f"{written} schema{'s' if written != 1 else ''} written, {unchanged} unchanged",
        file=sys.stderr,
    )
    return 0
