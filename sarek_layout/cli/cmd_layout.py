"""``sarek-layout layout SCHEMA... [--json] [--type NAME]``: print the computed layout."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser(
        "layout",
        help="print the layout of every type (pahole-style, or JSON)",
        description="Read schema files and print the Sarek aligned layout of their types: "
        "each member's offset and size, padding holes, and each type's size and alignment.",
    )
    p.add_argument("schemas", nargs="+", metavar="SCHEMA", help="schema files: .json, .toml, Sarek OCaml sources (.ml) or C headers (.h)")
    p.add_argument("--json", action="store_true",
                   help="print the layout as JSON: every type with its size, alignment, fields "
                   "and scalar leaves (variants: tag and payload offsets, constructors)")
    p.add_argument("--no-leaves", dest="leaves", action="store_false",
                   help="with --json: leave out the flattened scalar leaves (records keep "
                   "their fields, constructors list their args); leaves multiply with nesting, "
                   "and a document of more than 1,000,000 is refused")
    p.add_argument("--type", metavar="NAME", help="only this type (name, Module.name or C name)")
    from .common import add_c_header_options, add_rules_option

    add_rules_option(p)
    add_c_header_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from ..report import schema_json, text_report
    from .common import load, select_types

    schema = load(args.schemas, args)
    types = select_types(schema, args.type)
    if args.json:
        import json

        json.dump(schema_json(types, leaves=args.leaves), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text_report(types))
    return 0
