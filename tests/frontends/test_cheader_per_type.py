"""``import-c`` per type (issue 22, items 1 and 2): every struct the rules can express
imports, each refused one is reported at its place with its reason in the same run, and an
extension refuses only the types whose layout it changes.

The layouts of what imports are compared with gcc's on the original header (one probe per
header, ``helpers.real_headers.gcc_probe``): the numbers come from the compiler, not from
this package. Before issue 22 every header here was refused whole, on its first problem.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from sarek_layout.cli.main import main

from helpers.bounded import run_cpu_bounded
from helpers.real_headers import expected_numbers, gcc_probe

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None,
                                reason="reading C headers and the gcc probe need gcc")

MIXED = """\
#include <stdint.h>
typedef int sarek_word_t __attribute__((mode(word)));
typedef float sarek_v4 __attribute__((vector_size(16)));
typedef struct good { int32_t a; double b; } good __attribute__((deprecated));
struct plain { float x; float y; } __attribute__((visibility("default")));
typedef struct bad { int32_t a; char c; } bad;
typedef struct uses_bad { bad b; good g; } uses_bad;
typedef struct uses_uses { uses_bad u; } uses_uses;
struct packed_s { int32_t a; int64_t b; } __attribute__((packed));
typedef struct word { sarek_word_t w; } word;
typedef struct withplain { struct plain p; int32_t n; } withplain;
typedef struct bits { int32_t a : 3; } bits;
#pragma pack(push, 2)
struct inpack { int32_t a; double b; };
#pragma pack(pop)
struct afterpack { int32_t a; double b; };
typedef struct overaligned { int32_t a __attribute__((aligned(16))); } overaligned;
"""

#: type -> (line:col of its refusal, words the reason must hold)
REFUSED = {
    "bad": ("6:38", ["member 'c' of 'bad'", "char has no Sarek layout"]),
    "uses_bad": ("7:31", ["member 'b' of 'uses_bad' has type 'bad'", "not imported",
                          "6:38: member 'c' of 'bad'"]),
    "uses_uses": ("8:37", ["member 'u' of 'uses_uses' has type 'uses_bad' → 'bad'",
                           "not imported"]),
    "packed_s": ("9:43", ["'packed_s' not imported", "packs the struct"]),
    "word": ("10:36", ["member 'w' of 'word' has type 'sarek_word_t'", "2:26:",
                       "changes the size of the type"]),
    "bits": ("12:31", ["member 'a' of 'bits' is a bit-field"]),
    "inpack": ("13:1", ["'inpack' not imported", "#pragma pack(push, 2)"]),
    "overaligned": ("17:40", ["'overaligned' not imported", "sets alignment 16"]),
}
IMPORTED = ["good", "plain", "withplain", "afterpack"]


def _write(tmp_path, text, name="mixed.h"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _check_against_gcc(path, schema_path, tmp_path, plain=()):
    """Every imported type's size, alignment and offsets equal gcc's on ``path``."""
    from sarek_layout.resolve import load_schema

    schema = load_schema([str(schema_path)])
    types = list(schema)
    measured = gcc_probe(str(path), types, {c: f"struct {c}" for c in plain}, str(tmp_path))
    for t in types:
        expected = expected_numbers(t)
        assert {k: measured[k] for k in expected} == expected, t.c_name
    return [t.c_name for t in types]


def test_each_type_is_judged_alone_and_every_refusal_is_reported(tmp_path, capsys):
    path = _write(tmp_path, MIXED)
    out = tmp_path / "out"
    assert main(["import-c", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    refusals = [line for line in err if ": error: " in line]
    assert len(refusals) == len(REFUSED), err
    for c_name, (where, words) in REFUSED.items():
        lines = [line for line in refusals if line.startswith(f"{path}:{where}: error: ")
                 and f"'{c_name}'" in line]
        assert len(lines) == 1, (c_name, err)
        for word in words:
            assert word in lines[0], (c_name, lines[0])
    assert f"{len(IMPORTED)} types imported, {len(REFUSED)} refused" in err
    imported = _check_against_gcc(path, out / "mixed.toml", tmp_path,
                                  plain=("plain", "afterpack"))
    assert imported == IMPORTED


def test_a_named_type_imports_with_the_types_it_uses_and_nothing_else(tmp_path, capsys):
    path = _write(tmp_path, MIXED)
    out = tmp_path / "out"
    assert main(["import-c", str(path), "-o", str(out), "--type", "withplain"]) == 0
    assert ": error: " not in capsys.readouterr().err
    assert _check_against_gcc(path, out / "mixed.toml", tmp_path,
                              plain=("plain",)) == ["plain", "withplain"]


def test_a_named_type_that_is_refused_fails_the_run_naming_the_chain(tmp_path, capsys):
    path = _write(tmp_path, MIXED)
    out = tmp_path / "out"
    assert main(["import-c", str(path), "-o", str(out), "--type", "uses_uses",
                 "--type", "good"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:8:37: error: member 'u' of 'uses_uses' has type 'uses_bad' → 'bad'" in err
    assert f"{path}:6:38: error: member 'c' of 'bad'" in err
    assert not out.exists()
    assert main(["import-c", str(path), "--type", "nosuch"]) == 2
    assert "--type nosuch: no header given declares a struct of that name" in \
        capsys.readouterr().err


def test_nothing_importable_is_exit_2_with_the_schema_commands_lines(tmp_path, capsys):
    path = _write(tmp_path, "#include <stdint.h>\ntypedef struct A { char c; } A;\n"
                            "typedef struct B { A a; int32_t *p; } B;\n", "none.h")
    assert main(["layout", str(path)]) == 2
    layout_err = capsys.readouterr().err
    assert main(["import-c", str(path)]) == 2
    stdout, err = capsys.readouterr()
    assert (stdout, err) == ("", layout_err)
    # Both root causes, each at its place, in one run (a knock-on is not repeated).
    assert err.count("\n") == 2 and f"{path}:2:25:" in err and f"{path}:3:34:" in err, err


def test_a_layout_extension_on_a_type_not_imported_changes_nothing(tmp_path, capsys):
    # An unused vector_size typedef, a mode typedef, a global _Alignas(8) variable, an
    # attribute on a function and deprecated/visibility on the struct: the header imports.
    path = _write(tmp_path, """\
