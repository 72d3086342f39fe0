// The runtime of the typescript target (sarek_layout/codegen/typescript_view.py): pasted
// verbatim, between the two marker lines, into every generated module, so that a module needs
// nothing but itself (and the modules of the schema files it uses). It knows no schema type
// and no scalar: the generated module defines its scalars' readers and writers from the
// package's scalar table and hands them in. Every name here starts with `_sarek_`, which no
// schema name may, and nothing is exported: two generated modules re-exported side by side
// (`export * from`) share no name. Compiled on its own by the tests (`tsc --strict`), as is
// every generated module.
// --- sarek-layout runtime: begin
/** A value's writer: checks `x` and stores it, little-endian, at byte `at` of `view`. */
type _sarek_Put = (view: DataView, at: number, x: unknown) => void;
/** A value's reader: the value stored at byte `at` of `view`. */
type _sarek_Get<T> = (view: DataView, at: number) => T;
/** Array levels, outermost first: `[count, stride in bytes]` each. */
type _sarek_Dims = readonly (readonly [number, number])[];

/** What a companion object does for its type `T` (`Geometry_point.toBytes(p)`…). */
interface _sarek_Codec<T> {
  /** The bytes of one element, padding included: n elements are n * SIZE bytes. */
  readonly SIZE: number;
  /** The alignment a buffer of elements needs (for a GPU buffer binding offset, say). */
  readonly ALIGN: number;
  /** The layout fingerprint (docs/fingerprint.md). */
  readonly LAYOUT_ID: bigint;
  /** Writes `value` at byte `offset` of `view`: every byte of the element, padding zero. */
  encode(value: T, view: DataView, offset?: number): void;
  /** The element at byte `offset` of `view`. */
  decode(view: DataView, offset?: number): T;
  /** The SIZE bytes of `value`. */
  toBytes(value: T): Uint8Array;
  /** The element of exactly SIZE bytes; a RangeError for another length or an unknown tag. */
  fromBytes(bytes: Uint8Array | ArrayBuffer): T;
  /** `values`, back to back. */
  pack(values: readonly T[]): Uint8Array;
  /** `count` elements from byte `offset` (default: all the bytes from there hold, exactly). */
  unpack(bytes: Uint8Array | ArrayBuffer, count?: number, offset?: number): T[];
  /** The 24-byte header (SAREKLID, LAYOUT_ID, count) in front of `count` elements. */
  header(count: number): Uint8Array;
  /** The count of the header at `offset`; a RangeError naming both fingerprints when the
   * data was written under another layout. */
  checkHeader(bytes: Uint8Array | ArrayBuffer, offset?: number): number;
  /** header(values.length), then pack(values): a file or a cached buffer. */
  packFramed(values: readonly T[]): Uint8Array;
  /** The elements packFramed wrote at `offset`, after checkHeader. */
  unpackFramed(bytes: Uint8Array | ArrayBuffer, offset?: number): T[];
}

/** A problem found inside an element: `where` is its path from the element (`.pos.x`). */
class _sarek_Bad extends Error {
  where: string;
  problem: string;
  range: boolean;

  constructor(problem: string, range: boolean) {
    super(problem);
    this.where = "";
    this.problem = problem;
    this.range = range;
  }
}

/** `e` with `step` (`.x`, `[3]`) put in front of its path, if it is a problem of ours. */
function _sarek_in(e: unknown, step: string): unknown {
  if (e instanceof _sarek_Bad) {
    e.where = step + e.where;
  }
  return e;
}

function _sarek_describe(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  if (Array.isArray(x)) return `an array of ${x.length}`;
  if (typeof x === "string") return `the string ${JSON.stringify(x.length > 40 ? x.slice(0, 40) + "…" : x)}`;
  if (typeof x === "bigint") return `${x}n`;
  if (typeof x === "object") return "an object";
  return typeof x === "number" || typeof x === "boolean" ? String(x) : `a ${typeof x}`;
}

function _sarek_type_error(expected: string, x: unknown): _sarek_Bad {
  return new _sarek_Bad(`expected ${expected}, got ${_sarek_describe(x)}`, false);
}

function _sarek_range_error(problem: string): _sarek_Bad {
  return new _sarek_Bad(problem, true);
}

