"""tsc and Node for the typescript target's tests: compile generated modules, run JavaScript.

Every verdict of those tests comes from these two programs: tsc's type check (``--strict``,
the flags the toolchain and docs/typescript.md use) and what the compiled JavaScript does in
Node. ``node_batch`` runs one Node process for many cases (one start, not one per example).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
from typing import Any, Sequence

import pytest

from helpers.common import require_toolchain
from sarek_layout.verify.drivers.typescript import (SWIFTSHADER_ICD, TSC_FLAGS, node_modules_path,
                                                    typescript_programs)


#: The checks strict projects add to --strict: a generated module must pass them too, since
#: it is compiled as part of the user's project, under its tsconfig.
STRICTER = ("--noUncheckedIndexedAccess", "--noUnusedLocals", "--noUnusedParameters",
            "--noImplicitReturns", "--exactOptionalPropertyTypes", "--noImplicitOverride",
            "--noPropertyAccessFromIndexSignature", "--noFallthroughCasesInSwitch",
            "--isolatedModules", "--verbatimModuleSyntax")


def programs():
    """``(tsc, node)``, or skip (fail under ``SAREK_REQUIRE_TOOLCHAINS``)."""
    require_toolchain("typescript")
    return typescript_programs()


def tsc(files: Sequence[pathlib.Path], cwd: pathlib.Path, *extra: str,
        out_dir: str = "") -> subprocess.CompletedProcess:
    """tsc with the toolchain's flags on ``files``; ``out_dir``: emit JavaScript there (else
    ``--noEmit``)."""
    program, _ = programs()
    emit = ["--outDir", out_dir] if out_dir else ["--noEmit"]
    return subprocess.run([program, *TSC_FLAGS, *emit, *extra, *map(str, files)], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def assert_compiles(files: Sequence[pathlib.Path], cwd: pathlib.Path, *extra: str,
                    out_dir: str = "") -> None:
    run = tsc(files, cwd, *extra, out_dir=out_dir)
    assert run.returncode == 0, f"tsc refused the modules:\n{run.stdout}{run.stderr}"


def node(script: str, cwd: pathlib.Path, name: str = "run.mjs", stdin: str = "",
         timeout: float = 600) -> subprocess.CompletedProcess:
    """Run the ES module ``script`` (written as ``cwd/name``) with Node."""
    _, program = programs()
    (cwd / name).write_text(script)
    return subprocess.run([program, name], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=timeout)


def node_json(script: str, cwd: pathlib.Path, data: Any = None, name: str = "run.mjs") -> Any:
    """Run ``script``, which reads JSON from stdin (``data``) and prints one JSON value."""
    run = node(script, cwd, name, stdin=json.dumps(data))
    assert run.returncode == 0, f"node failed:\n{run.stdout}{run.stderr}"
    return json.loads(run.stdout)


#: Reading stdin in a script run by ``node_json``.
READ_STDIN = """import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
"""


def dawn() -> tuple:
    """``(index.js of npm webgpu, environment)`` for a Node run with Dawn, or skip (fail under
    ``SAREK_REQUIRE_TOOLCHAINS``, since .ci/run installs it) naming the install."""
    found = node_modules_path("webgpu", "index.js")
    if found is None:
        reason = "npm install webgpu (Dawn for Node): not found in a node_modules folder"
        if os.environ.get("SAREK_REQUIRE_TOOLCHAINS", "0") not in ("", "0"):
            pytest.fail(f"required: {reason}", pytrace=False)
        pytest.skip(reason)
    env = dict(os.environ)
    if "VK_ICD_FILENAMES" not in env and os.path.exists(SWIFTSHADER_ICD):
        env["VK_ICD_FILENAMES"] = SWIFTSHADER_ICD
    return found, env
