"""One verification run: pick toolchains, get headers, probe, compare.

Headers are either generated now (``codegen.render_headers``) or given by the user
(``--header``: names checked, read once, checked for structure, then compiled as they are).
Each toolchain compiles the headers of its target once, with every probe of every type the
structure check let through; independent toolchains run side by side (``schedule``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..errors import SchemaError, ToolchainMissing, UsageError
from ..ir.schema import Schema, SchemaType
from ..targets.registry import TARGETS, WORD_TARGETS
from .toolchains import TOOLCHAINS, Toolchain, driver_for, prefetch
from .compare import (
    AGREES,
    DISAGREES,
    FAILED,
    SKIPPED,
    StructureProblem,
    ToolchainResult,
    differences,
    format_report,
)
from .drivers import HeaderSet, ProbeFailed, ProbeSkipped
from .headers import check_header_name
from .tools import memory_limit_mb, timeout_seconds
from .probes import Probe, probes_for, spanned
from .schedule import Job, default_workers, run_in_order

__all__ = ["VerifyReport", "verify_schema", "select_toolchains", "generated_headers",
           "rendered_headers",
           "user_headers", "measure_with"]


@dataclass
class VerifyReport:
    """Everything one run found; ``exit_status`` is SPEC §5's 0 (all agree) or 1."""

    results: List[ToolchainResult] = field(default_factory=list)
    structure: List[StructureProblem] = field(default_factory=list)
    types: int = 0

    @property
    def ok(self) -> bool:
        return not self.structure and all(r.ok for r in self.results)

    @property
    def exit_status(self) -> int:
        return 0 if self.ok else 1

    def format(self) -> str:
        return format_report(self.results, self.structure, types=self.types)

    def differences(self) -> List[str]:
        """Every difference and structural problem, one line each (for tests and plugins)."""
        out = [str(p) for p in self.structure]
        for r in self.results:
            out.extend(str(d) for d in r.differences)
            if r.status == FAILED:
                out.append(f"{r.toolchain.display}: does not compile: {r.error}")
        return out


def select_toolchains(
    names: Optional[Sequence[str]], targets: Optional[Sequence[str]] = None
) -> Tuple[List[Toolchain], bool]:
    """The toolchains to run and whether they were named.

    Named ones must exist (``UsageError``) and be installed (``ToolchainMissing``, exit 2,
    with the install hint). Unnamed: every toolchain (of ``targets``), installed or not.
    """
    if names:
        unknown = [n for n in names if n not in TOOLCHAINS]
        if unknown:
            raise UsageError(f"unknown toolchain {unknown[0]!r}; known: {', '.join(TOOLCHAINS)} "
                             f"(--toolchain list shows which are installed)")
        chosen = [TOOLCHAINS[n] for n in dict.fromkeys(names)]
        if targets is not None:
            wrong = [t for t in chosen if t.target not in targets]
            if wrong:
                t = wrong[0]
                raise UsageError(f"toolchain {t.name} compiles {t.target} headers, and no "
                                 f"--header of that target was given")
        missing = [t.unavailable_reason for t in chosen if not t.available]
        if missing:
            raise ToolchainMissing("toolchain asked for by name cannot be used: "
                                   + "; ".join(str(m) for m in missing))
        return chosen, True
    chosen = [t for t in TOOLCHAINS.values() if targets is None or t.target in targets]
    return chosen, False


