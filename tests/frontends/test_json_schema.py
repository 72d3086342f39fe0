"""The JSON Schema of schema files (``sarek-layout schema --json-schema``) against the reader.

The rule: the JSON Schema never refuses a file the reader accepts. It may accept a file the
reader refuses only for a reason a JSON Schema cannot express, or that is the reader's to
judge (unknown and recursive types, duplicates, names reserved in a target language or
colliding once mangled, the layout rules): ``LEFT_TO_THE_READER`` lists those reasons by the
reader's message, and every file of the repository (examples, goldens, the bad-input and fuzz
corpora) is checked against it, so a structural rule the JSON Schema misses fails here.
Hand-written documents and a hypothesis search check the structural rules one by one, the
optional ``version`` key included.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import tomllib
from typing import Any, Optional

import pytest

from helpers.common import ROOT

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema not installed: pip install jsonschema (in the test extras)")

from sarek_layout.errors import SarekLayoutError  # noqa: E402
from sarek_layout.resolve import load_schema  # noqa: E402

SCHEMA_PATH = ROOT / "sarek_layout" / "sarek-layout.schema.json"
VALIDATOR = jsonschema.Draft7Validator(json.loads(SCHEMA_PATH.read_text()))

#: Reasons the reader refuses a file that the JSON Schema accepts, by a fragment of the
#: reader's message.
LEFT_TO_THE_READER = {
    "unknown type": "a type reference resolves against every schema given together",
    "unknown module": "a Module.name reference needs the other schema, given on the same command line",
    "is ambiguous": "the meaning of 'float' is the reader's to explain",
    "recursive type": "recursion goes through references",
    "nests types": "nesting depth goes through references",
    "duplicate": "JSON Schema cannot require the first items of pairs to be unique",
    "uses the prefix": "the generated files' own prefixes",
    "collides with": "C names of different types and constructors",
    "has a member": "a member named like a type it uses (C++)",
    "layout of": "the layout rules (arrays, vectors and variants below top level)",
}

#: Folders whose schema files are meant to be read together, and must be accepted.
GOOD_FOLDERS = ["examples", "tests/golden", "tests/data/schemas", "tests/data/verify"]
#: Folders of files the reader refuses (or once crashed on): judged one file at a time.
CORPUS_FOLDERS = ["tests/bad_inputs", "tests/fuzz_corpus"]


def _schema_files(folder: str):
    """The JSON/TOML schema files under ``folder``: not expected outputs or layout reports."""
    for p in sorted((ROOT / folder).rglob("*")):
        if (p.suffix in (".json", ".toml") and p.is_file() and "expected" not in p.parts
                and not p.name.endswith(".layout.json")):
            yield p


def _document(path: pathlib.Path) -> Optional[Any]:
    """The parsed document an editor would validate, or None when it is not JSON/TOML at all
    (both the editor and the reader then report a syntax error)."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
        return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def _json_schema_errors(document: Any) -> list:
    return [e.message for e in VALIDATOR.iter_errors(document)]


def _reader_error(*paths: pathlib.Path) -> Optional[str]:
    """None when the reader accepts the files given together, else its message."""
    try:
        load_schema([str(p) for p in paths])
    except SarekLayoutError as e:
        return str(e)
    return None


def test_the_json_schema_is_a_valid_draft_7_schema():
    jsonschema.Draft7Validator.check_schema(json.loads(SCHEMA_PATH.read_text()))


def test_cli_prints_the_shipped_json_schema():
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "schema", "--json-schema"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(SCHEMA_PATH.read_text())
    assert proc.stderr == ""


def test_cli_schema_without_an_option_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "schema"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "sarek-layout: error:" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("folder", GOOD_FOLDERS)
def test_every_example_is_valid_under_the_json_schema(folder):
    groups: dict = {}
    for p in _schema_files(folder):
        groups.setdefault(p.parent, []).append(p)
    assert groups, f"no schema files under {folder}"
    for parent, files in groups.items():
        for p in files:
            # Alone, or (for a schema that uses another's types) with the schemas beside it.
            together = sorted(parent.glob("*.ml")) + files
            assert _reader_error(p) is None or _reader_error(*together) is None, p
            assert _json_schema_errors(_document(p)) == [], p


