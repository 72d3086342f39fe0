"""Source positions of many JSON values: one pass, the same answers (issue 24).

``diff`` of a schema whose every type changed asks where each type is; each question used to
scan the whole document, so a schema of N types cost N scans of a text that grows with N
(nesting depth 100: 2 s of a 2.7 s diff). After a few scans ``Positions`` now indexes the
text once. The answers must be those of the scan, for paths in the text, paths missing from
it (nearest ancestor) and repeated keys (first occurrence); the work is counted in scans.
"""

from __future__ import annotations

import json
import random

from sarek_layout.frontends.jsontoml import positions
from sarek_layout.frontends.jsontoml.positions import json_positions


def _random_value(rnd: random.Random, depth: int):
    if depth == 0 or rnd.random() < 0.3:
        return rnd.choice([1, "s", None, True, 2.5, "a,b:{c}"])
    if rnd.random() < 0.5:
        return [_random_value(rnd, depth - 1) for _ in range(rnd.randint(0, 4))]
    return {rnd.choice("abcd"): _random_value(rnd, depth - 1) for _ in range(rnd.randint(0, 4))}


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def test_the_index_gives_the_answers_of_the_scan(monkeypatch):
    rnd = random.Random(24)
    for _ in range(60):
        doc = _random_value(rnd, 5)
        text = json.dumps(doc, indent=rnd.choice([None, 1, 2]))
        if rnd.random() < 0.3 and text.startswith("{") and len(text) > 2:
            text = '{"a": 1, ' + text[1:] if text != "{}" else text  # a key repeated, maybe
        asked = list(_paths(doc))
        asked += [p + ("zz",) for p in asked[:5]] + [p + (99,) for p in asked[:5]]
        asked += [("missing", 0, "x")]
        rnd.shuffle(asked)
        monkeypatch.setattr(positions, "SCANS_BEFORE_INDEX", 10 ** 9)
        scanned = json_positions(text)
        expected = [scanned(p) for p in asked]
        monkeypatch.setattr(positions, "SCANS_BEFORE_INDEX", 0)
        indexed = json_positions(text)
        assert [indexed(p) for p in asked] == expected, text


def test_many_questions_cost_a_bounded_number_of_scans(monkeypatch):
    doc = {"module": "M", "types": [{"record": f"r{i}", "fields": [["x", "int32"]]}
                                    for i in range(2000)]}
    text = json.dumps(doc, indent=1)
    real = positions._json_find
    expected = {i: positions._line_col(text, real(text, ("types", i))) for i in (0, 7, 1999)}
    scans = []
    monkeypatch.setattr(positions, "_json_find", lambda t, p: scans.append(p) or real(t, p))
    where = json_positions(text)
    places = [where(("types", i)) for i in range(2000)]
    assert len(scans) <= positions.SCANS_BEFORE_INDEX, f"{len(scans)} scans for 2000 questions"
    assert {i: places[i] for i in expected} == expected
