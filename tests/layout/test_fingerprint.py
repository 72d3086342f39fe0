"""The layout fingerprint (``layout.fingerprint``, docs/fingerprint.md): its canonical text and
hash pinned as documented, the same value from every input form, and hypothesis tests that
every change to a name, offset, size, type or tag changes it (schema edits, and each fact of
the member model changed alone, which no edit can do for an offset or a tag) while whitespace,
comments and declaration or file order do not.

That every target's output holds this same value, compiled and read back, is
``test_fingerprint_targets.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import struct
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.common import EXAMPLES, ROOT
from sarek_layout.cli.main import main
from sarek_layout.codegen import render_headers
from sarek_layout.resolve import load_schema
from sarek_layout.layout.fingerprint import canonical_text, layout_id, layout_id_hex

HAVE_CPP = any(shutil.which(c) for c in ("cpp", "gcc", "clang"))


def ids(paths) -> Dict[str, str]:
    """Every type's fingerprint by C name."""
    return {t.c_name: layout_id_hex(t) for t in load_schema([str(p) for p in paths])}


# --- the documented text and hash ------------------------------------------------------------

GEOMETRY_TEXTS = {
    "Geometry_point": "sarek-layout-id 1\nrecord Geometry_point 8 4\nmember x 0 float32\n"
                      "member y 4 float32\n",
    "Geometry_particle": "sarek-layout-id 1\nrecord Geometry_particle 32 8\nmember id 0 int32\n"
                         "member mass 8 float64\nmember pos 16 {point}\nmember alive 24 bool\n",
    "Geometry_shape": "sarek-layout-id 1\nvariant Geometry_shape 24 8\nmember tag 0 int32\n"
                      "ctor Circle 0\nmember _0 8 {point}\nmember _1 16 float32\n"
                      "ctor Rect 1\nmember _0 8 {point}\nmember _1 16 {point}\n"
                      "ctor Weighted 2\nmember _0 8 float64\nmember _1 16 int32\n"
                      "ctor Empty 3\n",
}


def documented_id(text: str) -> str:
    """docs/fingerprint.md's recipe, written out independently of the package."""
    return "0x" + hashlib.sha256(text.encode("utf-8")).digest()[:8].hex()


def test_canonical_text_and_hash_are_the_documented_ones():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    point = documented_id(GEOMETRY_TEXTS["Geometry_point"])
    for t in schema:
        want = GEOMETRY_TEXTS[t.c_name].replace("{point}", point)
        assert canonical_text(t) == want, t.c_name
        assert layout_id_hex(t) == documented_id(want)
        assert layout_id(t) == int(documented_id(want), 16) and 0 <= layout_id(t) < 2 ** 64


def test_the_two_words_are_the_low_word_then_the_high_word():
    """Where a language has no 64-bit integer (WGSL, GLSL without the extension) the id is two
    32-bit words, low word first, as a little-endian uint64_t lies in a buffer: from the
    documented recipe and ``struct``, independently of the package, and as the docs' GLSL and
    WGSL rows spell them. Swapped words were caught only by goldens and lavapipe."""
    from sarek_layout.layout.fingerprint import layout_id_words

    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    point = documented_id(GEOMETRY_TEXTS["Geometry_point"])
    for t in schema:
        digest = hashlib.sha256(GEOMETRY_TEXTS[t.c_name].replace("{point}", point)
                                .encode("utf-8")).digest()
        in_a_buffer = int.from_bytes(digest[:8], "big").to_bytes(8, "little")
        assert layout_id_words(t) == struct.unpack("<II", in_a_buffer), t.c_name
    low, high = layout_id_words(schema.by_c_name("Geometry_point"))
    assert (low, high) == (int(point[10:], 16), int(point[2:10], 16))
    doc = (ROOT / "docs" / "fingerprint.md").read_text()
    assert f"uvec2(0x{low:08x}u, 0x{high:08x}u)" in doc
    assert f"vec2<u32>(0x{low:08x}u, 0x{high:08x}u)" in doc


