"""numpy dtypes against the layout core (every conformance shape, hypothesis schemas) and
against the host C compiler (cffi), plus SPEC §4 member naming and numpy staying optional."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings

from helpers.common import EXAMPLES, ROOT, golden_cases, require_toolchain
from sarek_layout.host.dtype import dtype_of
from sarek_layout.ir.types import TBool, TFloat32, TFloat64, TInt32, TRecord, TVariant
from helpers.host import (
    C_TYPE,
    compile_probe,
    NUMPY,
    conformance_records,
    conformance_variants,
    dtype_leaves,
    element_types,
    layout_of,
    variant_leaf_path,
)

np = pytest.importorskip("numpy")


def expected_leaves(t):
    """``{path: (offset, dtype)}`` the layout core says the dtype must have."""
    layout = layout_of(t)
    if isinstance(t, TRecord):
        return {leaf.path: (leaf.offset, np.dtype(NUMPY[leaf.type])) for leaf in layout.leaves}
    out = {"tag": (layout.tag_offset, np.dtype("=i4"))}
    for c in layout.ctors:
        out.update({leaf.path: (leaf.offset, np.dtype(NUMPY[leaf.type])) for leaf in c.leaves})
    return out


def actual_leaves(t, dt):
    out = {}
    for path, offset, sub in dtype_leaves(dt):
        if isinstance(t, TVariant) and path != "tag":
            path = variant_leaf_path(path, t)
        out[path] = (offset, sub)
    return out


def _repeats(t) -> bool:
    """Whether a leaf of ``t`` stands for several copies (a fixed array, vector, matrix)."""
    layout = layout_of(t)
    leaves = layout.leaves if isinstance(t, TRecord) else [x for c in layout.ctors for x in c.leaves]
    return any(leaf.count for leaf in leaves)


def check_dtype(t):
    dt = dtype_of(t)
    layout = layout_of(t)
    assert dt.itemsize == layout.size, (t, dt)
    assert dt.alignment == layout.align, (t, dt)
    assert actual_leaves(t, dt) == expected_leaves(t), t
    if isinstance(t, TRecord):
        assert list(dt.names) == [name for name, _ in t.fields]
        assert [dt.fields[n][1] for n in dt.names] == [off for _, off in layout.fields]
    else:
        arms = [f"{name}_v" for name, args in t.ctors if args]
        if arms:
            assert dt.names == ("tag", "data")
            data, offset = dt.fields["data"][:2]
            assert offset == layout.payload_offset
            assert data.itemsize == layout.size - layout.payload_offset
            assert list(data.names) == arms
            for (name, args), arm in zip([c for c in t.ctors if c[1]], arms):
                sub, arm_offset = data.fields[arm][:2]
                assert arm_offset == 0
                if len(args) == 1:  # the argument itself (SPEC §4): its own size
                    assert sub.itemsize == layout_of(args[0]).size if isinstance(args[0], TRecord) \
                        else sub.itemsize == args[0].size
                else:  # a struct of _0, _1… spanning the union, as the header's arms do
                    assert sub.itemsize == data.itemsize and sub.names == tuple(f"_{i}" for i in range(len(args)))
        else:
            assert dt.names == ("tag",)


# --- the seed's pinned values ----------------------------------------------------------------

P = TRecord("p", [("x", TFloat32), ("y", TFloat32)])

WORKED = [
    (P, {"x": 0, "y": 4}, 8, 4),
    (TRecord("r", [("a", TInt32), ("b", TFloat64)]), {"a": 0, "b": 8}, 16, 8),
    (TRecord("r", [("b", TFloat64), ("a", TInt32)]), {"b": 0, "a": 8}, 16, 8),
    (TRecord("r", [("flag", TBool), ("d", TFloat64)]), {"flag": 0, "d": 8}, 16, 8),
    (TRecord("r", [("a", TFloat32), ("inner", TRecord("i", [("b", TFloat32), ("c", TFloat32)]))]),
     {"a": 0, "inner.b": 4, "inner.c": 8}, 12, 4),
    # One argument: the union member is the argument itself (SPEC §4: v.data.Value_v).
    (TVariant("c", [("Red", []), ("Value", [TFloat32])]), {"tag": 0, "data.Value_v": 4}, 8, 4),
    (TVariant("o", [("None_", []), ("Some_", [TFloat64])]), {"tag": 0, "data.Some__v": 8}, 16, 8),
    (TVariant("s", [("Dot", [P]), ("No", [])]), {"tag": 0, "data.Dot_v.x": 4, "data.Dot_v.y": 8}, 12, 4),
    (TVariant("l", [("Nil", []), ("Pair", [TInt32, TFloat64])]),
     {"tag": 0, "data.Pair_v._0": 8, "data.Pair_v._1": 16}, 24, 8),
]


@pytest.mark.parametrize("t, offsets, size, align", WORKED, ids=lambda x: getattr(x, "name", None))
def test_worked_values(t, offsets, size, align):
    dt = dtype_of(t)
    assert {path: off for path, off, _ in dtype_leaves(dt)} == offsets
    assert (dt.itemsize, dt.alignment) == (size, align)
    check_dtype(t)


def test_geometry_member_names_follow_spec_4():
    import sarek_layout as sl

    schema = sl.load(str(EXAMPLES / "geometry.toml"))
    shape = schema.dtype("shape")
    assert shape.names == ("tag", "data")
    # Empty has no arguments, so no arm; records inside arms are nested dtypes.
    assert shape["data"].names == ("Circle_v", "Rect_v", "Weighted_v")
    assert shape["data"]["Rect_v"].names == ("_0", "_1")
    assert shape["data"]["Rect_v"]["_1"].names == ("x", "y")
    assert shape.fields["data"][1] == 8 and shape.itemsize == 24
    particle = schema.dtype("particle")
    assert particle.names == ("id", "mass", "pos", "alive")
    assert particle["pos"] == schema.dtype("point")
    assert particle["alive"] == np.dtype("=i4")  # bool is a 4-byte int, never numpy's bool


# --- every conformance shape, against the layout core ---------------------------------------


def test_conformance_records_against_layout():
    count = 0
    for t in conformance_records():
        check_dtype(t)
        count += 1
    assert count == 780


@pytest.mark.slow
def test_conformance_variants_against_layout():
    count = 0
    for t in conformance_variants():
        check_dtype(t)
        count += 1
    assert count == 30_783


@settings(max_examples=150, deadline=None)
@given(element_types(big=True))
def test_hypothesis_schemas_against_layout(t):
    check_dtype(t)


# --- against the host C compiler ------------------------------------------------------------


def _arm(name, args):
    """A union member of SPEC §4's shape: the argument itself for one, else a struct."""
    if len(args) == 1:
        return f"    {C_TYPE[args[0]]} {name}_v;\n"
    return "    struct { " + "".join(f"{C_TYPE[a]} _{i}; " for i, a in enumerate(args)) + f"}} {name}_v;\n"


