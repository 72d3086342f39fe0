"""The suite's own order (tests/helpers/ordering.py): the long items are collected first, so
that pytest-xdist never leaves one of them for the end of the run."""

from __future__ import annotations

import re

from helpers.common import ROOT
from helpers.ordering import LONG, function_id, long_first


def test_long_first_is_a_stable_partition():
    rustc = "tests/verify/test_verify_rustc.py::test_conformance_subset_agrees"
    part = "tests/verify/test_verify_drivers.py::test_conformance_enumeration_agrees"
    ids = ["tests/abi/test_a.py::test_x", f"{part}[1-gcc]", "tests/abi/test_a.py::test_y[2]",
           rustc, f"{part}[0-gcc]"]
    assert long_first(ids, nodeid=str) == [f"{part}[1-gcc]", rustc, f"{part}[0-gcc]",
                                           "tests/abi/test_a.py::test_x",
                                           "tests/abi/test_a.py::test_y[2]"]


def test_every_long_name_is_a_test_function():
    """A renamed or deleted test must leave the list, or the order quietly stops working."""
    for name in sorted(LONG):
        path, _, function = name.partition("::")
        text = (ROOT / path).read_text()
        assert re.search(rf"^def {re.escape(function)}\(", text, re.M), name


def test_a_run_starts_with_the_long_items():
    """The suite's collection hook (``conftest.pytest_collection_modifyitems``) puts the long
    items first: a collection of a short file given first and a file holding a long test
    function given second starts with that function's items, and none comes later. (This
    used to look at the current run only, and checked nothing when the run had no long
    item, as every run of a few files has.)"""
    import subprocess
    import sys

    short, holding = "tests/abi/test_diff_cli.py", "tests/codegen/test_gpu_small_scalars.py"
    long_here = {name for name in LONG if name.startswith(holding + "::")}
    assert long_here, f"{holding} holds no test function of LONG any more: pick another"
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0",
                           "-p", "no:cacheprovider", short, holding], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    items = [function_id(line) for line in proc.stdout.splitlines() if "::" in line]
    assert len(items) > len(long_here) and any(i.startswith(short) for i in items), items
    first_other = next(k for k, i in enumerate(items) if i not in LONG)
    assert first_other > 0 and set(items[:first_other]) == long_here, items[:5]
    assert not [i for i in items[first_other:] if i in LONG], items
