"""The Python host with the member kinds of SPEC §1b (fixed arrays, vectors, matrices, enums)
under every rule set: the value forms the API codecs, their fast path and the generated
module take and give, the refusals (naming the element), numpy's sub-array dtypes, and the
work of planning, which grows with members, never with element counts.

The bytes are judged against gcc in test_host_kinds_c.py; here the three Python paths are
held to each other and to the values they were given.
"""

from __future__ import annotations

import enum
import json
import os
import struct
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sarek_layout as sl
from helpers.host import import_file, py_attr
from kinds_cases import (RULES, Types, build, expected, generated, is_text, kind_types,
                         values, variant_values)
from sarek_layout.codegen import render_headers
from sarek_layout.host import EncodeError, DecodeError, codec_of, dtype_of
from sarek_layout.ir.types import (TEnum, TFixedArray, TFloat32, TInt32, TMatrix, TRecord,
                                   TUint8, TVector)
from test_host_python_target import generate, import_modules

PARTICLES = {"module": "Sim", "rules": "std430", "types": [
    {"enum": "material", "base": "uint8", "values": [["Lambert", 0], ["Metal", 1], ["Glass", 7],
                                                      ["None", 9]]},
    {"record": "particle", "fields": [
        ["pos", "vec3<float32>"], ["mass", "float32"], ["color", "float32[4]"],
        ["m", "mat2x3<float32>"], ["mat", "material"], ["hist", "int32[2][3]"],
        ["pts", "vec3<float32>[2]"], ["mats", "material[3]"], ["alive", "bool[2]"]]},
    {"variant": "event", "constructors": [["Hit", ["vec4<float32>", "material"]],
                                          ["Trail", ["vec2<int16>[2]"]], ["Quit"]]}]}


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kinds")
    (tmp / "sim.json").write_text(json.dumps(PARTICLES))
    schema = sl.load(str(tmp / "sim.json"))
    files = generate(tmp, str(tmp / "sim.json"))
    return schema, import_file(files["sim_layout.py"], "sim_layout"), str(tmp / "sim.json")


def particle(**change):
    value = {"pos": [1.0, 2.0, 3.0], "mass": 4.0, "color": (0.5, 0.25, 1.0, 0.0),
             "m": [[1, 2, 3], [4, 5, 6]], "mat": "Metal", "hist": [[1, 2, 3], [4, 5, 6]],
             "pts": [[7, 8, 9], [10, 11, 12]], "mats": ["Glass", 0, 9], "alive": [True, False]}
    value.update(change)
    return value


READ_BACK = {"pos": (1.0, 2.0, 3.0), "mass": 4.0, "color": (0.5, 0.25, 1.0, 0.0),
             "m": ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0)), "mat": 1, "hist": ((1, 2, 3), (4, 5, 6)),
             "pts": ((7.0, 8.0, 9.0), (10.0, 11.0, 12.0)), "mats": (7, 0, 9),
             "alive": (True, False)}


def as_object(module, value):
    return module.Sim_particle(**value)


# --- value forms ------------------------------------------------------------------------------


def test_sequences_numpy_arrays_and_enum_forms_give_the_same_bytes(sim):
    np = pytest.importorskip("numpy")
    schema, module, _ = sim
    api_enum = schema.enum("material")
    data = schema.encode("particle", particle())
    forms = [
        particle(pos=(1, 2, 3), color=np.array([0.5, 0.25, 1, 0], dtype=np.float32)),
        particle(m=np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float64)),  # shape (C, R)
        particle(hist=np.arange(1, 7, dtype=np.int32).reshape(2, 3), alive=np.array([True, False])),
        particle(pts=[np.array([7, 8, 9]), (10, 11, 12)]),  # numpy rows inside a list
        particle(mat=api_enum.Metal, mats=[api_enum.Glass, api_enum.Lambert, api_enum["None_"]]),
        particle(mat=1, mats=(module.Sim_material.Glass, "Lambert", "None")),
        particle(mat=enum.IntEnum("Other", [("X", 1)]).X),  # any integer that is a value
    ]
    for value in forms:
        assert schema.encode("particle", value) == data
        assert schema.codec("particle")._encode_slow(value) == data
        assert module.encode_Sim_particle(as_object(module, value)) == data
    # The matrix is its columns, as in memory: m[col][row], the columns 16 bytes apart
    # (std430's vec3 column stride, SPEC §1b).
    at = dict(schema.type("particle").layout.fields)["m"]
    assert struct.unpack_from("=3f", data, at) == (1, 2, 3)
    assert struct.unpack_from("=3f", data, at + 16) == (4, 5, 6)


