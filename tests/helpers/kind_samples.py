"""A sample of SPEC §1b's member kinds for the conformance runs of the host-language
toolchains (rustc, zig): fixed arrays (nested too), vectors, matrices and enums as record
fields and constructor arguments, under the ``c``, ``std430``, ``std140`` and ``cuda`` rules.

One schema file per rule set (module ``K<rules>``), each with the same types:

* enums ``e8``/``e16``/``e32``/``e64`` over ``int8``, ``uint16``, ``int32``, ``int64`` (values
  that repeat, a negative one), a small record ``inner`` used as an array element, and a
  record ``holder`` of arrays, an argument of the variant ``held``;
* ``s<i>``: one record per member kind (alone), ``t<i>``: the kind between a ``uint8`` and a
  ``float32`` (what the rules put in a vector's or array's tail), ``p<i>``: every 16th pair
  of kinds;
* ``v<i>``: variants whose constructors take kinds (alone, with a scalar, two kinds).

Small enough to add little to a compile (``len(kind_sample_types())`` types per rule set),
wide enough that each kind meets each neighbour alignment.

``oracle_schema_file``/``oracle_mismatches`` turn ``kinds_oracle``'s random structs into a
schema and compare what rustc or zig measured of its generated types with what the compiler
that implements the rule set natively measured (gcc, nvcc, glslang): a verdict from two
compilers, with no number of the package's between them.
"""

from __future__ import annotations

import itertools
import json
import pathlib
from typing import Dict, List, Tuple

#: The rule sets the sample is laid out by (``scalar`` is refused by Rust and Zig for some
#: records: its own tests cover it).
SAMPLE_RULES = ("c", "std430", "std140", "cuda")

#: Member kinds: arrays of scalars, of vectors, of records and of enums; nested arrays; each
#: vector size; matrices of float32 and float64; enums alone.
KINDS = (
    "float32[3]", "uint8[5]", "int16[3]", "float64[2]", "int32[2][3]",
    "vec2<float32>", "vec3<float32>", "vec4<float32>", "vec3<int32>", "vec2<float64>",
    "vec3<float64>", "vec4<uint8>", "vec3<float32>[2]", "vec2<float32>[3]",
    "mat2", "mat3", "mat4", "mat2x3<float32>", "mat3x2<float32>", "mat2<float64>",
    "inner[2]", "e8", "e32", "e64[2]", "e16[3]",
)

ENUMS = [
    {"enum": "e8", "base": "int8", "values": [["Off", 0], ["On", 1], ["Neg", -1]]},
    {"enum": "e16", "base": "uint16", "values": [["A", 0], ["B", 65535], ["Alias", 0]]},
    {"enum": "e32", "base": "int32", "values": [["Lambert", 0], ["Metal", 1], ["Glass", 7]]},
    {"enum": "e64", "base": "int64", "values": [["Big", 2**40], ["Small", -(2**40)]]},
]


def kind_sample_types() -> List[dict]:
    """The types of one rule set's file, in JSON form."""
    types: List[dict] = list(ENUMS)
    types.append({"record": "inner", "fields": [["a", "float32"], ["b", "vec2<float32>"]]})
    # A record of arrays (padded elements, records) as an argument: its copy in Zig's make_
    # helpers goes element by element.
    types.append({"record": "holder", "fields": [["vs", "vec3<float32>[2]"], ["rs", "inner[2]"],
                                                 ["fs", "float32[2]"]]})
    types.append({"variant": "held", "constructors": [["H", ["holder", "int32"]], ["N", []]]})
    for i, kind in enumerate(KINDS):
        types.append({"record": f"s{i}", "fields": [["k", kind]]})
        types.append({"record": f"t{i}", "fields": [["pre", "uint8"], ["k", kind],
                                                    ["post", "float32"]]})
    for i, (a, b) in enumerate(itertools.islice(itertools.product(KINDS, KINDS), 0, None, 16)):
        types.append({"record": f"p{i}", "fields": [["a", a], ["b", b]]})
    for i, kind in enumerate(KINDS):
        other = KINDS[(i * 7 + 3) % len(KINDS)]
        types.append({"variant": f"v{i}", "constructors": [
            ["Alone", [kind]], ["WithTag", ["int32", kind]], ["Two", [kind, other]],
            ["Empty", []]]})
    return types


