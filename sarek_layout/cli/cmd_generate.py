"""``sarek-layout generate SCHEMA... -o DIR [-t TARGET]... [--check] [--diff] [--depfile FILE]``.

Writes one header per schema file and target (``<stem>.h``, ``.cuh``, ``.clh``), each only
when its content changes. ``--check`` and ``--diff`` write nothing: ``--check`` exits 1 when
an output is missing or stale, ``--diff`` prints what would change as a unified diff.
"""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    # The registry is plain data (no jinja2): cheap enough to list the targets in --help.
    from ..codegen.targets import DEFAULT_TARGETS, TARGETS

    p = sub.add_parser(
        "generate",
        help="write C/C++, CUDA and OpenCL headers for the schemas",
        description="Write one header per schema file and target into DIR: <stem>.h (C11 and "
        "C++11), <stem>.cuh (CUDA: nvcc and NVRTC), <stem>.clh (OpenCL C 1.2+); on request "
        "<stem>_layout.py (python), <stem>.glsl (Vulkan), <stem>.wgsl (WebGPU), "
        "<stem>_metal.h (Metal). Files are "
        "written only when their content changes, atomically.",
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
        help="write nothing; print a unified diff of what would change on stdout",
    )
    p.add_argument(
        "--depfile",
        metavar="FILE",
        help="also write a Make dependency file: each output depends on its schema files",
    )
    p.set_defaults(run=run)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def run(args: argparse.Namespace) -> int:
    import sys

    from ..codegen import DEFAULT_TARGETS, render_headers
    from ..codegen.writer import depfile_text, plan, unified_diff, write_if_changed
    from ..errors import UsageError
    from .common import load

    schema = load(args.schemas)
    files = render_headers(schema, args.targets or DEFAULT_TARGETS)
    try:
        planned = plan(files, args.output)
    except OSError as e:
        raise UsageError(f"cannot read {e.filename or args.output}: {e.strerror or e}") from None
    # "headers" for C/CUDA/OpenCL output; a Python module is not a header.
    word = "header" if all(f.target in ("c", "cuda", "opencl") for f in files) else "file"
    stale = [p for p in planned if p.stale]
    unchanged = len(planned) - len(stale)

    if args.diff:
        for p in stale:
            sys.stdout.write(unified_diff(p))
    if args.check or args.diff:
        for p in stale:
            why = "missing" if p.status == "new" else "stale"
            print(f"would write {p.path} ({why})", file=sys.stderr)
        print(
            f"{_count(len(stale), word)} would be written, {unchanged} unchanged",
            file=sys.stderr,
        )
        return 1 if (args.check and stale) else 0

    # Built before anything is written: a path Make cannot express fails the whole run.
    depfile = depfile_text(planned) if args.depfile else None
    try:
        # Unchanged files were just read and compared by plan(): do not read them again.
        # A stale one is compared once more as it is written (another process may have
        # written the same content meanwhile, as under make -j).
        written = sum(write_if_changed(p.path, p.text) for p in stale)
        if depfile is not None:
            write_if_changed(args.depfile, depfile)
    except OSError as e:
        raise UsageError(f"cannot write {e.filename or args.output}: {e.strerror or e}") from None
    print(f"{_count(written, word)} written, {len(planned) - written} unchanged", file=sys.stderr)
    return 0
