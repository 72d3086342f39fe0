"""``import-c`` of a header of records each nesting the one before is linear in the depth
(issue 24, the nesting-depth rows of section 9).

Generated headers align a member at 8 when it holds an 8-byte scalar somewhere inside, and
the reader checks each such alignment by walking the member's type down to that scalar: for
the record nested ``i`` deep, ``i`` records, so a chain ``N`` deep walked about ``N^2 / 2``.
A struct body's answer is now kept. The bound is on work (scalar spellings read), not time.
"""

from __future__ import annotations

import json
import shutil

import pytest

from sarek_layout.cli.main import main
from sarek_layout.frontends.c import changes

pytestmark = pytest.mark.skipif(shutil.which("cpp") is None and shutil.which("gcc") is None,
                                reason="reading C headers needs cpp (apt-get install cpp)")

DEPTH = 100  # SPEC's deepest nesting


def _deep_header(tmp_path) -> str:
    types = [{"record": "d0", "fields": [["x", "float32"], ["y", "int64"]]}]
    types += [{"record": f"d{i}", "fields": [["inner", f"d{i - 1}"], ["tag", "uint8"]]}
              for i in range(1, DEPTH)]
    schema = tmp_path / "deep.json"
    schema.write_text(json.dumps({"module": "Deep", "types": types}))
    assert main(["generate", str(schema), "-o", str(tmp_path / "h"), "-t", "c"]) == 0
    (path,) = (tmp_path / "h").glob("*.h")
    return str(path)


def test_alignment_checks_of_a_deep_chain_are_linear(tmp_path, monkeypatch, capsys):
    path = _deep_header(tmp_path)
    spelled = []
    real = changes.canonical

    def counting(names):
        spelled.append(names)
        return real(names)

    monkeypatch.setattr(changes, "canonical", counting)
    assert main(["import-c", path, "-o", str(tmp_path / "back")]) == 0
    capsys.readouterr()
    # The alignment check reads at most a few scalar spellings per record; walking every
    # aligned member down to the bottom read about DEPTH^2 / 2 (about 5,000).
    assert len(spelled) <= 4 * DEPTH, (
        f"{len(spelled)} scalar spellings read checking the alignments of a chain {DEPTH} "
        f"deep: each aligned member walked down to the bottom")
    (back,) = (tmp_path / "back").glob("*.toml")
    records = [line for line in back.read_text().splitlines() if line.startswith("record = ")]
    assert records == [f'record = "d{i}"' for i in range(DEPTH)]  # the same records back
