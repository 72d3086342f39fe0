"""``sarek-layout diff``: the command line, its inputs (files, folders, any schema form, a git
revision), its report (text and JSON), ``--allow``, exit statuses and hostile input.

The classification itself is proven against C programs in ``test_diff_c_program.py``; these
tests pin what a user sees.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from helpers.common import EXAMPLES, ROOT
from sarek_layout.abi import RULES
from sarek_layout.cli.main import main

GEOMETRY = EXAMPLES / "geometry.toml"


def write(path: pathlib.Path, text: str) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def schema(path: pathlib.Path, types: list, module: str = "Geo") -> pathlib.Path:
    return write(path, json.dumps({"module": module, "types": types}))


def rec(name: str, *fields) -> dict:
    return {"record": name, "fields": [list(f) for f in fields]}


def var(name: str, *ctors) -> dict:
    return {"variant": name, "constructors": [[c, list(a)] for c, a in ctors]}


def change_lines(out: str) -> list:
    """The report's change lines: without the summary (last) and the per-type lines of
    verdicts and fingerprints (``Geo.p: breaking, layout_id 0x… -> 0x…``)."""
    return [line for line in out.splitlines()[:-1] if ", layout_id 0x" not in line]


def run(capsys, *argv):
    status = main(["diff", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


# --- OLD NEW ---------------------------------------------------------------------------------


def test_identical_schemas_exit_0(capsys):
    status, out, err = run(capsys, GEOMETRY, GEOMETRY)
    assert status == 0 and err == ""
    assert out.strip() == "identical: 0 breaking changes, 0 compatible changes (OLD 3 types, NEW 3 types)"


def test_breaking_change_is_one_line_with_place_both_values_and_rule(tmp_path, capsys):
    old = schema(tmp_path / "old" / "geo.json", [rec("p", ("a", "int32"), ("b", "float64"))])
    new = schema(tmp_path / "new" / "geo.json", [rec("p", ("b", "float64"), ("a", "int32"))])
    status, out, _ = run(capsys, old, new)
    assert status == 1
    lines = out.splitlines()
    assert f"{new}:1:" in lines[0] and lines[0].endswith(
        "breaking: Geo.p.a: offset changed: 0 -> 8 [member-moved]")
    assert lines[1].endswith("breaking: Geo.p.b: offset changed: 8 -> 0 [member-moved]")
    assert lines[-1] == "breaking: 2 breaking changes, 0 compatible changes (OLD 1 type, NEW 1 type)"


def test_compatible_changes_exit_0(tmp_path, capsys):
    old = schema(tmp_path / "a" / "geo.json", [rec("p", ("a", "int32"), ("b", "float64")),
                                               var("v", ("A", []), ("B", ["int32"]))])
    new = schema(tmp_path / "b" / "geo.json", [rec("p", ("a", "int32"), ("c", "int32"), ("b", "float64")),
                                               var("v", ("A", []), ("B", ["int32"]), ("C", ["float32"])),
                                               rec("q", ("x", "int64"))])
    status, out, _ = run(capsys, old, new)
    assert status == 0, out
    assert "compatible: Geo.p.c: added in padding: int32 at offset 4 [member-added]" in out
    assert "compatible: Geo.v.C: constructor added at the end: tag 2 [ctor-added]" in out
    assert "compatible: Geo.q: added: record [type-added]" in out
    assert out.splitlines()[-1].startswith("compatible: 0 breaking changes, 3 compatible changes")


def test_variant_rules(tmp_path, capsys):
    old = schema(tmp_path / "a" / "geo.json", [var("v", ("A", ["int32"]), ("B", ["int32"]), ("C", []))])
    new = schema(tmp_path / "b" / "geo.json", [var("v", ("B", ["int32"]), ("A2", ["int32"]), ("D", []),
                                                   ("E", ["float64"]))])
    status, out, _ = run(capsys, old, new, "--json")
    assert status == 1
    found = {(c["where"], c["rule"]) for c in json.loads(out)["changes"]}
    assert ("A", "ctor-removed") in found
    assert ("B", "ctor-renumbered") in found
    assert ("A2", "ctor-inserted") in found  # tag 1, which OLD's B had
    assert ("C", "ctor-renamed") in found  # D: same tag, same (no) arguments
    assert ("E", "ctor-added") in found
    assert ("", "payload-moved") in found and ("", "size-changed") in found


@pytest.mark.parametrize("old_fields, new_fields, status, lines", [
    # A byte or a half float in a hole: compatible, old readers never look there.
    ([("a", "uint8"), ("d", "float64")], [("a", "uint8"), ("b", "uint8"), ("h", "float16"),
                                          ("d", "float64")], 0,
     ["compatible: Geo.p.b: added in padding: uint8 at offset 1 [member-added]",
      "compatible: Geo.p.h: added in padding: float16 at offset 2 [member-added]"]),
    # Same bytes, another meaning: every change of scalar type breaks.
    ([("a", "uint8"), ("d", "float64")], [("a", "int32"), ("d", "float64")], 1,
     ["breaking: Geo.p.a: type changed: uint8 -> int32 [member-type-changed]"]),
    ([("h", "float16"), ("i", "int32")], [("h", "uint8"), ("i", "int32")], 1,
     ["breaking: Geo.p.h: type changed: float16 -> uint8 [member-type-changed]"]),
    ([("h", "float16"), ("i", "int32")], [("h", "float32"), ("i", "int32")], 1,
     ["breaking: Geo.p.h: type changed: float16 -> float32 [member-type-changed]"]),
    # A wider member moves what follows and grows the record.
    ([("a", "uint8"), ("b", "uint8")], [("a", "float16"), ("b", "uint8")], 1,
     ["breaking: Geo.p: size changed: 2 -> 4 [size-changed]",
      "breaking: Geo.p: alignment changed: 1 -> 2 [align-changed]",
      "breaking: Geo.p.a: type changed: uint8 -> float16 [member-type-changed]",
      "breaking: Geo.p.b: offset changed: 1 -> 2 [member-moved]"]),
])
def test_changes_of_uint8_and_float16(tmp_path, capsys, old_fields, new_fields, status, lines):
    old = schema(tmp_path / "old" / "geo.json", [rec("p", *old_fields)])
    new = schema(tmp_path / "new" / "geo.json", [rec("p", *new_fields)])
    got, out, err = run(capsys, old, new)
    assert (got, err) == (status, ""), out
    # Each line after its place (``geo.json:L:C: ``); the last line is the summary.
    assert sorted(line.split(": ", 1)[1] for line in change_lines(out)) == sorted(lines), out


def test_renames_are_named(tmp_path, capsys):
    old = schema(tmp_path / "a" / "geo.json", [rec("pt", ("x", "float32"), ("y", "float32")),
                                               var("v", ("A", ["int32"]), ("B", []))])
    new = schema(tmp_path / "b" / "geo.json", [rec("point", ("x", "float32"), ("yy", "float32")),
                                               rec("pt2", ("x", "float32"), ("y", "float32")),
                                               var("v", ("A", ["int32"]), ("Bee", []))])
    status, out, _ = run(capsys, old, new)
    assert status == 1
    assert "breaking: Geo.pt: removed (renamed to Geo.pt2?) (was record) [type-removed]" in out
    assert "breaking: Geo.v.B: constructor renamed: B -> Bee [ctor-renamed]" in out


# A rename is only a rename when NEW's member (constructor) reads the same bytes the same way:
# the same place in the list, the same offset and the same type (the same arguments). Each
# case below would hide a real change behind "renamed" if one of those checks went (issue 30).
@pytest.mark.parametrize("old_types, new_types, lines", [
    pytest.param(  # c is at 8, where b was at 4: "b renamed -> c" hid the move
        [rec("p", ("a", "int32"), ("b", "int32"))], [rec("p", ("a", "int64"), ("c", "int32"))],
        ["breaking: Geo.p: size changed: 8 -> 16 [size-changed]",
         "breaking: Geo.p: alignment changed: 4 -> 8 [align-changed]",
         "breaking: Geo.p.a: type changed: int32 -> int64 [member-type-changed]",
         "breaking: Geo.p.b: removed (was int32) [member-removed]",
         "breaking: Geo.p.c: added beyond the old size: int32 at offset 8 "
         "[member-added-outside-padding]"], id="same-place-other-offset"),
    pytest.param(  # same size, other type: "y renamed -> n" hid float32 -> int32
        [rec("p", ("x", "float32"), ("y", "float32"))], [rec("p", ("x", "float32"), ("n", "int32"))],
        ["breaking: Geo.p.y: removed (was float32) [member-removed]",
         "breaking: Geo.p.n: added over bytes OLD members used: int32 at offset 4 "
         "[member-added-outside-padding]"], id="same-size-other-type"),
    pytest.param(  # one argument more: "A renamed -> Ab" hid the second int32
        [var("v", ("A", ["int32"]))], [var("v", ("Ab", ["int32", "int32"]))],
        ["breaking: Geo.v: size changed: 8 -> 12 [size-changed]",
         "breaking: Geo.v.A: constructor removed (was tag 0) [ctor-removed]",
         "breaking: Geo.v.Ab: constructor added with a tag OLD gave A: tag 0 "
         "[ctor-inserted]"], id="constructor-with-more-arguments"),
])
def test_a_rename_needs_the_same_offset_type_and_arguments(tmp_path, capsys, old_types,
                                                           new_types, lines):
    old = schema(tmp_path / "a" / "geo.json", old_types)
    new = schema(tmp_path / "b" / "geo.json", new_types)
    status, out, err = run(capsys, old, new)
    assert (status, err) == (1, ""), out
    assert "renamed" not in out, out
    assert sorted(line.split(": ", 1)[1] for line in change_lines(out)) == sorted(lines), out


def test_member_rename_and_kind_change(tmp_path, capsys):
    old = schema(tmp_path / "a" / "geo.json", [rec("p", ("x", "float32"), ("y", "float32")),
                                               rec("q", ("a", "int32"), ("b", "int64")),
                                               rec("t", ("a", "int32"))])
    new = schema(tmp_path / "b" / "geo.json", [rec("p", ("x", "float32"), ("z", "float32")),
                                               rec("q", ("a", "int32"), ("b", "p")),
                                               var("t", ("A", ["int32"]))])
    status, out, _ = run(capsys, old, new)
    assert status == 1
    assert "breaking: Geo.p.y: renamed: y -> z [member-renamed]" in out
    assert "breaking: Geo.q.b: changed between scalar and record: int64 -> Geo.p [member-kind-changed]" in out
    assert "breaking: Geo.t: kind changed: record -> variant [kind-changed]" in out


def test_nested_record_change_is_reported_in_every_container(tmp_path, capsys):
    old = schema(tmp_path / "a" / "geo.json", [rec("p", ("x", "float32")), rec("q", ("pos", "p"))])
    new = schema(tmp_path / "b" / "geo.json", [rec("p", ("x", "int32")), rec("q", ("pos", "p"))])
    status, out, _ = run(capsys, old, new)
    assert status == 1
    assert "breaking: Geo.p.x: type changed: float32 -> int32 [member-type-changed]" in out
    assert ("breaking: Geo.q.pos: its record type Geo.p changed incompatibly (1 breaking "
            "change, listed under Geo.p) [nested-record-changed]") in out


def test_allow_accepts_one_type_and_keeps_listing_it(tmp_path, capsys):
    old = schema(tmp_path / "a" / "geo.json", [rec("p", ("x", "float32")), rec("q", ("a", "int32"))])
    new = schema(tmp_path / "b" / "geo.json", [rec("p", ("x", "int32")), rec("q", ("a", "float32"))])
    status, out, _ = run(capsys, old, new, "--allow", "Geo_p")
    assert status == 1
    assert "breaking (allowed): Geo.p.x" in out and "breaking: Geo.q.a" in out
    status, out, _ = run(capsys, old, new, "--allow", "p", "--allow", "Geo.q", "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["status"] == "compatible" and doc["breaking"] == 0 and doc["allowed"] == 2


def test_allow_of_an_unknown_type_is_a_usage_error(tmp_path, capsys):
    status, _, err = run(capsys, GEOMETRY, GEOMETRY, "--allow", "nosuch")
    assert status == 2
    assert err.strip() == "sarek-layout: error: --allow 'nosuch': no such type in OLD or NEW"


def test_json_document(tmp_path, capsys):
    old = schema(tmp_path / "a" / "geo.json", [rec("p", ("a", "int32"))])
    new = schema(tmp_path / "b" / "geo.json", [rec("p", ("a", "int64"))])
    status, out, _ = run(capsys, old, new, "--json")
    assert status == 1
    doc = json.loads(out)
    assert list(doc) == ["status", "breaking", "allowed", "compatible", "old_types", "new_types",
                         "notes", "changes", "types"]
    assert doc["types"] == [{"type": "Geo.p", "verdict": "breaking",
                             "old_layout_id": layout_ids(capsys, old)["Geo_p"],
                             "new_layout_id": layout_ids(capsys, new)["Geo_p"]}]
    rules = [c["rule"] for c in doc["changes"]]
    assert rules == ["size-changed", "align-changed", "member-type-changed"]
    change = doc["changes"][2]
    assert change == {"rule": "member-type-changed", "severity": "breaking", "breaking": True,
                      "allowed": False, "type": "Geo.p", "where": "a", "what": "type changed",
                      "old": "int32", "new": "int64",
                      "location": {"file": str(new), "line": 1, "col": change["location"]["col"]}}


def layout_ids(capsys, path) -> dict:
    """``layout --json``'s fingerprint of each type of ``path``, by C name."""
    assert main(["layout", "--json", str(path)]) == 0
    return {t["c_name"]: t["layout_id"] for t in json.loads(capsys.readouterr().out)["types"]}


