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


def test_this_run_starts_with_the_long_items(request):
    items = [function_id(i.nodeid) for i in request.session.items]
    if not any(i in LONG for i in items):  # a run of a few files
        return
    first_other = next(k for k, i in enumerate(items) if i not in LONG)
    assert all(i not in LONG for i in items[first_other:])
