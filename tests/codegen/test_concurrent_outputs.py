"""Concurrent ``generate`` runs into one folder never refuse each other (issue #25).

``test_eight_concurrent_generates_leave_complete_identical_files`` (test_generate_hardening.py)
failed once: one of eight runs exited 2 with "refusing to write the Python module …: it is
the same file as the header …". The output check told outputs apart by inode, while another
run was replacing them: its rename frees the old inode of one output, its next temporary
file can get that inode back, and its next rename puts it at the next output. The checking
run then sees one inode at two outputs.

Inode reuse cannot be forced from a test, so here the other run moves that inode from one
output to the next itself, between the checking run's two ``stat`` calls: the checking run
sees exactly what it saw in the failure, every time.
"""

from __future__ import annotations

import os
import pathlib

from sarek_layout.cli.main import main
from sarek_layout.codegen import output_paths
from sarek_layout.codegen.output_paths import Output, check_outputs

from helpers.common import EXAMPLES

GEOMETRY = str(EXAMPLES / "geometry.toml")


def _replace_like_another_run(first: pathlib.Path, second: pathlib.Path) -> None:
    """What a concurrent run does to the folder, with the inode reuse made certain: the old
    inode of ``first`` ends up at ``second``, and ``first`` gets a new one."""
    moved = first.with_name(".moving")
    os.link(first, moved)
    os.replace(moved, second)  # `second` now holds the inode `first` had
    fresh = first.with_name(".fresh")
    fresh.write_bytes(first.read_bytes())
    os.replace(fresh, first)


def _stat_racing_with_another_run(monkeypatch, first: pathlib.Path, second: pathlib.Path):
    real_stat = os.stat
    done = []

    def racing_stat(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if not done and os.fspath(path) == str(first):
            done.append(True)
            _replace_like_another_run(first, second)
        return result

    monkeypatch.setattr(output_paths.os, "stat", racing_stat)
    return done


def test_an_inode_moving_between_outputs_during_the_check_is_not_a_clash(tmp_path, monkeypatch):
    header, module = tmp_path / "geometry.h", tmp_path / "geometry_layout.py"
    header.write_text("old header\n")
    module.write_text("old module\n")
    done = _stat_racing_with_another_run(monkeypatch, header, module)
    check_outputs([Output(str(header), "header"), Output(str(module), "Python module")],
                  [GEOMETRY], writing=True)
    assert done, "the race was not staged"


def test_generate_racing_with_another_run_writes_every_file(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    argv = ["generate", GEOMETRY, "-o", str(out), "-t", "c", "-t", "python"]
    assert main(argv) == 0  # the files "another run" is replacing
    reference = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    done = _stat_racing_with_another_run(monkeypatch, out / "geometry.h", out / "geometry_layout.py")
    status = main(argv)
    _, err = capsys.readouterr()
    assert done, "the race was not staged"
    assert status == 0, err
    monkeypatch.undo()
    assert main(argv) == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == reference


def test_two_outputs_that_are_one_file_are_still_refused(tmp_path):
    """By resolved path: a link between two outputs, or two spellings of one."""
    import pytest

    from sarek_layout.errors import UsageError

    (tmp_path / "geometry.h").write_text("x\n")
    os.symlink("geometry.h", tmp_path / "also.py")
    with pytest.raises(UsageError, match="same file as the header"):
        check_outputs([Output(str(tmp_path / "geometry.h"), "header"),
                       Output(str(tmp_path / "also.py"), "Python module")], [GEOMETRY],
                      writing=True)
    with pytest.raises(UsageError, match="same file as the header"):
        check_outputs([Output(str(tmp_path / "new.h"), "header"),
                       Output(str(tmp_path / "sub" / ".." / "new.h"), "dependency file")],
                      [GEOMETRY], writing=True)
