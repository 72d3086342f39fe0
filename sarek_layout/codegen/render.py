"""The one Jinja environment of the header generator, and rendering a template with a view.

Templates live at the top of the repository (``templates/``) and ship in the wheel as the
package data of ``sarek_layout.templates``: an installed copy reads them from the package, a
source checkout from the repository. The environment is strict (an undefined name is an
error, never an empty string), trims block whitespace, and compiles each template once per
process from its source: a compiled template is never kept in, or read back from, a file
(see ``environment``).
"""

from __future__ import annotations

import functools
import pathlib
from typing import Any, Iterator

__all__ = ["environment", "render", "render_pieces", "templates_location"]

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
        loader=loader,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
        # No bytecode cache between runs: Jinja's reads back a pickle and executes marshalled
        # code from a file, so whoever can plant that file (a shared or restored TMPDIR, a CI
        # cache) runs code in every ``generate``. Compiling the templates a no-op ``generate``
        # of the C, CUDA and OpenCL headers needs is part of its measured cost
        # (docs/benchmarks.md, issue 31).
        bytecode_cache=None,
    )


def render(template_name: str, **context: Any) -> str:
    """Render ``template_name`` (compiled once, cached by the environment) with ``context``."""
    return environment().get_template(template_name).render(**context)


def render_pieces(template_name: str, **context: Any) -> Iterator[str]:
    """``render``'s text as the pieces it is printed in, one at a time (a caller may write
    them out, or join them a stretch at a time, without holding them all and the whole)."""
    return environment().get_template(template_name).generate(**context)
