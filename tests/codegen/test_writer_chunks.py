"""The writer encodes and compares a large text a chunk at a time, with the same result.

A 10,000-type header is 16 MB of text; encoding it whole for the comparison with the old file
and for the write was the last step of ``generate``'s peak memory (docs/benchmarks.md). The
chunks must give exactly the bytes of the whole text encoded, characters that take several
bytes straddling a chunk boundary included, and a change anywhere (first chunk, last byte,
length) must still be seen.
"""

from __future__ import annotations

import tracemalloc

import pytest

from sarek_layout.codegen import writer
from sarek_layout.codegen.writer import write_files

_BIG = 16 << 20  # characters: a 10,000-type header


def _text(n: int) -> str:
    # Multi-byte characters at every position relative to the chunk boundary.
    unit = "struct a { float x; } /* \u00e9\u20ac\U0001f600 */\n"
    return (unit * (n // len(unit) + 1))[:n]


@pytest.mark.parametrize("length", [0, 1, writer._CHUNK - 1, writer._CHUNK, writer._CHUNK + 1,
                                    3 * writer._CHUNK + 7])
def test_chunked_writes_are_the_text_encoded(tmp_path, length):
    path = tmp_path / "out.h"
    text = _text(length)
    assert write_files([(str(path), text)]) == [True]
    assert path.read_bytes() == text.encode("utf-8")
    assert write_files([(str(path), text)]) == [False]  # same content: not rewritten


@pytest.mark.parametrize("change", ["first", "last", "longer", "shorter"])
def test_a_change_anywhere_is_written(tmp_path, change):
    path = tmp_path / "out.h"
    text = _text(2 * writer._CHUNK + 5)
    path.write_bytes(text.encode("utf-8"))
    new = {"first": "X" + text[1:], "last": text[:-1] + "X", "longer": text + "\n",
           "shorter": text[:-1]}[change]
    assert write_files([(str(path), new)]) == [True]
    assert path.read_bytes() == new.encode("utf-8")


def test_writing_a_large_text_never_holds_it_whole_as_bytes(tmp_path):
    text, changed = "x" * _BIG, "x" * (_BIG - 1) + "y"
    path = tmp_path / "big.h"
    tracemalloc.start()
    try:
        write_files([(str(path), text)])  # new file
        write_files([(str(path), changed)])  # compared with the old one, then written
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The old file read back is one copy (its bytes); the new text is never encoded whole.
    assert peak < _BIG + 4 * writer._CHUNK, f"peak {peak / 2**20:.1f} MiB"
    assert path.read_bytes() == changed.encode()
