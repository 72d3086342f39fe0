// TypeScript host of the end-to-end example (run_e2e.py's `typescript` step; e2e_typescript.py
// compiles it with tsc --strict beside the generated telemetry.ts, and runs it with Node).
//
//   node js/host.js N inputs.bin inputs_ts.bin frames.bin frames_ts.bin
//                   [webgpu-module kernel.wgsl sample-id reading-id]
//
// 1. Reads the samples and readings Python wrote (inputs.bin) with the generated module, and
//    checks every value against the ones it builds itself (the TypeScript mirror of data.py's
//    sample(i) and reading(i)); then writes its own encoding of what it read (inputs_ts.bin),
//    which must be Python's bytes, byte for byte (run_e2e.py compares them, then runs the WGSL
//    kernel on them). The same for the frames (frames.ts: a vec4, a float[5] and an enum under
//    the std430 rules), frames.bin to frames_ts.bin.
// 2. With a WebGPU module for Node (npm `webgpu`, Dawn), it runs the WGSL kernel itself: its
//    buffers uploaded with writeBuffer, the layout fingerprints in binding 4 as bigints, the
//    results read back and decoded with the generated module, and written out
//    (outputs_webgpu_ts.bin) for run_e2e.py to check like every device's.
//
// It needs no @types/node: the little of Node it uses is declared here, and node:fs and
// node:url are imported by a name tsc does not resolve.
import { Frames_frame } from "./frames.js";
import { Telemetry_reading, Telemetry_sample, Telemetry_vec2 } from "./telemetry.js";

declare const process: {
  argv: string[];
  exit(code: number): never;
  stdout: { write(text: string): boolean };
  stderr: { write(text: string): boolean };
};

interface NodeFs {
  readFileSync(path: string): Uint8Array;
  readFileSync(path: string, encoding: "utf8"): string;
  writeFileSync(path: string, data: Uint8Array): void;
}

function sample(i: number): Telemetry_sample {
  return {
    id: i * 7 - 3, stamp: (1n << 40n) + BigInt(i) * 1000003n, value: i * 0.25 - 100.0,
    pos: { x: Math.fround(i * 0.5), y: Math.fround(-i * 1.5) }, valid: i % 3 === 0,
  };
}

function vec2(x: number, y: number): Telemetry_vec2 {
  return { x, y };
}

function reading(i: number): Telemetry_reading {
  switch (i % 5) {
    case 0: return { tag: "Temp", _0: Math.fround(i * 0.5 - 10.0) };
    case 1: return { tag: "Count", _0: -(1n << 35n) - BigInt(i), _1: i * 3 };
    case 2: return { tag: "Located", _0: vec2(i, Math.fround(-i * 0.25)), _1: i * 1e10 };
    case 3: return { tag: "Flag", _0: i % 2 === 0 };
    default: return { tag: "Missing" };
  }
}

function frame(i: number): Frames_frame {
  return {
    id: i * 5 - 7,
    color: [Math.fround(i * 0.25), Math.fround(-i * 0.5), Math.fround(1.0 + i), Math.fround(i * 0.125)],
    hist: [0, 1, 2, 3, 4].map((k) => Math.fround(i + k * 0.5)),
    level: (i % 3) as Frames_frame["level"],
  };
}

