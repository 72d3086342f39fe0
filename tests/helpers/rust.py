"""Compiling and running the rust target's modules with the machine's rustc, for the tests.

A test crate holds each generated module as ``mod <stem> { include!("<stem>.rs"); }`` (as a
user's crate would: sibling modules reach each other as ``super::<stem>``), with
``-D warnings`` so the generated code is warning-free, and optionally a ``main`` that prints
what the tests compare. Values are spelt as Rust source by ``RustBuilder`` (decimal float
literals that rustc converts itself; float16 as its bits, from numpy), never as bytes.
"""

from __future__ import annotations

import math
import os
import pathlib
import struct
from typing import Dict, Iterable, List, Sequence, Tuple

from helpers.bounded import run_cpu_bounded
from sarek_layout.ir.types import (TBool, TFloat16, TFloat32, TFloat64, TInt8, TInt16, TInt32,
                                   TInt64, TRecord, TUint8, TUint16, TUint32, TUint64, TUnit)

#: The test's own Rust spelling of the extension scalars (an oracle, not the dialect's).
_RUST_EXTENSION = {TInt8: "i8", TInt16: "i16", TUint16: "u16", TUint32: "u32", TUint64: "u64"}

__all__ = ["compile_crate", "rust_literal", "RustBuilder", "HEX_FN"]

#: What a test program needs to print bytes.
HEX_FN = """fn sarek_test_hex(b: &[u8]) -> String {
    let mut s = String::new();
    for x in b { s.push_str(&format!("{:02x}", x)); }
    s
}
"""


def compile_crate(folder: pathlib.Path, modules: Dict[str, str], body: str = "", *,
                  edition: str = "2021", run: bool = False, cpu_s: float = 120,
                  extra_flags: Sequence[str] = ()):
    """Write ``modules`` (file name -> text) and a crate root including each, then compile it
    (a library checked to metadata, or with ``run`` a program whose ``body`` is its ``main``
    and which is run). Returns ``(compile, run)`` CompletedProcess objects (``run`` None)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in modules.items():
        (folder / name).write_text(text)
    root = ["#![deny(warnings)]\n"]
    for name in modules:
        stem = os.path.splitext(name)[0]
        root.append(f"#[allow(dead_code)]\nmod {stem} {{\n    include!(\"{name}\");\n}}\n")
    if run:
        root.extend(f"#[allow(unused_imports)]\nuse {os.path.splitext(n)[0]}::*;\n" for n in modules)
        root.append(HEX_FN + "\nfn main() {\n" + body + "\n}\n")
    (folder / "main.rs").write_text("".join(root))
    argv = ["rustc", "--edition", edition, "-D", "warnings", *extra_flags]
    argv += (["-o", "prog"] if run else ["--crate-type=lib", "--emit=metadata", "-o", "lib.rmeta"])
    argv.append("main.rs")
    built = run_cpu_bounded(argv, cpu_s=cpu_s, cwd=folder, text=True,
                            what="rustc took far longer than a compile of this size")
    ran = None
    if run and built.returncode == 0:
        ran = run_cpu_bounded([str(folder / "prog")], cpu_s=cpu_s, cwd=folder, text=True,
                              what="the test program ran far longer than it should")
    return built, ran


def rust_literal(t, v) -> str:
    """A Rust expression of scalar ``t`` with value ``v`` (as the Python encoder takes it)."""
    if t is TInt32:
        return f"{v}i32"
    if t is TInt64:
        return f"{v}i64"
    if t is TUint8:
        return f"{v}u8"
    if t in _RUST_EXTENSION:
        return f"{v}{_RUST_EXTENSION[t]}"
    if t in (TFloat32, TFloat64):
        ty = "f32" if t is TFloat32 else "f64"
        if math.isinf(v):
            return f"{ty}::{'NEG_INFINITY' if v < 0 else 'INFINITY'}"
        text = repr(float(v))
        return f"{text}{ty}" if "e" in text or "." in text else f"{text}.0{ty}"
    if t is TFloat16:
        try:
            import numpy as np

            bits = int(np.array([v], dtype=np.float16).view(np.uint16)[0])
        except ImportError:  # pragma: no cover - numpy is a test dependency
            bits = struct.unpack("<H", struct.pack("<e", v))[0]
        return f"0x{bits:04x}u16"
    if t is TBool:
        return "1i32" if v else "0i32"
    assert t is TUnit
    return "0i32"


class RustBuilder:
    """Rust expressions building values with the generated constructors: ``T::new(…)`` for a
    record (fields in declaration order), ``T::Ctor(…)`` for a variant."""

    def __init__(self, c_names: Dict[object, str]) -> None:
        self.c_names = c_names

    def expr(self, t, value) -> str:
        if isinstance(t, TRecord):
            args = [self.expr(ft, value[name]) for name, ft in t.fields]
            return f"{self.c_names[t]}::new({', '.join(args)})"
        if t.__class__.__name__ == "TVariant":
            name, args = value
            arg_types = dict(t.ctors)[name]
            inner = [self.expr(a, v) for a, v in zip(arg_types, args)]
            return f"{self.c_names[t]}::{name}({', '.join(inner)})"
        return rust_literal(t, value)


def program_lines(builder: RustBuilder, cases: Iterable[Tuple[object, List[object]]]) -> str:
    """A ``main`` body printing each value's ``to_bytes`` in hex, one line each, after
    checking in Rust that ``from_bytes`` gives the value back, refuses one byte too few, and
    (variants) refuses a tag no constructor has and matches ``from_view(view())``."""
    lines = []
    for t, values in cases:
        c = builder.c_names[t]
        for v in values:
            lines.append("    {")
            lines.append(f"        let v = {builder.expr(t, v)};")
            lines.append("        let b = v.to_bytes();")
            lines.append(f"        let back = {c}::from_bytes(&b).unwrap();")
            lines.append("        assert!(back.to_bytes() == b);")
            lines.append(f"        assert!(matches!({c}::from_bytes(&b[..b.len() - 1]), "
                         f"Err(sarek_layout_FromBytesError::Length {{ .. }})));")
            if not isinstance(t, TRecord):
                lines.append(f"        assert!({c}::from_view(v.view()).to_bytes() == b);")
                bad = len(t.ctors)
                lines.append("        let mut wrong = b;")
                lines.append(f"        wrong[..4].copy_from_slice(&({bad}i32).to_ne_bytes());")
                lines.append(f"        assert!({c}::from_bytes(&wrong) == Err("
                             f"sarek_layout_FromBytesError::Tag {{ type_name: \"{c}\", tag: {bad} }}));")
            lines.append("        println!(\"{}\", sarek_test_hex(&b));")
            lines.append("    }")
    return "\n".join(lines)
