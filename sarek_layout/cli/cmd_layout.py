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
    p.add_argument("--json", action="store_true", help="print the SPEC §5 JSON document")
    p.add_argument("--type", metavar="NAME", help="only this type (name, Module.name or C name)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from ..report import schema_json, text_report
    from .common import load, select_types

    schema = load(args.schemas)
    types = select_types(schema, args.type)
    if args.json:
        import json

        json.dump(schema_json(types), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text_report(types))
    return 0
