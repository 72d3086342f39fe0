"""A CPU hog for ``make test-loaded`` where stress-ng is not installed: N busy processes.

``python tests/helpers/cpu_hog.py N`` starts N children that spin until this process ends (each
checks that its parent is still the same, so killing the parent stops them all, even with
SIGKILL).
"""

import os
import signal
import sys
import time


def spin(parent: int) -> None:
    while os.getppid() == parent:
        deadline = time.monotonic() + 0.1
        while time.monotonic() < deadline:
            pass


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else os.cpu_count() or 1
    parent = os.getpid()
    for _ in range(count):
        if os.fork() == 0:
            spin(parent)
            os._exit(0)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        signal.pause()


if __name__ == "__main__":
    main()
