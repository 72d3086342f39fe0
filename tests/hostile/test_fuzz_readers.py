"""Fuzzing the schema readers: whatever the bytes, the answer is a schema or one of the
project's own errors, with a one-line message whose position can be printed, in time linear
in the input.

Budget: ``SAREK_FUZZ_EXAMPLES`` examples per harness (default 150; CI raises it for a bounded
session). Inputs that once broke something live in ``tests/fuzz_corpus/`` and are replayed on
every run.

Time: every example is read under a CPU-time budget proportional to its size
(``TIME_BASE_S`` plus ``TIME_PER_BYTE_S`` a byte, both generous: a correct reader needs a
small fraction), enforced by a CPU-time timer signal (``ITIMER_PROF``) that interrupts even a
regular expression stuck in backtracking. A reader that is exponential or quadratic in some
input fails with the input instead of hanging. CPU time, so that a loaded machine does not
fail it; a wall-clock timer at ``HANG_FACTOR`` times the budget is only a hang guard (the
preprocessor a C header starts runs in another process, under its own limits).
Every reader is also run on files whose names hold spaces, ``=``, ``;``, ``$``, quotes,
newlines and bytes that are not UTF-8, and must name them right in its messages.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import re
import signal

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sarek_layout import SarekLayoutError
from sarek_layout.frontends import READERS
from sarek_layout.resolve import load_schema

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "fuzz_corpus"
BUDGET = settings(
    max_examples=int(os.environ.get("SAREK_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                           HealthCheck.filter_too_much],
)


#: The deadline of one read: a fixed part (a C header starts a preprocessor) and a part per
#: byte of input, some hundred times what the slowest reader (pycparser) needs.
TIME_BASE_S = 5.0
TIME_PER_BYTE_S = 1e-3


class TooSlow(AssertionError):
    pass


#: The wall-clock hang guard, as a multiple of the CPU budget (tests/helpers/bounded.py).
HANG_FACTOR = 10


@contextlib.contextmanager
def deadline(seconds: float, what: str):
    """Fail with ``TooSlow`` when the block uses more than ``seconds`` of this process's CPU
    time, or runs ``HANG_FACTOR`` times that on the clock (a hang guard)."""

    def too_much_cpu(signum, frame):
        raise TooSlow(f"{what} used more than {seconds:.1f} s of CPU: not linear in the input")

    def hang(signum, frame):
        raise TooSlow(f"hang guard: {what} still ran after {HANG_FACTOR * seconds:.1f} s of "
                      f"wall-clock time (it waits on something; not a measure of speed)")

    previous = (signal.signal(signal.SIGPROF, too_much_cpu), signal.signal(signal.SIGALRM, hang))
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, HANG_FACTOR * seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


def printed(path) -> str:
    """A file name as diagnostics print it: escaped when it has control characters, so that
    a message stays on one line."""
    text = str(path)
    return text if text.isprintable() else ascii(text)[1:-1]


_LINE_MARKER = re.compile(rb"^[ \t]*#[ \t]*(?:line[ \t]+)?[0-9]", re.M)


def _has_line_marker(path: pathlib.Path) -> bool:
    """A C line marker (``# 1 "other.h"``) moves what follows into another file, for
    messages too, as in every C compiler."""
    return path.suffix == ".h" and _LINE_MARKER.search(path.read_bytes()) is not None


def check_outcome(path: pathlib.Path) -> None:
    """The only acceptable outcomes: a laid-out schema, or a printable project error, within
    a deadline proportional to the input's size."""
    size = os.path.getsize(path)
    budget = TIME_BASE_S + TIME_PER_BYTE_S * size
    try:
        with deadline(budget, f"reading {size} bytes of {printed(path)}"):
            schema = load_schema([str(path)])
    except SarekLayoutError as e:
        # One line per refusal (a file may have several independent ones: ``SchemaErrors``).
        for one in getattr(e, "errors", (e,)):
            message = str(one)
            assert message and "\n" not in message.strip(), message
            location = getattr(one, "location", None)
            if location is not None and not _has_line_marker(path):
                assert str(location).startswith(printed(path)), (str(location), printed(path))
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


# --- repetition: what is linear on 200 bytes may not be on 20,000 --------------------------------

#: Fragments that matter to some reader's lexer: a few of them, repeated many times, make
#: the inputs that find backtracking and quadratic scans.
FRAGMENTS = {
    ".ml": ['"', "\\", "\\\n", "(*", "*)", "{|", "|}", "{%a", "{%a b|", "'", "'\\", "'a",
            "[@@", "]", "(", ")", "type t = ", "{", "}", "a.", " and ", "0x", "1_", "\n"],
    ".h": ['"', "\\", "'", "\\x", "__attribute__((", "))", "(", ")", "[[", "]]", "#pragma pack\n",
           "# 1 \"x\"\n", "{", "}", ";", "int ", "_Alignas(8) ", "enum { T_A = ", "1 << ",
           "+1", "-", "typedef struct T { int32_t tag; } T;\n", "/*", "*/", "\n"],
    ".json": ['"', "\\", "[", "]", "{", "}", ",", ":", "1", "-", "e9", "\\u", "NaN", " "],
    ".toml": ['"', "'", "\\", "[", "]", "{", "}", "=", ",", "a", ".", '"""', "\n", "#", "1"],
}


def _repeated(suffix: str):
    fragments = st.lists(st.sampled_from(FRAGMENTS[suffix]), max_size=3).map("".join)
    unit = st.lists(st.sampled_from(FRAGMENTS[suffix]), min_size=1, max_size=3).map("".join)
    return st.tuples(st.just(suffix), fragments, unit, st.integers(1, 3000), fragments)


@BUDGET
@given(st.sampled_from(sorted(FRAGMENTS)).flatmap(_repeated))
# Inputs that were once exponential or quadratic: always tried, before the random ones.
@example((".ml", '"', "\\\n", 3000, ""))
@example((".ml", '(* "', "\\\n", 3000, ""))
@example((".ml", "{%", "a", 3000, ""))
@example((".ml", "type t = A [@@", "a.", 3000, "a]"))
@example((".h", "typedef struct T { int32_t tag; } T;\nenum { T_A = ", "1 + ", 3000, "1, T_B };"))
@example((".h", "", "__attribute__((", 3000, ""))
@example((".json", "", "[", 3000, ""))
@example((".toml", "a = ", "[", 3000, ""))
def test_repeated_fragments_are_read_in_linear_time(tmp_path, case):
    """``head + unit * times + tail``: an opening quote then a thousand backslash-newlines,
    a thousand ``(*``, a long attribute path…"""
    suffix, head, unit, times, tail = case
    path = tmp_path / f"repeated{suffix}"
    path.write_text(head + unit * times + tail)
    check_outcome(path)


# --- file names: every reader, every character a file system allows ------------------------------

VALID = {
    ".json": '{"module": "M", "types": [{"record": "p", "fields": [["x", "int32"]]}]}',
    ".toml": 'module = "M"\n[[types]]\nrecord = "p"\nfields = [["x", "int32"]]\n',
    ".ml": "type p = { x : int32 } [@@sarek.type]\n",
    ".h": "#include <stdint.h>\ntypedef struct P { int32_t x; } P;\n",
}
#: Refused by the reader itself, before names are checked: (content, "LINE:COL", fragment).
INVALID = {
    ".json": ('{"module": "M",\n "types": [}', "2:12", "invalid JSON"),
    ".toml": ('module = "M"\n[[types]]\nrecord = \n', "3:10", "invalid TOML"),
    ".ml": ("type p = { x : int32 [@@sarek.type]\n", "1:10", "unclosed '{'"),
    ".h": ("#include <stdint.h>\ntypedef struct P { int32_t *x; } P;\n", "2:29", "is a pointer"),
}
STEMS = [b"sp ace", b"a=b", b"semi;colon", b"dol$lar", b"quote\"d", b"apo'strophe",
         b"back\\slash", b"new\nline", b"tab\tbed", b"caf\xe9", b"-dash", b"star*", b"percent%"]


def _named_file(folder: pathlib.Path, stem: bytes, suffix: str, text: str) -> pathlib.Path:
    raw = os.path.join(os.fsencode(folder), stem + os.fsencode(suffix))
    try:
        with open(raw, "wb") as f:
            f.write(text.encode())
    except OSError as e:  # a file system that refuses the name: nothing to read
        pytest.skip(f"this file system refuses the name: {e}")
    return pathlib.Path(os.fsdecode(raw))  # as Python spells such a name (surrogateescape)


@pytest.mark.parametrize("suffix", sorted(VALID))
@pytest.mark.parametrize("stem", STEMS, ids=[ascii(s)[2:-1] for s in STEMS])
def test_every_reader_reads_files_with_any_characters_in_their_names(tmp_path, suffix, stem):
    path = _named_file(tmp_path, stem, suffix, VALID[suffix])
    check_outcome(path)
    if suffix != ".ml":  # an OCaml module is named by its file: most of these are refused
        assert [t.name for t in load_schema([str(path)]).types] == ["p" if suffix != ".h" else "P"]


@pytest.mark.parametrize("suffix", sorted(INVALID))
@pytest.mark.parametrize("stem", STEMS, ids=[ascii(s)[2:-1] for s in STEMS])
def test_every_reader_names_files_with_any_characters_in_its_errors(tmp_path, suffix, stem):
    text, where, fragment = INVALID[suffix]
    path = _named_file(tmp_path, stem, suffix, text)
    check_outcome(path)
    with pytest.raises(SarekLayoutError) as info:
        load_schema([str(path)])
    message = str(info.value)
    assert message.startswith(f"{printed(path)}:{where}: error: ") and fragment in message, message
