"""Zig's global cache in a per-user private folder (``verify.cache``): what Zig derives from
its own standard library is kept between runs, no answer is, and nothing is read back from a
folder another user could write.

Without it every ``zig build-obj`` of a run started from a cold cache (about 0.45 s of CPU of
zig's 1 s in ``verify`` of the example). The probe and the headers are compiled through the
local cache, in the compile folder: the private folder never holds a probe value.
"""

from __future__ import annotations

import os
import stat

import pytest

from helpers.common import EXAMPLES, require_toolchain
from sarek_layout.resolve import load_schema
from sarek_layout.verify import AGREES
from sarek_layout.verify.cache import private_cache
from sarek_layout.verify.drivers import zig as zig_driver
from sarek_layout.verify.probes import probes_for
from sarek_layout.verify.run import generated_headers, measure_with


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    home = tmp_path / "xdg-cache"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def test_the_private_cache_is_made_for_this_user_alone(cache_home):
    folder = private_cache("zig-global")
    assert folder == os.path.join(os.path.realpath(cache_home), "sarek-layout", "zig-global")
    for path in (folder, os.path.dirname(folder)):
        st = os.lstat(path)
        assert stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid()
        assert st.st_mode & 0o777 == 0o700
    assert private_cache("zig-global") == folder  # and found again as it is


def test_a_folder_others_may_write_is_not_trusted(cache_home):
    os.chmod(cache_home, 0o777)  # not sticky: anyone could swap sarek-layout/ for theirs
    assert private_cache("zig-global") is None


def test_a_cache_folder_that_others_may_read_or_write_is_not_used(cache_home):
    (cache_home / "sarek-layout").mkdir(mode=0o700)
    (cache_home / "sarek-layout" / "zig-global").mkdir()
    os.chmod(cache_home / "sarek-layout" / "zig-global", 0o777)
    assert private_cache("zig-global") is None


def test_a_link_in_place_of_the_cache_folder_is_not_followed(cache_home, tmp_path):
    (cache_home / "sarek-layout").mkdir(mode=0o700)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (cache_home / "sarek-layout" / "zig-global").symlink_to(elsewhere)
    assert private_cache("zig-global") is None


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make a folder someone else owns")
def test_a_cache_folder_of_another_user_is_not_used(cache_home):
    (cache_home / "sarek-layout").mkdir(mode=0o700)
    theirs = cache_home / "sarek-layout" / "zig-global"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 4321, 4321)
    assert private_cache("zig-global") is None


def test_zig_runs_with_the_private_global_cache_and_a_local_cache_of_its_own(cache_home,
                                                                               monkeypatch,
                                                                               tmp_path):
    monkeypatch.delenv("ZIG_GLOBAL_CACHE_DIR", raising=False)
    monkeypatch.delenv("ZIG_LOCAL_CACHE_DIR", raising=False)
    env = zig_driver.zig_env(str(tmp_path / "compile"))
    assert env["ZIG_GLOBAL_CACHE_DIR"] == private_cache("zig-global")
    assert env["ZIG_LOCAL_CACHE_DIR"] == str(tmp_path / "compile" / "zig-local-cache")


def test_without_a_trusted_folder_the_global_cache_is_the_compile_folders(cache_home,
                                                                         monkeypatch, tmp_path):
    monkeypatch.delenv("ZIG_GLOBAL_CACHE_DIR", raising=False)
    os.chmod(cache_home, 0o777)
    env = zig_driver.zig_env(str(tmp_path / "compile"))
    assert env["ZIG_GLOBAL_CACHE_DIR"] == str(tmp_path / "compile" / "zig-global-cache")


def test_the_private_cache_keeps_no_probe_value_between_runs(cache_home, monkeypatch):
    """Two runs of the zig toolchain: both compile (each pass writes its object in its own
    compile folder), and the private cache holds Zig's standard library but nothing of the
    probe: no file there names the probe table or a generated type (``Geometry_point``;
    plain ``Geometry`` is a word of Zig's own UEFI bindings)."""
    tc = require_toolchain("zig")
    monkeypatch.delenv("ZIG_GLOBAL_CACHE_DIR", raising=False)
    monkeypatch.delenv("ZIG_LOCAL_CACHE_DIR", raising=False)
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    headers = generated_headers(schema, ["zig"])["zig"]
    probes = probes_for(schema.types)
    for _ in range(2):
        result = measure_with(tc, headers, probes)
        assert result.status == AGREES, result.error
    folder = private_cache("zig-global")
    files = [os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs]
    assert files, "zig wrote nothing to its global cache"
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        assert b"sarek_probe" not in data and b"Geometry_" not in data, path
