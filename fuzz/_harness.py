"""What every atheris harness of ``fuzz/`` shares: instrumentation, a private scratch file,
and the exception contract.

The contract: whatever the bytes, a reader or decoder returns, or raises one of the errors
the project documents (``sarek_layout.errors.SarekLayoutError`` and its family:
``SchemaError``/``SchemaErrors``, ``UsageError``, ``ObjectError``, ``DecodeError``…), whose
``str()`` works and is one line per refusal. Any other exception escapes to atheris, which
reports it as a crash and writes the input under the ``-artifact_prefix`` the driver
(``fuzz/run.py``) gives. Hangs (``-timeout``) and memory explosions (``-rss_limit_mb``) are
libFuzzer's own findings.

Only ``sarek_layout`` is instrumented for coverage (``instrument``), and only its modules
imported inside that block: a harness imports every module it reaches eagerly there.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

import atheris

__all__ = ["atheris", "instrument", "Scratch", "check_refusal", "main"]

#: What every harness instruments (the DWARF harness can add pyelftools: see its docstring).
_ALWAYS = ("sarek_layout",)


def instrument(*extra: str):
    """``with instrument(): import …``: coverage for ``sarek_layout`` (and ``extra``)."""
    return atheris.instrument_imports(include=list(_ALWAYS + extra))


class Scratch:
    """One file in a private temporary folder, rewritten with each input (the readers take
    paths); the folder is removed at exit. In memory (``/dev/shm``) where there is one:
    rewriting a file on a disk's file system cost 3 ms an input, 80 times the reader."""

    def __init__(self, name: str) -> None:
        shm = "/dev/shm"
        where = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None
        self.folder = tempfile.mkdtemp(prefix="sarek-fuzz-", dir=where)
        atexit.register(shutil.rmtree, self.folder, True)
        self.path = os.path.join(self.folder, name)

    def write(self, data: bytes) -> str:
        with open(self.path, "wb") as f:
            f.write(data)
        return self.path


def check_refusal(e: BaseException) -> None:
    """A documented error must print: ``str()`` works, each refusal is one non-empty line."""
    for one in getattr(e, "errors", (e,)):
        text = str(one)
        if not text.strip() or "\n" in text.strip():
            raise AssertionError(f"a refusal that is not one line: {text!r}")


def main(test_one_input) -> None:
    """Run ``test_one_input`` under libFuzzer with the command line's options."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
