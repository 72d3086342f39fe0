"""The wheel ships every sub-package, the Jinja templates and the fake libc headers, and an
installed (non-editable) copy generates the same headers as the checkout."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tomllib
import zipfile

import pytest

from conftest import ROOT


def test_package_list_names_every_sub_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "sarek_layout").rglob("__init__.py")
    }
    assert on_disk | {"sarek_layout.templates"} == listed


@pytest.mark.slow
def test_wheel_contains_templates_and_generates_like_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(wheels), str(ROOT)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    templates = {pathlib.Path(n).name for n in names if n.startswith("sarek_layout/templates/")}
    on_disk = {p.name for p in (ROOT / "templates").glob("*.j2")}
    assert on_disk and on_disk <= templates
    assert "sarek_layout/frontends/fake_libc/stdint.h" in names

    # Unpacked away from the checkout, the wheel alone renders the committed headers.
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "sarek_layout", "generate", str(ROOT / "examples" / "geometry.toml"),
         "-o", str(out)],
        capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    for header in ("geometry.h", "geometry.cuh", "geometry.clh"):
        assert (out / header).read_text() == (ROOT / "generated" / header).read_text()
