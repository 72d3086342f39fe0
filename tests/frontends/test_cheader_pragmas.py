"""Packing pragmas (issue 30: item 4, and the ``#pragma pack`` mutants that survived):
``import-c`` on each form, judged by what gcc (and clang, where the two read a form
differently) lays out in the same header.

Each case is a header with two structs, ``ps`` and ``qs``, among pragmas. Each compiler
measures both with the pragmas, and gcc measures them without (the natural layout, the one
``import-c`` would import). From the compilers' numbers only: a struct that a compiler lays
out otherwise is refused, at the place of a pragma of the header; a struct that every
compiler lays out naturally is imported, with the compilers' size, alignment and offsets.
No case says what it expects: the compilers do.
"""

from __future__ import annotations

import re
import shutil
import sys

import pytest

from sarek_layout.cli.main import main

from helpers.hostile import check_refused_bounded
from helpers.real_headers import compiler_numbers, expected_numbers

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="the packing cases are judged by gcc")

WIDE = "uint8_t a; int64_t b;"
#: The issue's mutant: ``{int32 a; int64 b}`` under ``pack(push,2) pack(push,4) pack(pop)``
#: (gcc: b at 4, size 12).
WORD_WIDE = "int32_t a; int64_t b;"


def ps(fields=WIDE, inside=""):
    return ("ps", fields, inside)


def qs(fields=WIDE, inside=""):
    return ("qs", fields, inside)