def test_docs_show_the_text_and_values_of_the_example():
    doc = (ROOT / "docs" / "fingerprint.md").read_text()
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    for t in schema:
        assert layout_id_hex(t) in doc, t.c_name
    assert canonical_text(schema.by_c_name("Geometry_particle")) in doc


def test_layout_json_prints_it_after_align(capsys):
    assert main(["layout", "--json", str(EXAMPLES / "geometry.toml")]) == 0
    doc = json.loads(capsys.readouterr().out)
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    for entry, t in zip(doc["types"], schema):
        assert list(entry)[:7] == ["name", "module", "c_name", "kind", "size", "align",
                                   "layout_id"]
        assert re.fullmatch(r"0x[0-9a-f]{16}", entry["layout_id"])
        assert entry["layout_id"] == layout_id_hex(t)


# --- the same types in every input form -------------------------------------------------------

JSON_FORM = """{"module": "Shapes", "types": [
  {"record": "vec", "fields": [["x", "float32"], ["y", "float"]]},
  {"record": "body", "fields": [["id", "int64"], ["pos", "vec"], ["mass", "float64"],
                                ["n", "int"]]},
  {"variant": "hit", "constructors": [["Miss"], ["At", ["vec", "float64"]], ["Count", ["int32"]]]}
]}
"""

# Declarations in another order, comments, other spacing and spellings (int32 for int).
TOML_FORM = """# the same three types
module = "Shapes"

[[types]]   # declared before the record it uses
variant = "hit"
constructors = [["Miss", []], ["At", ["vec", "float64"]],   ["Count", ["int"]]]

[[types]]
record = "body"
fields = [["id", "int64"], ["pos", "vec"], ["mass", "float64"], ["n", "int32"]]

[[types]]
record = "vec"
fields = [
  ["x", "float32"],  # x first
  ["y", "float32"],
]
"""

OCAML_FORM = """(* A Sarek source: the types among a kernel and comments. *)
type vec = { x : float32; y : float32 } [@@sarek.type]

let kernel_unrelated = 42

type body = {
  id : int64;   (* 8 bytes *)
  pos : vec;
  mass : float64;
  n : int32;
} [@@sarek.type]

type hit =
  | Miss
  | At of vec * float64
  | Count of int32
[@@sarek.type]
"""

C_RECORDS = """/* Shapes, hand-written: only the records (the variant comes from a generated header) */
#include <stdint.h>
typedef struct Shapes_vec { float x;   float y; } Shapes_vec;

typedef struct Shapes_body {
    int64_t id;      /* offset 0 */
    Shapes_vec pos;
    double mass;
    int32_t n;
    /* the tail padding is implicit here */
} Shapes_body;
"""


def test_every_input_form_gives_the_same_fingerprints(tmp_path):
    forms = {"json": ("shapes.json", JSON_FORM), "toml": ("shapes.toml", TOML_FORM),
             "ocaml": ("shapes.ml", OCAML_FORM)}
    got: Dict[str, Dict[str, str]] = {}
    for fmt, (name, text) in forms.items():
        path = tmp_path / fmt / name
        path.parent.mkdir()
        path.write_text(text)
        got[fmt] = ids([path])
    assert got["json"] == got["toml"] == got["ocaml"], got
    assert len(set(got["json"].values())) == 3
    if not HAVE_CPP:
        pytest.skip("no C preprocessor (cpp, gcc or clang) for the C header reader")
    c_dir = tmp_path / "c"
    c_dir.mkdir()
    (c_dir / "shapes.h").write_text(C_RECORDS)
    got_c = ids([c_dir / "shapes.h"])
    assert got_c == {k: got["json"][k] for k in ("Shapes_vec", "Shapes_body")}
    # The variant too, read from the C header generated from the JSON form.
    gen = tmp_path / "generated"
    gen.mkdir()
    for f in render_headers(load_schema([str(tmp_path / "json" / "shapes.json")]), ["c"]):
        (gen / f.filename).write_text(f.text)
    assert ids([gen / "shapes.h"]) == got["json"]


