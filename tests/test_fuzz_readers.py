"""Fuzzing the schema readers: whatever the bytes, the answer is a schema or one of the
project's own errors, with a one-line message whose position can be printed.

Budget: ``SAREK_FUZZ_EXAMPLES`` examples per harness (default 150; CI raises it for a bounded
session). Inputs that once broke something live in ``tests/fuzz_corpus/`` and are replayed on
every run.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarek_layout import SarekLayoutError
from sarek_layout.frontends import READERS, load_schema

CORPUS = pathlib.Path(__file__).parent / "fuzz_corpus"
BUDGET = settings(
    max_examples=int(os.environ.get("SAREK_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                           HealthCheck.filter_too_much],
)


def check_outcome(path: pathlib.Path) -> None:
    """The only acceptable outcomes: a laid-out schema, or a printable project error."""
    try:
        schema = load_schema([str(path)])
    except SarekLayoutError as e:
        message = str(e)
        assert message and "\n" not in message.strip(), message
        location = getattr(e, "location", None)
        if location is not None:
            assert str(location).startswith(str(path))
        return
    for t in schema.types:
        assert t.layout.size % t.layout.align == 0
        assert t.layout.size >= 4 or t.kind == "record"


# --- schema-shaped documents -------------------------------------------------------------------

NAMES = st.sampled_from(["p", "q", "point", "x", "y", "A", "B", "Empty", "int", "class", "_0",
                         "", "2x", "é", "a b", "M.p", "Geo.point", "kernel", "_sarek_pad"])
TYPES = st.sampled_from(["int32", "int64", "float32", "float64", "bool", "unit", "int", "float",
                         "p", "q", "point", "p array", "q vector", "'a t", "int32 * int32",
                         "M.p", "", "  ", "p list", "(p)"])
SCALARS = st.one_of(NAMES, TYPES, st.integers(-3, 3), st.booleans(), st.floats(allow_nan=False),
                    st.text(max_size=6))


def _value(depth: int = 3):
    if depth == 0:
        return SCALARS
    inner = st.deferred(lambda: _value(depth - 1))
    return st.one_of(SCALARS, st.lists(inner, max_size=4),
                     st.dictionaries(st.one_of(NAMES, st.sampled_from(
                         ["record", "variant", "fields", "constructors", "module", "types"])),
                         inner, max_size=4))


field = st.one_of(st.tuples(NAMES, TYPES).map(list), _value(1))
ctor = st.one_of(st.tuples(NAMES).map(list), st.tuples(NAMES, st.lists(TYPES, max_size=3)).map(list),
                 _value(1))
decl = st.one_of(
    st.fixed_dictionaries({"record": NAMES, "fields": st.lists(field, max_size=4)}),
    st.fixed_dictionaries({"variant": NAMES, "constructors": st.lists(ctor, max_size=4)}),
    _value(2),
)
document = st.one_of(
    st.fixed_dictionaries({"types": st.lists(decl, max_size=5)},
                          optional={"module": st.one_of(NAMES, st.integers())}),
    _value(3),
)


def toml_text(doc) -> str | None:
    """A TOML rendering of ``doc`` (None when TOML cannot express it)."""

    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v) if v == v and v not in (float("inf"), float("-inf")) else None
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            items = [value(x) for x in v]
            return None if None in items else "[" + ", ".join(items) + "]"
        if isinstance(v, dict):
            items = [(json.dumps(k), value(x)) for k, x in v.items()]
            return None if any(x is None for _, x in items) else (
                "{" + ", ".join(f"{k} = {x}" for k, x in items) + "}")
        return None

    if not isinstance(doc, dict):
        return None
    lines = []
    tables = []
    for k, v in doc.items():
        if k == "types" and isinstance(v, list) and all(isinstance(d, dict) for d in v):
            tables = v
            continue
        rendered = value(v)
        if rendered is None:
            return None
        lines.append(f"{json.dumps(k)} = {rendered}")
    for table in tables:
        lines.append("[[types]]")
        for k, v in table.items():
            rendered = value(v)
            if rendered is None:
                return None
            lines.append(f"{json.dumps(k)} = {rendered}")
    return "\n".join(lines) + "\n"


@BUDGET
@given(document)
def test_json_documents_never_crash(tmp_path, doc):
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(doc, indent=1))
    check_outcome(path)


@BUDGET
@given(document)
def test_toml_documents_never_crash(tmp_path, doc):
    text = toml_text(doc)
    if text is None:
        return
    path = tmp_path / "fuzz.toml"
    path.write_text(text)
    check_outcome(path)


@BUDGET
@given(st.sampled_from(sorted(READERS)), st.one_of(st.binary(max_size=200), st.text(max_size=200)))
def test_arbitrary_bytes_never_crash(tmp_path, suffix, data):
    path = tmp_path / f"fuzz{suffix}"
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", errors="surrogatepass") if data.isprintable() else \
            path.write_bytes(data.encode("utf-8", "replace"))
    else:
        path.write_bytes(data)
    check_outcome(path)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*")), ids=lambda p: p.name)
def test_corpus_inputs_never_crash(path):
    if path.suffix.lower() not in READERS:
        pytest.skip(f"no reader for {path.suffix} in this build")
    check_outcome(path)