/** A record or variant value: an object (not null, not an array). */
function _sarek_object(x: unknown): void {
  if (typeof x !== "object" || x === null || Array.isArray(x)) {
    throw _sarek_type_error("an object", x);
  }
}

/** `x` as an integer of `lo..hi` (the scalar's range), or the problem with it. */
function _sarek_int(x: unknown, lo: number, hi: number): number {
  if (typeof x !== "number" || !Number.isInteger(x)) throw _sarek_type_error("an integer", x);
  if (x < lo || x > hi) throw _sarek_range_error(`${x} is outside ${lo}..${hi}`);
  return x;
}

/** `x` as a 64-bit integer of `lo..hi`: a bigint (a number cannot hold them all). */
function _sarek_bigint(x: unknown, lo: bigint, hi: bigint): bigint {
  if (typeof x !== "bigint") throw _sarek_type_error("a bigint (64-bit integers are bigints)", x);
  if (x < lo || x > hi) throw _sarek_range_error(`${x}n is outside ${lo}n..${hi}n`);
  return x;
}

/** `x` as a float; `single`: a float32, which refuses a finite number too large for it (as
 * Python's struct does) rather than store an infinity. */
function _sarek_float(x: unknown, single: boolean): number {
  if (typeof x !== "number") throw _sarek_type_error("a number", x);
  if (single && !Number.isFinite(Math.fround(x)) && Number.isFinite(x)) {
    throw _sarek_range_error(`${x} is too large for a float32`);
  }
  return x;
}

/** A bool is stored as the int32 1 or 0. */
function _sarek_bool(x: unknown): number {
  if (typeof x !== "boolean") throw _sarek_type_error("a boolean", x);
  return x ? 1 : 0;
}

/** A unit is stored as the int32 0; its value is null. */
function _sarek_unit(x: unknown): number {
  if (x !== null) throw _sarek_type_error("null (a unit value)", x);
  return 0;
}

const _sarek_SCRATCH = new DataView(new ArrayBuffer(8));

/** 2 ** k, exactly (k an integer from -1022 to 1023), from its bits. */
function _sarek_pow2(k: number): number {
  _sarek_SCRATCH.setUint32(4, (k + 1023) << 20, true);
  _sarek_SCRATCH.setUint32(0, 0, true);
  return _sarek_SCRATCH.getFloat64(0, true);
}

/** `q` rounded to an integer, halves to even (IEEE 754's default rounding). */
function _sarek_round_even(q: number): number {
  const f = Math.floor(q);
  const d = q - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}

/** The IEEE 754 binary16 bits of `x`, rounded to nearest, ties to even, straight from the
 * double (no float32 step, which could round twice): NaN is 0x7e00 with x's sign, a finite
 * value beyond the largest half (65504, after rounding) a RangeError, as Python's struct "e". */
function _sarek_half_bits(x: number): number {
  _sarek_SCRATCH.setFloat64(0, x, true);
  const high = _sarek_SCRATCH.getUint32(4, true);
  const sign = (high >>> 16) & 0x8000;
  if (Number.isNaN(x)) return sign | 0x7e00;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a < 6.103515625e-05) {
    // Below 2 ** -14: a subnormal half, in units of 2 ** -24 (1024 units is the smallest
    // normal, whose bits 0x0400 are that same number).
    return sign | _sarek_round_even(a * 16777216);
  }
  let e = ((high >>> 20) & 0x7ff) - 1023;
  if (e > 15) throw _sarek_range_error(`${x} is too large for a float16`);
  let m = _sarek_round_even(a * _sarek_pow2(10 - e));
  if (m === 2048) {
    m = 1024;
    e += 1;
    if (e > 15) throw _sarek_range_error(`${x} is too large for a float16`);
  }
  return sign | ((e + 15) << 10) | (m - 1024);
}

/** The number the binary16 bits `h` stand for (exact). */
function _sarek_half_value(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 5.960464477539063e-08;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1024 + m) * _sarek_pow2(e - 25);
}

/** The writer of an enum's members: one of `values`, stored by the base's writer. */
function _sarek_enum_put(name: string, values: object, put: _sarek_Put): _sarek_Put {
  const known = new Set<unknown>(Object.values(values));
  return (view: DataView, at: number, x: unknown): void => {
    if (!known.has(x)) throw _sarek_range_error(`${_sarek_describe(x)} is not a value of ${name}`);
    put(view, at, x);
  };
}