def test_file_order_and_other_modules_do_not_enter(tmp_path):
    base = tmp_path / "base.json"
    base.write_text(json.dumps({"module": "Base", "types": [
        {"record": "p", "fields": [["x", "float32"]]}]}))
    scene = tmp_path / "scene.json"
    scene.write_text(json.dumps({"module": "Scene", "types": [
        {"record": "q", "fields": [["p", "Base.p"], ["k", "int32"]]},
        {"record": "unrelated", "fields": [["z", "int64"]]}]}))
    alone = tmp_path / "alone.json"
    alone.write_text(json.dumps({"module": "Scene", "types": [
        {"record": "q", "fields": [["p", "Base.p"], ["k", "int32"]]}]}))
    one, other = ids([base, scene]), ids([scene, base])
    assert one == other
    assert ids([base, alone])["Scene_q"] == one["Scene_q"]


# --- hypothesis: changes that matter, and changes that do not ---------------------------------

SCALARS = ["int32", "int64", "float32", "float64", "bool", "unit", "float16", "uint8"]
NAMES = ["x", "y", "z", "id", "mass", "count", "w", "flag"]
CTORS = ["A", "B", "Circle", "Empty", "Pair"]

#: A type: ("record", name, [(field, type)]) or ("variant", name, [(ctor, [types])]); a type
#: is a scalar name or the name of an earlier record.
Type = Tuple[str, str, list]


@st.composite
def modules(draw) -> List[Type]:
    types: List[Type] = []
    records: List[str] = []
    for i in range(draw(st.integers(1, 4))):
        member = st.sampled_from(SCALARS + records)
        name = f"t{i}"
        if draw(st.booleans()):
            fields = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
            types.append(("record", name, [(f, draw(member)) for f in fields]))
            records.append(name)
        else:
            ctors = draw(st.lists(st.sampled_from(CTORS), min_size=1, max_size=3, unique=True))
            types.append(("variant", name, [(c, draw(st.lists(member, max_size=2)))
                                            for c in ctors]))
    return types


def to_json(types: List[Type], module: str = "M", indent: Optional[int] = None) -> str:
    entries = []
    for kind, name, items in types:
        if kind == "record":
            entries.append({"record": name, "fields": [[f, t] for f, t in items]})
        else:
            entries.append({"variant": name, "constructors": [[c, list(a)] for c, a in items]})
    return json.dumps({"module": module, "types": entries}, indent=indent)


def to_toml(types: List[Type], module: str = "M") -> str:
    """TOML with a comment on every line and odd spacing."""
    lines = ["# generated for the fingerprint test", f'module  =  "{module}"   # the prefix']
    for kind, name, items in types:
        lines += ["", "[[types]]  # one type", f'{kind} = "{name}"']
        key = "fields" if kind == "record" else "constructors"
        body = ", ".join(f'["{a}", "{b}"]' if kind == "record" else
                         f'["{a}", [{", ".join(chr(34) + x + chr(34) for x in b)}]]'
                         for a, b in items)
        lines.append(f"{key} = [ {body} ]   # members")
    return "\n".join(lines) + "\n"