def test_each_changed_type_has_its_verdict_with_both_fingerprints(tmp_path, capsys):
    """One line per changed type (never per unchanged one), the worst verdict of its changes,
    the OLD and NEW ``layout_id`` of ``layout --json``; ``-`` for a side without the type."""
    old = schema(tmp_path / "a" / "geo.json", [
        rec("p", ("a", "int32"), ("b", "float64")), rec("same", ("x", "int32")),
        var("v", ("A", []), ("B", ["int32"])), rec("gone", ("g", "int32"))])
    new = schema(tmp_path / "b" / "geo.json", [
        rec("p", ("a", "int64"), ("b", "float64")), rec("same", ("x", "int32")),
        var("v", ("A", []), ("B", ["int32"]), ("C", [])), rec("fresh", ("f", "int32"))])
    status, out, _ = run(capsys, old, new)
    assert status == 1, out
    before, after = layout_ids(capsys, old), layout_ids(capsys, new)
    typed = [line for line in out.splitlines() if ", layout_id " in line]
    assert typed == [
        f"Geo.p: breaking, layout_id {before['Geo_p']} -> {after['Geo_p']}",
        f"Geo.v: compatible, layout_id {before['Geo_v']} -> {after['Geo_v']}",
        f"Geo.gone: breaking, layout_id {before['Geo_gone']} -> -",
        f"Geo.fresh: compatible, layout_id - -> {after['Geo_fresh']}",
    ], out
    assert before["Geo_same"] == after["Geo_same"]
    assert before["Geo_p"] != after["Geo_p"] and before["Geo_v"] != after["Geo_v"]
    # --allow turns the verdict, not the fingerprints.
    _, out, _ = run(capsys, old, new, "--allow", "Geo.p")
    assert f"Geo.p: breaking (allowed), layout_id {before['Geo_p']} -> {after['Geo_p']}" in out