function _sarek_enum_get<T>(name: string, values: object, get: _sarek_Get<unknown>): _sarek_Get<T> {
  const known = new Set<unknown>(Object.values(values));
  return (view: DataView, at: number): T => {
    const x = get(view, at);
    if (!known.has(x)) {
      throw _sarek_range_error(`${_sarek_describe(x)} (at byte ${at}) is not a value of ${name}`);
    }
    return x as T;
  };
}

/** Writes the nested arrays `x` (one level per entry of `dims`) with `put` per element. */
function _sarek_put_array(view: DataView, at: number, x: unknown, dims: _sarek_Dims,
                          put: _sarek_Put, level = 0): void {
  const [count, stride] = dims[level] as readonly [number, number];
  if (typeof x !== "object" || x === null || (x as ArrayLike<unknown>).length !== count) {
    throw _sarek_type_error(`an array of ${count}`, x);
  }
  const items = x as ArrayLike<unknown>;
  let i = 0;
  try {
    if (level + 1 === dims.length) {
      for (; i < count; i++) put(view, at + i * stride, items[i]);
    } else {
      for (; i < count; i++) _sarek_put_array(view, at + i * stride, items[i], dims, put, level + 1);
    }
  } catch (e) {
    throw _sarek_in(e, `[${i}]`);
  }
}

/** Reads nested arrays (one level per entry of `dims`), each element with `get`. */
function _sarek_get_array<T>(view: DataView, at: number, dims: _sarek_Dims, get: _sarek_Get<T>,
                             level = 0): unknown[] {
  const [count, stride] = dims[level] as readonly [number, number];
  const out: unknown[] = new Array(count);
  let i = 0;
  try {
    if (level + 1 === dims.length) {
      for (; i < count; i++) out[i] = get(view, at + i * stride);
    } else {
      for (; i < count; i++) out[i] = _sarek_get_array(view, at + i * stride, dims, get, level + 1);
    }
  } catch (e) {
    throw _sarek_in(e, `[${i}]`);
  }
  return out;
}

/** The problem with a variant value whose `tag` names none of `names`. */
function _sarek_bad_tag(x: unknown, names: readonly string[]): _sarek_Bad {
  const tag = typeof x === "object" && x !== null ? (x as { tag?: unknown }).tag : undefined;
  const known = names.map((n) => JSON.stringify(n)).join(", ");
  return _sarek_in(_sarek_type_error(`one of ${known}`, tag), ".tag") as _sarek_Bad;
}

/** The problem with a stored tag that names no constructor. */
function _sarek_unknown_tag(tag: number, at: number, names: readonly string[]): _sarek_Bad {
  const known = names.map((n, i) => `${n} (${i})`).join(", ");
  return _sarek_in(_sarek_range_error(`unknown tag ${tag} at byte ${at}; the constructors are ${known}`),
                   ".tag") as _sarek_Bad;
}

/** `e` as the error a caller sees: a TypeError or RangeError naming the type and the path. */
function _sarek_public(e: unknown, type: string): unknown {
  if (e instanceof _sarek_Bad) {
    const text = `${type}${e.where}: ${e.problem}`;
    return e.range ? new RangeError(text) : new TypeError(text);
  }
  return e;
}

function _sarek_span_check(type: string, view: DataView, offset: number, size: number): void {
  if (!Number.isInteger(offset) || offset < 0 || offset + size > view.byteLength) {
    throw new RangeError(`${type}: ${size} bytes at offset ${offset} do not fit in a view of ` +
                         `${view.byteLength} bytes`);
  }
}

function _sarek_view(bytes: Uint8Array | ArrayBuffer): DataView {
  if (bytes instanceof ArrayBuffer) return new DataView(bytes);
  if (bytes instanceof Uint8Array) return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError(`expected a Uint8Array or an ArrayBuffer, got ${_sarek_describe(bytes)}`);
}

const _sarek_MAGIC = [0x53, 0x41, 0x52, 0x45, 0x4b, 0x4c, 0x49, 0x44]; // "SAREKLID"
const _sarek_HEADER_SIZE = 24;

