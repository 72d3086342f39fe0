"""The typescript target's names, judged by tsc and Node: every word it escapes or keeps.

``targets.name_rules`` decides for ``typescript``: what the module declares at file scope (a
type and its companion, a constructor's interface) is escaped with a trailing ``_`` when it is
a reserved word of JavaScript or TypeScript (strict mode and module code included), a type
name TypeScript refuses, or a global the module's own code uses; members (fields, constructor
names, enum values) are property names and stay as written, but ``__proto__``, which an object
literal reads as its prototype, is refused. Here every such word, and the contextual keywords
and generated names next to them, is a type name (of module ``""``), a field, a constructor
and an enum value of one schema; the module compiles under ``--strict``, and Node encodes and
decodes a value of every type.
"""

from __future__ import annotations

import json

import pytest

from helpers import typescript
from sarek_layout.codegen import render_headers
from sarek_layout.errors import SchemaError
from sarek_layout.resolve import load_schema
from sarek_layout.targets import name_rules
from sarek_layout.targets.names import FILE, identifier_problem, judge

#: Words TypeScript reads specially in some places but accepts as names (measured), the
#: properties every object or function has, and the names the companions give their own
#: members: all kept.
KEPT = """as async from get set of type declare module namespace abstract constructor global
require satisfies accessor out override is asserts using assert prototype length name toString
valueOf hasOwnProperty SIZE ALIGN LAYOUT_ID encode decode toBytes fromBytes pack unpack header
checkHeader packFramed unpackFramed columns FIELDS CTORS Symbol Promise globalThis Buffer
console process exports window self intrinsic i n value offset buffer""".split()

WORDS = sorted(w for w in set(KEPT) | name_rules.TS_ESCAPED if identifier_problem(w) is None)


#: A constructor or enum value ``LAYOUT_ID`` would be the C name of its type's fingerprint
#: macro: refused for every target by the resolver, before any target is asked.
_NOT_A_CTOR = {"LAYOUT_ID"}


def _schema(words):
    types = [{"record": w, "fields": [["n", "int32"]]} for w in words]
    types.append({"record": "fields", "fields": [[w, "int32"] for w in words]})
    ctors = [w for w in words if w not in _NOT_A_CTOR]
    types.append({"variant": "ctors", "constructors": [[w, ["int32"]] for w in ctors]})
    types.append({"enum": "values", "values": [[w, i] for i, w in enumerate(ctors)]})
    return {"module": "", "types": types}


_ROUND_TRIP = typescript.READ_STDIN + """
const M = await import("./js/words.js");
const out = [];
for (const [ident, value] of input) {
  const T = M[ident];
  const again = T.decode(new DataView(T.toBytes(value).buffer), 0);
  out.push(JSON.stringify(again) === JSON.stringify(value) ? "ok" : `${ident}: ${JSON.stringify(again)}`);
}
process.stdout.write(JSON.stringify(out));
"""


def test_every_word_is_escaped_or_kept_and_the_module_compiles_and_runs(tmp_path):
    typescript.programs()
    path = tmp_path / "words.json"
    path.write_text(json.dumps(_schema(WORDS)))
    [module] = render_headers(load_schema([str(path)]), ["typescript"])
    (tmp_path / "words.ts").write_text(module.text)
    typescript.assert_compiles([tmp_path / "words.ts"], tmp_path, out_dir="js")
    escaped = {w for w in WORDS if judge("typescript", w, FILE)[0] != w}
    assert escaped == name_rules.TS_ESCAPED & set(WORDS)
    for w in WORDS:
        ident = w + "_" if w in escaped else w
        assert f"export interface {ident} {{" in module.text, w
        assert f"export const {ident} = {{" in module.text, w
        assert f"  {w}: number;" in module.text  # a field keeps its name
        assert w in _NOT_A_CTOR or f'tag: "{w}";' in module.text  # so does a constructor
    cases = [[w + "_" if w in escaped else w, {"n": i}] for i, w in enumerate(WORDS)]
    cases.append(["fields", {w: i for i, w in enumerate(WORDS)}])
    cases += [["ctors", {"tag": w, "_0": i}] for i, w in enumerate(WORDS) if w not in _NOT_A_CTOR]
    assert typescript.node_json(_ROUND_TRIP, tmp_path, cases) == ["ok"] * len(cases)