def test_folders_and_other_input_forms(tmp_path, capsys):
    """OLD as a folder with the TOML example; NEW as the same schema in OCaml, JSON and as
    the generated C header: identical, since all forms mean the same thing."""
    shutil.copy(GEOMETRY, write(tmp_path / "old" / "geometry.toml", ""))
    write(tmp_path / "ml" / "geometry.ml", """
type point = { x : float32; y : float32 } [@@sarek.type]
type particle = { id : int32; mass : float64; pos : point; alive : bool } [@@sarek.type]
type shape =
  | Circle of point * float32
  | Rect of point * point
  | Weighted of float64 * int32
  | Empty
[@@sarek.type]
""")
    schema(tmp_path / "json" / "geometry.json", [
        rec("point", ("x", "float32"), ("y", "float32")),
        rec("particle", ("id", "int32"), ("mass", "float64"), ("pos", "point"), ("alive", "bool")),
        var("shape", ("Circle", ["point", "float32"]), ("Rect", ["point", "point"]),
            ("Weighted", ["float64", "int32"]), ("Empty", []))], module="Geometry")
    for new in ("ml", "json"):
        status, out, err = run(capsys, tmp_path / "old", tmp_path / new)
        assert (status, err) == (0, ""), out + err
        assert out.startswith("identical:"), (new, out)
    # A C header has no bool (it is int32_t there): read back, that member is an int32.
    shutil.copy(ROOT / "generated" / "geometry.h", write(tmp_path / "h" / "geometry.h", ""))
    status, out, _ = run(capsys, tmp_path / "old", tmp_path / "h")
    assert status == 1
    assert [line.split(": ", 1)[1] for line in change_lines(out)] == [
        "breaking: Geometry.particle.alive: type changed: bool -> int32 [member-type-changed]"]


