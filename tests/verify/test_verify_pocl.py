"""PoCL: the values come back from a kernel run on the device, and the whole run (all types,
more probes than one constant table holds) costs exactly one helper process, one program
build and one kernel run."""

from __future__ import annotations

from helpers.common import require_toolchain
from sarek_layout.verify.drivers import opencl
from sarek_layout.verify.drivers.opencl import CHUNK, PoclDriver
from sarek_layout.verify.probes import probes_for
from sarek_layout.verify.run import generated_headers
from helpers.shapes import conformance_records, conformance_variants
from helpers.verify import every_nth, schema_of


def test_one_program_build_and_kernel_readback(tmp_path, monkeypatch):
    tc = require_toolchain("pocl")
    import pyopencl as cl

    descs = list(conformance_records()) + every_nth(list(conformance_variants()), 20)
    schema = schema_of(descs, tmp_path)
    probes = probes_for(schema.types)
    assert len(probes) > 2 * CHUNK  # several __constant tables, one kernel
    headers = generated_headers(schema, ["opencl"])["opencl"]

    builds, runs, children = [], [], []
    real_build = cl.Program.build
    real_copy = cl.enqueue_copy

    def child_in_this_process(task, request, *, cwd, env=None):
        """The helper process's task, run here so that its calls can be counted."""
        from sarek_layout.verify.drivers import child
        from sarek_layout.verify.tools import ChildAnswer, ToolRun

        children.append(task)
        return ChildAnswer(ToolRun(0, "", ""), child._TASKS[task](request))

    def counting_build(self, *args, **kwargs):
        builds.append(1)
        return real_build(self, *args, **kwargs)

    def counting_copy(queue, dest, src, *args, **kwargs):
        runs.append(1)
        return real_copy(queue, dest, src, *args, **kwargs)

    monkeypatch.setattr(cl.Program, "build", counting_build)
    monkeypatch.setattr(cl, "enqueue_copy", counting_copy)
    monkeypatch.setattr(opencl, "run_child", child_in_this_process)
    monkeypatch.setenv("POCL_CACHE_DIR", str(tmp_path / "pocl-cache"))
    m = PoclDriver(tc).measure(headers, probes)
    assert children == ["pocl"]
    assert len(builds) == 1
    assert len(runs) == 1
    ((pass_name, values),) = m.passes
    assert list(values) == [p.expected for p in probes]


def test_kernel_readback_reports_the_device_numbers(tmp_path):
    """A header the device lays out differently: the kernel's numbers, not the expected ones."""
    tc = require_toolchain("pocl")
    schema = schema_of([("record", "r", [("a", "int32"), ("b", "float64")])], tmp_path)
    from sarek_layout.verify.drivers import HeaderSet

    header = HeaderSet((("r.clh", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                  "typedef struct Conf_r { int a; long b; long c; } Conf_r;\n"),),
                       ("r.clh",))
    probes = probes_for(schema.types)
    ((_, values),) = PoclDriver(tc).measure(header, probes).passes
    measured = {(p.member, p.quantity): v for p, v in zip(probes, values)}
    assert measured[("", "size")] == 24
    assert measured[("b", "offset")] == 8
