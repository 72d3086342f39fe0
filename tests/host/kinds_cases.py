"""The member kinds of SPEC §1b for the host tests: types described independently of the
package, their schema spelling, values (and what they read back as), the generated module's
objects for them, their natural C spelling and the C statements that store a value.

A kind is a tuple, as in ``helpers.kinds_oracle`` (whose random structs these tests reuse),
plus enums::

    kind := ("scalar", name) | ("vec", n, scalar) | ("mat", cols, rows, scalar)
          | ("array", kind, count) | ("struct", name) | ("enum", name)

``Types`` holds what the names mean: records ``name -> [(field, kind)]``, variants
``name -> [(ctor, [kind])]``, enums ``name -> (base, [(value name, value)])``. Nothing here
computes an offset: the C side is what gcc makes of the natural declarations.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from hypothesis import strategies as st

from helpers.host import _SCALAR_STRATEGY, py_attr, scalar_value, stored
from helpers.kinds_oracle import C_SCALAR, CUDA_VEC_BASE
from helpers.kinds_oracle import _dims as dims_of  # innermost kind, array counts outermost first
from sarek_layout.ir.types import RULE_SET_NAMES, SCALARS

Kind = tuple
#: Every rule set the package lays out (its vocabulary: a new one is drawn here at once).
RULES = RULE_SET_NAMES


@dataclass
class Types:
    records: Dict[str, List[Tuple[str, Kind]]] = field(default_factory=dict)
    variants: Dict[str, List[Tuple[str, List[Kind]]]] = field(default_factory=dict)
    enums: Dict[str, Tuple[str, List[Tuple[str, int]]]] = field(default_factory=dict)

    def schema(self, rules: str, module: str = "K") -> dict:
        """The JSON schema declaring every type under ``rules``."""
        decls: List[dict] = []
        for name, (base, values) in self.enums.items():
            decls.append({"enum": name, "base": base, "values": [list(v) for v in values]})
        for name, fields in self.records.items():
            decls.append({"record": name, "fields": [[f, spelling(k)] for f, k in fields]})
        for name, ctors in self.variants.items():
            decls.append({"variant": name,
                          "constructors": [[c, [spelling(k) for k in args]] for c, args in ctors]})
        return {"module": module, "rules": rules, "types": decls}


def spelling(kind: Kind) -> str:
    base, counts = dims_of(kind)
    tag = base[0]
    if tag == "scalar":
        text = base[1]
    elif tag == "vec":
        text = f"vec{base[1]}<{base[2]}>"
    elif tag == "mat":
        text = f"mat{base[1]}x{base[2]}<{base[3]}>"
    else:
        text = base[1]
    return text + "".join(f"[{n}]" for n in counts)


def is_text(kind: Kind) -> bool:
    """``char[N]``: one ``bytes`` of at most N bytes, not N values."""
    return kind[0] == "array" and kind[1] == ("scalar", "char")


def element_of(kind: Kind) -> Tuple[Kind, int]:
    """What a vector, matrix or array repeats, and how many times: a matrix is its columns."""
    if kind[0] == "vec":
        return ("scalar", kind[2]), kind[1]
    if kind[0] == "mat":
        return ("vec", kind[2], kind[3]), kind[1]
    return kind[1], kind[2]


# --- values ----------------------------------------------------------------------------------


def build(kind: Kind, types: Types, counter: List[int]):
    """A value of ``kind`` whose scalars are distinct (``helpers.host.scalar_value``), in
    the encoders' form: lists, dicts, enum value names, bytes for a ``char[N]``."""
    tag = kind[0]
    if is_text(kind):
        counter[0] += 1
        return (b"t%d" % counter[0] * 3)[:kind[2] - counter[0] % 2]
    if tag == "scalar":
        counter[0] += 1
        return scalar_value(SCALARS[kind[1]], counter[0])
    if tag == "vec":
        return [build(("scalar", kind[2]), types, counter) for _ in range(kind[1])]
    if tag == "mat":
        return [[build(("scalar", kind[3]), types, counter) for _ in range(kind[2])]
                for _ in range(kind[1])]
    if tag == "array":
        return [build(kind[1], types, counter) for _ in range(kind[2])]
    if tag == "enum":
        counter[0] += 1
        values = types.enums[kind[1]][1]
        name, value = values[counter[0] % len(values)]
        return name if counter[0] % 2 else value
    return {f: build(k, types, counter) for f, k in types.records[kind[1]]}


