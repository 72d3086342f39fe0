"""Only the documented exceptions leave the Python API and the generated module, whatever the
value: ``EncodeError`` for a value that does not fit, ``DecodeError`` for a span or offset
that does not (both ``ValueError``s), ``SchemaError`` for a schema, whose ``str()`` works.

Found by hand: an int of more than 4,300 digits made the error message's ``repr()`` raise
``ValueError`` (Python's integer-string limit) instead of the ``EncodeError``; ``decode`` at
offset 10**20 raised ``OverflowError`` from ``struct``; ``load(b"x.toml")`` raised a
``SchemaError`` whose ``str()`` raised ``AttributeError``.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

import sarek_layout as sl
from sarek_layout.cli.main import main
from sarek_layout.errors import SchemaError

SCHEMA = """\
module = ""
[[types]]
record = "r"
fields = [["x", "int32"], ["y", "float64"]]

[[types]]
variant = "v"
constructors = [["A"], ["B", ["int64"]]]
"""

HUGE = 10 ** 5000  # 5,001 digits: past Python's default limit of 4,300
BIG_OFFSET = 10 ** 20


@pytest.fixture(autouse=True)
def _default_digit_limit():
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    yield
    sys.set_int_max_str_digits(old)


@pytest.fixture
def api(tmp_path):
    path = tmp_path / "hv.toml"
    path.write_text(SCHEMA)
    return sl.load(str(path))


@pytest.fixture
def module(tmp_path, capsys):
    path = tmp_path / "hv.toml"
    path.write_text(SCHEMA)
    assert main(["generate", str(path), "-o", str(tmp_path), "-t", "python"]) == 0
    capsys.readouterr()
    spec = importlib.util.spec_from_file_location("hv_layout", tmp_path / "hv_layout.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _message(exc: BaseException) -> str:
    text = str(exc)  # must not raise
    assert text and len(text) < 1000, text
    return text


@pytest.mark.parametrize("value, fragment", [
    ({"x": HUGE, "y": 0.0}, "out of range for int32"),
    ({"x": 1, "y": HUGE}, "(float64), got <an integer of 16610 bits> (int)"),
    ({"x": 1, "y": 0.0, HUGE: 1}, "unknown key <an integer of"),
    ({HUGE: 1}, "unknown key <an integer of 16610 bits>"),
], ids=["int32", "float64", "key", "missing"])
def test_api_encode_of_a_huge_int_is_an_encode_error(api, value, fragment):
    with pytest.raises(sl.EncodeError if hasattr(sl, "EncodeError") else ValueError) as info:
        api.encode("r", value)
    assert type(info.value).__name__ == "EncodeError"
    assert fragment in _message(info.value)


def test_api_encode_of_a_huge_variant_argument_is_an_encode_error(api):
    with pytest.raises(ValueError) as info:
        api.encode("v", ("B", (HUGE,)))
    assert type(info.value).__name__ == "EncodeError"
    assert "out of range for int64" in _message(info.value)


@pytest.mark.parametrize("type_name", ["r", "v"])
@pytest.mark.parametrize("offset", [BIG_OFFSET, HUGE, -HUGE], ids=["1e20", "huge", "-huge"])
def test_api_decode_at_a_huge_offset_is_a_decode_error(api, type_name, offset):
    data = bytes(api.size(type_name) * 2)
    for call in (lambda: api.decode(type_name, data, offset),
                 lambda: api.unpack(type_name, data, offset=offset),
                 lambda: api.unpack(type_name, data, count=offset),
                 lambda: api.pack_into(type_name, bytearray(data), [], offset)
                 if offset < 0 else api.pack_into(type_name, bytearray(data),
                                                   [api.decode(type_name, data)], offset)):
        with pytest.raises(ValueError) as info:
            call()
        assert type(info.value).__name__ == "DecodeError", repr(info.value)
        _message(info.value)


def test_module_encode_of_a_huge_int_is_an_encode_error(module):
    with pytest.raises(module.EncodeError) as info:
        module.encode_r(module.r(x=HUGE, y=0.0))
    assert "out of range for int32" in _message(info.value)
    with pytest.raises(module.EncodeError) as info:
        module.encode_v(module.v_B(HUGE) if hasattr(module, "v_B") else ("B", (HUGE,)))
    _message(info.value)


@pytest.mark.parametrize("type_name", ["r", "v"])
@pytest.mark.parametrize("offset", [BIG_OFFSET, HUGE, -HUGE], ids=["1e20", "huge", "-huge"])
def test_module_decode_at_a_huge_offset_is_a_decode_error(module, type_name, offset):
    size = getattr(module, f"SIZEOF_{type_name}")
    data = bytes(size * 2)
    for call in (lambda: getattr(module, f"decode_{type_name}")(data, offset),
                 lambda: getattr(module, f"unpack_{type_name}")(data, offset=offset),
                 lambda: getattr(module, f"unpack_{type_name}")(data, count=offset)):
        with pytest.raises(module.DecodeError) as info:
            call()
        _message(info.value)


@pytest.mark.parametrize("path", [b"x.toml", b"missing\xff.json"])
def test_load_of_a_bytes_path_reads_it_as_its_str(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SchemaError) as info:
        sl.load(path)
    assert _message(info.value).startswith(("x.toml: error: cannot read", "missing"))
    (tmp_path / "x.toml").write_text(SCHEMA)
    assert sl.load(b"x.toml").size("r") == 16
    assert sl.load_schema(b"x.toml").types[0].name == "r"
