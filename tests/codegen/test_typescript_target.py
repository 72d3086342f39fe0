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
from helpers import kinds_bytes, kinds_oracle, kinds_shapes, typescript
from helpers.bounded import python_calls
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


def _kinds_schema(structs, rules, folder):
    """The oracle's structs as a schema of ``rules``, generated, compiled; the module's stem."""
    path = folder / f"kinds_{rules}.json"
    path.write_text(json.dumps({"module": "K", "rules": rules, "types": [
        {"record": name, "fields": [[f, kinds_shapes.spelling(k)] for f, k in members]}
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


_CHAR_C = r"""#include <stdint.h>
#include <stdio.h>
#include <string.h>
struct s { uint8_t a; char name[5]; int32_t k; char id[3]; };
int main(void) {
  struct s v; memset(&v, 0, sizeof v);
  v.a = 7; memcpy(v.name, "ab\xff\x80", 4); v.k = -2; memcpy(v.id, "xyz", 3);
  for (size_t i = 0; i < sizeof v; i++) printf("%02x", ((const unsigned char *)&v)[i]);
  return 0; }
"""


def test_byte_strings_are_gccs_bytes(tmp_path):
    """A ``char[N]`` member (a byte string, as import-c reads ``char name[N]``) is N numbers
    0 to 255: the bytes gcc's struct holds, read back the same (it was a KeyError)."""
    import subprocess

    typescript.programs()
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"module": "B", "types": [{"record": "s", "fields": [
        ["a", "uint8"], ["name", "char[5]"], ["k", "int32"], ["id", "char[3]"]]}]}))
    stem = _generate(tmp_path, path)[0]
    (tmp_path / "s.c").write_text(_CHAR_C)
    subprocess.run(["gcc", "-std=c11", "-o", str(tmp_path / "s"), str(tmp_path / "s.c")],
                   check=True)
    gcc = subprocess.run([str(tmp_path / "s")], check=True, capture_output=True, text=True)
    value = '{a: 7, name: [97, 98, 255, 128, 0], k: -2, id: [120, 121, 122]}'
    run = typescript.node(
        f'import {{ B_s }} from "./js/{stem}.js";\nconst b = B_s.toBytes({value});\n'
        'process.stdout.write(Buffer.from(b).toString("hex") + " " + '
        'JSON.stringify(B_s.fromBytes(b)) + " ");\n'
        'try { B_s.toBytes({...B_s.fromBytes(b), id: [1, 2, 256]}); } '
        'catch (e) { process.stdout.write(String(e.message)); }\n', tmp_path)
    assert run.returncode == 0, run.stderr
    hexed, back, refusal = run.stdout.split(" ", 2)
    assert hexed == gcc.stdout
    assert json.loads(back) == {"a": 7, "name": [97, 98, 255, 128, 0], "k": -2,
                                "id": [120, 121, 122]}
    assert ".id[2]" in refusal and "256" in refusal, refusal


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


# --- float16, framed data, value checks, columns ---------------------------------------------

_HALF = typescript.READ_STDIN + """
import { K_h } from "./js/half.js";
const bits = (hex) => new DataView(Uint8Array.from(Buffer.from(hex, "hex")).buffer).getFloat64(0, true);
const encoded = input.map((hex) => {
  try { return Buffer.from(K_h.toBytes({ h: bits(hex) })).toString("hex"); }
  catch (e) { return e instanceof RangeError ? "RangeError" : String(e); }
});
const decoded = [];
const one = new Uint8Array(2);
for (let h = 0; h < 65536; h++) {
  one[0] = h & 0xff; one[1] = h >> 8;
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, K_h.fromBytes(one).h, true);
  decoded.push(Buffer.from(v.buffer).toString("hex"));
}
process.stdout.write(JSON.stringify({ encoded, decoded }));
"""


def _half_inputs():
    import random

    rng = random.Random(16)
    values = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, -math.nan, 65504.0,
              65519.99, 65520.0, -65520.0, 1e300, 5e-324, 2.0 ** -24, 2.0 ** -25,
              3 * 2.0 ** -25, 2.0 ** -14, 2.0 ** -14 - 2.0 ** -25, 1 + 2.0 ** -11,
              1 + 3 * 2.0 ** -11, 2048 + 1.0, 2048 + 3.0, 0.1, 1 / 3]
    for _ in range(3000):  # halfway points and their neighbours, and plain doubles
        h = rng.randrange(0, 0x7bff)
        a = struct.unpack("<e", struct.pack("<H", h))[0]
        b = struct.unpack("<e", struct.pack("<H", h + 1))[0]
        mid = (a + b) / 2
        values += [mid, math.nextafter(mid, 0), math.nextafter(mid, math.inf), -mid]
        values.append(rng.uniform(-70000, 70000) * 2.0 ** rng.randint(-30, 0))
    return values


