"""rustc: the rust target's modules measured like the gcc family, from an object file.

Every generated ``.rs`` becomes one module of a probe crate (``mod geometry {
include!("headers/geometry.rs"); … }``, so that sibling modules reach each other as
``super::<stem>`` just as in a user's crate) and the probes of each type one
``#[no_mangle] #[used] static sarek_probes_N: [[u8; 8]; K]`` (probes N to N+K-1, each value
a little-endian u64) written *inside* the module that defines the type, where its private
members (a variant's ``tag`` and ``data``) are visible to ``core::mem::offset_of!``. One
``rustc --crate-type=staticlib --emit=obj`` compiles the lot and the arrays are read from the
object file (``elf_data``). Nothing runs. The modules' own ``const`` assertions run in the
same compile; the retry without them drops those lines.

Why an array per type and not a sized symbol per value, as the gcc family has: rustc spends
about half a millisecond on each static item (type, two array-length constants, an exported
symbol), which was 45% of the compile of the 1,088-type conformance crate and 86 s of CPU
for 3,859 types; a type's array is one item. ``staticlib`` because a ``lib`` (rlib) crate also
encodes its metadata, which nothing here reads (3 s of 15 on that crate). bench/bench_rustc.py
measures both.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Sequence, Tuple

from ...codegen.rust_view import rust_ident, rust_path
from ...targets.dialects import RUST
from ..headers import HEADERS_DIR, CompileFolder
from ..probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, STRIDE, Probe
from ..tools import run_tool
from . import Driver, HeaderSet, Measurement, ProbeFailed, tool_failure, with_assertion_fallback
from .elf_data import ElfDataError, symbol_contents

__all__ = ["RustcDriver", "probe_crate", "RUST_EDITION"]

#: The edition the probe crate is compiled in (raw identifiers need 2018 or later).
RUST_EDITION = "2021"

# A struct, union or enum (``{``), or an enum type's newtype (``pub struct E(pub i32);``).
_DEFINES = re.compile(r"^pub (?:struct|union|enum) ([^\s({]+) ?[({]", re.M)
_ASSERTION = re.compile(r"^const _: \(\) = assert!\(.*$", re.M)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

#: The probe arrays' symbols: ``sarek_probes_<index of the array's first probe>``.
PREFIX = "sarek_probes_"

#: Bytes per value in a probe array: a little-endian u64, whatever the target.
_VALUE_BYTES = 8

_PRELUDE = """#![allow(warnings)]
// sarek-layout's probe crate: one static array per probed type, each value a little-endian
// u64 (read from the object file).
pub const fn sarek_value(v: usize) -> [u8; 8] { (v as u64).to_le_bytes() }
pub const fn sarek_field_size<T, F>(_: fn(&T) -> F) -> usize { ::core::mem::size_of::<F>() }
"""


def _expression(p: Probe) -> str:
    t = rust_ident(p.c_type)
    if p.quantity == SIZE:
        return f"::core::mem::size_of::<{t}>()"
    if p.quantity == ALIGN:
        return f"::core::mem::align_of::<{t}>()"
    if p.quantity == OFFSET:
        return f"::core::mem::offset_of!({t}, {rust_path(p.member)})"
    if p.quantity in (MEMBER_SIZE, STRIDE):
        # The member's type (a stride: its first element's, ``a[0]``), from a closure that
        # copies it out (never called): a copy, not a reference, so that a packed struct's
        # members can be measured too; a union member can only be read in unsafe code.
        return f"crate::sarek_field_size(|t: &{t}| unsafe {{ t.{rust_path(p.member)} }})"
    raise ValueError(f"unknown probe quantity {p.quantity!r}")


def _module_name(filename: str, index: int) -> str:
    """The module a generated file becomes: its stem (what ``use super::<stem>`` in the other
    generated files names), or a made-up name for a stem that is no identifier."""
    stem = os.path.splitext(filename)[0]
    if _IDENT.match(stem) and stem not in RUST.not_raw:
        return rust_ident(stem)
    return f"sarek_module_{index}"


def probe_groups(probes: Sequence[Probe]) -> List[Tuple[int, List[Probe]]]:
    """``(index of the first, probes)`` for each run of consecutive probes of one type: the
    probe arrays, one static item each."""
    groups: List[Tuple[int, List[Probe]]] = []
    for n, p in enumerate(probes):
        if groups and groups[-1][1][0].c_type == p.c_type:
            groups[-1][1].append(p)
        else:
            groups.append((n, [p]))
    return groups


def probe_values(contents: Dict[str, bytes], probes: Sequence[Probe], who: str
                 ) -> Tuple[int, ...]:
    """The probes' values from the arrays' bytes (``elf_data.symbol_contents``)."""
    values: List[int] = []
    for first, group in probe_groups(probes):
        data = contents.get(f"{PREFIX}{first}")
        if data is None or len(data) != len(group) * _VALUE_BYTES:
            found = "missing" if data is None else f"{len(data)} bytes"
            raise ProbeFailed(who, f"probe array {PREFIX}{first} of {group[0].c_type} is "
                                   f"{found} in the object file, not {len(group) * _VALUE_BYTES} bytes")
        values.extend(int.from_bytes(data[i:i + _VALUE_BYTES], "little")
                      for i in range(0, len(data), _VALUE_BYTES))
    return tuple(values)


def probe_crate(headers: HeaderSet, probes: Sequence[Probe], *, folder: str = HEADERS_DIR
                ) -> str:
    """The probe crate's root: every module of ``headers`` (read from ``folder``) with the
    probes of the types it defines; ``ProbeFailed`` if a probed type is defined nowhere."""
    owner: Dict[str, int] = {}
    for i, (_, text) in enumerate(headers.files):
        for name in _DEFINES.findall(text):
            owner.setdefault(name, i)
    by_module: Dict[int, List[str]] = {}
    for first, group in probe_groups(probes):
        where = owner.get(rust_ident(group[0].c_type))
        if where is None:
            raise ProbeFailed("rustc", f"no generated Rust module defines {group[0].c_type}")
        values = "".join(f"    crate::sarek_value({_expression(p)}),\n" for p in group)
        by_module.setdefault(where, []).append(
            f"#[no_mangle] #[used] pub static {PREFIX}{first}: [[u8; {_VALUE_BYTES}]; "
            f"{len(group)}] = [\n{values}];\n")
    parts = [_PRELUDE]
    for i, (name, _) in enumerate(headers.files):
        parts.append(f"pub mod {_module_name(name, i)} {{\n"
                     f"include!(\"{folder}/{name}\");\n")
        parts.extend(by_module.get(i, ()))
        parts.append("}\n")
    return "".join(parts)


class RustcDriver(Driver):
    """The machine's rustc, host target; see the module docstring."""

    subprocess_only = True  # run_tool only (Driver.subprocess_only)
    estimate_s = 0.1

    def measure(self, headers: HeaderSet, probes: Sequence[Probe]) -> Measurement:
        tc = self.toolchain

        def attempt(disable_asserts: bool) -> List[Tuple[str, Tuple[int, ...]]]:
            with CompileFolder(headers, "sarek-verify-rustc-") as folder:
                source_folder = HEADERS_DIR
                if disable_asserts:
                    source_folder = "unchecked"
                    os.mkdir(folder.absolute(source_folder))
                    for name, text in headers.files:
                        with open(folder.absolute(f"{source_folder}/{name}"), "w",
                                  encoding="utf-8", errors="surrogateescape") as f:
                            f.write(_ASSERTION.sub("", text))
                with open(folder.absolute("sarek_probe.rs"), "w") as f:
                    f.write(probe_crate(headers, probes, folder=source_folder))
                run = run_tool([*tc.argv, "--edition", RUST_EDITION, "--crate-type=staticlib",
                                "--emit=obj", "-C", "opt-level=0", "sarek_probe.rs", "-o",
                                "sarek_probe.o"], cwd=folder.path)
                if not run.ok:
                    raise tool_failure(tc.display, folder, run)
                with open(folder.absolute("sarek_probe.o"), "rb") as f:
                    data = f.read()
            try:
                contents = symbol_contents(data, PREFIX)
            except ElfDataError as e:
                raise ProbeFailed(tc.display, f"the object file: {e}") from None
            return [("", probe_values(contents, probes, tc.display))]

        return with_assertion_fallback(tc, attempt)
