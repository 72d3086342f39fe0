"""The host C compiler through cffi's API mode: the layout Python itself will see.

cffi only checks the top-level fields of a full ``cdef``, and lazily, so the probes are not
cdef'd at all: the extension's C source holds ``const unsigned long long sarek_probe[] =
{sizeof(T), offsetof(T, a.b), …};`` and the cdef exposes just that array, read back after
one build (TOOLCHAINS.md: about 1.4 s for 1,000 structs).
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import itertools
import os
import sys
from typing import Iterator, List, Sequence, Tuple

from ..headers import CompileFolder
from ..probes import Probe
from . import NO_ASSERTS, Driver, HeaderSet, Measurement, ProbeFailed, error_excerpt, expression
from . import with_assertion_fallback

__all__ = ["CffiDriver"]

_counter = itertools.count()


@contextlib.contextmanager
def _captured_fd2(path: str) -> Iterator[None]:
    """Send file descriptor 2 to ``path``: the compiler cffi spawns writes its errors there."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "w") as sink:
        os.dup2(sink.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


class CffiDriver(Driver):
    """cffi API mode with the host compiler; see the module docstring."""

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            import cffi  # type: ignore[import-not-found]

            module = f"_sarek_verify_{os.getpid()}_{next(_counter)}"
            count = max(len(probes), 1)
            values = ",\n".join(expression(p, "c") for p in probes) or "0"
            source = (
                (NO_ASSERTS if disable_asserts else "")
                + "#include <stddef.h>\n"
                + headers.include_lines()
                + f"const unsigned long long sarek_probe[{count}] = {{\n{values}\n}};\n"
            )
            ffi = cffi.FFI()
            ffi.cdef(f"extern const unsigned long long sarek_probe[{count}];")
            with CompileFolder(headers, "sarek-verify-cffi-") as folder:
                tmp = folder.absolute("build")
                os.mkdir(tmp)
                # -O0: nothing here runs, and optimising a 100,000-entry table only costs time.
                ffi.set_source(module, source,
                               include_dirs=[folder.absolute(d) for d in folder.include_dirs],
                               extra_compile_args=["-O0", "-w"])
                log = os.path.join(tmp, "compiler.log")
                try:
                    with _captured_fd2(log), contextlib.redirect_stdout(sys.stderr):
                        so_path = ffi.compile(tmpdir=tmp, verbose=False)
                except Exception as e:  # cffi.VerificationError, distutils CompileError
                    with open(log) as f:
                        output = folder.readable(f.read())
                    raise ProbeFailed(tc.display, error_excerpt(output) or str(e)) from None
                loader = importlib.machinery.ExtensionFileLoader(module, so_path)
                spec = importlib.util.spec_from_file_location(module, so_path, loader=loader)
                assert spec is not None
                ext = importlib.util.module_from_spec(spec)
                loader.exec_module(ext)
                table = ext.lib.sarek_probe
                result = tuple(int(table[i]) for i in range(len(probes)))
            return [("", result)]

        return with_assertion_fallback(tc, attempt)
