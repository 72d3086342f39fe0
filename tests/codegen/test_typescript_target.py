"""The typescript target's modules, judged by tsc and by Node running them.

* random schemas and values (hypothesis, a batch of schemas per Node run): the TypeScript
  encoder's bytes are the Python encoder's (``sarek_layout.load(...).encode``), ``fromBytes``
  gives the value back, and refuses a wrong length and an unknown tag;
* every member kind under every rule set: the bytes gcc (``c``), nvcc (``cuda``) and a GLSL
  shader on the Vulkan device (``std430``, ``std140``, ``scalar``) write for the same values;
* float16 through the binary16 conversion: Python's ``struct`` "e" on ties, subnormals and
  overflow; framed data read and written across Python and Node; the value checks; columns;
* generate's work is linear in members: a ``float32[100000000]`` costs what a ``float32``
  costs.
"""

from __future__ import annotations

import json
import math
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sarek_layout
from helpers import kinds_bytes, kinds_oracle, typescript
from helpers.common import require_toolchain
from helpers.host import SchemaDocument, element_types, values_of
from sarek_layout.codegen import render_headers
from sarek_layout.ir.types import TRecord, TVariant
from sarek_layout.resolve import load_schema


def _generate(folder, *schemas):
    """``generate -t typescript`` of ``schemas`` into ``folder``, compiled to ``folder/js``."""
    files = render_headers(load_schema([str(s) for s in schemas]), ["typescript"])
    paths = []
    for f in files:
        path = folder / f.filename
        path.write_text(f.text)
        paths.append(path)
    typescript.assert_compiles(paths, folder, out_dir="js")
    return [p.stem for p in paths]


def _js_scalar(t, v) -> str:
    if t.name in ("int64", "uint64"):
        return f"{v}n"
    if t.name == "bool":
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, float):
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return "-0" if v == 0 and math.copysign(1, v) < 0 else repr(v)
    return str(v)


def js_literal(t, value) -> str:
    """A value of the SPEC §2 Python form as the typescript target's value: records as
    objects, variants as ``{tag, _0…}``, 64-bit integers as bigints, unit as null."""
    if isinstance(t, TRecord):
        return "{" + ", ".join(f"{n}: {js_literal(ft, value[n])}" for n, ft in t.fields) + "}"
    if isinstance(t, TVariant):
        name, args = value
        parts = [f'tag: "{name}"'] + [f"_{i}: {js_literal(a, v)}"
                                      for i, (a, v) in enumerate(zip(dict(t.ctors)[name], args))]
        return "{" + ", ".join(parts) + "}"
    return _js_scalar(t, value)


#: Checks each case: [companion, value, the Python encoder's bytes (hex), tag count or -1].
_ROUND_TRIP = typescript.READ_STDIN + """
import { CASES } from "./cases.mjs";
const hex = (b) => Buffer.from(b).toString("hex");
function same(a, b) {
  if (typeof a !== typeof b) return false;
  if (typeof a === "number") return Object.is(a, b);
  if (a === null || typeof a !== "object") return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => same(a[k], b[k]));
}
function refuses(f, kind) {
  try { f(); } catch (e) { return e instanceof kind ? e.message : `threw ${e}`; }
  return "did not throw";
}
const out = CASES.map(([T, value, python, ctors]) => {
  const bytes = Uint8Array.from(Buffer.from(python, "hex"));
  const back = T.fromBytes(bytes);
  const r = { ts: hex(T.toBytes(value)), same: same(back, value), again: hex(T.toBytes(back)) };
  const longer = new Uint8Array(bytes.length + 1);
  longer.set(bytes);
  r.short = refuses(() => T.fromBytes(bytes.subarray(1)), RangeError);
  r.long = refuses(() => T.fromBytes(longer), RangeError);
  if (ctors >= 0) {
    const bad = bytes.slice();
    for (const tag of [ctors, -1]) {
      new DataView(bad.buffer).setInt32(0, tag, true);
      r[`tag${tag}`] = refuses(() => T.fromBytes(bad), RangeError);
    }
  }
  return r;
});
process.stdout.write(JSON.stringify(out));
"""


