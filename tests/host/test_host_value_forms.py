"""The value forms the host codecs accept, held to one definition (issue #12):

- a record mapping must have exactly the field names as keys (an unknown key is a typo
  refused with a suggestion, never dropped); an object is read by attribute, extra
  attributes are fine;
- a variant's arguments are a tuple or a list of the constructor's arity, nothing else;
- offsets are never negative (``struct.unpack_from`` would count them from the end);
- the fast, specialised encoders never accept what the slow, checking walk refuses, and
  give the same bytes (a property test over random types and malformed values);
- the generated standalone module and the API agree on the same hostile values.
"""

from __future__ import annotations

import collections
import dataclasses
import struct
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sarek_layout as sl
from helpers.common import EXAMPLES
from sarek_layout.codegen import render_headers
from sarek_layout.host import DecodeError, EncodeError, codec_of
from sarek_layout.ir.types import TRecord, TVariant
from helpers.host import element_types, import_file, values_of


@pytest.fixture(scope="module")
def geo():
    return sl.load(str(EXAMPLES / "geometry.toml"))


@pytest.fixture(scope="module")
def gen(tmp_path_factory):
    """The generated standalone module of the same example."""
    tmp = tmp_path_factory.mktemp("forms")
    (f,) = render_headers(sl.load(str(EXAMPLES / "geometry.toml")).schema, ["python"])
    (tmp / f.filename).write_text(f.text)
    return import_file(tmp / f.filename, "geometry_forms_layout")