def test_padding_renamed_in_a_c_header_schema_is_not_a_change(tmp_path, capsys):
    text = (ROOT / "generated" / "geometry.h").read_text()
    renamed = text.replace("_sarek_pad0", "_sarek_gap_a").replace("_sarek_pad1", "_sarek_zz")
    assert renamed != text
    old = write(tmp_path / "a" / "geometry.h", text)
    new = write(tmp_path / "b" / "geometry.h", renamed)
    status, out, _ = run(capsys, old, new)
    assert status == 0 and out.startswith("identical:"), out


@pytest.mark.parametrize("argv, message", [
    ([], "diff needs OLD and NEW (two schema files or folders), or --against REV SCHEMA..."),
    (["a.toml"], "diff needs OLD and NEW"),
    (["--against", "HEAD"], "diff --against REV needs at least one SCHEMA file or folder"),
])
def test_usage_errors_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("sarek-layout: error: " + message)


def test_bad_schema_is_one_diagnostic_exit_2(tmp_path, capsys):
    bad = write(tmp_path / "bad.json", '{"module": "B", "types": [{"record": "p", "fields": []}]}')
    status, out, err = run(capsys, GEOMETRY, bad)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"{bad}:")
    empty = tmp_path / "empty"
    empty.mkdir()
    status, _, err = run(capsys, GEOMETRY, empty)
    assert status == 2 and "no schema files in the folder" in err


