"""Several refusals of one input, reported together (``SchemaErrors``), one line each.

The resolver goes on past a refused type, so a schema with two nested variants names both;
a type refused only because a type it holds was refused is not reported again; the order is
the order of the checks (names, references, recursion and depth, C names, layouts), so the
first line is the one a first-error-only run gave. The OCaml reader's own collection is
tested in ``test_ocaml_frontend.py``, the corpus of several-line refusals in
``test_bad_inputs.py``.
"""

from __future__ import annotations

import json

import pytest

from sarek_layout import SchemaError
from sarek_layout.cli.main import MAX_ERRORS_SHOWN, main
from sarek_layout.errors import SchemaErrors, raise_collected
from sarek_layout.resolve import load_schema
from sarek_layout.targets.names import check_names
from sarek_layout.ir.schema import SourceLocation


def _schema(tmp_path, types, module="M"):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"module": module, "types": types}))
    return path


def _refusals(path):
    with pytest.raises(SchemaError) as info:
        load_schema([str(path)])
    return [e.message for e in info.value.errors]


def test_schema_errors_is_a_schema_error_with_one_line_per_error():
    a = SchemaError("first", SourceLocation("f.ml", 3, 4))
    b = SchemaError("second", SourceLocation("f.ml", 9, 1))
    both = SchemaErrors([a, SchemaErrors([b])])  # nested ones are flattened
    assert isinstance(both, SchemaError) and both.errors == (a, b)
    assert (both.message, both.location) == ("first", a.location)
    assert str(both) == "f.ml:3:4: error: first\nf.ml:9:1: error: second"
    assert a.errors == (a,)
    with pytest.raises(SchemaError) as one:
        raise_collected([a])
    assert one.value is a  # a single error is raised as itself
    raise_collected([])  # nothing to raise


def test_two_nested_variants_are_both_reported(tmp_path):
    path = _schema(tmp_path, [
        {"variant": "v", "constructors": [["A"], ["B", ["int32"]]]},
        {"record": "p", "fields": [["x", "int32"], ["s", "v"]]},
        {"record": "q", "fields": [["y", "float32"]]},
        {"record": "r", "fields": [["s", "v"]]},
    ])
    assert _refusals(path) == [
        f"layout of '{t}': field 's' is a variant nested below top level; variants are only "
        f"supported as the element type itself. Hoist the variant to its own vector or flatten "
        f"its payload into the enclosing record" for t in ("p", "r")]


def test_the_checks_keep_their_order_and_the_first_line_is_unchanged(tmp_path, capsys):
    path = _schema(tmp_path, [
        {"record": "p", "fields": [["s", "v"]]},               # layout (last check)
        {"variant": "v", "constructors": [["A", ["int32"]]]},
        {"record": "a", "fields": [["x", "nope"]]},            # reference
        {"record": "e", "fields": []},                          # shape (first check)
    ])
    messages = _refusals(path)
    assert [m.split(";")[0].split(":")[0] for m in messages] == [
        "record 'e' has no fields", "unknown type 'nope'", "layout of 'p'"]


def test_a_type_holding_a_refused_type_is_not_reported_again(tmp_path):
    path = _schema(tmp_path, [
        {"record": "a", "fields": [["x", "nope"]]},
        {"record": "b", "fields": [["a", "a"]]},
        {"record": "c", "fields": [["b", "b"]]},
        {"record": "d", "fields": [["y", "int32"]]},
        {"record": "e", "fields": [["d", "d"], ["c", "c"]]},
    ])
    assert _refusals(path) == ["unknown type 'nope'"]


def test_a_cycle_is_reported_once_and_its_users_not_at_all(tmp_path):
    path = _schema(tmp_path, [
        {"record": "a", "fields": [["b", "b"]]},
        {"record": "b", "fields": [["a", "a"]]},
        {"record": "user", "fields": [["a", "a"]]},
        {"record": "self", "fields": [["me", "self"]]},
    ])
    messages = _refusals(path)
    assert len(messages) == 2
    assert messages[0].startswith("recursive type 'M.a' (M.a -> M.b -> M.a)")
    assert messages[1].startswith("recursive type 'M.self' (M.self -> M.self)")


def test_a_module_prefix_that_spoils_every_c_name_is_reported_once(tmp_path):
    path = _schema(tmp_path, [
        {"variant": "v", "constructors": [["A"], ["B"]]},
        {"record": "p", "fields": [["x", "int32"]]},
        {"record": "q", "fields": [["y", "int32"]]},
    ], module="M__x")
    schema = load_schema([str(path)])  # no target is emitted yet: nothing to refuse
    with pytest.raises(SchemaError) as info:
        check_names(schema, ["c", "cuda", "rust"])
    messages = [e.message for e in info.value.errors]
    assert len(messages) == 1 and messages[0].startswith("C name 'M__x_v' of type 'M__x.v' "
                                                         "contains '__'")
    assert "(targets c and cuda)" in messages[0]


def test_a_colliding_type_name_does_not_report_its_constructors_too(tmp_path):
    path = _schema(tmp_path, [
        {"variant": "b_c", "constructors": [["A"], ["B"]]},
    ], module="A")
    other = tmp_path / "a_b.json"
    other.write_text(json.dumps({"module": "A_b", "types": [
        {"variant": "c", "constructors": [["A"], ["B"]]}]}))
    with pytest.raises(SchemaError) as info:
        load_schema([str(path), str(other)])
    assert [e.message.split(";")[0] for e in info.value.errors] == [
        "C name 'A_b_c' of type 'A_b.c' collides with type 'A.b_c'"]


def test_the_command_line_prints_one_line_per_refusal_and_at_most_50(tmp_path, capsys):
    types = [{"record": f"r{i}", "fields": [["x", f"unknown{i}"]]} for i in range(60)]
    path = _schema(tmp_path, types)
    assert main(["layout", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and MAX_ERRORS_SHOWN == 50 and len(lines) == 51
    for i, line in enumerate(lines[:50]):
        assert line.startswith(f"{path}:1:") and line.endswith(f": error: unknown type 'unknown{i}'")
    assert lines[50] == "sarek-layout: error: 10 more errors not shown"


def test_diff_against_a_revision_names_every_refusal_of_its_files(tmp_path, capsys, monkeypatch):
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git not installed")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path),
           "PATH": __import__("os").environ["PATH"]}

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True,
                       env=env)

    git("init", "-q", "-b", "main")
    schema = tmp_path / "geo.json"
    schema.write_text('{"types": [\n{"record": "p", "fields": [["x", "nope"]]},\n'
                      '{"record": "q", "fields": [["y", "nada"]]}]}\n')
    git("add", "-A")
    git("commit", "-q", "-m", "broken")
    schema.write_text('{"types": [{"record": "p", "fields": [["x", "int32"]]}]}\n')
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "--against", "HEAD", "geo.json"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "HEAD:geo.json:2:34: error: unknown type 'nope'",
        "HEAD:geo.json:3:34: error: unknown type 'nada'"]
