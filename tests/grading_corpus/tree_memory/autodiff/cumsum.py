"""Starts three processes of 700 MB each (once), each under the per-process limit, together over
the submission's limit; says how many kept their memory, then returns the right Jacobian.
Graded by a test of its own (test_the_memory_limit_covers_the_submissions_whole_tree)."""
import subprocess
import sys
import time

import jax.numpy as np

GRAB = "import time; b = bytearray(b'x') * (700 * 1024 * 1024); print('ok', flush=True); time.sleep(60)"
children = [subprocess.Popen([sys.executable, "-c", GRAB], stdout=subprocess.PIPE) for _ in range(3)]
filled = [child.stdout is not None and child.stdout.readline().strip() == b"ok" for child in children]
# The kernel's victim is the largest process of the group when the limit is hit: often a child
# that had already filled its 700 MB and said so. Kept is filled and still alive once all have
# answered (a killed child has exited within the second).
time.sleep(1)
got = sum(1 for done, child in zip(filled, children) if done and child.poll() is None)
for child in children:
    child.kill()
    child.wait()


def jac(x):
    print(f"children that got 700 MB: {got}")
    return np.tri(10) / 20
