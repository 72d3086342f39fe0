"""The host C compiler through cffi's API mode: the layout Python itself will see.

cffi builds the extension module with Python's own compiler and flags (``sysconfig``), which
is the point of this toolchain. The extension's C source is the headers, then one table of
every probe's value (``drivers.marked_values``): a sized symbol per probe, as the
``objfile`` driver reads them from an object file, would make a shared library as large as
the values' sum, which the linker refuses past 2 GiB (a ``float32[100000000]`` member). The
build runs in a child process (``tools.run_child``, bounded in time and memory), and the
numbers are read from the built module's bytes, after the table's marker: the module is
never imported, so nothing a header holds (an ``__attribute__((constructor))`` function,
say) ever runs.
"""

from __future__ import annotations

import itertools
import os
from typing import List, Sequence, Tuple

from ..headers import CompileFolder
from ..probes import Probe
from ..tools import run_child
from . import (NO_ASSERTS, Driver, HeaderSet, Measurement, ProbeFailed, child_failure,
               marked_values, values_from_object, with_assertion_fallback)

__all__ = ["CffiDriver"]

_counter = itertools.count()

#: Default visibility, so the table is kept whatever Python's flags say
#: (``-fvisibility=hidden``) and even if its linker drops what nothing uses.
_DECLARATION = "__attribute__((visibility(\"default\"), used)) const unsigned int"


class CffiDriver(Driver):
    """cffi API mode with the host compiler; see the module docstring."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 0.35

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            module = f"_sarek_verify_{os.getpid()}_{next(_counter)}"
            source = ((NO_ASSERTS if disable_asserts else "") + "#include <stddef.h>\n"
                      + headers.include_lines() + marked_values(probes, "c", _DECLARATION))
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
                with open(folder.absolute(built), "rb") as f:
                    data = f.read()
            return [("", values_from_object(data, len(probes), tc.display))]

        return with_assertion_fallback(tc, attempt)
