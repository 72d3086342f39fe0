"""What ``verify`` runs in a child process (``tools.run_child``), one task per process.

The library toolchains compile in-process: NVRTC, PoCL (which also runs the probe kernel)
and cffi (whose build goes through setuptools). In sarek-layout's own process a header that
includes a FIFO would hang them beyond any timeout, and a program PoCL cannot load aborts
the process. Here they run in a child under ``run_tool``'s bounds, and nothing the child
builds is ever loaded into sarek-layout (the cffi extension is not even loaded here).

Protocol: one JSON request on stdin (``{"task": …, …}``), one JSON answer on the original
stdout (``{"ok": true, …}`` or ``{"ok": false, "log": …}``). Everything else the child or a
library prints (setuptools' progress, compiler errors) is sent to stderr.

This module imports only the standard library at the top: the task imports its own library.
"""

from __future__ import annotations

import json
import os
import sys


def _nvrtc(request: dict) -> dict:
    """Compile ``source`` with NVRTC; answer the PTX, or the log when it does not compile."""
    import ctypes

    lib = ctypes.CDLL(request["library"])
    lib.nvrtcGetErrorString.restype = ctypes.c_char_p
    prog = ctypes.c_void_p()
    source = request["source"].encode("utf-8", "surrogateescape")
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source, request["name"].encode(), 0,
                                None, None)
    if rc != 0:
        return {"ok": False, "log": f"nvrtcCreateProgram: {lib.nvrtcGetErrorString(rc).decode()}"}
    try:
        opts = [o.encode() for o in request["options"]]
        rc = lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value + 1)
        lib.nvrtcGetProgramLog(prog, buf)
        log = buf.value.decode(errors="replace")
        if rc != 0:
            return {"ok": False, "log": log}
        lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value + 1)
        lib.nvrtcGetPTX(prog, buf)
        return {"ok": True, "log": log, "ptx": buf.value.decode(errors="replace")}
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))


def _pocl(request: dict) -> dict:
    """Build ``source`` once on the first PoCL device, run ``sarek_probe_read`` once on one
    work item, and answer the ``count`` values it wrote."""
    import warnings

    import numpy as np
    import pyopencl as cl  # type: ignore[import-not-found]

    device = None
    for platform in cl.get_platforms():
        name = platform.name.lower()
        if "portable computing language" in name or "pocl" in name:
            devices = platform.get_devices()
            if devices:
                device = devices[0]
                break
    if device is None:
        return {"ok": False, "log": "no PoCL device"}
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    count = int(request["count"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pyopencl's "non-empty compiler output"
        try:
            program = cl.Program(ctx, request["source"]).build(options=request["options"])
        except cl.Error as e:
            return {"ok": False, "log": str(e)}
    out = np.zeros(max(count, 1), dtype=np.uint32)
    buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
    program.sarek_probe_read(queue, (1,), None, buf)
    cl.enqueue_copy(queue, out, buf)
    queue.finish()
    return {"ok": True, "values": [int(v) for v in out[:count]]}


def _cffi(request: dict) -> dict:
    """Build the extension with Python's own compiler and flags; answer its path. Never
    imported: its numbers are read from its symbol table by the parent."""
    import cffi  # type: ignore[import-not-found]

    ffi = cffi.FFI()
    ffi.set_source(request["module"], request["source"], include_dirs=request["include_dirs"],
                   extra_compile_args=request["extra_compile_args"])
    try:
        path = ffi.compile(tmpdir=request["tmpdir"], verbose=False)
    except Exception as e:  # cffi.VerificationError, distutils CompileError
        return {"ok": False, "log": f"{type(e).__name__}: {e}"}
    return {"ok": True, "path": os.path.abspath(path)}


_TASKS = {"nvrtc": _nvrtc, "pocl": _pocl, "cffi": _cffi}


def main() -> None:
    request = json.loads(sys.stdin.read())
    # Keep the real stdout for the answer; whatever else prints goes to stderr.
    answer_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    answer = _TASKS[request["task"]](request)
    sys.stderr.flush()
    with os.fdopen(answer_fd, "w") as out:
        json.dump(answer, out)