def _c_struct(t, c_name):
    """A plain C declaration of ``t`` (x86-64's natural layout is Sarek's), written here
    rather than taken from the generated header, with SPEC §4's member shapes."""
    if isinstance(t, TRecord):
        body = "".join(f"  {C_TYPE[ft]} {name};\n" for name, ft in t.fields)
        return f"typedef struct {{\n{body}}} {c_name};\n"
    arms = "".join(_arm(name, args) for name, args in t.ctors if args)
    data = f"  union {{\n{arms}  }} data;\n" if arms else ""
    return f"typedef struct {{\n  int32_t tag;\n{data}}} {c_name};\n"


@pytest.mark.toolchain("cffi")
def test_dtypes_against_the_c_compiler(tmp_path):
    """780 records and 1,489 variants (all of 1–2 constructors, every 60th of 3) in one build:
    sizeof, _Alignof and offsetof of every leaf equal the dtype's."""
    require_toolchain("cffi")
    types = list(conformance_records())
    for k, v in enumerate(conformance_variants()):
        if len(v.ctors) < 3 or k % 60 == 0:
            types.append(v)
    decls, exprs, expected = [], [], []
    for n, t in enumerate(types):
        c_name = f"T{n}"
        decls.append(_c_struct(t, c_name))
        dt = dtype_of(t)
        exprs += [f"sizeof({c_name})", f"_Alignof({c_name})"]
        expected += [("size", t, dt.itemsize), ("align", t, dt.alignment)]
        for path, offset, _ in dtype_leaves(dt):
            # dtype member paths are C member paths too: data.Pair_v._1, data.Value_v
            exprs.append(f"offsetof({c_name}, {path})")
            expected.append((path, t, offset))
        # A one-argument union member is the argument itself, of its own size (these plain
        # declarations do not pad the other arms to the union, as the headers do).
        for name, args in (t.ctors if isinstance(t, TVariant) else ()):
            if len(args) == 1:
                exprs.append(f"sizeof((({c_name} *)0)->data.{name}_v)")
                expected.append((f"sizeof data.{name}_v", t, dt["data"][f"{name}_v"].itemsize))
    assert len(types) == 780 + 992 + 497
    measured = compile_probe(tmp_path, decls, exprs, "_sarek_dtype_probe")
    wrong = [(what, t, want, got) for (what, t, want), got in zip(expected, measured) if want != got]
    assert not wrong, wrong[:5]
    assert len(measured) == len(expected) > 5000


