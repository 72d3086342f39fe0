"""``generate`` of many independent schema files is linear in the number of files.

Work is counted, not timed: the lines of ``sarek_layout`` that run (a trace function that
counts line events in the package's own frames and ignores every other frame) for N and
5N independent files, each one small record. A step that scans every module for every module (the depfile's list of sources once did)
grows as N² and fails the ratio; counts are deterministic, so the machine's load cannot.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

import sarek_layout
from sarek_layout.cli.main import main

_PACKAGE = os.path.dirname(os.path.abspath(sarek_layout.__file__)) + os.sep

#: time(5N)/time(N) of the issue's scaling sections, here on counted work.
_LINEAR = 5.5


def _write_independent(folder, n: int):
    paths = []
    for i in range(n):
        path = folder / f"m{i}.json"
        path.write_text(json.dumps({"module": f"M{i}", "types": [
            {"record": f"r{i}", "fields": [["a", "float32"], ["b", "int64"], ["c", "uint8"]]}]}))
        paths.append(str(path))
    return paths


def _lines_run(argv) -> int:
    """Line events in ``sarek_layout``'s own code while ``main(argv)`` runs."""
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    def global_(frame, event, arg):
        if frame.f_code.co_filename.startswith(_PACKAGE):
            return local
        return None

    sys.settrace(global_)
    try:
        status = main(argv)
    finally:
        sys.settrace(None)
    assert status in (0, None)
    return count


@pytest.mark.parametrize("targets", [
    ["-t", "c"], ["-t", "c", "-t", "cuda", "-t", "opencl"],
    # Every other target: metal's check of escaped type names once ran over the whole schema
    # for every file.
    ["-t", "metal", "-t", "glsl", "-t", "wgsl", "-t", "python", "-t", "rust", "-t", "zig"]])
def test_generate_of_many_independent_files_is_linear(tmp_path, targets, capsys):
    n = 80
    # A first run imports whatever the command imports, so that module bodies do not count.
    (tmp_path / "warm").mkdir()
    warm = _write_independent(tmp_path / "warm", 2)
    _lines_run(["generate", *warm, "-o", str(tmp_path / "out_warm"), *targets])
    counts = []
    for size in (n, 5 * n):
        folder = tmp_path / f"n{size}"
        folder.mkdir()
        paths = _write_independent(folder, size)
        counts.append(_lines_run(["generate", *paths, "-o", str(tmp_path / f"out{size}"),
                                  *targets]))
        assert len(os.listdir(tmp_path / f"out{size}")) == size * (len(targets) // 2)
    capsys.readouterr()
    ratio = counts[1] / counts[0]
    assert ratio <= _LINEAR, (
        f"generate of {5 * n} files ran {counts[1]:,} lines of sarek_layout against {counts[0]:,} "
        f"for {n} files ({ratio:.2f}x, linear is 5): some step is superlinear in the files")
