"""``generate`` never executes compiled templates read back from a file.

Jinja's file bytecode cache reads each entry back with ``pickle`` and executes the marshalled
code in it, from a per-user folder of the temp directory: whoever can plant a file there (a
shared or restored TMPDIR, a CI cache) runs code inside every ``generate``. Here a poisoned
entry is planted under every name the cache could look up, for every template and both the
tool's and Jinja's file name patterns, and ``generate`` must neither run it nor write a cache.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import subprocess
import sys
from pathlib import Path

from jinja2.bccache import Bucket, bc_magic

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "examples" / "geometry.toml"


class _Plant:
    """A pickle that, when loaded, creates the marker file (then fails the checksum)."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (os.system, (f"touch '{self.marker}'",))


def _poisoned_entry(marker: Path) -> bytes:
    return bc_magic + pickle.dumps(_Plant(marker)) + marshal.dumps(compile("0", "x", "eval"))


def _cache_names():
    """Every file name under which a Jinja file cache could look up one of our templates."""
    from sarek_layout.codegen import render

    env = render.environment()
    names = []
    for template in sorted(os.listdir(render.templates_location())):
        if not template.endswith(".j2"):
            continue
        filename = env.loader.get_source(env, template)[1]
        for spelled in (filename, None):
            digest = hashlib.sha1(template.encode("utf-8"))
            if spelled is not None:
                digest.update(f"|{spelled}".encode())
            for pattern in ("sarek-layout-%s.cache", "__jinja2_%s.cache"):
                names.append(pattern % digest.hexdigest())
    return names


def test_the_planted_entry_would_run_code_if_jinja_read_it(tmp_path):
    # The payload is a real one: Jinja's own reader executes it (so the test below is not
    # vacuous).
    marker = tmp_path / "ran"
    bucket = Bucket(None, "key", "checksum")
    import io

    bucket.load_bytecode(io.BytesIO(_poisoned_entry(marker)))
    assert marker.exists()


def test_generate_does_not_execute_a_planted_bytecode_cache(tmp_path):
    marker = tmp_path / "code-ran"
    tmp = tmp_path / "tmp"
    cache = tmp / f"_jinja2-cache-{os.getuid()}"
    cache.mkdir(parents=True)
    cache.chmod(0o700)
    entry = _poisoned_entry(marker)
    names = _cache_names()
    assert len(names) >= 20
    for name in names:
        (cache / name).write_bytes(entry)
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(ROOT))
    env.pop("SAREK_LAYOUT_NO_CACHE", None)
    out = tmp_path / "out"
    for _ in range(2):  # the second run would read what the first one cached
        result = subprocess.run(
            [sys.executable, "-m", "sarek_layout", "generate", str(SCHEMA), "-o", str(out),
             "-t", "c", "-t", "cuda", "-t", "opencl", "-t", "python"],
            capture_output=True, text=True, env=env, timeout=120)
        assert result.returncode == 0, result.stderr
    assert not marker.exists(), "generate executed a planted Jinja bytecode cache entry"
    assert sorted(os.listdir(cache)) == sorted(set(names)), "generate wrote a template cache"
    assert (out / "geometry.h").is_file()