def test_decoding_gives_tuples_and_enum_members(sim):
    schema, module, _ = sim
    data = schema.encode("particle", particle())
    value = schema.decode("particle", data)
    assert value == READ_BACK
    assert value["mat"] is schema.enum("material").Metal
    assert [type(x) for x in value["mats"]] == [schema.enum("material")] * 3
    assert schema.encode("particle", value) == data
    obj = module.decode_Sim_particle(data)
    assert obj == module.Sim_particle(**READ_BACK)
    assert obj.mats[2] is module.Sim_material.None_ and obj.mats[2].name == "None_"
    assert module.encode_Sim_particle(obj) == data
    hit = ("Hit", ([1, 2, 3, 4], "Glass"))
    back = schema.decode("event", schema.encode("event", hit))
    assert back == ("Hit", ((1.0, 2.0, 3.0, 4.0), 7))
    assert module.encode_Sim_event(module.Sim_event_Hit((1, 2, 3, 4), 7)) == schema.encode("event", hit)
    assert module.decode_Sim_event(schema.encode("event", hit)) == module.Sim_event_Hit((1.0, 2.0, 3.0, 4.0), module.Sim_material.Glass)


def test_the_enum_classes(sim):
    schema, module, path = sim
    for cls in (schema.enum("material"), module.Sim_material):
        assert issubclass(cls, enum.IntEnum)
        assert [(m.name, m.value) for m in cls] == [("Lambert", 0), ("Metal", 1), ("Glass", 7),
                                                    ("None_", 9)]
    # One class per enum: a schema loaded again shares it (as it shares the codecs).
    assert sl.load(path).enum("Sim.material") is schema.enum("material")
    with pytest.raises(TypeError, match="not an enum"):
        schema.enum("particle")
    with pytest.raises(TypeError, match="is an enum"):
        schema.codec("material")


BAD = [
    ("color", [1, 2, 3], "color", "expected a sequence of 4, got 3 items"),
    ("color", 1.0, "color", "expected a sequence of 4 (a list, a tuple or a numpy array), got 1.0"),
    ("color", "abcd", "color", "expected a sequence of 4"),
    ("hist", [[1, 2, 3], [4, 5]], "hist[1]", "expected a sequence of 3, got 2 items"),
    ("hist", [[1, 2, 3], 4], "hist[1]", "expected a sequence of 3"),
    ("hist", [[1, 2, 3], [4, 5, 2**40]], "hist[1][2]", "is out of range for int32"),
    ("m", [[1, 2, 3], [4, 5, "x"]], "m[1][2]", "expected a number (float32), got 'x'"),
    ("pts", [[1, 2, 3]], "pts", "expected a sequence of 2, got 1 item;"),
    ("mat", 2, "mat", "2 is not a value of Sim.material (Lambert = 0, Metal = 1, Glass = 7, None = 9)"),
    ("mat", "Gold", "mat", "'Gold' is not a value name of Sim.material"),
    ("mat", 1.0, "mat", "expected a value of Sim.material (a member, a value name or an integer), got 1.0"),
    ("mat", True, "mat", "expected a value of Sim.material"),
    ("mats", [0, 1, 300], "mats[2]", "300 is not a value of Sim.material"),
    ("alive", [True, 1], "alive[1]", "expected a bool, got 1"),
]