def test_float16_is_binary16_as_pythons_struct_converts_it(tmp_path):
    """Every value of the list rounds (to nearest, ties to even, from the double) to the bits
    ``struct.pack("<e")`` gives, or is refused where struct overflows; every one of the 65,536
    bit patterns decodes to ``struct.unpack("<e")``'s number (any NaN to a NaN)."""
    typescript.programs()
    path = tmp_path / "half.json"
    path.write_text(json.dumps({"module": "K", "types": [{"record": "h", "fields": [["h", "float16"]]}]}))
    _generate(tmp_path, path)
    values = _half_inputs()
    answer = typescript.node_json(_HALF, tmp_path, [struct.pack("<d", v).hex() for v in values])
    wrong = []
    for v, got in zip(values, answer["encoded"]):
        try:
            want = struct.pack("<e", v).hex()
        except OverflowError:
            want = "RangeError"
        if got != want:
            wrong.append(f"{v!r}: typescript {got}, struct {want}")
    assert wrong == [] and len(values) > 15_000
    for h, got in enumerate(answer["decoded"]):
        want = struct.unpack("<e", struct.pack("<H", h))[0]
        value = struct.unpack("<d", bytes.fromhex(got))[0]
        assert (math.isnan(value) and math.isnan(want)) or struct.pack("<d", value) == struct.pack("<d", want), h


_FRAMED = typescript.READ_STDIN + """
import { Geometry_point, Geometry_shape } from "./js/geometry.js";
const bytes = (hex) => Uint8Array.from(Buffer.from(hex, "hex"));
const hex = (b) => Buffer.from(b).toString("hex");
const refused = (f) => { try { f(); return "read"; } catch (e) { return `${e.constructor.name}: ${e.message}`; } };
const shapes = Geometry_shape.unpackFramed(bytes(input.shapes));
const other = bytes(input.shapes); other[8] ^= 1;
const offset = new Uint8Array(5 + input.shapes.length / 2); offset.set(bytes(input.shapes), 5);
process.stdout.write(JSON.stringify({
  again: hex(Geometry_shape.packFramed(shapes)),
  count: Geometry_shape.checkHeader(bytes(input.shapes)),
  at5: Geometry_shape.unpackFramed(offset, 5).length,
  points: hex(Geometry_point.packFramed([{ x: 1, y: 2 }, { x: -3.5, y: 4 }])),
  empty: hex(Geometry_point.packFramed([])),
  other: refused(() => Geometry_shape.unpackFramed(other)),
  truncated: refused(() => Geometry_shape.unpackFramed(bytes(input.shapes).subarray(0, 40))),
  short: refused(() => Geometry_shape.unpackFramed(bytes(input.shapes).subarray(0, 20))),
  bare: refused(() => Geometry_point.unpackFramed(bytes(input.bare))),
  point_as_shape: refused(() => Geometry_shape.unpackFramed(Geometry_point.packFramed([]))),
}));
"""