def test_deep_nesting_stays_linear(tmp_path, capsys):
    """Records of two copies of records of two copies…, 28 levels: 2^28 leaves (the largest
    type is 2^31 - 1 bytes). Compared by member and once per record pair, the diff is
    immediate (leaves would never finish)."""
    def chain(last: str) -> list:
        types = [rec("r0", ("a", "int32"), ("b", last))]
        for i in range(1, 28):
            types.append(rec(f"r{i}", ("l", f"r{i-1}"), ("r", f"r{i-1}")))
        return types
    old = schema(tmp_path / "a" / "deep.json", chain("float32"))
    new = schema(tmp_path / "b" / "deep.json", chain("int32"))
    status, out, _ = run(capsys, old, new)
    assert status == 1
    assert "breaking: Geo.r0.b: type changed: float32 -> int32" in out
    assert "breaking: Geo.r27.l: its record type Geo.r26 changed incompatibly" in out


def test_rules_table_in_the_docs_matches_the_rules():
    doc = (ROOT / "docs" / "diff.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| \*\*(breaking|compatible)\*\* \|", doc, re.M))
    assert rows == {r.id: r.severity for r in RULES.values()}


# --- --against REV -------------------------------------------------------------------------

def git(repo: pathlib.Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@e", GIT_CONFIG_NOSYSTEM="1", HOME=str(repo))
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


@pytest.fixture
def repo(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    schema(root / "schemas" / "geo.json", [rec("p", ("a", "int32"), ("b", "float64"))])
    schema(root / "schemas" / "other.json", [rec("q", ("x", "float32"))], module="Other")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "one")
    return root


def test_against_a_revision(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    schema(repo / "schemas" / "geo.json", [rec("p", ("b", "float64"))])
    status, out, err = run(capsys, "--against", "HEAD", "schemas/geo.json")
    assert status == 1, err
    assert re.search(r"^HEAD:schemas/geo\.json:1:\d+: breaking: Geo\.p\.a: removed \(was int32\) "
                     r"\[member-removed\]$", out, re.M), out
    status, out, _ = run(capsys, "--against", "HEAD", "schemas")
    assert status == 1 and "Other.q" not in out
    git(repo, "commit", "-qam", "two")
    status, out, _ = run(capsys, "--against", "HEAD", "schemas")
    assert status == 0 and out.startswith("identical:")
    status, out, _ = run(capsys, "--against", "HEAD~1", "schemas")
    assert status == 1


def test_against_new_and_deleted_files(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    schema(repo / "schemas" / "extra.json", [rec("e", ("x", "int32"))], module="Extra")
    status, out, _ = run(capsys, "--against", "HEAD", "schemas/extra.json")
    assert status == 0
    assert "note: schemas/extra.json: not at HEAD (a new file)" in out
    assert "compatible: Extra.e: added: record [type-added]" in out
    os.remove(repo / "schemas" / "other.json")
    status, out, _ = run(capsys, "--against", "HEAD", "schemas/other.json")
    assert status == 1
    assert "note: schemas/other.json: deleted since HEAD" in out
    assert "breaking: Other.q: removed (was record) [type-removed]" in out


def test_against_names_errors_in_the_revision_rev_path(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    write(repo / "schemas" / "geo.json", "{not json")
    git(repo, "commit", "-qam", "broken")
    schema(repo / "schemas" / "geo.json", [rec("p", ("a", "int32"))])
    status, _, err = run(capsys, "--against", "HEAD", "schemas/geo.json")
    assert status == 2
    assert err.startswith("HEAD:schemas/geo.json:1:2: error: invalid JSON")


@pytest.mark.parametrize("revision", ["--output=OUT", "-p", "", "a\nb", "x" * 300])
def test_against_refuses_revisions_that_are_not_revisions(repo, capsys, monkeypatch, revision,
                                                          tmp_path):
    """Above all, a revision never becomes a git option (``--output`` would write a file)."""
    monkeypatch.chdir(repo)
    out_file = tmp_path / "written-by-git"
    status, out, err = run(capsys, f"--against={revision.replace('OUT', str(out_file))}",
                           "schemas/geo.json")
    assert status == 2 and out == ""
    assert err.startswith("sarek-layout: error: not a git revision:")
    assert len(err.strip().splitlines()) == 1
    assert not out_file.exists()


def test_allow_must_name_one_type(tmp_path, capsys):
    one = schema(tmp_path / "one.json", [rec("p", ("a", "int32"))], module="One")
    two = schema(tmp_path / "two.json", [rec("p", ("a", "int32"))], module="Two")
    folder = tmp_path / "both"
    folder.mkdir()
    shutil.copy(one, folder)
    shutil.copy(two, folder)
    status, _, err = run(capsys, folder, folder, "--allow", "p")
    assert status == 2
    assert err.strip() == ("sarek-layout: error: --allow 'p' is ambiguous; write one of: "
                           "One.p, Two.p")


def test_against_unknown_revision_and_non_git_folder(repo, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(repo)
    for revision in ("no-such-branch", "no such branch"):
        status, _, err = run(capsys, "--against", revision, "schemas/geo.json")
        assert status == 2
        assert err.strip() == (f"sarek-layout: error: unknown revision {revision!r} in the git "
                               f"repository {os.path.realpath(repo)}")
    outside = schema(tmp_path / "plain" / "geo.json", [rec("p", ("a", "int32"))])
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    status, _, err = run(capsys, "--against", "HEAD", outside)
    assert status == 2
    assert "--against needs a git work tree" in err and len(err.strip().splitlines()) == 1
    status, _, err = run(capsys, "--against", "HEAD", "schemas/nosuch.json")
    assert status == 2 and "schemas/nosuch.json: no such file, now or at HEAD" in err


def test_against_a_revision_a_shallow_clone_lacks_names_the_shallow_clone(repo, tmp_path,
                                                                           capsys, monkeypatch):
    """CI checks out one commit by default: `HEAD~1` is then not in the clone, and "unknown
    revision" alone sent people looking for a typo. The message says the clone is shallow
    and how to fetch the history (here and in CI)."""
    schema(repo / "schemas" / "geo.json", [rec("p", ("a", "int64"))])
    git(repo, "commit", "-qam", "two")
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    monkeypatch.chdir(clone)
    status, out, err = run(capsys, "--against", "HEAD~1", "schemas/geo.json")
    assert (status, out) == (2, "")
    assert err.strip() == (
        f"sarek-layout: error: unknown revision 'HEAD~1' in the git repository "
        f"{os.path.realpath(clone)}, a shallow clone (only part of its history is here): "
        f"fetch the rest with `git fetch --unshallow` (in GitHub Actions, give "
        f"actions/checkout `fetch-depth: 0`)")
    status, _, err = run(capsys, "--against", "HEAD", "schemas/geo.json")
    assert status == 0, err  # a revision the shallow clone has works as before


def test_against_paths_are_literal(repo, capsys, monkeypatch):
    """A file named like an option or a pathspec glob reaches git as a plain path."""
    monkeypatch.chdir(repo)
    for name in ("-x.json", ":(glob)*.json", "*.json"):
        schema(repo / "schemas" / name, [rec("s", ("a", "int32"))], module="S")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "odd names")
    for name in ("-x.json", ":(glob)*.json", "*.json"):
        schema(repo / "schemas" / name, [rec("s", ("a", "int64"))], module="S")
        status, out, err = run(capsys, "--against", "HEAD", "--", f"schemas/{name}")
        assert status == 1, err
        assert f"HEAD:schemas/{name}" not in out  # the change is under the NEW file
        assert "Geo.p" not in out and "breaking: S.s.a: type changed: int32 -> int64" in out
        schema(repo / "schemas" / name, [rec("s", ("a", "int32"))], module="S")
