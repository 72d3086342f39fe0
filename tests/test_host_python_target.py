"""The ``python`` target: a standalone module per schema whose bytes equal the host codec's,
which imports with neither sarek_layout nor numpy, and which mypy --strict accepts."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sarek_layout as sl
from conftest import EXAMPLES
from sarek_layout.codegen import TARGETS, render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.host import codec_of
from test_host_support import (
    SchemaDocument,
    conformance_records,
    conformance_variants,
    distinct_value,
    element_types,
    import_file,
    layout_of,
    to_generated,
    values_of,
)


def generate(tmp_path, *schema_paths):
    """Render the python target of the schemas into ``tmp_path``; return {filename: path}."""
    schema = sl.load(*schema_paths).schema
    out = {}
    for f in render_headers(schema, ["python"]):
        path = tmp_path / f.filename
        path.write_text(f.text)
        out[f.filename] = path
    return out


def test_registered_as_a_codegen_target():
    assert TARGETS["python"].suffix == "_layout.py"
    assert TARGETS["python"].template == "python.py.j2"


@pytest.fixture(scope="module")
def geometry_module(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pygen")
    files = generate(tmp, str(EXAMPLES / "geometry.toml"))
    assert list(files) == ["geometry_layout.py"]
    return import_file(files["geometry_layout.py"], "geometry_layout")


def test_geometry_module_surface(geometry_module):
    g = geometry_module
    assert (g.SIZEOF_Geometry_shape, g.ALIGNOF_Geometry_shape, g.PAYLOAD_OFFSET_Geometry_shape) == (24, 8, 8)
    assert dict(g.TAGS_Geometry_shape) == {"Circle": 0, "Rect": 1, "Weighted": 2, "Empty": 3}
    assert g.Geometry_shape_Weighted.TAG == 2
    assert dict(g.OFFSETS_Geometry_particle) == {"id": 0, "mass": 8, "pos.x": 16, "pos.y": 20, "alive": 24}
    assert g.OFFSETS_Geometry_shape["Rect._1.y"] == 20
    assert dataclasses.is_dataclass(g.Geometry_point)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.Geometry_point(1.0, 2.0).x = 3.0  # type: ignore[misc]
    assert set(g.__all__) >= {"Geometry_shape_Circle", "encode_Geometry_shape", "unpack_Geometry_point"}


def test_geometry_bytes_equal_the_host_codec(geometry_module):
    g = geometry_module
    schema = sl.load(str(EXAMPLES / "geometry.toml"))
    pt = g.Geometry_point(1.0, 2.0)
    shapes = [g.Geometry_shape_Circle(pt, 3.0), g.Geometry_shape_Rect(pt, g.Geometry_point(3.0, 4.0)),
              g.Geometry_shape_Weighted(-2.5, 2**31 - 1), g.Geometry_shape_Empty()]
    as_pairs = [("Circle", ({"x": 1.0, "y": 2.0}, 3.0)),
                ("Rect", ({"x": 1.0, "y": 2.0}, {"x": 3.0, "y": 4.0})),
                ("Weighted", (-2.5, 2**31 - 1)), ("Empty", ())]
    data = g.pack_Geometry_shape(shapes)
    assert data == schema.pack("shape", as_pairs)
    assert g.unpack_Geometry_shape(data) == shapes
    assert g.unpack_Geometry_shape(data, count=2, offset=24) == shapes[1:3]
    particle = g.Geometry_particle(3, 0.5, pt, False)
    assert g.encode_Geometry_particle(particle) == schema.encode("particle", particle)
    assert g.decode_Geometry_particle(g.encode_Geometry_particle(particle)) == particle


@pytest.mark.parametrize("make, message", [
    (lambda g: g.encode_Geometry_particle(g.Geometry_particle(1, 1.0, g.Geometry_point(1, 2), 1)),
     "cannot encode Geometry.particle, field 'alive': expected a bool, got 1 (int)"),
    (lambda g: g.encode_Geometry_particle(g.Geometry_particle(-2**31 - 1, 1.0, g.Geometry_point(1, 2), True)),
     "field 'id': -2147483649 is out of range for int32"),
    (lambda g: g.encode_Geometry_particle(g.Geometry_particle(1, 1.0, None, True)),
     "field 'pos.x': missing"),
    (lambda g: g.encode_Geometry_shape(g.Geometry_shape_Weighted(1.0, 1.5)),
     "field 'Weighted._1': expected an integer (int32), got 1.5 (float)"),
    (lambda g: g.encode_Geometry_shape(("Circle", ())),
     "expected one of Geometry_shape_Circle, Geometry_shape_Rect"),
    (lambda g: g.pack_Geometry_shape([g.Geometry_shape_Empty(), g.Geometry_shape_Weighted("x", 1)]),
     "element 1: cannot encode Geometry.shape, field 'Weighted._0': expected a number (float64)"),
])
def test_generated_errors(geometry_module, make, message):
    with pytest.raises(geometry_module.EncodeError) as info:
        make(geometry_module)
    assert message in str(info.value)


def test_generated_decode_errors(geometry_module):
    g = geometry_module
    with pytest.raises(g.DecodeError, match="unknown tag 9 at offset 0; valid tags are 0..3"):
        g.decode_Geometry_shape(b"\x09" + bytes(23))
    with pytest.raises(g.DecodeError, match="cannot read 8 bytes at offset 4"):
        g.decode_Geometry_point(bytes(8), 4)
    with pytest.raises(g.DecodeError, match="not a whole number of 24-byte elements"):
        g.unpack_Geometry_shape(bytes(25))


def test_standalone_without_sarek_layout_or_numpy(tmp_path):
    files = generate(tmp_path, str(EXAMPLES / "geometry.toml"))
    script = textwrap.dedent(
        """
        import sys
        sys.modules["numpy"] = None
        sys.modules["sarek_layout"] = None  # any import of either would raise ImportError
        import geometry_layout as g
        s = [g.Geometry_shape_Weighted(2.5, 7), g.Geometry_shape_Empty()]
        assert g.unpack_Geometry_shape(g.pack_Geometry_shape(s)) == s
        print("ok")
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-S", "-c", script], cwd=str(tmp_path),
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
    assert "sarek_layout" not in files["geometry_layout.py"].read_text().replace(
        "sarek-layout", "").replace("_sarek_", "")


