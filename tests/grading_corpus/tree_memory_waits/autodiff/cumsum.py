"""Starts three processes of 700 MB each at import, each under the per-process limit, together
over the submission's limit, and waits for them all: the limit kills one, the others sleep, so
the import runs out of time. Its verdict must name the memory limit, not the time limit.
Graded by a test of its own (test_a_timeout_after_the_trees_memory_limit_killed_names_the_memory_limit)."""
import subprocess
import sys

import jax.numpy as np

GRAB = "import time; b = bytearray(b'x') * (700 * 1024 * 1024); time.sleep(60)"
children = [subprocess.Popen([sys.executable, "-c", GRAB]) for _ in range(3)]
for child in children:
    child.wait()


def jac(x):
    return np.tri(10) / 20
