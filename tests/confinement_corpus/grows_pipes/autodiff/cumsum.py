"""Grows a pipe to 1 MB (red team, round 13: 63 of them took the user's whole pipe quota,
fs.pipe-user-pages-soft, and left every other process of that user 4 KB pipes). "pass" means
F_SETPIPE_SZ was refused."""
import fcntl
import os

import jax.numpy as np

F_SETPIPE_SZ = 1031
read_end, write_end = os.pipe()
try:
    grown = fcntl.fcntl(write_end, F_SETPIPE_SZ, 1 << 20) >= 1 << 20
except OSError:
    grown = False


def jac(x):
    print("LEAKED: a pipe of 1 MB" if grown else "no pipe grown")
    return np.tri(10) / (21 if grown else 20)