def test_json_schema_agrees_with_the_reader_on_every_corpus_file():
    used = set()
    checked = 0
    for folder in CORPUS_FOLDERS:
        for p in _schema_files(folder):
            document = _document(p)
            reader = _reader_error(p)
            if document is None:
                assert reader is not None, f"{p}: not JSON/TOML, yet the reader accepts it"
                continue
            checked += 1
            errors = _json_schema_errors(document)
            if reader is None:
                assert errors == [], f"{p}: the reader accepts it, the JSON Schema refuses: {errors}"
            elif not errors:
                reasons = [k for k in LEFT_TO_THE_READER if k in reader]
                assert reasons, (f"{p}: the JSON Schema accepts what the reader refuses for a "
                                 f"structural reason: {reader}")
                used.update(reasons)
    assert checked > 50
    # The corpus exercises the main kinds (a reason may fall out of use when the reader
    # changes, as 'float' did: such a row is dead, not wrong).
    assert {"unknown type", "duplicate", "recursive type", "layout of",
            "collides with"} <= used, used


# --- the structural rules one by one ------------------------------------------------------

def _doc(types: Any = None, **top: Any) -> dict:
    document = dict(top)
    if types is not None:
        document["types"] = types
    return document


def _rec(name: Any = "p", fields: Any = None) -> dict:
    return {"record": name, "fields": [["x", "int32"]] if fields is None else fields}


def _var(name: Any = "v", ctors: Any = None) -> dict:
    return {"variant": name, "constructors": [["A"]] if ctors is None else ctors}


