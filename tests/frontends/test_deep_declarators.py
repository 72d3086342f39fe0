"""C declarators nested deep: 1,000 '*', 1,500 array dimensions, 3,000 chained pointer
typedefs ended in a RecursionError traceback in ``layout``, ``import-c`` and
``verify --header`` (the type was spelled recursively, one Python frame per level; 500 '*'
still gave the proper refusal). Now a declarator of more than ``MAX_DECLARATOR_LEVELS``
pointers or dimensions in a row is refused at its place before pycparser parses it (which
is quadratic in them: 20,000 dimensions took 80 s), and a typedef chain of any length is
spelled in one loop. Exit 2, one line, nothing written, bounded time and memory.
"""

from __future__ import annotations

import shutil

import pytest

from helpers.hostile import check_refused_bounded, run_bounded
MAX_DECLARATOR_LEVELS = 100  # c_reader.MAX_DECLARATOR_LEVELS

pytestmark = pytest.mark.skipif(shutil.which("cpp") is None and shutil.which("gcc") is None,
                                reason="reading C headers needs cpp (apt-get install cpp)")

HEAD = "#include <stdint.h>\n\n"
DEEP = "nested too deeply (more than 100"

CASES = [
    ("stars_1000", HEAD + "typedef struct T { int32_t x;\n  int " + "*" * 1000 + "p; } T;\n",
     "4:7", [DEEP, "pointers in a row"]),
    ("qualified_stars", HEAD + "typedef struct T { int " + "* const " * 101 + "p; } T;\n",
     "3:24", [DEEP, "pointers in a row"]),
    ("dimensions_1500", HEAD + "typedef struct T { int a" + "[1]" * 1500 + "; } T;\n", "3:25",
     [DEEP, "array dimensions in a row"]),
    ("dimensions_20000", HEAD + "typedef struct T { int a" + "[1]" * 20000 + "; } T;\n", "3:25",
     [DEEP, "array dimensions in a row"]),
    ("pointer_typedefs_3000", HEAD + "typedef int t0;\n"
     + "".join(f"typedef t{i} *t{i + 1};\n" for i in range(3000))
     + "typedef struct T { t3000 p; } T;\n", "3004:26", ["member 'p' of 'T' is a pointer"]),
    ("array_typedefs_3000", HEAD + "typedef int t0;\n"
     + "".join(f"typedef t{i} t{i + 1}[1];\n" for i in range(3000))
     + "typedef struct T { t3000 p; } T;\n", "3004:26", ["member 'p' of 'T' is an array"]),
    # At the limit: read, and refused for what it is.
    ("stars_at_the_limit", HEAD + "typedef struct T { int " + "*" * MAX_DECLARATOR_LEVELS
     + "p; } T;\n", f"3:{24 + MAX_DECLARATOR_LEVELS}", ["member 'p' of 'T' is a pointer"]),
]


@pytest.mark.parametrize("command", ["import-c", "layout", "generate"])
@pytest.mark.parametrize("name, source, where, fragments", CASES, ids=[c[0] for c in CASES])
def test_a_deep_declarator_is_refused_in_one_line(name, source, where, fragments, command,
                                                   tmp_path):
    header = tmp_path / f"{name}.h"
    header.write_text(source)
    if command == "layout":
        proc = run_bounded(["-m", "sarek_layout", "layout", str(header)], tmp_path)
        err = proc.stderr.decode()
        assert proc.returncode == 2 and proc.stdout == b"", err[-2000:]
        assert "Traceback" not in err and len(err.splitlines()) == 1, err[-2000:]
        line = err.splitlines()[0]
        assert line.startswith(f"{header}:{where}: error: "), line[:300]
        assert all(f in line for f in fragments), line[:300]
    else:
        check_refused_bounded([str(header)], tmp_path, tmp_path, f"{header}:{where}: error: ",
                              fragments, command=command)


@pytest.mark.parametrize("name, source, where, fragments", CASES, ids=[c[0] for c in CASES])
def test_verify_header_reports_a_deep_declarator_without_a_traceback(name, source, where,
                                                                      fragments, tmp_path):
    header = tmp_path / f"{name}.h"
    header.write_text(source)
    schema = tmp_path / "t.toml"
    schema.write_text('module = ""\n[[types]]\nrecord = "T"\nfields = [["p", "int32"]]\n')
    proc = run_bounded(["-m", "sarek_layout", "verify", str(schema), "--header", str(header),
                        "--toolchain", "gcc"], tmp_path)
    out = proc.stdout.decode() + proc.stderr.decode()
    assert "Traceback" not in out and "RecursionError" not in out, out[-3000:]
    assert proc.returncode in (1, 2), out[-3000:]
    # (verify's structure report may point one column off from the readers: its own code)
    assert f"{header}:{where.split(':')[0]}:" in out, out[-3000:]