def fingerprints(text: str, suffix: str) -> Dict[str, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"m{suffix}"
        path.write_text(text)
        return ids([path])


def users_of(types: List[Type], name: str) -> set:
    """``name`` and every type that uses it, directly or not (by schema name)."""
    found = {name}
    for kind, t, items in types:  # declaration order: a record is declared before its users
        used = [ty for _, ty in items] if kind == "record" else [a for _, args in items for a in args]
        if any(u in found for u in used):
            found.add(t)
    return found


@st.composite
def mutations(draw, types: List[Type]):
    """``(new types, the schema name of the changed type, what changed)``."""
    types = [(k, n, [(a, list(b)) if k == "variant" else (a, b) for a, b in items])
             for k, n, items in types]
    i = draw(st.integers(0, len(types) - 1))
    kind, name, items = types[i]
    choices = ["rename-type", "rename-member"]
    if kind == "record":
        choices.append("retype")
        if len(items) > 1:
            choices.append("swap-members")
    else:
        if any(args for _, args in items):
            choices.append("retype")
        if len(items) > 1:
            choices.append("swap-ctors")
    what = draw(st.sampled_from(choices))
    if what == "rename-type":
        new_name = f"{name}_renamed"
        for j, (k, n, its) in enumerate(types):
            if k == "record":
                its = [(f, new_name if t == name else t) for f, t in its]
            else:
                its = [(c, [new_name if a == name else a for a in args]) for c, args in its]
            types[j] = (k, new_name if n == name else n, its)
        return types, new_name, what
    if what == "rename-member":
        j = draw(st.integers(0, len(items) - 1))
        items[j] = (items[j][0] + "_2", items[j][1])
    elif what == "swap-members":
        j, k = draw(st.lists(st.integers(0, len(items) - 1), min_size=2, max_size=2, unique=True))
        items[j], items[k] = items[k], items[j]
        if items[j][1] == items[k][1] and kind == "record":
            pass  # same type, other names at the offsets: still a change of the layout
    elif what == "swap-ctors":
        j, k = draw(st.lists(st.integers(0, len(items) - 1), min_size=2, max_size=2, unique=True))
        items[j], items[k] = items[k], items[j]
    else:  # retype: another scalar (a size, alignment or offset may change with it, or not)
        slots = ([(j, None) for j in range(len(items))] if kind == "record" else
                 [(j, a) for j, (_, args) in enumerate(items) for a in range(len(args))])
        j, a = draw(st.sampled_from(slots))
        old = items[j][1] if a is None else items[j][1][a]
        new = draw(st.sampled_from([s for s in SCALARS if s != old]))
        if a is None:
            items[j] = (items[j][0], new)
        else:
            items[j][1][a] = new
    types[i] = (kind, name, items)
    return types, name, what


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_change_of_name_offset_size_type_or_tag_changes_the_fingerprint(data):
    types = data.draw(modules())
    before = fingerprints(to_json(types), ".json")
    after_types, changed, what = data.draw(mutations(types))
    after = fingerprints(to_json(after_types), ".json")
    hit = users_of(after_types, changed)
    old_names = {n for _, n, _ in types}
    for _, name, _ in after_types:
        c_name = f"M_{name}"
        if name in hit:
            assert c_name not in before or after[c_name] != before[c_name], (what, name)
            assert after[c_name] not in set(before.values()) or what == "rename-type", (what, name)
        else:
            assert name in old_names and after[c_name] == before[c_name], (what, name)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules(), st.randoms(use_true_random=False))
def test_whitespace_comments_form_and_order_do_not_change_it(types, rnd: random.Random):
    want = fingerprints(to_json(types), ".json")
    assert fingerprints(to_json(types, indent=3), ".json") == want
    shuffled = list(types)
    rnd.shuffle(shuffled)  # types may be used before they are declared (SPEC §3)
    assert fingerprints(to_json(shuffled), ".json") == want
    assert fingerprints(to_toml(shuffled), ".toml") == want
    # The module name is part of every C name, so of every fingerprint.
    other = fingerprints(to_json(types, module="N"), ".json")
    assert not set(other.values()) & set(want.values())


# --- the emitted names are reserved ------------------------------------------------------------