LONG = "a" * 63
CASES = [
    # (document, the reader accepts it)
    (_doc([_rec()]), True),
    (_doc([_rec()], version=1), True),
    (_doc([_rec()], version=2), False),
    (_doc([_rec()], version="1"), False),
    (_doc([_rec()], version=True), False),
    (_doc([_rec()], version=None), False),
    (_doc([_rec()], module=""), True),
    (_doc([_rec()], module="Geo_2"), True),
    (_doc([_rec()], module="_geo"), False),
    (_doc([_rec()], module="2geo"), False),
    (_doc([_rec()], module="A" + LONG), False),
    (_doc([_rec()], modul="Geo"), False),
    (_doc(), False),
    (_doc([]), True),
    (_doc({}), False),
    ([_rec()], False),
    (_doc(["p"]), False),
    (_doc([{"record": "p"}]), False),
    (_doc([{"record": "p", "fields": [["x", "int32"]], "doc": "x"}]), False),
    (_doc([{"record": "p", "variant": "v", "fields": [["x", "int32"]]}]), False),
    (_doc([_rec(fields=[])]), False),
    (_doc([_rec(fields=[["x"]])]), False),
    (_doc([_rec(fields=[["x", "int32", "y"]])]), False),
    (_doc([_rec(fields=[{"x": "int32"}])]), False),
    (_doc([_rec(fields=[[1, "int32"]])]), False),
    (_doc([_rec(fields=[["x", 1]])]), False),
    (_doc([_rec(fields=[["_x", "int32"]])]), True),
    (_doc([_rec(fields=[[LONG, "int32"]])]), True),
    (_doc([_rec(fields=[[LONG + "a", "int32"]])]), False),
    (_doc([_rec(fields=[["x y", "int32"]])]), False),
    (_doc([_rec(name=LONG)]), True),
    (_doc([_rec(name=LONG + "a")]), False),
    (_doc([_rec(name="_p")]), False),
    (_doc([_rec(name="int32")]), False),
    (_doc([_rec(name="int")]), False),
    (_doc([_rec(name=3)]), False),
    (_doc([_var(ctors=[["A"], ["B", []], ["C", ["int32", "float64"]]])]), True),
    (_doc([_var(ctors=[])]), False),
    (_doc([_var(ctors=[[]])]), False),
    (_doc([_var(ctors=[["A", [], []]])]), False),
    (_doc([_var(ctors=[["A", "int32"]])]), False),
    (_doc([_var(ctors=[["A", {"x": "int32"}]])]), False),
    (_doc([_var(ctors=[["A", [{"x": "int32"}]]])]), False),
    (_doc([_var(ctors=[["_a"]])]), True),  # M_v__a: refused by the C-family targets only
    (_doc([_var(ctors=[["a_"]])]), True),
    (_doc([_rec(fields=[["a__b", "int32"]])]), True),  # C++ targets refuse it
    (_doc([_rec(fields=[["_X", "int32"]])]), True),  # C-family targets refuse it
    (_doc([_rec(fields=[["_x_", "int32"]])]), True),
    (_doc([_rec(name="p__q")]), True),
    (_doc([_rec()], module="M__N"), True),  # M__N_p: C++ targets refuse it
    (_doc([], module="M__N"), True),  # no type, no C name
    (_doc([_var(ctors=[["A-B"]])]), False),


    (_doc([_rec(fields=[["x", "  int  "]])]), True),
    (_doc([_rec(fields=[["x", "\tint32\n"]])]), True),
    (_doc([_rec(fields=[["x", "int32\x1c"]])]), True),
    (_doc([_rec(fields=[["x", ""]])]), False),
    (_doc([_rec(fields=[["x", "   "]])]), False),
    (_doc([_rec(fields=[["x", "int32 list"]])]), False),
    (_doc([_rec(fields=[["x", "int32*"]])]), False),
    (_doc([_rec(fields=[["x", "'a"]])]), False),
    (_doc([_rec(fields=[["x", "A.B.c"]])]), False),
    (_doc([_rec(fields=[["x", "2x"]])]), False),
    (_doc([_rec(fields=[["x", "int32 array"]])]), False),  # structure fine; layout refuses
    (_doc([_rec(), _rec(name="q", fields=[["p", "p"]])], module=""), False),  # C++: p p;
    (_doc([_rec(), _rec(name="q", fields=[["p", "p"]])]), True),  # M_p p; is fine
    (_doc([_rec(), _rec(name="q", fields=[["a", "p"]])]), True),
    (_doc([_rec(), _rec(name="q", fields=[["a", "M.p"]])], module="M"), True),
]


def _reader_verdict(document: Any, tmp_path: pathlib.Path) -> Optional[str]:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(document))
    return _reader_error(path)


@pytest.mark.parametrize("document,accepted", CASES, ids=[json.dumps(c[0])[:70] for c in CASES])
def test_json_schema_and_reader_on_one_rule(document, accepted, tmp_path):
    reader = _reader_verdict(document, tmp_path)
    assert (reader is None) == accepted, reader
    errors = _json_schema_errors(document)
    if accepted:
        assert errors == []
    elif not errors:
        assert any(k in reader for k in LEFT_TO_THE_READER), reader


def test_json_schema_accepts_integral_version_the_reader_refuses(tmp_path):
    """The one known looseness of the version key: in JSON Schema 1.0 is the integer 1; the
    reader wants the integer itself (the documented direction: the JSON Schema may accept,
    the reader refuses)."""
    path = tmp_path / "m.json"
    path.write_text('{"version": 1.0, "types": []}')
    assert "unknown schema version 1.0" in (_reader_error(path) or "")
    assert _json_schema_errors({"version": 1.0, "types": []}) == []


