"""The end-to-end example's uniform buffers (issue 33), run by run_e2e.py's vulkan and webgpu
steps.

* uniforms.toml: a record under the std140 rules (``layout(std140) uniform`` blocks);
  view.toml: one under the wgsl-uniform rules (WGSL's ``var<uniform>``). ``generate`` writes
  uniforms.h / uniforms.glsl and view.h / view.wgsl.
* Python writes each record's bytes with the generated module (``uniforms_layout.py``,
  ``view_layout.py``), and the C host (uniform_host.c, with the generated headers) writes its
  own where a C compiler exists: the two must be equal, byte for byte.
* kernels_uniform.comp reads the std140 block on Vulkan, kernels_uniform.wgsl the
  ``var<uniform>`` on wgpu; each copies every member's words to a storage buffer, which must
  be the values written.
"""

from __future__ import annotations

import importlib
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
STD140 = HERE / "uniforms.toml"
WGSL_UNIFORM = HERE / "view.toml"

#: The values both hosts write (the enum's ``Add`` is 2); a record takes as many of a
#: vector's components as its member has.
VALUES: Dict[str, List[float]] = {
    "tint": [0.25, 0.5, 0.75, 1.0], "gain": [1.5], "weights": [1.0, 2.0, 4.0, 8.0],
    "offset": [-3.0, 0.125], "blend": [2], "frame": [77]}


class Failed(Exception):
    pass


def _tool(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [env.get("PYTHONPATH"), str(REPO)]))
    return subprocess.run([sys.executable, "-m", "sarek_layout", *args], env=env,
                          capture_output=True, text=True)


def generate(out: Path) -> None:
    """The headers of both records: C and Python for the hosts, GLSL and WGSL for the
    kernels."""
    for schema, targets in ((STD140, ("c", "glsl", "python")),
                            (WGSL_UNIFORM, ("c", "wgsl", "python"))):
        proc = _tool("generate", str(schema), "-o", str(out),
                     *[x for t in targets for x in ("-t", t)])
        if proc.returncode != 0:
            raise Failed(f"generate {schema.name} failed:\n{proc.stderr}")


def python_bytes(out: Path, schema: Path) -> bytes:
    """The schema's record with ``VALUES``, encoded by the generated Python module
    (``uniforms_layout`` / ``view_layout``): its rule set's offsets and strides, every other
    byte zero."""
    if str(out) not in sys.path:
        sys.path.insert(0, str(out))
    module = importlib.import_module(f"{schema.stem}_layout")
    prefix = "Uniforms" if schema == STD140 else "View"
    record = getattr(module, f"{prefix}_{'params' if schema == STD140 else 'view'}")
    n = 3 if schema == STD140 else 4
    fields = {"tint": VALUES["tint"][:n], "weights": VALUES["weights"],
              "offset": VALUES["offset"], "blend": getattr(module, f"{prefix}_mode").Add,
              "frame": VALUES["frame"][0]}
    if schema == STD140:
        fields["gain"] = VALUES["gain"][0]
    return getattr(module, f"encode_{record.__name__}")(record(**fields))


def c_bytes(out: Path) -> Optional[Dict[Path, bytes]]:
    """What uniform_host.c writes for each schema, or None where no C compiler exists."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        return None
    exe = out / "uniform_host"
    proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{out}",
                           str(HERE / "uniform_host.c"), "-o", str(exe)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failed(f"uniform_host.c does not compile:\n{proc.stderr}")
    files = [out / "uniform_params_c.bin", out / "uniform_view_c.bin"]
    proc = subprocess.run([str(exe), *map(str, files)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failed(f"uniform_host exited {proc.returncode}: {proc.stderr}")
    return {STD140: files[0].read_bytes(), WGSL_UNIFORM: files[1].read_bytes()}


def expected_words(schema: Path) -> List[int]:
    """The words a kernel copies: each value as its 32-bit word, the enum as ``== Add``."""
    n = 3 if schema == STD140 else 4
    floats = VALUES["tint"][:n] + VALUES["gain"] * (n == 3) + VALUES["weights"] + VALUES["offset"]
    return [struct.unpack("<I", struct.pack("<f", v))[0] for v in floats] + [1, VALUES["frame"][0]]


def _written(out: Path, schema: Path) -> tuple:
    """Python's bytes, and what the C host says of them."""
    data = python_bytes(out, schema)
    (out / f"uniform_{schema.stem}_python.bin").write_bytes(data)
    hosts = c_bytes(out)
    if hosts is None:
        return data, "no C compiler: the C host skipped"
    if hosts[schema] != data:
        at = next((i for i, (a, b) in enumerate(zip(hosts[schema], data)) if a != b),
                  min(len(data), len(hosts[schema])))
        raise Failed(f"{schema.name}: the C host's {len(hosts[schema])} bytes differ from "
                     f"Python's {len(data)} at byte {at}")
    return data, "the C host wrote the same bytes"


def _check(label: str, schema: Path, words: bytes, note: str, rules: str) -> str:
    want = expected_words(schema)
    got = list(struct.unpack(f"<{len(want)}I", words[:4 * len(want)]))
    if got != want:
        k = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
        raise Failed(f"{label}: the {rules} uniform's word {k} reads {got[k]:#x}, "
                     f"expected {want[k]:#x}")
    return f"a {rules} uniform written by Python ({note}) read back member by member"


def vulkan(out: Path, glslang: str, run_spirv: Callable) -> str:
    """kernels_uniform.comp on Vulkan, its std140 block holding Python's bytes."""
    data, note = _written(out, STD140)
    spv = out / "kernels_uniform.spv"
    proc = subprocess.run([glslang, "-V", "--target-env", "vulkan1.1", f"-I{out}",
                           str(HERE / "kernels_uniform.comp"), "-o", str(spv)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failed(f"kernels_uniform.comp does not compile:\n{proc.stdout}{proc.stderr}")
    results = run_spirv(spv.read_bytes(), [data, 64], uniform=(0,))
    return _check("vulkan", STD140, results[1], note, "std140")


def webgpu(out: Path, run_wgsl: Callable) -> str:
    """kernels_uniform.wgsl on wgpu, its var<uniform> holding Python's bytes."""
    data, note = _written(out, WGSL_UNIFORM)
    source = (out / "view.wgsl").read_text() + "\n" + (HERE / "kernels_uniform.wgsl").read_text()
    results = run_wgsl(source, [data, 64])
    return _check("webgpu", WGSL_UNIFORM, results[1], note, "wgsl-uniform")
