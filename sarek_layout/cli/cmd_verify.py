"""``sarek-layout verify SCHEMA... [--toolchain NAME]... [--header FILE]... [--object FILE]...
[--shader FILE]... [-j N]``: compile the headers with real compilers (or read a build's objects, or
lay out a hand-written shader's structs) and compare every size, alignment and offset with the
layout."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser(
        "verify",
        help="prove that real compilers agree with the layout (generated or given headers)",
        description="Compile the schema's headers with every installed toolchain (or the ones "
        "named with --toolchain), one compiler invocation per toolchain, and compare every "
        "size, alignment and member offset with the layout. Exit 0 when all agree, 1 on any "
        "difference, 2 on bad input or when a toolchain named with --toolchain is missing. "
        "A header's code is compiled, never run (PoCL runs one generated kernel that copies "
        "the probe values); each compiler run is stopped after $SAREK_VERIFY_TIMEOUT seconds "
        "(600) and limited to $SAREK_VERIFY_MEMORY_MB of memory (16384). With --shader, the "
        "structs of hand-written GLSL, WGSL and Metal shaders are laid out by their own "
        "compilers and compared member by member (their #include files are read only from "
        "the other shaders given and the -I folders). See docs/verify.md.",
    )
    p.add_argument("schemas", nargs="*", metavar="SCHEMA", help="schema files")
    p.add_argument("--toolchain", action="append", metavar="NAME", default=[],
                   help="only this toolchain (repeatable); `--toolchain list` lists them all "
                   "with whether each is installed")
    p.add_argument("--header", action="append", metavar="FILE", default=[],
                   help="verify this header (hand-written or committed) instead of generating "
                   "one: .h (C/C++), .cuh (CUDA), .clh (OpenCL); repeatable. A regular file "
                   "whose name has no quote, backslash or control character. Its includes "
                   "are found in the -I folders, then its own folder; -D macros are defined "
                   "for the structure check and every compiler")
    p.add_argument("--object", action="append", metavar="FILE", default=[],
                   help="compare the structs recorded in the DWARF of this object, static "
                   "library, shared library or executable (ELF, built with -g) instead of "
                   "compiling headers (also compile with --toolchain/--header); repeatable")
    p.add_argument("--shader", action="append", metavar="FILE", default=[],
                   help="check the structs of this hand-written shader against the schema "
                   "types of the same C name, laid out by its real compiler: GLSL (.comp, "
                   ".glsl, .vert, .frag…) by glslang, WGSL (.wgsl, files concatenated in the "
                   "order given) by naga and a probe run on wgpu, Metal (.metal) by the "
                   "clang++ proxy; its #include files must be shaders given or lie in an -I "
                   "folder; repeatable (docs/verify.md)")
    p.add_argument("-j", "--jobs", metavar="N", default=None,
                   help="run up to N toolchains at once (default: the cores this process may "
                   "use; 1: one after another); the report is the same, in the same order, "
                   "and each compiler run keeps its own time and memory limits")
    p.add_argument("--type", action="append", metavar="NAME", default=[], dest="types",
                   help="with --shader: only the structs of this schema type (name, "
                   "Module.name or C name; repeatable)")
    from .common import add_c_header_options

    add_c_header_options(p)
    p.set_defaults(run=run)


def list_toolchains() -> str:
    from ..verify.toolchains import TOOLCHAINS

    lines = []
    for tc in TOOLCHAINS.values():
        reason = tc.unavailable_reason
        state = "installed" if reason is None else "missing"
        lines.append(f"{tc.name:<12}  {tc.target:<6}  {state:<9}  {tc.description}")
        if reason is not None:
            lines.append(f"{'':<12}  {'':<6}  {'':<9}  install: {tc.install_hint}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    import sys

    from ..errors import UsageError
    from ..verify.compare import detail_lines, structure_lines, summary_line, table_header, table_row
    from ..verify.run import verify_schema
    from .common import load

    jobs = None
    if args.jobs is not None:
        from ..verify.schedule import check_workers

        jobs = check_workers(args.jobs)  # before anything runs: a bad -j is one line, exit 2
    if "list" in args.toolchain:
        sys.stdout.write(list_toolchains())
        return 0
    if not args.schemas:
        raise UsageError("verify needs at least one SCHEMA file")
    schema = load(args.schemas, args)
    if args.types and not args.shader:
        raise UsageError("--type narrows --shader; give a --shader FILE")
    shader_status = None
    if args.shader:
        from .verify_shaders import run_shaders

        shader_status = run_shaders(schema, args)
        if not args.toolchain and not args.header and not args.object:
            return shader_status
        print()
    objects_status = None
    if args.object:
        from ..verify.objects import verify_objects

        objects = verify_objects(schema, args.object)
        sys.stdout.write(objects.format())
        if not args.toolchain and not args.header:
            return max(objects.exit_status, shader_status or 0)
        objects_status = objects.exit_status
        print()
    printed_header = []

    def on_structure(problems) -> None:
        # The header's own mistakes first: they are what to fix, and the numbers the
        # compilers then disagree on mostly follow from them.
        if problems:
            print("\n".join(structure_lines(problems, heading=False) + [""]), flush=True)

    def on_result(result) -> None:
        if not printed_header:
            print(table_header())
            printed_header.append(True)
        print(table_row(result), flush=True)

    report = verify_schema(schema, toolchains=args.toolchain or None,
                           headers=args.header or None, on_result=on_result,
                           include_dirs=args.include_dirs, defines=args.defines,
                           on_structure=on_structure, jobs=jobs)
    lines = detail_lines(report.results)
    lines += ["", summary_line(report.results, report.structure, report.types)]
    print("\n".join(lines))
    if not any(r.status != "skipped" for r in report.results) and not report.structure:
        print("sarek-layout: error: no toolchain to verify with is installed "
              "(`sarek-layout verify --toolchain list` says what to install)", file=sys.stderr)
        return 2
    return max(report.exit_status, objects_status or 0, shader_status or 0)
