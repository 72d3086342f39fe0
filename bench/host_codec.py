#!/usr/bin/env python3
"""Host codec throughput for N elements (default 1,000,000), against numpy structured arrays.

    python bench/host_codec.py [-n 1000000] [--repeat 3] [--section throughput|plans]...

Types: examples/e2e/telemetry.toml — ``sample``, a 40-byte record (int32, int64, float64, a
nested float32 pair, bool) and ``reading``, a 24-byte variant of five constructors mixing
4- and 8-byte arguments (one constant). Every row starts from Python values and ends with
the element bytes (or, for decoding, goes back); times are the best of ``--repeat`` runs.

Rows:
  codec        ``sarek_layout.load(...).pack/unpack``: dicts and ``(ctor, args)`` pairs
  generated    the standalone ``telemetry_layout.py`` (python target): frozen dataclasses
  numpy        filling ``np.zeros(n, schema.dtype(...))`` from the same Python values:
               ``np.array`` of nested tuples, or column by column (per constructor, with a
               mask, for the variant); ``tolist()`` to decode; and, for reference, column
               assignment from data that is already in numpy arrays (no Python objects).
               Note: ``np.array(values, dtype)`` does not zero the padding bytes (it fills an
               uninitialised allocation field by field); the script counts how many
               elements came out with non-zero padding.

Section ``plans`` measures the bound that decides when a byte plan stops inlining nested
records (``host.plan.INLINE_SLOTS``): records of 2 to 1,024 scalars (``t0 = {a: float32; b:
float64}``, ``tK = {a: t(K-1); b: t(K-1)}``), packed and unpacked with the API codec under
several bounds, reported per scalar so that the rows compare across sizes.

Nothing here is asserted: tests never time anything.
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import sarek_layout as sl  # noqa: E402

SCHEMA = ROOT / "examples" / "e2e" / "telemetry.toml"


def best(fn: Callable[[], object], repeat: int) -> Tuple[float, object]:
    result, times = None, []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def sample_dict(i: int) -> dict:
    return {"id": i * 7 - 3, "stamp": (1 << 40) + i, "value": i * 0.25,
            "pos": {"x": i * 0.5, "y": -1.5}, "valid": i % 3 == 0}


def reading_pair(i: int) -> tuple:
    k = i % 5
    if k == 0:
        return ("Temp", (i * 0.5,))
    if k == 1:
        return ("Count", (-(1 << 35) - i, i))
    if k == 2:
        return ("Located", ({"x": float(i), "y": 2.0}, i * 1e3))
    if k == 3:
        return ("Flag", (i % 2 == 0,))
    return ("Missing", ())


def plans(repeat: int) -> None:
    """Pack/unpack time per scalar of doubling records under several inlining bounds."""
    from sarek_layout.host import codec as codec_module
    from sarek_layout.host import plan as plan_module
    from sarek_layout.ir.types import TFloat32, TFloat64, TRecord

    levels = range(0, 10)
    records = [TRecord("t0", [("a", TFloat32), ("b", TFloat64)])]
    values: List[object] = [{"a": 1.5, "b": -2.25}]
    for k in range(1, levels[-1] + 1):
        records.append(TRecord(f"t{k}", [("a", records[-1]), ("b", records[-1])]))
        values.append({"a": values[-1], "b": values[-1]})
    scalars = 1 << 20  # per row: the element count is scaled so that every row packs this many
    bounds = (16, 64, 256, 1 << 20)
    saved = plan_module.INLINE_SLOTS
    table = {}
    try:
        for bound in bounds:
            plan_module.INLINE_SLOTS = bound
            plan_module._ELTTYPES._memo.clear()
            codec_module._CODECS.clear()
            for k in levels:
                codec = codec_module.codec_of(records[k])
                n = scalars >> (k + 1)
                items = [values[k]] * n
                pack, data = best(lambda: codec.pack(items), repeat)
                unpack = best(lambda: codec.unpack(data), repeat)[0]  # drop the million dicts
                table[bound, k] = (pack * 1e9 / scalars, unpack * 1e9 / scalars)
                print(f"  bound {bound:>7}  {2 << k:>5} scalars: pack {table[bound, k][0]:6.1f} ns, "
                      f"unpack {table[bound, k][1]:6.1f} ns per scalar", file=sys.stderr, flush=True)
    finally:
        plan_module.INLINE_SLOTS = saved
        plan_module._ELTTYPES._memo.clear()
        codec_module._CODECS.clear()
    # What the bound costs in code: the 22-level doubling schema (2^21 scalars per record).
    from sarek_layout.codegen import render_headers
    from sarek_layout.resolve import load_schema

    tmp = Path(tempfile.mkdtemp(prefix="sarek-bench-"))
    (tmp / "deep.toml").write_text(_doubling_toml(22))
    code = {}
    # Loaded once: the layout core's caches compare TRecords with ==, which is exponential
    # between two distinct loads of this schema (a second load takes seconds).
    schema = load_schema([str(tmp / "deep.toml")])
    render_headers(schema, ["python"])  # compile the template once, outside the timings
    try:
        for bound in bounds[:-1]:  # unbounded never finishes here: that is the point
            plan_module.INLINE_SLOTS = bound
            plan_module._ELTTYPES._memo.clear()
            plan_module._SCHEMA_TYPES._memo.clear()
            codec_module._CODECS.clear()
            built, _ = best(lambda: [codec_module.codec_of(st.elttype) for st in schema.types], 1)
            rendered, files = best(lambda: render_headers(schema, ["python"]), 1)
            code[bound] = (built, rendered, len(files[0].text))
    finally:
        plan_module.INLINE_SLOTS = saved
        plan_module._ELTTYPES._memo.clear()
        plan_module._SCHEMA_TYPES._memo.clear()
        codec_module._CODECS.clear()
    print()
    print(f"Inlining bound: ns per scalar, pack / unpack, {scalars:,} scalars a row, best of {repeat} "
          f"(Python {sys.version.split()[0]})")
    print()
    names = ["unbounded" if b >= 1 << 20 else str(b) for b in bounds]
    print("| scalars per element | " + " | ".join(names) + " |")
    print("|---:|" + "---:|" * len(bounds))
    for k in levels:
        cells = [f"{table[b, k][0]:.0f} / {table[b, k][1]:.0f}" for b in bounds]
        print(f"| {2 << k:,} | " + " | ".join(cells) + " |")
    print()
    print("| 22 doubling levels | " + " | ".join(names[:-1]) + " |")
    print("|---|" + "---:|" * (len(bounds) - 1))
    print("| API codecs of every type built | "
          + " | ".join(f"{code[b][0] * 1e3:.0f} ms" for b in bounds[:-1]) + " |")
    print("| `-t python` rendered | " + " | ".join(f"{code[b][1] * 1e3:.0f} ms" for b in bounds[:-1]) + " |")
    print("| generated module | " + " | ".join(f"{code[b][2] / 1e3:.0f} kB" for b in bounds[:-1]) + " |")


def _doubling_toml(levels: int) -> str:
    lines = ['module = "Deep"', "[[types]]", 'record = "t0"', 'fields = [["a", "float32"], ["b", "float64"]]']
    for k in range(1, levels):
        lines += ["[[types]]", f'record = "t{k}"', f'fields = [["a", "t{k - 1}"], ["b", "t{k - 1}"]]']
    lines += ["[[types]]", 'variant = "v"',
              f'constructors = [["A", ["t{levels - 1}"]], ["B", ["t{levels - 1}", "int32"]], ["C"]]']
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--section", action="append", choices=("throughput", "plans"),
                        help="run only this section (repeatable; default: both)")
    args = parser.parse_args()
    sections = args.section or ["throughput", "plans"]
    if "throughput" in sections:
        throughput(args.n, args.repeat)
    if "plans" in sections:
        plans(args.repeat)
    return 0


def throughput(n: int, repeat: int) -> None:
    schema = sl.load(str(SCHEMA))
    tmp = tempfile.mkdtemp(prefix="sarek-bench-")
    subprocess.run([sys.executable, "-m", "sarek_layout", "generate", str(SCHEMA), "-o", tmp,
                    "-t", "python"], check=True, cwd=str(ROOT), capture_output=True)
    sys.path.insert(0, tmp)
    import telemetry_layout as T  # noqa: E402

    samples = [sample_dict(i) for i in range(n)]
    readings = [reading_pair(i) for i in range(n)]
    sample_codec, reading_codec = schema.codec("sample"), schema.codec("reading")
    sample_dt, reading_dt = schema.dtype("sample"), schema.dtype("reading")

    def to_dc_sample(d):
        return T.Telemetry_sample(d["id"], d["stamp"], d["value"],
                                  T.Telemetry_vec2(d["pos"]["x"], d["pos"]["y"]), d["valid"])

    ctor_class = {"Temp": T.Telemetry_reading_Temp, "Count": T.Telemetry_reading_Count,
                  "Located": T.Telemetry_reading_Located, "Flag": T.Telemetry_reading_Flag,
                  "Missing": T.Telemetry_reading_Missing}

    def to_dc_reading(pair):
        name, a = pair
        if name == "Located":
            a = (T.Telemetry_vec2(a[0]["x"], a[0]["y"]), a[1])
        return ctor_class[name](*a)

    dc_samples = [to_dc_sample(d) for d in samples]
    dc_readings = [to_dc_reading(p) for p in readings]

    rows: List[Tuple[str, str, float]] = []

    def row(type_name: str, label: str, fn: Callable[[], object]) -> object:
        seconds, result = best(fn, repeat)
        rows.append((type_name, label, seconds))
        print(f"  {type_name:8} {label:58} {seconds:7.3f} s", file=sys.stderr, flush=True)
        return result

    print(f"n = {n:,}, best of {repeat}", file=sys.stderr)
    # --- record ------------------------------------------------------------------------
    packed = row("sample", "codec pack (dicts -> bytes)", lambda: sample_codec.pack(samples))
    row("sample", "codec unpack (bytes -> dicts)", lambda: sample_codec.unpack(packed))
    row("sample", "codec encode, one schema.encode() call per element",
        lambda: b"".join([schema.encode("sample", v) for v in samples]))
    gen = row("sample", "generated pack (dataclasses -> bytes)", lambda: T.pack_Telemetry_sample(dc_samples))
    assert gen == packed
    row("sample", "generated unpack (bytes -> dataclasses)", lambda: T.unpack_Telemetry_sample(packed))

    def np_tuples():
        return np.array([(d["id"], d["stamp"], d["value"], (d["pos"]["x"], d["pos"]["y"]), d["valid"])
                         for d in samples], sample_dt)

    def np_columns():
        a = np.zeros(n, sample_dt)
        a["id"] = [d["id"] for d in samples]
        a["stamp"] = [d["stamp"] for d in samples]
        a["value"] = [d["value"] for d in samples]
        a["pos"]["x"] = [d["pos"]["x"] for d in samples]
        a["pos"]["y"] = [d["pos"]["y"] for d in samples]
        a["valid"] = [d["valid"] for d in samples]
        return a

    arr = row("sample", "numpy np.array(list of nested tuples, dtype)", np_tuples)
    # Same fields, but np.array() leaves the padding bytes uninitialised (whatever the
    # allocator returned): compare fields, and count the elements with dirty padding.
    assert (arr == np.frombuffer(packed, sample_dt)).all()
    dirty = int((np.frombuffer(arr.tobytes(), np.uint8).reshape(n, -1)
                 != np.frombuffer(packed, np.uint8).reshape(n, -1)).any(axis=1).sum())
    arr = row("sample", "numpy column by column from the dicts", np_columns)
    assert arr.tobytes() == packed
    cols = {k: np.asarray(v) for k, v in (
        ("id", arr["id"].copy()), ("stamp", arr["stamp"].copy()), ("value", arr["value"].copy()),
        ("x", arr["pos"]["x"].copy()), ("y", arr["pos"]["y"].copy()), ("valid", arr["valid"].copy()))}

    def np_vectorized():
        a = np.zeros(n, sample_dt)
        a["id"], a["stamp"], a["value"] = cols["id"], cols["stamp"], cols["value"]
        a["pos"]["x"], a["pos"]["y"], a["valid"] = cols["x"], cols["y"], cols["valid"]
        return a

    row("sample", "numpy columns from numpy arrays (no Python objects)", np_vectorized)
    row("sample", "numpy tolist() (bytes -> nested tuples)",
        lambda: np.frombuffer(packed, sample_dt).tolist())

    # --- variant -----------------------------------------------------------------------
    packed_r = row("reading", "codec pack ((ctor, args) -> bytes)", lambda: reading_codec.pack(readings))
    row("reading", "codec unpack (bytes -> (ctor, args))", lambda: reading_codec.unpack(packed_r))
    gen_r = row("reading", "generated pack (dataclasses -> bytes)", lambda: T.pack_Telemetry_reading(dc_readings))
    assert gen_r == packed_r
    row("reading", "generated unpack (bytes -> dataclasses)", lambda: T.unpack_Telemetry_reading(packed_r))
    tags = T.TAGS_Telemetry_reading

    def np_variant():
        a = np.zeros(n, reading_dt)
        tag = np.array([tags[name] for name, _ in readings], np.int32)
        a["tag"] = tag
        data = a["data"]
        by_ctor = {name: [args for nm, args in readings if nm == name] for name in tags}
        for name in ("Temp", "Flag"):  # one argument: the union member is the argument itself
            where = np.nonzero(tag == tags[name])[0]
            data[f"{name}_v"][where] = [args[0] for args in by_ctor[name]]
        where = np.nonzero(tag == tags["Count"])[0]
        for k in range(2):
            data["Count_v"][f"_{k}"][where] = [args[k] for args in by_ctor["Count"]]
        where = np.nonzero(tag == tags["Located"])[0]
        arm = data["Located_v"]
        arm["_0"]["x"][where] = [args[0]["x"] for args in by_ctor["Located"]]
        arm["_0"]["y"][where] = [args[0]["y"] for args in by_ctor["Located"]]
        arm["_1"][where] = [args[1] for args in by_ctor["Located"]]
        return a

    arr_r = row("reading", "numpy per constructor: mask + column assignment", np_variant)
    assert arr_r.tobytes() == packed_r

    # --- report ------------------------------------------------------------------------
    print()
    print(f"Host codec throughput, n = {n:,} elements, best of {repeat} "
          f"(Python {sys.version.split()[0]}, numpy {np.__version__})")
    print()
    print(f"np.array(list, dtype) left non-zero padding in {dirty:,} of {n:,} elements "
          f"(np.zeros + assignment, and both codecs, zero it).")
    print()
    print("| type | operation | seconds | M elements/s | MB/s |")
    print("|------|-----------|--------:|-------------:|-----:|")
    sizes = {"sample": sample_dt.itemsize, "reading": reading_dt.itemsize}
    for type_name, label, seconds in rows:
        rate = n / seconds
        print(f"| {type_name} | {label} | {seconds:.3f} | {rate / 1e6:.2f} | "
              f"{rate * sizes[type_name] / 1e6:.0f} |")


if __name__ == "__main__":
    sys.exit(main())
