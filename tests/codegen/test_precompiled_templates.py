"""The templates compiled into the package: fresh, used, and never used when stale.

A no-op ``generate`` compiled the C, CUDA and OpenCL templates at every start (a quarter of
its time); their compiled modules now ship in the package (``codegen/precompile``) and are
imported instead, but only while each matches its template's source, Jinja's version and the
environment's options. A stale one must cost time only, never an output.
"""

from __future__ import annotations

import jinja2
import pytest

from sarek_layout.codegen import render as render_module
from sarek_layout.codegen import render_headers
from sarek_layout.codegen.precompile import stale
from sarek_layout.resolve import load_schema

from helpers.common import ROOT

SCHEMA = ROOT / "examples" / "geometry.toml"
ALL_TARGETS = ["c", "cuda", "opencl", "python", "glsl", "wgsl", "metal"]


@pytest.fixture
def fresh_environment():
    """``render.environment()`` built anew for the test, and the shared one restored after."""
    render_module.environment.cache_clear()
    yield
    render_module.environment.cache_clear()


def _count_compiles(monkeypatch):
    compiled = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return compiled


def test_the_compiled_templates_are_fresh():
    assert stale(render_module.environment()) == [], (
        "the templates compiled into sarek_layout/codegen/precompiled/ are stale: run "
        "`make generate` (python -m sarek_layout.codegen.precompile)")


def test_generate_compiles_no_template_when_the_compiled_ones_are_fresh(
        fresh_environment, monkeypatch):
    compiled = _count_compiles(monkeypatch)
    render_headers(load_schema([str(SCHEMA)]), ALL_TARGETS)
    assert compiled == []


def test_a_stale_compiled_template_is_not_used(fresh_environment, monkeypatch):
    # The shipped c.h.j2 module stays, but the template it was compiled from is now another.
    monkeypatch.setattr(render_module, "_REPO_TEMPLATES", ROOT / "nowhere")
    monkeypatch.setattr(render_module, "_packaged_templates", lambda: None)
    changed = jinja2.DictLoader({"c.h.j2": "edited {{ filename }}\n"})
    monkeypatch.setattr(jinja2, "FileSystemLoader", lambda _path: changed)
    compiled = _count_compiles(monkeypatch)
    assert render_module.render("c.h.j2", filename="x.h") == "edited x.h\n"
    assert compiled == ["c.h.j2"]


def test_compiled_and_freshly_compiled_templates_render_the_same(fresh_environment, monkeypatch):
    schema = load_schema([str(SCHEMA)])
    shipped = [(f.filename, f.text) for f in render_headers(schema, ALL_TARGETS)]
    render_module.environment.cache_clear()
    monkeypatch.setattr(render_module, "module_name", lambda name: "t_no_such_module")
    compiled = _count_compiles(monkeypatch)
    rebuilt = [(f.filename, f.text) for f in render_headers(schema, ALL_TARGETS)]
    assert compiled  # the second run really compiled the templates from their source
    assert rebuilt == shipped
