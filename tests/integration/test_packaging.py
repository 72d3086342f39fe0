"""The wheel: every sub-package and data folder, the Jinja templates, the fake libc headers, the
CMake package, the JSON Schema and ``py.typed``; built without setuptools warnings; and an
installed (non-editable) copy generates the same headers as the checkout, answers
``--cmakedir`` and ``schema --json-schema`` from its own files, and type-checks with mypy."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest

from helpers.common import ROOT

#: What the wheel must carry besides Python modules and templates (paths inside the wheel).
DATA_FILES = [
    "sarek_layout/py.typed",
    "sarek_layout/sarek-layout.schema.json",
    "sarek_layout/cmake/sarek_layoutConfig.cmake",
    "sarek_layout/cmake/sarek_layoutConfigVersion.cmake",
    "sarek_layout/cmake/sarek_layout_depfile.cmake",
    "sarek_layout/frontends/c/fake_libc/stdint.h",
    "sarek_layout/targets/declared.json",
    "sarek_layout/codegen/typescript_runtime.ts",
    "sarek_layout/verify/drivers/typescript_probe.mjs",
]


def test_package_list_names_every_folder():
    """Every folder of the package is listed, data-only ones (cmake, fake_libc) included:
    setuptools warns that a folder it could import "is absent from the `packages`
    configuration" and may leave it out."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(p.relative_to(ROOT).parts)
        for p in [ROOT / "sarek_layout", *(ROOT / "sarek_layout").rglob("*")]
        if p.is_dir() and p.name != "__pycache__"
    }
    assert on_disk | {"sarek_layout.templates"} == listed


def test_package_data_covers_the_data_files():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = config["tool"]["setuptools"]["package-data"]
    for path in DATA_FILES:
        folder, name = path.rsplit("/", 1)
        patterns = package_data.get(folder.replace("/", "."), [])
        assert any(pathlib.PurePath(name).match(p) for p in patterns), (path, patterns)
        assert (ROOT / path).is_file()


def _source_copy(dest: pathlib.Path) -> pathlib.Path:
    """The files git would commit (tracked, or new and not ignored): a build in the checkout
    itself would reuse its build/ folder, where files of earlier builds linger."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True, cwd=ROOT, check=True, timeout=60,
    ).stdout.decode().split("\0")
    for name in filter(None, listing):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built as a user would (``pip wheel``) from a clean copy of the sources, with
    what the build printed."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = _source_copy(tmp / "source")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(tmp / "wheels"), str(source)],
        capture_output=True, text=True, cwd=tmp, timeout=600,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (path,) = (tmp / "wheels").glob("*.whl")
    return path, build.stdout + build.stderr


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh virtual environment (no pip, no dependencies) with the wheel unpacked into its
    site-packages, as pip would install it: ``(python, site-packages)``."""
    tmp = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp / "venv")], check=True,
                   timeout=120)
    python = tmp / "venv" / "bin" / "python"
    site = pathlib.Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip())
    zipfile.ZipFile(wheel[0]).extractall(site)
    return python, site


def _run_installed(site: pathlib.Path, *args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    """``python -m sarek_layout ARGS`` from the unpacked wheel alone, away from the checkout."""
    return subprocess.run(
        [sys.executable, "-m", "sarek_layout", *args], capture_output=True, text=True, cwd=cwd,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}, timeout=120,
    )


@pytest.mark.slow
def test_wheel_builds_without_packaging_warnings(wheel):
    # Fails on a package list that leaves out a data folder (fake_libc was left out).
    assert "absent from the `packages` configuration" not in wheel[1]
    assert "Package would be ignored" not in wheel[1]


@pytest.mark.slow
def test_wheel_contains_templates_and_data(wheel):
    names = zipfile.ZipFile(wheel[0]).namelist()
    templates = {pathlib.Path(n).name for n in names if n.startswith("sarek_layout/templates/")}
    on_disk = {p.name for p in (ROOT / "templates").glob("*.j2")}
    assert on_disk and on_disk <= templates
    missing = [f for f in DATA_FILES if f not in names]
    assert not missing


@pytest.mark.slow
def test_installed_wheel_generates_like_the_checkout(installed, tmp_path):
    out = tmp_path / "out"
    run = _run_installed(installed[1], "generate", str(ROOT / "examples" / "geometry.toml"),
                         "-o", str(out), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    for header in ("geometry.h", "geometry.cuh", "geometry.clh"):
        assert (out / header).read_text() == (ROOT / "generated" / header).read_text()


@pytest.mark.slow
def test_installed_wheel_serves_its_own_cmake_package_and_json_schema(installed, tmp_path):
    site = installed[1]
    run = _run_installed(site, "--cmakedir", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert pathlib.Path(run.stdout.strip()) == site / "sarek_layout" / "cmake"
    assert (site / "sarek_layout" / "cmake" / "sarek_layoutConfig.cmake").is_file()
    run = _run_installed(site, "schema", "--json-schema", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == (ROOT / "sarek_layout" / "sarek-layout.schema.json").read_text()


USER_MODULE = '''\
"""A user's module: what a project importing sarek-layout type-checks against."""
import sarek_layout as sl
from sarek_layout import (LayoutError, RecordLayout, TFloat64, TInt32, TRecord, TVariant,
                          layout_error_message, record_layout, variant_layout)


def pair_size() -> int:
    layout: RecordLayout = record_layout("pair", [("a", TInt32), ("b", TFloat64)])
    return layout.size + layout.align


def payload_offset() -> int:
    return variant_layout("lst", [("Nil", []), ("Pair", [TInt32, TFloat64])]).payload_offset


def describe(e: LayoutError) -> str:
    return layout_error_message(e)


def circle_bytes(path: str) -> bytes:
    return sl.load(path).encode("shape", ("Circle", ({"x": 1.0, "y": 2.0}, 3.0)))


nested = TRecord("outer", (("inner", TRecord("inner", (("x", TInt32),))),))
shape = TVariant("shape", (("Empty", ()),))
'''


@pytest.mark.slow
def test_installed_package_is_typed_for_mypy(installed, tmp_path):
    """PEP 561: with ``py.typed`` mypy reads the installed package's annotations (without it,
    every import is an error: "module is installed, but missing library stubs or py.typed
    marker"), so a correct user module passes and a wrong one is caught."""
    pytest.importorskip("mypy", reason="mypy not installed: pip install mypy (in the test extras)")
    python = installed[0]

    def mypy(source: str) -> subprocess.CompletedProcess:
        (tmp_path / "user.py").write_text(source)
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--no-incremental", "--python-executable", str(python),
             "user.py"],
            capture_output=True, text=True, cwd=tmp_path, timeout=300,
        )

    good = mypy(USER_MODULE)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = mypy(USER_MODULE + 'wrong: str = record_layout("p", [("a", TInt32)]).size\n')
    assert bad.returncode == 1
    assert 'Incompatible types in assignment (expression has type "int", variable has type "str")' \
        in bad.stdout
