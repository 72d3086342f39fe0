"""The host side stays linear in the schema, however records nest (issue #13).

A record of two copies of a record of two copies… describes 2^21 scalar leaves in 22 small
types. ``generate -t python`` and ``load(...).codec(...)`` used to flatten each record into
one ``struct`` format over all its leaves and ran out of memory; now a plan covers a record's
own members and packs a large nested record as one opaque slot, filled by that record's own
encoder. Each case runs in a subprocess under a CPU-time limit and an address-space limit
(generous: they catch a blow-up, never measure speed; bench/ does that) and round-trips one
element of the big variant, a 32 MiB element of 2^22 scalars, byte for byte against bytes
built here with ``struct`` from the layout rules.
"""

from __future__ import annotations

import os
import sys
import textwrap

import pytest

from helpers.bounded import run_cpu_bounded
from helpers.common import ROOT

TIME_LIMIT = 180  # CPU seconds (tests/helpers/bounded.py); the round trips take a few, the old code never finished
MEMORY_LIMIT = 3 << 30  # bytes of address space: one decoded element is ~1 GiB of objects
LEVELS = 22


def _doubling_toml(levels: int = LEVELS) -> str:
    lines = ['module = "Deep"', "", "[[types]]", 'record = "t0"',
             'fields = [["a", "float32"], ["b", "float64"]]']
    for k in range(1, levels):
        lines += ["", "[[types]]", f'record = "t{k}"', f'fields = [["a", "t{k - 1}"], ["b", "t{k - 1}"]]']
    lines += ["", "[[types]]", 'variant = "v"',
              f'constructors = [["A", ["t{levels - 1}"]], ["B", ["t{levels - 1}", "int32"]], ["C"]]']
    return "\n".join(lines) + "\n"


#: The bytes of ``B (t21 of leaves a = 1.5, b = -2.25, 7)``, from SPEC §1 alone: t0 is
#: {a: float32 @ 0, b: float64 @ 8}, 16 bytes; t21 is 2^21 of them; the variant's payload
#: starts at 8 (its largest alignment), _1 follows _0, and the element is rounded to 8.
EXPECTED = """
import struct
LEAF = struct.pack("=f4xd", 1.5, -2.25)
EXPECTED = struct.pack("=i4x", 1) + LEAF * 2 ** 21 + struct.pack("=i4x", 7)
"""


def _run(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return run_cpu_bounded([sys.executable, *args], cpu_s=TIME_LIMIT, memory=MEMORY_LIMIT,
                           what="the work is not linear in the schema", cwd=cwd, text=True,
                           env=env)


@pytest.fixture(scope="module")
def deep(tmp_path_factory):
    folder = tmp_path_factory.mktemp("deep")
    (folder / "deep.toml").write_text(_doubling_toml())
    return folder


def test_generated_python_module_round_trips_the_deep_variant(deep):
    out = deep / "out"
    proc = _run(["-m", "sarek_layout", "generate", "deep.toml", "-o", "out", "-t", "python"], deep)
    assert proc.returncode == 0, proc.stderr
    text = (out / "deep_layout.py").read_text()
    assert len(text) < 2 << 20, len(text)  # linear in the schema, not in its 4M leaves
    script = EXPECTED + textwrap.dedent(
        """
        import deep_layout as D
        x = D.Deep_t0(1.5, -2.25)
        for k in range(1, 22):
            x = getattr(D, f"Deep_t{k}")(x, x)  # shared: 22 objects describe 4M leaves
        data = D.encode_Deep_v(D.Deep_v_B(x, 7))
        assert data == EXPECTED, "encoded bytes differ"
        assert D.SIZEOF_Deep_v == len(EXPECTED)
        back = D.decode_Deep_v(data)
        assert isinstance(back, D.Deep_v_B) and back._1 == 7
        first, last = back._0, back._0
        for _ in range(21):
            first, last = first.a, last.b
        assert (first.a, last.b) == (1.5, -2.25)
        assert D.encode_Deep_v(back) == data, "decode then encode changed the bytes"
        assert D.decode_Deep_v(D.encode_Deep_v(D.Deep_v_C())) == D.Deep_v_C()
        print("ok")
        """
    )
    proc = _run(["-c", script], out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"


def test_api_codec_round_trips_the_deep_variant(deep):
    script = EXPECTED + textwrap.dedent(
        """
        import sarek_layout as sl
        schema = sl.load("deep.toml")
        x = {"a": 1.5, "b": -2.25}
        for k in range(1, 22):
            x = {"a": x, "b": x}
            if k == 12:  # the checking walk writes the same bytes (4,096 leaves, two opaque levels)
                assert schema.codec("t12")._encode_slow(x) == schema.codec("t12").encode(x)
        record = schema.codec("t21")
        assert record.encode(x) == EXPECTED[8:-8]
        variant = schema.codec("v")
        data = variant.encode(("B", (x, 7)))
        assert data == EXPECTED, "encoded bytes differ"
        name, (value, seven) = variant.decode(data)
        assert (name, seven) == ("B", 7)
        first, last = value, value
        for _ in range(21):
            first, last = first["a"], last["b"]
        assert (first["a"], last["b"]) == (1.5, -2.25)
        assert variant.encode((name, (value, seven))) == data, "decode then encode changed the bytes"
        print("ok")
        """
    )
    proc = _run(["-c", script], deep)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"


def test_caches_find_an_equal_deep_type_in_linear_time(tmp_path):
    """Two equal 26-level types built apart (a schema loaded twice, say): the second gets the
    first's member model, plan and codec at once. TRecord is hash-consed, so they are one
    object; the host caches would also key such copies by a structural digest
    (``model.elttype_key``), never by ``==`` (exponential on unshared copies)."""
    script = textwrap.dedent(
        """
        from sarek_layout.ir.types import TFloat32, TFloat64, TRecord
        from sarek_layout.host import codec_of
        from sarek_layout.host.model import model_of
        from sarek_layout.host.plan import plan_of

        def chain():
            t = TRecord("t0", [("a", TFloat32), ("b", TFloat64)])
            for k in range(1, 26):  # 512 MiB: the largest type is 2^31 - 1 bytes
                t = TRecord(f"t{k}", [("a", t), ("b", t)])
            return t

        first, second = chain(), chain()
        assert first is second  # hash-consed
        assert codec_of(second) is codec_of(first)
        assert model_of(second) is model_of(first)
        assert plan_of(model_of(second)) is plan_of(model_of(first))
        other = TRecord("t25", [("a", second.fields[0][1]), ("b", TFloat32)])
        assert plan_of(model_of(other)) is not plan_of(model_of(second))
        print("ok")
        """
    )
    proc = _run(["-c", script], tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"
