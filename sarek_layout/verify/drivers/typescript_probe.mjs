// The typescript toolchain's Node program (verify/drivers/typescript.py): it encodes values of
// each probed type with the generated modules (compiled by tsc) and says where each value's
// bytes landed. It reads no layout: values are built from each companion's FIELDS or CTORS
// (names, kinds, array counts), every scalar gets a marker whose bytes occur nowhere else,
// and Python finds the markers in the bytes. A bool or an enum member cannot take a marker:
// it is encoded a second time with another value, and the first byte that changed is where
// it lies. A unit has no bytes of its own to see.
//
// Usage: node typescript_probe.mjs jobs.json   (jobs.json: {"modules": [paths], "types":
// [identifiers], "limit": bytes}); prints one JSON object on stdout.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const companions = new Map();
for (const path of jobs.modules) {
  const module = await import(pathToFileURL(path).href);
  for (const [name, value] of Object.entries(module)) companions.set(name, value);
}

/** How many elements of each array level carry markers: every component of a vector. */
const MARKED = 4;

const BYTES = { int8: 1, uint8: 1, int16: 2, uint16: 2, float16: 2, int32: 4, uint32: 4,
                float32: 4, int64: 8, uint64: 8, float64: 8, bool: 4, unit: 4 };

/** The bytes of the `n`-th marker of `width` bytes: each width has its own byte classes, so
 * that no marker, nor any aligned part of one, is another (docs in the driver). */
function markerBytes(width, n) {
  if (width === 1) return [0x20 + (n % 0x5f)];
  const low = [0x80 | (n & 0x3f), 0x80 | ((n >> 6) & 0x3f)];
  if (width === 2) return [low[0], 0xc0 | ((n >> 6) & 0x0f)];
  if (width === 4) return [...low, 0xd0, 0xc0 | ((n >> 12) & 0x07)];
  return [...low, 0xd8, 0xd8, 0xd8, 0xd8, 0xd8, 0xc0 | ((n >> 12) & 0x07)];
}

function halfValue(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  return e === 0 ? sign * m * 2 ** -24 : sign * (1024 + m) * 2 ** (e - 25);
}

/** The value of `scalar` whose little-endian bytes are `bytes`. */
function valueOf(scalar, bytes) {
  const view = new DataView(new Uint8Array(bytes).buffer);
  switch (scalar) {
    case "int8": return view.getInt8(0);
    case "uint8": return view.getUint8(0);
    case "int16": return view.getInt16(0, true);
    case "uint16": return view.getUint16(0, true);
    case "float16": return halfValue(view.getUint16(0, true));
    case "int32": return view.getInt32(0, true);
    case "uint32": return view.getUint32(0, true);
    case "float32": return view.getFloat32(0, true);
    case "int64": return view.getBigInt64(0, true);
    case "uint64": return view.getBigUint64(0, true);
    case "float64": return view.getFloat64(0, true);
  }
  throw new Error(`no marker for ${scalar}`);
}

function fillerScalar(scalar) {
  if (scalar === "bool") return false;
  if (scalar === "unit") return null;
  return scalar === "int64" || scalar === "uint64" ? 0n : 0;
}

/** One encoding's worth of values: markers handed out, leaves to vary, in build order. */
class Build {
  constructor() {
    this.counters = new Map();
    this.leaves = [];  // [path, "mark", hex] | [path, "vary", holder, key, other] | [path, "none"]
    this.fillers = new Map();
  }

  scalar(path, scalar, holder, key) {
    if (scalar === "unit") {
      this.leaves.push([path, "none"]);
      return null;
    }
    if (scalar === "bool") {
      this.leaves.push([path, "vary", holder, key, false]);
      return true;
    }
    const width = BYTES[scalar];
    const n = this.counters.get(width) ?? 0;
    this.counters.set(width, n + 1);
    const bytes = markerBytes(width, n);
    this.leaves.push([path, "mark", bytes.map((b) => b.toString(16).padStart(2, "0")).join("")]);
    return valueOf(scalar, bytes);
  }

  enumValue(path, ref, holder, key) {
    const values = Object.values(companions.get(ref));
    const first = values[0];
    const low = (v) => Number(BigInt(v) & 0xffn);
    const other = values.find((v) => low(v) !== low(first));
    this.leaves.push(other === undefined ? [path, "none"] : [path, "vary", holder, key, other]);
    return first;
  }

  /** A value of a member (`kind`, `ref`, array `counts`) at `path`, kept at holder[key]. */
  member(path, kind, ref, counts, holder, key) {
    if (counts.length) {
      const [count, ...rest] = counts;
      const out = new Array(count);
      // The first elements carry markers (element 1 of a level gives its stride; the four of
      // a vector its size); the others are one shared filler.
      const marked = Math.min(count, MARKED);
      for (let i = 0; i < marked; i++) {
        out[i] = this.member(`${path}[${i}]`, kind, ref, rest, out, i);
      }
      if (count > marked) out.fill(this.filler(kind, ref, rest), marked);
      return out;
    }
    if (kind === "scalar") return this.scalar(path, ref, holder, key);
    if (kind === "enum") return this.enumValue(path, ref, holder, key);
    return this.record(path, companions.get(ref));
  }

  record(path, companion) {
    const out = {};
    for (const [name, kind, ref, counts] of companion.FIELDS) {
      out[name] = this.member(`${path}.${name}`, kind, ref, counts, out, name);
    }
    return out;
  }

  filler(kind, ref, counts) {
    const key = JSON.stringify([kind, ref, counts]);
    let value = this.fillers.get(key);
    if (value === undefined) {
      if (counts.length) {
        value = new Array(counts[0]).fill(this.filler(kind, ref, counts.slice(1)));
      } else if (kind === "scalar") {
        value = fillerScalar(ref);
      } else if (kind === "enum") {
        value = Object.values(companions.get(ref))[0];
      } else {
        value = {};
        for (const [name, k, r, c] of companions.get(ref).FIELDS) value[name] = this.filler(k, r, c);
      }
      this.fillers.set(key, value);
    }
    return value;
  }
}

const hex = (bytes) => Buffer.from(bytes).toString("hex");

/** Encodes `value` (built by `build`), then each varied leaf with its other value. */
function measure(companion, build, value) {
  const base = companion.toBytes(value);
  const leaves = build.leaves.map((leaf) => {
    if (leaf[1] !== "vary") return leaf;
    const [path, , holder, key, other] = leaf;
    const kept = holder[key];
    holder[key] = other;
    const changed = companion.toBytes(value);
    holder[key] = kept;
    const at = base.findIndex((b, i) => b !== changed[i]);
    return [path, "at", at];
  });
  return { bytes: hex(base), leaves };
}

const out = {};
for (const name of jobs.types) {
  const companion = companions.get(name);
  if (companion === undefined || typeof companion.toBytes !== "function") {
    out[name] = null;  // an enum: a const object of values, nothing to encode
  } else if (companion.SIZE > jobs.limit) {
    out[name] = { skipped: companion.SIZE };
  } else if (companion.FIELDS !== undefined) {
    const build = new Build();
    out[name] = { variant: false,
                  encodings: [measure(companion, build, build.record("", companion))] };
  } else {
    out[name] = {
      variant: true,
      encodings: companion.CTORS.map(([ctor, args]) => {
        const build = new Build();
        const value = { tag: ctor };
        args.forEach(([kind, ref, counts], i) => {
          value[`_${i}`] = build.member(`${ctor}._${i}`, kind, ref, counts, value, `_${i}`);
        });
        return measure(companion, build, value);
      }),
    };
  }
}
process.stdout.write(JSON.stringify(out));
