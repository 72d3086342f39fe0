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
    values = {st.c_name: distinct_value(st.elttype) for st in schema}
    with _CoreCalls() as core:
        for st in schema:
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


def test_a_member_kind_the_plans_do_not_handle_is_refused_not_packed_as_one_element(tmp_path):
    """A fixed array, vector or enum member (SPEC §1b) reaches the host only through a schema
    resolved without ``load``'s check: the plan refuses it, naming the member, rather than
    pack one ``float32`` where ``float32[3]`` lies (a 4-byte format for a 16-byte record)."""
    import json

    from sarek_layout.resolve import load_schema

    (tmp_path / "k.json").write_text(json.dumps(KINDS))
    schema = load_schema([str(tmp_path / "k.json")])
    expected = {"K_arr": r"K.arr.v has type 'float32\[3\]'", "K_en": "K.en.m has type 'mat'",
                "K_vec": "K.vec._0 has type 'vec4<float32>'", "K_mat": "K.mat is an enum"}
    for st in schema:
        with pytest.raises(TypeError, match=expected[st.c_name]):
            codec_of(st)
        with pytest.raises(TypeError, match=expected[st.c_name]):
            dtype_of(st)
    with pytest.raises(TypeError, match="member kinds of SPEC §1b"):
        python_view(schema, schema.modules[0], lambda m: "k_layout.py")