@pytest.mark.parametrize("member, bad, field, problem", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_values_are_refused_naming_the_element(sim, member, bad, field, problem):
    schema, module, _ = sim
    value = particle(**{member: bad})
    refusals = []
    for encode in (lambda: schema.encode("particle", value),
                   lambda: schema.codec("particle")._encode_slow(value),
                   lambda: module.encode_Sim_particle(as_object(module, value))):
        with pytest.raises(ValueError) as caught:
            encode()
        refusals.append(caught.value)
    assert isinstance(refusals[0], EncodeError) and isinstance(refusals[2], module.EncodeError)
    for e in refusals:
        assert e.type_name == "Sim.particle" and e.field == field, str(e)
        assert problem in e.problem, str(e)
    assert str(refusals[0]) == str(refusals[1]) == str(refusals[2])


def test_bytes_that_hold_no_enum_value_are_refused(sim):
    schema, module, _ = sim
    data = bytearray(schema.encode("particle", particle()))
    offset = dict(schema.type("particle").layout.fields)["mats"]
    data[offset + 1] = 5
    message = "holds no value of its type: mats[1]: 5 is not a value of Sim.material"
    for decode in (lambda: schema.decode("particle", data), lambda: module.decode_Sim_particle(data)):
        with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
            decode()
    good = schema.encode("particle", particle())
    for unpack in (lambda: schema.unpack("particle", good + bytes(data)),
                   lambda: module.unpack_Sim_particle(good + bytes(data))):
        with pytest.raises(ValueError, match="the element at offset 144 holds no value"):
            unpack()
    with pytest.raises(DecodeError):
        schema.decode("particle", data)


def test_numpy_dtype_has_sub_arrays_and_padded_elements(sim):
    np = pytest.importorskip("numpy")
    schema, _, _ = sim
    dt = schema.dtype("particle")
    fields = {name: (f[0], f[1]) for name, f in dt.fields.items()}
    assert fields["color"][0] == np.dtype(("=f4", (4,)))
    assert fields["m"][0].shape == (2,) and fields["m"][0].base.names == ("v",)  # std430 mat2x3: column 16
    assert fields["hist"][0] == np.dtype(("=i4", (2, 3)))
    assert fields["mat"][0] == np.dtype("u1") and fields["mats"][0] == np.dtype(("u1", (3,)))
    assert fields["pts"][0].base.itemsize == 16 and fields["pts"][0].shape == (2,)
    assert dt.itemsize == schema.size("particle")
    for name, offset in schema.type("particle").layout.fields:
        assert fields[name][1] == offset
    rows = np.frombuffer(schema.pack("particle", [particle(), particle(mass=-1.0)]), dt)
    assert rows["pts"]["v"][1].tolist() == [[7, 8, 9], [10, 11, 12]]
    assert rows["m"]["v"][0].tolist() == [[1, 2, 3], [4, 5, 6]]
    assert rows["hist"][0].tolist() == [[1, 2, 3], [4, 5, 6]] and rows["mass"][1] == -1.0
    assert rows["mats"][0].tolist() == [7, 0, 9]
    ev = schema.dtype("event")
    assert ev.fields["data"][0].fields["Trail_v"][0] == np.dtype(("=i2", (2, 2)))


# --- the three paths agree, on random schemas of every kind and rule set --------------------


def _bad_variants(types: Types, name: str, value):
    """Values of record ``name`` with one member made wrong: a repeated member one item
    short, a text one byte too long, an enum member an integer that is no value of it."""
    out = []
    for f, kind in types.records[name]:
        if is_text(kind):
            out.append((f, b"x" * (kind[2] + 1)))
        elif kind[0] in ("vec", "mat", "array"):
            out.append((f, value[f][:-1]))
        elif kind[0] == "enum":
            base, pairs = types.enums[kind[1]]
            used = {v for _, v in pairs}
            out.append((f, next(v for v in range(-1, 7) if v not in used)))
    return out


def _elements_at_their_strides(st, value, data: bytes, types: Types) -> None:
    """Every scalar element of every repeated scalar member lies at the member's offset plus
    its indices times the strides of ``Member.dims`` (the layout's, judged against the
    compilers in tests/layout), in the format of the tests' own table."""
    from helpers.host import FORMAT

    kinds = dict(types.records[st.name])
    for m in st.members:
        kind = kinds[m.name]
        if not m.dims or m.scalar is None or m.scalar.name == "char":
            continue
        want = expected(kind, value[m.name], types)
        fmt = "=" + FORMAT[m.scalar]

        def walk(v, level, at):
            if level == len(m.dims):
                got = struct.unpack_from(fmt, data, at)[0]
                assert got == (0 if v is None else int(v) if isinstance(v, bool) else v), (m.name, at)
                return
            for i, item in enumerate(v):
                walk(item, level + 1, at + i * m.dims[level].stride)

        walk(want, 0, m.offset)


def _check_paths_agree(types: Types, rules: str, tmp, data):
    (tmp / "k.json").write_text(json.dumps(types.schema(rules)))
    schema = sl.load(str(tmp / "k.json"))
    module = import_file(generate(tmp, str(tmp / "k.json"))["k_layout.py"], f"k_layout_{id(tmp)}")
    for name in types.records:
        kind = ("struct", name)
        value = data.draw(values(kind, types))
        codec = schema.codec(name)
        encoded = codec.encode(value)
        assert codec._encode_slow(value) == encoded
        assert getattr(module, f"encode_K_{name}")(generated(module, kind, value, types)) == encoded
        want = expected(kind, value, types)
        _elements_at_their_strides(schema.type(name), value, encoded, types)
        assert codec.decode(encoded) == want
        assert getattr(module, f"decode_K_{name}")(encoded) == generated(module, kind, want, types)
        for f, bad in _bad_variants(types, name, value):
            wrong = dict(value, **{f: bad})
            with pytest.raises(EncodeError) as api:
                codec.encode(wrong)
            with pytest.raises(module.EncodeError) as gen:
                getattr(module, f"encode_K_{name}")(generated(module, kind, wrong, types))
            assert api.value.field == gen.value.field and api.value.field.startswith(f)
    for name, ctors in types.variants.items():
        value = data.draw(variant_values(types, name))
        codec = schema.codec(name)
        encoded = codec.encode(value)
        assert codec._encode_slow(value) == encoded
        ctor, args = value
        kinds = dict(ctors)[ctor]
        obj = getattr(module, f"K_{name}_{ctor}")(*[generated(module, k, a, types) for k, a in zip(kinds, args)])
        assert getattr(module, f"encode_K_{name}")(obj) == encoded
        assert codec.decode(encoded) == (ctor, tuple(expected(k, a, types) for k, a in zip(kinds, args)))
    np = pytest.importorskip("numpy")
    for name in list(types.records) + list(types.variants):
        try:
            assert dtype_of(schema.type(name)).itemsize == schema.size(name)
        except ValueError as e:  # an array's last element unpadded, at the record's end
            assert rules in ("scalar", "hlsl-cbuffer") and "numpy cannot describe" in str(e)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(types=kind_types(), rules=st.sampled_from(RULES), data=st.data())
def test_api_fast_path_slow_path_and_generated_module_agree(tmp_path_factory, types, rules, data):
    _check_paths_agree(types, rules, tmp_path_factory.mktemp("hyp"), data)


@pytest.mark.parametrize("rules", ["std140", "wgsl-uniform"])
def test_a_variant_without_arguments_under_rounding_rules_is_its_size(tmp_path, rules):
    """Found by the hypothesis test above: a variant of constant constructors that the rules
    round up (std140: 16 bytes) has the bytes after its tag as a hole of the element and as
    each constructor's unused payload; the codecs and the generated module counted them
    twice (28 bytes). gcc measures the generated header's struct at the size the codecs must
    give."""
    from helpers.common import require_toolchain
    from sarek_layout.verify import AGREES
    from sarek_layout.verify.run import verify_schema

    path = tmp_path / "k.toml"
    path.write_text(f'module = "K"\nrules = "{rules}"\n[[types]]\nvariant = "v"\n'
                    'constructors = [["C0"], ["C1"]]\n')
    schema = sl.load(str(path))
    require_toolchain("gcc")
    (result,) = verify_schema(schema.schema, toolchains=["gcc"]).results
    assert result.status == AGREES, result.error
    size = schema.size("v")
    assert size > 4  # the rounding this test is about
    codec = schema.codec("v")
    assert len(codec.encode(("C1", ()))) == len(codec._encode_slow(("C1", ()))) == size
    assert codec.decode(codec.encode(("C1", ()))) == ("C1", ())
    assert dtype_of(schema.type("v")).itemsize == size
    files = generate(tmp_path, str(path))
    (module,) = import_modules(tmp_path, files, "k_layout")
    assert module.encode_K_v(module.K_v_C1()) == codec.encode(("C1", ()))


# --- bare elttypes -----------------------------------------------------------------------------


def test_codec_of_and_dtype_of_take_elttypes_with_kinds_and_rules():
    material = TEnum("material", TUint8, (("A", 0), ("B", 5)))
    point = TRecord("point", [("x", TFloat32)], "std430")
    r = TRecord("r", [("a", TFixedArray(TFloat32, 4)), ("v", TVector(TFloat32, 3)), ("n", TInt32),
                      ("e", material), ("ps", TFixedArray(point, 2)), ("m", TMatrix(TFloat32, 3, 3))],
                "std430")
    codec = codec_of(r)
    value = {"a": [1, 2, 3, 4], "v": (1, 2, 3), "n": 5, "e": "B", "ps": [{"x": 1}, {"x": 2}],
             "m": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}
    data = codec.encode(value)
    assert codec.decode(data)["m"] == ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0), (7.0, 8.0, 9.0))
    assert codec.decode(data)["e"] == 5 and codec.decode(data)["ps"] == ({"x": 1.0}, {"x": 2.0})
    assert len(data) == codec.size == dtype_of(r).itemsize
    # The rule set is part of the codec's key: the same fields under c and std140 differ.
    std140 = TRecord("f", [("a", TFixedArray(TFloat32, 4))], "std140")
    plain = TRecord("f", [("a", TFixedArray(TFloat32, 4))])
    assert (codec_of(std140).size, codec_of(plain).size) == (64, 16)


