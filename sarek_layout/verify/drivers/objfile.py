"""gcc, g++, clang, gcc -m32 and the cross compilers: layouts read from an object file.

Each probe becomes ``char sarek_probe_N[(expr) + 1];``; the file is compiled once with
``-c -fno-common`` and ``readelf -sW`` lists every symbol's size, which is the value plus one.
Nothing runs on the target, so aarch64, armhf, ppc64 and s390x need only their cross gcc.
"""

from __future__ import annotations

import re
from typing import Dict, List, Sequence, Tuple

from ..headers import CompileFolder
from ..probes import Probe
from ..tools import run_tool
from . import NO_ASSERTS, Driver, HeaderSet, Measurement, ProbeFailed, expression, tool_failure
from . import with_assertion_fallback

__all__ = ["ObjfileDriver", "symbol_sizes", "probe_source"]

PREFIX = "sarek_probe_"

_SYMBOL = re.compile(r"^\s*\d+:\s+[0-9a-fA-F]+\s+(\S+)\s+OBJECT\s+\S+\s+\S+\s+\S+\s+(\S+)\s*$")


def probe_source(headers: HeaderSet, probes: Sequence[Probe], dialect: str, *,
                 disable_asserts: bool = False, prefix: str = PREFIX,
                 declaration: str = "char") -> str:
    """The probe translation unit: headers, then one sized array per probe."""
    parts = [NO_ASSERTS if disable_asserts else "", "#include <stddef.h>\n",
             headers.include_lines()]
    parts.extend(
        f"{declaration} {prefix}{i}[({expression(p, dialect)}) + 1];\n"
        for i, p in enumerate(probes)
    )
    return "".join(parts)


def symbol_sizes(readelf_output: str, prefix: str = PREFIX) -> Dict[int, int]:
    """``{N: size}`` for every ``<prefix>N`` object symbol in ``readelf -sW`` output."""
    sizes: Dict[int, int] = {}
    for line in readelf_output.splitlines():
        m = _SYMBOL.match(line)
        if m and m.group(2).startswith(prefix):
            suffix = m.group(2)[len(prefix):]
            if suffix.isdigit():
                sizes[int(suffix)] = int(m.group(1), 0)
    return sizes


def values_from_symbols(sizes: Dict[int, int], count: int, who: str) -> Tuple[int, ...]:
    missing = [i for i in range(count) if i not in sizes]
    if missing:
        raise ProbeFailed(who, f"{len(missing)} probe symbols missing from the object file "
                               f"(first: {PREFIX}{missing[0]})")
    return tuple(sizes[i] - 1 for i in range(count))


def readelf(folder: CompileFolder, relative: str, who: str, table: str = "--syms") -> str:
    """``readelf -W`` listing symbol ``table`` of ``relative``, a file inside ``folder``."""
    run = run_tool(["readelf", "-W", table, relative], cwd=folder.path)
    if not run.ok:
        raise tool_failure(who, folder, run)
    return run.stdout


class ObjfileDriver(Driver):
    """A C or C++ compiler driven to an object file; see the module docstring."""

    subprocess_only = True  # run_tool/run_child only (Driver.subprocess_only)
    estimate_s = 0.03

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain
        dialect = "c++" if tc.language == "c++" else "c"

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with CompileFolder(headers, "sarek-verify-") as folder:
                with open(folder.absolute("sarek_probe.c"), "w") as f:
                    f.write(probe_source(headers, probes, dialect,
                                         disable_asserts=disable_asserts))
                run = run_tool([*tc.argv, "-c", "-fno-common", *folder.include_flags(),
                                "sarek_probe.c", "-o", "sarek_probe.o"], cwd=folder.path)
                if not run.ok:
                    raise tool_failure(tc.display, folder, run)
                sizes = symbol_sizes(readelf(folder, "sarek_probe.o", tc.display))
            return [("", values_from_symbols(sizes, len(probes), tc.display))]

        return with_assertion_fallback(tc, attempt)
