"""Reads and lowers the limits of processes outside its job (prlimit): its parent (the
grader's reaper), pid 1, and a process of the grader's user the test started. As that user,
RLIMIT_CPU of 1 s would kill the grader: "pass" means every prlimit was refused."""
import os
import resource

import jax.numpy as np

LEAKS = []
for pid in (os.getppid(), 1, int("@VICTIM@")):
    try:
        soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))  # the same: harmless if allowed
        LEAKS.append(pid)
    except OSError:
        pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no limit reached")
    return np.tri(10) / (21 if LEAKS else 20)