# --- cross-module schemas and name clashes --------------------------------------------------


def test_cross_module_import(tmp_path):
    base = tmp_path / "base.json"
    base.write_text(json.dumps({"module": "Base", "types": [
        {"record": "vec", "fields": [["x", "float64"], ["n", "int32"]]}]}))
    scene = tmp_path / "scene.json"
    scene.write_text(json.dumps({"module": "Scene", "types": [
        {"record": "body", "fields": [["at", "Base.vec"], ["alive", "bool"]]},
        {"variant": "event", "constructors": [["Hit", ["Base.vec", "int64"]], ["Miss"]]}]}))
    files = generate(tmp_path, str(base), str(scene))
    assert sorted(files) == ["base_layout.py", "scene_layout.py"]
    assert "from base_layout import (\n    Base_vec,\n)" in files["scene_layout.py"].read_text()
    sys.path.insert(0, str(tmp_path))
    try:
        import_file(files["base_layout.py"], "base_layout")
        scene_mod = import_file(files["scene_layout.py"], "scene_layout")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("base_layout", None)
    base_vec = sys.modules["scene_layout"].Base_vec
    hit = scene_mod.Scene_event_Hit(base_vec(1.5, 2), -(2**40))
    host = sl.load(str(base), str(scene))
    assert scene_mod.encode_Scene_event(hit) == host.encode("event", ("Hit", ({"x": 1.5, "n": 2}, -(2**40))))
    assert scene_mod.decode_Scene_event(scene_mod.encode_Scene_event(hit)) == hit


def test_name_clash_is_refused(tmp_path):
    path = tmp_path / "clash.json"
    path.write_text(json.dumps({"module": "", "types": [
        {"record": "point", "fields": [["x", "float32"]]},
        {"record": "encode_point", "fields": [["y", "float32"]]}]}))
    with pytest.raises(SchemaError, match="python target would define 'encode_point'"):
        render_headers(sl.load(str(path)).schema, ["python"])
    path.write_text(json.dumps({"module": "", "types": [
        {"record": "memoryview", "fields": [["x", "float32"]]}]}))
    with pytest.raises(SchemaError, match="'memoryview'.*already taken by a Python builtin"):
        render_headers(sl.load(str(path)).schema, ["python"])


