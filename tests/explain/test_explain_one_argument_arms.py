"""``layout`` and ``explain`` show a constructor of one argument as the generated header
declares it (issue 22, item 6c): the arm ``Spawn_v`` is the argument itself, read
``v.data.Spawn_v``, not a ``struct { body _0; } Spawn_v``. The spelling is read from the
generated C header, so the text reports follow the header if it ever changes."""

from __future__ import annotations

import re

from sarek_layout.cli.main import main

SCHEMA = """\
module = "Game"
[[types]]
record = "body"
fields = [["x", "float32"], ["mass", "float64"]]
[[types]]
variant = "event"
constructors = [["Spawn", ["body"]], ["Hit", ["int32", "float32"]], ["Quit"], ["Score", ["int32"]]]
"""

ONE_ARGUMENT = ["Spawn", "Score"]


def _run(capsys, *args) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _union(text: str) -> str:
    """The text between the variant's ``union {`` and its closing ``} data;``."""
    start = text.index("union {")
    return text[start:text.index("} data;", start)]


def test_the_generated_header_declares_one_argument_arms_as_the_argument(capsys, tmp_path):
    schema = tmp_path / "game.toml"
    schema.write_text(SCHEMA)
    _run(capsys, "generate", str(schema), "-o", str(tmp_path), "-t", "c")
    union = _union((tmp_path / "game.h").read_text())
    for ctor in ONE_ARGUMENT:
        assert re.search(rf"^\s*(?:\w+ )*\w+ {ctor}_v;", union, re.M), union
    assert re.search(r"^\s*\} Hit_v;", union, re.M), union


def test_layout_and_explain_spell_them_as_the_header_does(capsys, tmp_path):
    schema = tmp_path / "game.toml"
    schema.write_text(SCHEMA)
    for command in ("layout", "explain"):
        union = _union(_run(capsys, command, str(schema), "--type", "event"))
        # Scalar argument: one line declaring the arm.
        assert re.search(r"^\s+int32\s+Score_v;\s+/\*\s+8\s+4 \*/$", union, re.M), union
        # Record argument: the arm is the record (opened in explain, one line in layout).
        if command == "layout":
            assert re.search(r"^\s+body\s+Spawn_v;\s+/\*\s+8\s+16 \*/$", union, re.M), union
        else:
            assert re.search(r"^\s+body \{\n(?:.*\n)*?\s+\} Spawn_v;\s+/\*\s+8\s+16 \*/$",
                             union, re.M), union
        # Only the constructor of two arguments has a struct of _0, _1.
        assert union.count("struct {") == 1, union
        assert len(re.findall(r"\b_0;", union)) == 1, union
        # Each arm still says which constructor it is, with its tag and payload.
        assert "Spawn (tag 0): payload 16 bytes, the largest" in union
        assert "Score (tag 3): payload 4 bytes, wastes 12 against the largest" in union
