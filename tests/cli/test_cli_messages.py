"""Messages a newcomer meets first: the sub-command's own usage, and suggestions."""

from __future__ import annotations

from sarek_layout.cli.main import main

from helpers.common import EXAMPLES

GEOMETRY = str(EXAMPLES / "geometry.toml")


def test_an_unknown_option_shows_the_sub_commands_usage(capsys):
    import pytest

    with pytest.raises(SystemExit) as info:
        main(["layout", GEOMETRY, "--bogus"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: sarek-layout layout ")
    assert "unrecognized arguments: --bogus" in err


def test_a_misspelt_type_name_gets_a_suggestion(capsys):
    assert main(["layout", GEOMETRY, "--type", "particl"]) == 2
    err = capsys.readouterr().err
    assert "no type named 'particl'" in err and "did you mean 'particle'?" in err
