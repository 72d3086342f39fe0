"""Which view each target's template is handed: the one place codegen maps a target to it.

A view function takes the schema, one of its modules and the function naming a module's file
for this target, and returns what the template prints as ``view``; the renderer adds ``filename``, ``guard``, ``includes`` and the target's
``dialect``. The registry (``targets.registry``) names a view by key, so it stays below
codegen.
"""

from __future__ import annotations

from typing import Any, Callable, Dict

from ..ir.schema import ModuleDecl, Schema
from .views import module_view

__all__ = ["VIEWS", "view_of"]


FileNamer = Callable[[ModuleDecl], str]


def _module_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    return module_view(schema, module)


def _python_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    # The python target's view lives with the host code it mirrors (host.python_target),
    # which never imports codegen; codegen names the files, so it hands the view each
    # module's file name.
    from ..host.python_target import python_view

    return python_view(schema, module, filename_of)


def _glsl_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    from .shader_views import glsl_view

    return glsl_view(schema, module)


def _wgsl_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    from .shader_views import wgsl_view

    return wgsl_view(schema, module)


def _hlsl_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    from .hlsl_view import hlsl_view

    return hlsl_view(schema, module)


def _metal_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    from .metal_view import metal_view

    return metal_view(schema, module)


def _zig_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    from .zig_view import zig_view

    return zig_view(schema, module, filename_of)


def _rust_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    from .rust_view import rust_view

    return rust_view(schema, module, filename_of)


def _typescript_view(schema: Schema, module: ModuleDecl, filename_of: FileNamer) -> Any:
    from .typescript_view import typescript_view

    return typescript_view(schema, module, filename_of)


VIEWS: Dict[str, Callable[[Schema, ModuleDecl, FileNamer], Any]] = {
    "module": _module_view,
    "python": _python_view,
    "glsl": _glsl_view,
    "wgsl": _wgsl_view,
    "metal": _metal_view,
    "hlsl": _hlsl_view,
    "zig": _zig_view,
    "rust": _rust_view,
    "typescript": _typescript_view,
}


def view_of(view: str) -> Callable[[Schema, ModuleDecl, FileNamer], Any]:
    """The view function a target's ``view`` key names."""
    return VIEWS[view]
