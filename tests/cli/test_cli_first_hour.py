"""What a new user reads first (issue 22, item 6): the help and the docs name every target,
``diff --help`` names its positionals as its usage line does, and ``schema`` alone prints its
help. The target lists are read from the registry, so a new target must appear in them."""

from __future__ import annotations

import re

import pytest

from helpers.common import ROOT
from sarek_layout.cli.main import main
from sarek_layout.targets import DEFAULT_TARGETS, TARGETS


def _help(capsys, *args) -> str:
    with pytest.raises(SystemExit) as exited:
        main([*args, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


def _command_line(top_help: str, command: str) -> str:
    """The command's entry in the top-level help (its wrapped lines joined)."""
    lines = top_help.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.split()[:1] == [command])
    entry = [lines[start]]
    for ln in lines[start + 1:]:
        if not ln.startswith(" " * 14):  # a continuation is indented past the names
            break
        entry.append(ln)
    return " ".join(" ".join(entry).split())


def test_generate_in_the_top_level_help_names_every_target(capsys):
    entry = _command_line(_help(capsys), "generate")
    named = set(re.findall(r"[\w-]+", entry))
    assert set(TARGETS) <= named, entry


def test_generate_help_names_every_targets_file(capsys):
    text = " ".join(_help(capsys, "generate").split())
    for name, target in TARGETS.items():
        assert f"<stem>{target.suffix} ({name}:" in text, text
    assert f"Without -t: {', '.join(DEFAULT_TARGETS)}." in text


def test_diff_help_names_its_positionals_old_new(capsys):
    text = _help(capsys, "diff")
    positionals = text[text.index("positional arguments:"):text.index("options:")]
    assert re.search(r"^\s+OLD NEW\s", positionals, re.M), positionals
    assert "PATH" not in positionals


def test_schema_alone_prints_its_help_and_is_a_usage_error(capsys):
    status = main(["schema"])
    out, err = capsys.readouterr()
    assert status == 2  # SPEC §5: bad usage
    assert out == ""
    assert err.startswith("usage: sarek-layout schema")
    assert "Print the JSON Schema (draft-07)" in " ".join(err.split())
    assert "--json-schema" in err and "options:" in err


def test_schema_with_its_option_still_prints_the_json_schema(capsys):
    assert main(["schema", "--json-schema"]) == 0
    assert '"$schema"' in capsys.readouterr().out


def test_the_cmake_docs_list_every_target():
    text = (ROOT / "docs" / "build-integration.md").read_text()
    listed = re.search(r"\[TARGETS <([\w|]+)>\.\.\.\]", text)
    assert listed, "docs/build-integration.md: no [TARGETS <…>...] in the signature"
    assert listed.group(1).split("|") == list(TARGETS)
    files = re.search(r"The CMake function names the files `generate` writes \(([^)]*)\)",
                      " ".join(text.split()))
    assert files, "docs/build-integration.md: the list of the files the function names"
    suffixes = re.findall(r"`(?:<stem>)?([^`]+)`", files.group(1))
    assert suffixes == [t.suffix for t in TARGETS.values()]
    config = (ROOT / "sarek_layout" / "cmake" / "sarek_layoutConfig.cmake").read_text()
    signature = re.search(r"\[TARGETS <([\w|]+)>\.\.\.\]", config)
    assert signature and signature.group(1).split("|") == list(TARGETS)
