"""Where libnvrtc is: the NVRTC shared library the CUDA driver loads with ctypes.

Shared by the toolchain registry (whose ``nvrtc`` entry is available when it is found) and
the CUDA driver (which loads it); it imports nothing of sarek-layout.
"""

from __future__ import annotations

import functools
import os
from typing import Optional

__all__ = ["NVRTC_ENV", "nvrtc_library"]

#: Environment variable naming the NVRTC shared library explicitly.
NVRTC_ENV = "SAREK_NVRTC_LIBRARY"


def _nvrtc_candidates() -> list:
    """Where libnvrtc may be: $SAREK_NVRTC_LIBRARY, the pip wheels, the loader, CUDA_HOME."""
    import glob
    import importlib.util

    found: list = []
    explicit = os.environ.get(NVRTC_ENV)
    if explicit:
        return [explicit]
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        spec = None
    # nvidia-cuda-nvrtc 13.x installs nvidia/cu13/lib/libnvrtc.so.13, 12.x
    # nvidia/cuda_nvrtc/lib/libnvrtc.so.12: search every lib folder of the namespace package.
    for root in (spec.submodule_search_locations or []) if spec else []:
        found += sorted(glob.glob(os.path.join(root, "*", "lib", "libnvrtc.so*")), reverse=True)
    import ctypes.util

    name = ctypes.util.find_library("nvrtc")
    if name:
        found.append(name)
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            found += sorted(glob.glob(os.path.join(os.environ[var], "lib64", "libnvrtc.so*")),
                            reverse=True)
    found += sorted(glob.glob("/usr/local/cuda/lib64/libnvrtc.so*"), reverse=True)
    return [f for f in found if "builtins" not in os.path.basename(f)]


@functools.lru_cache(maxsize=None)
def nvrtc_library() -> Optional[str]:
    """Path (or loader name) of a libnvrtc that loads and answers ``nvrtcVersion``, or None."""
    import ctypes

    for candidate in _nvrtc_candidates():
        try:
            lib = ctypes.CDLL(candidate)
            major, minor = ctypes.c_int(), ctypes.c_int()
            if lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)) == 0:
                return candidate
        except (OSError, AttributeError):  # AttributeError: a library without nvrtcVersion
            continue
    return None
