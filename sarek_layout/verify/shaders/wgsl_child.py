"""What ``verify --shader`` runs for WGSL in a child process (``wgsl.measure_wgsl`` starts it
under ``tools.run_tool``'s time and memory bounds, as ``drivers.child`` runs PoCL and NVRTC):
wgpu validates the user's shader with naga, asks naga the type of each member
(``wgsl_probe``'s checks), then builds the probe shader and runs its entry point
``sarek_shader_probe`` once on the adapter wgpu finds (Mesa's lavapipe on a CPU).

Protocol: one JSON request on stdin (``user``: WGSL source; ``decls``, ``checks``: the type
checks' declarations and ``[guess, reveal]`` statements; ``probe``: the probe's WGSL source,
run only when every guess held; ``words``: the input buffer's length in 32-bit words, word
``i`` holding ``i + 1``; ``count``: output words), one JSON answer on the original stdout:
``{"ok": true, "checks": […], "values": […] | null}`` or ``{"ok": false, "stage":
"user"|"checks"|"probe"|"device", "log": …}``. Each check's answer is ``"guess"`` (its guess
held), ``{"log": …}`` (naga's refusal of the revealing check, which names the type) or
``"dropped"`` (its struct cannot be a workgroup variable). Only the standard library is
imported at the top; wgpu and its device only in the child.
"""

from __future__ import annotations

import json
import os
import re
import sys

_PLACE = re.compile(r"┌─\s*[^:\s]*:(\d+):\d+")
_FUNCTION = re.compile(r"'sarek_check_(\d+)'")


def _validate(device, code: str):
    try:
        device.create_shader_module(code=code)
    except Exception as e:  # naga's diagnostic
        return str(e)
    return None


def _module(request: dict, state: list, dropped: set) -> tuple:
    """The checks module, the line of each declaration and of each check."""
    lines = request["user"].splitlines() + [""]
    decl_at, check_at = {}, {}
    for i, decl in enumerate(request["decls"]):
        decl_at[len(lines) + 1] = i
        lines.append(decl if i not in dropped else "")
    for k, (guess, reveal) in enumerate(request["checks"]):
        stmt = {"guess": guess or reveal, "reveal": reveal}.get(state[k], "")
        check_at[len(lines) + 1] = k
        lines.append(f"fn sarek_check_{k}() {{ {stmt} }}" if stmt else "")
    return "\n".join(lines) + "\n", decl_at, check_at


def _checks(device, request: dict) -> dict:
    """Every check's answer (module docstring), or a failure."""
    checks = request["checks"]
    owner = request.get("owner", [])  # the declaration each check's struct has
    state = ["guess" if guess else "reveal" for guess, _ in checks]
    answers: list = ["guess"] * len(checks)
    dropped: set = set()
    for _ in range(2 * len(checks) + len(request["decls"]) + 2):
        code, decl_at, check_at = _module(request, state, dropped)
        log = _validate(device, code)
        if log is None:
            return {"ok": True, "checks": answers}
        place = _PLACE.search(log)
        named = _FUNCTION.search(log)
        line = int(place.group(1)) if place else -1
        k = int(named.group(1)) if named else check_at.get(line)
        if k is not None and state[k] == "guess":
            state[k] = "reveal"
        elif k is not None and state[k] == "reveal":
            answers[k], state[k] = {"log": log}, "done"
        elif line in decl_at and decl_at[line] > 0:  # a struct no workgroup variable can hold
            dropped.add(decl_at[line])
            for j, o in enumerate(owner):
                if o == decl_at[line]:
                    answers[j], state[j] = "dropped", "done"
        else:
            return {"ok": False, "stage": "checks", "log": log}
    return {"ok": False, "stage": "checks", "log": "naga: too many rounds of type checks"}


def _run(wgpu, device, request: dict) -> dict:
    import array

    module = device.create_shader_module(code=request["probe"])
    words = max(int(request["words"]), 1)
    count = max(int(request["count"]), 1)
    usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
    data = array.array("I", range(1, words + 1))
    if sys.byteorder != "little":
        data.byteswap()
    inp = device.create_buffer(size=words * 4, usage=usage)
    device.queue.write_buffer(inp, 0, data.tobytes())
    out = device.create_buffer(size=count * 4, usage=usage)
    pipeline = device.create_compute_pipeline(
        layout="auto", compute={"module": module, "entry_point": "sarek_shader_probe"})
    group = device.create_bind_group(
        layout=pipeline.get_bind_group_layout(0),
        entries=[{"binding": request["binding"], "resource": {"buffer": inp}},
                 {"binding": request["binding"] + 1, "resource": {"buffer": out}}])
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


def _answer(request: dict) -> dict:
    try:
        import wgpu  # type: ignore  # optional, untyped

        adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
        if adapter is None:
            return {"ok": False, "stage": "device", "log": "wgpu found no adapter"}
        # Every feature the adapter has: naga then validates what they allow (f16, f64,
        # i64, subgroups…), as on a device that has them.
        device = adapter.request_device_sync(required_features=list(adapter.features))
    except Exception as e:  # no backend, no Vulkan driver
        return {"ok": False, "stage": "device", "log": f"{type(e).__name__}: {e}"}
    log = _validate(device, request["user"])
    if log is not None:
        return {"ok": False, "stage": "user", "log": log}
    answer = _checks(device, request) if request.get("checks") else {"ok": True, "checks": []}
    if not answer["ok"] or not request.get("probe") or any(a != "guess"
                                                           for a in answer["checks"]):
        return {**answer, "values": None}
    try:
        answer.update(_run(wgpu, device, request))
    except Exception as e:
        return {"ok": False, "stage": "probe", "log": str(e), "checks": answer["checks"]}
    return answer


def main() -> None:
    request = json.loads(sys.stdin.read())
    answer_fd = os.dup(1)  # keep the real stdout for the answer; the rest goes to stderr
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    answer = _answer(request)
    sys.stderr.flush()
    with os.fdopen(answer_fd, "w") as out:
        json.dump(answer, out)
