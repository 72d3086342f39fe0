"""The order ``make test`` runs the suite in: the few long test items first.

pytest-xdist's work stealing hands each worker a contiguous share of the collection and, when
one runs dry, moves the *end* of another's queue to it. A long item collected late (the rustc
conformance compile is one item of about a minute, in ``tests/verify/``, near the end
alphabetically) therefore runs last on one worker while the other waits: the end of the run is
serialised. Started first, the long items overlap with everything else, and what is left to
steal at the end is short.

``LONG`` names the test functions (parameters dropped) whose items took the longest in the
last profile (``--durations=0``, summed per function; the brief of issue 24's test-time work
has the numbers). It only orders: an item not named keeps its place relative to the others,
and the named ones keep their collection order among themselves (module-scoped fixtures, such
as the conformance parts of ``test_verify_drivers.py``, are built once per part only when the
items of a part stay together).
"""

from __future__ import annotations

from typing import List, Sequence, TypeVar

#: Longest first is not needed (work stealing balances the rest); being early is.
LONG = frozenset({
    "tests/verify/test_verify_rustc.py::test_conformance_subset_agrees",
    "tests/verify/test_verify_hlsl.py::test_conformance_enumeration_agrees_on_slang",
    "tests/host/test_host_e2e.py::test_zig_host_fills_the_same_bytes_as_python_and_c",
    "tests/verify/test_gpu_verify.py::test_conformance_shapes_agree",
    "tests/codegen/test_codegen_compile.py::test_conformance_shapes_compile",
    "tests/verify/test_verify_drivers.py::test_conformance_subset_agrees",
    "tests/verify/test_verify_drivers.py::test_conformance_enumeration_agrees",
    "tests/hostile/test_fuzz_pipeline.py::test_random_valid_schemas_generate_compile_and_import",
    "tests/host/test_host_codec.py::test_hypothesis_round_trip",
    "tests/verify/test_gpu_verify.py::test_hypothesis_schemas_agree",
    "tests/verify/test_gpu_verify.py::test_a_long_probe_list_is_read_by_several_shaders",
    "tests/codegen/test_gpu_small_scalars.py::test_uint8_and_float16_in_types_copied_with_loops",
})

Item = TypeVar("Item")


def function_id(nodeid: str) -> str:
    """``path::test_name`` of a node id (``path::Class::test[param]`` keeps its class)."""
    return nodeid.split("[", 1)[0]


def long_first(items: Sequence[Item], nodeid=lambda item: item.nodeid) -> List[Item]:
    """``items`` with those of ``LONG`` moved to the front; a stable partition."""
    long = [i for i in items if function_id(nodeid(i)) in LONG]
    rest = [i for i in items if function_id(nodeid(i)) not in LONG]
    return long + rest