#include <stdint.h>
typedef float v4 __attribute__((vector_size(16)));
typedef int word_t __attribute__((mode(word)));
_Alignas(8) double g;
int f(int x) __attribute__((aligned(16)));
typedef struct __attribute__((deprecated)) T { int32_t a; double b; } T __attribute__((visibility("hidden")));
""", "fine.h")
    out = tmp_path / "out"
    assert main(["import-c", str(path), "-o", str(out)]) == 0, capsys.readouterr().err
    assert _check_against_gcc(path, out / "fine.toml", tmp_path) == ["T"]
    assert main(["layout", str(path)]) == 0  # and as a schema


def test_an_aligned_unsigned_member_is_refused_for_its_type_not_its_alignment(tmp_path, capsys):
    # The kernel's __aligned_u64: the alignment of 8 is the member's natural one once its
    # type has a layout; where the type has none, that is the reason said.
    path = _write(tmp_path, "#include <stdint.h>\n"
                            "typedef struct K { uint64_t a __attribute__((aligned(8))); } K;\n",
                  "k.h")
    status = main(["import-c", str(path)])
    err = capsys.readouterr().err
    assert "natural alignment in Sarek's layout is 4" not in err
    assert status == 0 or "member 'a' of 'K' has type 'uint64_t'" in err, err


def test_a_long_chain_of_refusals_is_linear_and_each_line_bounded(tmp_path):
    # 3,000 structs, each holding the one before; the first is refused: every one is
    # refused naming the root, with a line of bounded length, in bounded CPU time.
    n = 3000
    lines = ["#include <stdint.h>", "typedef struct s0 { char c; } s0;"]
    lines += [f"typedef struct s{i} {{ s{i - 1} m; }} s{i};" for i in range(1, n)]
    path = _write(tmp_path, "\n".join(lines) + "\n", "chain.h")
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "import-c", str(path)],
                           cpu_s=60, text=True, cwd=os.getcwd(),
                           what="refusing a chain of types is not linear")
    assert proc.returncode == 2, proc.stderr[-2000:]
    err = proc.stderr.splitlines()
    assert len(err) == 1 and "member 'c' of 's0'" in err[0]
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "import-c", str(path),
                            "--type", f"s{n - 1}"], cpu_s=60, text=True,
                           what="refusing a chain of types is not linear")
    err = proc.stderr.splitlines()
    # Every one of the n types is refused; the command line shows the first 50 of them.
    assert proc.returncode == 2 and err[-1].endswith(f"{n - 50} more errors not shown"), err[-1]
    assert max(len(line) for line in err) < 600
    assert "'s48' → 's47' → 's46' → 's45' → … → 's0'" in err[-2], err[-2]


@pytest.mark.parametrize("case", ["many_attributed_names", "deep_bodies", "pragma_over_many"])
def test_judging_extensions_stays_linear_on_hostile_headers(tmp_path, case):
    # What an extension changes is noted per declaration and per body, never copied per
    # attribute nor per nesting level: 40,000 attributed names in one declaration, 20,000
    # nested bodies with an attribute inside, a packing pragma over 40,000 structs.
    n = 40_000
    if case == "many_attributed_names":
        body = ("typedef int " + ", ".join(f"w{i} __attribute__((mode(word)))" for i in range(n))
                + ";\ntypedef struct T { w1 a; int32_t b; } T;\ntypedef struct G { int32_t g; } G;\n")
    elif case == "deep_bodies":
        body = ("struct D { " + "struct { " * 20_000 + "int x __attribute__((aligned(16)));"
                + " } m;" * 20_000 + " };\ntypedef struct T { int32_t b; } T;\n")
    else:
        body = "#pragma pack(1)\n" + "".join(f"struct s{i} {{ int32_t a; }};\n" for i in range(n))
    path = _write(tmp_path, "#include <stdint.h>\n" + body, "hostile.h")
    proc = run_cpu_bounded([sys.executable, "-m", "sarek_layout", "import-c", str(path)],
                           cpu_s=60, text=True, what="judging extensions is not linear")
    assert proc.returncode in (1, 2), proc.stderr[-2000:]
    if case == "many_attributed_names":
        assert proc.returncode == 1 and "member 'a' of 'T' has type 'w1'" in proc.stderr


def test_the_bundled_libc_has_what_real_headers_test_and_use(tmp_path, capsys):
    # png.h's `#if CHAR_BIT != 8 #error`, <stdarg.h>'s va_list in a prototype, UINT64_C,
    # the real div_t, and CL/cl_platform.h's SSE include behind __SSE__ (the GNU host
    # macros import-c reads with): the struct with an __m128 member is refused for it alone.
    path = _write(tmp_path, """\
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#if CHAR_BIT != 8 || UCHAR_MAX != 255 || INT_MAX != 2147483647
#error "needs 8-bit bytes"
#endif
#if defined(__SSE__)
#include <xmmintrin.h>
typedef struct V { __m128 v; } V;
#endif
int vlog(const char *fmt, va_list ap);
enum { BIG = UINT64_C(1) << 40 > 0 };
typedef struct R { div_t d; int64_t n; size_t *p_unused_in_no_struct; } R;
typedef struct Q { int32_t q; double w; } Q;
""", "libc.h")
    out = tmp_path / "out"
    status = main(["import-c", str(path), "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 1, err
    # R is refused (its pointer); div_t is read (the targets whose compilers declare that
    # name judge it when they are emitted) and, as Q, laid out as gcc lays it out.
    assert "'R'" in err and "pointer" in err, err
    if "__SSE__" in subprocess_defines():
        assert f"{path}:11:" in err and "vector" in err, err
    assert _check_against_gcc(path, out / "libc.toml", tmp_path) == ["div_t", "Q"]


def subprocess_defines() -> str:
    import subprocess

    return subprocess.run(["gcc", "-dM", "-E", "-x", "c", "/dev/null"], capture_output=True,
                          text=True).stdout


def test_a_plain_struct_in_the_tagged_variant_shape_imports_as_a_variant(tmp_path, capsys):
    path = _write(tmp_path, """\
#include <stdint.h>
struct shape { int32_t tag; union { float Circle_v; struct { float _0; double _1; } Rect_v; } data; };
enum { shape_Circle = 0, shape_Rect = 1, shape_Empty = 2 };
struct holder { int32_t n; };
""", "plainvar.h")
    out = tmp_path / "out"
    assert main(["import-c", str(path), "-o", str(out)]) == 0, capsys.readouterr().err
    assert _check_against_gcc(path, out / "plainvar.toml", tmp_path,
                              plain=("shape", "holder")) == ["shape", "holder"]
    assert 'variant = "shape"' in (out / "plainvar.toml").read_text()
