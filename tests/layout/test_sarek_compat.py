"""Drop-in for Sarek: sources read as Sarek reads them, numbers as the C compiler lays them out.

``float`` in a Sarek type is a 4-byte GPU float: Sarek's PPX marshals a ``float`` record field
as float32 (``Ptyp_constr "float" -> 4 (* GPU float32 *)``) and upstream's
``test_ir_fields.ml`` pins ``type r_flt = {flt_f : float} [@@sarek.type]`` at 4 bytes. So it
is read in every input form, and the layouts are checked against the C compiler (whose
``float`` is 4 bytes too), never against numbers the package computed.
"""

from __future__ import annotations

import pytest

from helpers import c_oracle
from helpers.shapes import mismatches
from sarek_layout.resolve import load_schema

FORMS = {
    "r_flt.ml": "type r_flt = { flt_f : float } [@@sarek.type]\n"
                "type mixed = { a : float; b : float64; c : int } [@@sarek.type]\n"
                "type v = Fl of float | Pair of float * float64 | Nothing [@@sarek.type]\n",
    "r_flt.json": '{"module": "R_flt", "types": ['
                  '{"record": "r_flt", "fields": [["flt_f", "float"]]},'
                  '{"record": "mixed", "fields": [["a", "float"], ["b", "float64"], ["c", "int"]]},'
                  '{"variant": "v", "constructors": [["Fl", ["float"]], ["Pair", ["float", "float64"]], ["Nothing"]]}]}',
    "r_flt.toml": 'module = "R_flt"\n[[types]]\nrecord = "r_flt"\nfields = [["flt_f", "float"]]\n'
                  '[[types]]\nrecord = "mixed"\nfields = [["a", "float"], ["b", "float64"], ["c", "int"]]\n'
                  '[[types]]\nvariant = "v"\n'
                  'constructors = [["Fl", ["float"]], ["Pair", ["float", "float64"]], ["Nothing"]]\n',
}

# The same types as a C programmer writes them: float is 4 bytes.
C_DESCRIPTIONS = [
    ("record", "r_flt", [("flt_f", "float32")]),
    ("record", "mixed", [("a", "float32"), ("b", "float64"), ("c", "int32")]),
    ("variant", "v", [("Fl", ["float32"]), ("Pair", ["float32", "float64"]), ("Nothing", [])]),
]


@pytest.fixture(scope="module")
def measured():
    return c_oracle.measure(C_DESCRIPTIONS)


@pytest.mark.parametrize("filename", sorted(FORMS))
def test_float_is_the_4_byte_gpu_float_in_every_form(tmp_path, filename, measured):
    path = tmp_path / filename
    path.write_text(FORMS[filename])
    schema = load_schema([str(path)])
    assert [t.c_name for t in schema.types] == ["R_flt_r_flt", "R_flt_mixed", "R_flt_v"]
    assert schema.types[0].size == 4  # upstream's pinned value
    for st in schema.types:
        assert mismatches(st.name, st.layout, measured[st.name]) == []
        for m in st.members:
            if m.spelling == "float":
                assert m.scalar is not None and m.scalar.name == "float32"
