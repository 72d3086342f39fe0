"""Zig from PyPI (``ziglang``): the ``zig`` module on every ABI Zig builds for, and the C, C++
and CUDA-host headers compiled by ``zig cc``/``zig c++`` for foreign ABIs (Windows, macOS,
WebAssembly, big-endian sparc64, mips, powerpc).

Zig carries its own libc headers and cross-compiles offline, so one package proves a layout
on ABIs no other toolchain here reaches. Nothing runs on the target: each pass (one ABI, one
``zig`` invocation) compiles a probe file whose one exported array holds a marker, the probe
count and every probe's value (``sarek_probe_values``); the values are then found in the
object's bytes by their marker, in the byte order the marker shows. That reads ELF, COFF,
Mach-O and WebAssembly objects alike without a tool per format. The ``zig`` module's probes
are ``@sizeOf``/``@alignOf``/``@offsetOf`` (a union arm's offset inside its union is 0; a
member's or an array level's size is ``@sizeOf`` of its type, reached through ``@FieldType``
and the arrays' child types: ``zig_view.zig_type_of``); the C-family probes are
``probes.expression``'s, as for gcc.

Zig's caches go where ``$ZIG_GLOBAL_CACHE_DIR``/``$ZIG_LOCAL_CACHE_DIR`` say (the test suite
shares one per session). Else the global cache, which holds only what Zig derives from its own
standard library, is this user's private ``~/.cache/sarek-layout/zig-global``
(``verify.cache``), and the local one, where the probe and the headers are compiled, is in
the compile folder, removed with it: no answer is kept from one run to the next, and nothing
goes into the user's tree.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from typing import Dict, List, Optional, Sequence, Tuple

from ...codegen.zig_view import zig_type_of
from ...targets.naming import escape
from ..headers import CompileFolder, HeaderSet
from ..probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, STRIDE, Probe
from ..tools import run_tool
from . import (MARKER, NO_ASSERTS, VALUES_SYMBOL as _VALUES, Driver, Measurement, ProbeFailed,
               expression, saturated, tool_failure, values_from_object,
               with_assertion_fallback)

__all__ = ["zig_program", "zig_env", "zig_expression", "values_from_object", "ZigDriver",
           "ZigCcDriver", "MARKER", "ZIG_INSTALL_HINT"]

ZIG_INSTALL_HINT = "pip install ziglang"


@functools.lru_cache(maxsize=None)
def zig_program() -> Optional[str]:
    """The ``zig`` binary inside the ``ziglang`` package, or ``None`` when it is missing."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("ziglang")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "zig")
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def zig_env(folder: str) -> Dict[str, str]:
    """The environment of one ``zig`` run: caches as set, else the global one (Zig's own
    standard library, parsed) in this user's private cache (``verify.cache``) and the local
    one (the probe, the headers, the object) inside ``folder``, removed with it. Without a
    trustworthy private folder the global cache is in ``folder`` too, cold every run."""
    env = dict(os.environ)
    if not env.get("ZIG_GLOBAL_CACHE_DIR"):
        from ..cache import private_cache

        env["ZIG_GLOBAL_CACHE_DIR"] = (private_cache("zig-global")
                                       or os.path.join(folder, "zig-global-cache"))
    if not env.get("ZIG_LOCAL_CACHE_DIR"):
        env["ZIG_LOCAL_CACHE_DIR"] = os.path.join(folder, "zig-local-cache")
    return env


# --- the zig module ---------------------------------------------------------------------------

_DECLARED = re.compile(r'^pub const (@"[^"]*"|[A-Za-z_][A-Za-z0-9_]*) = (extern struct|enum\()',
                       re.M)

#: The value of a probe Zig cannot measure (a probe value is an alignment or a size, which
#: the layout keeps below 2**31): the alignment of an enum type whose ABI aligns its base
#: below its size (``enum(i64)`` is 4-aligned on x86, as ``i64`` is). Zig gives no type of
#: its own an alignment; every member of it is pinned (``align(8)``), and those members'
#: offsets and their structs' alignment are probed.
NOT_MEASURED = 0xFFFFFFFE


def zig_expression(p: Probe, qualified: str, enum: bool = False) -> str:
    """``p`` in Zig, its type spelt ``qualified`` (``sarek_m0.Geometry_point``). A member path
    is a struct field, an arm of a variant's ``data`` union (offset 0 in the union), or a
    field of a struct arm; a stride's, the first element of an array level (``a[0].v[0]``)."""
    if p.quantity == SIZE:
        return f"@sizeOf({qualified})"
    if p.quantity == ALIGN:
        if enum:  # see NOT_MEASURED
            return (f"(if (@alignOf({qualified}) < @sizeOf({qualified})) 0x{NOT_MEASURED:x} "
                    f"else @alignOf({qualified}))")
        return f"@alignOf({qualified})"
    if p.quantity in (MEMBER_SIZE, STRIDE):
        return f"@sizeOf({zig_type_of(qualified, p.member)})"
    if p.quantity == OFFSET:
        parts = p.member.split(".")
        expr = f'@offsetOf({qualified}, "{parts[0]}")'
        if len(parts) == 3:
            expr += f' + @offsetOf({zig_type_of(qualified, ".".join(parts[:2]))}, "{parts[2]}")'
        return expr
    raise ValueError(f"unknown probe quantity {p.quantity!r}")