# --- every conformance shape and hypothesis schemas: generated bytes == codec bytes ----------


def check_module_against_codec(module, doc, values_by_type):
    for t, values in values_by_type:
        c_name = doc.c_names[t]
        codec = codec_of(t)
        layout = layout_of(t)
        assert getattr(module, f"SIZEOF_{c_name}") == layout.size
        assert getattr(module, f"ALIGNOF_{c_name}") == layout.align
        objects = [to_generated(module, doc, t, v) for v in values]
        data = getattr(module, f"pack_{c_name}")(objects)
        assert data == codec.pack(values), (t, values)
        back = getattr(module, f"unpack_{c_name}")(data)
        assert back == [to_generated(module, doc, t, v) for v in codec.unpack(data)]


def test_conformance_shapes_generated_module(tmp_path):
    """Every 3rd record (260) and every 97th variant (318, all constructors) in one module
    (importing a module of thousands of dataclasses takes seconds; the codec it is compared
    with is checked on every shape in test_host_codec)."""
    doc = SchemaDocument("Conf")
    values_by_type = []
    for k, t in enumerate(conformance_records()):
        if k % 3 == 0:
            doc.add(t)
            values_by_type.append((t, [distinct_value(t)]))
    for k, t in enumerate(conformance_variants()):
        if k % 97 == 0:
            doc.add(t)
            values_by_type.append((t, [distinct_value(t, i) for i in range(len(t.ctors))]))
    assert len(values_by_type) == 260 + 318
    files = generate(tmp_path, doc.write(tmp_path / "conf.json"))
    module = import_file(files["conf_layout.py"], "conf_layout")
    check_module_against_codec(module, doc, values_by_type)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_hypothesis_generated_module(tmp_path_factory, data):
    types = data.draw(st.lists(element_types(), min_size=1, max_size=4))
    doc = SchemaDocument("Hyp")
    for t in types:
        doc.add(t)
    values_by_type = [(t, data.draw(st.lists(values_of(t), min_size=1, max_size=3))) for t in types]
    tmp = tmp_path_factory.mktemp("hyp")
    files = generate(tmp, doc.write(tmp / "hyp.json"))
    module = import_file(files["hyp_layout.py"], "hyp_layout")
    check_module_against_codec(module, doc, values_by_type)


# --- mypy -----------------------------------------------------------------------------------


def test_generated_modules_are_mypy_clean(tmp_path):
    """mypy --strict on the example, a cross-module pair and 60 varied types (skips without mypy)."""
    pytest.importorskip("mypy", reason="mypy not installed: pip install mypy")
    shutil.copy(EXAMPLES / "geometry.toml", tmp_path / "geometry.toml")
    (tmp_path / "base.json").write_text(json.dumps({"module": "Base", "types": [
        {"record": "vec", "fields": [["x", "float64"], ["u", "unit"]]}]}))
    (tmp_path / "scene.json").write_text(json.dumps({"module": "Scene", "types": [
        {"variant": "event", "constructors": [["Hit", ["Base.vec", "bool"]], ["Miss"]]}]}))
    doc = SchemaDocument("Mix")
    for k, t in enumerate(conformance_variants()):
        if k % 1000 == 0:
            doc.add(t)
    for k, t in enumerate(conformance_records()):
        if k % 30 == 0:
            doc.add(t)
    files = {}
    files.update(generate(tmp_path, str(tmp_path / "geometry.toml")))
    files.update(generate(tmp_path, str(tmp_path / "base.json"), str(tmp_path / "scene.json")))
    files.update(generate(tmp_path, doc.write(tmp_path / "mix.json")))
    assert len(files) == 4
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *map(str, files.values())],
        cwd=str(tmp_path), capture_output=True, text=True,
        env={k: v for k, v in os.environ.items() if k != "MYPYPATH"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