# --- linear in members, never in elements -------------------------------------------------------


def test_planning_a_huge_array_costs_what_a_small_one_costs(tmp_path):
    """Codec (with its compiled fast functions), dtype and generated module of a record with
    a ``float32[100000002]``, a std430 ``vec3<float32>[1002][1002]`` (elements padded to 16)
    and a ``point[1000002]``, and a variant holding an ``int32[100000002]``: the same calls
    as with 10002, 2 and 2. (The counts are 2 plus a multiple of 4 or 16, so all the
    records have the same holes.)"""
    pytest.importorskip("numpy")
    from helpers.bounded import python_calls
    from sarek_layout.host import codec as codec_module
    from sarek_layout.host import plan as plan_module
    from sarek_layout.resolve import load_schema

    def work(big, grid, pts):
        path = tmp_path / f"h{big}.json"
        path.write_text(json.dumps({"module": "H", "rules": "std430", "types": [
            {"record": "point", "fields": [["x", "float32"]]},
            {"record": "r", "fields": [["big", f"float32[{big}]"],
                                       ["grid", f"vec3<float32>[{grid}][{grid}]"],
                                       ["pts", f"point[{pts}]"]]},
            {"variant": "v", "constructors": [["A", [f"int32[{big}]"]]]}]}))
        schema = load_schema([str(path)])

        def run():
            plan_module._PLANS.clear()
            codec_module._CODECS.clear()  # a fresh codec each run: the name is not cached yet
            for t in (schema.by_c_name("H_r"), schema.by_c_name("H_v")):
                codec_of(t, f"H.{t.name}")
                dtype_of(t)
            render_headers(schema, ["python"])
        return python_calls(run)

    counts = []
    for sizes in ((10_006, 6, 6), (10_002, 2, 2), (1_000_002, 10, 1002), (100_000_002, 1002, 1_000_002)):
        counts.append(work(*sizes))
    # The first run fills the caches every run shares. (Each record holds over 10,000
    # scalars, so that every module pauses the garbage collector when decoding.)
    assert counts[1] == counts[2] == counts[3], counts


