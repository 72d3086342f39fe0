"""Shared test plumbing: the toolchain gate, the repository paths and shared folders.

``require_toolchain(name)`` skips with the one-line install hint when a compiler or runtime
is missing here, and fails instead when CI asked for it with ``SAREK_REQUIRE_TOOLCHAINS``.
"""

from __future__ import annotations

import os
import pathlib

import pytest

from sarek_layout.verify import toolchains

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: The tests folder (its data: golden/, bad_inputs/, data/, fuzz_corpus/).
TESTS = ROOT / "tests"
EXAMPLES = ROOT / "examples"


def require_toolchain(name: str) -> toolchains.Toolchain:
    """Return the toolchain, or skip (locally) / fail (when required) if it is missing."""
    tc = toolchains.get(name)
    reason = tc.unavailable_reason
    if reason is not None:
        if name in toolchains.required_toolchains():
            pytest.fail(f"required toolchain missing: {reason}", pytrace=False)
        pytest.skip(reason)
    return tc




def golden_cases(member_kinds: bool = True) -> "dict[str, list[str]]":
    """The golden cases (``tests/golden/<case>``), by name, each with its schema files in name
    order. ``member_kinds=False`` leaves out the cases that use SPEC §1b's member kinds or rule
    sets (``first_extension``): the cases Sarek itself could write."""
    from sarek_layout.resolve import load_schema

    out = {}
    for folder in sorted(p for p in (TESTS / "golden").iterdir() if p.is_dir()):
        paths = sorted(str(p) for p in folder.iterdir() if p.suffix in (".toml", ".json", ".ml"))
        if member_kinds or first_extension(load_schema(paths).types) is None:
            out[folder.name] = paths
    return out


def shared_folder(tmp_path_factory, name: str, build) -> pathlib.Path:
    """A folder filled once per test run by ``build(folder)``, whichever pytest-xdist worker
    asks first; the others wait for it (a lock file) instead of building it again.

    For expensive, deterministic inputs (the conformance headers): without xdist it is a
    plain folder of this session's temporary directory."""
    import fcntl

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, shared by its workers (popen-gw0, popen-gw1…)
    folder = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".complete").is_file():
            if folder.exists():
                import shutil

                shutil.rmtree(folder)  # a build interrupted in an earlier worker
            folder.mkdir()
            build(folder)
            (folder / ".complete").write_text("")
    return folder


def _members(st):
    yield from st.members
    for arm in st.arms:
        yield from arm.args


def first_extension(types):
    """The first type (and member) using a member kind or rule set of SPEC §1b, and what it
    uses; ``None`` when there is none."""
    for st in types:
        if st.is_enum:
            return st, None, "an enum"
        if st.rules != "c":
            return st, None, f"the {st.rules} rules"
        for m in _members(st):
            if m.dims:
                return st, m, f"a {m.dims[0].kind} ({m.spelling})"
            if m.enum is not None:
                return st, m, f"an enum ({m.spelling})"
    return None
