"""Helpers of the host tests: the conformance shapes, value builders, dtype walks, the
tests' own oracles (struct formats, C spellings, numpy), and hypothesis strategies for
schemas with nested records. The tests that pin the shape counts are
tests/host/test_host_support.py.
"""

from __future__ import annotations

import importlib.util
import itertools
import keyword
import math
import struct
from typing import Callable, Dict, Iterator, List, Tuple

from hypothesis import strategies as st

from sarek_layout.host.plan import INLINE_SLOTS
from sarek_layout.targets.names import FIELD, NAME_TARGETS, identifier_problem, refusals
from sarek_layout.ir.types import (
    SCALARS,
    TBool,
    TFloat16,
    TFloat32,
    TFloat64,
    TInt8,
    TInt16,
    TInt32,
    TInt64,
    TChar,
    TEnum,
    TFixedArray,
    TMatrix,
    TRecord,
    TUint8,
    TUint16,
    TUint32,
    TUint64,
    TUnit,
    TVariant,
    TVector,
)
from sarek_layout.layout.core import record_layout_of, variant_layout

#: The scalars of the conformance shapes (unit has no value worth a shape of its own).
CONFORMANCE_SCALARS = (TInt32, TFloat32, TBool, TInt64, TFloat64)
#: Every scalar of the table, Sarek's newer 2- and 1-byte ones included (the hypothesis
#: strategies), the conformance ones first.
ALL_SCALARS = CONFORMANCE_SCALARS + tuple(s for s in SCALARS.values() if s not in CONFORMANCE_SCALARS)

FORMAT = {TInt32: "i", TFloat32: "f", TBool: "i", TUnit: "i", TInt64: "q", TFloat64: "d",
          TFloat16: "e", TUint8: "B",
          TInt8: "b", TInt16: "h", TUint16: "H", TUint32: "I", TUint64: "Q"}
# A float16 in C is its binary16 bits in a uint16_t (C11 has no 2-byte float type).
C_TYPE = {TInt32: "int32_t", TFloat32: "float", TBool: "int32_t", TUnit: "int32_t",
          TInt64: "int64_t", TFloat64: "double", TFloat16: "uint16_t", TUint8: "uint8_t",
          TInt8: "int8_t", TInt16: "int16_t", TUint16: "uint16_t", TUint32: "uint32_t",
          TUint64: "uint64_t"}
NUMPY = {TInt32: "=i4", TFloat32: "=f4", TBool: "=i4", TUnit: "=i4", TInt64: "=i8", TFloat64: "=f8",
         TFloat16: "=f2", TUint8: "=u1",
         TInt8: "=i1", TInt16: "=i2", TUint16: "=u2", TUint32: "=u4", TUint64: "=u8"}
# The tables above are the tests' own oracles (not read from the package); each must name
# every scalar of the table, so a new scalar fails here until it has its expected facts.
assert all(set(table) == set(SCALARS.values()) for table in (FORMAT, C_TYPE, NUMPY))


def conformance_records() -> Iterator[TRecord]:
    """780 records: every sequence of 1–4 fields over the five conformance scalars."""
    k = 0
    for n in range(1, 5):
        for combo in itertools.product(CONFORMANCE_SCALARS, repeat=n):
            yield TRecord(f"r{k}", [(f"f{i}", t) for i, t in enumerate(combo)])
            k += 1


def _arg_lists() -> List[Tuple]:
    s = CONFORMANCE_SCALARS
    return [()] + [(a,) for a in s] + list(itertools.product(s, s))


def conformance_variants() -> Iterator[TVariant]:
    """30,783 variants: 1–3 constructors, each with 0–2 scalar arguments (31 argument lists)."""
    k = 0
    for n in range(1, 4):
        for combo in itertools.product(_arg_lists(), repeat=n):
            yield TVariant(f"v{k}", [(f"C{i}", args) for i, args in enumerate(combo)])
            k += 1


def new_scalar_records() -> Iterator[TRecord]:
    """The 340 records of ``shapes.new_scalar_records`` (uint8, float16, int32, float64)."""
    from helpers.shapes import new_scalar_records as descriptions, to_elttype

    for d in descriptions():
        yield to_elttype(d, {})


def new_scalar_variants() -> Iterator[TVariant]:
    """The 7,070 variants of ``shapes.new_scalar_variants``."""
    from helpers.shapes import new_scalar_variants as descriptions, to_elttype

    for d in descriptions():
        yield to_elttype(d, {})


def extension_scalar_records() -> Iterator[TRecord]:
    """The 780 records of ``shapes.extension_scalar_records`` (int8 … uint64)."""
    from helpers.shapes import extension_scalar_records as descriptions, to_elttype

    for d in descriptions():
        yield to_elttype(d, {})