function _sarek_hex(id: bigint): string {
  return "0x" + id.toString(16).padStart(16, "0");
}

/** The companion of one record or variant: everything but its own writer and reader. */
function _sarek_codec<T>(type: string, size: number, align: number, layoutId: bigint,
                         put: (view: DataView, at: number, value: T) => void,
                         get: _sarek_Get<T>): _sarek_Codec<T> {
  const encode = (value: T, view: DataView, offset = 0): void => {
    _sarek_span_check(type, view, offset, size);
    new Uint8Array(view.buffer, view.byteOffset + offset, size).fill(0);
    try {
      put(view, offset, value);
    } catch (e) {
      throw _sarek_public(e, type);
    }
  };
  const decode = (view: DataView, offset = 0): T => {
    _sarek_span_check(type, view, offset, size);
    try {
      return get(view, offset);
    } catch (e) {
      throw _sarek_public(e, type);
    }
  };
  const pack = (values: readonly T[]): Uint8Array => {
    const out = new Uint8Array(values.length * size);
    const view = new DataView(out.buffer);
    for (let i = 0; i < values.length; i++) {
      try {
        put(view, i * size, values[i] as T);
      } catch (e) {
        throw _sarek_public(_sarek_in(e, `[${i}]`), type);
      }
    }
    return out;
  };
  const unpack = (bytes: Uint8Array | ArrayBuffer, count?: number, offset = 0): T[] => {
    const view = _sarek_view(bytes);
    if (!Number.isInteger(offset) || offset < 0 || offset > view.byteLength) {
      throw new RangeError(`${type}: offset ${offset} is outside a buffer of ${view.byteLength} bytes`);
    }
    const available = view.byteLength - offset;
    if (count === undefined) {
      if (available % size) {
        throw new RangeError(`${type}: ${available} bytes is not a whole number of ${size}-byte elements`);
      }
      count = available / size;
    } else if (!Number.isInteger(count) || count < 0 || count * size > available) {
      throw new RangeError(`${type}: ${count} elements need ${count * size} bytes, only ` +
                           `${available} from offset ${offset}`);
    }
    const out: T[] = new Array(count);
    for (let i = 0; i < count; i++) {
      try {
        out[i] = get(view, offset + i * size);
      } catch (e) {
        throw _sarek_public(_sarek_in(e, `[${i}]`), type);
      }
    }
    return out;
  };
  const header = (count: number): Uint8Array => {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`${type}: bad element count ${count}`);
    const out = new Uint8Array(_sarek_HEADER_SIZE);
    out.set(_sarek_MAGIC, 0);
    const view = new DataView(out.buffer);
    view.setBigUint64(8, layoutId, true);
    view.setBigUint64(16, BigInt(count), true);
    return out;
  };
  const checkHeader = (bytes: Uint8Array | ArrayBuffer, offset = 0): number => {
    const view = _sarek_view(bytes);
    if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`${type}: bad offset ${offset}`);
    if (view.byteLength - offset < _sarek_HEADER_SIZE) {
      throw new RangeError(`${type}: ${Math.max(view.byteLength - offset, 0)} bytes at offset ` +
                           `${offset} cannot hold the 24-byte sarek-layout header`);
    }
    for (let i = 0; i < 8; i++) {
      if (view.getUint8(offset + i) !== _sarek_MAGIC[i]) {
        throw new RangeError(`${type}: no sarek-layout header at offset ${offset} (its first 8 ` +
                             `bytes are not SAREKLID)`);
      }
    }
    const found = view.getBigUint64(offset + 8, true);
    if (found !== layoutId) {
      throw new RangeError(`${type}: the data was written under layout ${_sarek_hex(found)}, but ` +
                           `this program's ${type} has layout ${_sarek_hex(layoutId)}: the schema ` +
                           `changed since it was written; read it with the code of the schema ` +
                           `that wrote it, or write it again`);
    }
    const count = view.getBigUint64(offset + 16, true);
    if (count > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new RangeError(`${type}: the header counts ${count} elements, more than any buffer holds`);
    }
    return Number(count);
  };
  return {
    SIZE: size,
    ALIGN: align,
    LAYOUT_ID: layoutId,
    encode,
    decode,
    toBytes(value: T): Uint8Array {
      const out = new Uint8Array(size);
      encode(value, new DataView(out.buffer), 0);
      return out;
    },
    fromBytes(bytes: Uint8Array | ArrayBuffer): T {
      const view = _sarek_view(bytes);
      if (view.byteLength !== size) {
        throw new RangeError(`${type}: expected ${size} bytes, got ${view.byteLength}`);
      }
      return decode(view, 0);
    },
    pack,
    unpack,
    header,
    checkHeader,
    packFramed(values: readonly T[]): Uint8Array {
      const body = pack(values);
      const out = new Uint8Array(_sarek_HEADER_SIZE + body.length);
      out.set(header(values.length), 0);
      out.set(body, _sarek_HEADER_SIZE);
      return out;
    },
    unpackFramed(bytes: Uint8Array | ArrayBuffer, offset = 0): T[] {
      const count = checkHeader(bytes, offset);
      return unpack(bytes, count, offset + _sarek_HEADER_SIZE);
    },
  };
}