PACKAGE = os.path.dirname(sl.__file__)


def _lines(fn) -> int:
    """How many lines of the package, the codes it compiles and the generated modules
    ``fn()`` runs (what runs in C is not counted, nor a test library's collector callback)."""
    lines = 0

    def trace(frame, event, arg):
        nonlocal lines
        name = frame.f_code.co_filename
        if event == "line" and (name.startswith(PACKAGE) or name.startswith("<sarek")
                                or name.endswith("_layout.py")):
            lines += 1
        return trace

    sys.settrace(trace)
    try:
        fn()
    finally:
        sys.settrace(None)
    return lines


@pytest.mark.parametrize("rules, element, item", [
    ("c", "float32", [1.5]), ("std430", "vec3<float32>", [[1, 2, 3]]),
    ("std140", "float32", [2.5]), ("std430", "material", ["B"]), ("c", "bool", [True])])
def test_an_array_is_packed_and_read_with_repeat_counts(tmp_path, rules, element, item):
    """Encoding and decoding a 2048-element array runs the same Python lines as a 16-element
    one (the fast path, the checking path, the generated module): the elements go through ``struct`` formats
    with repeat counts (``2048f``, rows of ``3f4x``) and C-level maps, never one Python step
    per element."""
    def schema_of(n):
        path = tmp_path / f"a{n}.json"
        path.write_text(json.dumps({"module": "A", "rules": rules, "types": [
            {"enum": "material", "values": [["A", 0], ["B", 1]]},
            {"record": "r", "fields": [["n", "int32"], ["a", f"{element}[{n}]"]]}]}))
        schema = sl.load(str(path))
        module = import_file(generate(tmp_path, str(path))[f"a{n}_layout.py"], f"a{n}_{rules}_layout")
        return schema.codec("r"), module

    counts = []
    for n in (16, 2048):  # both below the 10,000 scalars that pause the collector
        codec, module = schema_of(n)
        value = {"n": 1, "a": item * n}
        data = codec.encode(value)
        obj = module.A_r(**value)
        assert module.encode_A_r(obj) == data
        assert codec._encode_slow(value) == data
        counts.append((_lines(lambda: codec.encode(value)), _lines(lambda: codec.decode(data)),
                       _lines(lambda: codec._encode_slow(value)),
                       _lines(lambda: module.encode_A_r(obj)), _lines(lambda: module.decode_A_r(data))))
    assert counts[0] == counts[1]
    if rules == "c" and element == "float32":
        assert codec.struct.format == "=i2048f"


