"""Section 6: ``explain`` on records of hundreds and thousands of fields.

One record of N random fields (Sarek's scalars and three nested records: 8 bytes at
alignment 4, 12 at 4, 16 at 8, so all three kinds of member the reorder search tells apart
appear), declared in a JSON schema. Measured end to end, as a user runs it, with the peak
RSS of the process: the plain report (which searches for nothing) and ``--suggest`` (the
exact reorder search). A second mix has every scalar, Sarek's 1- and 2-byte ``uint8`` and
``float16`` included, which the search handles in a widening band (``explain/reorder.py``).
The target: a record of 480 fields in well under 2 s, in both mixes.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Sequence

from common import Report, Row, check, megabytes, run_process, sarek_command, seconds

_NESTED = [
    {"record": "pair", "fields": [["a", "float32"], ["b", "float32"]]},
    {"record": "trio", "fields": [["a", "float32"], ["b", "float32"], ["c", "int32"]]},
    {"record": "mixed", "fields": [["d", "float64"], ["i", "int32"]]},
]
_TYPES = ("int32", "float32", "bool", "int64", "float64", "pair", "trio", "mixed")
_ALL_SCALARS = ("int32", "float32", "bool", "unit", "int64", "float64", "float16", "uint8")
#: Row label -> field types (the first mix keeps the rows' old labels).
MIXES = {"one record of {n:,} fields": _TYPES, "{n:,} fields of every scalar": _ALL_SCALARS}


def write_wide_record(n: int, path: Path, seed: int = 6, types: Sequence[str] = _TYPES) -> Path:
    rng = random.Random(seed)
    fields = [[f"f{i}", rng.choice(types)] for i in range(n)]
    path.write_text(json.dumps({"module": "Wide", "types": [*_NESTED, {"record": "wide", "fields": fields}]}))
    return path


def wide_records(report: Report, sizes: Sequence[int], repeat: int) -> None:
    with tempfile.TemporaryDirectory(prefix="sarek-bench-explain-") as tmp:
        for mix, types in MIXES.items():
            for n in sizes:
                schema = write_wide_record(n, Path(tmp) / f"wide{n}_{len(types)}.json", types=types)
                for label, extra in (("explain", []), ("explain --suggest", ["--suggest"])):
                    argv = [*sarek_command(), "explain", str(schema), "--type", "wide", *extra]
                    runs = [check(run_process(argv), argv) for _ in range(repeat)]
                    took = statistics.median(r.seconds for r in runs)
                    peak = max(r.peak_kib for r in runs)
                    target = "< 2 s" if (n == 480 and extra) else ""
                    report.add(Row("6. explain", f"{label}, {mix.format(n=n)}", seconds(took),
                                   target=target, met=(took < 2.0) if target else None,
                                   note=f"peak {megabytes(peak)}, median of {repeat}"))
