"""The host C compiler through cffi's API mode: the layout Python itself will see.

cffi builds the extension module with Python's own compiler and flags (``sysconfig``), which
is the point of this toolchain. The extension's C source is the probe source of the
``objfile`` driver: one ``char sarek_probe_N[(expr) + 1]`` per probe, after the headers. The
build runs in a child process (``tools.run_child``, bounded in time and memory), and the
numbers are read from the built module's dynamic symbol table with ``readelf``, as the
``objfile`` driver reads an object file: the module is never imported, so nothing a header
holds (an ``__attribute__((constructor))`` function, say) ever runs.
"""

from __future__ import annotations

import itertools
import os
from typing import List, Sequence, Tuple

from ..headers import CompileFolder
from ..probes import Probe
from ..tools import run_child
from . import Driver, HeaderSet, Measurement, ProbeFailed, child_failure, with_assertion_fallback
from .objfile import probe_source, readelf, symbol_sizes, values_from_symbols

__all__ = ["CffiDriver"]

_counter = itertools.count()

#: Default visibility, so the probes are in the dynamic symbol table whatever Python's
#: flags say (``-fvisibility=hidden``) and even if its linker strips the rest.
_DECLARATION = "__attribute__((visibility(\"default\"))) char"


class CffiDriver(Driver):
    """cffi API mode with the host compiler; see the module docstring."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 0.35

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            module = f"_sarek_verify_{os.getpid()}_{next(_counter)}"
            source = probe_source(headers, probes, "c", disable_asserts=disable_asserts,
                                  declaration=_DECLARATION)
            with CompileFolder(headers, "sarek-verify-cffi-") as folder:
                build = folder.absolute("build")
                os.mkdir(build)
                child = run_child("cffi", {
                    "module": module, "source": source, "tmpdir": build,
                    "include_dirs": [folder.absolute(d) for d in folder.include_dirs],
                    # -O0 -g0: nothing here runs or is debugged, and optimising or describing
                    # 500,000 probes only costs time (-g alone doubles it); neither changes a
                    # layout.
                    "extra_compile_args": ["-O0", "-g0", "-w"],
                }, cwd=folder.path)
                if not child.ok:
                    raise child_failure(tc.display, folder, child)
                built = os.path.relpath(child.answer["path"], folder.path)
                if built.startswith(".."):
                    raise ProbeFailed(tc.display, "cffi built its module outside the build folder")
                sizes = symbol_sizes(readelf(folder, built, tc.display, table="--dyn-syms"))
            return [("", values_from_symbols(sizes, len(probes), tc.display))]

        return with_assertion_fallback(tc, attempt)