def values(kind: Kind, types: Types):
    """A hypothesis strategy for values of ``kind``: sequences as lists or tuples."""
    tag = kind[0]
    if is_text(kind):
        return st.binary(max_size=kind[2])
    if tag == "scalar":
        return _SCALAR_STRATEGY[SCALARS[kind[1]]]
    if tag in ("vec", "mat", "array"):
        inner, n = element_of(kind)
        items = st.lists(values(inner, types), min_size=n, max_size=n)
        return st.one_of(items, items.map(tuple))
    if tag == "enum":
        pairs = types.enums[kind[1]][1]
        return st.sampled_from([n for n, _ in pairs] + [v for _, v in pairs])
    return st.fixed_dictionaries({f: values(k, types) for f, k in types.records[kind[1]]})


def expected(kind: Kind, value, types: Types):
    """What ``value`` reads back as: nested tuples, stored floats, enum integer values, a
    text without its trailing zero bytes."""
    tag = kind[0]
    if is_text(kind):
        return bytes(value).rstrip(b"\0")
    if tag == "scalar":
        return stored(SCALARS[kind[1]], value)
    if tag in ("vec", "mat", "array"):
        return tuple(expected(element_of(kind)[0], v, types) for v in value)
    if tag == "enum":
        return dict(types.enums[kind[1]][1])[value] if isinstance(value, str) else value
    return {f: expected(k, value[f], types) for f, k in types.records[kind[1]]}


def generated(module, kind: Kind, value, types: Types, c_prefix: str = "K_"):
    """``value`` as the generated module's objects (its dataclasses; lists and tuples
    kept)."""
    tag = kind[0]
    if tag in ("vec", "mat", "array") and not is_text(kind):
        inner = element_of(kind)[0]
        items = [generated(module, inner, v, types, c_prefix) for v in value]
        return tuple(items) if isinstance(value, tuple) else items
    if tag == "struct":
        cls = getattr(module, c_prefix + kind[1])
        return cls(**{py_attr(f): generated(module, k, value[f], types, c_prefix)
                      for f, k in types.records[kind[1]]})
    return value


# --- C ---------------------------------------------------------------------------------------


#: CUDA's vector types by scalar (``float4``), from vector_types.h; the 4-vectors of 8-byte
#: scalars are the 16-byte aligned ones (CUDA 13 deprecates the unsuffixed names).
def cuda_vector(scalar: str, n: int) -> str:
    name = f"{CUDA_VEC_BASE[scalar]}{n}"
    return name + "_16a" if n == 4 and SCALARS[scalar].size == 8 else name


def c_decl(name: str, kind: Kind, rules: str, types: Types) -> str:
    """The natural C declaration of member ``name``: vectors as arrays (or, under ``cuda``,
    CUDA's vector types), a matrix as ``T m[C][R]`` (or an array of column vectors), an enum
    as its base integer."""
    base, counts = dims_of(kind)
    tag = base[0]
    if tag == "vec" and rules == "cuda":
        spelled = cuda_vector(base[2], base[1])
    elif tag == "vec":
        spelled, counts = C_SCALAR[base[2]], counts + [base[1]]
    elif tag == "mat" and rules == "cuda":
        spelled, counts = cuda_vector(base[3], base[2]), counts + [base[1]]
    elif tag == "mat":
        spelled, counts = C_SCALAR[base[3]], counts + [base[1], base[2]]
    elif tag == "scalar":
        spelled = "char" if base[1] == "char" else C_SCALAR[base[1]]
    elif tag == "enum":
        spelled = C_SCALAR[types.enums[base[1]][0]]
    else:
        spelled = f"struct {base[1]}"
    return f"{spelled} {name}{''.join(f'[{n}]' for n in counts)};"


def c_structs(types: Types, rules: str) -> str:
    """The C declarations of every record of ``types`` (each after those it uses)."""
    return "".join(f"struct {name} {{ {' '.join(c_decl(f, k, rules, types) for f, k in fields)} }};\n"
                   for name, fields in types.records.items())


_COMPONENTS = "xyzw"


def scalar_leaves(lvalue: str, kind: Kind, value, types: Types, components: bool):
    """``(lvalue, scalar name, value)`` of every scalar of ``value`` (encoder form), in
    declaration order: a vector's components as ``.x``… (``components``: CUDA's vector
    types, GLSL) or ``[i]``, a matrix's columns as ``[c]``, an enum as its base integer, a
    ``char[N]`` as one text (scalar ``char``, value ``bytes``)."""
    tag = kind[0]
    if tag == "scalar" or is_text(kind):
        if is_text(kind):
            return [(lvalue, "char", bytes(value))]
        return [(lvalue, kind[1], value)]
    if tag == "enum":
        return [(lvalue, types.enums[kind[1]][0], expected(kind, value, types))]
    if tag == "struct":
        return [leaf for f, k in types.records[kind[1]]
                for leaf in scalar_leaves(f"{lvalue}.{f}", k, value[f], types, components)]
    inner = element_of(kind)[0]
    part = (lambda i: f".{_COMPONENTS[i]}") if tag == "vec" and components else (lambda i: f"[{i}]")
    return [leaf for i, v in enumerate(value)
            for leaf in scalar_leaves(lvalue + part(i), inner, v, types, components)]


