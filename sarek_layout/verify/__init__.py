"""Verify stage: prove that real compilers lay the types out as the layout core says.

``verify_schema(schema)`` compiles the schema's headers (generated now, or given with
``headers=``) with every installed toolchain of ``toolchains``: one compiler invocation (or
one OpenCL program build) per toolchain for the whole schema. Each measures the ``sizeof``,
alignment and every member offset and size of every type (``probes``), and ``compare``
reports each value that differs from the layout core, naming the member and both numbers.
Hand-written headers are first checked for structure with pycparser (``structure``).

This stage never computes a layout of its own: the expected numbers are the layout core's.
"""

from __future__ import annotations

from .compare import AGREES, DISAGREES, FAILED, SKIPPED, Difference, StructureProblem, ToolchainResult
from .drivers import HeaderSet, Measurement, ProbeFailed
from .toolchains import driver_for
from .probes import Probe, probes_for, probes_for_type
from .run import VerifyReport, select_toolchains, verify_schema

__all__ = [
    "verify_schema",
    "verify_files",
    "VerifyReport",
    "ToolchainResult",
    "Difference",
    "StructureProblem",
    "Probe",
    "probes_for",
    "probes_for_type",
    "HeaderSet",
    "Measurement",
    "ProbeFailed",
    "driver_for",
    "select_toolchains",
    "AGREES",
    "DISAGREES",
    "FAILED",
    "SKIPPED",
]


def verify_files(schemas, toolchains=None, headers=None) -> VerifyReport:
    """``verify_schema`` on schema files (paths), as ``sarek-layout verify`` does."""
    from ..resolve import load_schema

    return verify_schema(load_schema([str(p) for p in schemas]),
                         toolchains=list(toolchains) if toolchains else None,
                         headers=[str(h) for h in headers] if headers else None)
