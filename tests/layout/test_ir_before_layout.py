"""The IR comes before the layout stage: it names nothing of it, not even for type checkers.

``SchemaType.layout`` holds the layout stage's result (a ``RecordLayout`` or a
``VariantLayout``), but the IR only reads its size, alignment and payload offset, which it
states as a protocol of its own (``ir.schema.LaidOut``) instead of importing the classes
under ``TYPE_CHECKING`` (a back edge a type checker, and anyone reading the imports, sees).
"""

from __future__ import annotations

import ast
import pathlib
import typing

import sarek_layout
from sarek_layout.ir.schema import LaidOut, SchemaType
from sarek_layout.layout import RecordLayout, VariantLayout
from sarek_layout.resolve import load_schema

from helpers.common import EXAMPLES

IR = pathlib.Path(sarek_layout.__file__).parent / "ir"


def _imported(path: pathlib.Path):
    """Every module an import statement of ``path`` names, at any depth (``TYPE_CHECKING``
    blocks and functions included), as written (``..layout.core``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def test_no_ir_module_imports_the_layout_stage():
    found = [(p.name, m) for p in sorted(IR.glob("*.py")) for m in _imported(p)
             if m.lstrip(".").split(".")[0] == "layout" or m.startswith("sarek_layout.layout")]
    assert found == [], f"the IR imports the layout stage: {found}"


def test_a_schema_type_still_holds_the_layout_result():
    schema = load_schema([str(EXAMPLES / "geometry.toml")])
    particle, shape = schema.by_c_name("Geometry_particle"), schema.by_c_name("Geometry_shape")
    assert isinstance(particle.layout, RecordLayout) and isinstance(shape.layout, VariantLayout)
    assert (shape.size, shape.align, shape.payload_offset) == (24, 8, 8)
    assert (particle.size, particle.align, particle.payload_offset) == (32, 8, 0)
    # The annotations resolve from the IR alone (they named a class imported only for
    # type checkers, which ``get_type_hints`` could not find).
    assert typing.get_type_hints(SchemaType)["layout"] is LaidOut