def test_framed_data_crosses_between_python_and_node(tmp_path):
    """Python's pack_framed is read by Node and written again byte for byte; Node's is read by
    Python; another layout, a truncated frame and bytes without the header are refused with
    the messages of docs/fingerprint.md."""
    typescript.programs()
    from helpers.verify import EXAMPLES

    geometry = tmp_path / "geometry.toml"
    geometry.write_text((EXAMPLES / "geometry.toml").read_text())
    _generate(tmp_path, geometry)
    schema = sarek_layout.load(str(geometry))
    shapes = [("Circle", ({"x": 1.0, "y": 2.0}, 3.0)), ("Empty", ()),
              ("Weighted", (2.5, -7))]
    framed = schema.pack_framed("shape", shapes)
    answer = typescript.node_json(_FRAMED, tmp_path, {
        "shapes": framed.hex(), "bare": schema.pack("point", [{"x": 1.0, "y": 2.0}] * 3).hex()})
    assert answer["again"] == framed.hex() and answer["count"] == 3 and answer["at5"] == 3
    assert schema.unpack_framed("point", bytes.fromhex(answer["points"])) == [
        {"x": 1.0, "y": 2.0}, {"x": -3.5, "y": 4.0}]
    assert schema.unpack_framed("point", bytes.fromhex(answer["empty"])) == []
    ids = {n: f"0x{schema.layout_id(n):016x}" for n in ("point", "shape")}
    assert answer["other"].startswith("RangeError: Geometry.shape: the data was written under layout")
    assert f"but this program's Geometry.shape has layout {ids['shape']}" in answer["other"]
    assert answer["point_as_shape"].startswith(
        f"RangeError: Geometry.shape: the data was written under layout {ids['point']}")
    assert "3 elements need 72 bytes, only 16" in answer["truncated"]
    assert "cannot hold the 24-byte sarek-layout header" in answer["short"]
    assert "no sarek-layout header at offset 0" in answer["bare"]


CHECKED = {"module": "K", "types": [
    {"enum": "mode", "base": "uint8", "values": [["Off", 0], ["On", 1]]},
    {"enum": "big", "base": "int64", "values": [["Lo", -5], ["Hi", 9007199254740993]]},
    {"record": "q", "fields": [["i", "int16"], ["u", "uint32"], ["l", "int64"], ["f", "float32"],
                               ["b", "bool"], ["n", "unit"], ["m", "mode"], ["g", "big"],
                               ["v", "vec2<float32>"], ["a", "int32[2][2]"]]},
    {"variant": "w", "constructors": [["One", ["q"]], ["Two", ["float64", "q[2]"]]]}]}

_CHECKS = """import { K_q, K_w, K_mode, K_big } from "./js/checked.js";
const ok = { i: -2, u: 4000000000, l: -(2n ** 63n), f: 1.5, b: true, n: null, m: K_mode.On,
             g: K_big.Hi, v: [1, 2], a: [[1, 2], [3, 4]] };
const cases = {
  string: { ...ok, f: "1.5" }, range: { ...ok, i: 40000 }, fraction: { ...ok, u: 1.5 },
  number_for_int64: { ...ok, l: 5 }, int64_range: { ...ok, l: 2n ** 63n },
  float32_overflow: { ...ok, f: 1e39 }, bool_as_int: { ...ok, b: 1 }, unit_as_zero: { ...ok, n: 0 },
  short_array: { ...ok, a: [[1, 2], [3]] }, missing: (({ m, ...rest }) => rest)(ok),
  not_a_value: { ...ok, m: 7 }, not_an_object: 5, array_for_record: [1, 2],
};
const out = {};
const say = (f) => { try { f(); return "ok"; } catch (e) { return `${e.constructor.name}: ${e.message}`; } };
for (const [name, value] of Object.entries(cases)) out[name] = say(() => K_q.toBytes(value));
out.nested = say(() => K_w.toBytes({ tag: "Two", _0: 1, _1: [ok, { ...ok, v: [1, "x"] }] }));
out.tag = say(() => K_w.toBytes({ tag: "Three" }));
const bytes = K_q.toBytes(ok);
out.round = JSON.stringify(K_q.fromBytes(bytes), (k, v) => typeof v === "bigint" ? `${v}n` : v);
bytes[28] = 9;  // m, an enum of uint8
out.bad_enum = say(() => K_q.fromBytes(bytes));
out.offset = say(() => K_q.encode(ok, new DataView(new ArrayBuffer(100)), 90));
out.negative = say(() => K_q.decode(new DataView(new ArrayBuffer(100)), -1));
out.fit = say(() => K_q.encode(ok, new DataView(new ArrayBuffer(100), 10), 100 - 10 - K_q.SIZE));
process.stdout.write(JSON.stringify(out));
"""