# --- numpy stays optional -------------------------------------------------------------------


def test_core_works_without_numpy(tmp_path):
    """With numpy unimportable: load, encode, decode, pack and unpack work; dtype explains."""
    script = textwrap.dedent(
        f"""
        import sys
        sys.modules["numpy"] = None  # makes `import numpy` raise ImportError
        import sarek_layout as sl
        s = sl.load({str(EXAMPLES / "geometry.toml")!r})
        v = ("Weighted", (2.5, 7))
        assert s.decode("shape", s.encode("shape", v)) == v
        assert s.unpack("shape", s.pack("shape", [v, v])) == [v, v]
        try:
            s.dtype("shape")
        except ImportError as e:
            assert "pip install" in str(e), e
        else:
            raise SystemExit("dtype() worked without numpy?")
        print("ok")
        """
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_import_does_not_import_numpy():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = ("import sys, sarek_layout as sl, sarek_layout.host; "
            "sl.load; print('numpy' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def _golden_schemas():
    # The cases using SPEC §1b's member kinds come with the Python API's support for them.
    cases = golden_cases(member_kinds=False).values()
    return [[os.path.join(EXAMPLES, "geometry.toml")]] + list(cases)


@pytest.mark.parametrize("paths", _golden_schemas(), ids=lambda p: os.path.basename(os.path.dirname(p[0])))
def test_a_schema_types_dtype_is_read_from_its_member_model(paths):
    # HostSchema.dtype reads the resolver's member model; a bare elttype's dtype reads the
    # model host.model builds for it. Both must equal each other and the layout core's leaves.
    import sarek_layout as sl
    from sarek_layout.resolve import load_schema

    schema = load_schema(paths)
    api = sl.load(paths)
    assert schema.types
    for st in (st for st in schema.types if not st.is_enum):  # an enum is a member's type
        assert dtype_of(st) == dtype_of(st.elttype) == api.dtype(st.c_name), st.qualified_name
        assert dtype_of(st).itemsize == st.size
        if not _repeats(st.elttype):
            # A repeated member's sub-array dtype is judged against gcc's and a shader's bytes
            # in test_host_kinds; this leaf-by-leaf walk knows single leaves only.
            check_dtype(st.elttype)
