"""atheris harness: the DWARF reader of ``verify --object`` (``verify/dwarf.py``) and the
comparison and report built on it (``verify/objects.py``), on the bytes of an ELF object or
an ``ar`` archive, against the bundled example schema.

Contract: a report (formatted, as the command prints it) or an ``ObjectError`` (exit 2),
never another exception, a hang or a memory explosion. Instrumented: ``sarek_layout``;
``SAREK_FUZZ_ELFTOOLS=1`` adds pyelftools (``elftools``), the parser that reads the bytes
first, so that the fuzzer sees how far into an ELF file an input gets, at a quarter of the
speed (pyelftools alone runs some 70 inputs a second).

Seeds: ``fuzz/seeds/dwarf/``, small objects gcc built from the example's generated header
(DWARF 2, 4 and 5; x86-64, i386, AArch64, big-endian ppc64; ``-gz=zlib``; an archive).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import Scratch, check_refusal, instrument, main  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

with instrument(*(["elftools"] if os.environ.get("SAREK_FUZZ_ELFTOOLS") == "1" else [])):
    import elftools.elf.elffile  # noqa: F401 - imported lazily by the reader
    import elftools.dwarf.dwarfinfo  # noqa: F401
    from sarek_layout.errors import SarekLayoutError
    from sarek_layout.resolve import load_schema
    from sarek_layout.verify.objects import verify_objects

SCHEMA = load_schema([os.path.join(ROOT, "examples", "geometry.toml")])
SCRATCH = Scratch("fuzz.o")


def test_one_input(data: bytes) -> None:
    path = SCRATCH.write(data)
    try:
        verify_objects(SCHEMA, [path]).format()
    except SarekLayoutError as e:
        check_refusal(e)


if __name__ == "__main__":
    main(test_one_input)