#: id -> (lines: a pragma line, or a struct; -D macros; whether clang is the compiler
#: that packs, so the case needs it)
CASES = {
    # --- item 4: -fpack-struct through #pragma GCC optimize ---------------------------------
    "optimize_pack_struct": (['#pragma GCC optimize ("pack-struct")', ps(), qs()], (), False),
    "optimize_dash_f": (['#pragma GCC optimize ("-fpack-struct")', ps()], (), False),
    "pragma_operator": (['_Pragma("GCC optimize (\\"pack-struct\\")")', ps()], (), False),
    "in_a_list": (['#pragma GCC optimize ("O2", "pack-struct")', ps()], (), False),
    "in_one_string": (['#pragma GCC optimize ("O2,pack-struct")', ps()], (), False),
    "without_parentheses": (['#pragma GCC optimize "pack-struct"', ps()], (), False),
    "adjacent_strings": (['#pragma GCC optimize ("pa" "ck-struct")', ps()], (), False),
    "escaped": (['#pragma GCC optimize ("pack\\x2dstruct")', ps()], (), False),
    "through_a_macro": (['#define PACK_FROM_HERE _Pragma("GCC optimize (\\"-fpack-struct\\")")',
                         "PACK_FROM_HERE", ps()], (), False),
    "chosen_by_a_define": (["#ifdef PACK_ALL", '#pragma GCC optimize ("pack-struct")', "#endif",
                            ps()], ("PACK_ALL",), False),
    "push_options_pop_options": (["#pragma GCC push_options",
                                  '#pragma GCC optimize ("pack-struct")', ps(),
                                  "#pragma GCC pop_options", qs()], (), False),
    "no_pack_struct": (['#pragma GCC optimize ("pack-struct")', ps(),
                        '#pragma GCC optimize ("no-pack-struct")', qs()], (), False),
    "reset_options": (['#pragma GCC optimize ("-fpack-struct")', ps(),
                       "#pragma GCC reset_options", qs()], (), False),
    "another_level_keeps_it": (['#pragma GCC optimize ("pack-struct")', ps(),
                                '#pragma GCC optimize ("O0")', qs()], (), False),
    "pop_options_without_push": (['#pragma GCC optimize ("pack-struct")',
                                  "#pragma GCC pop_options", ps()], (), False),
    "begun_before_it": ([ps(inside='#pragma GCC optimize ("pack-struct")'), qs()], (), False),
    "pack_struct_n_then_pack_reset": (['#pragma GCC optimize ("-fpack-struct=2")', ps(),
                                       "#pragma pack()", qs()], (), False),
    "other_optimize_options": (['#pragma GCC optimize ("O2", "unroll-loops")', ps()], (),
                               False),
    "optimize_attribute": (['struct __attribute__((optimize("pack-struct"))) ps '
                            '{ uint8_t a; int64_t b; };', "typedef struct ps ps;", qs()], (),
                           False),
    # --- #pragma pack: push and pop as gcc follows them ------------------------------------
    "pop_restores_the_pushed_packing": (["#pragma pack(push, 2)", "#pragma pack(push, 4)",
                                         "#pragma pack(pop)", ps(WORD_WIDE),
                                         "#pragma pack(pop)", qs(WORD_WIDE)], (), False),
    "push_8": (["#pragma pack(push, 8)", ps(WORD_WIDE), "#pragma pack(pop)", qs(WORD_WIDE)],
               (), False),
    "push_16": (["#pragma pack(push, 16)", ps(), "#pragma pack(pop)", qs()], (), False),
    "pack_8_after_1": (["#pragma pack(1)", ps(), "#pragma pack(8)", qs()], (), False),
    "pack_0_resets": (["#pragma pack(1)", ps(), "#pragma pack(0)", qs()], (), False),
    "pop_without_push": (["#pragma pack(1)", "#pragma pack(pop)", ps()], (), False),
    "set_inside_a_push": (["#pragma pack(push, 2)", "#pragma pack(1)", "#pragma pack(push, 4)",
                           "#pragma pack(pop)", ps(), "#pragma pack(pop)", qs()], (), False),
    "pop_to_a_named_push": (["#pragma pack(push, 2)", "#pragma pack(push, inner, 4)",
                             "#pragma pack(push, 1)", "#pragma pack(pop, inner)", ps(),
                             "#pragma pack(pop)", qs()], (), False),
    "id_after_the_value": (["#pragma pack(push, 1, a)", "#pragma pack(push, 4)",
                            "#pragma pack(pop, a)", ps()], (), False),
    "set_inside_the_body": ([ps(inside="#pragma pack(2)"), "#pragma pack()", qs()], (), False),
    "no_parentheses": (["#pragma pack 2", ps()], (), False),
    "gcc_namespace": (["#pragma GCC pack(1)", ps()], (), False),
    # --- forms gcc and clang read differently: refused whoever packs ------------------------
    "a_macro_value": (["#define PACKING 1", "#pragma pack(PACKING)", ps()], (), True),
    "pop_of_an_id_never_pushed": (["#pragma pack(push, 2)", "#pragma pack(push, 4)",
                                   "#pragma pack(pop, never)", ps()], (), False),
    "pack_while_pack_struct": (["#pragma GCC push_options",
                                '#pragma GCC optimize ("pack-struct")', "#pragma pack(1)",
                                "#pragma GCC pop_options", ps()], (), True),
}


def _header(lines):
    """The header's text and the line numbers of its pragma lines."""
    text, pragma_lines = ["#include <stdint.h>"], set()
    for item in lines:
        if isinstance(item, str):
            text.append(item)
            pragma_lines.add(len(text))
            continue
        name, fields, inside = item
        if inside:
            first, second = fields.split(";", 1)
            text += [f"typedef struct {name} {{ {first};", inside, f"{second} }} {name};"]
            pragma_lines.add(len(text) - 1)
        else:
            text.append(f"typedef struct {name} {{ {fields} }} {name};")
    return "\n".join(text) + "\n", pragma_lines