def extension_scalar_variants() -> Iterator[TVariant]:
    """The 990 variants of ``shapes.extension_scalar_variants``."""
    from helpers.shapes import extension_scalar_variants as descriptions, to_elttype

    for d in descriptions():
        yield to_elttype(d, {})


def layout_of(t):
    return record_layout_of(t) if isinstance(t, TRecord) else variant_layout(t.name, t.ctors, t.rules)


# --- values ---------------------------------------------------------------------------------


def scalar_value(t, k: int):
    """A distinct, exactly representable value of scalar ``t`` for leaf number ``k``."""
    if t is TInt32:
        return -(k + 1) * 1_000_003 if k % 2 else (k + 1) * 7919
    if t is TInt64:
        return (1 << 40) + k if k % 2 else -(1 << 50) - k
    if t is TFloat32:
        return k + 0.5
    if t is TFloat64:
        return -(k + 0.25) * 1e10
    if t is TBool:
        return k % 2 == 0
    if t is TFloat16:  # binary16 holds these exactly, the largest finite one included
        return -65504.0 if k % 7 == 3 else (k % 1000) + 0.5
    if t is TUint8:
        return 255 if k % 8 == 2 else (k * 37 + 1) % 256
    if t.kind == "int" and t.int_range is not None:
        # Any other integer of the table (the extension scalars): both ends of its range,
        # -1 or its top bit alone, then distinct values strictly between the ends (steps of
        # 7919, a prime; none of the first hundred meets -1 or a top bit alone).
        low, high = t.int_range
        if k < 3:
            return (low, high, -1 if low < 0 else (high + 1) // 2)[k]
        return low + 1 + ((k - 3) * 7919) % (high - low - 1)
    return None


def build_value(t, leaf: Callable[[object, int], object], counter: List[int]):
    """A value of elttype ``t`` (record: dict) whose leaves come from ``leaf(type, k)``."""
    if isinstance(t, TRecord):
        return {name: build_value(ft, leaf, counter) for name, ft in t.fields}
    # The member kinds (SPEC §1b) in the value forms the codecs decode to: a char[N] is bytes,
    # the repeated kinds nested tuples (a matrix: its columns), an enum one of its values.
    if isinstance(t, TFixedArray) and t.elem is TChar:
        counter[0] += 1
        return bytes(b"abcdefgh"[(counter[0] + i) % 8] for i in range(min(t.count, 3)))
    if isinstance(t, TFixedArray):
        return tuple(build_value(t.elem, leaf, counter) for _ in range(t.count))
    if isinstance(t, TVector):
        return tuple(build_value(t.elem, leaf, counter) for _ in range(t.n))
    if isinstance(t, TMatrix):
        return tuple(tuple(build_value(t.elem, leaf, counter) for _ in range(t.rows))
                     for _ in range(t.cols))
    if isinstance(t, TEnum):
        counter[0] += 1
        return t.values[counter[0] % len(t.values)][1]
    counter[0] += 1
    return leaf(t, counter[0] - 1)


def distinct_value(t, ctor_index: int = 0):
    """A record dict, or ``(ctor, args)`` of the ``ctor_index``-th constructor, of ``t``."""
    counter = [0]
    if isinstance(t, TVariant):
        name, args = t.ctors[ctor_index]
        return (name, tuple(build_value(a, scalar_value, counter) for a in args))
    return build_value(t, scalar_value, counter)


def leaf_values(t, value) -> Dict[str, object]:
    """Dotted leaf path (as in the layout) → scalar, for a record dict or a variant pair."""
    out: Dict[str, object] = {}

    def walk(tt, v, path):
        if isinstance(tt, TRecord):
            for name, ft in tt.fields:
                walk(ft, v[name], f"{path}.{name}" if path else name)
        else:
            out[path] = v

    if isinstance(t, TVariant):
        name, args = value
        ctor = dict(t.ctors)[name]
        for i, (at, v) in enumerate(zip(ctor, args)):
            walk(at, v, f"{name}._{i}")
    else:
        walk(t, value, "")
    return out


def stored(t, v):
    """What a scalar reads back as after a trip through its bytes."""
    if t is TFloat32:
        return struct.unpack("=f", struct.pack("=f", v))[0]
    if t is TFloat16:
        return struct.unpack("=e", struct.pack("=e", v))[0]
    if t is TBool:
        return bool(v)
    return v


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


# --- dtype walks ----------------------------------------------------------------------------


def dtype_leaves(dt, base: int = 0, prefix: str = "") -> Iterator[Tuple[str, int, object]]:
    """``(dotted path, absolute offset, dtype)`` of every scalar member of a structured dtype."""
    for name in dt.names:
        sub, offset = dt.fields[name][:2]
        if sub.names:
            yield from dtype_leaves(sub, base + offset, f"{prefix}{name}.")
        else:
            yield f"{prefix}{name}", base + offset, sub


def variant_leaf_path(dtype_path: str, t) -> str:
    """``data.Pair_v._1`` or, for a constructor of one argument (whose union member is the
    argument itself, SPEC §4), ``data.Circle_v.x`` (dtype member paths) → ``Pair._1``,
    ``Circle._0.x`` (layout leaf paths) of variant ``t``."""
    assert dtype_path.startswith("data."), dtype_path
    arm, _, rest = dtype_path[len("data."):].partition(".")
    assert arm.endswith("_v"), arm
    ctor = arm[:-2]
    if len(dict(t.ctors)[ctor]) == 1:
        return f"{ctor}._0" + (f".{rest}" if rest else "")
    return f"{ctor}.{rest}"


def arm_parts(t, ctor: str, leaf_path: str) -> List[str]:
    """The dtype member names under ``data`` that reach the layout leaf ``Ctor._N.x`` of
    variant ``t``: ``[Ctor_v, _N, x]``, or ``[Ctor_v, x]`` for a one-argument constructor."""
    _, arg, *rest = leaf_path.split(".")
    if len(dict(t.ctors)[ctor]) == 1:
        return [f"{ctor}_v", *rest]
    return [f"{ctor}_v", arg, *rest]


def check_numpy_row(np, t, row, v):
    """Every leaf of value ``v`` reads back through the dtype's member names (SPEC §4: a
    one-argument constructor's union member is the argument itself)."""
    if isinstance(t, TVariant):
        assert row["tag"] == [c for c, _ in t.ctors].index(v[0])
    for path, want in leaf_values(t, v).items():
        node = row
        if isinstance(t, TVariant):
            node = node["data"]
            parts = arm_parts(t, v[0], path)
        else:
            parts = path.split(".")
        for part in parts:
            node = node[part]
        got = node.item()
        if isinstance(want, bool):
            assert got == int(want)
        elif want is None:
            assert got == 0
        else:
            assert same(got, stored(TFloat32, want) if node.dtype == np.float32 else want), (t, path)


# --- hypothesis strategies ------------------------------------------------------------------

# Names a schema could really contain and every target emit (the resolver's and the targets'
# own rules), so the same strategies can feed every compiler as well as the codec.
_names = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True).filter(
    lambda n: identifier_problem(n) is None and not refusals(NAME_TARGETS, n, FIELD))


