"""Queues bytes in socket pairs' buffers (red team, round 8): kernel memory that no per-process
limit counts, 3 GB held by one worker where the job has no control group. "pass" means no pair
could be made."""
import socket

import jax.numpy as np

LEAKS = []
pairs = []
try:
    for _ in range(4):
        left, right = socket.socketpair()
        left.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        left.setblocking(False)
        try:
            while True:
                left.send(b"\0" * 65536)
        except BlockingIOError:
            pass
        pairs.append((left, right))
    LEAKS.append(f"{len(pairs)} socket pairs filled")
except OSError:
    pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no socket pair")
    return np.tri(10) / (21 if LEAKS else 20)
