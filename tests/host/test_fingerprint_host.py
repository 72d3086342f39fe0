"""The layout-fingerprint header in front of a buffer or a file (docs/fingerprint.md): the API
(``sarek_layout.load(...).pack_framed`` / ``unpack_framed`` / ``header`` / ``check_header``)
and the generated Python module (``pack_framed_T``…) write the same 24 bytes, read back what
they wrote, and refuse data written under another layout with a message naming the type and
both fingerprints; a missing, short or hostile header is one ``DecodeError``.
"""

from __future__ import annotations

import importlib
import json
import struct
import sys

import pytest

import sarek_layout as sl
from sarek_layout.cli.main import main
from sarek_layout.host.codec import DecodeError

OLD = {"module": "Geo", "types": [{"record": "p", "fields": [["a", "int32"], ["b", "float32"]]}]}
NEW = {"module": "Geo", "types": [{"record": "p", "fields": [["a", "int64"], ["b", "float32"]]}]}
VALUES = [{"a": i, "b": i / 2} for i in range(5)]


def write_schema(folder, doc):
    folder.mkdir(exist_ok=True)
    path = folder / "geo.json"
    path.write_text(json.dumps(doc))
    return path


def json_id(capsys, path) -> int:
    assert main(["layout", "--json", str(path)]) == 0
    return int(json.loads(capsys.readouterr().out)["types"][0]["layout_id"], 16)


def test_the_header_is_magic_fingerprint_count_little_endian(tmp_path, capsys):
    path = write_schema(tmp_path / "old", OLD)
    schema = sl.load(str(path))
    layout_id = json_id(capsys, path)
    assert schema.layout_id("p") == layout_id
    assert schema.header("p", 5) == b"SAREKLID" + struct.pack("<QQ", layout_id, 5)
    data = schema.pack_framed("p", VALUES)
    assert data == schema.header("p", 5) + schema.pack("p", VALUES)
    assert schema.check_header("p", data) == 5
    assert schema.unpack_framed("p", data) == VALUES
    # At an offset, and from a file.
    assert schema.unpack_framed("p", b"\0" * 3 + data, offset=3) == VALUES
    (tmp_path / "p.bin").write_bytes(data)
    assert schema.unpack_framed("p", (tmp_path / "p.bin").read_bytes()) == VALUES


def test_data_of_another_layout_is_refused_naming_the_type_and_both(tmp_path, capsys):
    old_path, new_path = write_schema(tmp_path / "old", OLD), write_schema(tmp_path / "new", NEW)
    old_id, new_id = json_id(capsys, old_path), json_id(capsys, new_path)
    data = sl.load(str(old_path)).pack_framed("p", VALUES)
    new = sl.load(str(new_path))
    with pytest.raises(DecodeError) as info:
        new.unpack_framed("p", data)
    message = str(info.value)
    assert message.startswith("Geo.p: the data was written under layout ")
    assert f"0x{old_id:016x}" in message and f"0x{new_id:016x}" in message
    with pytest.raises(DecodeError, match="Geo.p: the data was written under"):
        new.check_header("p", data)


@pytest.mark.parametrize("data, offset, problem", [
    (b"", 0, "Geo.p: 0 bytes at offset 0 cannot hold the 24-byte sarek-layout header"),
    (b"SAREKLID" + b"\0" * 15, 0, "cannot hold the 24-byte sarek-layout header"),
    (b"\0" * 40, 0, "Geo.p: no sarek-layout header at offset 0 (its first 8 bytes are"),
    (b"\0" * 40, -1, "Geo.p: offset -1 is negative"),
    (b"\0" * 40, 99, "Geo.p: 0 bytes at offset 99 cannot hold"),
])
def test_a_missing_or_short_header_is_one_decode_error(tmp_path, data, offset, problem):
    schema = sl.load(str(write_schema(tmp_path / "old", OLD)))
    with pytest.raises(DecodeError) as info:
        schema.unpack_framed("p", data, offset)
    assert problem in str(info.value)


def test_a_hostile_count_is_refused_without_allocating(tmp_path):
    schema = sl.load(str(write_schema(tmp_path / "old", OLD)))
    data = bytearray(schema.pack_framed("p", VALUES))
    data[16:24] = struct.pack("<Q", 2 ** 64 - 1)
    with pytest.raises(DecodeError, match="elements need .* bytes, only 40 from offset 24"):
        schema.unpack_framed("p", bytes(data))


@pytest.fixture
def modules(tmp_path, monkeypatch):
    """The generated Python modules of OLD and NEW, imported from their folders."""
    found = {}
    for side, doc in (("old", OLD), ("new", NEW)):
        path = write_schema(tmp_path / side, doc)
        out = tmp_path / f"{side}_py"
        assert main(["generate", str(path), "-o", str(out), "-t", "python"]) == 0
        monkeypatch.syspath_prepend(str(out))
        sys.modules.pop("geo_layout", None)
        found[side] = importlib.import_module("geo_layout")
        sys.modules.pop("geo_layout", None)
    return found


def test_the_generated_module_writes_and_checks_the_same_header(modules, tmp_path, capsys):
    old, new = modules["old"], modules["new"]
    api = sl.load(str(tmp_path / "old" / "geo.json"))
    values = [old.Geo_p(a=v["a"], b=v["b"]) for v in VALUES]
    data = old.pack_framed_Geo_p(values)
    assert data == api.pack_framed("p", VALUES)
    assert old.LAYOUT_ID_Geo_p == json_id(capsys, tmp_path / "old" / "geo.json")
    assert old.header_Geo_p(5) == api.header("p", 5)
    assert old.check_header_Geo_p(data) == 5
    assert old.unpack_framed_Geo_p(data) == values
    with pytest.raises(new.DecodeError) as info:
        new.unpack_framed_Geo_p(data)
    assert str(info.value).startswith(
        f"Geo.p: the data was written under layout 0x{old.LAYOUT_ID_Geo_p:016x}, but this "
        f"program's Geo.p has layout 0x{new.LAYOUT_ID_Geo_p:016x}")
    for name in ("LAYOUT_ID_Geo_p", "header_Geo_p", "check_header_Geo_p", "pack_framed_Geo_p",
                 "unpack_framed_Geo_p"):
        assert name in old.__all__


def test_an_empty_frame_reads_back_as_no_elements(modules, tmp_path):
    """A frame of no elements is exactly the 24-byte header: the API and the generated module
    read it as ``[]`` (at the end of the data, also at an offset), never as a header too
    short to hold (a ``<`` of the room check made ``<=`` survived every other test)."""
    api = sl.load(str(tmp_path / "old" / "geo.json"))
    old = modules["old"]
    empty = api.pack_framed("p", [])
    assert empty == api.header("p", 0) and len(empty) == 24
    assert old.pack_framed_Geo_p([]) == empty
    for data, offset in ((empty, 0), (b"\0" * 5 + empty, 5)):
        assert api.check_header("p", data, offset) == 0
        assert api.unpack_framed("p", data, offset) == []
        assert old.check_header_Geo_p(data, offset) == 0
        assert old.unpack_framed_Geo_p(data, offset) == []