#: With assertions off (the retry that still yields numbers): each check's @compileError
#: becomes a call of this no-op, appended to every module.
_IGNORED = "sarek_layout_ignored"
_IGNORED_FN = f"\nfn {_IGNORED}(comptime _: []const u8) void {{}}\n"


def _zig_probe_source(headers: HeaderSet, probes: Sequence[Probe]) -> str:
    from ...targets.dialects import ZIG

    where: Dict[str, str] = {}
    enums = set()
    lines = []
    for i, (name, text) in enumerate(headers.files):
        alias = f"sarek_layout_m{i}"
        lines.append(f'const {alias} = @import("headers/{name}");\n')
        for declared, kind in _DECLARED.findall(text):
            where.setdefault(declared, alias)
            if kind != "extern struct":
                enums.add(declared)
    values = []
    for p in probes:
        t = escape(p.c_type, ZIG)
        if t not in where:
            raise ProbeFailed("zig", f"no module declares {p.c_type}")
        values.append(f"@min({zig_expression(p, where[t] + '.' + t, t in enums)}, 0xffffffff)")
    lines.append(f"export const {_VALUES} = [_]u32{{ 0x{MARKER[0]:08x}, 0x{MARKER[1]:08x}, "
                 f"{len(probes)},\n")
    lines.extend(f"    {v},\n" for v in values)
    lines.append("};\n")
    return "".join(lines)


class ZigDriver(Driver):
    """``zig build-obj`` of the generated Zig modules, once per ABI (``toolchain.passes``)."""

    subprocess_only = True  # run_tool only, caches in its compile folder (Driver.subprocess_only)
    estimate_s = 0.5

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain
        source = _zig_probe_source(headers, probes)

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[Optional[int], ...]]]:
            files = headers.files
            if disable_asserts:
                files = tuple((n, t.replace("@compileError(", _IGNORED + "(") + _IGNORED_FN)
                              for n, t in files)
            with CompileFolder(dataclasses.replace(headers, files=files),
                               "sarek-verify-zig-") as folder:
                with open(folder.absolute("sarek_probe.zig"), "w") as f:
                    f.write(source)
                return [(target, self._one(folder, target, len(probes)))
                        for target in tc.passes]

        return with_assertion_fallback(tc, attempt)

    def _one(self, folder: CompileFolder, target: str, count: int
             ) -> Tuple[Optional[int], ...]:
        tc = self.toolchain
        out = f"sarek_probe-{target}.o"
        run = run_tool([zig_program() or "zig", *tc.argv[1:], "-target", target,
                        "sarek_probe.zig", f"-femit-bin={out}"],
                       cwd=folder.path, env=zig_env(folder.path), label=f"zig ({target})")
        if not run.ok:
            raise tool_failure(f"{tc.display} ({target})", folder, run)
        with open(folder.absolute(out), "rb") as f:
            values = values_from_object(f.read(), count, f"{tc.display} ({target})")
        return tuple(None if v == NOT_MEASURED else v for v in values)


# --- zig cc / zig c++ --------------------------------------------------------------------------


class ZigCcDriver(Driver):
    """``zig cc``/``zig c++`` of the C-family headers, once per ABI (``toolchain.passes``)."""

    subprocess_only = True  # run_tool only, caches in its compile folder (Driver.subprocess_only)
    estimate_s = 0.17

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain
        dialect = "c" if tc.language == "c" else "c++"
        suffix = ".c" if dialect == "c" else ".cpp"
        values = ", ".join(saturated(expression(p, dialect)) for p in probes)

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with CompileFolder(headers, "sarek-verify-zigcc-") as folder:
                with open(folder.absolute("sarek_probe" + suffix), "w") as f:
                    f.write((NO_ASSERTS if disable_asserts else "") + "#include <stddef.h>\n"
                            + headers.include_lines()
                            + '#ifdef __cplusplus\nextern "C"\n#endif\n'
                            + f"const unsigned int {_VALUES}[] = {{0x{MARKER[0]:08x}u, "
                            + f"0x{MARKER[1]:08x}u, {len(probes)}u, {values}}};\n")
                return [(target, self._one(folder, target, suffix, len(probes)))
                        for target in tc.passes]

        return with_assertion_fallback(tc, attempt)

    def _one(self, folder: CompileFolder, target: str, suffix: str,
             count: int) -> Tuple[int, ...]:
        tc = self.toolchain
        out = f"sarek_probe-{target}.o"
        run = run_tool([zig_program() or "zig", *tc.argv[1:], "-target", target, "-c",
                        *folder.include_flags(), "sarek_probe" + suffix, "-o", out],
                       cwd=folder.path, env=zig_env(folder.path), label=f"zig ({target})")
        if not run.ok:
            raise tool_failure(f"{tc.display} ({target})", folder, run)
        with open(folder.absolute(out), "rb") as f:
            return values_from_object(f.read(), count, f"{tc.display} ({target})")