_USERS_ROUND_TRIP = typescript.READ_STDIN + """
const U = await import("./js/users.js");
const out = [];
for (const [ident, value] of input) {
  const again = U[ident].fromBytes(U[ident].toBytes(value));
  out.push(JSON.stringify(again) === JSON.stringify(value) ? "ok" : `${ident}: ${JSON.stringify(again)}`);
}
const buffer = new ArrayBuffer(2 * U.U_all.SIZE);
const c = U.U_all.columns(buffer, 0, 2);
out.push(typeof c === "object" ? "ok" : "no columns");
process.stdout.write(JSON.stringify(out));
"""


def test_every_word_reached_from_another_schema_file(tmp_path):
    """A record of another schema file is written through its companion, by name, from inside
    the generated functions (whose parameters and locals are ``view``, ``at``, ``v``…): every
    word as a type of module ``""``, used as a field and a constructor argument of a second
    file's types, compiles under --strict and round-trips in Node."""
    typescript.programs()
    (tmp_path / "words.json").write_text(json.dumps(
        {"module": "", "types": [{"record": w, "fields": [["n", "int32"]]} for w in WORDS]}))
    (tmp_path / "users.json").write_text(json.dumps({"module": "U", "types": [
        {"record": "all", "fields": [[f"m{i}", w] for i, w in enumerate(WORDS)]},
        # (a variant's C struct has a member ``tag``: the resolver refuses the type ``tag``
        # in one, for C++)
        {"variant": "one", "constructors": [[f"K{i}", [w]] for i, w in enumerate(WORDS)
                                            if w != "tag"]}]}))
    files = render_headers(load_schema([str(tmp_path / "words.json"),
                                        str(tmp_path / "users.json")]), ["typescript"])
    for f in files:
        (tmp_path / f.filename).write_text(f.text)
    typescript.assert_compiles([tmp_path / "words.ts", tmp_path / "users.ts"], tmp_path,
                               out_dir="js")
    cases = [["U_all", {f"m{i}": {"n": i} for i in range(len(WORDS))}]]
    cases += [["U_one", {"tag": f"K{i}", "_0": {"n": i}}] for i, w in enumerate(WORDS)
              if w != "tag"]
    assert typescript.node_json(_USERS_ROUND_TRIP, tmp_path, cases) == ["ok"] * (len(cases) + 1)


def test_the_words_a_module_cannot_declare_are_those_tsc_refuses(tmp_path):
    """Measured: each reserved word, declared as the module would declare it unescaped (an
    interface and a const, and used as a type), is refused by tsc; each kept word is not."""
    import re

    typescript.programs()
    words = sorted(name_rules.TS_RESERVED) + KEPT
    # One module per word, all in one tsc run; numbered, since two words may differ only in
    # case (``Symbol``, ``symbol``) and tsc refuses two such file names.
    files = {w: tmp_path / f"w{i}_{w}.ts" for i, w in enumerate(words)}
    for w, file in files.items():
        file.write_text(
            f"export interface {w} {{ x: number }}\nexport const {w} = {{ SIZE: 1 }};\n"
            f"export const use: {w} = {{ x: 1 }};\n")
    # tsc reports no type errors while any file has a syntax error: run again without the
    # files it refused until a run is clean.
    refused: set = set()
    while True:
        left = [w for w in words if w not in refused]
        run = typescript.tsc([files[w] for w in left], tmp_path)
        if run.returncode == 0:
            break
        found = set(re.findall(r"^w[0-9]+_(\w+)\.ts\(", run.stdout, re.M))
        assert found, run.stdout
        refused |= found
    assert refused == name_rules.TS_RESERVED


@pytest.mark.parametrize("schema, message, other", [
    ({"module": "M", "types": [{"record": "r", "fields": [["__proto__", "int32"]]}]},
     "field name '__proto__' is __proto__, which an object literal reads as its prototype",
     "rust"),
    ({"module": "M", "types": [{"enum": "e", "values": [["__proto__", 0]]}]},
     "enum value '__proto__' of enum M.e is __proto__", None),
    ({"module": "", "types": [{"record": "class", "fields": [["x", "int32"]]},
                              {"record": "class_", "fields": [["y", "int32"]]}]},
     "in the typescript output, type 'class_' is declared as 'class_', which is also type 'class'",
     "zig"),
])
def test_what_cannot_be_emitted_is_refused_naming_the_target(tmp_path, schema, message, other):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(schema))
    with pytest.raises(SchemaError) as info:
        render_headers(load_schema([str(path)]), ["typescript"])
    assert message in str(info.value)
    assert "typescript" in str(info.value)
    # ... and only there: another target takes the same schema (Rust the field, Zig the two
    # types; the C family refuses an enum value's C name with '__' for its own reason).
    if other is not None:
        render_headers(load_schema([str(path)]), [other])
