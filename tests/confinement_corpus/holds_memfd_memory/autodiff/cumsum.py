"""Holds memory in memfds, pages no per-process limit counts until they are mapped (red team,
round 8: in a container, memory held outside the workers' address spaces made the kernel's
memory killer take the classmates' workers). "pass" means no memfd could be made."""
import os

import jax.numpy as np

LEAKS = []
try:
    fd = os.memfd_create("held")
    os.write(fd, b"\0" * (1 << 20))
    LEAKS.append("memfd")
except OSError:
    pass


def jac(x):
    print(f"LEAKED {LEAKS}" if LEAKS else "no memfd")
    return np.tri(10) / (21 if LEAKS else 20)
