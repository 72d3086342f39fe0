"""Messages a newcomer meets first: the sub-command's own usage, and suggestions."""

from __future__ import annotations

import pytest

from sarek_layout.cli.main import main

from helpers.common import EXAMPLES

GEOMETRY = str(EXAMPLES / "geometry.toml")


def test_an_unknown_option_shows_the_sub_commands_usage(capsys):
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


@pytest.mark.parametrize("written, meant", [
    ("double", "float64"),  # C, CUDA, OpenCL, GLSL
    ("u32", "uint32"),      # Rust, Zig, WGSL
    ("uint", "uint32"),     # GLSL, OpenCL, Metal: not uint8, the closest spelling
    ("f32", "float32"),
    ("u8", "uint8"),
    ("int64_t", "int64"),   # still found by its spelling
])
@pytest.mark.parametrize("form", ["json", "toml"])
def test_a_type_spelt_as_another_language_spells_it_gets_the_schema_name(tmp_path, capsys,
                                                                         written, meant, form):
    """`double`, `u32` and `uint` got no suggestion, or `uint8` for `uint` (the nearest
    text). The schema's own scalar is suggested where the targets' languages spell it so."""
    if form == "json":
        path = tmp_path / "s.json"
        path.write_text('{"module": "S", "types": [{"record": "p", "fields": [["a", "%s"]]}]}'
                        % written)
    else:
        path = tmp_path / "s.toml"
        path.write_text(f'module = "S"\n[[types]]\nrecord = "p"\nfields = [["a", "{written}"]]\n')
    assert main(["layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [err.strip()], err
    assert f"error: unknown type '{written}'; did you mean '{meant}'?" in err, err
