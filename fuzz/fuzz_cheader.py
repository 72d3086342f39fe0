"""atheris harness: the C header reader (``import-c``), on the preprocessed stage.

The reader runs ``cpp`` on the header, under limits, then scans the output for layout
extensions (``frontends/c/extensions``), parses it (pycparser, ``frontends/c/reader``), maps positions back
(``c_places``) and builds the schema (``cheader``, ``c_namespace``, ``c_enums``), then
resolves and lays it out. Starting a preprocessor per input costs some 10 ms, a hundred
times the rest, so by default each input *is* the preprocessor's output: ``preprocess`` is
replaced by one that returns the input as the text cpp printed for the header (the header
file holds the same bytes, so positions map back to it). What this leaves out is cpp itself
and the ``#include`` checks before it, which ``tests/hostile/test_hostile_inputs.py`` covers.
``SAREK_FUZZ_CPP=1`` runs the real preprocessor instead (seeds are then plain headers).

The seed corpus (``fuzz/run.py``) is the C headers of the tests, each preprocessed once.
"""

from __future__ import annotations

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import Scratch, check_refusal, instrument, main  # noqa: E402

with instrument():
    from sarek_layout.errors import SarekLayoutError
    from sarek_layout.resolve import load_schema
    from sarek_layout.frontends.c import header as cheader, preprocess as c_preprocess
    import sarek_layout.frontends.c.enums  # noqa: F401 - imported lazily by load_schema
    import sarek_layout.frontends.c.extensions  # noqa: F401
    import sarek_layout.frontends.c.modules  # noqa: F401
    import sarek_layout.frontends.c.namespace  # noqa: F401
    import sarek_layout.frontends.c.places  # noqa: F401
    import sarek_layout.frontends.c.reader  # noqa: F401
    import sarek_layout.resolve.resolver  # noqa: F401

SCRATCH = Scratch("fuzz.h")


#: The name line markers of the seeds give the header (``fuzz/run.py`` preprocesses each
#: seed as ``fuzz.h``): it stands for the scratch file's own path.
SEED_NAME = '"fuzz.h"'
#: What cpp reports as included for any header: the bundled fake libc, all of it.
FAKE_LIBC_FILES = frozenset(
    os.path.join(c_preprocess.FAKE_LIBC, name) for name in os.listdir(c_preprocess.FAKE_LIBC))


#: A line marker's file name holding a NUL byte. cpp never prints one: gcc's and clang's cut
#: the name at the NUL (``#line 2 "f\0uzz.h"`` and ``"f\000uzz.h"`` both print ``# 2 "f"``).
_NUL_IN_MARKER = re.compile(r'^([ \t]*#[^"\n]*"(?:[^"\\\n\0]|\\.)*)\0(?:[^"\\\n]|\\.)*', re.M)


def _as_preprocessed(path, include_dirs=(), defines=(), **_ignored):
    """The input as cpp's output for ``path``, decoded as ``preprocess`` decodes it."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "surrogateescape")
    text = _NUL_IN_MARKER.sub(r"\1", text)  # as cpp prints such a marker
    text = text.replace(SEED_NAME, '"' + c_preprocess.cpp_quote(path) + '"')
    return c_preprocess.Preprocessed(text, FAKE_LIBC_FILES)


if os.environ.get("SAREK_FUZZ_CPP") != "1":
    cheader.preprocess = _as_preprocessed


def test_one_input(data: bytes) -> None:
    path = SCRATCH.write(data)
    try:
        load_schema([path])
    except SarekLayoutError as e:
        check_refusal(e)


if __name__ == "__main__":
    main(test_one_input)