@pytest.mark.parametrize("types, clash", [
    ([{"variant": "v", "constructors": [["LAYOUT_ID"], ["B"]]}],
     "C name 'M_v_LAYOUT_ID' of constructor M.v.LAYOUT_ID collides with type 'M.v' (its "
     "layout fingerprint macro)"),
    ([{"record": "p", "fields": [["x", "int32"]]},
      {"record": "p_LAYOUT_OK", "fields": [["y", "int32"]]}],
     "C name 'M_p_LAYOUT_OK' of type 'M.p_LAYOUT_OK' collides with type 'M.p' (its layout "
     "fingerprint macro)"),
])
def test_a_name_spelt_like_a_fingerprint_macro_is_refused(tmp_path, capsys, types, clash):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"module": "M", "types": types}))
    assert main(["layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert clash in err and err.count("\n") == 1, err


def test_a_type_whose_name_ends_in_an_underscore_keeps_working(tmp_path, capsys):
    """``t_`` gives ``M_t__LAYOUT_ID``: the macro is emitted, and compiles warning-free."""
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"module": "M", "types": [
        {"record": "t_", "fields": [["x", "int32"]]}]}))
    assert main(["generate", str(path), "-o", str(tmp_path), "-t", "c"]) == 0
    assert "#define M_t__LAYOUT_ID 0x" in (tmp_path / "m.h").read_text()
    if shutil.which("gcc"):
        import subprocess

        (tmp_path / "use.c").write_text('#include "m.h"\nunsigned long long id = M_t__LAYOUT_ID;\n')
        proc = subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic",
                               "-c", "use.c", "-o", "use.o"], cwd=tmp_path,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


# --- hypothesis, on the model: each fact alone --------------------------------------------------


def _mutated(t, what: str, data):
    """``t`` with one fact of its layout changed, as no schema edit can change it alone (an
    offset follows from the order and the types, a tag from the order)."""
    import dataclasses
    import types as pytypes

    from sarek_layout.ir.types import SCALARS as TABLE

    if what == "c_name":
        return dataclasses.replace(t, c_name=t.c_name + "x")
    if what in ("size", "align"):
        layout = pytypes.SimpleNamespace(size=t.size, align=t.align,
                                         payload_offset=t.payload_offset)
        setattr(layout, what, getattr(t, what) * 2)
        return dataclasses.replace(t, layout=layout)
    if what == "tag":
        arms = list(t.arms)
        k = data.draw(st.integers(0, len(arms) - 1))
        arms[k] = dataclasses.replace(arms[k], tag=arms[k].tag + len(arms))
        return dataclasses.replace(t, arms=tuple(arms))
    # A member: a record's field, a variant's tag or a constructor's argument.
    slots = [("members", None, j) for j in range(len(t.members))]
    slots += [("arms", k, j) for k, arm in enumerate(t.arms) for j in range(len(arm.args))]
    where, k, j = data.draw(st.sampled_from(slots))
    members = list(t.members if where == "members" else t.arms[k].args)
    m = members[j]
    if what == "offset":
        m = m._replace(offset=m.offset + 4)
    elif what == "name":
        m = m._replace(name=m.name + "x")
    elif m.scalar is not None:  # what == "type"
        m = m._replace(scalar=data.draw(st.sampled_from(
            [s for s in TABLE.values() if s is not m.scalar])))
    else:  # a nested record of another size
        m = m._replace(record=_mutated(m.record, "size", data))
    members[j] = m
    if where == "members":
        return dataclasses.replace(t, members=tuple(members))
    arms = list(t.arms)
    arms[k] = dataclasses.replace(arms[k], args=tuple(members))
    return dataclasses.replace(t, arms=tuple(arms))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules(), st.data())
def test_any_one_fact_of_the_layout_changes_the_fingerprint(types, data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.json"
        path.write_text(to_json(types))
        schema = load_schema([str(path)])
    t = data.draw(st.sampled_from(schema.types))
    facts = ["c_name", "size", "align", "offset", "name", "type"]
    if t.arms:
        facts.append("tag")
    what = data.draw(st.sampled_from(facts))
    changed = _mutated(t, what, data)
    assert canonical_text(changed) != canonical_text(t), what
    assert layout_id(changed) != layout_id(t), what