def rendered_headers(schema: Schema, targets: Sequence[str]
                     ) -> Tuple[Dict[str, HeaderSet], Dict[str, SchemaError]]:
    """The headers ``generate`` would write now, grouped by target, and why each target that
    cannot express ``schema`` refused it: a name the target cannot emit (``targets.names``: a
    keyword of its language, a macro its compilers predefine…), GLSL and WGSL keep every type in
    whole 32-bit words, so a record of three uint8 has no struct there
    (``codegen.shader_views``); the C-family targets' other refusals (schema files whose headers
    would clash) are raised."""
    from ..codegen import render_headers
    from ..codegen.declarations import Unrepresentable
    from ..targets.names import check_names

    wanted = list(dict.fromkeys(targets))
    # A name one target cannot emit (a keyword of its language…) refuses that target only.
    refused: Dict[str, SchemaError] = {}
    for target in wanted:
        try:
            check_names(schema, [target])
        except SchemaError as e:
            refused[target] = e
    wanted_now = [t for t in wanted if t not in refused]
    # The C-family targets in one call, so that the views they share are built once; each
    # word target alone, so that its refusal leaves the others.
    alone = [t for t in wanted_now if t in WORD_TARGETS or TARGETS[t].may_refuse]
    c_family = [t for t in wanted_now if t not in alone]
    files = []
    try:
        files = render_headers(schema, c_family) if c_family else []
    except Unrepresentable:
        # A type one of them cannot declare (the scalar rules' unrounded structs in C): each
        # alone, so that the refusal is that target's.
        alone += c_family
    for target in alone:
        try:
            files += render_headers(schema, [target])
        except SchemaError as e:
            refused[target] = e
    by_target: Dict[str, List] = {}
    for f in files:
        by_target.setdefault(f.target, []).append(f)
    out: Dict[str, HeaderSet] = {}
    for target in wanted:
        if target not in refused:
            mine = by_target.get(target, [])
            out[target] = HeaderSet(tuple((f.filename, f.text) for f in mine),
                                    tuple(f.filename for f in mine))
    return out, refused


def generated_headers(schema: Schema, targets: Sequence[str]) -> Dict[str, HeaderSet]:
    """The headers ``generate`` would write now, grouped by target (a target's refusal is
    raised)."""
    out, refused = rendered_headers(schema, targets)
    if refused:
        raise next(iter(refused.values()))
    return out


def user_headers(paths: Sequence[str], include_dirs: Sequence[str] = (),
                 defines: Sequence[str] = ()) -> HeaderSet:
    """Headers on disk, compiled as they are (``include_dirs``, then their own folders, are
    searched for includes; ``defines`` are ``-D`` macros, as ``import-c`` takes them)."""
    return HeaderSet.from_paths(paths, include_dirs, defines)


def _outcome(tc: Toolchain, *, header_sets: Dict[str, HeaderSet],
             refused: Dict[str, SchemaError], probes_by_target: Dict[str, List[Probe]],
             chosen: Sequence[Toolchain], types: bool, generated: bool) -> ToolchainResult:
    """One toolchain's row: skipped (and why), or measured. Run as its job, because whether
    it is available may mean opening a device (``Toolchain.device``)."""
    if generated and tc.target in refused and (
            tc.available or any(t.available for t in chosen if t.target == tc.target)):
        # The target's refusal is said where some toolchain of it could have run.
        e = refused[tc.target]
        where = f" ({e.location})" if e.location is not None else ""
        return ToolchainResult(tc, SKIPPED, error=f"{tc.target} cannot express a type{where}; "
                               f"`generate -t {tc.target}` says why")
    if not tc.available or tc.target not in header_sets:
        return ToolchainResult(tc, SKIPPED, error=tc.unavailable_reason)
    if not probes_by_target[tc.target] and types:
        return ToolchainResult(tc, SKIPPED, error="no type passed the header structure check")
    return measure_with(tc, header_sets[tc.target], probes_by_target[tc.target])


def measure_with(toolchain: Toolchain, headers: HeaderSet, probes: Sequence[Probe]) -> ToolchainResult:
    """Run one toolchain's driver and compare; never raises for a compile failure."""
    if not toolchain.available:
        return ToolchainResult(toolchain, SKIPPED, error=toolchain.unavailable_reason)
    try:
        m = driver_for(toolchain.name).measure(headers, probes)
    except ProbeFailed as e:
        return ToolchainResult(toolchain, FAILED, len(probes), error=e.output)
    except ProbeSkipped as e:
        return ToolchainResult(toolchain, SKIPPED, error=str(e))
    diffs = differences(probes, m.passes, toolchain.display)
    values = sum(v is not None for _, vs in m.passes for v in vs)
    status = DISAGREES if diffs else AGREES
    return ToolchainResult(toolchain, status, values, diffs, note=m.note, seconds=m.seconds,
                           builds=m.builds)


