"""Holds memory outside its address space, in a memfd it writes to, else in a file of its
TMPDIR (a real attack writes until the machine or the container runs out): the kernel's
out-of-memory killer does not count that memory as the worker's, and would kill the grader
instead, run after run. "pass" means this worker is the killer's first choice (oom_score_adj
1000), whatever it holds (the seccomp filter refuses memfd_create; a TMPDIR may be a tmpfs)."""
import os
import tempfile

import jax.numpy as np

try:
    fd = os.memfd_create("jacpuzzles-hidden")
except OSError:
    fd = os.open(os.path.join(tempfile.gettempdir(), "hidden"), os.O_WRONLY | os.O_CREAT, 0o600)
os.write(fd, b"\0" * (16 << 20))
with open("/proc/self/oom_score_adj") as f:
    SCORE = int(f.read())


def jac(x):
    print(f"oom_score_adj {SCORE}")
    return np.tri(10) / (20 if SCORE == 1000 else 21)
