"""Starts processes where a job has no process limit of its own (a container: no control groups,
workers running as root): a fork, `subprocess` (vfork or clone), and a thread, which must still
work. A fork bomb here would fill the container's process table and keep classmates' workers
from starting (red team, round 8). "pass" means every process was refused and the thread ran.
Where Python is open to other users (not under a 0700 /root), workers run as uids of their own,
whose process limit (RLIMIT_NPROC) bounds them: processes may start there."""
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


if os.getuid() != 0:  # a uid of its own: started processes are bounded, not refused
    LEAKS = [leak for leak in LEAKS if leak not in ("fork", "subprocess")]


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no process started")
    return np.tri(10) / (21 if LEAKS else 20)
