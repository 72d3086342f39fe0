"""Codegen stage: the generated files of a laid-out schema, one per schema file and target.

``render_headers(schema, targets)`` returns one ``GeneratedFile`` per schema file and target,
named ``header_filename(module, target)`` after the schema file's stem and the target's suffix
(``targets.registry``): ``.h`` (c: C11 and C++11), ``.cuh`` (cuda: nvcc and NVRTC), ``.clh``
(opencl), ``_layout.py`` (python), ``.glsl`` (glsl: Vulkan), ``.wgsl`` (wgsl: WebGPU),
``_metal.h`` (metal), ``.hlsl`` (hlsl), ``.zig`` (zig), ``.rs`` (rust) and ``.ts``
(typescript); without targets, c, cuda and opencl.
Views (``views`` for the C family, ``shader_views`` for GLSL and WGSL, ``metal_view``,
``zig_view``, ``rust_view``, ``typescript_view``, and ``host.python_target`` for Python;
``target_views`` maps a target to its view) turn layouts into names and numbers, the
templates in ``templates/`` spell them per target, and ``writer`` puts files on disk only
when they change. Nothing here parses a schema or computes an offset.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Tuple

from ..errors import SchemaError, UsageError, quoted
from ..ir.schema import ModuleDecl, Schema, SourceLocation
from ..targets.names import check_names
from ..targets.registry import DEFAULT_TARGETS, TARGETS, Target
from .target_views import view_of
from .views import module_dependencies

__all__ = [
    "GeneratedFile",
    "Target",
    "TARGETS",
    "DEFAULT_TARGETS",
    "render_headers",
    "header_filename",
    "include_guard",
]


@dataclass(frozen=True)
class GeneratedFile:
    """One generated header: its name relative to the output folder, and what it came from."""

    filename: str
    module: ModuleDecl
    target: str
    #: The text in consecutive stretches (``CHUNK`` characters or a little more each): the
    #: writer compares and writes them one by one, so the whole text of a large header is
    #: never built beside its pieces.
    chunks: Tuple[str, ...]
    #: The schema files this output depends on: its own, then those it includes (transitively).
    sources: Tuple[str, ...]

    @property
    def text(self) -> str:
        """The whole text (joined at each use)."""
        return "".join(self.chunks)


#: About how many characters of a rendered text are joined into one chunk.
CHUNK = 1 << 20


def _chunked(pieces: Iterable[str]) -> Tuple[str, ...]:
    """``pieces`` joined a stretch of about ``CHUNK`` characters at a time: the pieces of a
    stretch are let go as soon as it is joined, so the text is held about once."""
    chunks: List[str] = []
    stretch: List[str] = []
    size = 0
    for piece in pieces:
        stretch.append(piece)
        size += len(piece)
        if size >= CHUNK:
            chunks.append("".join(stretch))
            stretch.clear()
            size = 0
    if stretch or not chunks:
        chunks.append("".join(stretch))
    return tuple(chunks)


def _stem(module: ModuleDecl) -> str:
    return os.path.splitext(os.path.basename(module.path))[0]


def _target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise UsageError(f"unknown target {name!r}; known targets: {', '.join(TARGETS)}") from None


def header_filename(module: ModuleDecl, target: str) -> str:
    """``<schema file stem><suffix>``: ``geometry.toml`` → ``geometry.h``/``.cuh``/``.clh``."""
    return _stem(module) + _target(target).suffix


def include_guard(filename: str, module_name: str) -> str:
    """``geometry.h`` of module ``Geometry`` → ``SAREK_LAYOUT_GEOMETRY_H_<8 hex digits>``.

    The readable part alone is ambiguous (``a-b.h`` and ``a_b.h``, ``Geo.h`` and ``geo.h``,
    or one file name in two folders with different modules would share a guard, and the
    second header included in a translation unit would silently vanish), so a hash of the
    exact file name and module name follows it. The folder plays no part: the guard, like
    the rest of the header, does not depend on where it is generated.
    """
    digest = hashlib.sha256(f"{filename}\0{module_name}".encode("utf-8", "surrogateescape"))
    readable = re.sub(r"[^A-Za-z0-9]", "_", filename).upper()
    return f"SAREK_LAYOUT_{readable}_{digest.hexdigest()[:8].upper()}"


#: What a schema file's stem may hold: it names the generated files and is printed inside them
#: (banner comments, ``#include "…"`` lines, Python docstrings), so nothing that could close a
#: comment or a string, no spaces, no control or non-ASCII characters, no leading '-' or '.'.
_SAFE_STEM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")


def _check_stems(schema: Schema) -> None:
    """Stems must be plain file names, and two schema files must not produce the same header
    names (case-insensitively)."""
    seen: Dict[str, ModuleDecl] = {}
    for module in schema.modules:
        if not _SAFE_STEM.match(_stem(module)):
            raise SchemaError(
                f"the schema file name {quoted(os.path.basename(module.path))} cannot name the "
                f"generated files, which are named after it: rename the file using letters, "
                f"digits, '_', '-' and '.' (not first)",
                SourceLocation(module.path),
            )
        key = re.sub(r"[^A-Za-z0-9]", "_", _stem(module)).upper()
        if key in seen:
            raise SchemaError(
                f"schema files {seen[key].path} and {module.path} would both generate "
                f"{_stem(module)}.h (headers are named after the file); rename one of them",
                module.location,
            )
        seen[key] = module


def _dependencies(schema: Schema) -> Dict[int, Tuple[ModuleDecl, ...]]:
    """Each module's direct module dependencies; refuses modules that use each other."""
    deps = {id(m): module_dependencies(schema, m) for m in schema.modules}
    state: Dict[int, int] = {}
    for root in schema.modules:
        if id(root) in state:
            continue
        state[id(root)] = 1
        stack = [(root, iter(deps[id(root)]))]
        while stack:
            module, it = stack[-1]
            for dep in it:
                if state.get(id(dep)) == 1:
                    names = [m.name or m.path for m, _ in stack]
                    cycle = names[names.index(dep.name or dep.path):] + [dep.name or dep.path]
                    raise SchemaError(
                        f"schemas use each other's types ({' -> '.join(cycle)}), so their "
                        f"headers would include each other; move the shared types into one schema",
                        dep.location,
                    )
                if id(dep) not in state:
                    state[id(dep)] = 1
                    stack.append((dep, iter(deps[id(dep)])))
                    break
            else:
                stack.pop()
                state[id(module)] = 2
    return deps


