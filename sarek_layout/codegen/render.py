"""The one Jinja environment of the header generator, and rendering a template with a view.

Templates live at the top of the repository (``templates/``) and ship in the wheel as the
package data of ``sarek_layout.templates``: an installed copy reads them from the package, a
source checkout from the repository. The environment is strict (an undefined name is an
error, never an empty string), trims block whitespace, and compiles each template once per
process: compiled templates are never kept in, or read back from, a file outside the package
(see ``environment``). The package's own compiled templates (``codegen/precompile``) are used
while they match their template's source, Jinja's version and these options.
"""

from __future__ import annotations

import functools
import hashlib
import pathlib
import re
from typing import Any, Iterator

__all__ = ["environment", "render", "render_pieces", "templates_location", "module_name", "source_digest",
           "environment_key", "PRECOMPILED_PACKAGE"]

#: The package of the templates compiled ahead of time (written by ``codegen.precompile``).
PRECOMPILED_PACKAGE = __name__.rsplit(".", 1)[0] + ".precompiled"

_REPO_TEMPLATES = pathlib.Path(__file__).resolve().parent.parent.parent / "templates"


def templates_location() -> str:
    """Where the templates are read from (for messages and tests)."""
    packaged = _packaged_templates()
    return str(packaged) if packaged is not None else str(_REPO_TEMPLATES)


def _packaged_templates():
    package = pathlib.Path(__file__).parent.parent
    if (package / "__init__.py").is_file():
        # A package on disk (a wheel, a checkout): the folder importlib.resources would name,
        # without importing it and zipfile at every start.
        folder = package / "templates"
        return folder if (folder / "c.h.j2").is_file() else None
    from importlib import resources  # a package in a zip file, say

    try:
        folder = resources.files("sarek_layout") / "templates"
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - broken install
        return None
    return folder if (folder / "c.h.j2").is_file() else None


@functools.lru_cache(maxsize=None)
def environment():
    """The shared ``jinja2.Environment`` (created on first use, then reused)."""
    import jinja2

    if _packaged_templates() is not None:
        loader: jinja2.BaseLoader = jinja2.PackageLoader("sarek_layout", "templates")
    else:
        loader = jinja2.FileSystemLoader(str(_REPO_TEMPLATES))
    return jinja2.Environment(
        loader=_precompiled_first(loader),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
        # No bytecode cache between runs: Jinja's reads back a pickle and executes marshalled
        # code from a file, so whoever can plant that file (a shared or restored TMPDIR, a CI
        # cache) runs code in every ``generate``. Compiling the C, CUDA and OpenCL templates
        # costs ~55 ms of CPU per start (2 ms when read back from that cache). The templates
        # compiled into the package itself are imported instead, while fresh (``_load``).
        bytecode_cache=None,
    )


def _precompiled_first(inner):
    """A loader that reads templates through ``inner`` and compiles each one, unless the
    package holds its compiled module and that module is fresh (``precompile``'s rules)."""
    import jinja2

    class PrecompiledFirst(jinja2.BaseLoader):
        def get_source(self, environment, template):
            return inner.get_source(environment, template)

        def list_templates(self):
            return inner.list_templates()

        def load(self, environment, name, globals=None):
            return _load(inner, environment, name, {} if globals is None else globals)

    return PrecompiledFirst()


def module_name(template: str) -> str:
    """``c.h.j2`` → ``t_c_h_j2``, ``_macros.j2`` → ``t__macros_j2``: a module name, one per
    template (the generator refuses two templates that would share one)."""
    return "t_" + re.sub(r"[^A-Za-z0-9]", "_", template)


def environment_key(env) -> str:
    """The options of ``env`` that change the code Jinja generates, and Jinja's version."""
    import jinja2

    options = (jinja2.__version__, env.block_start_string, env.block_end_string,
               env.variable_start_string, env.variable_end_string, env.comment_start_string,
               env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
               env.trim_blocks, env.lstrip_blocks, env.newline_sequence,
               env.keep_trailing_newline, env.optimized, env.is_async,
               repr(env.autoescape), sorted(env.extensions))
    return hashlib.sha256(repr(options).encode("utf-8")).hexdigest()


def source_digest(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def _load(inner, environment, name: str, globals: dict):
    import importlib
    import sys

    source, filename, uptodate = inner.get_source(environment, name)
    module_path = f"{PRECOMPILED_PACKAGE}.{module_name(name)}"
    try:
        module = importlib.import_module(module_path)
    except ImportError:
        module = None
    else:
        # Each load binds a module of its own to its environment (as Jinja's ModuleLoader).
        sys.modules.pop(module_path, None)
    if (module is not None
            and getattr(module, "SOURCE_SHA256", None) == source_digest(source)
            and getattr(module, "ENVIRONMENT", None) == environment_key(environment)):
        template = environment.template_class.from_module_dict(
            environment, module.__dict__, globals)
        template.filename = filename  # errors name the template, not the compiled module
        return template
    code = environment.compile(source, name, filename)
    return environment.template_class.from_code(environment, code, globals, uptodate)


def render(template_name: str, **context: Any) -> str:
    """Render ``template_name`` (compiled once, cached by the environment) with ``context``."""
    return environment().get_template(template_name).render(**context)


def render_pieces(template_name: str, **context: Any) -> Iterator[str]:
    """``render``'s text as the pieces it is printed in, one at a time (a caller may write
    them out, or join them a stretch at a time, without holding them all and the whole)."""
    return environment().get_template(template_name).generate(**context)
