"""Schemas of SPEC §1b's member kinds for the GPU targets' tests: ``kinds_oracle``'s random
structs (scalars, vectors, matrices, arrays of them and of earlier structs, arrays of arrays)
as records under one rule set, each with a variant carrying up to three of its members as
arguments, and the types a target accepts (each alone with what it uses: a refusal is per
type, and names its reason)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Tuple

from . import kinds_oracle

#: The scalars GLSL and WGSL hold as members (the smaller ones live inside words).
WORD_SCALARS = ["int32", "uint32", "float32", "float64", "int64", "uint64", "bool"]


def spell(kind: tuple) -> str:
    """The schema spelling of a ``kinds_oracle`` kind (``vec3<float32>[2][4]``)."""
    dims = []
    while kind[0] == "array":
        dims.append(kind[2])
        kind = kind[1]
    if kind[0] == "scalar":
        base = kind[1]
    elif kind[0] == "vec":
        base = f"vec{kind[1]}<{kind[2]}>"
    elif kind[0] == "mat":
        base = f"mat{kind[1]}x{kind[2]}<{kind[3]}>"
    else:
        base = kind[1]
    return base + "".join(f"[{d}]" for d in dims)


def _uses(kind: tuple) -> List[str]:
    while kind[0] == "array":
        kind = kind[1]
    return [kind[1]] if kind[0] == "struct" else []


def kind_types(seed: int, count: int) -> Dict[str, Tuple[dict, List[str]]]:
    """name -> (the type's JSON, the types it uses): ``count`` records and their variants."""
    out: Dict[str, Tuple[dict, List[str]]] = {}
    for name, members in kinds_oracle.random_structs(seed, count, WORD_SCALARS, glsl=True):
        uses = [u for _, k in members for u in _uses(k)]
        out[name] = ({"record": name, "fields": [[f, spell(k)] for f, k in members]}, uses)
        out["V" + name] = ({"variant": "V" + name, "constructors": [
            ["A", [spell(k) for _, k in members][:3]], ["B", []]]}, uses)
    return out


def write(path: Path, rules: str, types: List[dict]) -> str:
    path.write_text(json.dumps({"module": "E", "rules": rules, "types": types}))
    return str(path)


def accepted(types: Dict[str, Tuple[dict, List[str]]], rules: str, target: str, folder: Path
             ) -> Tuple[List[str], Dict[str, str]]:
    """The types ``target`` emits under ``rules``, each tried with the types it uses, and
    why each other one is refused (``dependency``: a type it uses is)."""
    from sarek_layout.codegen import render_headers
    from sarek_layout.errors import SchemaError
    from sarek_layout.resolve import load_schema

    ok: List[str] = []
    refused: Dict[str, str] = {}
    for name, (_, uses) in types.items():
        needed: Dict[str, None] = {name: None}
        todo = list(uses)
        while todo:
            u = todo.pop()
            if u not in needed:
                needed[u] = None
                todo += types[u][1]
        if any(u in refused for u in needed if u != name):
            refused[name] = "dependency"
            continue
        order = [t for t in types if t in needed]
        path = write(folder / "one.json", rules, [types[t][0] for t in order])
        try:
            render_headers(load_schema([path]), [target])
        except SchemaError as e:
            refused[name] = str(e)
            continue
        ok.append(name)
    return ok, refused


def shape_types(rules: str) -> Dict[str, Tuple[dict, List[str]]]:
    """The kinds' conformance enumeration (``kinds_shapes``: every kind alone, before each
    follower, as constructor arguments; its enums and ``point``) under ``rules``, in the form
    ``accepted`` takes: name -> (the type's JSON, the types it names)."""
    import re

    from . import kinds_shapes

    doc = kinds_shapes.schema_document(rules)
    names = {t.get("record") or t.get("variant") or t.get("enum") for t in doc["types"]}

    def named(spelling: str) -> List[str]:
        base = re.sub(r"\[\d+\]", "", spelling)
        return [base] if base in names else []

    out: Dict[str, Tuple[dict, List[str]]] = {}
    for t in doc["types"]:
        spellings = ([s for _, s in t["fields"]] if "record" in t else
                     [s for _, args in t["constructors"] for s in args] if "variant" in t else [])
        out[t.get("record") or t.get("variant") or t["enum"]] = (
            t, [u for s in spellings for u in named(s)])
    return out
