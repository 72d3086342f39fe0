"""The ``zig`` target: every golden and example module compiled by ``zig build-obj`` for every
ABI of the ``zig`` toolchain with its comptime checks live, a wrong layout refused by those
checks, every Zig keyword and primitive escaped as ``@"name"``, cross-module ``@import``,
and the layout fingerprints read back from the object Zig wrote."""

from __future__ import annotations

import json
import re
import struct

import pytest

from helpers.common import EXAMPLES, TESTS
from helpers.zig import assert_builds, build, exported_bytes, reference_all, write, zig_env
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.targets.dialects import ZIG
from sarek_layout.ir.types import ALIASES, SCALARS
from sarek_layout.targets.names import identifier_problem
from sarek_layout.verify.toolchains import ZIG_TARGETS

GOLDEN = TESTS / "golden"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return zig_env(tmp_path_factory)


def _zig_files(paths):
    return {f.filename: f.text for f in render_headers(load_schema([str(p) for p in paths]),
                                                        ["zig"])}


def test_goldens_and_examples_compile_on_every_abi(env, tmp_path):
    """All golden cases and the examples in one program, one zig run per ABI (11)."""
    modules = []
    for case in sorted(p for p in GOLDEN.iterdir() if p.is_dir()):
        names = sorted(p.name for p in (case / "expected").glob("*.zig"))
        assert names, f"golden case {case.name} has no .zig file"
        write(tmp_path / case.name, {n: (case / "expected" / n).read_text() for n in names})
        modules += [f"{case.name}/{n}" for n in names]
    write(tmp_path / "examples", _zig_files([EXAMPLES / "geometry.toml",
                                             EXAMPLES / "e2e" / "telemetry.toml"]))
    modules += ["examples/geometry.zig", "examples/telemetry.zig"]
    (tmp_path / "all.zig").write_text(reference_all(modules))
    assert_builds(tmp_path, "all.zig", ZIG_TARGETS, env)


def _geometry(tmp_path, edit=None):
    text = _zig_files([EXAMPLES / "geometry.toml"])["geometry.zig"]
    if edit is not None:
        changed = edit(text)
        assert changed != text
        text = changed
    write(tmp_path, {"geometry.zig": text, "all.zig": reference_all(["geometry.zig"])})
    return tmp_path


def test_a_wrong_offset_fails_to_compile(env, tmp_path):
    """Two members of the same size swapped (``mass`` and ``pos``, 8 bytes each): size and
    alignment still hold, the offsets do not, and the comptime check names the member."""
    mass = "    mass: f64 align(8), // offset 8\n"
    pos = "    pos: Geometry_point, // offset 16\n"
    folder = _geometry(tmp_path, lambda t: t.replace(mass + pos, pos + mass))
    for target in ("x86_64-linux", "x86-linux"):
        proc = build(folder, "all.zig", target, env)
        assert proc.returncode != 0
        assert "sarek-layout: Geometry_particle::mass must be at offset 8" in proc.stderr


def test_the_align8_pin_is_what_keeps_x86_at_the_layout(env, tmp_path):
    """Drop the ``align(8)`` pins: x86_64 still agrees (f64 is 8-aligned there), i386's
    4-aligned f64 makes the struct 4-aligned and the check refuses it."""
    folder = _geometry(tmp_path, lambda t: t.replace(" align(8)", ""))
    assert build(folder, "all.zig", "x86_64-linux", env).returncode == 0
    proc = build(folder, "all.zig", "x86-linux", env)
    assert proc.returncode != 0
    assert "sarek-layout: alignment of Geometry_particle must be 8" in proc.stderr


def _zig_words():
    """Every word the Zig dialect escapes, a few of the iN/uN family, and what Zig itself
    would refuse unescaped."""
    return sorted(ZIG.reserved_words | {"i0", "i7", "u1", "u8", "i32", "u65535", "i128"})


