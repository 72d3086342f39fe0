"""The templates compiled ahead of time: Python modules in the package, used only while fresh.

Compiling the C, CUDA and OpenCL templates (Jinja's lexer, parser and code generator) took
about a quarter of a no-op ``generate`` (docs/benchmarks.md). Jinja's own caches of compiled
templates read code back from a file outside the package (its bytecode cache unpickles and
executes a file of the temp folder), which ``render`` refuses. Here the code Jinja generates
for each template is a module of the package itself (``codegen/precompiled/``), imported
like every other module (same trust as the package's own code, same ``__pycache__``).

A compiled module is used only when it is fresh: it records the SHA-256 of its template's
source, the Jinja version that compiled it and the environment's options that change the
code (``render.module_name``, ``source_digest``, ``environment_key``); ``render`` compares the three with the template it is about to load and, on any
difference (a template edited after the modules were written, another Jinja), compiles the
template from its source as before. So a stale module costs time, never a wrong output.

``python -m sarek_layout.codegen.precompile`` rewrites the modules (``make generate``);
``--check`` writes nothing and exits 1 when one is missing or stale (``make check-generated``).
"""

from __future__ import annotations

import os
import sys
from typing import Dict, List, Optional

from .render import PRECOMPILED_PACKAGE, environment_key, module_name, source_digest

__all__ = ["compiled_text", "stale", "FOLDER"]

#: Where the compiled modules live (the package ``render.PRECOMPILED_PACKAGE``).
FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "precompiled")

_FOOTER = "\n# Written by sarek_layout.codegen.precompile from templates/{name}: do not edit.\n"


def compiled_text(env, template: str) -> str:
    """The module for ``template``: Jinja's code (deferred initialisation, as Jinja's own
    ``compile_templates`` writes it), then what makes it checkable. The checks come last so
    that the code keeps the line numbers Jinja's ``debug_info`` maps template lines to."""
    source, filename, _ = env.loader.get_source(env, template)
    code = env.compile(source, template, filename, raw=True, defer_init=True)
    return (f"{code}\n\nSOURCE_SHA256 = {source_digest(source)!r}\n"
            f"ENVIRONMENT = {environment_key(env)!r}\n" + _FOOTER.format(name=template))


def _templates(env) -> List[str]:
    names = [n for n in env.loader.list_templates() if n.endswith(".j2")]
    seen: Dict[str, str] = {}
    for name in names:
        key = module_name(name)
        if key in seen:
            raise SystemExit(f"templates {seen[key]} and {name} would share the module {key}")
        seen[key] = name
    return names


def _expected(env) -> Dict[str, str]:
    """File name → text of every module the templates call for."""
    return {module_name(t) + ".py": compiled_text(env, t) for t in _templates(env)}


def _read(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def stale(env) -> List[str]:
    """The compiled modules that are missing, stale, or left over from a removed template."""
    expected = _expected(env)
    present = {n for n in os.listdir(FOLDER) if n.endswith(".py") and n != "__init__.py"}
    out = sorted(n for n, text in expected.items() if _read(os.path.join(FOLDER, n)) != text)
    return out + sorted(present - set(expected))


def main(argv: Optional[List[str]] = None) -> int:
    from .render import environment
    from .writer import write_files

    argv = sys.argv[1:] if argv is None else argv
    env = environment()
    if argv == ["--check"]:
        bad = stale(env)
        for name in bad:
            print(f"stale: {os.path.join(FOLDER, name)}", file=sys.stderr)
        if bad:
            print("the compiled templates are stale: run `make generate`", file=sys.stderr)
        return 1 if bad else 0
    if argv:
        print("usage: python -m sarek_layout.codegen.precompile [--check]", file=sys.stderr)
        return 2
    expected = _expected(env)
    written = write_files([(os.path.join(FOLDER, n), t) for n, t in sorted(expected.items())])
    for name in sorted(set(os.listdir(FOLDER)) - set(expected) - {"__init__.py", "__pycache__"}):
        if name.endswith(".py"):
            os.unlink(os.path.join(FOLDER, name))  # the module of a removed template
    print(f"{sum(written)} compiled templates written, {len(written) - sum(written)} unchanged",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
