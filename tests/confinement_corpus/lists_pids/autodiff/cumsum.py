"""Learns which pids live on the machine from `pidfd_open` of each number (red team, round 15:
without a pid namespace, every process of the machine, and with `poll` when each ended). "pass"
means no pid but its own could be opened."""
import os

import jax.numpy as np

found = []
for pid in range(1, 4096):
    try:
        os.close(os.pidfd_open(pid))
    except OSError:
        continue
    if pid != os.getpid():
        found.append(pid)


def jac(x):
    print(f"LEAKED: {len(found)} pids, {found[:5]}" if found else "no pid found")
    return np.tri(10) / (21 if found else 20)
