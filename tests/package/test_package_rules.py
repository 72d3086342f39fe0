"""Rules of the package's shape, read from its source (nothing is imported or run).

- **No import cycle** among the package's modules at run time, lazy (function-level)
  imports included: importing a module runs its imports, and a cycle makes the result depend
  on which module is imported first. Imports under ``if TYPE_CHECKING:`` never run and are
  left out; importing ``a.b.c`` also runs ``a.b``'s ``__init__``.
- **No import from a lower stage to a higher one**, in the pipeline order ``STAGES`` (the
  order docs/extending.md draws).
- **One definition of each emitted name and scalar fact**: the arm suffix ``_v``, the
  ``make_`` prefix and the padding prefix ``_sarek_`` appear as string literals only in
  ``targets/naming.py``, and scalar names only in the scalar table and the spellings.
"""

from __future__ import annotations

import ast
import pathlib
from typing import Dict, Iterator, List, Set, Tuple

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "sarek_layout"

#: The stages, lowest first: a module may import only from its own stage or lower ones. Each
#: entry is a module or package path under ``sarek_layout`` (the longest match decides).
STAGES: Tuple[Tuple[str, ...], ...] = (
    ("_version", "errors", "interrupts"),
    ("ir",),
    ("targets",),
    ("frontends",),
    ("layout",),
    ("resolve",),
    ("host",),
    ("codegen",),
    ("report", "explain", "schema_writers", "abi"),
    ("verify",),
    ("cli", "pytest_plugin", "__main__", "__init__"),
)


def _modules() -> Dict[str, Tuple[pathlib.Path, bool]]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


MODULES = _modules()


def _known(name: str) -> str:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _type_checking_nodes(tree: ast.AST) -> Set[int]:
    skipped: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skipped


def _imports(module: str) -> Iterator[Tuple[str, int]]:
    """(module imported, line) for each import ``module`` can run."""
    path, is_package = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_nodes(tree)
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        targets: List[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            targets = [f"{full}.{a.name}" if f"{full}.{a.name}" in MODULES else full
                       for a in node.names]
        for target in targets:
            if not target.startswith("sarek_layout"):
                continue
            found = _known(target)
            if found != module:
                yield found, node.lineno
            # Importing a.b.c runs a.b's __init__ first (a's is running already when a.x
            # imports it: the packages above ``module`` are left out, unless named).
            parts = found.split(".")
            for i in range(2, len(parts)):
                name = ".".join(parts[:i])
                if name != module and not module.startswith(name + "."):
                    yield name, node.lineno


GRAPH: Dict[str, Dict[str, int]] = {
    m: {t: line for t, line in _imports(m)} for m in MODULES
}


def _cycles() -> List[List[str]]:
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    found: List[List[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle():
    cycles = _cycles()
    assert not cycles, "import cycles (lazy imports included):\n" + "\n".join(
        " <-> ".join(c) + "\n    " + "; ".join(
            f"{a} -> {b} (line {GRAPH[a][b]})" for a in c for b in c if b in GRAPH[a])
        for c in cycles)


def stage_of(module: str) -> int:
    rest = module.split(".", 1)[1] if "." in module else "__init__"
    best, rank = "", -1
    for i, names in enumerate(STAGES):
        for name in names:
            if (rest == name or rest.startswith(name + ".")) and len(name) > len(best):
                best, rank = name, i
    assert rank >= 0, f"{module} is in no stage of STAGES: add it there and to docs/extending.md"
    return rank


def test_every_module_has_a_stage():
    for module in MODULES:
        stage_of(module)


def test_no_import_runs_up_the_pipeline():
    wrong = [f"{a} (stage {STAGES[stage_of(a)]}) imports {b} (stage {STAGES[stage_of(b)]}), "
             f"line {line}"
             for a, targets in sorted(GRAPH.items()) for b, line in sorted(targets.items())
             if stage_of(b) > stage_of(a)]
    assert not wrong, "imports from a lower stage to a higher one:\n" + "\n".join(wrong)
