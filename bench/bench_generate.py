"""Sections 2 and 3b: header generation end to end, against FlatBuffers' ``flatc --cpp``.

Both tools run as processes from a cold start, into an empty output folder each time (so
every header is really written), alternating run by run; the times are medians and the
memory is each process's own peak RSS. The FlatBuffers schema declares the same records as
``struct``s with the same scalar sizes, which ``flatc`` turns into C++ classes with padding
and a size assertion each (we also assert the alignment and every offset).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from common import (Report, Row, interleaved, megabytes, random_records, sarek_command,
                    seconds, which, write_fbs_schema, write_json_schema)


def _fresh(folder: Path):
    def prepare() -> None:
        shutil.rmtree(folder, ignore_errors=True)

    return prepare


def against_flatc(report: Report, n: int, repeat: int) -> None:
    sarek = sarek_command()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-gen-") as tmp:
        tmp_path = Path(tmp)
        records = random_records(n)
        schema = write_json_schema(records, tmp_path / "bench.json")
        fbs = write_fbs_schema(records, tmp_path / "bench.fbs")
        out_c, out_all, out_fb = tmp_path / "out_c", tmp_path / "out_all", tmp_path / "out_fb"
        commands = {
            "c": ([*sarek, "generate", str(schema), "-o", str(out_c), "-t", "c"], _fresh(out_c)),
            "all": ([*sarek, "generate", str(schema), "-o", str(out_all)], _fresh(out_all)),
        }
        flatc = which("flatc")
        if flatc:
            commands["flatc"] = ([flatc, "--cpp", "-o", str(out_fb), str(fbs)], _fresh(out_fb))
        else:
            report.skip("generate vs flatc", "flatc is not installed "
                        "(apt-get install -y flatbuffers-compiler)")
        res = interleaved(commands, repeat)
        c_time, c_peak = res["c"]
        size_c = (out_c / "bench.h").stat().st_size
        what = f"generate -t c, {n:,} types (vs flatc --cpp)"
        if flatc:
            f_time, f_peak = res["flatc"]
            size_f = sum(p.stat().st_size for p in out_fb.iterdir())
            report.add(Row("2. generate", what, seconds(c_time), f"flatc {seconds(f_time)}",
                           c_time / f_time, "<= 2.5", c_time <= 2.5 * f_time,
                           note=f"output {size_c / 1e6:.1f} MB vs flatc's {size_f / 1e6:.1f} MB"))
            report.add(Row("2. generate", "  peak memory (vs flatc)", megabytes(c_peak),
                           f"flatc {megabytes(f_peak)}", c_peak / f_peak, "<= 1.5",
                           c_peak <= 1.5 * f_peak))
        else:
            report.add(Row("2. generate", f"generate -t c, {n:,} types", seconds(c_time)))
            report.add(Row("2. generate", "  peak memory", megabytes(c_peak)))
        a_time, a_peak = res["all"]
        report.add(Row("2. generate", f"generate (c, cuda, opencl), {n:,} types",
                       seconds(a_time), f"-t c {seconds(c_time)}", a_time / c_time))
        report.add(Row("2. generate", "  peak memory, three targets", megabytes(a_peak)))


def scaling(report: Report, sizes, repeat: int) -> None:
    """``generate -t c`` of 1k-50k types: CPU time (user + system, GNU time's process
    included), best of ``repeat`` with the sizes interleaved, so that a busy moment of a
    shared machine hits every size and cannot decide the ratio alone."""
    sarek = sarek_command()
    with tempfile.TemporaryDirectory(prefix="sarek-bench-scale-") as tmp:
        tmp_path = Path(tmp)
        runs = {}
        for n in sizes:
            schema = write_json_schema(random_records(n), tmp_path / f"scale{n}.json")
            out = tmp_path / f"out{n}"
            runs[n] = ([*sarek, "generate", str(schema), "-o", str(out), "-t", "c"], _fresh(out))
        measured = interleaved(runs, repeat, cpu=True)
    for n, (took, peak) in measured.items():
        report.add(Row("3. scaling", f"generate -t c, {n:,} types", seconds(took),
                       note=f"{took / n * 1e6:.0f} us per type, peak {megabytes(peak)}; "
                            f"CPU, best of {repeat}"))
    if 10_000 in measured and 50_000 in measured:
        ratio = measured[50_000][0] / measured[10_000][0]
        report.add(Row("3. scaling", "generate: time(50k) / time(10k) (linear = 5)",
                       f"{ratio:.2f}", "", ratio, "<= 5.5", ratio <= 5.5,
                       note="CPU; section 9 measures the work done, which the caches leave alone"))
