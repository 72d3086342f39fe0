"""``verify --shader FILE… [--type NAME]… [-I DIR]…``: the hand-written shaders' structs
against the schema (``verify.shaders``), printed as one line per struct checked, one per
difference and one per struct skipped."""

from __future__ import annotations

import argparse
import sys


def run_shaders(schema, args: argparse.Namespace) -> int:
    from ..verify.shaders import verify_shaders
    from .common import select_types

    types = None
    if args.types:
        chosen = {}
        for name in args.types:
            for t in select_types(schema, name):
                chosen[t.c_name] = t
        types = list(chosen.values())
    report = verify_shaders(schema, args.shader, getattr(args, "include_dirs", ()), types)
    sys.stdout.write(report.format())
    return report.exit_status
