"""Building Zig in the tests: one ``zig build-obj`` per (program, ABI), Zig's caches shared
by the whole test session (``zig_env``), the object's exported bytes found by their marker.

A root file ``all.zig`` sits beside the modules it imports (Zig imports nothing above its
root's folder); it references every public declaration of each module, so the ``make_``
helpers and ``LAYOUT_OK`` functions are compiled too, not only the types and their
``comptime`` checks.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
from typing import Dict, Iterable, Optional, Sequence

import pytest

from helpers.common import require_toolchain, shared_folder


def zig_env(tmp_path_factory) -> Dict[str, str]:
    """The environment of a zig run, its caches in one folder of this test session."""
    cache = shared_folder(tmp_path_factory, "zig-cache", lambda folder: None)
    return dict(os.environ, ZIG_GLOBAL_CACHE_DIR=str(cache / "global"),
                ZIG_LOCAL_CACHE_DIR=str(cache / "local"))


def zig() -> str:
    require_toolchain("zig")
    from sarek_layout.verify.drivers.zig import zig_program

    return zig_program()


def reference_all(modules: Iterable[str]) -> str:
    """A root source that analyses every public declaration of each module file."""
    lines = ['const sarek_test_std = @import("std");']
    for i, name in enumerate(modules):
        lines.append(f'const sarek_test_m{i} = @import("{name}");')
    lines.append("comptime {")
    lines.append("    @setEvalBranchQuota(1_000_000);")  # a loop step per declaration
    for i, _ in enumerate(modules):
        lines.append(f"    for (sarek_test_std.meta.declarations(sarek_test_m{i})) |d| "
                     f"_ = &@field(sarek_test_m{i}, d);")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build(folder: pathlib.Path, root: str, target: str, env: Dict[str, str],
          emit: bool = False) -> subprocess.CompletedProcess:
    """``zig build-obj`` of ``folder/root`` for ``target`` (``-fno-emit-bin`` unless ``emit``:
    the comptime checks run either way)."""
    out = ["-femit-bin=" + str(folder / f"{target}.o")] if emit else ["-fno-emit-bin"]
    return subprocess.run([zig(), "build-obj", "-O", "ReleaseSmall", "-target", target, root,
                           *out], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=600)


def write(folder: pathlib.Path, files: Dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)


def assert_builds(folder: pathlib.Path, root: str, targets: Sequence[str],
                  env: Dict[str, str]) -> None:
    failed = []
    for target in targets:
        proc = build(folder, root, target, env)
        if proc.returncode != 0:
            failed.append(f"zig build-obj -target {target} {root}:\n{proc.stderr[-4000:]}")
    if failed:
        pytest.fail("\n\n".join(failed), pytrace=False)


def exported_bytes(obj: bytes, marker: bytes, length: int) -> Optional[bytes]:
    at = obj.find(marker)
    return None if at < 0 else obj[at + len(marker):at + len(marker) + length]
