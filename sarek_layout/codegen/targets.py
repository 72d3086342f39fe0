"""The registry of header targets: file suffix, entry template, dialect and view of each.

Adding a target is one entry here, its template and (for a C-family language) its dialect in
``dialects`` (docs/extending.md). A view function takes the schema and one of its modules and
returns what the template prints as ``view``; the renderer adds ``filename``, ``guard``,
``includes`` and the target's ``dialect`` for every target.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

from ..ir.schema import ModuleDecl, Schema
from .dialects import C, CUDA, OPENCL, Dialect
from .views import module_view


__all__ = ["Target", "TARGETS", "DEFAULT_TARGETS"]


def _python_view(schema: Schema, module: ModuleDecl) -> Any:
    # The lazy hook into the host stage: the python target's view lives with the host code
    # it mirrors (host.python_target), which never imports codegen; this registry names the
    # files, so it hands the view each module's file name.
    from ..host.python_target import python_view
    from . import header_filename

    return python_view(schema, module, lambda m: header_filename(m, "python"))


@dataclass(frozen=True)
class Target:
    name: str
    #: Appended to the schema file's stem: ``geometry`` + ``.h``.
    suffix: str
    template: str
    description: str
    view: Callable[[Schema, ModuleDecl], Any] = module_view
    #: The spellings the shared C-family macros use (``None`` for other languages).
    dialect: Optional[Dialect] = None


TARGETS: Dict[str, Target] = {
    t.name: t
    for t in (
        Target("c", ".h", "c.h.j2", "one header for C11 and C++11", dialect=C),
        Target("cuda", ".cuh", "cuda.cuh.j2", "CUDA C++ for nvcc and NVRTC", dialect=CUDA),
        Target("opencl", ".clh", "opencl.clh.j2", "OpenCL C 1.2 and later", dialect=OPENCL),
        Target("python", "_layout.py", "python.py.j2",
               "standalone Python module: dataclasses and struct codecs", _python_view),
    )
}



# --- GPU API targets (issue #14, docs/gpu-apis.md) -------------------------------------------


def _glsl_view(schema: Schema, module: ModuleDecl) -> Any:
    from .shader_views import glsl_view

    return glsl_view(schema, module)


def _wgsl_view(schema: Schema, module: ModuleDecl) -> Any:
    from .shader_views import wgsl_view

    return wgsl_view(schema, module)


def _metal_view(schema: Schema, module: ModuleDecl) -> Any:
    from .shader_views import metal_view

    return metal_view(schema, module)


def _gpu_targets() -> None:
    from .dialects import GLSL, METAL, WGSL

    for t in (
        Target("glsl", ".glsl", "glsl.glsl.j2",
               "GLSL 4.50 structs for Vulkan std430 buffers, with payload accessors",
               _glsl_view, GLSL),  # type: ignore[arg-type]
        Target("wgsl", ".wgsl", "wgsl.wgsl.j2",
               "WGSL structs for WebGPU storage buffers, with payload accessors",
               _wgsl_view, WGSL),  # type: ignore[arg-type]
        Target("metal", "_metal.h", "metal.h.j2", "Metal Shading Language header",
               _metal_view, METAL),
    ):
        TARGETS[t.name] = t


_gpu_targets()

#: What ``generate`` writes when no ``-t`` is given.
DEFAULT_TARGETS: Tuple[str, ...] = ("c", "cuda", "opencl")