class AttrDict(dict):
    """A dict whose keys read as attributes too (EasyDict, munch…): still a mapping."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


PARTICLE = {"id": 7, "mass": 2.5, "pos": {"x": 1.0, "y": 2.0}, "alive": True}


# --- 1. unknown keys ------------------------------------------------------------------------


@pytest.mark.parametrize("name, value, message", [
    ("point", {"x": 1.0, "yy": 2.0}, "cannot encode Geometry.point: unknown key 'yy' (did you mean 'y'?)"),
    ("point", {"x": 1.0, "y": 2.0, "z": 3.0}, "cannot encode Geometry.point: unknown key 'z'; the fields of 'point' are x, y"),
    ("point", {"x": 1.0, "y": 2.0, "z": 3.0, 0: 1}, "unknown keys 'z', 0"),
    ("particle", {**PARTICLE, "pos": {"x": 1.0, "y": 2.0, "w": 0.0}}, "Geometry.particle, field 'pos': unknown key 'w'"),
    ("particle", {**PARTICLE, "mas": 1.0}, "unknown key 'mas' (did you mean 'mass'?)"),
    ("particle", {**PARTICLE, "extra": 1}, "Geometry.particle: unknown key 'extra'"),
    ("shape", ("Circle", ({"x": 1.0, "y": 2.0, "z": 0.0}, 3.0)), "Geometry.shape, field 'Circle._0': unknown key 'z'"),
    ("point", types.MappingProxyType({"x": 1.0, "y": 2.0, "z": 3.0}), "unknown key 'z'"),
    ("point", collections.OrderedDict(x=1.0, y=2.0, z=3.0), "unknown key 'z'"),
    ("point", AttrDict(x=1.0, y=2.0, z=3.0), "unknown key 'z'"),
    # A defaultdict or a Counter answers any key: a typo must not be read as the default.
    ("point", collections.defaultdict(float, x=1.0, yy=2.0), "unknown key 'yy' (did you mean 'y'?)"),
    ("point", collections.Counter(x=1, yy=2), "unknown key 'yy' (did you mean 'y'?)"),
])
def test_unknown_keys_are_refused(geo, name, value, message):
    with pytest.raises(EncodeError) as info:
        geo.encode(name, value)
    assert message in str(info.value), str(info.value)
    valid = {"point": {"x": 1.0, "y": 2.0}, "particle": PARTICLE, "shape": ("Empty", ())}[name]
    with pytest.raises(EncodeError, match=r"\(element 1\)"):
        geo.pack(name, [valid, value])


def test_objects_may_carry_extra_attributes(geo):
    """Only mappings are checked for unknown keys: an object of another type may hold more."""

    @dataclasses.dataclass
    class Body:
        id: int
        mass: float
        pos: object
        alive: bool
        label: str = "extra"

    expected = geo.encode("particle", PARTICLE)
    pos = types.SimpleNamespace(x=1.0, y=2.0, z=-1.0)
    assert geo.encode("particle", Body(7, 2.5, pos, True)) == expected
    assert geo.pack("particle", [Body(7, 2.5, pos, True)] * 2) == expected * 2
    assert geo.encode("point", types.SimpleNamespace(x=1.0, y=2.0, z=3.0)) == geo.encode("point", {"x": 1.0, "y": 2.0})


# --- 2. one definition of a variant's arguments ---------------------------------------------


@pytest.mark.parametrize("value, message", [
    (("Weighted", {0: 1.0, 1: 2}), "arguments must be a tuple (or a list) of 2"),
    (("Empty", ""), "arguments must be a tuple (or a list) of 0"),
    (("Weighted", "ab"), "arguments must be a tuple"),
    (("Circle", {0: {"x": 1.0, "y": 2.0}, 1: 3.0}), "arguments must be a tuple"),
    ({"Weighted": 1.0, (1.0, 2): 2}, "a variant value is (constructor_name, tuple_of_arguments)"),
    ("Em", "a variant value is (constructor_name, tuple_of_arguments)"),
    (("Empty", (), ()), "a variant value is (constructor_name, tuple_of_arguments)"),
])
def test_variant_arguments_are_a_tuple_or_list(geo, value, message):
    """Each of these was accepted by one encoding path and refused by the other."""
    with pytest.raises(EncodeError) as info:
        geo.encode("shape", value)
    assert message in str(info.value), str(info.value)
    with pytest.raises(EncodeError, match=r"\(element 0\)"):
        geo.pack("shape", [value, ("Empty", ())])


def test_variant_forms_that_are_accepted(geo):
    empty = geo.encode("shape", ("Empty", ()))
    assert geo.encode("shape", ["Empty", []]) == empty
    weighted = geo.encode("shape", ("Weighted", (1.0, 2)))
    assert geo.encode("shape", ("Weighted", [1.0, 2])) == weighted
    Pair = collections.namedtuple("Pair", "name args")
    assert geo.encode("shape", Pair("Weighted", (1.0, 2))) == weighted
    assert geo.pack("shape", [Pair("Weighted", (1.0, 2)), ["Empty", []]]) == weighted + empty


# --- 3. negative offsets ---------------------------------------------------------------------


NEGATIVE = "offset -{n} is negative; offsets count bytes from the start of the buffer"


@pytest.mark.parametrize("name, value", [("point", {"x": 1.0, "y": 2.0}), ("shape", ("Weighted", (1.0, 2)))])
def test_negative_offsets_are_refused(geo, name, value):
    size = geo.size(name)
    data = geo.pack(name, [value, value])
    for call in (lambda: geo.decode(name, data, -size),
                 lambda: geo.codec(name).decode(data, -size),
                 lambda: geo.unpack(name, data, offset=-size),
                 lambda: geo.unpack(name, data, count=1, offset=-size),
                 lambda: geo.pack_into(name, bytearray(data), [value], offset=-size)):
        with pytest.raises(DecodeError) as info:
            call()
        assert NEGATIVE.format(n=size) in str(info.value), str(info.value)
    assert geo.decode(name, data, size) == geo.decode(name, data)


# --- the fast path never disagrees with the slow one ------------------------------------------


_JUNK = st.sampled_from([None, "", "ab", 0, 1, -1, 1.5, True, (), [], {}, b"xy", 2**70, float("inf")])


def _scalar_values(t):
    return st.one_of(values_of(t), values_of(t), _JUNK, st.integers(-(2**64), 2**64),
                     st.floats(), st.booleans(), st.text(max_size=2))


def _record_forms(t, fields):
    """A record value in one of the accepted forms, or mangled."""
    names = [n for n, _ in t.fields]

    def mangle(pair):
        d, how = pair
        if how == "extra":
            return {**d, "zz": 1}
        if how == "drop":
            return {k: v for k, v in d.items() if k != names[0]}
        if how == "typo":
            return {(k + "x" if k == names[0] else k): v for k, v in d.items()}
        if how == "proxy":
            return types.MappingProxyType(d)
        if how == "ordered":
            return collections.OrderedDict(d)
        if how == "defaultdict_typo":
            return collections.defaultdict(int, {(k + "x" if k == names[0] else k): v for k, v in d.items()})
        if how == "counter_drop":
            return collections.Counter({k: v for k, v in d.items() if k != names[0]})
        if how == "object":
            return types.SimpleNamespace(**d)
        if how == "object_extra":
            return types.SimpleNamespace(**d, zz=1)
        if how == "object_missing":
            return types.SimpleNamespace(**{k: v for k, v in d.items() if k != names[0]})
        if how == "attrdict":
            return AttrDict(d)
        if how == "attrdict_extra":
            return AttrDict({**d, "zz": 1})
        if how == "values":
            return list(d.values())
        if how == "items":
            return tuple(d.items())
        return d

    hows = st.sampled_from(["plain", "extra", "drop", "typo", "proxy", "ordered", "defaultdict_typo",
                            "counter_drop", "object", "object_extra", "object_missing", "attrdict",
                            "attrdict_extra", "values", "items"])
    return st.one_of(fields, st.tuples(fields, hows).map(mangle), _JUNK)


def hostile_values(t):
    """Valid and malformed values of elttype ``t`` in every shape a caller might pass."""
    if isinstance(t, TRecord):
        fields = st.fixed_dictionaries({n: hostile_values(ft) for n, ft in t.fields})
        return _record_forms(t, fields)
    if isinstance(t, TVariant):
        options = []
        for name, args in t.ctors:
            arity = len(args)
            good = st.tuples(*[hostile_values(a) for a in args])

            def arg_forms(a, arity=arity):
                return st.sampled_from([
                    a, list(a), dict(enumerate(a)), "", "x" * arity, a[:-1], a + (None,), None,
                ])

            name_forms = st.sampled_from([name, name.lower(), "Nope"])
            options.append(st.tuples(name_forms, good.flatmap(arg_forms)))
        pairs = st.one_of(*options)

        def pair_forms(p):
            return st.sampled_from([p, list(p), {p[0]: p[1]}, p + (1,), p[0], p[:1]])

        return st.one_of(pairs, pairs, pairs.flatmap(pair_forms), _JUNK)
    return _scalar_values(t)


def _outcome(encode, value):
    try:
        return ("bytes", encode(value))
    except EncodeError:
        return ("refused",)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fast_and_slow_paths_agree(data):
    """``encode`` (fast path first) and the checking walk alone accept and refuse the same
    values and give the same bytes; so does ``pack`` over a list of them."""
    t = data.draw(element_types(big=True))
    codec = codec_of(t)
    values = data.draw(st.lists(hostile_values(t), min_size=1, max_size=4))
    slow = [_outcome(codec._encode_slow, v) for v in values]
    for v, expected in zip(values, slow):
        assert _outcome(codec.encode, v) == expected, v
    joined = ("bytes", b"".join(o[1] for o in slow)) if all(o[0] == "bytes" for o in slow) else ("refused",)
    assert _outcome(codec.pack, values) == joined, values


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_valid_values_take_the_fast_path(data):
    """The checks decline nothing valid in the common forms (plain dicts, tuples)."""
    t = data.draw(element_types(big=True))
    codec = codec_of(t)
    values = data.draw(st.lists(values_of(t), min_size=1, max_size=3))
    assert codec._fast_many(values) == b"".join(codec._encode_slow(v) for v in values)


# --- the generated module and the API agree ---------------------------------------------------


def _api_and_generated(geo, gen):
    """(API type, API value, generated encoder, generated value): the same hostile value in
    each one's own form (the API's variants are pairs, the module's are constructor classes)."""
    g = gen
    ns = types.SimpleNamespace
    return [
        ("point", ns(x=1.0, y=2.0, z=3.0), g.encode_Geometry_point, ns(x=1.0, y=2.0, z=3.0)),
        ("point", {"x": 1.0, "y": 2.0, "z": 3.0}, g.encode_Geometry_point, {"x": 1.0, "y": 2.0, "z": 3.0}),
        ("point", {"x": 1.0, "yy": 2.0}, g.encode_Geometry_point, {"x": 1.0, "yy": 2.0}),
        ("point", AttrDict(x=1.0, y=2.0, z=3.0), g.encode_Geometry_point, AttrDict(x=1.0, y=2.0, z=3.0)),
        ("point", ns(x=1.0), g.encode_Geometry_point, ns(x=1.0)),
        ("particle", ns(id=1, mass=2.0, pos=ns(x=1, y=2, w=0), alive=True, more=1),
         g.encode_Geometry_particle, ns(id=1, mass=2.0, pos=ns(x=1, y=2, w=0), alive=True, more=1)),
        ("particle", ns(id=1, mass=2.0, pos=AttrDict(x=1.0, y=2.0, w=0), alive=True),
         g.encode_Geometry_particle, ns(id=1, mass=2.0, pos=AttrDict(x=1.0, y=2.0, w=0), alive=True)),
        ("particle", ns(id=1, mass=2.0, pos=ns(x=1, y=2), alive=1),
         g.encode_Geometry_particle, ns(id=1, mass=2.0, pos=ns(x=1, y=2), alive=1)),
        ("particle", g.Geometry_particle(1, 2.0, g.Geometry_point(1.0, 2.0), False),
         g.encode_Geometry_particle, g.Geometry_particle(1, 2.0, g.Geometry_point(1.0, 2.0), False)),
        ("shape", ("Weighted", {0: 1.0, 1: 2}), g.encode_Geometry_shape, ("Weighted", {0: 1.0, 1: 2})),
        ("shape", ("Empty", ""), g.encode_Geometry_shape, ("Empty", "")),
        ("shape", ("Weighted", (1.5, 2)), g.encode_Geometry_shape, g.Geometry_shape_Weighted(1.5, 2)),
        ("shape", ("Weighted", ({0: 1.0}, 2)), g.encode_Geometry_shape, g.Geometry_shape_Weighted({0: 1.0}, 2)),
        ("shape", ("Circle", (AttrDict(x=1.0, y=2.0, z=0.0), 3.0)),
         g.encode_Geometry_shape, g.Geometry_shape_Circle(AttrDict(x=1.0, y=2.0, z=0.0), 3.0)),
        ("shape", ("Circle", (ns(x=1.0, y=2.0, z=0.0), 3.0)),
         g.encode_Geometry_shape, g.Geometry_shape_Circle(ns(x=1.0, y=2.0, z=0.0), 3.0)),
    ]