def test_encoders_check_values_and_say_where(tmp_path):
    """Each wrong value is refused with a TypeError (the wrong kind of value) or a RangeError
    (a value out of range, an enum value the enum lacks, bytes that do not fit), naming the
    type and the member's path."""
    typescript.programs()
    path = tmp_path / "checked.json"
    path.write_text(json.dumps(CHECKED))
    _generate(tmp_path, path)
    got = typescript.node_json(_CHECKS, tmp_path)
    want = {
        "string": 'TypeError: K.q.f: expected a number, got the string "1.5"',
        "range": "RangeError: K.q.i: 40000 is outside -32768..32767",
        "fraction": "TypeError: K.q.u: expected an integer, got 1.5",
        "number_for_int64": "TypeError: K.q.l: expected a bigint (64-bit integers are bigints), got 5",
        "int64_range": "RangeError: K.q.l: 9223372036854775808n is outside "
                       "-9223372036854775808n..9223372036854775807n",
        "float32_overflow": "RangeError: K.q.f: 1e+39 is too large for a float32",
        "bool_as_int": "TypeError: K.q.b: expected a boolean, got 1",
        "unit_as_zero": "TypeError: K.q.n: expected null (a unit value), got 0",
        "short_array": "TypeError: K.q.a[1]: expected an array of 2, got an array of 1",
        "missing": "RangeError: K.q.m: undefined is not a value of K.mode",
        "not_a_value": "RangeError: K.q.m: 7 is not a value of K.mode",
        "not_an_object": "TypeError: K.q: expected an object, got 5",
        "array_for_record": "TypeError: K.q: expected an object, got an array of 2",
        "nested": 'TypeError: K.w._1[1].v[1]: expected a number, got the string "x"',
        "tag": 'TypeError: K.w.tag: expected one of "One", "Two", got the string "Three"',
        "bad_enum": "RangeError: K.q.m: 9 (at byte 28) is not a value of K.mode",
        "offset": "RangeError: K.q: 64 bytes at offset 90 do not fit in a view of 100 bytes",
        "negative": "RangeError: K.q: 64 bytes at offset -1 do not fit in a view of 100 bytes",
        "fit": "ok",
    }
    assert {k: got[k] for k in want} == want
    assert got["round"] == ('{"i":-2,"u":4000000000,"l":"-9223372036854775808n","f":1.5,"b":true,'
                            '"n":null,"m":1,"g":"9007199254740993n","v":[1,2],"a":[[1,2],[3,4]]}')


COLUMNS = {"module": "C", "rules": "std430", "types": [
    {"enum": "kind", "base": "int32", "values": [["A", 3], ["B", 4]]},
    {"record": "pt", "fields": [["p", "vec3<float32>"], ["w", "float32"]]},
    {"record": "body", "fields": [["id", "uint32"], ["kind", "kind"], ["pts", "pt[3]"],
                                  ["m", "mat2"], ["mass", "float64"], ["big", "int64"],
                                  ["alive", "bool"], ["h", "float16"], ["c", "uint8[2]"]]}]}
SCALAR_RULES = {"module": "S", "rules": "scalar", "types": [
    {"record": "odd", "fields": [["d", "float64"], ["f", "float32"]]},
    {"record": "even", "fields": [["d", "float32"], ["f", "float32"]]}]}

