"""Work bounds of ``generate`` (issue 24), asserted by counting calls and live objects.

A header's type views are built as the template reads them and let go once printed, so a
10,000-type header never holds 10,000 views at once; a view that several targets read is
built once per type, not once per target; a record of plain ``[name, type]`` fields is read
without the per-entry checks' path; and the process entry ends without freeing its objects
one by one, unless something registered work for the exit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import weakref

from sarek_layout.codegen import render_headers, views
from sarek_layout.frontends.jsontoml import reader
from sarek_layout.resolve import load_schema

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _schema_file(tmp_path, records: int = 50) -> str:
    types = [{"record": f"r{i}", "fields": [[f"f{j}", "int64" if j % 2 else "float32"]
                                            for j in range(4)]}
             for i in range(records)]
    types.append({"variant": "v", "constructors": [["A", ["r0"]], ["B", ["int32", "r1"]], ["C"]]})
    path = tmp_path / "work.json"
    path.write_text(json.dumps({"module": "W", "types": types}))
    return str(path)


def _counting_type_views(monkeypatch):
    """Wraps ``views.type_view``: each view made, weakly, in the order made, and how many of
    the earlier ones were still alive when each was made."""
    made: list = []
    alive_at: list = []
    original = views.type_view

    def counting(st, used_idents=None, copies_defined=None):
        alive_at.append(sum(r() is not None for r in made))
        view = original(st, used_idents, copies_defined)
        made.append(weakref.ref(view))
        return view

    monkeypatch.setattr(views, "type_view", counting)
    return made, alive_at


def test_a_module_view_builds_no_type_view_until_read(tmp_path, monkeypatch):
    schema = load_schema([_schema_file(tmp_path)])
    made, _ = _counting_type_views(monkeypatch)
    view = views.module_view(schema, schema.modules[0])
    assert made == []
    assert len(view.types) == 51
    assert [t.c_name for t in view.types][:2] == ["W_r0", "W_r1"]
    assert len(made) == 51


def test_one_target_never_holds_every_type_view(tmp_path, monkeypatch):
    schema = load_schema([_schema_file(tmp_path, records=200)])
    made, alive_at = _counting_type_views(monkeypatch)
    render_headers(schema, ["c"])
    assert len(made) == 201  # each type's view once
    assert max(alive_at) <= 2  # the one being printed, not the 200 before it


def test_targets_sharing_a_view_build_each_type_view_once(tmp_path, monkeypatch):
    schema = load_schema([_schema_file(tmp_path)])
    made, _ = _counting_type_views(monkeypatch)
    alone = {f.target: f.text for f in render_headers(schema, ["c", "cuda", "opencl"])}
    assert len(made) == 51  # not 51 per target
    # The same text as each target rendered alone.
    for target, text in alone.items():
        assert render_headers(schema, [target])[0].text == text


def test_plain_fields_are_read_without_the_per_entry_path(tmp_path, monkeypatch):
    calls = []
    original = reader._Reader.field

    def counting(self, entry, path):
        calls.append(path)
        return original(self, entry, path)

    monkeypatch.setattr(reader._Reader, "field", counting)
    path = _schema_file(tmp_path)
    reader.read_json(path)  # the first read learns the plain type names
    calls.clear()
    module = reader.read_json(path)
    assert calls == []
    field = module.decls[3].fields[1]
    assert (field.name, str(field.type)) == ("f1", "int64")
    # Positions are still found on demand, per field and per type expression.
    text = open(path).read()
    at = text.index('"f1", "int64"', text.index('"r3"'))
    assert (field.location.line, field.location.col) == (1, at + 1)
    assert (field.type.location.line, field.type.location.col) == (1, at + 7)
    # No path of their own: a record's fields share one.
    fields = module.decls[5].fields
    assert len({id(f.location.path) for f in fields} | {id(f.type.location.path) for f in fields}) == 1
    assert "'types', 5, 'fields', 2, 1" in repr(fields[2].type.location)


def test_a_duplicate_plain_field_is_refused_at_both_places(tmp_path):
    import pytest
    from sarek_layout.errors import SchemaError

    path = tmp_path / "dup.json"
    path.write_text('{"module": "D", "types": [\n{"record": "r", "fields": [["a", "int32"],\n'
                    '  ["a", "float32"]]}]}')
    with pytest.raises(SchemaError) as caught:
        load_schema([str(path)])
    assert str(caught.value) == (f"{path}:3:4: error: duplicate field 'a' in 'r' (first at {path}:2:29)")


_EXIT_PROBE = """
import os, sys
class Freed:
    def __del__(self):
        os.write(1, b"freed\\n")
