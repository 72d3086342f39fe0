"""The end-to-end example (examples/e2e): Python fills buffers with the generated module, an
OpenCL kernel on PoCL reads every field, a C host program checks the same bytes, nvcc
compiles the CUDA kernel. Each toolchain's part skips here when it is missing and fails in CI.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import sarek_layout as sl
from helpers.common import EXAMPLES, ROOT, require_toolchain

E2E = EXAMPLES / "e2e"
N = 257  # not a multiple of the 5 reading kinds, nor of any work-group size


def run_example(tmp_path, *args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, str(E2E / "run_e2e.py"), "--out", str(tmp_path), "-n", str(N), *args],
        capture_output=True, text=True, env=env, timeout=300,
    )
    return proc


@pytest.mark.toolchain("pocl")
def test_pocl_end_to_end(tmp_path):
    require_toolchain("pocl")
    proc = run_example(tmp_path, "--steps", "pocl", "--require", "pocl")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pocl: ok" in proc.stdout and "bytes identical" in proc.stdout, proc.stdout

    # An independent reading of the same bytes: numpy views through the package's dtypes.
    np = pytest.importorskip("numpy")
    schema = sl.load(str(E2E / "telemetry.toml"))
    sample_dt, reading_dt = schema.dtype("sample"), schema.dtype("reading")
    inputs = (tmp_path / "inputs.bin").read_bytes()
    outputs = (tmp_path / "outputs_pocl.bin").read_bytes()
    split = N * sample_dt.itemsize
    s_in, s_out = np.frombuffer(inputs[:split], sample_dt), np.frombuffer(outputs[:split], sample_dt)
    i = np.arange(N)
    assert (s_in["id"] == i * 7 - 3).all()
    assert (s_out["id"] == s_in["id"] * 2 + 1).all()
    assert (s_out["stamp"] == s_in["stamp"] - s_in["id"]).all() and (s_in["stamp"] > 2**40 - 1).all()
    assert (s_out["value"] == s_in["value"] * 0.5 + s_in["pos"]["x"]).all()
    assert (s_out["pos"]["x"] == s_in["pos"]["y"] * np.float32(2)).all()
    assert (s_out["pos"]["y"] == s_in["pos"]["x"] + np.float32(1)).all()
    assert (s_out["valid"] == 1 - s_in["valid"]).all()
    r_in, r_out = np.frombuffer(inputs[split:], reading_dt), np.frombuffer(outputs[split:], reading_dt)
    assert list(r_in["tag"][:5]) == [0, 1, 2, 3, 4]
    count = r_in["tag"] == 1
    assert (r_out["data"]["Count_v"]["_0"][count]
            == r_in["data"]["Count_v"]["_0"][count] * 2 + r_in["data"]["Count_v"]["_1"][count]).all()
    located = r_in["tag"] == 2
    assert (r_out["data"]["Located_v"]["_0"]["x"][located] == r_in["data"]["Located_v"]["_0"]["y"][located]).all()
    assert (r_out["tag"][r_in["tag"] == 4] == 3).all()  # Missing -> Flag(true)
    # The dict-form codec reads what the generated module wrote, and writes it back identically.
    assert schema.pack("reading", schema.unpack("reading", inputs[split:])) == inputs[split:]
    assert schema.pack("sample", schema.unpack("sample", outputs[:split])) == outputs[:split]


@pytest.mark.toolchain("gcc")
def test_c_host_program_checks_the_same_bytes(tmp_path):
    require_toolchain("gcc")
    steps = "pocl,c" if require_toolchain_quietly("pocl") else "c"
    proc = run_example(tmp_path, "--steps", steps, "--require", steps)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "c: ok, c host: 257 samples and 257 readings match" in proc.stdout, proc.stdout


@pytest.mark.toolchain("rustc")
def test_rust_host_builds_the_bytes_python_and_c_wrote(tmp_path):
    """The Rust host builds every sample and reading with telemetry.rs: its bytes equal the
    ones Python wrote, which the C host checks against its own in the same run; a single
    padding byte changed in inputs.bin is caught by the Rust host."""
    require_toolchain("rustc")
    steps = "c,rust" if require_toolchain_quietly("gcc") else "rust"
    proc = run_example(tmp_path, "--steps", steps, "--require", steps)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("rust: ok, rust host: 257 samples and 257 readings (52 Temp, 52 Count, 51 Located, "
            "51 Flag, 51 Missing) built with telemetry.rs: byte for byte") in proc.stdout
    if steps == "c,rust":
        assert "c: ok, c host: 257 samples and 257 readings match" in proc.stdout
    out = tmp_path
    data = bytearray((out / "inputs.bin").read_bytes())
    data[4] ^= 1  # Telemetry_sample 0: the padding between id and stamp
    (out / "inputs.bin").write_bytes(bytes(data))
    bad = subprocess.run([str(out / "host_check_rs"), "257", str(out / "inputs.bin")],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "byte 4 differs from Python's" in bad.stderr, bad.stderr


@pytest.mark.toolchain("nvcc")
def test_cuda_kernel_compiles_with_nvcc(tmp_path):
    require_toolchain("nvcc")
    proc = run_example(tmp_path, "--steps", "cuda", "--require", "cuda")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "cuda: ok" in proc.stdout, proc.stdout
    assert (tmp_path / "kernels_cuda").exists()


def require_toolchain_quietly(name: str) -> bool:
    from sarek_layout.verify import toolchains

    return toolchains.get(name).available


def test_missing_required_step_fails(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), CC="no-such-compiler-sarek")
    proc = subprocess.run(
        [sys.executable, str(E2E / "run_e2e.py"), "--out", str(tmp_path), "-n", "5",
         "--steps", "c", "--require", "c"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert proc.returncode == 1
    assert "c: FAILED (required, but: no-such-compiler-sarek not found" in proc.stdout


def test_the_checker_catches_a_wrong_field_and_a_dirty_padding_byte(tmp_path):
    """The example's own check must be able to fail: feed it corrupted device results."""
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(E2E)!r})
        import run_e2e as e
        from pathlib import Path
        out = Path({str(tmp_path)!r})
        e.generate(out)
        e.write_inputs(out, 10)
        T, data = e.load_modules(out)
        good = (T.pack_Telemetry_sample([data.transform_sample(s) for s in data.samples(10)])
                + T.pack_Telemetry_reading([data.transform_reading(r) for r in data.readings(10)]))
        print(e.check_outputs("good", out, good, 10))
        bad_field = bytearray(good); bad_field[3 * 40] ^= 1          # sample 3, id
        bad_pad = bytearray(good); bad_pad[2 * 40 + 4] = 0xAA          # sample 2, padding after id
        for label, data_ in (("field", bad_field), ("padding", bad_pad)):
            try:
                e.check_outputs(label, out, bytes(data_), 10)
            except e.Failed as err:
                print("caught", err)
        """
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "bytes identical" in lines[0]
    assert lines[1].startswith("caught field: sample 3 is Telemetry_sample(id=")
    assert lines[2] == "caught padding: fields match but byte 84 differs (padding written by the device?)"


@pytest.mark.toolchain("zig")
def test_zig_host_fills_the_same_bytes_as_python_and_c(tmp_path):
    require_toolchain("zig")
    steps = "zig,c" if require_toolchain_quietly("gcc") else "zig"
    proc = run_example(tmp_path, "--steps", steps, "--require", steps)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("zig: ok, zig host: 257 samples and 257 readings, bytes identical to Python's"
            in proc.stdout), proc.stdout
    assert (tmp_path / "inputs_zig.bin").read_bytes() == (tmp_path / "inputs.bin").read_bytes()


@pytest.mark.toolchain("typescript")
def test_typescript_host_reads_and_writes_pythons_bytes_and_wgsl_reads_them(tmp_path):
    """Python's bytes through the TypeScript host (tsc --strict, Node) and back, byte for
    byte, the frames' member kinds (std430) too; the WGSL kernel (wgpu) reads what Node wrote. A byte changed under the host is
    caught, naming the element."""
    require_toolchain("typescript")
    proc = run_example(tmp_path, "--steps", "typescript", "--require", "typescript")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("typescript: ok, typescript host: 257 samples, 257 readings and 257 frames read and "
            "built alike" in proc.stdout), proc.stdout
    assert "bytes identical to Python's (the frames too)" in proc.stdout
    assert (tmp_path / "inputs_ts.bin").read_bytes() == (tmp_path / "inputs.bin").read_bytes()
    assert (tmp_path / "frames_ts.bin").read_bytes() == (tmp_path / "frames.bin").read_bytes()
    if require_toolchain_quietly("webgpu"):
        assert ("kernels.wgsl (wgpu) on them: 257 samples and 257 readings: every field as "
                "expected" in proc.stdout), proc.stdout
    data = bytearray((tmp_path / "inputs.bin").read_bytes())
    data[3 * sl.load(str(E2E / "telemetry.toml")).size("sample")] ^= 1  # sample 3's id
    (tmp_path / "bad.bin").write_bytes(bytes(data))
    from sarek_layout.verify.drivers.typescript import typescript_programs

    run = subprocess.run([typescript_programs()[1], str(tmp_path / "js" / "host.js"), str(N),
                          str(tmp_path / "bad.bin"), str(tmp_path / "again.bin"),
                          str(tmp_path / "frames.bin"), str(tmp_path / "frames_again.bin")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert run.stderr.startswith("host.ts: sample 3 is {\"id\":"), run.stderr
    assert not (tmp_path / "again.bin").exists()


def test_typescript_host_runs_the_wgsl_kernel_through_webgpu_in_node(tmp_path):
    """Where npm ``webgpu`` (Dawn for Node) is installed, the TypeScript host runs kernels.wgsl
    itself and its results are checked like every device's; skipped otherwise, naming the
    install (a failure under SAREK_REQUIRE_TOOLCHAINS, since .ci/run installs it)."""
    from helpers import typescript

    require_toolchain("typescript")
    typescript.dawn()  # or skip, naming npm install webgpu
    proc = run_example(tmp_path, "--steps", "typescript", "--require", "typescript")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "kernels.wgsl run by the TypeScript host on" in proc.stdout
    assert ("the TypeScript host's own run of it: 257 samples and 257 readings: every field "
            "as expected" in proc.stdout), proc.stdout
    refused = run_example(tmp_path, "--steps", "typescript", "--layout-id", "123456789abcdef0")
    assert refused.returncode == 1
    assert "host.ts: webgpu: the kernel refused the data: it was built for layouts" in refused.stdout