@st.composite
def records(draw, depth: int = 2, allow_unit: bool = True) -> TRecord:
    scalars = ALL_SCALARS if allow_unit else CONFORMANCE_SCALARS
    member = st.sampled_from(scalars)
    if depth > 0:
        member = st.one_of(member, member, records(depth=depth - 1, allow_unit=allow_unit))
    names = draw(st.lists(_names, min_size=1, max_size=5, unique=True))
    fields = [(n, draw(member)) for n in names]
    return TRecord("r" + draw(_names), fields)


@st.composite
def big_records(draw, allow_unit: bool = True) -> TRecord:
    """A record whose byte plan cannot inline every nested record (``host.plan`` inlines up
    to ``INLINE_SLOTS`` slots): a record of about that many scalar fields, or a small one,
    nested one to three levels deep in records that hold it twice (``{a: r, b: r}``) among
    other members, in any order. So plans mix inlined and opaque nested records, at several
    levels, in fields and (through ``variants(big=True)``) in constructor arguments."""
    scalars = ALL_SCALARS if allow_unit else CONFORMANCE_SCALARS
    width = draw(st.integers(INLINE_SLOTS - 4, INLINE_SLOTS + 4))
    wide = TRecord("w" + draw(_names), [(f"f{i}", draw(st.sampled_from(scalars))) for i in range(width)])
    inner = draw(st.one_of(st.just(wide), records(depth=1, allow_unit=allow_unit)))
    for _ in range(draw(st.integers(1, 2 if inner is wide else 3))):
        extra = st.one_of(st.sampled_from(scalars), records(depth=0, allow_unit=allow_unit))
        members = [("a", inner), ("b", inner)]
        members += [(f"c{i}", draw(extra)) for i in range(draw(st.integers(0, 2)))]
        inner = TRecord("d" + draw(_names), draw(st.permutations(members)))
    return inner


@st.composite
def variants(draw, allow_unit: bool = True, big: bool = False) -> TVariant:
    scalars = ALL_SCALARS if allow_unit else CONFORMANCE_SCALARS
    arg = st.one_of(st.sampled_from(scalars), records(depth=1, allow_unit=allow_unit))
    if big:
        arg = st.one_of(arg, big_records(allow_unit=allow_unit))
    names = draw(st.lists(_names.map(str.capitalize), min_size=1, max_size=4, unique=True))
    ctors = [(n, draw(st.lists(arg, max_size=3))) for n in names]
    return TVariant("v" + draw(_names), ctors)