def c_text(value: bytes) -> str:
    """A C string literal of ``value`` (octal escapes: at most three digits, never greedy)."""
    return '"' + "".join("\\%03o" % b for b in value) + '"'


def c_stores(lvalue: str, kind: Kind, value, types: Types, rules: str, literal) -> List[str]:
    """C statements storing ``value`` (encoder form) in ``lvalue``, one per scalar;
    ``literal(scalar, v)`` spells a scalar."""
    return [f"memcpy({lv}, {c_text(v)}, {len(v)});" if s == "char"
            else f"{lv} = {literal(SCALARS[s], v)};"
            for lv, s, v in scalar_leaves(lvalue, kind, value, types, rules == "cuda")]


# --- numpy -----------------------------------------------------------------------------------


def numpy_value(a, kind: Kind, types: Types):
    """The value numpy reads through a dtype field ``a`` (an element's field), in the form of
    ``expected``: a padded element's one field ``v`` is stepped into."""
    while a.dtype.names == ("v",):
        a = a["v"]
    tag = kind[0]
    if tag == "struct":
        return {f: numpy_value(a[f], k, types) for f, k in types.records[kind[1]]}
    if is_text(kind) and a.dtype.kind == "S":
        return a.item()
    if tag in ("vec", "mat", "array"):
        inner = element_of(kind)[0]
        return tuple(numpy_value(a[i], inner, types) for i in range(len(a)))
    item = a.item()
    if tag == "scalar" and kind[1] == "bool":
        return item != 0
    if tag == "scalar" and kind[1] == "unit":
        return None
    return item


def f32(x: float) -> float:
    return struct.unpack("=f", struct.pack("=f", x))[0]


# --- random schemas --------------------------------------------------------------------------

#: Scalars a member may be (a char only as an array's element), a vector may hold, and a
#: matrix.
SCALAR_NAMES = [n for n in SCALARS if n != "char"]
NUMERIC = tuple(n for n in SCALAR_NAMES if n not in ("bool", "unit"))
FLOATS = ("float32", "float64", "float16")
ENUM_BASES = ("int32", "uint8", "int16", "uint64", "int8")


@st.composite
def kind_types(draw, max_records: int = 3) -> Types:
    """Records (and sometimes a variant and an enum) whose members are every kind: scalars,
    vectors, matrices, enums, records, arrays and arrays of arrays of them."""
    types = Types()
    if draw(st.booleans()):
        base = draw(st.sampled_from(ENUM_BASES))
        values = draw(st.lists(st.integers(*SCALARS[base].int_range), min_size=1, max_size=4))
        types.enums["en"] = (base, [(f"V{i}", v) for i, v in enumerate(values)])

    def leaf():
        options = [st.sampled_from(SCALAR_NAMES).map(lambda s: ("scalar", s)),
                   st.tuples(st.just("vec"), st.integers(2, 4), st.sampled_from(NUMERIC)),
                   st.tuples(st.just("mat"), st.integers(2, 4), st.integers(2, 4),
                             st.sampled_from(FLOATS))]
        if types.enums:
            options.append(st.just(("enum", "en")))
        if types.records:
            options.append(st.sampled_from(sorted(types.records)).map(lambda r: ("struct", r)))
        options.append(st.integers(1, 6).map(lambda n: ("array", ("scalar", "char"), n)))
        return st.one_of(*options)

    def member():
        kind = draw(leaf())
        depth = draw(st.integers(0, 2))
        for _ in range(depth):
            kind = ("array", kind, draw(st.integers(1, 3)))
        return kind

    for i in range(draw(st.integers(1, max_records))):
        types.records[f"r{i}"] = [(f"f{j}", member()) for j in range(draw(st.integers(1, 4)))]
    if draw(st.booleans()):
        types.variants["v"] = [(f"C{j}", [member() for _ in range(draw(st.integers(0, 2)))])
                               for j in range(draw(st.integers(1, 3)))]
    return types


def variant_values(types: Types, name: str):
    """A strategy for ``(constructor, arguments)`` values of variant ``name``."""
    return st.one_of(*[st.tuples(st.just(c), st.tuples(*[values(k, types) for k in args]))
                       for c, args in types.variants[name]])
