"""Each emitted name and each scalar fact has one definition, read from the source.

- The arm suffix ``_v``, the ``make_`` prefix and the padding prefix ``_sarek_`` (with the
  members built from it: ``_sarek_pad``, ``_sarek_bytes``, ``_sarek_src``, ``_sarek_v``)
  appear as string literals only in ``targets/naming.py``: every producer and reader-back
  builds or recognises them through it.
- Scalar names appear as string literals only in the scalar table (``ir/types.py``) and the
  per-language spellings (``targets/dialects.py``, ``targets/spellings.py``); every other
  module asks the table (``Scalar.sub_word``, ``scalars_where``…). ``host/_runtime.py`` is
  pasted verbatim into generated Python modules, which cannot import the table.
  A comparison with a scalar's ``kind`` (``"bool"``, ``"unit"``) is a kind, not a name.
"""

from __future__ import annotations

import ast
import pathlib
import re
from typing import Iterator, Set, Tuple

from sarek_layout.ir.types import SCALARS

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "sarek_layout"

NAMING = {"targets/naming.py"}
SCALAR_TABLE = {"ir/types.py", "targets/dialects.py", "targets/spellings.py", "host/_runtime.py",
                "host/_runtime_kinds.py"}  # the runtime pasted into generated modules: its own rows
#: Known leftovers, (module, literal): ``bool`` is also a type word of SPIR-V, GLSL, WGSL and
#: MSL, which the shading languages' model (``verify.shaders``) names once, in ``types.py``.
LEFTOVERS = {("verify/shaders/types.py", "bool")}

#: An emitted name's literal: the bare affix, or a name built with it.
_EMITTED = re.compile(r"\A(?:_v|make_|_sarek_)\Z|_sarek_(?:pad|bytes|src|v)\b|\bmake_\Z")


def _docstrings(tree: ast.AST) -> Set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            out.add(id(node.value))
    return out


def _kind_comparisons(tree: ast.AST) -> Set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any((isinstance(s, ast.Attribute) and s.attr == "kind")
                   or (isinstance(s, ast.Name) and s.id == "kind") for s in sides):
                out.update(id(s) for s in sides)
    return out


def _literals(skip: Set[str]) -> Iterator[Tuple[str, int, str, ast.Constant, Set[int]]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in skip:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        kinds = _kind_comparisons(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docs):
                yield rel, node.lineno, node.value, node, kinds


def _f_string_affixes(skip: Set[str]) -> Iterator[Tuple[str, int, str]]:
    """``f"{ctor}_v"`` and ``f"make_{c_name}"``: an affix glued to a formatted name."""
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                parts = node.values
                for i, part in enumerate(parts):
                    if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                        continue
                    after = i > 0 and isinstance(parts[i - 1], ast.FormattedValue)
                    before = i + 1 < len(parts) and isinstance(parts[i + 1], ast.FormattedValue)
                    if (after and re.match(r"_v\b", part.value)) or \
                            (before and re.search(r"\bmake_\Z", part.value)):
                        yield rel, node.lineno, part.value


def test_emitted_names_are_spelled_in_the_naming_module_only():
    found = [f"{rel}:{line}: {value!r}" for rel, line, value, _, _ in _literals(NAMING)
             if _EMITTED.search(value)]
    found += [f"{rel}:{line}: f-string piece {value!r}"
              for rel, line, value in _f_string_affixes(NAMING)]
    assert not found, ("emitted names spelled outside targets/naming.py (use its constants "
                       "and functions):\n" + "\n".join(found))


def test_no_module_outside_the_scalar_table_lists_scalar_names():
    # The aliases (``int``, ``float``) are words of every language too: left out.
    names = set(SCALARS)
    found = [f"{rel}:{line}: {value!r}" for rel, line, value, node, kinds
             in _literals(SCALAR_TABLE) if value in names and id(node) not in kinds
             and (rel, value) not in LEFTOVERS]
    assert not found, ("scalar names outside the scalar table (ask ir.types: "
                       "Scalar predicates, scalars_where, TInt32.name…):\n" + "\n".join(found))


def test_the_checks_see_what_they_look_for():
    # The two scanners are live: the naming module itself holds the literals they refuse.
    assert any(_EMITTED.search(v) for rel, _, v, _, _ in _literals(set()) if rel in NAMING)
    assert any(v in SCALARS for rel, _, v, _, _ in _literals(set()) if rel == "ir/types.py")