# --- the generated module: across modules, names, mypy -----------------------------------------


BASE = {"module": "Base", "types": [
    {"enum": "kind", "base": "int16", "values": [["from", -1], ["mro", 2], ["name", 3]]},
    {"record": "pt", "fields": [["x", "float32"], ["k", "kind"]]}]}
SCENE = {"module": "Scene", "rules": "c", "types": [
    {"record": "cloud", "fields": [["pts", "Base.pt[3]"], ["kinds", "Base.kind[2][2]"],
                                   ["m", "mat4"]]},
    {"variant": "ev", "constructors": [["Many", ["Base.pt[2]", "Base.kind"]], ["None"]]}]}


def test_enums_and_arrays_of_records_across_modules(tmp_path):
    """A module uses another's enum (its class and its checks are imported) and arrays of
    its records (packed by its encoder); value names that are Python keywords or class
    attributes are escaped in the class and accepted by their schema names."""
    (tmp_path / "base.json").write_text(json.dumps(BASE))
    (tmp_path / "scene.json").write_text(json.dumps(SCENE))
    paths = (str(tmp_path / "base.json"), str(tmp_path / "scene.json"))
    schema = sl.load(*paths)
    files = generate(tmp_path, *paths)
    base, scene = import_modules(tmp_path, files, "base_layout", "scene_layout")
    assert [m.name for m in base.Base_kind] == ["from_", "mro_", "name_"]
    value = {"pts": [{"x": 1, "k": "from"}, {"x": 2, "k": "mro"}, {"x": 3, "k": 3}],
             "kinds": [["name", -1], [2, "from"]], "m": [[float(i + 4 * j) for i in range(4)] for j in range(4)]}
    data = schema.encode("cloud", value)
    obj = scene.Scene_cloud([base.Base_pt(1, base.Base_kind.from_), base.Base_pt(2, "mro"), base.Base_pt(3, 3)],
                            [[base.Base_kind.name_, -1], (2, "from")], value["m"])
    assert scene.encode_Scene_cloud(obj) == data
    back = scene.decode_Scene_cloud(data)
    assert back.pts[1] == base.Base_pt(2.0, base.Base_kind.mro_) and back.kinds[0][0] is base.Base_kind.name_
    assert scene.DIMS_Scene_cloud["m"] == ((4, 16), (4, 4))
    assert scene.OFFSETS_Scene_cloud["kinds"] == dict(schema.type("cloud").layout.fields)["kinds"]
    many = ("Many", ([{"x": 1, "k": 2}, {"x": 2, "k": 3}], "name"))
    assert scene.encode_Scene_ev(scene.Scene_ev_Many([base.Base_pt(1, 2), base.Base_pt(2, 3)], 3)) == \
        schema.encode("ev", many)
    with pytest.raises(scene.EncodeError, match=r"field 'pts\[1\]\.k': 7 is not a value of Base\.kind"):
        scene.encode_Scene_cloud(dataclasses_replace(obj, pts=[base.Base_pt(1, 2), base.Base_pt(2, 7), base.Base_pt(3, 3)]))
    with pytest.raises(EncodeError, match=r"field 'pts\[1\]\.k': 7 is not a value of Base\.kind"):
        schema.encode("cloud", dict(value, pts=[{"x": 1, "k": 2}, {"x": 2, "k": 7}, {"x": 3, "k": 3}]))


