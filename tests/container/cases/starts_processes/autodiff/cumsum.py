"""Starts processes where a job has no process limit of its own (a container: no control groups,
workers running as root): a fork, `subprocess` (vfork or clone), and a thread, which must still
work. A fork bomb here would fill the container's process table and keep classmates' workers
from starting (red team, round 8). "pass" means every process was refused and the thread ran."""
import os
import subprocess
import threading

import jax.numpy as np

LEAKS = []
try:
    child = os.fork()
    if child == 0:
        os.abort()  # never here when refused
    LEAKS.append("fork")
except OSError:
    pass
try:
    subprocess.run(["/bin/true"], check=False)
    LEAKS.append("subprocess")
except OSError:
    pass
ran = []
thread = threading.Thread(target=lambda: ran.append(1))
thread.start()
thread.join()
if not ran:
    LEAKS.append("no thread")


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no process started")
    return np.tri(10) / (21 if LEAKS else 20)
