"""Work bounds of the GPU API views (glsl, wgsl, metal), asserted by counting work: a large
schema repeats the same member and type names in thousands of types, so each distinct name is
escaped once per view, and Metal's renaming copies nothing that keeps its names."""

from __future__ import annotations

import collections
import json

import pytest

from sarek_layout.codegen import metal_view, shader_views
from sarek_layout.resolve import load_schema
from sarek_layout.targets import naming
from sarek_layout.targets.dialects import GLSL, METAL, WGSL

#: Names each of the three languages reserves, as fields of many records (escaped there).
RESERVED = ("input", "device", "filter")


def _schema(tmp_path):
    """60 records sharing field names (some reserved), and variants carrying them."""
    types = [{"record": f"R{i}", "fields": [["x", "uint32"], ["y", "float32"],
                                             [RESERVED[i % 3], "int32"]]}
             for i in range(60)]
    types += [{"variant": f"V{i}", "constructors": [["A", [f"R{i}"]], ["B", ["uint32", f"R{i}"]],
                                                     ["C", []]]}
              for i in range(60)]
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"module": "M", "types": types}))
    return load_schema([str(path)])


@pytest.mark.parametrize("dialect, view", [(GLSL, shader_views.glsl_view),
                                           (WGSL, shader_views.wgsl_view),
                                           (METAL, metal_view.metal_view)])
def test_each_distinct_name_is_escaped_once_per_view(tmp_path, monkeypatch, dialect, view):
    schema = _schema(tmp_path)
    shader_views._CACHE.clear()
    calls: collections.Counter = collections.Counter()
    real = naming.escape

    def counting(name, d):
        if d is dialect:
            calls[name] += 1
        return real(name, d)

    # Both bindings: the naming module's (what a memo calls) and the one shader_views imports.
    monkeypatch.setattr(naming, "escape", counting)
    monkeypatch.setattr(shader_views, "escape", counting)
    out = view(schema, schema.modules[0])
    assert calls["x"] == 1 and calls["M_R0"] == 1, calls.most_common(3)
    assert max(calls.values()) == 1, calls.most_common(3)
    # The escapes still happen: the reserved field is renamed in the view.
    reserved = next(w for w in RESERVED if w in dialect.reserved_words)
    names = {m.name for t in out.types for m in t.members}
    assert reserved + "_" in names and reserved not in names


def test_metal_keeps_the_records_whose_names_stay(tmp_path, monkeypatch):
    """Only a type with a name MSL reserves is copied; the others are module_view's own."""
    schema = _schema(tmp_path)
    base = metal_view.module_view(schema, schema.modules[0]).held()  # one set of views
    monkeypatch.setattr(metal_view, "module_view", lambda s, m: base)
    out = metal_view.metal_view(schema, schema.modules[0])
    kept = {t.c_name for t, o in zip(base.types, out.types) if t is o}
    copied = {t.c_name for t, o in zip(base.types, out.types) if t is not o}
    assert "M_R0" in kept and "M_V0" in kept  # R0's reserved field is input: not MSL's
    assert "M_R1" in copied  # device, escaped to device_
    assert len(kept) > len(copied) > 0
