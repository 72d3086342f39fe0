"""The atheris harnesses of ``fuzz/`` stay runnable, and every input they ever found, kept in
``fuzz/regressions/NAME/``, passes: each harness replays its seeds and regressions once
(libFuzzer's replay mode, the harness's own contract; no fuzzing): the first ``SEEDS`` seeds,
all the regressions. Skipped without atheris
(``make fuzz`` installs it; the suite itself does not need it).
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FUZZ = ROOT / "fuzz"
sys.path.insert(0, str(FUZZ))
import run as fuzz_run  # noqa: E402 - fuzz/run.py, the driver: its seed lists

pytest.importorskip("atheris", reason="atheris is not installed (make fuzz installs it)")

#: Seeds replayed per harness (``make fuzz`` uses all of them).
SEEDS = 12


def _replay(name: str, files) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(FUZZ / f"fuzz_{name}.py"), "-timeout=120",
                           f"-rss_limit_mb={fuzz_run.RSS_LIMIT_MB}", *map(str, files)],
                          capture_output=True, text=True, errors="replace", cwd=ROOT)


@pytest.mark.parametrize("name", sorted(fuzz_run.HARNESSES))
def test_harness_replays_its_seeds_and_regressions(name, tmp_path):
    seeds = tmp_path / "seeds"
    assert fuzz_run.make_seeds(name, str(seeds), SEEDS) > 0
    files = sorted(seeds.iterdir()) + sorted((FUZZ / "regressions" / name).glob("*"))
    done = _replay(name, files)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.count("Executed ") + done.stderr.count("Executed ") == len(files)
