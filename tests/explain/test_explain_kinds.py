"""``explain`` of the member kinds of SPEC §1b (issue 32): fixed arrays, vectors, matrices
and enums, under each rule set, in the text report and the pictures.

The holes the report prints are judged against the compiler that implements each rule set
natively: each struct is compiled (gcc for ``c``, glslang for ``std430`` and ``std140``) and
the expected lines are computed here from the offsets and strides it reports and the sizes
of the scalars (a hole is the distance from a member's end to the next offset; an array's
stride padding is its stride less its element's extent, once per element). Nothing expected
is taken from the package.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Dict, List

import pytest

from helpers import kinds_oracle
from helpers.bounded import python_calls
from helpers.common import require_toolchain
from sarek_layout.cli.main import main

SIZE = kinds_oracle.SIZE
SVG = "{http://www.w3.org/2000/svg}"


def _spelled(kind) -> str:
    """The schema spelling of an oracle kind."""
    tag = kind[0]
    if tag == "scalar":
        return kind[1]
    if tag == "vec":
        return f"vec{kind[1]}<{kind[2]}>"
    if tag == "mat":
        return f"mat{kind[1]}x{kind[2]}<{kind[3]}>"
    if tag == "array":
        return f"{_spelled(kind[1])}[{kind[2]}]"
    return kind[1]


def _data(kind, structs) -> int:
    """Bytes of data (scalars) in one value of ``kind``."""
    tag = kind[0]
    if tag == "scalar":
        return SIZE[kind[1]]
    if tag == "vec":
        return kind[1] * SIZE[kind[2]]
    if tag == "mat":
        return kind[1] * kind[2] * SIZE[kind[3]]
    if tag == "array":
        return kind[2] * _data(kind[1], structs)
    return sum(_data(k, structs) for _, k in dict(structs)[kind[1]])


def _expected(name, structs, measured: Dict[str, kinds_oracle.Measured], rules: str) -> List[str]:
    """The hole lines of ``name``'s block and its footer, from the compiler's numbers. (The
    scalar block layout ends an array at its last element: one gap fewer.)"""
    members = dict(structs)[name]
    m = measured[name]
    lines = []
    end = 0
    for field, kind in members:
        offset = m.offsets[field]
        if offset > end:
            lines.append(f"/* XXX {offset - end} byte hole */")
        tag = kind[0]
        if tag == "array":
            element, count, stride = kind[1], kind[2], m.strides[field]
            extent = (element[1] * SIZE[element[2]] if element[0] == "vec" else
                      SIZE[element[1]] if element[0] == "scalar" else measured[element[1]].size)
            gaps = count - 1 if rules == "scalar" else count
            end = offset + gaps * stride + (extent if rules == "scalar" else 0)
            if stride > extent and gaps:
                times = f" × {gaps}" if gaps > 1 else ""
                lines.append(f"/* XXX {stride - extent} bytes of stride padding{times} */")
            if element[0] == "struct":
                inside = extent - _data(element, structs)
                if inside:
                    lines.append(f"/* XXX {inside} bytes of padding inside each T.{element[1]}"
                                 f" × {count} */")
        elif tag == "mat":
            cols, rows = kind[1], kind[2]
            # C: T[C][R], a column R scalars long; GLSL: the reflected matrix stride.
            column = m.strides.get(field, rows * SIZE[kind[3]])
            end = offset + cols * column
            if column > rows * SIZE[kind[3]]:
                gap = column - rows * SIZE[kind[3]]
                lines.append(f"/* XXX {gap} bytes of stride padding × {cols} */")
        elif tag == "vec":
            end = offset + kind[1] * SIZE[kind[2]]
        elif tag == "scalar":
            end = offset + SIZE[kind[1]]
        else:
            end = offset + measured[kind[1]].size
    if m.size > end:
        tail = m.size - end
        lines.append(f"/* XXX {tail} byte{'s' if tail != 1 else ''} of tail padding */")
    data = sum(_data(k, structs) for _, k in members)
    padding = m.size - data
    lines.append(f"/* size: {m.size}, align: {m.align}, data: {data} bytes, padding: {padding} "
                 f"bytes ({100.0 * padding / m.size:.1f}%) */")
    return lines


def _report(tmp_path, capsys, structs, rules) -> Dict[str, List[str]]:
    types = [{"record": name, "fields": [[f, _spelled(k)] for f, k in members]}
             for name, members in structs]
    path = tmp_path / f"t_{rules}.json"
    path.write_text(json.dumps({"module": "T", "rules": rules, "types": types}))
    capsys.readouterr()
    assert main(["explain", str(path)]) == 0
    blocks = {}
    for block in capsys.readouterr().out.split("\n\n"):
        head = re.match(r"record T\.(\w+) \{", block)
        if head:
            blocks[head.group(1)] = [line.strip() for line in block.splitlines()
                                     if line.strip().startswith(("/* XXX", "/* size:"))]
    return blocks


P = ("P", [("d", ("scalar", "float64")), ("f", ("scalar", "float32"))])
#: (rules, structs): each struct's holes, stride padding and totals are checked.
CASES = [
    ("std430", [("A", [("pts", ("array", ("vec", 3, "float32"), 4)), ("f", ("scalar", "float32"))])]),
    ("std430", [("B", [("m", ("mat", 3, 3, "float32")), ("f", ("scalar", "float32"))])]),
    ("std430", [P, ("C", [("a", ("scalar", "float32")), ("ps", ("array", ("struct", "P"), 3))])]),
    ("std430", [("D", [("v", ("vec", 3, "float32")), ("w", ("scalar", "float32")),
                       ("g", ("array", ("vec", 3, "float32"), 2)), ("u", ("scalar", "uint8"))])]),
    ("std140", [("E", [("a", ("array", ("scalar", "float32"), 4)), ("b", ("vec", 2, "float32"))])]),
    ("std140", [("F", [("m", ("mat", 2, 2, "float32")), ("n", ("scalar", "int32"))])]),
    ("scalar", [P, ("J", [("ps", ("array", ("struct", "P"), 3)), ("b", ("scalar", "float32"))])]),
    ("cuda", [("K", [("f", ("scalar", "float32")), ("v", ("vec", 4, "float32")),
                     ("w", ("array", ("vec", 3, "float32"), 2)), ("d", ("vec", 2, "float64"))])]),
    ("c", [("G", [("n", ("scalar", "int32")), ("v", ("array", ("scalar", "float64"), 3))])]),
    ("c", [("H", [("v", ("vec", 3, "float32")), ("d", ("scalar", "float64")),
                  ("e", ("array", ("scalar", "uint8"), 3))])]),
    ("c", [P, ("I", [("u", ("scalar", "uint8")), ("ps", ("array", ("struct", "P"), 2)),
                     ("m", ("mat", 2, 3, "float32"))])]),
]


@pytest.mark.parametrize("rules, structs", CASES, ids=[s[-1][0] for _, s in CASES])
def test_holes_inside_and_around_arrays_are_the_compilers(tmp_path, capsys, rules, structs):
    """A std430 vec3<float32>[4] has a 4-byte hole in every element: shown once, with its
    count; the holes around arrays and the data/padding totals as the compiler lays them."""
    if rules == "c":
        require_toolchain("gcc")
        measured = kinds_oracle.measure_c(structs, tmp_path)
    elif rules == "cuda":
        require_toolchain("nvcc")
        measured = kinds_oracle.measure_cuda(structs, tmp_path)
    else:
        require_toolchain("glslang")
        measured = kinds_oracle.measure_glsl(structs, rules, tmp_path)
    blocks = _report(tmp_path, capsys, structs, rules)
    for name, _ in structs:
        assert blocks[name] == _expected(name, structs, measured, rules), name


PARTICLES = """\
module = "Sim"
rules = "std430"