def kind_sample_files(folder: pathlib.Path, rules_sets=SAMPLE_RULES) -> List[str]:
    """Write one schema file per rule set of ``rules_sets`` into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for rules in rules_sets:
        path = folder / f"k{rules.replace('-', '_')}.json"
        path.write_text(json.dumps({"module": f"K{rules.replace('-', '_')}", "rules": rules,
                                    "types": kind_sample_types()}))
        paths.append(str(path))
    return paths


def held_sample_file(folder: pathlib.Path, rules: str, target: str) -> Tuple[str, int, set]:
    """The kind sample under ``rules`` less the types ``target`` (rust, zig) refuses (and
    those using them): its path, how many types the whole sample has, and the names held."""
    from sarek_layout.codegen.member_types import refusal
    from sarek_layout.resolve import load_schema

    (path,) = kind_sample_files(folder / "all", (rules,))
    doc = json.loads(pathlib.Path(path).read_text())
    schema = load_schema([path])
    held_c = set()
    for st in schema.dependency_order():
        if refusal(st, target) is None and all(d in held_c for d in st.depends_on):
            held_c.add(st.c_name)
    held = {st.name for st in schema.types if st.c_name in held_c}
    doc["types"] = [t for t in doc["types"]
                    if (t.get("record") or t.get("variant") or t.get("enum")) in held]
    out = folder / "held.json"
    out.write_text(json.dumps(doc))
    return str(out), len(schema.types), held


def sample_counts() -> Dict[str, int]:
    """How many types of each kind one rule set's file holds (for the tests' messages)."""
    counts: Dict[str, int] = {}
    for t in kind_sample_types():
        kind = next(k for k in ("enum", "record", "variant") if k in t)
        counts[kind] = counts.get(kind, 0) + 1
    return counts


# --- against the compilers that implement each rule set natively ----------------------------


def _spelling(kind: tuple) -> str:
    """A ``kinds_oracle`` kind as a schema type expression."""
    tag = kind[0]
    if tag == "scalar":
        return kind[1]
    if tag == "vec":
        return f"vec{kind[1]}<{kind[2]}>"
    if tag == "mat":
        return f"mat{kind[1]}x{kind[2]}<{kind[3]}>"
    if tag == "struct":
        return kind[1]
    dims = []
    while kind[0] == "array":  # T[N][M] reads as in C: N elements, each a T[M]
        dims.append(kind[2])
        kind = kind[1]
    return _spelling(kind) + "".join(f"[{d}]" for d in dims)


def oracle_structs(rules: str, oracle: str, seed: int, folder: pathlib.Path):
    """``kinds_oracle``'s random structs for ``rules`` and what ``oracle`` (``gcc``, ``nvcc``,
    ``glslang``: the compiler implementing those rules natively) measured of them."""
    from helpers import kinds_oracle

    glsl = oracle == "glslang"
    # CUDA's vector_types.h has no half vectors.
    scalars = [s for s in kinds_oracle.SIZE if not (oracle == "nvcc" and s == "float16")]
    structs = kinds_oracle.random_structs(seed=seed, count=60, scalars=scalars, glsl=glsl)
    if glsl:
        return structs, kinds_oracle.measure_glsl(structs, rules, folder)
    if oracle == "nvcc":
        return structs, kinds_oracle.measure_cuda(structs, folder)
    return structs, kinds_oracle.measure_c(structs, folder)


def oracle_schema_file(structs, rules: str, folder: pathlib.Path) -> str:
    """``kinds_oracle`` structs as the records of a schema laid out by ``rules``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"oracle_{rules}.json"
    path.write_text(json.dumps({"module": "O", "rules": rules, "types": [
        {"record": name, "fields": [[f, _spelling(k)] for f, k in members]}
        for name, members in structs]}))
    return str(path)


def oracle_mismatches(probes, passes, measured, who: str) -> List[str]:
    """Every value a toolchain measured (``passes``: ``(pass, values)`` per ABI) that differs
    from what the rule set's own compiler measured (``kinds_oracle.Measured`` by struct name):
    each struct's size and alignment, each member's offset and each array's (or matrix's)
    stride. Raises if fewer than half the probes could be compared (a vacuous check)."""
    from sarek_layout.verify.probes import ALIGN, OFFSET, SIZE, STRIDE

    out: List[str] = []
    compared = 0
    for label, values in passes:
        for p, value in zip(probes, values):
            m = measured[p.c_type[len("O_"):]]
            want = None
            if p.quantity == SIZE:
                want = m.size
            elif p.quantity == ALIGN:
                want = m.align
            elif p.quantity == OFFSET:
                want = m.offsets.get(p.member)
            elif p.quantity == STRIDE and p.member.endswith("[0]") and "." not in p.member:
                want = m.strides.get(p.member[:-3])
            if want is None or value is None:
                continue
            compared += 1
            if value != want:
                out.append(f"{p.label}: {who} {label} says {value}, the rules' compiler {want}")
    assert compared >= len(probes) // 2 * len(passes), (compared, len(probes))
    return out