/** Typed arrays over one span of a buffer, one per kind, made when first asked for. */
class _sarek_Lanes {
  buffer: ArrayBufferLike;
  byteOffset: number;
  byteLength: number;
  made: Map<unknown, unknown>;

  constructor(buffer: ArrayBufferLike, byteOffset: number, byteLength: number) {
    this.buffer = buffer;
    this.byteOffset = byteOffset;
    this.byteLength = byteLength;
    this.made = new Map();
  }

  lane<A>(kind: { new(buffer: ArrayBufferLike, byteOffset: number, length: number): A;
                  readonly BYTES_PER_ELEMENT: number }): A {
    let a = this.made.get(kind) as A | undefined;
    if (a === undefined) {
      a = new kind(this.buffer, this.byteOffset, this.byteLength / kind.BYTES_PER_ELEMENT);
      this.made.set(kind, a);
    }
    return a;
  }
}

/** One member across a buffer of elements, in a typed array over the whole buffer: element
 * `i`'s value is `array[index + i * stride]`; for an array member, its element `[j][k]` is
 * `array[index + i * stride + j * dims[0][1] + k * dims[1][1]]` (`dims`: each level's count
 * and stride, in array elements, outermost first). The column of a member at byte `at` of element 0 (`stride` bytes apart; `dims` its array
 * levels, in bytes), in elements of the typed array `kind`. */
function _sarek_column<A>(lanes: _sarek_Lanes,
                          kind: { new(buffer: ArrayBufferLike, byteOffset: number, length: number): A;
                                  readonly BYTES_PER_ELEMENT: number },
                          at: number, stride: number, dims: _sarek_Dims): {
  // Spelt out, not a named interface: a module whose records nest another module's gets
  // this type through that module, and declaration files can only name what it exports.
  readonly array: A;
  readonly index: number;
  readonly stride: number;
  readonly dims: readonly (readonly [number, number])[];
} {
  const n = kind.BYTES_PER_ELEMENT;
  return {
    array: lanes.lane(kind),
    index: at / n,
    stride: stride / n,
    dims: dims.map(([count, step]) => [count, step / n] as const),
  };
}

/** The lanes of `count` elements of `size` bytes at `byteOffset` of `buffer`. */
function _sarek_lanes(type: string, size: number, align: number, buffer: ArrayBufferLike,
                      byteOffset: number, count: number): _sarek_Lanes {
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(byteOffset) || byteOffset < 0 ||
      byteOffset % align || byteOffset + count * size > buffer.byteLength) {
    throw new RangeError(`${type}: ${count} elements of ${size} bytes at byte ${byteOffset} (a ` +
                         `multiple of ${align}) do not fit in a buffer of ${buffer.byteLength} bytes`);
  }
  return new _sarek_Lanes(buffer, byteOffset, count * size);
}
// Every helper read once, so that a project compiling with noUnusedLocals accepts a module
// that needs only some of them.
void [_sarek_int, _sarek_bigint, _sarek_float, _sarek_bool, _sarek_unit, _sarek_half_bits,
      _sarek_half_value, _sarek_enum_put, _sarek_enum_get, _sarek_put_array, _sarek_get_array,
      _sarek_bad_tag, _sarek_unknown_tag, _sarek_object, _sarek_codec, _sarek_column,
      _sarek_lanes];
// --- sarek-layout runtime: end