function text(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function fail(message: string): never {
  process.stderr.write(`host.ts: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const fsName = "node:fs";
  const fs = (await import(fsName)) as NodeFs;
  const [count, input, output, framesIn, framesOut, webgpuModule, kernelPath, sampleId,
         readingId] = process.argv.slice(2);
  if (count === undefined || input === undefined || output === undefined ||
      framesIn === undefined || framesOut === undefined) {
    fail("usage: host.js N inputs.bin inputs_ts.bin frames.bin frames_ts.bin " +
         "[webgpu-module kernel.wgsl sample-id reading-id]");
  }
  const n = Number(count);
  const bytes = fs.readFileSync(input);
  const split = n * Telemetry_sample.SIZE;
  if (bytes.length !== split + n * Telemetry_reading.SIZE) {
    fail(`${input} holds ${bytes.length} bytes, not ${n} samples and ${n} readings`);
  }
  const samples = Telemetry_sample.unpack(bytes.subarray(0, split));
  const readings = Telemetry_reading.unpack(bytes.subarray(split));
  for (let i = 0; i < n; i++) {
    if (text(samples[i]) !== text(sample(i))) fail(`sample ${i} is ${text(samples[i])}, expected ${text(sample(i))}`);
    if (text(readings[i]) !== text(reading(i))) fail(`reading ${i} is ${text(readings[i])}, expected ${text(reading(i))}`);
  }
  const again = concat(Telemetry_sample.pack(samples), Telemetry_reading.pack(readings));
  fs.writeFileSync(output, again);
  const frames = Frames_frame.unpack(fs.readFileSync(framesIn), n);
  for (let i = 0; i < n; i++) {
    if (text(frames[i]) !== text(frame(i))) fail(`frame ${i} is ${text(frames[i])}, expected ${text(frame(i))}`);
  }
  fs.writeFileSync(framesOut, Frames_frame.pack(frames));
  let said = `typescript host: ${n} samples, ${n} readings and ${n} frames read and built alike`;
  if (webgpuModule !== undefined && kernelPath !== undefined) {
    const results = await runKernel(webgpuModule, fs.readFileSync(kernelPath, "utf8"), n, again,
                                    BigInt(sampleId ?? "0"), BigInt(readingId ?? "0"));
    fs.writeFileSync(output.replace(/inputs_ts\.bin$/, "outputs_webgpu_ts.bin"), results.bytes);
    said += `; kernels.wgsl run by the TypeScript host on ${results.adapter}`;
  }
  process.stdout.write(said + "\n");
}

// --- the WGSL kernel through WebGPU (npm `webgpu`): no @webgpu/types needed, so `any` -------

async function runKernel(module: string, code: string, n: number, again: Uint8Array,
                         sentSample: bigint, sentReading: bigint) {
  const urlName = "node:url";
  const url = (await import(urlName)) as { pathToFileURL(path: string): { href: string } };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const webgpu: any = await import(url.pathToFileURL(module).href);
  const split = n * Telemetry_sample.SIZE;
  Object.assign(globalThis, webgpu.globals);
  const gpu = webgpu.create([]);
  const adapter = await gpu.requestAdapter();
  if (!adapter) fail("webgpu: no adapter");
  const device = await adapter.requestDevice();
  const usage = webgpu.globals.GPUBufferUsage;
  const storage = usage.STORAGE | usage.COPY_SRC | usage.COPY_DST;
  // Binding 4: the host's two fingerprints, the kernel's two, the refusal flag (u32 words,
  // low word first: DataView's little-endian bigints).
  const check = new DataView(new ArrayBuffer(40));
  check.setBigUint64(0, sentSample, true);
  check.setBigUint64(8, sentReading, true);
  const inputs = [again.subarray(0, split), split, again.subarray(split), again.length - split,
                  new Uint8Array(check.buffer)];
  const buffers = inputs.map((x) => {
    const size = typeof x === "number" ? x : x.length;
    const b = device.createBuffer({ size, usage: storage });
    if (typeof x !== "number") device.queue.writeBuffer(b, 0, x);
    return b;
  });
  const pipeline = device.createComputePipeline({
    layout: "auto", compute: { module: device.createShaderModule({ code }), entryPoint: "main" },
  });
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: buffers.map((buffer: unknown, binding: number) => ({ binding, resource: { buffer } })),
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(Math.ceil(n / 64));
  pass.end();
  const reads = [1, 3, 4].map((i) => {
    const read = device.createBuffer({ size: buffers[i].size, usage: usage.MAP_READ | usage.COPY_DST });
    encoder.copyBufferToBuffer(buffers[i], 0, read, 0, buffers[i].size);
    return read;
  });
  device.queue.submit([encoder.finish()]);
  const [outSamples, outReadings, outCheck] = await Promise.all(reads.map(async (read: any) => {
    await read.mapAsync(webgpu.globals.GPUMapMode.READ);
    return new Uint8Array(read.getMappedRange().slice(0));
  }));
  const refused = new DataView(outCheck.buffer);
  if (refused.getUint32(32, true) !== 0) {
    fail(`webgpu: the kernel refused the data: it was built for layouts ` +
         `0x${refused.getBigUint64(16, true).toString(16).padStart(16, "0")} and ` +
         `0x${refused.getBigUint64(24, true).toString(16).padStart(16, "0")}`);
  }
  // Decoded with the generated module (a value it cannot read throws, naming where), and
  // written as the device left it, for run_e2e.py to check against data.py's *_wgsl
  // transforms (every value, and the padding bytes).
  Telemetry_sample.unpack(outSamples);
  Telemetry_reading.unpack(outReadings);
  const info = adapter.info ?? {};
  device.destroy();
  return { bytes: concat(outSamples, outReadings),
           adapter: String(info.description || info.device || "a WebGPU adapter") };
}

main().catch((e: unknown) => fail(e instanceof Error ? e.stack ?? e.message : String(e)));