freed_probe = Freed()
{extra}
sys.argv = ["sarek-layout", "generate", sys.argv[1], "-o", sys.argv[2], "-t", "c"]
from sarek_layout.cli.main import main
sys.exit(main())
"""


def _probe(tmp_path, extra: str = "") -> subprocess.CompletedProcess:
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run(
        [sys.executable, "-c", _EXIT_PROBE.format(extra=extra), _schema_file(tmp_path), str(out)],
        capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=120)


def test_the_process_entry_exits_without_freeing_its_objects(tmp_path):
    run = _probe(tmp_path)
    assert run.returncode == 0, run.stderr
    assert "freed" not in run.stdout  # the objects were not freed one by one at exit
    assert run.stderr == "1 header written, 0 unchanged\n"
    header = (tmp_path / "out" / "work.h").read_text()
    assert header.endswith("#endif /* " + header.split("#ifndef ", 1)[1].split("\n", 1)[0] + " */\n")


def test_exit_work_still_runs_when_registered(tmp_path):
    run = _probe(tmp_path, 'import atexit; atexit.register(lambda: os.write(1, b"atexit\\n"))')
    assert run.returncode == 0, run.stderr
    assert "atexit" in run.stdout
    assert "freed" in run.stdout  # the ordinary exit, with its teardown


def test_generate_writes_the_text_in_chunks_without_joining_it(tmp_path, monkeypatch):
    import sarek_layout.codegen as codegen
    from sarek_layout.cli.main import main
    from sarek_layout.codegen import writer

    schema = _schema_file(tmp_path, records=300)
    expected = render_headers(load_schema([schema]), ["c"])[0].text
    monkeypatch.setattr(codegen, "CHUNK", 1000)  # many chunks from a small header
    joined = []
    for cls in (codegen.GeneratedFile, writer.Planned):
        original = cls.text

        def counting(self, original=original):
            joined.append(self)
            return original.fget(self)

        monkeypatch.setattr(cls, "text", property(counting))
    assert main(["generate", schema, "-o", str(tmp_path / "out"), "-t", "c"]) == 0
    assert joined == []  # compared with the old file and written chunk by chunk
    assert (tmp_path / "out" / "work.h").read_text() == expected
    # Unchanged: compared chunk by chunk too, and left alone.
    assert main(["generate", schema, "-o", str(tmp_path / "out"), "-t", "c", "--check"]) == 0
    assert joined == []


def test_chunks_join_to_the_pieces(monkeypatch):
    import sarek_layout.codegen as codegen

    monkeypatch.setattr(codegen, "CHUNK", 10)
    pieces = ["abc", "defgh", "ij", "k" * 25, "", "lm"]
    chunks = codegen._chunked(iter(pieces))
    assert "".join(chunks) == "".join(pieces)
    assert chunks == ("abcdefghij", "k" * 25, "lm")
    assert codegen._chunked(iter([])) == ("",)


def test_a_record_key_holds_no_object_per_scalar_field():
    from sarek_layout.ir import types

    fields = [(f"k{j}", types.TInt64 if j % 2 else types.TFloat32) for j in range(8)]
    record = types.TRecord("key_probe", fields)
    key = next(k for k, v in types._RECORDS.items() if v is record)
    # One flat tuple: the name, the rule set, then names and the table's scalars: no pair,
    # no id per scalar field.
    assert len(key) == 2 + 2 * len(fields)
    assert not any(isinstance(x, (tuple, int)) for x in key)
    assert types.TRecord("key_probe", list(fields)) is record  # still hash-consed
    nested = types.TRecord("outer_probe", [("inner", record), ("x", types.TInt32)])
    assert types.TRecord("outer_probe", [("inner", record), ("x", types.TInt32)]) is nested


def test_check_identifiers_are_not_all_held_for_the_header(tmp_path, monkeypatch):
    schema = load_schema([_schema_file(tmp_path, records=100)])
    sizes = []
    original = views.type_view

    def counting(st, used_idents=None, copies_defined=None):
        view = original(st, used_idents, copies_defined)
        sizes.append(len(used_idents))
        return view

    monkeypatch.setattr(views, "type_view", counting)
    text = render_headers(schema, ["opencl"])[0].text  # the target that prints them
    assert max(sizes) <= 8  # one type's (size, align, its members), not the header's 600
    # One set for the whole header gives the same text when no two C names could clash.
    monkeypatch.setattr(views, "_prefix_pairs", lambda types: True)
    assert render_headers(schema, ["opencl"])[0].text == text
    assert max(sizes) > 500


def test_prefix_pairs_of_c_names():
    from types import SimpleNamespace as T

    def pairs(*names):
        return views._prefix_pairs([T(c_name=n) for n in names])

    assert not pairs("M_a", "M_b", "M_a_b", "M__x")
    assert pairs("M_a", "M_a__b")
    assert pairs("M_a", "M_a___b")  # "__" found at every place, overlapping ones too
    assert pairs("M_a_", "M_a___b")
    assert not pairs("M_a__b")
    assert pairs("M_a", "M_a_")  # M_a's member _x and M_a_'s x: both ..._M_a___x_offset


def test_check_identifiers_of_a_name_and_its_underscore_twin_differ(tmp_path):
    """``a`` with a member ``_x`` beside ``a_`` with ``x``: the OpenCL header's check
    typedefs must not be spelt alike (a typedef redefinition, an error before C11)."""
    import re

    path = tmp_path / "twins.json"
    path.write_text(json.dumps({"module": "Tw", "types": [
        {"record": "a", "fields": [["_x", "int32"]]},
        {"record": "a_", "fields": [["x", "int32"]]}]}))
    text = render_headers(load_schema([str(path)]), ["opencl"])[0].text
    idents = re.findall(r"typedef char (sarek_layout_check_\w+)\[", text)
    assert len(idents) == 6 and len(set(idents)) == 6, idents
