"""atheris harness: the OCaml (``[@@sarek.type]``) schema reader, through ``load_schema``
(lex, parse, resolve, lay out).

Run through ``make fuzz`` (``fuzz/run.py``), or by hand:
``.venv/bin/python fuzz/fuzz_ocaml.py -artifact_prefix=build/fuzz/artifacts/ CORPUS``.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import Scratch, check_refusal, instrument, main  # noqa: E402

with instrument():
    from sarek_layout.errors import SarekLayoutError
    from sarek_layout.resolve import load_schema
    import sarek_layout.frontends.ocaml.reader  # noqa: F401 - imported lazily by load_schema
    import sarek_layout.resolve.resolver  # noqa: F401

SCRATCH = Scratch("fuzz.ml")


def test_one_input(data: bytes) -> None:
    path = SCRATCH.write(data)
    try:
        load_schema([path])
    except SarekLayoutError as e:
        check_refusal(e)


if __name__ == "__main__":
    main(test_one_input)
