"""Section 10: rustc's time on the rust target's probe crate, at N and 5N types (issue 21).

The types are the C toolchains' conformance subset (every record and every 10th variant,
3,859 types: tests/helpers/shapes.py); N is every 5th of them, so that both crates hold the
same mix of records and variants (a variant's module text is about 2.5 times a record's, and
rustc's time follows the text). Each crate is what ``verify --toolchain rustc`` compiles
(``verify/drivers/rustc.py``'s ``probe_crate`` and flags), compiled once; the time is rustc's
own CPU time (user + system, from wait4), which other work on a shared machine inflates
less than wall time. Target: time(5N) / time(N) at most 5.5 (linear is 5). The rustc driver's
docstring says what made it superlinear-looking before (one static item per probe).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence, Tuple

from common import ROOT, Report, Row, megabytes, seconds

#: N is every STEP-th type of the 3,859; 5N is all of them.
STEP = 5


def _descriptions() -> list:
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers.shapes import conformance_records, conformance_variants

    return list(conformance_records()) + list(conformance_variants())[::10]


def _compile(descs: Sequence[tuple], folder: Path) -> Tuple[float, int, int]:
    """(rustc CPU seconds, peak RSS in KiB, bytes of generated Rust) for one probe crate."""
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers.verify import schema_of
    from sarek_layout.verify.drivers.rustc import RUST_EDITION, probe_crate
    from sarek_layout.verify.headers import HEADERS_DIR
    from sarek_layout.verify.probes import probes_for
    from sarek_layout.verify.run import generated_headers

    schema = schema_of(descs, folder / "schema")
    headers = generated_headers(schema, ["rust"])["rust"]
    (folder / HEADERS_DIR).mkdir()
    for name, text in headers.files:
        (folder / HEADERS_DIR / name).write_text(text)
    (folder / "sarek_probe.rs").write_text(probe_crate(headers, probes_for(schema.types)))
    argv = ["rustc", "--edition", RUST_EDITION, "--crate-type=staticlib", "--emit=obj",
            "-C", "opt-level=0", "sarek_probe.rs", "-o", "sarek_probe.o"]
    proc = subprocess.Popen(argv, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    stderr = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"rustc failed on the probe crate:\n{stderr[-2000:]}")
    return (usage.ru_utime + usage.ru_stime, usage.ru_maxrss,
            sum(len(text) for _, text in headers.files))


def scaling(report: Report) -> None:
    from sarek_layout.verify.toolchains import TOOLCHAINS

    why = TOOLCHAINS["rustc"].unavailable_reason
    if why:
        report.skip("10. rustc", why)
        return
    everything = _descriptions()
    results = {}
    for label, descs in (("N", everything[::STEP]), ("5N", everything)):
        with tempfile.TemporaryDirectory(prefix="sarek-bench-rustc-") as tmp:
            cpu, peak, size = _compile(descs, Path(tmp))
        results[label] = cpu
        report.add(Row("10. rustc", f"rustc probe crate, {len(descs):,} conformance types",
                       seconds(cpu), note=f"CPU; {size / 1e6:.1f} MB of Rust, peak "
                                          f"{megabytes(peak)}"))
    ratio = results["5N"] / results["N"]
    report.add(Row("10. rustc", "rustc: time(5N) / time(N) (linear = 5)", f"{ratio:.2f}",
                   ratio=ratio, target="<= 5.5", met=ratio <= 5.5))
