"""atheris harness: the JSON and TOML schema readers, through ``load_schema`` (read, resolve,
lay out). Each input is read as a ``.json`` file and as a ``.toml`` file: the two syntaxes
share one structure checker, and a mutation that helps one often helps the other.

Run through ``make fuzz`` (``fuzz/run.py``), or by hand:
``.venv/bin/python fuzz/fuzz_jsontoml.py -artifact_prefix=build/fuzz/artifacts/ CORPUS``.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import Scratch, check_refusal, instrument, main  # noqa: E402

with instrument():
    from sarek_layout.errors import SarekLayoutError
    from sarek_layout.resolve import load_schema
    import sarek_layout.frontends.jsontoml.reader  # noqa: F401 - imported lazily by load_schema
    import sarek_layout.frontends.jsontoml.positions  # noqa: F401
    import sarek_layout.resolve.resolver  # noqa: F401

SCRATCH = {suffix: Scratch("fuzz" + suffix) for suffix in (".json", ".toml")}


def test_one_input(data: bytes) -> None:
    for scratch in SCRATCH.values():
        path = scratch.write(data)
        try:
            load_schema([path])
        except SarekLayoutError as e:
            check_refusal(e)


if __name__ == "__main__":
    main(test_one_input)