def _round_trips(folder, doc, cases):
    """Each ``(type, value)`` of ``cases`` through one Node run; the answers in order."""
    stem = _generate(folder, doc.write(folder / "hyp.json"))[0]
    lines = [f'import * as M from "./js/{stem}.js";', "export const CASES = ["]
    schema = sarek_layout.load(str(folder / "hyp.json"))
    expected = []
    for t, value in cases:
        c_name = doc.c_names[t]
        name = c_name[len(doc.module) + 1:]
        python = schema.encode(name, value)
        ctors = len(t.ctors) if isinstance(t, TVariant) else -1
        lines.append(f'  [M.{c_name}, {js_literal(t, value)}, "{python.hex()}", {ctors}],')
        expected.append((t, python))
    lines.append("];")
    (folder / "cases.mjs").write_text("\n".join(lines) + "\n")
    answers = typescript.node_json(_ROUND_TRIP, folder)
    return list(zip(expected, answers))


def _check(results):
    for (t, python), r in results:
        assert r["ts"] == python.hex(), (t, r["ts"], python.hex())
        assert r["same"] and r["again"] == python.hex(), (t, r)
        assert "expected" in r["short"] and "expected" in r["long"], r
        if isinstance(t, TVariant):
            for tag in (len(t.ctors), -1):
                assert f"unknown tag {tag}" in r[f"tag{tag}"], r


# filter_too_much: the random schemas drop drawn names that collide or are reserved (as the
# Python target's hypothesis test does).
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")  # large reprs
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.filter_too_much, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(st.data())
def test_typescript_bytes_equal_the_python_encoders(tmp_path_factory, data):
    """A batch of random schemas per example, one tsc and one Node run for all of it."""
    typescript.programs()
    types = data.draw(st.lists(element_types(big=True), min_size=3, max_size=8))
    doc = SchemaDocument("Hyp")
    for t in types:
        doc.add(t)
    cases = [(t, v) for t in types for v in data.draw(st.lists(values_of(t), min_size=1,
                                                                max_size=4))]
    _check(_round_trips(tmp_path_factory.mktemp("hyp"), doc, cases))


def test_the_round_trip_comparison_is_live(tmp_path):
    """The same check on a module whose float32 encoder writes one bit off, and whose
    decoder of a record forgets a field: each difference is found."""
    typescript.programs()
    t = TRecord("r", [("a", sarek_layout.ir.types.TFloat32), ("b", sarek_layout.ir.types.TInt32)])
    doc = SchemaDocument("Hyp")
    doc.add(t)
    folder = tmp_path
    results = _round_trips(folder, doc, [(t, {"a": 1.5, "b": 7})])
    _check(results)
    js = folder / "js" / "hyp.js"
    text = js.read_text()
    js.write_text(text.replace("view.setFloat32(at, _sarek_float(x, true), true)",
                               "view.setFloat32(at, _sarek_float(x, true) * 2, true)"))
    answers = typescript.node_json(_ROUND_TRIP, folder)
    assert answers[0]["ts"] != results[0][0][1].hex()
    js.write_text(text.replace('b: (f = ".b", _sarek_r_int32(view, at + 4))', "b: 0"))
    answers = typescript.node_json(_ROUND_TRIP, folder)
    assert answers[0]["ts"] == results[0][0][1].hex() and not answers[0]["same"]


# --- every member kind under every rule set: the compilers' bytes ----------------------------


def _type_expr(kind) -> str:
    dims = []
    while kind[0] == "array":
        dims.append(kind[2])
        kind = kind[1]
    if kind[0] == "scalar":
        base = kind[1]
    elif kind[0] == "vec":
        base = f"vec{kind[1]}<{kind[2]}>"
    elif kind[0] == "mat":
        base = f"mat{kind[1]}x{kind[2]}<{kind[3]}>"
    else:
        base = kind[1]
    return base + "".join(f"[{n}]" for n in dims)


def _kinds_schema(structs, rules, folder):
    """The oracle's structs as a schema of ``rules``, generated, compiled; the module's stem."""
    path = folder / f"kinds_{rules}.json"
    path.write_text(json.dumps({"module": "K", "rules": rules, "types": [
        {"record": name, "fields": [[f, _type_expr(k)] for f, k in members]}
        for name, members in structs]}))
    return _generate(folder, path)[0]


