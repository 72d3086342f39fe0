"""The precompiled templates rendered without Jinja: the same bytes as Jinja's, or Jinja's.

``codegen/precompiled_runtime`` runs a fresh precompiled module against small stand-ins for
Jinja's runtime, so that a no-op ``generate`` of the C, CUDA and OpenCL headers does not
import Jinja (~15 ms of every start). Every target's output is rendered both ways and
compared byte for byte; a template that needs more of Jinja (filters, globals, an undefined
value) is handed to Jinja, never rendered differently.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sarek_layout.codegen import precompiled_runtime, render as render_module, render_headers
from sarek_layout.resolve import load_schema

from helpers.common import ROOT

GOLDEN = ROOT / "tests" / "golden"
CASES = [[str(ROOT / "examples" / "geometry.toml")]] + [
    sorted(str(p) for p in case.iterdir() if p.suffix in (".toml", ".json"))
    for case in sorted(GOLDEN.iterdir()) if case.is_dir()]
ALL_TARGETS = ("c", "cuda", "opencl", "python", "glsl", "wgsl", "metal", "zig", "rust")
DEFAULT_TARGETS = ("c", "cuda", "opencl")
#: The templates of ALL_TARGETS that need no more of Jinja than the stand-ins give.
STAND_IN_TEMPLATES = ("c.h.j2", "cuda.cuh.j2", "metal.h.j2", "opencl.clh.j2")


@pytest.fixture(autouse=True)
def _fresh_stand_ins(monkeypatch):
    # The stand-ins remember a template they failed once and leave it to Jinja for the rest
    # of the process; a test here that makes one fail (a stale module, an undefined name)
    # must not decide what the tests after it see, in whatever order a worker runs them.
    monkeypatch.setattr(precompiled_runtime, "_ENVIRONMENTS", {})


def _texts(schemas, targets, monkeypatch, without_jinja: bool):
    with monkeypatch.context() as patch:
        if not without_jinja:
            patch.setattr(precompiled_runtime, "without_jinja", lambda name, names, join=None: None)
        return [(f.filename, f.text) for f in render_headers(load_schema(schemas), targets)]


def _counting(monkeypatch):
    """The templates the stand-ins rendered (``without_jinja`` returned a text)."""
    rendered = []
    original = precompiled_runtime.without_jinja

    def counting(name, names, join=None):
        text = original(name, names, join)
        if text is not None:
            rendered.append(name)
        return text

    monkeypatch.setattr(precompiled_runtime, "without_jinja", counting)
    return rendered


@pytest.mark.parametrize("schemas", CASES, ids=lambda s: "+".join(p.rsplit("/", 1)[-1] for p in s))
def test_every_target_renders_the_same_bytes_as_with_jinja(schemas, monkeypatch):
    with_jinja = _texts(schemas, ALL_TARGETS, monkeypatch, without_jinja=False)
    rendered = _counting(monkeypatch)
    assert _texts(schemas, ALL_TARGETS, monkeypatch, without_jinja=True) == with_jinja
    # The comparison is of two renderers: the stand-ins did render what they can.
    assert sorted(set(rendered)) == sorted(STAND_IN_TEMPLATES)


def test_the_default_targets_render_without_jinja(monkeypatch):
    rendered = _counting(monkeypatch)
    render_headers(load_schema(CASES[0]), DEFAULT_TARGETS)
    assert rendered == ["c.h.j2", "cuda.cuh.j2", "opencl.clh.j2"]


def test_a_template_that_needs_jinja_is_left_to_it(monkeypatch):
    # The python target's template uses filters (join, length): Jinja renders it.
    rendered = _counting(monkeypatch)
    files = render_headers(load_schema(CASES[0]), ["python"])
    assert rendered == [] and files[0].text


def test_a_stale_module_is_left_to_jinja(monkeypatch):
    # Another template source than the module was compiled from: the stand-ins refuse it.
    monkeypatch.setattr(render_module, "source_digest", lambda source: "0" * 64)
    rendered = _counting(monkeypatch)
    assert precompiled_runtime.without_jinja("c.h.j2", {}) is None
    assert rendered == []


def test_the_environment_key_is_the_one_of_jinjas_environment():
    # The stand-ins judge a module fresh with the key of the environment render builds.
    assert precompiled_runtime._environment_key() == render_module.environment_key(
        render_module.environment())


def test_an_undefined_name_is_left_to_jinja():
    # No `view`: Jinja's StrictUndefined raises its own error, the stand-ins do not guess.
    assert precompiled_runtime.without_jinja("c.h.j2", {"filename": "x.h"}) is None


def test_a_noop_generate_does_not_import_jinja(tmp_path):
    probe = ("import json, sys\nfrom sarek_layout.cli.main import main\n"
             "status = main(sys.argv[1:])\n"
             "print(json.dumps([status, sorted(m for m in sys.modules if m.startswith(('jinja2', 'markupsafe')))]))")
    args = ["generate", str(ROOT / "examples" / "geometry.toml"), "-o", str(tmp_path / "out")]
    for _ in range(2):  # writes the headers, then the no-op
        proc = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True,
                              text=True, cwd=tmp_path, timeout=120)
        assert proc.returncode == 0, proc.stderr
        status, imported = json.loads(proc.stdout.splitlines()[-1])
        assert (status, imported) == (0, [])


def test_the_stand_in_runtime_answers_getattr_with_a_default_as_a_module_does():
    """A name it lacks is an AttributeError (``from … import`` makes it an ImportError), so a
    caller probing modules with ``getattr(m, name, None)`` (the benchmark's memo reset) goes on."""
    from sarek_layout.codegen import precompiled_runtime

    runtime = precompiled_runtime._RUNTIME_MODULE
    assert getattr(runtime, "cache_clear", None) is None
    with pytest.raises(ImportError):
        exec("from jinja2.runtime import not_a_name",
             {"__builtins__": {"__import__": lambda *a, **k: runtime}})