def element_types(allow_unit: bool = True, big: bool = False):
    """Records and variants with nested records; with ``big``, also records nested beyond
    what one byte plan inlines (``big_records``), alone or as constructor arguments."""
    if big:
        return st.one_of(records(allow_unit=allow_unit), variants(allow_unit=allow_unit, big=True),
                         big_records(allow_unit=allow_unit))
    return st.one_of(records(allow_unit=allow_unit), variants(allow_unit=allow_unit))


_SCALAR_STRATEGY = {
    TInt32: st.integers(-(2**31), 2**31 - 1),
    TInt64: st.integers(-(2**63), 2**63 - 1),
    TFloat32: st.floats(width=32, allow_nan=False),
    TFloat64: st.floats(allow_nan=False),
    TBool: st.booleans(),
    TUnit: st.none(),
    TFloat16: st.floats(width=16, allow_nan=False),
    TUint8: st.integers(0, 255),
}
# Every other integer of the table (the extension scalars), over its whole range.
_SCALAR_STRATEGY.update({s: st.integers(*s.int_range) for s in SCALARS.values()
                         if s not in _SCALAR_STRATEGY and s.int_range is not None})


def values_of(t):
    """A strategy for valid values of elttype ``t``, in the SPEC §2 Python form."""
    if isinstance(t, TRecord):
        return st.fixed_dictionaries({name: values_of(ft) for name, ft in t.fields})
    if isinstance(t, TVariant):
        return st.one_of(*[
            st.tuples(st.just(name), st.tuples(*[values_of(a) for a in args]))
            for name, args in t.ctors
        ])
    return _SCALAR_STRATEGY[t]


# --- schema files from elttypes -------------------------------------------------------------


class SchemaDocument:
    """A JSON schema declaring element types built as elttypes (conformance, hypothesis).

    Records reached through fields or arguments are declared too, each distinct record once,
    under fresh names (``r0``, ``r1``…; variants ``v0``…), so any set of elttypes becomes a
    valid schema file. ``c_names[t]`` is the generated C name of each declared type.
    """

    def __init__(self, module: str = "T") -> None:
        self.module = module
        self.decls: List[dict] = []
        self.c_names: Dict[object, str] = {}
        self.roots: List[object] = []

    def _ref(self, t) -> str:
        if isinstance(t, (TRecord, TVariant)):
            return self.add(t, root=False)[len(self.module) + 1:]
        return t.name

    def add(self, t, root: bool = True) -> str:
        if t not in self.c_names:
            if isinstance(t, TRecord):
                fields = [[name, self._ref(ft)] for name, ft in t.fields]
                name = f"r{len(self.c_names)}"
                self.decls.append({"record": name, "fields": fields})
            else:
                ctors = [[c, [self._ref(a) for a in args]] for c, args in t.ctors]
                name = f"v{len(self.c_names)}"
                self.decls.append({"variant": name, "constructors": ctors})
            self.c_names[t] = f"{self.module}_{name}"
        if root:
            self.roots.append(t)
        return self.c_names[t]

    def write(self, path) -> str:
        import json

        with open(path, "w") as f:
            json.dump({"module": self.module, "types": self.decls}, f, indent=1)
        return str(path)


def py_attr(name: str) -> str:
    """A schema name as the python target spells it: a Python keyword gets a trailing '_'."""
    return name + "_" if keyword.iskeyword(name) else name


def to_generated(module, doc: SchemaDocument, t, value):
    """A codec-form value (dicts, ``(ctor, args)``) as the generated module's objects."""
    if isinstance(t, TRecord):
        cls = getattr(module, doc.c_names[t])
        return cls(**{py_attr(n): to_generated(module, doc, ft, value[n]) for n, ft in t.fields})
    if isinstance(t, TVariant):
        name, args = value
        cls = getattr(module, f"{doc.c_names[t]}_{name}")
        return cls(*[to_generated(module, doc, a, v) for a, v in zip(dict(t.ctors)[name], args)])
    return value


def compile_probe(tmp_path, decls, exprs, module_name):
    """Build ``size_t probe[] = {exprs…}`` with the host compiler; return the numbers."""
    import cffi

    ffi = cffi.FFI()
    ffi.cdef(f"extern size_t probe[{len(exprs)}];")
    source = "#include <stdint.h>\n#include <stddef.h>\n" + "".join(decls)
    source += "size_t probe[] = {\n" + ",\n".join(exprs) + "\n};\n"
    ffi.set_source(module_name, source)
    path = ffi.compile(tmpdir=str(tmp_path), verbose=False)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.lib.probe)


def import_file(path, name: str):
    """Import the Python file at ``path`` as module ``name`` (registered in sys.modules)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(name, str(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