_TO_BYTES = """import * as M from "./js/%s.js";
const out = {};
%s
process.stdout.write(JSON.stringify(out));
"""


def _typescript_bytes(structs, rules, folder):
    """Each struct's bytes as the typescript target encodes the oracle's values."""
    stem = _kinds_schema(structs, rules, folder)
    lines = [f'out.{name} = Buffer.from(M.K_{name}.toBytes({kinds_bytes.js_value(structs, name)}))'
             f'.toString("hex");' for name, _ in structs]
    answer = typescript.node(_TO_BYTES % (stem, "\n".join(lines)), folder, f"bytes_{rules}.mjs")
    assert answer.returncode == 0, answer.stderr
    return {name: bytes.fromhex(h) for name, h in json.loads(answer.stdout).items()}


def _mismatches(ours, theirs, padded=False):
    out = []
    for name, data in ours.items():
        want = theirs[name]
        if padded:  # a buffer of room bytes, the struct at its start, the rest zero
            data = data + bytes(len(want) - len(data))
        if data != want:
            out.append(f"{name}: typescript {data.hex()}, compiler {want.hex()}")
    return out


C_SCALARS = ["int32", "uint32", "float32", "float64", "int64", "uint64", "int16", "uint16",
             "int8", "uint8", "float16", "bool"]


def test_c_rules_bytes_are_gccs(tmp_path):
    typescript.programs()
    structs = kinds_oracle.random_structs(seed=34, count=40, scalars=C_SCALARS, glsl=False)
    ours = _typescript_bytes(structs, "c", tmp_path)
    assert _mismatches(ours, kinds_bytes.c_bytes(structs, tmp_path)) == []


@pytest.mark.toolchain("nvcc")
def test_cuda_rules_bytes_are_nvccs(tmp_path):
    typescript.programs()
    require_toolchain("nvcc")
    scalars = [s for s in C_SCALARS if s not in ("float16", "bool")]  # no half4, bool4
    structs = kinds_oracle.random_structs(seed=35, count=30, scalars=scalars, glsl=False)
    ours = _typescript_bytes(structs, "cuda", tmp_path)
    assert _mismatches(ours, kinds_bytes.c_bytes(structs, tmp_path, cuda=True)) == []


@pytest.mark.toolchain("vulkan")
@pytest.mark.parametrize("rules", ["std430", "std140", "scalar"])
def test_gpu_rules_bytes_are_a_shaders(rules, tmp_path):
    """A GLSL compute shader on the Vulkan device writes the same values through a
    ``layout(<rules>)`` buffer: its bytes are the TypeScript encoder's."""
    typescript.programs()
    require_toolchain("vulkan")
    structs = kinds_oracle.random_structs(seed=36, count=30, scalars=kinds_bytes.GLSL_SCALARS,
                                          glsl=True)
    ours = _typescript_bytes(structs, rules, tmp_path)
    theirs = kinds_bytes.glsl_bytes(structs, rules, tmp_path)
    assert _mismatches(ours, theirs, padded=True) == []


def test_the_kinds_comparison_is_live(tmp_path):
    """One stride off in one struct of the gcc comparison is found."""
    typescript.programs()
    structs = [("S0", [("a", ("vec", 3, "float32")), ("b", ("array", ("scalar", "int16"), 3))])]
    theirs = kinds_bytes.c_bytes(structs, tmp_path)
    ours = _typescript_bytes(structs, "c", tmp_path)
    assert _mismatches(ours, theirs) == []
    js = tmp_path / "js" / "kinds_c.js"
    js.write_text(js.read_text().replace("[[3, 2]], _sarek_w_int16", "[[3, 1]], _sarek_w_int16"))
    answer = typescript.node(_TO_BYTES % ("kinds_c", "out.S0 = Buffer.from(M.K_S0.toBytes("
                                          + kinds_bytes.js_value(structs, "S0")
                                          + ')).toString("hex");'), tmp_path, "again.mjs")
    assert _mismatches({"S0": bytes.fromhex(json.loads(answer.stdout)["S0"])}, theirs)
