"""The fixtures every test folder shares; the helpers themselves are the ``helpers`` package.

``toolchain`` parametrises with toolchain names (``indirect=True``); PoCL's kernel cache is
kept inside the run's temporary folder.
"""

from __future__ import annotations

import os

import pytest

from helpers.common import require_toolchain


@pytest.fixture
def toolchain(request):
    """Parametrise with toolchain names: ``@pytest.mark.parametrize("toolchain", [...], indirect=True)``."""
    return require_toolchain(request.param)


@pytest.fixture(autouse=True)
def _isolated_pocl_cache(tmp_path_factory, monkeypatch):
    # PoCL caches compiled kernels in $HOME by default; keep test runs hermetic.
    if "POCL_CACHE_DIR" not in os.environ:
        monkeypatch.setenv("POCL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "pocl-cache"))