[[types]]
record = "particle"
fields = [["pos", "vec3<float32>"], ["mass", "float32"], ["mat", "material"],
          ["pts", "vec3<float32>[4]"]]

[[types]]
enum = "material"
base = "uint8"
values = [["Lambert", 0], ["Metal"], ["Glass", 7]]
"""


def test_enums_and_the_rule_set_are_shown(tmp_path, capsys):
    path = tmp_path / "sim.toml"
    path.write_text(PARTICLES)
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "record Sim.particle {  /* C: Sim_particle, std430 rules */" in out
    assert "material     mat;                     /*    16     1 */" in out
    assert "/* XXX 15 byte hole */" in out
    assert "enum Sim.material : uint8 {  /* C: Sim_material */" in out
    assert "    Glass = 7,\n" in out


def _picture(tmp_path, count: int, suffix: str = "svg") -> str:
    path = tmp_path / f"a{count}.toml"
    path.write_text(f'[[types]]\nrecord = "r"\nfields = [["n", "int32"], ["pts", '
                    f'"vec3<float32>[{count}]"], ["big", "float32[{count}]"]]\n')
    out = tmp_path / f"a{count}.{suffix}"
    out.unlink(missing_ok=True)  # a second call (python_calls runs it twice) draws it anew
    assert main(["explain", str(path), f"--{suffix}", str(out), "--check"]) == 1
    assert main(["explain", str(path), f"--{suffix}", str(out)]) == 0
    return out.read_text()


def test_the_picture_draws_an_enum_as_its_one_value(tmp_path, capsys):
    """An enum is one box of its base (not a variant's tag row over a "payload")."""
    path = tmp_path / "sim.toml"
    path.write_text(PARTICLES)
    svg = tmp_path / "sim.svg"
    assert main(["explain", str(path), "--type", "material", "--svg", str(svg)]) == 0
    root = ET.parse(svg).getroot()
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") in ("member", "payload", "hole")]
    assert [(g.get("class"), g.get("data-path"), g.get("data-size")) for g in groups] == [
        ("member", "value", "1")]
    assert groups[0].find(f"{SVG}title").text == "value: uint8, 3 values, offset 0, 1 bytes"
    row = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "row-label")
    assert row.text == "material"