def test_toml_documents_validate_like_json(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('version = 1\nmodule = "M"\n\n[[types]]\nvariant = "v"\n'
                    'constructors = [["Empty"], ["Full", ["int32"]]]\n')
    assert _reader_error(path) is None
    assert _json_schema_errors(tomllib.loads(path.read_text())) == []
    path.write_text('version = 1979-05-27\ntypes = []\n')  # a TOML date is no JSON type
    assert "unknown schema version" in (_reader_error(path) or "")
    assert _json_schema_errors(tomllib.loads(path.read_text())) != []


# --- the version key through the command line ---------------------------------------------

@pytest.mark.parametrize("text,place,fragment", [
    ('{"version": 2, "types": []}', "1:13", "unknown schema version 2"),
    ('{"types": [], "version": "1"}', "1:26", "unknown schema version '1'"),
    ('{"version": true, "types": []}', "1:13", "unknown schema version True"),
])
def test_unknown_version_is_refused_with_its_place(text, place, fragment, tmp_path):
    path = tmp_path / "m.json"
    path.write_text(text)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "generate", "m.json", "-o", "out"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"m.json:{place}: error: {fragment}"), proc.stderr
    assert "reads version 1" in lines[0]
    assert not out.exists() or not any(out.iterdir())


def test_known_version_is_accepted_in_toml(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('version = 1\n[[types]]\nrecord = "p"\nfields = [["x", "int32"]]\n')
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "layout", "m.toml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "M.p" in proc.stdout


# --- a search for disagreements -----------------------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

# Mostly well-formed pieces (so that many documents are accepted), some of every bad kind.
_good_names = st.from_regex(r"[a-z]{1,2}[0-9]{1,2}", fullmatch=True)
_bad_names = st.sampled_from(["_x", "int32", "int", "float", "class", "a__b", "", "2x", "x-y",
                              LONG, LONG + "a", "caf\u00e9", "M.p", "_X", "x_"])
_names = st.one_of(_good_names, _good_names, _good_names, _bad_names)
_spaces = st.sampled_from(["", "", "", " ", "\t", "\n", "\x1c", "\x85", "\u00a0", "\u3000",
                           "\ufeff", "\r\n "])
_type_exprs = st.one_of(
    st.builds(lambda a, n, b, c: f"{a}{n}{b}{c}", _spaces,
              st.sampled_from(["int32", "float64", "bool", "unit", "int", "M.p", "p"]), _spaces,
              st.sampled_from(["", "", "", "array", "vector", "list", "*", ".x"])),
    st.builds(lambda a, n, b: f"{a}{n}{b}", _spaces, _names, _spaces),
    st.sampled_from(["'a", "int32 * int32", "(int32)", "int32,"]),
    st.integers(), st.none(),
)
_fields = st.lists(st.one_of(st.tuples(_names, _type_exprs).map(list),
                             st.tuples(_names, _type_exprs).map(list),
                             st.lists(_names, max_size=3)), max_size=3)
_ctors = st.lists(st.one_of(
    st.tuples(_names).map(list),
    st.tuples(_names, st.lists(_type_exprs, max_size=2)).map(list),
    st.tuples(_names, _type_exprs).map(list),
), max_size=3)
_decls = st.one_of(
    st.builds(lambda n, f: {"record": n, "fields": f}, _names, _fields),
    st.builds(lambda n, c: {"variant": n, "constructors": c}, _names, _ctors),
    st.dictionaries(st.sampled_from(["record", "variant", "fields", "constructors", "doc"]),
                    _names, max_size=3),
)
_documents = st.fixed_dictionaries(
    {"types": st.lists(_decls, max_size=3)},
    optional={"module": st.one_of(_names, st.just("M"), st.just("")),
              "version": st.sampled_from([1, 1, 2, "1", True]), "extra": st.just(1)},
)


@hypothesis.settings(max_examples=300, deadline=None,
                     suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
@hypothesis.given(document=_documents)
def test_json_schema_never_refuses_what_the_reader_accepts(document, tmp_path):
    reader = _reader_verdict(document, tmp_path)
    errors = _json_schema_errors(document)
    if reader is None:
        assert errors == [], (document, errors)
    elif not errors:
        assert any(k in reader for k in LEFT_TO_THE_READER), (document, reader)