def dataclasses_replace(obj, **change):
    import dataclasses

    return dataclasses.replace(obj, **change)


def test_two_value_names_that_escape_to_one_are_refused(tmp_path):
    (tmp_path / "c.json").write_text(json.dumps({"module": "C", "types": [
        {"enum": "e", "values": [["from", 0], ["from_", 1]]},
        {"record": "r", "fields": [["e", "e"]]}]}))
    with pytest.raises(sl.SchemaError, match="enum 'C.e' has values 'from' and 'from_'"):
        generate(tmp_path, str(tmp_path / "c.json"))


def test_generated_modules_with_kinds_are_mypy_clean(tmp_path):
    pytest.importorskip("mypy", reason="mypy not installed: pip install mypy")
    import subprocess

    for name, doc in (("sim", PARTICLES), ("base", BASE), ("scene", SCENE)):
        (tmp_path / f"{name}.json").write_text(json.dumps(doc))
    files = {}
    files.update(generate(tmp_path, str(tmp_path / "sim.json")))
    files.update(generate(tmp_path, str(tmp_path / "base.json"), str(tmp_path / "scene.json")))
    (tmp_path / "txt.json").write_text(json.dumps({"module": "Txt", "types": [
        {"record": "r", "fields": [["name", "char[8]"], ["tags", "char[2][4]"]]}]}))
    files.update(generate(tmp_path, str(tmp_path / "txt.json")))
    for rules in RULES:
        name = rules.replace("-", "_")
        doc = dict(PARTICLES, module=f"Sim_{name}", rules=rules)
        (tmp_path / f"sim_{name}.json").write_text(json.dumps(doc))
        files.update(generate(tmp_path, str(tmp_path / f"sim_{name}.json")))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, files.values())],
        cwd=str(tmp_path), capture_output=True, text=True,
        env={k: v for k, v in os.environ.items() if k != "MYPYPATH"})
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_generate_python_takes_the_kinds(tmp_path, capsys):
    """``generate -t python`` writes the module of a schema with kinds (it refused them)."""
    from sarek_layout.cli.main import main

    (tmp_path / "sim.json").write_text(json.dumps(PARTICLES))
    assert main(["generate", str(tmp_path / "sim.json"), "-o", str(tmp_path / "out"), "-t", "python"]) == 0
    module = import_file(tmp_path / "out" / "sim_layout.py", "sim_cli_layout")
    value = module.Sim_particle(**particle(mat=module.Sim_material.Metal))
    assert module.decode_Sim_particle(module.encode_Sim_particle(value)) == module.Sim_particle(**READ_BACK)


