"""The conformance enumeration of SPEC §1b's member kinds: a deterministic sample of fixed
arrays, vectors, matrices and enums in records and variants, under the ``c``, ``std430``,
``std140`` and ``cuda`` rules.

Sarek's own enumeration (``shapes.py``) is exhaustive over five scalars; the kinds have too
many combinations for that, so this one takes every member kind in ``MEMBERS`` once in each
position that changes a layout: alone, before each of ``FOLLOWERS`` (a 1-byte scalar that may
start in the tail of a std430 ``vec3``, a float, an 8-aligned scalar, a ``vec3``), and as a
constructor's argument alone and after a 1-byte one (the payload offset is its alignment).
Per rule set: 28 members, 28 + 28 * 4 = 140 records and 28 variants (168 types; 672 in all).

Members are described as ``kinds_oracle`` kinds (``("vec", 3, "float32")``…), so that the
same sample can be measured by the natural-C and GLSL oracles, plus ``("enum", name)`` for
the enums (``ENUMS``: their bases are what the oracles see). ``schema_files`` writes the
sample as one JSON schema per rule set (module ``K_<rules>``, ``module_of``).
"""

from __future__ import annotations

import json
import pathlib
from typing import Dict, List, Sequence, Tuple

from helpers.kinds_oracle import Kind, Struct

RULES = ("c", "std430", "std140", "cuda")

#: The enums every rule set's module declares: (name, base, values). The values reach each
#: base's edges (an int32's most negative value, an int64 past 32 bits).
ENUMS = (
    ("tint", "uint8", (("Red", 0), ("Green", 1), ("Blue", 255))),
    ("mode", "int32", (("Low", -2147483648), ("Mid", 0), ("High", 2147483647))),
    ("wide", "int64", (("Small", -1), ("Huge", 1 << 40))),
)

#: A record every module declares, used as an array element: 16 bytes, 8-aligned.
POINT: Struct = ("point", [("x", ("scalar", "float64")), ("y", ("scalar", "uint8"))])

MEMBERS: Tuple[Kind, ...] = (
    ("scalar", "uint8"),
    ("scalar", "float64"),
    ("vec", 2, "float32"),
    ("vec", 3, "float32"),
    ("vec", 4, "float32"),
    ("vec", 2, "float64"),
    ("vec", 3, "int16"),
    ("vec", 4, "uint8"),
    ("vec", 2, "int8"),
    ("vec", 4, "float64"),
    ("mat", 2, 2, "float32"),
    ("mat", 3, 3, "float32"),
    ("mat", 4, 4, "float32"),
    ("mat", 2, 3, "float32"),
    ("mat", 3, 2, "float64"),
    ("array", ("scalar", "float32"), 3),
    ("array", ("scalar", "float64"), 2),
    ("array", ("scalar", "uint8"), 5),
    ("array", ("array", ("scalar", "int32"), 3), 2),
    ("array", ("vec", 3, "float32"), 2),
    ("array", ("vec", 2, "float32"), 3),
    ("array", ("mat", 3, 3, "float32"), 2),
    ("array", ("struct", "point"), 3),
    ("enum", "tint"),
    ("enum", "mode"),
    ("enum", "wide"),
    ("array", ("enum", "tint"), 3),
    ("array", ("array", ("vec", 3, "float32"), 2), 2),
)

#: What follows each member in the two-field records.
FOLLOWERS: Tuple[Kind, ...] = (("scalar", "uint8"), ("scalar", "float32"),
                               ("scalar", "float64"), ("vec", 3, "float32"))

_BASE = {name: base for name, base, _ in ENUMS}


def spelling(kind: Kind) -> str:
    """The schema's type expression of ``kind`` (``vec3<float32>[2]``, ``mat3x2<float64>``)."""
    dims: List[int] = []
    while kind[0] == "array":
        dims.append(kind[2])
        kind = kind[1]
    if kind[0] == "scalar":
        base = kind[1]
    elif kind[0] == "vec":
        base = f"vec{kind[1]}<{kind[2]}>"
    elif kind[0] == "mat":
        base = f"mat{kind[1]}x{kind[2]}<{kind[3]}>"
    else:  # struct, enum
        base = kind[1]
    return base + "".join(f"[{n}]" for n in dims)


def for_oracle(kind: Kind) -> Kind:
    """``kind`` as the oracles see it: an enum is its base scalar."""
    if kind[0] == "array":
        return ("array", for_oracle(kind[1]), kind[2])
    if kind[0] == "enum":
        return ("scalar", _BASE[kind[1]])
    return kind


def records() -> List[Struct]:
    """Every member alone (``a<i>``), and before each follower (``b<i>_<j>``)."""
    out: List[Struct] = []
    for i, m in enumerate(MEMBERS):
        out.append((f"a{i}", [("m", m)]))
        for j, f in enumerate(FOLLOWERS):
            out.append((f"b{i}_{j}", [("m", m), ("f", f)]))
    return out


def variants() -> List[Tuple[str, List[Tuple[str, List[Kind]]]]]:
    """Per member: a constructor of it alone, one of a uint8 then it, and a constant one."""
    return [(f"v{i}", [("One", [m]), ("After", [("scalar", "uint8"), m]), ("Nothing", [])])
            for i, m in enumerate(MEMBERS)]


def schema_document(rules: str) -> dict:
    """One rule set's module: the enums, ``point``, the records and the variants."""
    types: List[dict] = [{"enum": name, "base": base, "values": [list(v) for v in values]}
                         for name, base, values in ENUMS]
    for name, members in [POINT] + records():
        types.append({"record": name, "fields": [[f, spelling(k)] for f, k in members]})
    for name, ctors in variants():
        types.append({"variant": name,
                      "constructors": [[c, [spelling(k) for k in args]] for c, args in ctors]})
    return {"module": module_of(rules), "rules": rules, "types": types}


def module_of(rules: str) -> str:
    """The module of one rule set's schema: ``K_std430``, ``K_wgsl_uniform``."""
    return "K_" + rules.replace("-", "_")


def schema_files(folder: pathlib.Path, rules: Sequence[str] = RULES) -> List[str]:
    """Write one schema file per rule set into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for r in rules:
        path = folder / f"kinds_{r}.json"
        path.write_text(json.dumps(schema_document(r), indent=1))
        paths.append(str(path))
    return paths


def oracle_structs() -> List[Struct]:
    """The records (``point`` first) in the oracles' terms."""
    return [(name, [(f, for_oracle(k)) for f, k in members])
            for name, members in [POINT] + records()]


def counts() -> Dict[str, int]:
    return {"members": len(MEMBERS), "records": len(records()) + 1, "variants": len(variants()),
            "enums": len(ENUMS)}
