"""The registry of header targets: file suffix, entry template and view function of each.

Adding a target (a Python module of ``ctypes`` structures, say) is one entry here plus its
template: ``Target("python", "_layout.py", "python.py.j2", "…", python_view)``. A view
function takes the schema and one of its modules and returns what the template prints as
``view``; the renderer adds ``filename``, ``guard`` and ``includes`` for every target.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Tuple

from ..ir.schema import ModuleDecl, Schema
from .views import module_view


__all__ = ["Target", "TARGETS", "DEFAULT_TARGETS"]


def _python_view(schema: Schema, module: ModuleDecl) -> Any:
    # Imported on use: the python target's view lives with the host code it mirrors.
    from ..host.python_target import python_view

    return python_view(schema, module)


@dataclass(frozen=True)
class Target:
    name: str
    #: Appended to the schema file's stem: ``geometry`` + ``.h``.
    suffix: str
    template: str
    description: str
    view: Callable[[Schema, ModuleDecl], Any] = module_view


TARGETS: Dict[str, Target] = {
    t.name: t
    for t in (
        Target("c", ".h", "c.h.j2", "one header for C11 and C++11"),
        Target("cuda", ".cuh", "cuda.cuh.j2", "CUDA C++ for nvcc and NVRTC"),
        Target("opencl", ".clh", "opencl.clh.j2", "OpenCL C 1.2 and later"),
        Target("python", "_layout.py", "python.py.j2",
               "standalone Python module: dataclasses and struct codecs", _python_view),
    )
}

#: What ``generate`` writes when no ``-t`` is given.
DEFAULT_TARGETS: Tuple[str, ...] = ("c", "cuda", "opencl")