@pytest.mark.parametrize("rules", ["c", "std140"])
def test_a_char_array_is_bytes(tmp_path, rules):
    """``char[N]`` (SPEC §1b, from C's ``char name[32]``) is one ``bytes`` of at most N
    bytes, zero-padded; it decodes without its trailing zero bytes (as numpy's ``S8``
    reads it); ``char[2][4]`` is two of them. Under std140 each byte is 16 bytes apart."""
    np = pytest.importorskip("numpy")
    (tmp_path / "t.json").write_text(json.dumps({"module": "T", "rules": rules, "types": [
        {"record": "r", "fields": [["name", "char[8]"], ["n", "int32"], ["tags", "char[2][4]"]]}]}))
    schema = sl.load(str(tmp_path / "t.json"))
    module = import_file(generate(tmp_path, str(tmp_path / "t.json"))["t_layout.py"], f"t_{rules}_layout")
    value = {"name": b"ab\0c", "n": 7, "tags": [bytearray(b"xyz"), b""]}
    data = schema.encode("r", value)
    assert module.encode_T_r(module.T_r(**value)) == data == schema.codec("r")._encode_slow(value)
    want = {"name": b"ab\0c", "n": 7, "tags": (b"xyz", b"")}
    assert schema.decode("r", data) == want and module.decode_T_r(data) == module.T_r(**want)
    at = dict(schema.type("r").layout.fields)
    stride = 1 if rules == "c" else 16
    assert data[at["name"]:at["name"] + 8 * stride:stride] == b"ab\0c\0\0\0\0"
    row = np.frombuffer(data, schema.dtype("r"))[0]
    if rules == "c":
        assert schema.dtype("r").fields["name"][0] == np.dtype("S8")
        assert row["name"] == b"ab\0c" and row["tags"].tolist() == [b"xyz", b""]
    for bad, field, problem in (("abc", "name", "expected bytes of at most 8 bytes (char[8]), got 'abc' (str) (encode a str first"),
                                (b"123456789", "name", "9 bytes do not fit char[8]")):
        for encode in (lambda: schema.encode("r", dict(value, name=bad)),
                       lambda: module.encode_T_r(module.T_r(**dict(value, name=bad)))):
            with pytest.raises(ValueError) as e:
                encode()
            assert e.value.field == field and problem in e.value.problem
    with pytest.raises(EncodeError, match=r"field 'tags\[1\]': 5 bytes do not fit char\[4\]"):
        schema.encode("r", dict(value, tags=[b"", b"12345"]))


@pytest.mark.parametrize("rules, spelling", [
    ("wgsl-uniform", "mat3x3<float16>[2]"),  # rows of three 8-byte columns, padded to 32
    ("hlsl-cbuffer", "float32[3]"),          # 16 apart, the last one unpadded
    ("hlsl-cbuffer", "int32[1]"),            # one element: no stride to keep
    ("hlsl-cbuffer", "vec3<float32>[2][2]"),
    ("scalar", "vec3<float16>[3][2]"),
    ("std140", "mat2x3<float64>[2]"),
])
def test_padded_levels_of_every_rule_set(tmp_path, rules, spelling):
    """Elements land at the member's offset plus the strides of its dims, through the API
    and the generated module, and read back."""
    types = Types(records={"r": [("a", _parse_kind(spelling)), ("b", ("scalar", "int8"))]})
    (tmp_path / "k.json").write_text(json.dumps(types.schema(rules)))
    schema = sl.load(str(tmp_path / "k.json"))
    module = import_file(generate(tmp_path, str(tmp_path / "k.json"))["k_layout.py"], f"k_{id(tmp_path)}")
    value = build(("struct", "r"), types, [0])
    data = schema.encode("r", value)
    _elements_at_their_strides(schema.type("r"), value, data, types)
    assert module.encode_K_r(generated(module, ("struct", "r"), value, types)) == data
    assert schema.decode("r", data) == expected(("struct", "r"), value, types)


def _parse_kind(spelling: str):
    """``mat3x3<float16>[2]`` as a kind tuple (the few spellings the test above uses)."""
    base, _, rest = spelling.partition("[")
    counts = [int(n) for n in rest.rstrip("]").split("][")] if rest else []
    if base.startswith("mat"):
        shape, scalar = base[3:].split("<")
        cols, rows = shape.split("x")
        kind = ("mat", int(cols), int(rows), scalar.rstrip(">"))
    elif base.startswith("vec"):
        n, scalar = base[3:].split("<")
        kind = ("vec", int(n), scalar.rstrip(">"))
    else:
        kind = ("scalar", base)
    for n in reversed(counts):
        kind = ("array", kind, n)
    return kind
