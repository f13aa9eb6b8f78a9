"""Starts three processes of 700 MB each (once), each under the per-process limit, together over
the submission's limit; says how many got their memory, then returns the right Jacobian.
Graded by a test of its own (test_the_memory_limit_covers_the_submissions_whole_tree)."""
import subprocess
import sys

import jax.numpy as np

GRAB = "import time; b = bytearray(b'x') * (700 * 1024 * 1024); print('ok', flush=True); time.sleep(60)"
children = [subprocess.Popen([sys.executable, "-c", GRAB], stdout=subprocess.PIPE) for _ in range(3)]
got = sum(1 for child in children if child.stdout is not None and child.stdout.readline().strip() == b"ok")
for child in children:
    child.kill()
    child.wait()


def jac(x):
    print(f"children that got 700 MB: {got}")
    return np.tri(10) / 20
