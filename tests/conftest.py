"""The fixtures every test folder shares; the helpers themselves are the ``helpers`` package.

The checkout's ``node_modules/.bin`` (TypeScript's tsc) is put on ``PATH``. ``toolchain``
parametrises with toolchain names (``indirect=True``); PoCL's kernel cache and
Zig's caches are kept inside the run's temporary folder; the few long items run first
(``helpers.ordering``: under pytest-xdist a long item collected last serialises the end).

The exhaustive enumerations (marked ``slow``) run whole under ``SAREK_EXHAUSTIVE=1`` (CI sets
it); ``make test`` runs the first of the parts one is split in (its ``group``, ``batch`` or
``part`` parameter) and skips the others, saying so; a single one samples itself
(``helpers.verify.sampled``).
"""

from __future__ import annotations

import os

import pytest

from helpers.common import ROOT, require_toolchain
from helpers.ordering import long_first
from helpers.verify import EXHAUSTIVE

# `.ci/run` installs TypeScript into the checkout (`npm install --no-save typescript@5`): its
# tsc is the typescript toolchain's, whatever folder a test or the CLI it starts runs in.
_NPM_BIN = ROOT / "node_modules" / ".bin"
if _NPM_BIN.is_dir() and str(_NPM_BIN) not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.pathsep.join([str(_NPM_BIN), os.environ.get("PATH", "")])


#: The parameters that split an exhaustive enumeration in parts.
_PART_PARAMETERS = ("group", "batch", "part")
_SAMPLED = pytest.mark.skip(reason="a later part of an exhaustive enumeration: make test runs "
                            "its first part, SAREK_EXHAUSTIVE=1 (CI) every part")


def _later_part(item) -> bool:
    callspec = getattr(item, "callspec", None)
    if item.get_closest_marker("slow") is None or callspec is None:
        return False
    return any(callspec.params.get(p, 0) != 0 for p in _PART_PARAMETERS)


def pytest_collection_modifyitems(config, items):
    # Every xdist worker collects and must order alike; the scheduler then splits the list.
    items[:] = long_first(items)
    if not EXHAUSTIVE:
        for item in items:
            if _later_part(item):
                item.add_marker(_SAMPLED)


@pytest.fixture
def toolchain(request):
    """Parametrise with toolchain names: ``@pytest.mark.parametrize("toolchain", [...], indirect=True)``."""
    return require_toolchain(request.param)


@pytest.fixture(autouse=True)
def _isolated_pocl_cache(tmp_path_factory, monkeypatch):
    # PoCL caches compiled kernels in $HOME by default; keep test runs hermetic.
    if "POCL_CACHE_DIR" not in os.environ:
        monkeypatch.setenv("POCL_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "pocl-cache"))


@pytest.fixture(autouse=True)
def _shared_zig_cache(tmp_path_factory, monkeypatch):
    # Zig builds std and compiler-rt pieces into its cache once per ABI; one cache for the
    # whole run (every xdist worker: zig locks its cache) instead of one per verify call,
    # and never the user's ~/.cache/zig.
    from helpers.zig import zig_env

    env = zig_env(tmp_path_factory)
    for var in ("ZIG_GLOBAL_CACHE_DIR", "ZIG_LOCAL_CACHE_DIR"):
        if var not in os.environ:
            monkeypatch.setenv(var, env[var])
