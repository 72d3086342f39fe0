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


def test_the_first_make_says_what_it_installs_before_pip_runs(tmp_path):
    """`make demo` (or `make test`) on a fresh clone first installs the package with pip,
    quietly, for about a minute: the user is told what is happening before it starts, not
    left at a silent prompt. A stand-in python records each call; nothing is installed."""
    import shutil
    import subprocess

    make = shutil.which("make")
    if make is None:
        pytest.skip("make not installed (apt-get install -y make)")
    fake = tmp_path / "python"
    fake.write_text('#!/bin/sh\necho "CALLED python $*"\n'
                    'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi\n')
    fake.chmod(0o755)
    venv = tmp_path / "venv"
    proc = subprocess.run([make, "--no-print-directory", "-C", str(ROOT), f"VENV={venv}",
                           f"PYTHON={fake}", f"{venv}/.installed"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    calls = [i for i, line in enumerate(lines) if line.startswith("CALLED ")]
    assert len(calls) == 3 and "-m pip install --quiet -e .[test]" in lines[calls[-1]], lines
    # What make printed before pip's install began, other than the commands it echoes.
    said = [line for line in lines[:calls[-1]] if not line.startswith("CALLED ")
            and " -m " not in line]
    assert any("installing sarek-layout" in line and "minute" in line for line in said), lines
    assert (venv / ".installed").exists()


def _yaml_blocks() -> list:
    """(file, block) of every ```yaml block of the README and docs/."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for block in re.findall(r"```yaml\n(.*?)```", path.read_text(), re.S):
            found.append((path.name, block))
    return found


def test_the_ci_snippets_install_sarek_layout_from_a_real_place():
    """sarek-layout is not on PyPI: the CI snippets used a URL with `<owner>` and `<tag>`
    to fill in. Each now installs the copy it says how to get: a git submodule at
    tools/sarek-layout, checked out with `submodules: true` in the same snippet."""
    installs = []
    for name, block in _yaml_blocks():
        for line in block.splitlines():
            if "pip install" in line and "sarek-layout" in line:
                installs.append((name, line.strip()))
                assert not re.search(r"<[\w-]+>", line), f"{name}: a placeholder: {line}"
                assert "./tools/sarek-layout" in line, f"{name}: from where? {line}"
                assert re.search(r"^\s+submodules: true", block, re.M), \
                    f"{name}: the submodule is not checked out: {block}"
    assert len(installs) >= 4, installs


def test_the_c_header_options_are_explained_once(capsys):
    """`-I`, `-D` and `--c-module` read the C headers of every command that reads schemas;
    their block of help was repeated in full in each command's --help. It is in the
    top-level help once; each command names them in one paragraph that points there."""
    from sarek_layout.cli.program import COMMANDS

    full = "wins over the header's own"  # a phrase of --c-module's whole explanation
    top = " ".join(_help(capsys).split())
    assert top.count(full) == 1, top
    for option in ("-I DIR", "-D NAME[=VALUE]", "--c-module HEADER=MODULE"):
        assert option in top, top
    taking = []
    for command in COMMANDS:
        text = " ".join(_help(capsys, command).split())
        assert full not in text, f"{command} --help repeats the C header options' help"
        if "--c-module" in text:
            taking.append(command)
            assert ("-I DIR, -D NAME[=VALUE] and --c-module HEADER=MODULE" in text
                    and "`sarek-layout --help`" in text), text
    assert {"layout", "generate", "verify", "diff", "explain", "import-c"} <= set(taking)


def _refresh_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("to update, run: ")]
    assert len(lines) == 1, err
    return lines[0][len("to update, run: "):]


@pytest.mark.parametrize("check", ["--check", "--diff"])
def test_a_stale_check_prints_the_command_that_refreshes(tmp_path, check):
    """`generate --check` (and the pre-commit hook, which is that command) said "would write
    … (stale)" and left the user to rebuild the command line. It prints the command, and
    that command, run by a shell as printed, makes the check pass."""
    import shutil
    import subprocess

    from helpers.integration import tool_env

    folder = tmp_path / "my schemas"
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "geometry.toml", folder / "geometry.toml")
    (tmp_path / "inc").mkdir()
    argv = ["sarek-layout", "generate", "my schemas/geometry.toml", "-o", "out dir", "-t",
            "c", "-t", "zig", "--depfile", "out dir/sarek.d", "-I", "inc", "-D", "X=1"]
    env = tool_env()
    proc = subprocess.run(argv + [check], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    command = _refresh_line(proc.stderr)
    assert command.startswith("sarek-layout generate ") and check not in command, command
    subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, env=env, check=True,
                   capture_output=True, timeout=120)
    proc = subprocess.run(argv + [check], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "to update, run" not in proc.stderr
    assert (tmp_path / "out dir" / "sarek.d").exists()  # the command kept --depfile


def test_a_stale_picture_check_prints_the_command_that_refreshes(tmp_path):
    import shutil
    import subprocess

    from helpers.integration import tool_env

    shutil.copy(ROOT / "examples" / "geometry.toml", tmp_path / "geometry.toml")
    argv = ["sarek-layout", "explain", "geometry.toml", "--svg", "map.svg", "--type", "point"]
    env = tool_env()
    proc = subprocess.run(argv + ["--check"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    command = _refresh_line(proc.stderr)
    subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, env=env, check=True,
                   capture_output=True, timeout=120)
    proc = subprocess.run(argv + ["--check"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