def test_every_zig_keyword_and_primitive_is_escaped_and_compiles(env, tmp_path):
    """Each word as a field, a constructor argument's record field, and (module "") a type
    name, wherever the C family accepts the name; the generated module compiles for every
    ABI and spells each as ``@"word"``. A keyword of C (``const``, ``bool``) refuses only the
    C-family targets, not zig."""
    words = _zig_words()
    fields = [w for w in words if identifier_problem(w) is None]
    assert fields == words
    assert "type" in fields and "fn" in fields and "u8" in fields and "_" in fields
    assert "const" in fields and "bool" in fields
    # A type may not take a scalar's name (bool, int…), in any target.
    type_names = [w for w in fields if identifier_problem(w, file_scope=True) is None
                  and w not in SCALARS and w not in ALIASES]
    types = [{"record": "r", "fields": [[w, "int32"] for w in fields]},
             {"variant": "v", "constructors": [["A", ["r", "float64"]], ["B", []]]}]
    types += [{"record": w, "fields": [[w, "float64"], ["x", "int32"]]} for w in type_names]
    path = tmp_path / "words.json"
    path.write_text(json.dumps({"module": "", "types": types}))
    schema = load_schema([str(path)])
    text = _zig_files([path])["words.zig"]
    for w in fields:
        assert f'    @"{w}": i32, // offset' in text, w
    for w in type_names:
        assert f'pub const @"{w}" = extern struct' in text, w
    write(tmp_path / "out", {"words.zig": text, "all.zig": reference_all(["words.zig"])})
    assert_builds(tmp_path / "out", "all.zig", ZIG_TARGETS, env)
    # The verify driver spells the probes with the same escapes: every value agrees.
    from sarek_layout.verify.run import verify_schema

    report = verify_schema(schema, toolchains=["zig"])
    assert report.ok, report.format()


def test_names_zig_does_not_reserve_are_not_escaped():
    assert [w for w in ("x", "i", "u", "i32x", "u_8", "fnord", "Type", "c_float")
            if ZIG.reserved_pattern.match(w) or w in ZIG.reserved_words] == []


def test_cross_module_types_are_imported(env, tmp_path):
    files = _zig_files(sorted((GOLDEN / "cross_module").glob("*.toml")))
    assert 'const Base_vec = @import("base.zig").Base_vec;' in files["scene.zig"]
    write(tmp_path, {**files, "all.zig": reference_all(["scene.zig"])})
    assert_builds(tmp_path, "all.zig", ["x86_64-linux"], env)


_MARKER = struct.pack("<2I", 0x53524B31, 0x600DF00D)


def test_layout_fingerprints_read_back_from_the_object(env, tmp_path):
    """``<c_name>_LAYOUT_ID`` as Zig computes it equals ``layout --json``'s, and
    ``<c_name>_LAYOUT_OK`` is true of it and false of another (docs/fingerprint.md)."""
    import contextlib
    import io

    from sarek_layout.cli.main import main

    schemas = [EXAMPLES / "geometry.toml", EXAMPLES / "e2e" / "telemetry.toml"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["layout", "--json", *map(str, schemas)]) == 0
    expected = {t["c_name"]: int(t["layout_id"], 16) for t in json.loads(out.getvalue())["types"]}
    files = _zig_files(schemas)
    owner = {name: f for f, text in files.items()
             for name in re.findall(r"^pub const (\w+) = extern struct", text, re.M)}
    lines = [f'const {f[:-4]} = @import("{f}");' for f in files]
    items = []
    for name in expected:
        m = owner[name][:-4]
        items.append(f"{m}.{name}_LAYOUT_ID")
        items.append(f"@intFromBool({m}.{name}_LAYOUT_OK({m}.{name}_LAYOUT_ID)) | "
                     f"(@as(u64, @intFromBool({m}.{name}_LAYOUT_OK({m}.{name}_LAYOUT_ID ^ 1))) << 1)")
    lines.append("export const sarek_ids = [_]u64{ 0x600DF00D53524B31, "
                 + ", ".join(items) + " };")
    write(tmp_path, {**files, "ids.zig": "\n".join(lines) + "\n"})
    for target in ("x86_64-linux", "x86-windows"):
        proc = build(tmp_path, "ids.zig", target, env, emit=True)
        assert proc.returncode == 0, proc.stderr
        data = exported_bytes((tmp_path / f"{target}.o").read_bytes(), _MARKER, 16 * len(expected))
        assert data is not None
        words = struct.unpack(f"<{2 * len(expected)}Q", data)
        assert dict(zip(expected, words[0::2])) == expected
        assert set(words[1::2]) == {1}


def test_the_examples_in_docs_zig_compile(env, tmp_path):
    """The guide's two examples: the bundled geometry, and the member kinds of the golden
    particles (std430)."""
    from helpers.common import ROOT

    blocks = re.findall(r"```zig\n(.*?)```", (ROOT / "docs" / "zig.md").read_text(), re.S)
    assert len(blocks) == 2
    files = _zig_files([EXAMPLES / "geometry.toml", GOLDEN / "host_kinds" / "particles.toml"])
    docs = {f"doc{i}.zig": block for i, block in enumerate(blocks)}
    write(tmp_path, {**files, **docs, "all.zig": reference_all(sorted(docs))})
    assert_builds(tmp_path, "all.zig", ["x86_64-linux", "x86-windows"], env)