_COLUMNS = """import { C_body } from "./js/columns.js";
import * as S from "./js/scalar_rules.js";
const n = 3;
const body = (i) => ({ id: 7 + i, kind: i % 2 ? 4 : 3,
  pts: [0, 1, 2].map((j) => ({ p: [i, j, i * j], w: i + j / 2 })),
  m: [[i, 1], [2, i]], mass: i / 4, big: BigInt(i) << 40n, alive: i % 2 === 0, h: i + 0.5, c: [i, 255 - i] });
const bytes = C_body.pack([0, 1, 2].map(body));
const buffer = new ArrayBuffer(bytes.length + 32);
new Uint8Array(buffer, 32).set(bytes);
const c = C_body.columns(buffer, 32, n);
const at = (col, i, ...idx) => col.array[col.index + i * col.stride + idx.reduce((s, k, l) => s + k * col.dims[l][1], 0)];
const read = [];
for (let i = 0; i < n; i++) {
  read.push({ id: at(c.id, i), kind: at(c.kind, i),
    pts: [0, 1, 2].map((j) => ({ p: [0, 1, 2].map((k) => at(c.pts.p, i, j, k)), w: at(c.pts.w, i, j) })),
    m: [0, 1].map((col) => [0, 1].map((row) => at(c.m, i, col, row))), mass: at(c.mass, i),
    big: String(at(c.big, i)), alive: at(c.alive, i), h: at(c.h, i), c: [at(c.c, i, 0), at(c.c, i, 1)] });
}
const decoded = C_body.unpack(bytes).map((b) => ({ ...b, big: String(b.big) }));
const arrays = [c.id.array, c.kind.array, c.mass.array, c.big.array, c.h.array, c.c.array].map((a) => a.constructor.name);
process.stdout.write(JSON.stringify({ read, decoded, arrays, dims: c.pts.p.dims,
  odd: "columns" in S.S_odd, even: "columns" in S.S_even,
  misaligned: (() => { try { C_body.columns(buffer, 4, 1); return "ok"; } catch (e) { return e.constructor.name; } })() }));
"""


def test_columns_read_what_decode_reads(tmp_path):
    """Each member's typed array over a buffer of three records reads, at ``index + i *
    stride`` (and each array level's step), the value ``unpack`` decodes; a record whose
    size is no multiple of its float64's (``scalar`` rules: 12 bytes) has no columns."""
    typescript.programs()
    (tmp_path / "columns.json").write_text(json.dumps(COLUMNS))
    (tmp_path / "scalar_rules.json").write_text(json.dumps(SCALAR_RULES))
    _generate(tmp_path, tmp_path / "columns.json", tmp_path / "scalar_rules.json")
    got = typescript.node_json(_COLUMNS, tmp_path)
    assert got["arrays"] == ["Uint32Array", "Int32Array", "Float64Array", "BigInt64Array",
                             "Uint16Array", "Uint8Array"]
    assert got["dims"] == [[3, 4], [3, 1]]  # pts: 16 bytes (4 floats) apart; a vec3's components
    assert len(got["read"]) == len(got["decoded"]) == 3
    for read, decoded in zip(got["read"], got["decoded"]):
        # A column holds what is stored: a float16's bits, a bool's int32.
        decoded["h"] = struct.unpack("<H", struct.pack("<e", decoded["h"]))[0]
        decoded["alive"] = int(decoded["alive"])
        assert read == decoded
    assert (got["odd"], got["even"], got["misaligned"]) == (False, True, "RangeError")


# --- work: linear in members, never in element counts ----------------------------------------


def _render_calls(tmp_path, member: str):
    path = tmp_path / f"w{abs(hash(member))}.json"
    path.write_text(json.dumps({"module": "W", "rules": "std430", "types": [
        {"record": "big", "fields": [["n", "int32"], ["a", member], ["z", "float64"]]},
        {"variant": "v", "constructors": [["A", ["big", member]], ["B", []]]}]}))
    schema = load_schema([str(path)])
    render_headers(schema, ["typescript"])  # templates compiled, runtime read: not counted
    texts = []
    calls = python_calls(lambda: texts.append(render_headers(schema, ["typescript"])[0].text))
    return calls, texts[0]


def test_a_huge_array_member_costs_what_a_scalar_costs_in_generate(tmp_path):
    """The Python calls made by rendering a module whose members are ``float32[100000000]``
    (400 MB each), ``float32[4]`` and ``float32``: the same count for both arrays (the view
    and template print an array's levels, never its elements), a few dozen more than for the
    scalar (its level list printed, twice), and texts that differ only in numbers."""
    import re

    huge, huge_text = _render_calls(tmp_path, "float32[100000000]")
    small, small_text = _render_calls(tmp_path, "float32[4]")
    scalar, _ = _render_calls(tmp_path, "float32")
    assert huge == small and 0 < huge - scalar < 150, (huge, small, scalar)
    digits = re.compile(r"0x[0-9a-f]+|[0-9]+")  # numbers, and the layout ids
    assert digits.sub("N", huge_text) == digits.sub("N", small_text)
    assert "[[100000000, 4]]" in huge_text