def test_the_picture_draws_an_array_as_one_block_with_its_count(tmp_path, capsys):
    root = ET.fromstring(_picture(tmp_path, 4))
    members = {g.get("data-path"): g for g in root.iter(f"{SVG}g") if g.get("class") == "member"}
    assert set(members) == {"n", "pts", "big"}
    pts = members["pts"]
    assert (pts.get("data-offset"), pts.get("data-size"), pts.get("data-count")) == ("4", "48", "4")
    assert pts.find(f"{SVG}title").text == ("pts: vec3<float32>[4], offset 4, 48 bytes, 4 elements "
                                           "12 apart")
    assert "data-count" not in members["n"].attrib
    std430 = tmp_path / "s.toml"
    std430.write_text('rules = "std430"\n[[types]]\nrecord = "r"\nfields = [["pts", '
                      '"vec3<float32>[4]"]]\n')
    assert main(["explain", str(std430), "--svg", str(tmp_path / "s.svg")]) == 0
    title = next(g for g in ET.parse(tmp_path / "s.svg").iter(f"{SVG}g")
                 if g.get("data-path") == "pts").find(f"{SVG}title").text
    assert title.endswith("4 elements 16 apart; 4 bytes of stride padding × 4")


def _schema(tmp_path, count: int, name: str = "m") -> str:
    path = tmp_path / f"{name}{count}.toml"
    path.write_text(f'module = "M"\nrules = "std430"\n[[types]]\nrecord = "r"\nfields = [["n", "int32"], '
                    f'["big", "float32[{count}]"], ["pts", "vec3<float32>[{count}]"], ["e", "e"]]\n'
                    f'[[types]]\nrecord = "q"\nfields = [["ps", "p[{count}]"], ["m", "mat3[2]"]]\n'
                    f'[[types]]\nrecord = "p"\nfields = [["x", "float64"], ["y", "float32"]]\n'
                    f'[[types]]\nvariant = "v"\nconstructors = [["A", ["float32[{count}]"]], '
                    f'["B", ["int32", "vec3<float32>[{count}]"]]]\n'
                    f'[[types]]\nenum = "e"\nvalues = [["X", 0], ["Y", 1]]\n')
    return str(path)


@pytest.mark.parametrize("options", [[], ["--suggest"]])
def test_a_huge_array_costs_what_two_elements_cost(tmp_path, capsys, options):
    """explain and explain --suggest of float32[100000000] members (in records, arrays of
    records, overlapping variant arguments): the same Python calls as of float32[16] (a
    count that leaves the same bytes over modulo every alignment, and the same overlaps)."""
    def work(count):
        path = _schema(tmp_path, count)

        def run():
            assert main(["explain", path, *options]) == 0
        calls = python_calls(run)
        capsys.readouterr()
        return calls

    work(32)  # the first run fills the caches every run shares
    assert work(100_000_000) == work(16)


def test_a_huge_arrays_picture_stays_small(tmp_path, capsys):
    """The byte map of float32[100000000] members is drawn to scale as one block each: its
    size and the work to draw it are those of a float32[390625]'s (256 times smaller, so
    that its ruler has as many numbered boundaries)."""
    def work(count, suffix):
        calls = python_calls(lambda: _picture(tmp_path, count, suffix))
        capsys.readouterr()
        return calls, len((tmp_path / f"a{count}.{suffix}").read_text())

    for suffix in ("svg", "html"):
        work(3, suffix)
        small_calls, small_size = work(390_625, suffix)
        calls, size = work(100_000_000, suffix)
        assert calls <= small_calls + 50 and size <= small_size + 500, (suffix, calls, size)
        assert size < 60_000


def test_docs_excerpt_of_the_kinds_is_what_explain_prints(tmp_path, capsys, monkeypatch):
    """docs/explain.md's section on the kinds quotes a real report and a real suggestion."""
    from helpers.common import ROOT

    doc = (ROOT / "docs" / "explain.md").read_text()
    section = doc[doc.index("## Arrays, vectors, matrices, enums and rule sets"):
                  doc.index("## Which order is suggested")]
    schema = section.split("```toml\n")[1].split("```")[0]
    plain, suggested = [block.split("```")[0] for block in section.split("```text\n")[1:3]]
    (tmp_path / "scene.toml").write_text(schema)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["explain", "scene.toml"]) == 0
    assert capsys.readouterr().out == plain
    assert main(["explain", "scene.toml", "--type", "light", "--suggest"]) == 0
    assert capsys.readouterr().out == suggested
