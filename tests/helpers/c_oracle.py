"""The layout oracle for the tests: the host C compiler, through cffi, on *natural* C structs.

Types are described independently of the package under test (plain tuples), written as the
C a programmer would write by hand (``struct`` of ``int32_t``/``int64_t``/``float``/``double``;
a variant as ``struct { int32_t tag; union { struct {...} Ctor; ... } data; }``), compiled in
one cffi build per batch, and measured with a probe array of ``sizeof``/``_Alignof``/
``offsetof`` values read back from the compiled module. Nothing here computes an offset.

Description format::

    ("record", name, [(field, type), ...])
    ("variant", name, [(ctor, [type, ...]), ...])

where ``type`` is a scalar name (int32, int64, float32, float64, bool, unit, float16, uint8)
or the name of another described record. A float16 is written as what C can hold of it on
every ABI, its binary16 bits in a ``uint16_t`` (C11 has no 2-byte float type).
"""

from __future__ import annotations

import importlib.util
import itertools
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

C_SCALAR = {
    "int32": "int32_t",
    "bool": "int32_t",
    "unit": "int32_t",
    "int64": "int64_t",
    "float32": "float",
    "float64": "double",
    "float16": "uint16_t",
    "uint8": "uint8_t",
    # The extension scalars (issue 22): what a C programmer writes for them.
    "int8": "int8_t",
    "int16": "int16_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
}

_counter = itertools.count()


@dataclass
class Measured:
    """What the compiler says about one type."""

    size: int
    align: int
    fields: Dict[str, int] = field(default_factory=dict)  # immediate field -> offset
    leaves: Dict[str, int] = field(default_factory=dict)  # dotted leaf path -> offset
    payload_offset: int = -1  # offset of `data`, -1 when every ctor is constant
    payload_sizes: Dict[str, int] = field(default_factory=dict)  # ctor -> sizeof arm


def _leaf_paths(name: str, by_name: Dict[str, tuple], prefix: str) -> List[str]:
    """Dotted paths of the scalar leaves below a member of type ``name``."""
    if name in C_SCALAR:
        return [prefix]
    _, _, fields = by_name[name]
    paths: List[str] = []
    for fname, ftype in fields:
        paths.extend(_leaf_paths(ftype, by_name, f"{prefix}.{fname}"))
    return paths


def _dependency_order(descs: Sequence[tuple]) -> List[tuple]:
    by_name = {d[1]: d for d in descs}
    done: set = set()
    out: List[tuple] = []

    def refs(d: tuple) -> List[str]:
        if d[0] == "record":
            return [t for _, t in d[2] if t not in C_SCALAR]
        return [t for _, args in d[2] for t in args if t not in C_SCALAR]

    for d in descs:
        stack = [(d, iter(refs(d)))]
        while stack:
            node, it = stack[-1]
            for r in it:
                if r not in done:
                    stack.append((by_name[r], iter(refs(by_name[r]))))
                    break
            else:
                stack.pop()
                if node[1] not in done:
                    done.add(node[1])
                    out.append(node)
    return out


def _c_type(t: str) -> str:
    return C_SCALAR.get(t, f"struct {t}")


def c_source(descs: Sequence[tuple]) -> Tuple[str, List[Tuple[str, str, str, str]]]:
    """Natural C definitions and the probes ``(type, what, path, C expression)``."""
    by_name = {d[1]: d for d in descs}
    lines = ["#include <stdint.h>", "#include <stddef.h>"]
    probes: List[Tuple[str, str, str, str]] = []
    for kind, name, members in _dependency_order(descs):
        if kind == "record":
            body = " ".join(f"{_c_type(t)} {f};" for f, t in members)
            lines.append(f"struct {name} {{ {body} }};")
        else:
            arms = [
                f"struct {{ {' '.join(f'{_c_type(t)} _{i};' for i, t in enumerate(args))} }} {c};"
                for c, args in members
                if args
            ]
            union = f" union {{ {' '.join(arms)} }} data;" if arms else ""
            lines.append(f"struct {name} {{ int32_t tag;{union} }};")
    for kind, name, members in descs:
        t = f"struct {name}"
        probes.append((name, "size", "", f"sizeof({t})"))
        probes.append((name, "align", "", f"_Alignof({t})"))
        if kind == "record":
            for f, ft in members:
                probes.append((name, "field", f, f"offsetof({t}, {f})"))
                probes.extend(
                    (name, "leaf", p, f"offsetof({t}, {p})") for p in _leaf_paths(ft, by_name, f)
                )
        elif any(args for _, args in members):
            probes.append((name, "payload_offset", "data", f"offsetof({t}, data)"))
            for c, args in members:
                if not args:
                    continue
                probes.append((name, "payload_size", c, f"sizeof((({t} *)0)->data.{c})"))
                for i, at in enumerate(args):
                    probes.extend(
                        (name, "leaf", p, f"offsetof({t}, data.{p})")
                        for p in _leaf_paths(at, by_name, f"{c}._{i}")
                    )
    return "\n".join(lines) + "\n", probes


def measure(descs: Sequence[tuple]) -> Dict[str, Measured]:
    """Compile ``descs`` as natural C structs in one cffi build and read every value back."""
    import cffi

    source, probes = c_source(descs)
    exprs = ",\n".join(f"  (long long)({p[3]})" for p in probes)
    source += f"const long long sarek_probe[] = {{\n{exprs}\n}};\n"
    module_name = f"_sarek_oracle_{next(_counter)}"
    ffi = cffi.FFI()
    ffi.cdef(f"extern const long long sarek_probe[{len(probes)}];")
    ffi.set_source(module_name, source, extra_compile_args=["-O0", "-std=c11"])
    with tempfile.TemporaryDirectory(prefix="sarek-oracle-") as tmp:
        library = ffi.compile(tmpdir=tmp, verbose=False)
        spec = importlib.util.spec_from_file_location(module_name, library)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        values = list(module.ffi.unpack(module.lib.sarek_probe, len(probes)))

    results: Dict[str, Measured] = {}
    for (name, what, path, _), value in zip(probes, values):
        m = results.setdefault(name, Measured(0, 0))
        if what == "size":
            m.size = value
        elif what == "align":
            m.align = value
        elif what == "field":
            m.fields[path] = value
        elif what == "leaf":
            m.leaves[path] = value
        elif what == "payload_offset":
            m.payload_offset = value
        elif what == "payload_size":
            m.payload_sizes[path] = value
    return results