def test_generated_module_and_api_agree_on_hostile_values(geo, gen):
    for name, api_value, gen_encode, gen_value in _api_and_generated(geo, gen):
        try:
            api = ("bytes", geo.encode(name, api_value))
        except EncodeError:
            api = ("refused",)
        try:
            generated = ("bytes", gen_encode(gen_value))
        except gen.EncodeError:
            generated = ("refused",)
        assert api == generated, (name, api_value, api, generated)


def test_generated_module_names_a_mapping(gen):
    with pytest.raises(gen.EncodeError, match=r"Geometry.point: got a mapping \(AttrDict\)"):
        gen.encode_Geometry_point(AttrDict(x=1.0, y=2.0, z=3.0))
    with pytest.raises(gen.EncodeError, match=r"Geometry.shape, field 'Circle._0': got a mapping \(dict\)"):
        gen.encode_Geometry_shape(gen.Geometry_shape_Circle({"x": 1.0, "y": 2.0}, 3.0))


@pytest.mark.parametrize("api_name, c_name", [("point", "Geometry_point"), ("shape", "Geometry_shape")])
def test_generated_module_and_api_refuse_negative_offsets_alike(geo, gen, api_name, c_name):
    size = geo.size(api_name)
    data = bytes(3 * size)
    struct.pack_into("=i", data := bytearray(data), size, 2)  # a valid tag in element 1
    data = bytes(data)
    for offset in (-size, -1):
        api_calls = (lambda: geo.decode(api_name, data, offset), lambda: geo.unpack(api_name, data, offset=offset))
        gen_calls = (lambda: getattr(gen, f"decode_{c_name}")(data, offset),
                     lambda: getattr(gen, f"unpack_{c_name}")(data, offset=offset))
        for api_call, gen_call in zip(api_calls, gen_calls):
            with pytest.raises(DecodeError) as api_error:
                api_call()
            with pytest.raises(gen.DecodeError) as gen_error:
                gen_call()
            assert str(api_error.value) == str(gen_error.value)
            assert f"offset {offset} is negative" in str(gen_error.value)