def _as_measured(target: str, probes: List[Probe]) -> List[Probe]:
    """``probes`` as ``target``'s language measures them: an array padded to its span where
    its arrays always span count × stride (``Target.arrays_span``)."""
    known = TARGETS.get(target)
    return spanned(probes) if known is not None and known.arrays_span else probes


def verify_schema(
    schema: Schema,
    toolchains: Optional[Sequence[str]] = None,
    headers: Optional[Sequence[str]] = None,
    types: Optional[Sequence[SchemaType]] = None,
    on_result: Optional[Callable[[ToolchainResult], None]] = None,
    include_dirs: Sequence[str] = (),
    defines: Sequence[str] = (),
    on_structure: Optional[Callable[[List[StructureProblem]], None]] = None,
    jobs: Optional[int] = None,
) -> VerifyReport:
    """Verify ``types`` (default: all) of ``schema`` with ``toolchains`` (default: all).

    ``jobs`` toolchains run at once (default: the cores, ``schedule.default_workers``; 1:
    one after another); the results, and each ``on_result`` call, come in the toolchains'
    order whatever finishes first.

    With ``headers`` (paths), those headers are checked for structure and compiled instead
    of freshly generated ones, their includes found and macros defined by ``include_dirs``
    and ``defines`` (``-I``/``-D``, as for C header schemas); ``on_structure`` hears their
    structure problems before any compiler runs (the CLI prints them first). Raises
    ``ToolchainMissing`` when a named toolchain is absent.
    """
    timeout_seconds(), memory_limit_mb()  # a bad $SAREK_VERIFY_… is a usage error, up front
    workers = default_workers() if jobs is None else jobs
    types = list(schema.types if types is None else types)
    report = VerifyReport(types=len(types))
    refused: Dict[str, SchemaError] = {}
    header_sets: Dict[str, HeaderSet]
    probes_by_target: Dict[str, List[Probe]] = {}
    if headers:
        from .structure import check_header_set, target_of_header

        by_target: Dict[str, List[str]] = {}
        for path in headers:
            check_header_name(path)
            by_target.setdefault(target_of_header(path), []).append(path)
        chosen, _ = select_toolchains(toolchains, list(by_target))
        prefetch(chosen, workers)
        # Every header is read (and refused if it cannot be) before anything runs.
        header_sets = {target: user_headers(paths, include_dirs, defines)
                       for target, paths in by_target.items()}
        for target, header_set in header_sets.items():
            problems, passed = check_header_set(header_set, types, target, schema.types)
            report.structure.extend(problems)
            probes_by_target[target] = _as_measured(target, probes_for(passed))
        if on_structure is not None:
            on_structure(report.structure)
    else:
        chosen, named = select_toolchains(toolchains)
        # What is installed, found side by side; a device (wgpu, Vulkan) is opened later,
        # in its toolchain's own job (Toolchain.device), beside the other jobs.
        prefetch(chosen, workers)
        targets = sorted({t.target for t in chosen if t.installed})
        header_sets, refused = rendered_headers(schema, targets)
        if refused and named:
            # Asked for by name: that target's refusal is the answer (exit 2).
            raise next(iter(refused.values()))
        common = probes_for(types)
        probes_by_target = {t: _as_measured(t, common) for t in targets}
    outcome = functools.partial(_outcome, header_sets=header_sets, refused=refused,
                                probes_by_target=probes_by_target, chosen=chosen,
                                types=bool(types), generated=not headers)
    jobs_list: List[Job[ToolchainResult]] = []
    for tc in chosen:
        runs = tc.installed and (tc.target in header_sets or tc.target in refused)
        pooled, estimate = False, 0.0
        if runs:
            driver = tc.driver_class()
            # On a worker only when its decision needs no device opened in this process:
            # its own availability is known (no device), or its target was not refused.
            pooled = driver.subprocess_only and (tc.available or tc.target not in refused)
            estimate = driver.estimate_s
        jobs_list.append(Job(functools.partial(outcome, tc), pooled=pooled, estimate=estimate))
    # Independent toolchains side by side, the longest first (verify.schedule); rows come in
    # this order anyway.
    report.results = run_in_order(jobs_list, workers, on_result)
    return report