def _natural(lines):
    """The structs alone: what import-c would import."""
    structs = [(name, fields, "") for name, fields, _ in
               (i for i in lines if not isinstance(i, str))]
    if any(isinstance(i, str) and i.startswith("struct __attribute__") for i in lines):
        structs.insert(0, ps())
    return _header(structs)[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_packing_pragma_refuses_what_a_compiler_packs_and_only_that(case, tmp_path, capsys):
    from sarek_layout.resolve import load_schema

    lines, defines, needs_clang = CASES[case]
    compilers = ["gcc"] + (["clang"] if shutil.which("clang") else [])
    if needs_clang and "clang" not in compilers:
        pytest.skip("the compiler that packs in this case is clang (apt-get install clang)")
    text, pragma_lines = _header(lines)
    path = tmp_path / "case.h"
    path.write_text(text)
    natural_path = tmp_path / "natural.h"
    natural_path.write_text(_natural(lines))
    names = sorted({i[0] for i in lines if not isinstance(i, str)}
                   | ({"ps"} if "optimize_attribute" == case else set()))
    probes = {n: (n, ["a", "b"]) for n in names}
    flags = [f"-D{d}" for d in defines]
    natural = compiler_numbers(str(natural_path), probes, str(tmp_path))
    measured = {c: compiler_numbers(str(path), probes, str(tmp_path), c, flags)
                for c in compilers}

    out = tmp_path / "out"
    status = main(["import-c", str(path), "-o", str(out), *flags])
    err = capsys.readouterr().err
    assert status in (0, 1, 2) and "Traceback" not in err, err
    imported = {t.c_name: t for t in load_schema([str(out / "case.toml")])} \
        if (out / "case.toml").exists() else {}
    for name in names:
        keys = [k for k in natural if k == name or k.startswith((f"{name}@", f"{name}."))]
        packers = [c for c in compilers
                   if {k: measured[c][k] for k in keys} != {k: natural[k] for k in keys}]
        if packers:
            assert name not in imported, (name, packers, err)
            # Named when some type imports; the root cause alone when none does (exit 2).
            refusal = re.search(rf"^{re.escape(str(path))}:(\d+):\d+: error: (?:'{name}' not "
                                rf"imported: )?'#pragma [^']*' ", err, re.M)
            assert refusal is not None and int(refusal.group(1)) in pragma_lines, (name, err)
        else:
            assert name in imported, (name, err)
            expected = expected_numbers(imported[name])
            assert {k: measured["gcc"][k] for k in expected} == expected, name


def test_a_packing_pragma_is_refused_in_one_line_and_nothing_is_written(tmp_path):
    # The header, through generate under CPU and memory bounds: exit 2, one line at
    # the pragma's place, nothing written.
    (tmp_path / "packed.h").write_text(
        '#include <stdint.h>\n_Pragma("GCC optimize (\\"pack-struct\\")")\n'
        "typedef struct ps { uint8_t a; int32_t b; } ps;\n")
    check_refused_bounded(["packed.h"], tmp_path, tmp_path, "packed.h:2:1: error: ",
                          ["'#pragma GCC optimize (\"pack-struct\")' packs the structs"])


@pytest.mark.parametrize("pragma", ["#pragma pack(push, 8)", "#pragma GCC push_options",
                                    '#pragma GCC optimize ("pack-struct", "no-pack-struct")'])
def test_many_packing_pragmas_stay_linear(tmp_path, pragma):
    # 200,000 pragmas, then a struct: read in bounded CPU, and the struct judged (refused
    # past the depth the pushes are followed to, or for nothing at all).
    n = 200_000
    (tmp_path / "many.h").write_text("#include <stdint.h>\n" + f"{pragma}\n" * n
                                     + "typedef struct T { uint8_t a; int32_t b; } T;\n")
    if "optimize" in pragma:
        from helpers.bounded import run_cpu_bounded

        proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "import-c", "many.h"],
                               cpu_s=30, text=True, cwd=tmp_path,
                               what="following packing pragmas is not linear")
        assert proc.returncode == 0, proc.stderr[-2000:]
        return
    check_refused_bounded(["many.h"], tmp_path, tmp_path, f"many.h:{2 + 10_000}:1: error: ",
                          ["does not follow", "more than 10000"], command="import-c")
