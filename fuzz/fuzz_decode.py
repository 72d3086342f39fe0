"""atheris harness: the Python decoders, ``host.codec`` (``sarek_layout.load(...).decode``)
and the standalone module ``generate -t python`` writes, on the same bytes.

Schemas: the bundled example and the golden schemas (``tests/golden``); their Python modules
are generated once at start-up into a scratch folder. The first input byte picks the type,
the second the offset (0-15), whether ``unpack`` reads the whole buffer and the buffer's
kind (``bytes``, ``bytearray``, ``memoryview``, a ``memoryview`` slice of a larger buffer); the
rest is the buffer. Contract, for both decoders: a value or the decoder's documented ``DecodeError``,
never another exception. Oracles beyond that: the two decoders agree on whether the bytes
decode, and a decoded value encodes again (both encoders), to the same bytes from either
encoder, and decodes to the same bytes once more: decoding never yields a value the
encoders refuse.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import Scratch, atheris, instrument, main  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Schema files read together (one generated module each).
SCHEMAS = [
    ["examples/geometry.toml"],
    ["tests/golden/nested/nested.toml"],
    ["tests/golden/scalars/scalars.json"],
    ["tests/golden/seed_values/seed.toml"],
    ["tests/golden/small_scalars/texels.toml"],
    ["tests/golden/cross_module/base.toml", "tests/golden/cross_module/scene.toml"],
]

with instrument():
    import sarek_layout
    from sarek_layout.host import DecodeError
    import sarek_layout.host.codec  # noqa: F401
    import sarek_layout.host.fast  # noqa: F401
    import sarek_layout.host.plan  # noqa: F401
    import sarek_layout.host._runtime  # noqa: F401

from sarek_layout.cli.main import main as cli  # noqa: E402 - codegen: not what is fuzzed

OUT = Scratch("unused").folder
sys.path.insert(0, OUT)  # a generated module imports the modules of its schema's imports


def _generated(paths):
    """Generate and import the Python modules of ``paths`` (instrumented too)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = cli(["generate", *[os.path.join(ROOT, p) for p in paths], "-o", OUT,
                      "-t", "python"])
    if status != 0:
        raise SystemExit(f"cannot generate the Python modules of {paths}")
    names = [os.path.splitext(os.path.basename(p))[0] + "_layout" for p in paths]
    with atheris.instrument_imports(include=names):
        return [importlib.import_module(name) for name in names]


#: (codec, generated module, C name) of every type.
TYPES = []
for paths in SCHEMAS:
    host = sarek_layout.load([os.path.join(ROOT, p) for p in paths])
    modules = _generated(paths)
    for t in host:
        module = next(m for m in modules if hasattr(m, f"decode_{t.c_name}"))
        TYPES.append((host.codec(t.qualified_name), module, t.c_name))


def _generated_decode(module, c_name, data, offset, whole):
    try:
        if whole:
            return getattr(module, f"unpack_{c_name}")(data, None, offset)
        return [getattr(module, f"decode_{c_name}")(data, offset)]
    except module.DecodeError as e:
        str(e)
        return None


def test_one_input(data: bytes) -> None:
    if len(data) < 2:
        return
    codec, module, c_name = TYPES[data[0] % len(TYPES)]
    offset, whole, kind = data[1] & 15, bool(data[1] & 16), (data[1] >> 5) & 3
    buf = data[2:]
    if kind == 1:
        buf = bytearray(buf)
    elif kind == 2:
        buf = memoryview(buf)
    elif kind == 3:
        buf = memoryview(bytearray(b"\xff" * 3 + buf + b"\xff"))[3:-1]
    try:
        values = codec.unpack(buf, None, offset) if whole else [codec.decode(buf, offset)]
    except DecodeError as e:
        str(e)
        values = None
    mine = _generated_decode(module, c_name, buf, offset, whole)
    if (values is None) != (mine is None):
        raise AssertionError(f"{c_name}: host.codec {'refused' if values is None else 'decoded'}"
                             f" the bytes, the generated module did not")
    if values is None:
        return
    encode = getattr(module, f"encode_{c_name}")
    for value, theirs in zip(values, mine):
        again = codec.encode(value)
        if encode(theirs) != again:
            raise AssertionError(f"{c_name}: the two encoders give different bytes")
        if codec.encode(codec.decode(again)) != again:
            raise AssertionError(f"{c_name}: decode(encode(value)) is not the value")


if __name__ == "__main__":
    main(test_one_input)
