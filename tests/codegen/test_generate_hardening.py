"""``generate`` inside a build: deterministic bytes, safe under ``make -j``, safe when killed.

Every test runs the real command line in subprocesses, as a build system would:

* determinism: the same schemas give byte-identical outputs (headers, Python modules and the
  depfile) whatever ``PYTHONHASHSEED``, the locale (``C``, ``C.UTF-8``, one that does not
  exist), the current directory or the order of the schema files on the command line;
* concurrency: eight ``generate`` processes writing one output folder at once all succeed and
  leave complete, identical files and no temporary files;
* a process killed (SIGKILL) halfway through writing a file leaves the previous file intact;
  its temporary file (``.<name>.<random>.tmp``, hidden) is ignored by later runs, which
  succeed and write the right content, and removed by the first run after it is an hour old
  (only files of that pattern, only regular files, never through a link); an interrupted
  write (KeyboardInterrupt) removes its own temporary file;
* every written file is synced to the disk before it is renamed over the old one, and its
  folder after, so that a power cut cannot leave an empty or partial file behind;
* ``--check`` (and ``--diff``) never write, not even the depfile.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from helpers.common import EXAMPLES, ROOT

TARGETS = ["-t", "c", "-t", "cuda", "-t", "opencl", "-t", "python"]

# One schema per input form, and one that uses three other modules (its #include lines and
# Python imports are where the command-line order could leak into the output).
MULTI = """\
module = "Multi"
[[types]]
record = "both"
fields = [["v", "Scene.node"], ["p", "Geometry.point"], ["b", "Base.vec"]]
[[types]]
variant = "pick"
constructors = [["Node", ["Scene.node"]], ["Vec", ["Base.vec", "float32"]], ["Nothing"]]
"""
SOURCES = [
    EXAMPLES / "geometry.toml",
    ROOT / "tests" / "golden" / "cross_module" / "base.toml",
    ROOT / "tests" / "golden" / "cross_module" / "scene.toml",
    ROOT / "tests" / "data" / "ocaml" / "particles.ml",
    ROOT / "tests" / "data" / "c" / "sensors.h",
]


@pytest.fixture
def schemas(tmp_path):
    """The schema files, copied into ``tmp_path/src``; returns their names in a fixed order."""
    src = tmp_path / "src"
    src.mkdir()
    for path in SOURCES:
        shutil.copy(path, src / path.name)
    (src / "multi.toml").write_text(MULTI)
    return [p.name for p in SOURCES] + ["multi.toml"]


def _env(**overrides):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(overrides)
    return env


def _generate(args, cwd, env=None, check=True):
    proc = subprocess.run([sys.executable, "-m", "sarek_layout", "generate", *args],
                          cwd=cwd, env=env or _env(), capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
    return proc


def _snapshot(folder: pathlib.Path, replace=()):
    """``{name: bytes}`` of every file in ``folder``; ``replace``: (old, new) byte pairs
    applied to the depfile, whose paths name the folder the run wrote into."""
    out = {}
    for p in sorted(folder.iterdir()):
        data = p.read_bytes()
        if p.name == "deps.d":
            for old, new in replace:
                data = data.replace(old, new)
        out[p.name] = data
    return out


# --- determinism --------------------------------------------------------------------------------


def test_outputs_are_byte_identical_whatever_the_environment(tmp_path, schemas):
    src = tmp_path / "src"

    def run(name, files, env, cwd=src, absolute=False):
        out = tmp_path / name
        prefix = f"{src}{os.sep}" if absolute else ""
        target = str(out) if absolute else os.path.relpath(out, cwd)
        _generate([*(prefix + f for f in files), "-o", target, *TARGETS,
                   "--depfile", os.path.join(target, "deps.d")], cwd, env)
        # The depfile names the output folder and the schemas as given: make them comparable.
        return _snapshot(out, [(target.encode(), b"OUT"), (prefix.encode(), b"")])

    reference = run("ref", schemas, _env(PYTHONHASHSEED="0", LC_ALL="C"))
    assert len(reference) == 4 * len(schemas) + 1
    variants = {
        "hash seed 1": run("seed1", schemas, _env(PYTHONHASHSEED="1", LC_ALL="C")),
        "hash seed random": run("seedr", schemas, _env(PYTHONHASHSEED="random", LANG="C.UTF-8")),
        "C.UTF-8 locale": run("utf8", schemas, _env(PYTHONHASHSEED="2", LC_ALL="C.UTF-8")),
        "missing locale": run("nolocale", schemas,
                              _env(PYTHONHASHSEED="3", LC_ALL="xx_XX.NOPE", LANG="xx_XX.NOPE")),
        "reversed order": run("reversed", schemas[::-1], _env(PYTHONHASHSEED="4")),
        "rotated order": run("rotated", schemas[2:] + schemas[:2], _env(PYTHONHASHSEED="5")),
        "other directory": run("elsewhere", schemas, _env(PYTHONHASHSEED="6"), cwd=tmp_path.anchor,
                               absolute=True),
    }
    for what, snapshot in variants.items():
        assert snapshot.keys() == reference.keys(), what
        different = [name for name in reference if snapshot[name] != reference[name]]
        assert different == [], f"{what}: {different} differ"
    # The order-sensitive parts really are there to be checked.
    multi = reference["multi.h"].decode()
    assert multi.count("#include \"") == 3 and "from scene_layout import" in reference[
        "multi_layout.py"].decode()


# --- concurrent builds --------------------------------------------------------------------------


def test_eight_concurrent_generates_leave_complete_identical_files(tmp_path, schemas):
    src = tmp_path / "src"
    _generate([*schemas, "-o", str(tmp_path / "ref"), *TARGETS], src)
    reference = _snapshot(tmp_path / "ref")
    out = tmp_path / "out"
    for round_ in ("into a missing folder", "over stale files"):
        if round_ == "over stale files":
            for p in out.iterdir():
                p.write_text("stale\n")
        procs = [
            subprocess.Popen([sys.executable, "-m", "sarek_layout", "generate", *schemas, "-o",
                              str(out), *TARGETS], cwd=src, env=_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
            for _ in range(8)
        ]
        results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        assert [status for status, _ in results] == [0] * 8, results
        assert _snapshot(out) == reference, round_
        assert sorted(os.listdir(out)) == sorted(reference), "temporary files were left"


# --- killed mid-write ---------------------------------------------------------------------------

# Runs the command line with the writer's file object slowed down: it writes the first half
# of the text, flushes it to the temporary file, says so through a marker file, and waits to
# be killed.
_SLOW_WRITER = textwrap.dedent("""\
    import os, sys, time
    marker, argv = sys.argv[1], sys.argv[2:]
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, f):
            self.f = f
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self.f.close()
        def write(self, text):
            self.f.write(text[: len(text) // 2])
            self.f.flush()
            os.fsync(self.f.fileno())
            open(marker, "w").close()
            time.sleep(600)

    os.fdopen = lambda fd, *a, **k: HalfWriter(real_fdopen(fd, *a, **k))
    from sarek_layout.cli.main import main
    sys.exit(main(argv))
""")


def test_a_process_killed_mid_write_leaves_the_old_file(tmp_path, schemas):
    src = tmp_path / "src"
    out = tmp_path / "out"
    args = ["geometry.toml", "-o", str(out), "-t", "c"]
    _generate(args, src)
    old = (out / "geometry.h").read_bytes()

    # A schema change that changes the header, then a run killed while writing it.
    schema = src / "geometry.toml"
    schema.write_text(schema.read_text().replace("point", "pt"))
    marker = tmp_path / "half-written"
    child = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(marker), "generate", *args],
                             cwd=src, env=_env(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert child.poll() is None, child.stderr.read().decode()
            assert time.monotonic() < deadline, "the writer never started writing"
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=60) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stderr.close()

    assert (out / "geometry.h").read_bytes() == old, "the previous header was damaged"
    strays = [n for n in os.listdir(out) if n != "geometry.h"]
    assert len(strays) == 1 and strays[0].startswith(".geometry.h.") and strays[0].endswith(".tmp")
    assert 0 < (out / strays[0]).stat().st_size < len(old) + 100  # really half a file

    # Later runs ignore the stray temporary file: --check sees the stale header, a plain run
    # writes the new one, and --check is then satisfied.
    assert _generate([*args, "--check"], src, check=False).returncode == 1
    _generate(args, src)
    new = (out / "geometry.h").read_bytes()
    assert new != old and b"Geometry_pt" in new and re.search(rb"#endif /\* SAREK_LAYOUT_GEOMETRY_H_\w+ \*/\n\Z", new)
    assert _generate([*args, "--check"], src, check=False).returncode == 0
    assert (out / strays[0]).exists(), "a fresh temporary file (maybe a concurrent run's) was removed"

    # Once it is older than any run could take, the next run that writes there removes it.
    stamp = time.time() - 2 * 3600
    os.utime(out / strays[0], (stamp, stamp))
    _generate(args, src)
    assert os.listdir(out) == ["geometry.h"]


# --- --check and --diff never write -------------------------------------------------------------


@pytest.mark.parametrize("mode", ["--check", "--diff"])
def test_check_and_diff_never_write(tmp_path, schemas, mode):
    src = tmp_path / "src"
    out = tmp_path / "out"
    _generate([*schemas, "-o", str(out), *TARGETS], src)
    (out / "geometry.h").write_text("stale\n")
    (out / "scene.cuh").unlink()
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    proc = _generate([*schemas, "-o", str(out), *TARGETS, mode, "--depfile", str(out / "deps.d")],
                     src, check=False)
    assert proc.returncode == 1, proc.stderr  # stale outputs: 1 for --diff as for --check
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    assert after == before


# --- durable writes and leftovers ----------------------------------------------------------------


def test_files_are_synced_before_the_rename_and_folders_after(tmp_path, monkeypatch, capsys):
    from sarek_layout.cli.main import main

    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        mode = os.fstat(fd).st_mode
        events.append(("fsync folder" if stat.S_ISDIR(mode) else "fsync file",
                       os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(src, dst):
        events.append(("rename", os.path.abspath(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    out = tmp_path / "out"
    assert main(["generate", str(EXAMPLES / "geometry.toml"), "-o", str(out), "-t", "c", "-t",
                 "opencl", "--depfile", str(tmp_path / "deps.d")]) == 0
    kinds = [kind for kind, _ in events]
    assert kinds == ["fsync file", "rename"] * 3 + ["fsync folder"] * 2, events
    for (_, synced), (_, renamed) in zip(events[0:6:2], events[1:6:2]):
        # The temporary file synced is the one renamed over the output.
        assert os.path.dirname(synced) == os.path.dirname(renamed)
        assert os.path.basename(synced).startswith("." + os.path.basename(renamed) + ".")
    assert {path for kind, path in events if kind == "fsync folder"} == {str(out), str(tmp_path)}
    # Nothing changed: nothing is written, nothing synced.
    events.clear()
    assert main(["generate", str(EXAMPLES / "geometry.toml"), "-o", str(out), "-t", "c", "-t",
                 "opencl", "--depfile", str(tmp_path / "deps.d")]) == 0
    assert events == []


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    from sarek_layout.codegen.writer import write_if_changed

    path = tmp_path / "x.h"
    path.write_text("old\n")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_if_changed(str(path), "new\n")
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["x.h"]


def test_only_our_own_stale_temporary_files_are_removed(tmp_path, schemas):
    src = tmp_path / "src"
    out = tmp_path / "out"
    args = ["geometry.toml", "-o", str(out), "-t", "c"]
    _generate(args, src)
    elsewhere = tmp_path / "precious.h"
    elsewhere.write_text("keep me\n")
    old = time.time() - 2 * 3600

    def make(name, kind="file", aged=True):
        path = out / name
        if kind == "file":
            path.write_text("half a header")
        elif kind == "link":
            os.symlink(elsewhere, path)
        else:
            path.mkdir()
        if aged:
            os.utime(path, (old, old), follow_symlinks=False)
        return name

    removed = [make(".geometry.h.abcdefgh.tmp"), make(".geometry.h.a1_b2c3d.tmp")]
    kept = [
        make(".geometry.h.ijklmnop.tmp", aged=False),   # fresh: maybe a concurrent run's
        make(".geometry.h.qrstuvwx.tmp", "link"),       # a link of our pattern: not ours
        make(".geometry.h.zzzzzzzz.tmp", "folder"),     # a folder: not ours
        make(".other.h.abcdefgh.tmp"),                  # not an output of this run
        make(".geometry.h.ABCDEFGH.tmp"),               # not mkstemp's alphabet
        make(".geometry.h.abcdefg.tmp"),                # not its length
        make(".geometry.h.abcdefgh.tmp.bak"),
        make("geometry.h.abcdefgh.tmp"),                # not hidden
    ]
    os.utime(elsewhere, (old, old))
    # --check writes nothing, so it removes nothing either.
    assert _generate([*args, "--check"], src, check=False).returncode == 0
    assert set(removed + kept) <= set(os.listdir(out))
    # A run that writes nothing new still tidies the leftovers of its outputs.
    proc = _generate(args, src)
    assert "0 headers written" in proc.stderr
    assert sorted(os.listdir(out)) == sorted(kept + ["geometry.h"])
    assert elsewhere.read_text() == "keep me\n"
