"""Helpers for the verify tests: schemas from shape descriptions, data paths, the CLI.

Descriptions are ``tests/shapes.py``'s plain tuples; ``schema_of`` writes them as a JSON
schema and loads it through the real front end, so the layout comes from the layout core.
"""

from __future__ import annotations

import json
import pathlib
from typing import Iterable, List, Sequence

from sarek_layout.frontends import load_schema
from sarek_layout.ir.schema import Schema

DATA = pathlib.Path(__file__).resolve().parent / "data" / "verify"
EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"

#: Every toolchain verify knows, in registry order.
ALL_TOOLCHAINS = ["gcc", "g++", "clang", "gcc-m32", "aarch64", "armhf", "ppc64", "s390x",
                  "cffi", "nvcc", "nvrtc", "clang-opencl", "pocl"]

#: Fast enough for the whole conformance enumeration (about 30 s each for 573,772 values).
FULL_CONFORMANCE = ["gcc", "g++", "clang", "gcc-m32", "cffi"]


def schema_json(descs: Iterable[tuple], module: str = "Conf") -> dict:
    types: List[dict] = []
    for kind, name, members in descs:
        if kind == "record":
            types.append({"record": name, "fields": [[f, t] for f, t in members]})
        else:
            types.append({"variant": name, "constructors": [[c, list(a)] for c, a in members]})
    return {"module": module, "types": types}


def schema_of(descs: Iterable[tuple], folder: pathlib.Path, stem: str = "conf",
              module: str = "Conf") -> Schema:
    """Write ``descs`` as ``folder/<stem>.json`` and load it as a resolved schema."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(schema_json(descs, module)))
    return load_schema([str(path)])


def every_nth(items: Sequence, n: int) -> list:
    """A deterministic subset: items 0, n, 2n, …"""
    return list(items[::n])
