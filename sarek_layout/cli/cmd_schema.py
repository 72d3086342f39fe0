"""``sarek-layout schema --json-schema``: print the JSON Schema of schema files.

The JSON Schema (``sarek_layout/sarek-layout.schema.json``, shipped in the package) describes
what the JSON/TOML reader accepts, so that editors can check a schema file as it is typed.
It checks structure and the form of names; the reader alone judges meaning (unknown and
recursive types, reserved and colliding names, the layout rules): a file the JSON Schema
accepts may still be refused, never the other way round (tests/frontends/test_json_schema.py).
"""

from __future__ import annotations

import argparse

#: File name of the JSON Schema, in the package folder.
JSON_SCHEMA_FILE = "sarek-layout.schema.json"


def add_parser(sub) -> None:
    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of schema files (for editors)",
        description="Print the JSON Schema (draft-07) that JSON and TOML schema files follow, so "
        "that an editor can check them as they are typed. It checks the structure and the form "
        "of names; sarek-layout also refuses what a JSON Schema cannot express (unknown or "
        "recursive types, duplicate or reserved names, the layout rules).",
    )
    p.add_argument("--json-schema", action="store_true",
                   help="print the JSON Schema on stdout (required: `schema` alone prints "
                   "this help and exits 2, as for any usage error)")
    p.set_defaults(run=run)


def json_schema_path() -> str:
    """Where the shipped JSON Schema lies."""
    import os

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), JSON_SCHEMA_FILE)


def run(args: argparse.Namespace) -> int:
    import sys

    if not args.json_schema:
        # Its only option is missing: the whole help says more than argparse's one-line
        # "required" error. A usage error all the same (SPEC §5: exit 2, on stderr).
        from ..errors import UsageError

        sys.stderr.write(args._subparser.format_help() + "\n")
        raise UsageError("schema needs --json-schema")
    with open(json_schema_path(), encoding="utf-8") as f:
        sys.stdout.write(f.read())
    return 0
