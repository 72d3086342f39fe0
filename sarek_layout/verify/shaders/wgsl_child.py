"""What ``verify --shader`` runs for WGSL in a child process (``wgsl.measure_wgsl`` starts it
under ``tools.run_tool``'s time and memory bounds, as ``drivers.child`` runs PoCL and NVRTC):
wgpu validates the user's shader with naga, then builds the probe shader and runs its entry
point ``sarek_shader_probe`` once on the adapter wgpu finds (Mesa's lavapipe on a CPU).

Protocol: one JSON request on stdin (``user``, ``probe``: WGSL sources; ``words``: the input
buffer's length in 32-bit words, word ``i`` holding ``i + 1``; ``count``: output words), one
JSON answer on the original stdout: ``{"ok": true, "values": […]}`` or ``{"ok": false,
"stage": "user"|"probe"|"device", "log": …}``. Only the standard library is imported at the
top; wgpu and its device only in the child.
"""

from __future__ import annotations

import json
import os
import sys


def _answer(request: dict) -> dict:
    import array

    try:
        import wgpu  # type: ignore  # optional, untyped

        adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
        if adapter is None:
            return {"ok": False, "stage": "device", "log": "wgpu found no adapter"}
        device = adapter.request_device_sync()
    except Exception as e:  # no backend, no Vulkan driver
        return {"ok": False, "stage": "device", "log": f"{type(e).__name__}: {e}"}
    try:
        device.create_shader_module(code=request["user"])
    except Exception as e:  # naga's diagnostic
        return {"ok": False, "stage": "user", "log": str(e)}
    if not request.get("probe"):
        return {"ok": True, "values": []}
    try:
        module = device.create_shader_module(code=request["probe"])
    except Exception as e:
        return {"ok": False, "stage": "probe", "log": str(e)}
    words = max(int(request["words"]), 1)
    count = max(int(request["count"]), 1)
    usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
    data = array.array("I", range(1, words + 1))
    if sys.byteorder != "little":
        data.byteswap()
    inp = device.create_buffer(size=words * 4, usage=usage)
    device.queue.write_buffer(inp, 0, data.tobytes())
    out = device.create_buffer(size=count * 4, usage=usage)
    try:
        pipeline = device.create_compute_pipeline(
            layout="auto", compute={"module": module, "entry_point": "sarek_shader_probe"})
        group = device.create_bind_group(
            layout=pipeline.get_bind_group_layout(0),
            entries=[{"binding": request["binding"], "resource": {"buffer": inp}},
                     {"binding": request["binding"] + 1, "resource": {"buffer": out}}])
    except Exception as e:
        return {"ok": False, "stage": "probe", "log": str(e)}
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, group)
    compute.dispatch_workgroups(1)
    compute.end()
    device.queue.submit([encoder.finish()])
    values = array.array("I", bytes(device.queue.read_buffer(out)))
    if sys.byteorder != "little":
        values.byteswap()
    return {"ok": True, "values": list(values[:count])}


def main() -> None:
    request = json.loads(sys.stdin.read())
    answer_fd = os.dup(1)  # keep the real stdout for the answer; the rest goes to stderr
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    answer = _answer(request)
    sys.stderr.flush()
    with os.fdopen(answer_fd, "w") as out:
        json.dump(answer, out)
