"""One plan per type, read from the member model: the API's codecs, dtypes and the python
target's view of a loaded schema read the resolved types' members and arms, and never run
the layout core again (it ran once, when the schema was resolved); ``codec_of`` and
``dtype_of`` take a resolved type as they take an elttype, and agree with the API.

The bytes themselves are judged elsewhere, against struct formats, C compilers and numpy
(test_host_codec, test_host_c, test_host_dtype)."""

from __future__ import annotations

import os
import sys

import pytest

import sarek_layout as sl
from helpers.common import EXAMPLES, golden_cases
from helpers.host import distinct_value
from sarek_layout.host import codec_of, dtype_of
from sarek_layout.host.python_target import python_view

CORE = os.path.join("sarek_layout", "layout", "core.py")
#: Every example and golden schema, one case per folder.
GOLDEN = {"examples": [str(EXAMPLES / "geometry.toml")]}
# The cases using SPEC §1b's member kinds come with the Python API's support for them.
GOLDEN.update(golden_cases(member_kinds=False))


class _CoreCalls:
    """The functions of the layout core entered while the block runs (a profile hook: it
    sees every Python call, cached or not)."""

    def __init__(self) -> None:
        self.entered: list = []

    def _hook(self, frame, event, arg) -> None:
        if event == "call" and frame.f_code.co_filename.endswith(CORE):
            self.entered.append(frame.f_code.co_name)

    def __enter__(self) -> "_CoreCalls":
        sys.setprofile(self._hook)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)


@pytest.mark.parametrize("paths", GOLDEN.values(), ids=GOLDEN.keys())
def test_the_api_reads_the_member_model_and_never_lays_out_again(paths):
    np = pytest.importorskip("numpy")
    assert paths
    schema = sl.load(paths)
    types = [st for st in schema if not st.is_enum]  # an enum is a member's type alone
    values = {st.c_name: distinct_value(st.elttype) for st in types}
    with _CoreCalls() as core:
        for st in types:
            codec = schema.codec(st.c_name)
            data = codec.pack([values[st.c_name]] * 2)
            assert codec.unpack(data) == [values[st.c_name]] * 2
            assert np.frombuffer(data, schema.dtype(st.c_name)).shape == (2,)
        for module in schema.schema.modules:
            python_view(schema.schema, module, lambda m: f"{m.name.lower()}_layout.py")
    assert core.entered == []


def test_codec_of_and_dtype_of_take_a_resolved_type_and_agree_with_the_api():
    np = pytest.importorskip("numpy")
    schema = sl.load(str(EXAMPLES / "geometry.toml"))
    for st in schema:
        value = distinct_value(st.elttype)
        api = schema.codec(st.c_name)
        assert codec_of(st, st.qualified_name) is api
        assert codec_of(st).encode(value) == api.encode(value) == codec_of(st.elttype).encode(value)
        assert dtype_of(st) == schema.dtype(st.c_name) == dtype_of(st.elttype)
        assert dtype_of(st).itemsize == st.size
    with pytest.raises(TypeError, match="only records and variants"):
        codec_of("point")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="only records and variants"):
        dtype_of(3)


KINDS = {"module": "K", "types": [
    {"enum": "mat", "values": [["A", 0], ["B", 1]]},
    {"record": "arr", "fields": [["n", "int32"], ["v", "float32[3]"]]},
    {"record": "en", "fields": [["m", "mat"]]},
    {"variant": "vec", "constructors": [["V", ["vec4<float32>"]], ["N"]]},
]}


def test_the_member_kinds_are_planned_from_their_dims_and_an_enum_is_no_element_type(tmp_path):
    """A fixed array, vector or enum member (SPEC §1b) is planned whole: one slot of its
    element count (``3f``, ``4f`` in place), never one ``float32`` where ``float32[3]`` lies;
    an enum type itself is the type of a member, not an element the host encodes."""
    import json

    from sarek_layout.host.plan import plan_of
    from sarek_layout.resolve import load_schema

    (tmp_path / "k.json").write_text(json.dumps(KINDS))
    schema = load_schema([str(tmp_path / "k.json")])
    arr = plan_of(schema.by_c_name("K_arr"))
    assert arr.format == "=i3f" and [s.count for s in arr.slots] == [1, 3]
    vec = plan_of(schema.by_c_name("K_vec"))
    assert vec.ctors[0].format == "=i4f" and vec.ctors[0].slots[0].count == 4
    en = plan_of(schema.by_c_name("K_en"))
    assert en.format == "=i" and en.members[0].enum is schema.by_c_name("K_mat")
    for st in schema:
        if st.is_enum:
            with pytest.raises(TypeError, match="K.mat is an enum"):
                codec_of(st)
            with pytest.raises(TypeError, match="K.mat is an enum"):
                dtype_of(st)
        else:
            assert codec_of(st).size == dtype_of(st).itemsize == st.size
    view = python_view(schema, schema.modules[0], lambda m: "k_layout.py")
    assert [t.kind for t in view.types] == ["enum", "record", "record", "variant"]
