"""Comparing what compilers measured with what the layout core says, and the report.

A ``ToolchainResult`` per toolchain (agrees, disagrees, failed to compile, skipped), each
difference spelled for a person: ``Geometry_particle.mass: layout says offset 8, gcc -m32
says 4``. ``format_report`` prints the table (toolchain by result) and then the details.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from .toolchains import Toolchain
from .probes import ALIGN, MEMBER_SIZE, OFFSET, SIZE, STRIDE, Probe

__all__ = [
    "Difference",
    "ToolchainResult",
    "StructureProblem",
    "differences",
    "format_report",
    "AGREES",
    "DISAGREES",
    "FAILED",
    "SKIPPED",
]

AGREES = "agrees"
DISAGREES = "DISAGREES"
FAILED = "FAILED"
SKIPPED = "skipped"

_WHAT = {SIZE: "size", ALIGN: "alignment", OFFSET: "offset", MEMBER_SIZE: "member size",
         STRIDE: "stride"}


@dataclass(frozen=True)
class Difference:
    """One value a toolchain (pass) measured differently from the layout core."""

    probe: Probe
    measured: int
    who: str  # "gcc -m32", "nvcc (device pass)"

    def __str__(self) -> str:
        return self.text(self.who)

    def text(self, who: str, plural: bool = False) -> str:
        """The line, with ``who`` measuring (``they (device pass)`` for a folded block)."""
        p = self.probe
        where = f"{p.c_type}.{p.member}" if p.member else p.c_type
        return (f"{where}: layout says {_WHAT[p.quantity]} {p.expected}, "
                f"{who} {'say' if plural else 'says'} {self.measured}")


@dataclass(frozen=True)
class StructureProblem:
    """A header that does not declare what the schema says: ``file:line:col: message``."""

    location: str
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


@dataclass
class ToolchainResult:
    toolchain: Toolchain
    status: str
    values: int = 0
    differences: List[Difference] = field(default_factory=list)
    #: Compiler diagnostics (FAILED), or why it was skipped (SKIPPED).
    error: Optional[str] = None
    #: The header's own assertions failed; the numbers come from a second compile.
    note: Optional[str] = None
    seconds: float = 0.0
    builds: int = 0

    @property
    def ok(self) -> bool:
        # A header whose own assertions fail does not compile as given, even when every
        # number measured with them switched off agrees: the user's build would stop there.
        return self.status in (AGREES, SKIPPED) and not self.note


def differences(
    probes: Sequence[Probe],
    passes: Sequence[Tuple[str, Sequence[int]]],
    toolchain_label: str,
) -> List[Difference]:
    """Every probe whose measured value differs, pass by pass (a value of ``None`` is one
    the toolchain cannot measure: glslang has no offset for a byte inside a word)."""
    out: List[Difference] = []
    for pass_name, values in passes:
        who = f"{toolchain_label} ({pass_name})" if pass_name else toolchain_label
        for probe, value in zip(probes, values):
            if value is not None and value != probe.expected:
                out.append(Difference(probe, value, who))
    return out


def _compiled_only(r: ToolchainResult) -> bool:
    """A toolchain that ran and compiled the files but compared no value (naga and
    glslang's HLSL front end are compile checks; any toolchain given nothing to probe): it
    is no agreement, and the report does not count it as one."""
    return r.status == AGREES and not r.note and r.values == 0


def _result_cell(r: ToolchainResult) -> str:
    if r.status == AGREES and r.note:
        return f"FAILED (its own assertions fail; {r.values} values agree)"
    if _compiled_only(r):
        return "compiles (measures no values)"
    if r.status == AGREES:
        return f"agrees ({r.values} values)"
    if r.status == DISAGREES:
        n = len(r.differences)
        return f"DISAGREES ({n} value{'s' if n != 1 else ''} differ{'s' if n == 1 else ''})"
    if r.status == FAILED:
        return "FAILED (does not compile)"
    return f"skipped: {r.error}" if r.error else "skipped"


#: Width of the toolchain column (the longest registry name, ``clang-opencl``).
NAME_WIDTH = 12


#: Width of the target column (the longest target name, ``typescript``).
TARGET_WIDTH = 10


def table_header() -> str:
    return f"{'toolchain':<{NAME_WIDTH}}  {'target':<{TARGET_WIDTH}}  {'time':>7}  result"


def table_row(r: ToolchainResult) -> str:
    time_cell = f"{r.seconds:6.2f}s" if r.status != SKIPPED else "      -"
    return (f"{r.toolchain.name:<{NAME_WIDTH}}  {r.toolchain.target:<{TARGET_WIDTH}}  "
            f"{time_cell}  {_result_cell(r)}")


def structure_lines(structure: Sequence[StructureProblem], max_lines: int = 50,
                    heading: bool = True) -> List[str]:
    """The header structure problems; without ``heading``, one ``file:line:col: …`` line each,
    as a compiler prints them (the CLI's first lines: an editor jumps to each)."""
    if not structure:
        return []
    n = len(structure)
    lines = [f"header structure: {n} problem{'s' if n != 1 else ''}"] if heading else []
    indent = "  " if heading else ""
    lines.extend(f"{indent}{p}" for p in structure[:max_lines])
    if n > max_lines:
        lines.append(f"{indent}… and {n - max_lines} more")
    return lines


def _pass_of(d: Difference, label: str) -> str:
    """`` (device pass)`` of ``nvcc (device pass)``: the part of ``who`` after the label."""
    return d.who[len(label):] if d.who.startswith(label) else f" ({d.who})"


def _block_key(r: ToolchainResult) -> tuple:
    """What a toolchain's details say, without its name: equal keys print as one block."""
    label = r.toolchain.display
    diffs = tuple((d.probe, d.measured, _pass_of(d, label)) for d in r.differences) \
        if r.status == DISAGREES else ()
    return (r.note, r.status, diffs, r.error if r.status == FAILED else None)


def _lone_disagreement(results: Sequence[ToolchainResult]) -> Optional[str]:
    """The hint of the one toolchain that alone disagrees, with every value it measured
    smaller than the layout's while some other toolchain agrees: the shape of an ABI that
    aligns some members less (i386's 4-aligned ``double``/``int64_t``), whose fix is known."""
    bad = [r for r in results if r.status not in (AGREES, SKIPPED) or r.note]
    if len(bad) != 1 or bad[0].status != DISAGREES or bad[0].note:
        return None
    lone = bad[0]
    if not lone.toolchain.lone_disagreement or not any(r.status == AGREES for r in results):
        return None
    if all(d.measured < d.probe.expected for d in lone.differences):
        return lone.toolchain.lone_disagreement
    return None


def detail_lines(results: Sequence[ToolchainResult], max_lines: int = 50) -> List[str]:
    """Every difference, failed compile and failing header assertion, toolchain by toolchain;
    toolchains whose details are the same (a header mistake every compiler measures alike)
    share one block that names them all."""
    groups: dict = {}
    for r in results:
        if r.note or r.status in (DISAGREES, FAILED):
            groups.setdefault(_block_key(r), []).append(r)
    lines: List[str] = []
    for same in groups.values():
        r = same[0]
        many = len(same) > 1
        label = r.toolchain.display
        if many:
            label = ", ".join(t.toolchain.display for t in same) + " report the same"
        if r.note:
            lines.append("")
            lines.append(f"{label}: the header's own compile-time assertions fail "
                         f"(numbers below measured with them switched off):")
            lines.extend(f"  {ln}" for ln in r.note.splitlines())
        if r.status == DISAGREES:
            lines.append("")
            lines.append(f"{label}: {len(r.differences)} value(s) differ from the layout:")
            own = r.toolchain.display
            lines.extend(f"  {d.text('they' + _pass_of(d, own), plural=True) if many else d}"
                         for d in r.differences[:max_lines])
            if len(r.differences) > max_lines:
                lines.append(f"  … and {len(r.differences) - max_lines} more")
        elif r.status == FAILED:
            lines.append("")
            lines.append(f"{label}: the headers do not compile:")
            lines.extend(f"  {ln}" for ln in (r.error or "").splitlines())
    hint = _lone_disagreement(results)
    if hint:
        lines.extend(["", hint])
    return lines


def summary_line(results: Sequence[ToolchainResult], structure: Sequence[StructureProblem] = (),
                 types: int = 0) -> str:
    ran = [r for r in results if r.status != SKIPPED]
    measured = [r for r in ran if not _compiled_only(r)]
    bad = [r for r in measured if not r.ok]
    skipped = len(results) - len(ran)
    of_types = f" of {types} type{'s' if types != 1 else ''}" if types else ""
    compiled = len(ran) - len(measured)
    if measured or not compiled:
        text = (f"{len(measured) - len(bad)} of {len(measured)} "
                f"toolchain{'s' if len(measured) != 1 else ''} agree with the layout{of_types}")
        if compiled:
            text += f"; {compiled} more compile{'s' if compiled == 1 else ''} it, measuring nothing"
    else:
        text = (f"no toolchain measured the layout{of_types}; {compiled} "
                f"compile{'s' if compiled == 1 else ''} it, measuring nothing")
    if skipped:
        text += f"; {skipped} skipped"
    if structure:
        text += f"; {len(structure)} header structure problem{'s' if len(structure) != 1 else ''}"
    return text


def format_report(
    results: Sequence[ToolchainResult],
    structure: Sequence[StructureProblem] = (),
    *,
    types: int = 0,
    max_lines: int = 50,
) -> str:
    """The whole report: structure problems, the table, the details, a summary line."""
    lines = structure_lines(structure, max_lines)
    if lines:
        lines.append("")
    if results:
        lines.append(table_header())
        lines.extend(table_row(r) for r in results)
    lines.extend(detail_lines(results, max_lines))
    lines.append("")
    lines.append(summary_line(results, structure, types))
    return "\n".join(lines) + "\n"