def _sources(module: ModuleDecl, deps: Dict[int, Tuple[ModuleDecl, ...]]) -> Tuple[str, ...]:
    """``module``'s path, then the paths of every module it reaches, in schema order."""
    # Only the modules reached are visited (never every module of the schema for every
    # module: with thousands of independent schema files that scan was quadratic).
    reached = {id(module)}
    todo = [module]
    others: List[str] = []
    while todo:
        for dep in deps[id(todo.pop())]:
            if id(dep) not in reached:
                reached.add(id(dep))
                todo.append(dep)
                others.append(dep.path)
    # Sorted: the depfile must not change with the command-line order of the schema files.
    return (module.path,) + tuple(sorted(others))


def render_headers(schema: Schema, targets: Iterable[str] = DEFAULT_TARGETS) -> List[GeneratedFile]:
    """Every header of ``schema`` for ``targets``: schema files in order, targets within each.

    Raises ``UsageError`` for an unknown target and ``SchemaError`` for schema files whose
    headers would clash or include each other, and for names a chosen target cannot emit
    (``targets.names.check_names``: a refusal names the target).
    """
    from .render import render_pieces  # Jinja, imported only when something is rendered

    chosen = [_target(t) for t in dict.fromkeys(targets)]
    _check_stems(schema)
    deps = _dependencies(schema)
    check_names(schema, [t.name for t in chosen])
    out: List[GeneratedFile] = []
    # The last of the chosen targets that reads each kind of view: that one holds it alone,
    # so it goes once rendered.
    last_use = {target.view: i for i, target in enumerate(chosen)}
    for module in schema.modules:
        sources = _sources(module, deps)
        views: Dict[object, object] = {}
        for i, target in enumerate(chosen):
            view = views.get(target.view)
            if view is None:
                view = view_of(target.view)(
                    schema, module, lambda m, t=target.name: header_filename(m, t))
                if last_use[target.view] != i:
                    # Read by several targets: its type views are built once, and kept.
                    held = getattr(view, "held", None)
                    view = views[target.view] = held() if held is not None else view
            elif last_use[target.view] == i:
                del views[target.view]
            filename = header_filename(module, target.name)
            chunks = _chunked(render_pieces(
                target.template,
                view=view,
                filename=filename,
                guard=include_guard(filename, module.name),
                includes=[header_filename(d, target.name) for d in deps[id(module)]],
                dialect=target.dialect,
            ))
            del view
            out.append(GeneratedFile(filename, module, target.name, chunks, sources))
    return out
